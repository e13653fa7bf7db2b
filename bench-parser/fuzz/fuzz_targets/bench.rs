//! Arbitrary bytes through what `perfguide bench parse` does with a file: the framing reader
//! and segments-to-metrics (a framed capture), and `parse_auto` plus every tool parser (bare
//! output). No panic; every metric finite, with a line inside the input, and the runner's id
//! as its benchmark.
#![no_main]

use bench_parser::framing::{self, SecsDelta};
use bench_parser::{parse_auto, results, TOOLS};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let lines = text.split('\n').count() as u64;

    let capture = framing::read(&text, &SecsDelta);
    for entry in results(&capture) {
        for m in &entry.metrics {
            assert!(m.value.is_finite(), "{m:?}");
            assert!(m.line >= 1 && m.line <= lines, "{m:?} of {lines} lines");
            assert_eq!(m.benchmark, entry.id);
        }
    }

    if let Ok((_, parsed)) = parse_auto(&text) {
        assert!(!parsed.metrics.is_empty());
    }
    for tool in TOOLS {
        if let Ok(parsed) = (tool.parse)(&text) {
            for m in &parsed.metrics {
                assert!(m.value.is_finite(), "{}: {m:?}", tool.name);
                assert!(m.line >= 1 && m.line <= lines, "{}: {m:?}", tool.name);
            }
        }
    }
});
