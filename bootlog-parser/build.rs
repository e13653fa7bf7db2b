//! Builds in every board profile of `images/boards/`: one TOML file per board, found, not
//! listed. Writes `$OUT_DIR/builtin_boards.rs`, the `BUILTIN` table of `board.rs`: `generic`
//! first (the profile used when none is given), then the others by name.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let dir = manifest.join("../images/boards");
    // A directory here makes cargo rerun the script when any entry in it changes, is added or
    // is removed.
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut boards: Vec<(String, PathBuf)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("board profiles: cannot read {}: {e}", dir.display()))
        .map(|entry| {
            entry
                .unwrap_or_else(|e| panic!("board profiles: reading {}: {e}", dir.display()))
                .path()
        })
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| (board_name(&p), p))
        .collect();
    boards.sort_by(|a, b| (a.0 != "generic", &a.0).cmp(&(b.0 != "generic", &b.0)));
    assert!(
        boards.first().is_some_and(|b| b.0 == "generic"),
        "board profiles: no generic.toml in {}",
        dir.display()
    );
    let mut out = String::from(
        "/// Built-in profiles: `(name, TOML text)`, every `images/boards/*.toml` (build.rs).\n\
         pub const BUILTIN: &[(&str, &str)] = &[\n",
    );
    for (name, path) in &boards {
        let path = path.canonicalize().expect("a file just listed");
        writeln!(out, "    ({name:?}, include_str!({:?})),", path.display()).unwrap();
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it"));
    std::fs::write(dest.join("builtin_boards.rs"), out).expect("OUT_DIR is writable");
}

/// The board's id: the file's stem, lower-case letters, digits and `-` only (it is typed on
/// command lines and names cache directories).
fn board_name(path: &Path) -> String {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    assert!(
        !stem.is_empty()
            && stem
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
        "board profiles: {}: a board's file name is its id: lower-case letters, digits and '-'",
        path.display()
    );
    stem.to_string()
}
