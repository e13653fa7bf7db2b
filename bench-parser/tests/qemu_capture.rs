//! Real captures of `perfguide bench` on the QEMU reference board (perfguide's capture format),
//! framed by the target runner: `captures/qemu-arm64-bundled.txt`, one run of each benchmark the
//! image bundles but fio, and `captures/qemu-arm64-fio.txt`, two runs of each fio entry on the
//! disk's scratch partition (64 MiB, the defaults). Every figure asserted here was read off the
//! file by hand, at its line.

use bench_parser::framing::{self, Integrity, SecsDelta};
use bench_parser::{results, Outcome};

const CAPTURE: &str = include_str!("captures/qemu-arm64-bundled.txt");
const FIO_CAPTURE: &str = include_str!("captures/qemu-arm64-fio.txt");

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

#[test]
fn fio_on_the_scratch_partition_gives_its_hand_checked_figures() {
    let c = framing::read(FIO_CAPTURE, &SecsDelta);
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    // Two sessions (one `perfguide-bench run --repeat 2` per entry), two segments each.
    assert_eq!(c.segments.len(), 4);
    assert!(c.segments.iter().all(|s| s.is_complete()));
    assert!(c.segments.iter().all(|s| s.integrity == Integrity::Exact));
    // The setup's kernel lines (the disk probed, the scratch mounted) are before the runner.
    assert!(FIO_CAPTURE.contains("EXT4-fs (vda2): mounted filesystem"));
    let entries = results(&c);
    for e in &entries {
        assert_eq!(e.outcome, Outcome::Parsed, "{} {:?}", e.id, e.warnings);
    }
    let mut got: Vec<(String, u32, String, f64, String, u64)> = entries
        .into_iter()
        .flat_map(|e| e.metrics)
        .map(|m| (m.benchmark, m.run, m.metric, m.value, m.unit, m.line))
        .collect();
    got.sort_by(|a, b| (a.5, &a.2).cmp(&(b.5, &b.2)));
    let want: &[(&str, u32, &str, f64, &str, u64)] = &[
        // `read: IOPS=1230, BW=1231MiB/s (1291MB/s)(64.0MiB/52msec)`
        ("fio/seq-read-1m", 1, "read_bw", 1231.0, "MiB/s", 159),
        ("fio/seq-read-1m", 1, "read_iops", 1230.0, "IOPS", 159),
        ("fio/seq-read-1m", 1, "read_clat_avg", 708.07, "us", 160),
        ("fio/seq-read-1m", 1, "read_lat_avg", 712.58, "us", 161),
        ("fio/seq-read-1m", 2, "read_bw", 1600.0, "MiB/s", 190),
        ("fio/seq-read-1m", 2, "read_iops", 1600.0, "IOPS", 190),
        ("fio/seq-read-1m", 2, "read_clat_avg", 576.74, "us", 191),
        ("fio/seq-read-1m", 2, "read_lat_avg", 578.77, "us", 192),
        // `write: IOPS=1254, BW=1255MiB/s (1316MB/s)(64.0MiB/51msec); 0 zone resets`
        ("fio/seq-write-1m", 1, "write_bw", 1255.0, "MiB/s", 226),
        ("fio/seq-write-1m", 1, "write_iops", 1254.0, "IOPS", 226),
        ("fio/seq-write-1m", 1, "write_clat_avg", 680.65, "us", 227),
        ("fio/seq-write-1m", 1, "write_lat_avg", 755.40, "us", 228),
        ("fio/seq-write-1m", 2, "write_bw", 1185.0, "MiB/s", 257),
        ("fio/seq-write-1m", 2, "write_iops", 1185.0, "IOPS", 257),
        ("fio/seq-write-1m", 2, "write_clat_avg", 714.78, "us", 258),
        ("fio/seq-write-1m", 2, "write_lat_avg", 800.41, "us", 259),
    ];
    let want: Vec<_> = want
        .iter()
        .map(|(b, r, m, v, u, l)| (b.to_string(), *r, m.to_string(), *v, u.to_string(), *l))
        .collect();
    assert_eq!(got, want);
}
