//! The bench input shared by the benches: every corpus log, concatenated and repeated in
//! memory to `BENCH_MB` MB (default 100), as `scripts/bench-parse.sh` builds its file.

use std::path::{Path, PathBuf};

fn logs(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            logs(&p, out);
        } else if p.extension().is_some_and(|x| x == "log") {
            out.push(p);
        }
    }
}

/// The repeated corpus (`CORPUS`, default `tests/corpus`) and how many logs it holds; `None`
/// (with a message) when there are no logs.
pub fn repeated_corpus() -> Option<(Vec<u8>, usize)> {
    let corpus = std::env::var_os("CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/corpus"));
    let mb: usize = std::env::var("BENCH_MB")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100);
    let mut files = Vec::new();
    logs(&corpus, &mut files);
    files.sort();
    if files.is_empty() {
        eprintln!("no *.log under {} (set CORPUS)", corpus.display());
        return None;
    }
    let mut unit = Vec::new();
    for f in &files {
        unit.extend(std::fs::read(f).expect("read corpus log"));
    }
    let mut data = Vec::with_capacity(mb * 1_000_000 + unit.len());
    while data.len() < mb * 1_000_000 {
        data.extend_from_slice(&unit);
    }
    Some((data, files.len()))
}
