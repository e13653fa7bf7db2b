//! `openssl speed` (1.x and 3.x, with or without `-elapsed -evp`): the
//! `type  16 bytes ...` table in 1000s of bytes per second (`k` suffix; a
//! figure without it is in bytes per second). Output cut before the table
//! falls back on the `Doing ... size blocks: N ...'s in Ts` lines.

use crate::collect::Collect;
use crate::error::Error;
use crate::model::{unit, Better, Parsed};
use crate::text::{self, after, lines, number, number_k};

pub const NAME: &str = "openssl";

const DOING: &str = "Doing ";
const BLOCKS: &str = " size blocks";

pub fn recognise(text: &str) -> bool {
    (text.contains(DOING) && text.contains(BLOCKS))
        || text.contains("The 'numbers' are in 1000s of bytes")
        || lines(text).any(|(_, l)| table_sizes(l).is_some())
}

/// The block sizes of a `type  16 bytes  64 bytes ...` header.
fn table_sizes(line: &str) -> Option<Vec<u64>> {
    let mut w = line.split_whitespace();
    if w.next()? != "type" {
        return None;
    }
    let rest: Vec<&str> = w.collect();
    if rest.is_empty() || rest.len() % 2 != 0 {
        return None;
    }
    rest.chunks(2)
        .map(|c| {
            if c[1] == "bytes" {
                c[0].parse::<u64>().ok()
            } else {
                None
            }
        })
        .collect()
}

/// Benchmark and metric of algorithm `alg` at block size `size`.
fn names(alg: &str) -> (String, String) {
    let alg = alg.to_ascii_lowercase().replace(' ', "-");
    (format!("{NAME}/{alg}"), alg)
}

/// One `Doing <alg> for 3s on <n> size blocks: <count> <alg>'s in <t>s` line.
fn doing(line: &str) -> Option<(String, u64, f64)> {
    let rest = after(line, DOING)?;
    let (alg, rest) = rest.split_once(" for ")?;
    let size: u64 = after(rest, "on ")?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    let (_, res) = rest.split_once(": ")?;
    let count = number(res.split_whitespace().next()?)?;
    let secs = number(after(res, " in ")?.trim_end_matches('s'))?;
    let alg = alg.trim_end_matches(" ops");
    (secs > 0.0).then(|| (alg.to_string(), size, count * size as f64 / secs / 1000.0))
}

/// An `rsa 2048 bits 0.008318s 0.000246s 120.2 4071.2` row: bits, sign/s, verify/s.
fn signature_row(t: &str) -> Option<(u64, f64, f64)> {
    let w: Vec<&str> = t.split_whitespace().collect();
    if w.len() != 7 || !matches!(w[0], "rsa" | "dsa") || w[2] != "bits" {
        return None;
    }
    Some((w[1].parse().ok()?, number(w[5])?, number(w[6])?))
}

pub fn parse(text: &str) -> Result<Parsed, Error> {
    let mut out = Collect::start(NAME, recognise(text), text)?;
    let last = text::last_line(text);
    let mut sizes: Option<Vec<u64>> = None;
    let mut doings: Vec<(String, u64, f64, u64)> = Vec::new();
    let mut rows = 0;
    for (no, line) in lines(text) {
        let t = line.trim();
        if let Some(s) = table_sizes(t) {
            sizes = Some(s);
            continue;
        }
        if let Some((alg, size, v)) = doing(t) {
            doings.push((alg, size, v, no));
            continue;
        }
        if let Some((bits, sign, verify)) = signature_row(t) {
            let alg = t.split_whitespace().next().unwrap_or("rsa");
            let bench = format!("{NAME}/{alg}{bits}");
            out.push(
                &bench,
                &format!("{alg}{bits}-sign"),
                sign,
                unit::SIGN_S,
                Better::Higher,
                no,
            );
            out.push(
                &bench,
                &format!("{alg}{bits}-verify"),
                verify,
                unit::VERIFY_S,
                Better::Higher,
                no,
            );
            rows += 1;
            continue;
        }
        let Some(sz) = &sizes else { continue };
        let words: Vec<&str> = t.split_whitespace().collect();
        if words.len() <= sz.len() {
            if !t.is_empty()
                && rows > 0
                && words.len() > 1
                && words[1..].iter().all(|w| number_k(w).is_some())
            {
                out.truncated(no, "the end of the table row");
            }
            continue;
        }
        let split = words.len() - sz.len();
        let values: Option<Vec<f64>> = words[split..]
            .iter()
            .map(|w| number_k(w).map(|(v, k)| if k { v } else { v / 1000.0 }))
            .collect();
        let Some(values) = values else { continue };
        let (bench, alg) = names(&words[..split].join(" "));
        for (size, v) in sz.iter().zip(values) {
            out.push(
                &bench,
                &format!("{alg}-{size}"),
                v,
                unit::KB_S,
                Better::Higher,
                no,
            );
        }
        rows += 1;
    }
    if rows == 0 && !doings.is_empty() {
        for (alg, size, v, no) in &doings {
            let (bench, alg) = names(alg);
            out.push(
                &bench,
                &format!("{alg}-{size}"),
                *v,
                unit::KB_S,
                Better::Higher,
                *no,
            );
        }
        out.truncated(last, "the result table");
    }
    out.finish(text)
}
