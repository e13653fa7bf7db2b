//! No input makes the framing reader or segments-to-metrics panic: arbitrary strings, lossy
//! arbitrary bytes, strings of the framing's own vocabulary, and the runner capture mangled.
//! Every metric's line lies inside the capture.

mod common;

use bench_parser::framing::{self, SecsDelta};
use bench_parser::results;
use proptest::prelude::*;

fn check(text: &str) {
    let c = framing::read(text, &SecsDelta);
    let lines = text.split('\n').count() as u64;
    for g in &c.segments {
        assert!(g.lines.iter().all(|l| *l >= 1 && *l <= lines));
        assert!(g.begin_line >= 1 && g.begin_line <= lines);
    }
    for e in results(&c) {
        for m in &e.metrics {
            assert!(m.value.is_finite());
            assert!(m.line >= 1 && m.line <= lines, "line {} of {lines}", m.line);
            assert_eq!(m.benchmark, e.id);
        }
    }
}

const VOCABULARY: &[&str] = &[
    "\n",
    "\r\n",
    " ",
    "@@PERFGUIDE-BENCH ",
    "SESSION ",
    "BEGIN ",
    "END ",
    "SKIP ",
    "DONE ",
    "v=1 ",
    "v=2 ",
    "sid=1-2 ",
    "sid=3-4 ",
    "seq=1 ",
    "seq=2 ",
    "id=dhrystone/dhry ",
    "id=stream/stream ",
    "id=lmbench/bw_mem-rd-1mb ",
    "id=x/y ",
    "status=0 ",
    "status=3 ",
    "bytes=12 ",
    "bytes=0 ",
    "eol=0 ",
    "eol=1 ",
    "lines=1 ",
    "md5=- ",
    "md5=d41d8cd98f00b204e9800998ecf8427e ",
    "cmd=bw_mem -P 1 1m rd",
    "args=a b",
    "[   1.000000] kernel ",
    "[1.500000 0.100000] ",
    "Dhrystones per Second: 100.0\n",
    "Triad: 1.0 0.1 0.1 0.1\n",
    "1.05 4533.76\n",
    "\u{fffd}",
];

fn vocabulary() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(VOCABULARY), 0..60).prop_map(|w| w.concat())
}

fn runner_capture() -> String {
    common::capture("runner-two-sessions.txt")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_strings(s in ".*") {
        check(&s);
    }

    #[test]
    fn arbitrary_bytes(b in prop::collection::vec(any::<u8>(), 0..2048)) {
        check(&String::from_utf8_lossy(&b));
    }

    #[test]
    fn framing_vocabulary(s in vocabulary()) {
        check(&s);
    }

    #[test]
    fn mangled_runner_capture(cut in 0usize..4000, len in 0usize..64, insert in vocabulary()) {
        let text = runner_capture();
        let mut at = cut.min(text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let mut end = (at + len).min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let mangled = format!("{}{}{}", &text[..at], insert, &text[end..]);
        check(&mangled);
        check(&text[..at]);
    }
}
