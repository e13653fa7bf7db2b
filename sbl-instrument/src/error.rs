//! Typed errors. Every parse error names the structure being read and the file offset.

use std::path::PathBuf;

/// Result alias used throughout the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong while reading, decoding or patching a boot image.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be opened, mapped, read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file concerned.
        path: PathBuf,
        /// The underlying I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A structure runs past the end of the data that holds it.
    #[error(
        "{structure} at offset {offset:#x}: truncated: needs {needed} bytes, {available} available"
    )]
    Truncated {
        /// What was being read (e.g. "FIT image node /images/atf data").
        structure: String,
        /// File offset of the structure.
        offset: u64,
        /// Bytes the structure needs from `offset`.
        needed: u64,
        /// Bytes actually available from `offset`.
        available: u64,
    },
    /// A structure is present but its content is invalid.
    #[error("{structure} at offset {offset:#x}: {reason}")]
    Malformed {
        /// What was being read.
        structure: String,
        /// File offset of the structure (or of the offending field).
        offset: u64,
        /// What is wrong with it.
        reason: String,
    },
    /// An offset, size or address computed from the input does not fit in 64 bits: the input
    /// is malformed (a hostile or corrupt header), and no wrapped value is used.
    #[error("{structure} at offset {offset:#x}: {a:#x} {op} {b:#x} overflows 64 bits")]
    Overflow {
        /// What was being read.
        structure: String,
        /// File offset of the structure (or of the offending field).
        offset: u64,
        /// Left operand.
        a: u64,
        /// `+` or `*`.
        op: char,
        /// Right operand.
        b: u64,
    },
    /// A symbol needed by the command is not in the ELF symbol table.
    #[error("symbol `{0}` not found in the ELF symbol table")]
    SymbolNotFound(String),
    /// The input is not of a kind the command can work on.
    #[error("{0}")]
    Unsupported(String),
    /// A command-line argument or value is invalid.
    #[error("{0}")]
    Invalid(String),
    /// An error in a particular file.
    #[error("{path}: {source}")]
    InFile {
        /// The file concerned.
        path: PathBuf,
        /// What went wrong in it.
        #[source]
        source: Box<Error>,
    },
}

impl Error {
    /// Build a [`Error::Malformed`].
    pub fn malformed(structure: impl Into<String>, offset: u64, reason: impl Into<String>) -> Self {
        Error::Malformed {
            structure: structure.into(),
            offset,
            reason: reason.into(),
        }
    }

    /// Build a [`Error::Truncated`].
    pub fn truncated(
        structure: impl Into<String>,
        offset: u64,
        needed: u64,
        available: u64,
    ) -> Self {
        Error::Truncated {
            structure: structure.into(),
            offset,
            needed,
            available,
        }
    }

    /// Build a [`Error::Overflow`].
    pub fn overflow(structure: impl Into<String>, offset: u64, a: u64, op: char, b: u64) -> Self {
        Error::Overflow {
            structure: structure.into(),
            offset,
            a,
            op,
            b,
        }
    }

    /// Attach the file path to an error.
    pub fn in_file(self, path: impl Into<PathBuf>) -> Self {
        match self {
            e @ (Error::Io { .. } | Error::InFile { .. }) => e,
            e => Error::InFile {
                path: path.into(),
                source: Box::new(e),
            },
        }
    }

    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }
}
