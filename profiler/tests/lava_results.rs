//! `perfguide lava results`: a real run directory (data/runs/qemu-arm64-5, one cycle marked
//! failed here, and the bench.jsonl `perfguide bench parse` makes of a real capture) as LAVA
//! test cases, every value checked against boots.jsonl and bench.jsonl read here.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_perfguide"))
}

fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

/// The cycle marked failed.
const FAILED: u64 = 3;

/// A copy of the run with cycle [`FAILED`] failed and a bench.jsonl.
fn run_dir() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    let src = data("runs/qemu-arm64-5");
    for e in std::fs::read_dir(&src).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), d.path().join(e.file_name())).unwrap();
    }
    let boots: Vec<String> = std::fs::read_to_string(src.join("boots.jsonl"))
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            if v["cycle"] == FAILED {
                v["status"] = "failed".into();
                v["failure"] = serde_json::json!({"reason": "timeout", "detail": "no prompt"});
            }
            v.to_string()
        })
        .collect();
    std::fs::write(d.path().join("boots.jsonl"), boots.join("\n") + "\n").unwrap();
    let bench = bin()
        .args(["bench", "parse"])
        .arg(data("qemu-boot-then-bench.log"))
        .output()
        .unwrap();
    assert!(bench.status.success());
    assert!(!bench.stdout.is_empty());
    std::fs::write(d.path().join("bench.jsonl"), &bench.stdout).unwrap();
    d
}

fn results(dir: &Path, format: &str) -> String {
    let out = bin()
        .args(["lava", "results", "--format", format])
        .arg(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn case<'a>(cases: &'a [Value], name: &str) -> &'a Value {
    cases
        .iter()
        .find(|c| c["case"] == name)
        .unwrap_or_else(|| panic!("no case {name}"))
}

fn close(a: &Value, b: f64) -> bool {
    (a.as_f64().unwrap() - b).abs() < 1e-9 * b.abs().max(1.0)
}

#[test]
fn cases_match_the_run() {
    let d = run_dir();
    let cases: Vec<Value> = serde_json::from_str(&results(d.path(), "json")).unwrap();
    let boots: Vec<Value> = std::fs::read_to_string(d.path().join("boots.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut sums: Vec<(String, f64, u32)> = Vec::new();
    for b in &boots {
        let cycle = b["cycle"].as_u64().unwrap();
        let result = if cycle == FAILED { "fail" } else { "pass" };
        let name = format!("boot.cycle-{cycle:04}");
        let c = case(&cases, &name);
        assert_eq!(c["result"], result, "{c}");
        let stages = b["stages"].as_array().unwrap();
        // Power-on to ready: the first host stage's start to the last stage's end.
        let total = stages.last().unwrap()["end_s"].as_f64().unwrap()
            - stages[0]["start_s"].as_f64().unwrap();
        assert!(close(&c["measurement"], total), "{c} vs {total}");
        assert_eq!(c["units"], "seconds");
        for s in stages {
            let id = s["id"].as_str().unwrap();
            let d = s["duration_s"].as_f64().unwrap();
            let c = case(&cases, &format!("{name}.{id}"));
            assert_eq!(c["result"], result);
            assert!(close(&c["measurement"], d), "{c}");
            if cycle != FAILED {
                match sums.iter_mut().find(|(n, _, _)| n == id) {
                    Some((_, sum, n)) => {
                        *sum += d;
                        *n += 1
                    }
                    None => sums.push((id.to_string(), d, 1)),
                }
            }
        }
    }
    assert_eq!(sums.len(), 4);
    for (id, sum, n) in &sums {
        assert_eq!(*n as usize, boots.len() - 1);
        let c = case(&cases, &format!("boot.{id}.mean"));
        assert_eq!(c["result"], "pass");
        assert!(close(&c["measurement"], sum / f64::from(*n)), "{c}");
    }
    // Bench: the mean of each metric over its runs, in its unit.
    let bench: Vec<Value> = std::fs::read_to_string(d.path().join("bench.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let first = &bench[0];
    let (id, metric) = (
        first["benchmark"].as_str().unwrap(),
        first["metric"].as_str().unwrap(),
    );
    let values: Vec<f64> = bench
        .iter()
        .filter(|b| b["benchmark"] == id && b["metric"] == metric)
        .map(|b| b["value"].as_f64().unwrap())
        .collect();
    let name = format!("bench.{}.{metric}.mean", id.replace('/', "."));
    let c = case(&cases, &name);
    assert!(close(
        &c["measurement"],
        values.iter().sum::<f64>() / values.len() as f64
    ));
    assert_eq!(c["units"], first["unit"]);
    let bench_cases = cases
        .iter()
        .filter(|c| c["case"].as_str().unwrap().starts_with("bench."))
        .count();
    let mut metrics: Vec<(&str, &str)> = bench
        .iter()
        .map(|b| {
            (
                b["benchmark"].as_str().unwrap(),
                b["metric"].as_str().unwrap(),
            )
        })
        .collect();
    metrics.sort();
    metrics.dedup();
    assert_eq!(bench_cases, metrics.len());
    // Every name and unit of LAVA's characters.
    for c in &cases {
        for k in ["case", "units"] {
            if let Some(s) = c[k].as_str() {
                assert!(
                    s.chars()
                        .all(|ch| ch.is_ascii_alphanumeric() || "-_.".contains(ch)),
                    "{s}"
                );
            }
        }
    }
    // YAML holds the same cases (numbers compared as numbers: serde_json's float reading
    // is not correctly rounded).
    let y: Vec<Value> = serde_yaml::from_str(&results(d.path(), "yaml")).unwrap();
    assert_eq!(y.len(), cases.len());
    for (a, b) in y.iter().zip(&cases) {
        for k in ["case", "result", "units"] {
            assert_eq!(a[k], b[k], "{a} {b}");
        }
        match b["measurement"].as_f64() {
            Some(m) => assert!(close(&a["measurement"], m), "{a} {b}"),
            None => assert!(a.get("measurement").is_none()),
        }
    }
}

#[test]
fn shell_lines_are_lava_test_case_commands() {
    let d = run_dir();
    let cases: Vec<Value> = serde_json::from_str(&results(d.path(), "json")).unwrap();
    let shell = results(d.path(), "shell");
    let lines: Vec<&str> = shell.lines().collect();
    assert_eq!(lines.len(), cases.len());
    for (line, c) in lines.iter().zip(&cases) {
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(words[0], "lava-test-case");
        assert_eq!(words[1], c["case"].as_str().unwrap());
        assert_eq!(&words[2..4], ["--result", c["result"].as_str().unwrap()]);
        if let Some(m) = c["measurement"].as_f64() {
            assert_eq!(words[4], "--measurement");
            assert!(
                close(&Value::from(words[5].parse::<f64>().unwrap()), m),
                "{line}"
            );
            assert_eq!(&words[6..8], ["--units", c["units"].as_str().unwrap()]);
        } else {
            assert_eq!(words.len(), 4);
        }
    }
    let failed = format!("lava-test-case boot.cycle-{FAILED:04} --result fail ");
    assert!(shell.contains(&failed), "{shell}");
}

#[test]
fn not_a_run_directory_is_an_error() {
    let d = tempfile::tempdir().unwrap();
    let out = bin()
        .args(["lava", "results"])
        .arg(d.path())
        .output()
        .unwrap();
    let e = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{e}");
    assert!(e.contains("run.json"), "{e}");
}
