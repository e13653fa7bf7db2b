//! Library-level parse throughput (no CLI, no file I/O): the corpus logs repeated to
//! `BENCH_MB` MB (default 100) in memory, streamed through `Parser` in 16 KiB feeds with every
//! boot written as JSON by `json::write_boot` and handed back with `Parser::recycle` (as
//! `perfguide parse` does), best of 3. `cargo bench -p bootlog-parser --bench throughput`.
//! The end-to-end figure against `wc -l` is `scripts/bench-parse.sh`.

use bootlog_parser::{BoardProfile, Parser};
use std::path::{Path, PathBuf};
use std::time::Instant;

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

fn main() {
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
        return;
    }
    let mut unit = Vec::new();
    for f in &files {
        unit.extend(std::fs::read(f).expect("read corpus log"));
    }
    let mut data = Vec::with_capacity(mb * 1_000_000 + unit.len());
    while data.len() < mb * 1_000_000 {
        data.extend_from_slice(&unit);
    }
    let profile = BoardProfile::generic();
    let mut best = f64::INFINITY;
    let mut boots = 0;
    for _ in 0..3 {
        let t = Instant::now();
        let mut p = Parser::new(&profile);
        let mut n = 0usize;
        let mut out = Vec::with_capacity(1 << 17);
        for chunk in data.chunks(16 << 10) {
            p.feed(chunk);
            while let Some(b) = p.next_boot() {
                bootlog_parser::json::write_boot(&mut out, &b);
                out.clear();
                p.recycle(b);
                n += 1;
            }
        }
        for b in p.finish() {
            bootlog_parser::json::write_boot(&mut out, &b);
            out.clear();
            n += 1;
        }
        best = best.min(t.elapsed().as_secs_f64());
        boots = n;
    }
    let mbs = data.len() as f64 / 1e6;
    println!(
        "bootlog-parser throughput: {:.1} MB in {:.3} s = {:.1} MB/s ({} boots, {} corpus logs, best of 3)",
        mbs,
        best,
        mbs / best,
        boots,
        files.len()
    );
}
