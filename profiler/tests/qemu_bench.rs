//! `perfguide bench` on the QEMU reference board (`perfguide image build --board qemu-arm64`
//! first; scripts/test.sh does it): boot, login, the target runner, the capture read back.
//! QEMU missing, or the image not built, is a failure.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const PERFGUIDE: &str = env!("CARGO_BIN_EXE_perfguide");

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

/// One short run of every benchmark the QEMU image bundles, network ones over the target's
/// loopback: each gives its figures, and the table shows them.
#[test]
fn every_bundled_tool_end_to_end() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    let mut args = vec!["--serve", "--bench-timeout", "240"];
    for env in [
        "PERFGUIDE_OPENSSL_SECONDS=1",
        "PERFGUIDE_NET_SECONDS=2",
        "PERFGUIDE_STRESS_SECONDS=2",
        "PERFGUIDE_SYSBENCH_SECONDS=2",
        "PERFGUIDE_MBW_MIB=8",
        "PERFGUIDE_CYCLICTEST_LOOPS=1000",
        "PERFGUIDE_7Z_DICT=18",
        "PERFGUIDE_FIO_SIZE=16M",
    ] {
        args.extend(["--env", env]);
    }
    let ids = [
        "openssl/sha256",
        "iperf3/tcp-tx",
        "iperf3/udp-tx",
        "iperf2/tcp-tx",
        "stress-ng/cpu",
        "sysbench/cpu",
        "sysbench/memory",
        "sysbench/fileio-seqrd",
        "mbw/mbw",
        "cyclictest/cyclictest",
        "7zip/7zz-b",
        "fio/seq-read-1m",
        "fio/seq-write-1m",
    ];
    for id in ids {
        args.extend(["--bench", id]);
    }
    let o = bench(&out, &args);
    assert_eq!(o.status.code(), Some(0), "every benchmark ran and exited 0");
    let m = json(&out.join("bench.json"));
    for b in m["benchmarks"].as_array().unwrap() {
        assert_eq!(b["state"], "ok", "{b}");
    }
    // The board's [bench] setup (the disk driver, the scratch partition mounted) went
    // through, and fio wrote there: tmpfs refuses its O_DIRECT.
    let setup = m["setup"].as_array().unwrap();
    assert_eq!(setup.len(), 3);
    for s in setup {
        assert_eq!(s["status"], 0, "{s}");
    }
    assert_eq!(m["env"]["PERFGUIDE_FIO_DIR"], "/mnt/scratch");
    assert_eq!(m["env"]["PERFGUIDE_FIO_SIZE"], "16M");
    let log = std::fs::read_to_string(out.join("bench.log")).unwrap();
    assert!(
        log.contains("EXT4-fs (vda2): mounted filesystem"),
        "scratch mounted"
    );
    assert!(log.contains("(16.0MiB/"), "fio moved PERFGUIDE_FIO_SIZE");
    let recs = jsonl(&out.join("bench.jsonl"));
    let value = |b: &str, metric: &str| -> f64 {
        recs.iter()
            .find(|r| r["benchmark"] == b && r["metric"] == metric)
            .and_then(|r| r["value"].as_f64())
            .unwrap_or_else(|| panic!("{b} {metric} missing"))
    };
    for (b, metric) in [
        ("openssl/sha256", "sha256-16384"),
        ("iperf3/tcp-tx", "receiver"),
        ("iperf3/udp-tx", "sender"),
        ("iperf2/tcp-tx", "bandwidth"),
        ("stress-ng/cpu", "bogo_ops_per_sec_real"),
        ("sysbench/cpu", "events_per_second"),
        ("sysbench/memory", "transfer"),
        ("sysbench/fileio-seqrd", "reads_per_second"),
        ("mbw/mbw", "memcpy"),
        ("cyclictest/cyclictest", "T0-max"),
        ("7zip/7zz-b", "total_rating"),
        ("fio/seq-read-1m", "read_bw"),
        ("fio/seq-read-1m", "read_iops"),
        ("fio/seq-write-1m", "write_bw"),
        ("fio/seq-write-1m", "write_clat_avg"),
    ] {
        assert!(value(b, metric) > 0.0, "{b} {metric}");
    }
    for r in &recs {
        assert_eq!(r["schema"], "perfguide/bench/v1");
        assert_eq!(r["source"], "bench.log");
        assert!(r["line"].as_u64().unwrap() > 0);
    }
    let stdout = String::from_utf8_lossy(&o.stdout);
    for id in ids {
        assert!(stdout.contains(id), "table row of {id}");
    }
    assert!(stdout.contains("(min "), "mean (min, max) columns");
}
