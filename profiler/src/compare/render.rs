//! A comparison printed: Markdown (what a review reads), HTML (the same table on one page) and
//! JSON (`perfguide/compare/v1`, for CI).

use super::reference::Check;
use super::verdict::{Comparison, Line, Verdict};
use crate::report::escape::esc;
use crate::report::model::{decimals, ti};
use crate::table::md;
use std::fmt::Write as _;

/// The column headings of the comparison table.
const HEAD: [&str; 9] = [
    "Section",
    "Figure",
    "Base mean (min, max)",
    "Candidate mean (min, max)",
    "Change",
    "p (Holm)",
    "Shift [95 % CI]",
    "Verdict",
    "n",
];

/// The first lines: the sides and the counts of each verdict.
pub fn headline(c: &Comparison) -> String {
    let regress = c.regressions().count();
    format!(
        "{} vs {}: {} faster, {} slower ({} beyond the {}% threshold), {} no significant change, {} too few cycles to tell",
        c.base,
        c.candidate,
        c.count(Verdict::Faster),
        c.count(Verdict::Slower),
        regress,
        c.threshold_pct,
        c.count(Verdict::NoChange),
        c.count(Verdict::TooFew),
    )
}

fn cells(l: &Line) -> [String; 9] {
    let d = decimals(&l.unit, l.base.mean.abs().max(l.candidate.mean.abs()));
    let change = match l.change_pct {
        Some(p) => format!("{:+.d$} {} ({:+.1}%)", l.change, l.unit, p),
        None => format!("{:+.d$} {}", l.change, l.unit),
    };
    let shift = l
        .shift
        .as_ref()
        .map(|s| format!("{:+.d$} [{:+.d$}, {:+.d$}]", s.estimate, s.low, s.high))
        .unwrap_or_else(|| "-".into());
    let p = if l.verdict == Verdict::TooFew {
        "-".to_string()
    } else {
        format!("{} ({})", fmt_p(l.p), fmt_p(l.p_holm))
    };
    let mut verdict = l.verdict.as_str().to_string();
    if l.verdict == Verdict::Slower && !l.beyond_threshold {
        verdict.push_str(" (within threshold)");
    }
    if let (Some(n), Verdict::TooFew | Verdict::NoChange) = (l.needed, l.verdict) {
        let _ = write!(verdict, "; ~{n} a side to tell this change");
    }
    [
        l.section.clone(),
        l.name.clone(),
        format!("{} {}", ti(&l.unit, &l.base), l.unit),
        format!("{} {}", ti(&l.unit, &l.candidate), l.unit),
        change,
        p,
        shift,
        verdict,
        format!("{} / {}", l.base.n, l.candidate.n),
    ]
}

/// A p-value in a table: 3 significant digits, `<1e-6` below.
pub fn fmt_p(p: f64) -> String {
    if p < 1e-6 {
        "<1e-6".into()
    } else if p < 0.001 {
        format!("{p:.1e}")
    } else {
        format!("{p:.3}")
    }
}

/// The lines in reading order: regressions first, then improvements, then the rest.
fn ordered(c: &Comparison) -> Vec<&Line> {
    let rank = |l: &Line| match l.verdict {
        Verdict::Slower => 0,
        Verdict::Faster => 1,
        Verdict::NoChange => 2,
        Verdict::TooFew => 3,
    };
    let mut v: Vec<&Line> = c.lines.iter().collect();
    v.sort_by_key(|l| rank(l));
    v
}

const METHOD: &str = "Change: candidate mean less base mean. p: two-sided Mann-Whitney U (exact for small samples without ties), in brackets after Holm's correction over the figures of the section; a verdict needs p (Holm) < 0.05. Shift: Hodges-Lehmann estimate of candidate - base, with its 95 % confidence interval. Faster and slower follow each figure's direction (higher is better for throughput).";

