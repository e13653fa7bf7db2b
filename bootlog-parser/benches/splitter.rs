//! The line layer alone: the repeated corpus (see `common`) through `LineSplitter::feed` in
//! 64 KiB feeds with a sink that only adds up line lengths and hints, best of 9. It is the
//! floor under `perfguide parse` of the one-callback-a-line design: what splitting,
//! control-byte and needle-candidate scanning cost before any grammar runs, to set against
//! `wc -l` (which counts newline bytes and never stops at a line).
//! `cargo bench -p bootlog-parser --bench splitter`.

mod common;

use bootlog_parser::lines::LineSplitter;
use std::time::Instant;

fn main() {
    let Some((data, logs)) = common::repeated_corpus() else {
        return;
    };
    let mut best = f64::INFINITY;
    let mut lines = 0;
    let mut check = 0u64;
    for _ in 0..9 {
        let t = Instant::now();
        let mut s = LineSplitter::new();
        let mut sum = 0u64;
        let mut sink = |_: u64, b: &[u8], f: bootlog_parser::lines::Flags| {
            sum += b.len() as u64 + u64::from(f.hints);
        };
        for chunk in data.chunks(64 << 10) {
            s.feed(chunk, &mut sink);
        }
        s.finish(&mut sink);
        best = best.min(t.elapsed().as_secs_f64());
        lines = s.lines();
        check = std::hint::black_box(sum);
    }
    let mbs = data.len() as f64 / 1e6;
    println!(
        "bootlog-parser splitter: {:.1} MB, {} lines in {:.4} s = {:.1} MB/s, {:.1} ns a line ({} corpus logs, best of 9, sum {})",
        mbs,
        lines,
        best,
        mbs / best,
        best * 1e9 / lines as f64,
        logs,
        check
    );
}
