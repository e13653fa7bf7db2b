//! Helpers shared by the integration tests: reading samples and looking up metrics.
#![allow(dead_code)]

use std::path::PathBuf;

use bench_parser::{Better, Metric, Parsed};

/// The corpus directory of benchmark samples (`tests/corpus/I_bench` of the workspace).
pub fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/corpus/I_bench")
}

/// The directory of this crate's fixtures.
pub fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// The directory of framed console captures of the runner.
pub fn captures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/captures")
}

fn read(path: PathBuf) -> String {
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    String::from_utf8_lossy(&bytes).into_owned()
}

pub fn corpus(name: &str) -> String {
    read(corpus_dir().join(name))
}

pub fn fixture(name: &str) -> String {
    read(fixtures_dir().join(name))
}

pub fn capture(name: &str) -> String {
    read(captures_dir().join(name))
}

/// Every corpus sample and fixture: (file name, text).
pub fn all_samples() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for dir in [corpus_dir(), fixtures_dir()] {
        let mut names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n != "README.md")
            .collect();
        names.sort();
        for n in names {
            let text = read(dir.join(&n));
            out.push((n, text));
        }
    }
    out
}

/// The first `n` lines of `text`.
pub fn head(text: &str, n: usize) -> String {
    text.split_inclusive('\n').take(n).collect()
}

/// The metric named `metric` of run `run`; panics listing what there is.
pub fn get<'a>(p: &'a Parsed, metric: &str, run: u32) -> &'a Metric {
    p.metrics
        .iter()
        .find(|m| m.metric == metric && m.run == run)
        .unwrap_or_else(|| {
            let names: Vec<String> = p
                .metrics
                .iter()
                .map(|m| format!("{}#{}", m.metric, m.run))
                .collect();
            panic!("no metric {metric} run {run} among {names:?}")
        })
}

/// Asserts printed figures of run 1 exactly. Each row reads
/// `benchmark | metric | value | unit | higher|lower | line`.
pub fn figures(p: &Parsed, rows: &[&str]) {
    for row in rows {
        let f: Vec<&str> = row.split(" | ").collect();
        assert_eq!(f.len(), 6, "malformed row {row}");
        let better = match f[4] {
            "higher" => Better::Higher,
            "lower" => Better::Lower,
            other => panic!("direction {other} in {row}"),
        };
        let value: f64 = f[2].parse().unwrap();
        let line: u64 = f[5].parse().unwrap();
        expect_run(p, f[0], f[1], 1, value, f[3], better, line);
    }
}

#[allow(clippy::too_many_arguments)]
pub fn expect_run(
    p: &Parsed,
    benchmark: &str,
    metric: &str,
    run: u32,
    value: f64,
    unit: &str,
    better: Better,
    line: u64,
) {
    let m = get(p, metric, run);
    assert_eq!(m.benchmark, benchmark, "{metric}");
    assert_eq!(m.value, value, "{metric}");
    assert_eq!(m.unit, unit, "{metric}");
    assert_eq!(m.better, better, "{metric}");
    assert_eq!(m.line, line, "{metric}");
}

/// Asserts a derived figure (computed from printed ones) to 1e-9 relative.
pub fn expect_close(p: &Parsed, metric: &str, value: f64, unit: &str) {
    let m = get(p, metric, 1);
    assert!(
        (m.value - value).abs() <= value.abs() * 1e-9,
        "{metric}: {} != {value}",
        m.value
    );
    assert_eq!(m.unit, unit, "{metric}");
}

/// Asserts one warning names `line`.
pub fn expect_warning_at(p: &Parsed, line: u64) {
    let needle = format!("line {line}");
    let names = |w: &str| {
        w.match_indices(&needle)
            .any(|(i, _)| !w[i + needle.len()..].starts_with(|c: char| c.is_ascii_digit()))
    };
    assert!(
        p.warnings.iter().any(|w| names(w)),
        "no warning naming {needle}: {:?}",
        p.warnings
    );
}
