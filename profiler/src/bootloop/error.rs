//! Errors that stop a boot loop.

use crate::capture::CaptureError;
use crate::lab::{ConsoleError, PowerError, TargetError};
use crate::rundir::RunError;

/// Errors that stop the loop (a failed cycle is not one: it is recorded and the loop goes on).
#[derive(Debug, thiserror::Error)]
pub enum BootLoopError {
    /// Power control failed.
    #[error(transparent)]
    Power(#[from] PowerError),
    /// The console could not be opened.
    #[error(transparent)]
    Console(#[from] ConsoleError),
    /// The board's drivers could not be built from its profile.
    #[error(transparent)]
    Target(#[from] TargetError),
    /// The capture file could not be written.
    #[error(transparent)]
    Capture(#[from] CaptureError),
    /// The run directory could not be written.
    #[error(transparent)]
    Run(#[from] RunError),
    /// A pattern of the profile does not compile.
    #[error("board {board}: bad pattern {pattern:?}: {source}")]
    Pattern {
        /// Board.
        board: String,
        /// The pattern.
        pattern: String,
        /// Why.
        source: regex::Error,
    },
    /// Power failed in several cycles in a row: nothing can be measured.
    #[error("power failed in {count} cycles in a row; last error: {last}")]
    PowerAbort {
        /// How many.
        count: u32,
        /// The last error.
        last: String,
    },
}
