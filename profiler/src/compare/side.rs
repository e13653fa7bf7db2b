//! One side of a comparison: a run directory (its figures computed afresh, every initcall and
//! unit) or a `report.json` kept from an earlier run (the figures of that guide).

use crate::report::guide::build;
use crate::report::load::RunData;
use crate::report::model::Report;
use crate::report::ReportError;
use std::path::{Path, PathBuf};

/// Why a side could not be read.
#[derive(Debug, thiserror::Error)]
pub enum SideError {
    /// A run directory that could not be read.
    #[error(transparent)]
    Report(#[from] ReportError),
    /// A file that is not a report.
    #[error("{}: {message}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
}

/// A side's figures and what to call it.
#[derive(Debug)]
pub struct Side {
    /// The name shown in tables: the run directory's or file's name.
    pub name: String,
    /// The figures: one run (column 0).
    pub report: Report,
}

/// Reads `path`: a run directory, or a `report.json` of one run.
pub fn load(path: &Path) -> Result<Side, SideError> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    if path.is_dir() {
        let run = RunData::load(path, false)?;
        let name = run.name();
        return Ok(Side {
            name,
            report: build(std::slice::from_ref(&run), None),
        });
    }
    let err = |message: String| SideError::File {
        path: path.to_path_buf(),
        message,
    };
    let text = std::fs::read_to_string(path).map_err(|e| err(e.to_string()))?;
    let schema = serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|v| v.get("schema").and_then(|s| s.as_str()).map(String::from));
    if schema.as_deref() == Some("perfguide/summary/v1") {
        return Err(err(
            "a summary.json holds summaries only, not each cycle's value a test needs; run `perfguide report` on the run directory and keep its report.json".into(),
        ));
    }
    let report =
        Report::from_json(&path.display().to_string(), &text).map_err(|m| SideError::File {
            path: path.to_path_buf(),
            message: m
                .strip_prefix(&format!("{}: ", path.display()))
                .unwrap_or(&m)
                .to_string(),
        })?;
    if report.runs.len() != 1 {
        return Err(err(format!(
            "a report of {} runs; compare takes one run a side (write its report.json from one run directory)",
            report.runs.len()
        )));
    }
    let name = if name == "report.json" {
        report.runs[0].name.clone()
    } else {
        name
    };
    Ok(Side { name, report })
}
