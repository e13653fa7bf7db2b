//! No input makes a parser or `detect` panic: arbitrary strings and bytes,
//! strings built from the tools' own vocabulary, mangled samples, and every
//! line-prefix of every sample. What comes back is metrics with finite values
//! and lines inside the input, or one of the typed errors.

mod common;

use bench_parser::{detect, Error, Parsed, TOOLS};
use common::all_samples;
use proptest::prelude::*;
use std::sync::OnceLock;

/// The samples, read once for all cases.
fn samples() -> &'static [(String, String)] {
    static SAMPLES: OnceLock<Vec<(String, String)>> = OnceLock::new();
    SAMPLES.get_or_init(all_samples)
}

/// Runs every parser and `detect` on `text` and checks the result's invariants.
fn check(text: &str) {
    let _ = detect(text);
    let lines = text.split('\n').count() as u64;
    for tool in TOOLS {
        match (tool.parse)(text) {
            Ok(Parsed { metrics, .. }) => {
                assert!(!metrics.is_empty(), "{}: Ok without metrics", tool.name);
                for m in metrics {
                    assert!(m.value.is_finite(), "{}: {m:?}", tool.name);
                    assert!(
                        m.line >= 1 && m.line <= lines,
                        "{}: line {} of {lines}",
                        tool.name,
                        m.line
                    );
                    assert!(m.run >= 1);
                }
            }
            Err(Error::NotRecognised { tool: t, line })
            | Err(Error::NoMetrics { tool: t, line }) => {
                assert_eq!(t, tool.name);
                assert!(line >= 1 && line <= lines.max(1));
            }
            Err(e) => panic!("{}: unexpected error {e}", tool.name),
        }
    }
}

/// Words that steer the parsers into their deeper branches.
const VOCABULARY: &[&str] = &[
    "\n",
    "\r\n",
    " ",
    "  ",
    "\t",
    ":",
    "|",
    "-",
    "=",
    "(",
    ")",
    "[",
    "]",
    "\"",
    "{",
    "}",
    ",",
    "%",
    "k",
    "0",
    "1",
    "10",
    "3.5",
    "-1.00",
    "1e9",
    "0.0-10.0",
    "- ",
    "Copy:",
    "Triad:",
    "STREAM version",
    "Iterations/Sec",
    "Total ticks",
    ": 12k",
    "CoreMark Size",
    "CoreMark 1.0 :",
    "Dhrystones per Second:",
    "Execution starts",
    "Dhrystones MIPS",
    "Whetstones:",
    "Duration:",
    "msec",
    "Loops:",
    "MWIPS",
    "Rolled Double Precision",
    "Mflops",
    "Times for array with leading dimension of",
    "Average",
    "LINPACK benchmark,",
    "Reps Time(s) KFLOPS",
    "Simple syscall:",
    "microseconds",
    "MB/sec",
    "\"size=",
    "\"stride=",
    "bw_mem",
    "lat_fs",
    "nanoseconds",
    "type",
    "bytes",
    "16 bytes",
    "Doing ",
    " for 3s on ",
    " size blocks: ",
    "'s in ",
    "rsa 2048 bits",
    "sender",
    "receiver",
    "Mbits/sec",
    "Kbits/sec",
    "[ ID]",
    "[SUM]",
    "[  5]",
    "Jitter",
    "ms",
    "(0%)",
    "iperf3",
    "Client connecting to",
    "TCP window size",
    " TEST from ",
    "MIGRATED",
    "10^6bits/s",
    "per",
    "THROUGHPUT=",
    "THROUGHPUT_UNITS=",
    "MEAN_LATENCY=",
    "stress-ng: info:  [1] ",
    "stressor bogo ops",
    "- stressor:",
    "bogo-ops:",
    "sysbench ",
    "Threads started!",
    "General statistics:",
    "Latency (ms):",
    "avg:",
    "events per second:",
    "Method: MEMCPY",
    "AVG",
    "Copy: ",
    "MiB/s",
    ": (groupid=0, jobs=1)",
    "read:",
    "IOPS=",
    "BW=",
    "clat (usec):",
    "avg=",
    "\"fio version\"",
    "T: 0",
    "Min:",
    "Avg:",
    "Max:",
    "# Max Latencies:",
    "Decompressing",
    "Avr:",
    "Tot:",
    "22:",
    "-- Workload:",
    "-- x:workloads/sec=",
    "WORKLOAD RESULTS TABLE",
    "MARK RESULTS TABLE",
    "é",
    "\u{0}",
];

fn vocabulary_text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(VOCABULARY), 0..120).prop_map(|w| w.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_strings(text in ".{0,600}") {
        check(&text);
    }

    #[test]
    fn arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        check(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn tool_vocabulary(text in vocabulary_text()) {
        check(&text);
    }

    #[test]
    fn mangled_samples(pick in any::<prop::sample::Index>(), cut in any::<prop::sample::Index>(),
                       at in any::<prop::sample::Index>(), insert in vocabulary_text()) {
        let samples = samples();
        let (_, text) = &samples[pick.index(samples.len())];
        let chars: Vec<char> = text.chars().collect();
        let end = cut.index(chars.len() + 1);
        let mut mangled: Vec<char> = chars[..end].to_vec();
        let at = at.index(mangled.len() + 1);
        mangled.splice(at..at, insert.chars());
        check(&mangled.into_iter().collect::<String>());
    }
}

#[test]
fn every_line_prefix_of_every_sample() {
    for (_, text) in samples() {
        let mut prefix = String::new();
        for line in text.split_inclusive('\n') {
            prefix.push_str(line);
            check(&prefix);
            // And the same line cut in its middle.
            let mid = prefix.len() - line.len() / 2;
            if prefix.is_char_boundary(mid) {
                check(&prefix[..mid]);
            }
        }
    }
}
