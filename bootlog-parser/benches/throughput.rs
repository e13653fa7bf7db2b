//! Library-level parse throughput (no CLI, no file I/O): the corpus logs repeated to
//! `BENCH_MB` MB (default 100) in memory, streamed through `Parser` in 16 KiB feeds with every
//! boot written as JSON by `json::write_boot` and handed back with `Parser::recycle` (as
//! `perfguide parse` does), best of 3. `cargo bench -p bootlog-parser --bench throughput`.
//! The end-to-end figure against `wc -l` is `scripts/bench-parse.sh`.

mod common;

use bootlog_parser::{BoardProfile, Parser};
use std::time::Instant;

fn main() {
    let Some((data, logs)) = common::repeated_corpus() else {
        return;
    };
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
        logs
    );
}
