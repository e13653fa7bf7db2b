//! The Performance Guide of one or more run directories, laid out as TI's Processor SDK guides
//! present boot time and benchmarks: a setup table, the boot time as `mean (min X, max Y)`,
//! the stage breakdown, bootstage records, SBL profile points, the R5 and A-core SPLs' steps,
//! initcalls, systemd units, the console's cost and the benchmark tables, one column per run.
//!
//! [`model`] holds the figures; [`guide`] computes them from run directories ([`load`]);
//! [`waterfall`] lays one boot on one time axis; each format prints the same model, and the
//! HTML page adds the pictures of [`svg`].

pub mod console_cost;
pub mod csv;
pub mod escape;
pub mod format;
pub mod guide;
pub mod html;
pub mod load;
pub mod markdown;
pub mod model;
pub mod rst;
pub mod svg;
pub mod tables;
pub mod waterfall;
pub mod wire;

use crate::rundir::RunError;
use std::path::PathBuf;

/// Errors building a report.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// The run directory could not be read.
    #[error(transparent)]
    Run(#[from] RunError),
    /// `run.json` is missing or malformed.
    #[error("{path}: {message}")]
    Manifest {
        /// The file.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// A `bench.jsonl` line is not a `perfguide/bench/v1` record.
    #[error("{}:{line}: {message}", path.display())]
    Bench {
        /// The file.
        path: PathBuf,
        /// 1-based line (0: the file as a whole).
        line: u64,
        /// What is wrong.
        message: String,
    },
    /// `boots.jsonl` lacks cycles or is damaged, and `--partial` was not given.
    #[error("{what}; `perfguide boot-loop --resume` completes the run, `perfguide report --partial` reports the cycles there are")]
    Incomplete {
        /// What is missing or damaged.
        what: String,
    },
    /// A format could not be rendered (`report.json`'s serialisation).
    #[error("cannot render the report: {0}")]
    Render(#[from] serde_json::Error),
    /// The path is not a directory.
    #[error("{0}: not a run directory (give the directory `perfguide boot-loop --out` wrote)")]
    NotARun(PathBuf),
}
