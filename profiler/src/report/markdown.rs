//! The guide as Markdown (`guide.md`): the tables of [`super::tables`], pipe tables, every cell
//! escaped.

use super::model::Report;
use super::tables::{tables, title};
use crate::table::md;
use std::fmt::Write as _;

/// The guide as Markdown.
pub fn markdown(r: &Report) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# {}\n", md(&title(r)));
    for t in tables(r) {
        let _ = writeln!(s, "## {}\n\n{}\n", md(&t.title), md(&t.note));
        let head: Vec<String> = t.head.iter().map(|h| md(h)).collect();
        let _ = writeln!(s, "| {} |", head.join(" | "));
        let _ = writeln!(s, "|{}", "---|".repeat(head.len()));
        for row in &t.rows {
            let cells: Vec<String> = row.iter().map(|c| md(c)).collect();
            let _ = writeln!(s, "| {} |", cells.join(" | "));
        }
        s.push('\n');
    }
    s.pop();
    s
}
