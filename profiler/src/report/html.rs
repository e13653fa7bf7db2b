//! The guide as one self-contained HTML page (`report.html`): inline CSS, no script, no
//! external resource, so it reads the same with JavaScript off and offline. Every string that
//! came from a log, a manifest or a file goes through [`esc`].

use super::model::Report;
use super::tables::{tables, title};
use std::fmt::Write as _;

/// Escapes text for HTML element content and double-quoted attribute values.
pub fn esc(t: &str) -> String {
    let mut o = String::with_capacity(t.len());
    for c in t.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c if c.is_control() && c != '\n' && c != '\t' => o.push('\u{fffd}'),
            c => o.push(c),
        }
    }
    o
}

const STYLE: &str =
    "body{font-family:system-ui,sans-serif;margin:2em auto;max-width:80em;color:#222}\
table{border-collapse:collapse;margin:.5em 0 1.5em}\
th,td{border:1px solid #bbb;padding:.2em .6em;text-align:left;vertical-align:top}\
th{background:#eee}td.num{text-align:right;font-variant-numeric:tabular-nums}\
p.note{color:#555;max-width:60em}figure{margin:1em 0}";

/// The guide as an HTML page.
pub fn html(r: &Report) -> String {
    let mut s = String::new();
    let t = esc(&title(r));
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n\
         <title>{t}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{t}</h1>\n"
    );
    for tb in tables(r) {
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
                let class = if j > 0 && c.starts_with(|ch: char| ch.is_ascii_digit()) {
                    " class=\"num\""
                } else {
                    ""
                };
                let _ = write!(s, "<td{class}>{}</td>", esc(c));
            }
            s.push_str("</tr>\n");
        }
        s.push_str("</table>\n</section>\n");
    }
    s.push_str("</body>\n</html>\n");
    s
}
