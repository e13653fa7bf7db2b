//! The typed errors of the parsers.

use thiserror::Error;

/// Why a parser returned no metrics.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Error {
    /// The text is not the output of `tool`; `line` is its first non-blank line.
    #[error("{tool}: output not recognised (line {line})")]
    NotRecognised { tool: &'static str, line: u64 },
    /// The text looks like `tool`'s output but holds no figure; `line` is where it stops.
    #[error("{tool}: no figures, the output stops at line {line}")]
    NoMetrics { tool: &'static str, line: u64 },
    /// No registered tool recognises the text; `line` is its first non-blank line.
    #[error("no benchmark tool recognised (line {line})")]
    Undetected { line: u64 },
    /// A tool name that is not in the registry.
    #[error("unknown tool '{0}'")]
    UnknownTool(String),
}
