//! No input makes `bench parse`'s reading panic (`perfguide::bench::parse::read`): arbitrary
//! strings, and the runner capture mangled under the stamps of the capture tools it reads.
//! Every figure is finite and its line lies inside the input.

use perfguide::bench::parse::read;
use proptest::prelude::*;

fn check(text: &str) {
    let lines = text.split('\n').count() as u64;
    for tool in std::iter::once(None).chain(bench_parser::TOOLS.iter().map(Some)) {
        if let Ok(input) = read(text, tool) {
            for m in &input.metrics {
                assert!(m.value.is_finite());
                assert!(m.line >= 1 && m.line <= lines, "line {} of {lines}", m.line);
                assert!(!m.benchmark.is_empty());
            }
            for w in &input.warnings {
                assert!(w.line.map_or(true, |l| l >= 1 && l <= lines));
            }
        }
    }
}

fn runner_capture() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../bench-parser/tests/captures/runner-two-sessions.txt"
    );
    std::fs::read_to_string(path).unwrap()
}

/// Line prefixes of the capture tools `bench parse` reads, and kernel messages.
const STAMPS: &[&str] = &[
    "",
    "[12.000000 0.000100] ",
    "[12:00:01.000100] ",
    "[2026-12-05 12:00:01.000] ",
    "[    1.000000] kernel: ",
    "- {\"dt\": \"2026-12-05T12:00:01.000\", \"lvl\": \"target\", \"msg\": \"",
    "<6>",
    "\r",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_text(text in any::<String>()) {
        check(&text);
    }

    #[test]
    fn mangled_runner_capture(
        stamps in prop::collection::vec(0..STAMPS.len(), 59),
        cut in 0usize..3000,
        junk in "[\\PC\\n]{0,40}",
    ) {
        let text = runner_capture();
        let mut mangled: String = text
            .lines()
            .zip(stamps.iter().cycle())
            .map(|(l, s)| format!("{}{l}\n", STAMPS[*s]))
            .collect();
        let at = (0..=cut.min(mangled.len())).rev().find(|i| mangled.is_char_boundary(*i)).unwrap_or(0);
        mangled.insert_str(at, &junk);
        check(&mangled);
    }
}
