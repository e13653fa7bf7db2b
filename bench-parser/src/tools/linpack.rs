//! LINPACK: Roy Longbottom's C version (`Rolled Double Precision N Mflops`,
//! `Average` lines per leading dimension) and the netlib `linpackc`
//! (`Reps Time(s) ... KFLOPS` rows).

use crate::collect::Collect;
use crate::error::Error;
use crate::model::{unit, Better, Parsed};
use crate::text::{self, after, lines, number, numbers, slug};

pub const NAME: &str = "linpack";
pub const LINPACK: &str = "linpack";

const LEADING: &str = "leading dimension of";

pub fn recognise(text: &str) -> bool {
    text.contains("LINPACK")
        || text.contains("Linpack")
        || (text.contains("Precision") && text.contains("Mflops"))
        || (text.contains("dgefa") && text.contains("Mflops"))
}

pub fn parse(text: &str) -> Result<Parsed, Error> {
    let mut out = Collect::start(NAME, recognise(text), text)?;
    let last = text::last_line(text);
    // Longbottom: the leading dimension of the table being read.
    let mut dimension: Option<u64> = None;
    let mut averages: Vec<(u64, f64, u64)> = Vec::new();
    // netlib: the precision and the last KFLOPS row.
    let mut precision = "double".to_string();
    let mut kflops: Option<(f64, u64)> = None;
    let mut in_rows = false;
    let mut finals: Vec<(String, f64, u64)> = Vec::new();
    for (no, line) in lines(text) {
        let t = line.trim();
        if let Some(d) = after(t, LEADING)
            .and_then(|r| r.split_whitespace().next())
            .and_then(number)
        {
            if t.starts_with("Times for array") {
                dimension = Some(d as u64);
            }
        } else if let Some(rest) = t.strip_prefix("Average") {
            if let (Some(d), Some(&v)) = (dimension.take(), numbers(rest).last()) {
                averages.push((d, v, no));
            }
        } else if (t.starts_with("Rolled") || t.starts_with("Unrolled")) && t.ends_with("Mflops") {
            let words: Vec<&str> = t.split_whitespace().collect();
            if let Some(v) = words.iter().rev().nth(1).and_then(|w| number(w)) {
                let variant: Vec<&str> = words
                    .iter()
                    .take_while(|w| number(w).is_none())
                    .copied()
                    .collect();
                let name = slug(&variant.join(" ").replace("Precision", ""));
                finals.push((name, v, no));
            }
        } else if let Some(rest) = after(t, "LINPACK benchmark,") {
            precision = slug(rest.split_whitespace().next().unwrap_or("double"));
        } else if t.contains("KFLOPS") && t.contains("Reps") {
            in_rows = true;
        } else if in_rows {
            let v = numbers(&t.replace('%', " "));
            if v.len() >= 6 {
                kflops = Some((v[v.len() - 1], no));
            } else if !t.starts_with('-') && !t.is_empty() {
                in_rows = false;
            }
        }
    }
    let variant = finals.first().map_or(precision, |f| f.0.clone());
    let bench = format!("{NAME}/{variant}");
    for (d, v, no) in &averages {
        out.push(
            &bench,
            &format!("{LINPACK}-ld{d}"),
            *v,
            unit::MFLOPS,
            Better::Higher,
            *no,
        );
    }
    for (name, v, no) in &finals {
        out.push(
            &format!("{NAME}/{name}"),
            LINPACK,
            *v,
            unit::MFLOPS,
            Better::Higher,
            *no,
        );
    }
    if let Some((v, no)) = kflops {
        out.push(&bench, LINPACK, v, unit::KFLOPS, Better::Higher, no);
    }
    if finals.is_empty()
        && kflops.is_none()
        && (dimension.is_some() || !averages.is_empty() || in_rows)
    {
        out.truncated(last, "the final Mflops line");
    }
    out.finish(text)
}
