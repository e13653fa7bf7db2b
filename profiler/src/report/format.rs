//! The guide's formats: each one's file name and renderer, in one list. A new format is its
//! renderer's file plus its line here.

use super::model::Report;
use super::ReportError;
use crate::rundir::write_atomic;
use std::path::{Path, PathBuf};

/// A document format of the guide.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `guide.md`: Markdown.
    Md,
    /// `guide.rst`: reStructuredText for Sphinx.
    Rst,
    /// `report.html`: one self-contained page with pictures (inline SVG, no JavaScript).
    Html,
    /// `report.json`: every figure with every cycle's value (`perfguide/report/v1`).
    Json,
    /// `report.csv`: one line per figure and statistic.
    Csv,
}

impl Format {
    /// Every format, in the order they are written.
    pub const ALL: [Format; 5] = [
        Format::Md,
        Format::Rst,
        Format::Html,
        Format::Json,
        Format::Csv,
    ];

    /// The file a format is written to.
    pub fn file_name(self) -> &'static str {
        match self {
            Format::Md => "guide.md",
            Format::Rst => "guide.rst",
            Format::Html => "report.html",
            Format::Json => "report.json",
            Format::Csv => "report.csv",
        }
    }

    /// The document in this format.
    pub fn render(self, r: &Report) -> Result<String, ReportError> {
        Ok(match self {
            Format::Md => super::markdown::markdown(r),
            Format::Rst => super::rst::rst(r),
            Format::Html => super::html::html(r),
            Format::Json => serde_json::to_string_pretty(r)? + "\n",
            Format::Csv => super::csv::csv(r),
        })
    }
}

/// Writes the guide `r` in each of `formats` into `dir` (atomically); returns the files.
pub fn write_formats(
    r: &Report,
    formats: &[Format],
    dir: &Path,
) -> Result<Vec<PathBuf>, ReportError> {
    let mut written = Vec::new();
    for f in formats {
        let path = dir.join(f.file_name());
        write_atomic(&path, f.render(r)?.as_bytes())?;
        written.push(path);
    }
    Ok(written)
}
