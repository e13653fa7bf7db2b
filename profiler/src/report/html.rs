//! The guide as one self-contained HTML page (`report.html`): the tables and the pictures of
//! [`svg`] (inline SVG), inline CSS, no script, no external resource, so it reads the same with
//! JavaScript off and offline. Every string that came from a log, a manifest or a file goes
//! through [`esc`](super::escape::esc).

use super::escape::esc;
use super::model::Report;
use super::svg;
use super::tables::{self, title, Table};
use std::fmt::Write as _;

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:0 auto;padding:1.5em 2em 3em;max-width:74em;color:#222;line-height:1.4}\
h1{font-size:1.6em;margin:.3em 0 .8em}\
h2{font-size:1.25em;margin:1.6em 0 .3em;padding-top:.7em;border-top:1px solid #ddd}\
table{border-collapse:collapse;margin:.5em 0 1em;font-size:.92em}\
th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left;vertical-align:top;overflow-wrap:anywhere}\
td:first-child{overflow-wrap:normal}\
th{background:#f0f0f0}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\
p.note{color:#555;max-width:60em;margin:.2em 0 .6em}\
figure{margin:1em 0 1.6em}figure svg{display:block;max-width:100%;height:auto}\
figcaption{color:#444;font-size:.9em;max-width:66em;margin-top:.4em}";

/// The guide as an HTML page: each table, and after the boot time the waterfalls, after the
/// stage breakdown the spread over the cycles, after each benchmark table its bars.
pub fn html(r: &Report) -> String {
    let mut s = String::new();
    let t = esc(&title(r));
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n\
         <title>{t}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{t}</h1>\n"
    );
    table(&mut s, &tables::setup(r), false);
    s.push_str("</section>\n");
    // The spread goes after the stage breakdown, or after the boot time without one.
    let spread_after = if r.section("stages").is_some() {
        "stages"
    } else {
        "boot"
    };
    for sec in &r.sections {
        table(&mut s, &tables::section(r, sec), true);
        if sec.id == "boot" {
            s.push_str(&svg::waterfalls(r));
        }
        if sec.id == spread_after {
            s.push_str(&svg::spread(r).unwrap_or_default());
        }
        if sec.id.starts_with("bench/") {
            s.push_str(&svg::bench(r, sec).unwrap_or_default());
        }
        s.push_str("</section>\n");
    }
    if let Some(tb) = tables::failed(r) {
        table(&mut s, &tb, true);
        s.push_str("</section>\n");
    }
    s.push_str("</body>\n</html>\n");
    s
}

/// Opens a `<section>` with the table's heading, note and cells (the caller closes it);
/// with `numbers`, cells that start with a digit are right-aligned.
fn table(s: &mut String, tb: &Table, numbers: bool) {
    let _ = writeln!(
        s,
        "<section>\n<h2>{}</h2>\n<p class=\"note\">{}</p>",
        esc(&tb.title),
        esc(&tb.note)
    );
    s.push_str("<table>\n<tr>");
    for h in &tb.head {
        let _ = write!(s, "<th>{}</th>", esc(h));
    }
    s.push_str("</tr>\n");
    for row in &tb.rows {
        s.push_str("<tr>");
        for (j, c) in row.iter().enumerate() {
            let class = if numbers && j > 0 && c.starts_with(|ch: char| ch.is_ascii_digit()) {
                " class=\"num\""
            } else {
                ""
            };
            let _ = write!(s, "<td{class}>{}</td>", esc(c));
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</table>\n");
}