/// The comparison as Markdown.
pub fn markdown(c: &Comparison) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Comparison: {} vs {}\n\n{}\n\n{}\n",
        md(&c.base),
        md(&c.candidate),
        md(&headline(c)),
        METHOD
    );
    let _ = writeln!(
        s,
        "| {} |\n|{}",
        HEAD.join(" | "),
        "---|".repeat(HEAD.len())
    );
    for l in ordered(c) {
        let row: Vec<String> = cells(l).iter().map(|x| md(x)).collect();
        let _ = writeln!(s, "| {} |", row.join(" | "));
    }
    for (what, v) in [
        ("Only in the base", &c.only_base),
        ("Only in the candidate", &c.only_candidate),
    ] {
        if !v.is_empty() {
            let items: Vec<String> = v.iter().map(|x| md(x)).collect();
            let _ = writeln!(s, "\n{what} (not compared): {}", items.join(", "));
        }
    }
    s
}

/// The comparison as an HTML page (no script, every string escaped).
pub fn html(c: &Comparison) -> String {
    let mut s = String::new();
    let title = format!("Comparison: {} vs {}", c.base, c.candidate);
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n\
         <title>{t}</title>\n<style>body{{font-family:system-ui,sans-serif;margin:2em}}\
         table{{border-collapse:collapse}}th,td{{border:1px solid #bbb;padding:.2em .5em}}\
         tr.slower td{{background:#fde2e1}}tr.faster td{{background:#e2f5e4}}</style>\n</head>\n<body>\n\
         <h1>{t}</h1>\n<p>{h}</p>\n<p>{m}</p>\n<table>\n<tr>",
        t = esc(&title),
        h = esc(&headline(c)),
        m = esc(METHOD)
    );
    for h in HEAD {
        let _ = write!(s, "<th>{}</th>", esc(h));
    }
    s.push_str("</tr>\n");
    for l in ordered(c) {
        let class = match l.verdict {
            Verdict::Slower => "slower",
            Verdict::Faster => "faster",
            _ => "",
        };
        let _ = write!(s, "<tr class=\"{class}\">");
        for x in cells(l) {
            let _ = write!(s, "<td>{}</td>", esc(&x));
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</table>\n</body>\n</html>\n");
    s
}

/// The column headings of a reference check.
const REFERENCE_HEAD: [&str; 5] = ["Section", "Figure", "Limit", "Run", "Result"];

fn reference_cells(c: &Check) -> [String; 5] {
    [
        c.section.clone(),
        c.name.clone(),
        c.limit.to_string(),
        c.value
            .map(|v| format!("{v:.3} {}", c.unit))
            .unwrap_or_else(|| "not measured".into()),
        if c.ok { "ok" } else { "EXCEEDED" }.to_string(),
    ]
}

/// A reference check (`--reference`) as Markdown: `said` (the outcome), then a row a limit.
pub fn reference_markdown(said: &str, checks: &[Check]) -> String {
    let mut s = format!(
        "# Reference check\n\n{}\n\n| {} |\n|{}\n",
        md(said),
        REFERENCE_HEAD.join(" | "),
        "---|".repeat(REFERENCE_HEAD.len())
    );
    for c in checks {
        let row: Vec<String> = reference_cells(c).iter().map(|x| md(x)).collect();
        let _ = writeln!(s, "| {} |", row.join(" | "));
    }
    s
}

/// A reference check as an HTML page.
pub fn reference_html(said: &str, checks: &[Check]) -> String {
    let mut s = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Reference check</title></head><body>\n<h1>Reference check</h1>\n<p>{}</p>\n<table>\n<tr>",
        esc(said)
    );
    for h in REFERENCE_HEAD {
        let _ = write!(s, "<th>{h}</th>");
    }
    s.push_str("</tr>\n");
    for c in checks {
        s.push_str("<tr>");
        for x in reference_cells(c) {
            let _ = write!(s, "<td>{}</td>", esc(&x));
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</table></body></html>\n");
    s
}
