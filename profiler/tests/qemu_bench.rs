//! `perfguide bench` on the QEMU reference board (`perfguide image build --board qemu-arm64`
//! first; scripts/test.sh does it): boot, login, the target runner, the capture read back.
//! Set PERFGUIDE_SKIP_QEMU=1 to skip on a machine without QEMU or the image.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const PERFGUIDE: &str = env!("CARGO_BIN_EXE_perfguide");

fn skip() -> bool {
    if std::env::var_os("PERFGUIDE_SKIP_QEMU").is_some_and(|v| v == "1") {
        eprintln!("PERFGUIDE_SKIP_QEMU=1: QEMU bench test skipped");
        return true;
    }
    false
}

fn bench(out: &Path, args: &[&str]) -> Output {
    let o = Command::new(PERFGUIDE)
        .args([
            "bench",
            "--board",
            "qemu-arm64",
            "--boot-timeout",
            "180",
            "--out",
        ])
        .arg(out)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    eprintln!(
        "--- stdout\n{}--- stderr\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

fn json(p: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

fn jsonl(p: &Path) -> Vec<Value> {
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Benchmarks stopped at their timeout and one missing on the target: the session goes on
/// after each (the servers are stopped after the last), and the directory holds the boot and
/// the bench.
#[test]
fn timeouts_and_missing_in_one_session() {
    if skip() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    let o = bench(
        &out,
        &[
            "--bench",
            "lmbench/bw_pipe",
            "--bench",
            "openssl/md5",
            "--bench",
            "stress-ng/cpu",
            "--bench-timeout",
            "4",
            "--serve",
        ],
    );
    // stress-ng runs 10 s: stopped at 4 s, so the exit status says a benchmark did not end.
    assert_eq!(o.status.code(), Some(1));
    let m = json(&out.join("bench.json"));
    assert_eq!(m["schema"], "perfguide/bench-run/v1");
    assert!(
        m["error"].is_null(),
        "the session ended normally: {}",
        m["error"]
    );
    assert!(m["runner"]
        .as_str()
        .unwrap()
        .starts_with("perfguide-bench "));
    let state = |id: &str| -> String {
        m["benchmarks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["id"] == id)
            .map(|b| b["state"].as_str().unwrap().to_string())
            .unwrap_or_default()
    };
    assert_eq!(state("lmbench/bw_pipe"), "not-available");
    // openssl/md5 at 4 s: 6 block sizes of 3 s each do not fit either.
    assert_eq!(state("openssl/md5"), "timed-out");
    assert_eq!(state("stress-ng/cpu"), "timed-out");
    assert!(m["network"].as_str().unwrap().contains("loopback"));
    // The boot before the bench is the run's first cycle.
    let boots = jsonl(&out.join("boots.jsonl"));
    assert_eq!(boots.len(), 1);
    assert_eq!(boots[0]["status"], "ok");
    // The capture holds the runner's markers of both started benchmarks, with host stamps.
    let log = std::fs::read_to_string(out.join("bench.log")).unwrap();
    assert!(log.starts_with('['));
    assert!(log.contains("@@PERFGUIDE-BENCH BEGIN v=1"));
    assert!(log.contains("id=stress-ng/cpu"));
    // Stopped runs give no figures, and say so.
    assert_eq!(jsonl(&out.join("bench.jsonl")).len(), 0);
    assert!(String::from_utf8_lossy(&o.stderr).contains("no END marker"));
}

/// An unknown name is an error naming it and the suites, after the boot.
#[test]
fn unknown_benchmark_is_named() {
    if skip() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    let o = bench(&out, &["--bench", "nosuch/bench"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("no suite or benchmark \"nosuch/bench\""),
        "{err}"
    );
    assert!(err.contains("openssl"), "{err}");
    // The capture is kept.
    assert!(out.join("bench.log").exists());
    assert!(json(&out.join("bench.json"))["error"]
        .as_str()
        .unwrap()
        .contains("nosuch/bench"));
}
