//! A real capture of `perfguide bench` on the QEMU reference board (`captures/qemu-arm64-bundled.txt`,
//! perfguide's capture format): one run of each benchmark the image bundles, framed by the
//! target runner. Every figure asserted here was read off the file by hand, at its line.

use bench_parser::framing::{self, Integrity, SecsDelta};
use bench_parser::{results, Outcome};

const CAPTURE: &str = include_str!("captures/qemu-arm64-bundled.txt");

/// (benchmark, metric, value, unit, line) of every figure of the capture.
fn figures() -> Vec<(String, String, f64, String, u64)> {
    let c = framing::read(CAPTURE, &SecsDelta);
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    assert_eq!(c.segments.len(), 11);
    assert!(c.segments.iter().all(|s| s.is_complete()));
    assert!(c.segments.iter().all(|s| s.integrity == Integrity::Exact));
    let entries = results(&c);
    for e in &entries {
        assert_eq!(e.outcome, Outcome::Parsed, "{} {:?}", e.id, e.warnings);
    }
    entries
        .into_iter()
        .flat_map(|e| e.metrics)
        .map(|m| (m.benchmark, m.metric, m.value, m.unit, m.line))
        .collect()
}

#[test]
fn every_bundled_tool_gives_its_hand_checked_figures() {
    let all = figures();
    let want: &[(&str, &str, f64, &str, u64)] = &[
        ("openssl/sha256", "sha256-16", 1823.26, "kB/s", 163),
        ("openssl/sha256", "sha256-16384", 55951.36, "kB/s", 163),
        ("iperf3/tcp-tx", "sender", 726.0, "Mbits/sec", 180),
        ("iperf3/tcp-tx", "receiver", 722.0, "Mbits/sec", 181),
        ("iperf3/udp-tx", "receiver", 321.0, "Mbits/sec", 201),
        ("iperf3/udp-tx", "jitter-receiver", 0.671, "ms", 201),
        ("iperf3/udp-tx", "lost_percent-receiver", 43.0, "%", 201),
        ("iperf2/tcp-tx", "bandwidth", 564.0, "Mbits/sec", 219),
        ("sysbench/cpu", "events_per_second", 319.81, "events/s", 258),
        ("sysbench/memory", "transfer", 2992.97, "MiB/s", 303),
        (
            "sysbench/fileio-seqrd",
            "reads_per_second",
            12669.67,
            "ops/s",
            351,
        ),
        ("mbw/mbw", "memcpy", 1682.086, "MiB/s", 389),
        ("mbw/mbw", "dumb", 4156.564, "MiB/s", 393),
        ("mbw/mbw", "mcblock", 5497.022, "MiB/s", 397),
        ("cyclictest/cyclictest", "T0-min", 52.0, "us", 408),
        ("cyclictest/cyclictest", "T0-avg", 282.0, "us", 408),
        ("cyclictest/cyclictest", "T0-max", 5877.0, "us", 408),
        ("7zip/7zz-b", "compressing_rating-22", 479.0, "MIPS", 438),
        ("7zip/7zz-b", "decompressing_rating-22", 559.0, "MIPS", 438),
        ("7zip/7zz-b", "total_rating", 519.0, "MIPS", 441),
    ];
    for (b, m, v, u, line) in want {
        let got = all
            .iter()
            .find(|f| f.0 == *b && f.1 == *m)
            .unwrap_or_else(|| panic!("{b} {m} missing from {all:?}"));
        assert_eq!((got.2, got.3.as_str(), got.4), (*v, *u, *line), "{b} {m}");
    }
    // stress-ng's row: `cpu 38 2.06 ... 18.45 18.37` (bogo ops, real-time and usr+sys rates).
    let stress: Vec<_> = all.iter().filter(|f| f.0 == "stress-ng/cpu").collect();
    assert_eq!(
        stress
            .iter()
            .map(|f| (f.1.as_str(), f.2))
            .collect::<Vec<_>>(),
        [
            ("bogo_ops", 38.0),
            ("bogo_ops_per_sec_real", 18.45),
            ("bogo_ops_per_sec_usr_sys", 18.37)
        ]
    );
    // Every tool of the image gave figures.
    for tool in [
        "openssl",
        "iperf3",
        "iperf2",
        "stress-ng",
        "sysbench",
        "mbw",
        "cyclictest",
        "7zip",
    ] {
        assert!(
            all.iter().any(|f| f.0.starts_with(&format!("{tool}/"))),
            "{tool}"
        );
    }
}
