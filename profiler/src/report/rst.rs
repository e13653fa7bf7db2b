//! The guide as reStructuredText (`guide.rst`) for Sphinx: the tables of [`super::tables`] as
//! `list-table` directives, every piece of text escaped so that nothing from a log becomes
//! markup. Builds with `sphinx-build -W`.

use super::model::Report;
use super::tables::{tables, title};
use std::fmt::Write as _;

/// Escapes text for an RST paragraph or table cell: every ASCII punctuation character gets a
/// backslash (an escaped character is always literal), line breaks and control characters
/// become spaces, and a cell that would be empty is `-`.
pub fn esc(t: &str) -> String {
    let mut o = String::with_capacity(t.len() + 8);
    for c in t.chars() {
        if c.is_ascii_punctuation() {
            o.push('\\');
            o.push(c);
        } else if c.is_control() {
            o.push(' ');
        } else {
            o.push(c);
        }
    }
    let trimmed = o.trim();
    if trimmed.is_empty() {
        "\\-".into()
    } else {
        trimmed.to_string()
    }
}

fn heading(s: &mut String, text: &str, underline: char) {
    let t = esc(text);
    let _ = writeln!(
        s,
        "{t}\n{}\n",
        underline.to_string().repeat(t.chars().count())
    );
}

/// The guide as RST.
pub fn rst(r: &Report) -> String {
    let mut s = String::new();
    heading(&mut s, &title(r), '=');
    for t in tables(r) {
        heading(&mut s, &t.title, '-');
        let _ = writeln!(s, "{}\n", esc(&t.note));
        let _ = writeln!(s, ".. list-table::\n   :header-rows: 1\n");
        for row in std::iter::once(&t.head).chain(&t.rows) {
            for (j, c) in row.iter().enumerate() {
                let lead = if j == 0 { "   * - " } else { "     - " };
                let _ = writeln!(s, "{lead}{}", esc(c));
            }
        }
        s.push('\n');
    }
    s
}
