//! Helpers shared by the end-to-end tests: where the corpus of real logs is, and how to parse
//! one of them.

use bootlog_parser::{parse_bytes, BoardProfile, Boot};
use std::path::PathBuf;

/// The corpus of real logs copied from the project's shared corpus (`tests/corpus`).
pub fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

/// Reads a corpus file (path relative to `tests/corpus`).
pub fn corpus(rel: &str) -> Vec<u8> {
    let p = corpus_dir().join(rel);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Parses a corpus file with a built-in board profile.
pub fn boots(rel: &str, board: &str) -> Vec<Boot> {
    parse_bytes(
        &corpus(rel),
        &BoardProfile::builtin(board).expect("built-in profile"),
    )
}

/// Every boot log of the corpus (benchmark outputs excluded).
pub fn boot_logs() -> Vec<PathBuf> {
    let mut v = Vec::new();
    for d in std::fs::read_dir(corpus_dir()).expect("corpus dir") {
        let d = d.expect("entry").path();
        if !d.is_dir() || d.ends_with("I_bench") {
            continue;
        }
        for f in std::fs::read_dir(&d).expect("corpus subdir") {
            let f = f.expect("entry").path();
            if f.extension().is_some_and(|e| e == "log") {
                v.push(f);
            }
        }
    }
    v.sort();
    v
}
