//! The framing reader and segments-to-metrics on captures of the real runner
//! (`tests/captures/runner-two-sessions.txt`, made by `make-runner-capture.sh`): as captured,
//! with `\r\n`, host stamps, kernel messages interleaved, a missing END, a changed byte.

mod common;

use bench_parser::framing::{self, Capture, Cut, Integrity, SecsDelta};
use bench_parser::{results, Entry, Outcome};
use std::borrow::Cow;

fn capture_text() -> String {
    common::capture("runner-two-sessions.txt")
}

fn read(text: &str) -> Capture {
    framing::read(text, &SecsDelta)
}

/// (id, run, metric, value, line) of every figure.
fn figures(entries: &[Entry]) -> Vec<(String, u32, String, f64, u64)> {
    entries
        .iter()
        .flat_map(|e| &e.metrics)
        .map(|m| {
            (
                m.benchmark.clone(),
                m.run,
                m.metric.clone(),
                m.value,
                m.line,
            )
        })
        .collect()
}

fn find<'a>(
    figs: &'a [(String, u32, String, f64, u64)],
    id: &str,
    run: u32,
    metric: &str,
) -> &'a (String, u32, String, f64, u64) {
    figs.iter()
        .find(|f| f.0 == id && f.1 == run && f.2 == metric)
        .unwrap_or_else(|| panic!("{id} run {run} {metric} missing from {figs:?}"))
}

#[test]
fn the_runner_capture_as_is() {
    let c = read(&capture_text());
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    assert_eq!(c.sessions.len(), 2);
    let s = &c.sessions[0];
    assert_eq!(s.field("runner"), Some("1.0.0"));
    assert_eq!(s.field("repeat"), Some("1"));
    assert_eq!(
        s.field("args"),
        Some("dhrystone whetstone lmbench/bw_mem-rd-1mb lmbench/lat_syscall-null iperf3/tcp-tx coremark")
    );
    let done = s.done.as_ref().unwrap();
    assert_eq!(
        (done.ran, done.failed, done.skipped),
        (Some(4), Some(1), Some(2))
    );
    assert_eq!(c.sessions[1].field("repeat"), Some("2"));
    assert_ne!(c.sessions[0].sid, c.sessions[1].sid);

    assert_eq!(c.segments.len(), 8);
    for g in &c.segments {
        assert_eq!(g.integrity, Integrity::Exact, "{}", g.id);
        assert!(g.is_complete());
        assert_eq!(g.output, g.raw);
    }
    let dhry = &c.segments[0];
    assert_eq!(
        (dhry.id.as_str(), dhry.seq, dhry.begin_line),
        ("dhrystone/dhry", 1, 2)
    );
    assert_eq!(dhry.cmd, "echo \"${PERFGUIDE_DHRY_RUNS:-10000000}\" | dhry");
    assert_eq!(dhry.lines, (3..=11).collect::<Vec<u64>>());
    let end = dhry.end.as_ref().unwrap();
    assert_eq!(
        (end.status, end.lines, end.bytes, end.eol),
        (Some(0), Some(9), Some(266), Some(true))
    );
    assert_eq!(end.line, 12);
    assert_eq!(end.clock.as_deref(), Some("date-ns"));
    // STREAM's output has no final newline: eol=0, the runner's `\n` is not output.
    let stream = &c.segments[4];
    assert_eq!(stream.id, "stream/stream");
    assert_eq!(stream.end.as_ref().unwrap().eol, Some(false));
    assert!(stream.output.ends_with("---"));

    assert_eq!(c.skips.len(), 2);
    assert_eq!(
        (
            c.skips[0].id.as_str(),
            c.skips[0].reason.as_str(),
            c.skips[0].seq
        ),
        ("iperf3/tcp-tx", "not-installed", 5)
    );

    let entries = results(&c);
    let outcomes: Vec<(&str, u32, Outcome)> = entries
        .iter()
        .map(|e| (e.id.as_str(), e.run, e.outcome))
        .collect();
    assert_eq!(
        outcomes,
        vec![
            ("dhrystone/dhry", 1, Outcome::Parsed),
            ("whetstone/whetstone", 1, Outcome::Failed { status: 3 }),
            ("lmbench/bw_mem-rd-1mb", 1, Outcome::Parsed),
            ("lmbench/lat_syscall-null", 1, Outcome::Parsed),
            ("iperf3/tcp-tx", 1, Outcome::NotAvailable),
            ("coremark/coremark", 1, Outcome::NotAvailable),
            ("stream/stream", 1, Outcome::Parsed),
            ("lmbench/bw_mem-wr-2mb", 1, Outcome::Parsed),
            ("stream/stream", 2, Outcome::Parsed),
            ("lmbench/bw_mem-wr-2mb", 2, Outcome::Parsed),
        ]
    );
    assert_eq!(entries[4].reason.as_deref(), Some("not-installed"));
    assert_eq!(entries[0].tool, Some("dhrystone"));
    for e in &entries {
        if e.outcome == Outcome::Parsed {
            assert!(e.warnings.is_empty(), "{}: {:?}", e.id, e.warnings);
        }
    }
    let figs = figures(&entries);
    let dhry = find(&figs, "dhrystone/dhry", 1, "dhrystone_per_second");
    assert_eq!((dhry.3, dhry.4), (5000000.0, 11));
    let us = find(&figs, "dhrystone/dhry", 1, "us_per_run");
    assert_eq!((us.3, us.4), (0.2, 10));
    let bw = find(&figs, "lmbench/bw_mem-rd-1mb", 1, "bw_mem-rd-1mb");
    assert_eq!((bw.3, bw.4), (4533.76, 18));
    let sys = find(&figs, "lmbench/lat_syscall-null", 1, "lat_syscall-null");
    assert_eq!((sys.3, sys.4), (0.2107, 21));
    assert_eq!(find(&figs, "stream/stream", 1, "Triad").4, 37);
    assert_eq!(find(&figs, "stream/stream", 2, "Triad").4, 53);
    assert_eq!(find(&figs, "stream/stream", 2, "Copy").3, 5432.1);
    assert_eq!(
        find(&figs, "lmbench/bw_mem-wr-2mb", 2, "bw_mem-wr-2mb").3,
        2210.42
    );
    // The whetstone failure and the skips give no figure.
    assert!(figs.iter().all(|f| !f.0.starts_with("whetstone")));
}

#[test]
fn crlf_gives_the_same_segments_and_figures() {
    let text = capture_text();
    let plain = read(&text);
    let crlf = read(&text.replace('\n', "\r\n"));
    assert_eq!(plain, crlf);
    assert_eq!(figures(&results(&plain)), figures(&results(&crlf)));
}

/// Every line prefixed with `[<secs> <delta>] ` (perfguide's capture, grabserial `-t`).
fn stamped(text: &str) -> String {
    let mut out = String::new();
    for (i, line) in text.lines().enumerate() {
        let t = 10.0 + i as f64 * 0.25;
        if line.is_empty() {
            out.push_str(&format!("[{t:.6} 0.250000]\n"));
        } else {
            out.push_str(&format!("[{t:.6} 0.250000] {line}\n"));
        }
    }
    out
}

#[test]
fn host_stamps_are_removed_and_kept_on_the_markers() {
    let text = capture_text();
    let plain = read(&text);
    let c = read(&stamped(&text));
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    assert_eq!(c.segments.len(), plain.segments.len());
    for (a, b) in plain.segments.iter().zip(&c.segments) {
        assert_eq!((&a.output, a.integrity), (&b.output, b.integrity));
    }
    let dhry = &c.segments[0];
    assert_eq!(dhry.begin_host_s, Some(10.25));
    assert_eq!(dhry.end.as_ref().unwrap().host_s, Some(12.75));
    assert_eq!(c.sessions[0].host_s, Some(10.0));
    assert_eq!(c.skips[0].host_s, Some(10.0 + 22.0 * 0.25));
    assert_eq!(figures(&results(&plain)), figures(&results(&c)));

    // A stamp reader of the caller's own: any fn(&str) -> (Option<f64>, Cow<str>).
    fn arrow(line: &str) -> (Option<f64>, Cow<'_, str>) {
        match line.split_once(" -> ") {
            Some((t, rest)) => (t.parse().ok(), Cow::Borrowed(rest)),
            None => (None, Cow::Borrowed(line)),
        }
    }
    let arrowed: String = text.lines().map(|l| format!("7.5 -> {l}\n")).collect();
    let c = framing::read(&arrowed, &arrow);
    assert_eq!(c.segments[0].begin_host_s, Some(7.5));
    assert_eq!(figures(&results(&plain)), figures(&results(&c)));
}

const KERNEL: &str = "[   42.123456] usb 1-1: new high-speed USB device number 2 using xhci-hcd";

#[test]
fn kernel_lines_inside_segments_and_markers() {
    let text = capture_text();
    let mut noisy = String::new();
    for line in text.lines() {
        if line.starts_with("Dhrystones per Second:") {
            // A kernel message cutting a benchmark line in two.
            let (a, b) = line.split_at(17);
            noisy.push_str(&format!("{a}{KERNEL}\n{b}\n"));
        } else if line.starts_with("@@PERFGUIDE-BENCH END") && line.contains("seq=3 id=lmbench") {
            // A kernel message cutting a marker line in two.
            let (a, b) = line.split_at(40);
            noisy.push_str(&format!("{a}{KERNEL}\n{b}\n"));
        } else if line.starts_with("@@PERFGUIDE-BENCH END") && line.contains("seq=4 id=lmbench") {
            // A kernel message not yet ended by its newline, the marker glued after it.
            noisy.push_str(&format!("[   43.000001] random: crng init done{line}\n"));
        } else if line.starts_with("Copy:") || line.starts_with("Execution starts") {
            noisy.push_str(&format!("{KERNEL}\n{line}\n{KERNEL}\n"));
        } else {
            noisy.push_str(line);
            noisy.push('\n');
        }
    }
    let plain = read(&text);
    let c = read(&noisy);
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    assert_eq!(c.segments.len(), 8);
    let integrity: Vec<(&str, Integrity)> = c
        .segments
        .iter()
        .map(|g| (g.id.as_str(), g.integrity))
        .collect();
    assert_eq!(
        integrity[0],
        ("dhrystone/dhry", Integrity::KernelLinesRemoved)
    );
    assert_eq!(integrity[2], ("lmbench/bw_mem-rd-1mb", Integrity::Exact));
    assert_eq!(
        integrity[3],
        ("lmbench/lat_syscall-null", Integrity::KernelLinesRemoved)
    );
    assert_eq!(
        integrity[4],
        ("stream/stream", Integrity::KernelLinesRemoved)
    );
    for (a, b) in plain.segments.iter().zip(&c.segments) {
        assert_eq!(a.output, b.output, "{}", a.id);
        assert!(
            b.raw.contains("] usb 1-1") || b.raw.contains("] random") || a.raw == b.raw,
            "{}",
            a.id
        );
    }
    let values = |c: &Capture| -> Vec<(String, u32, String, f64)> {
        figures(&results(c))
            .into_iter()
            .map(|f| (f.0, f.1, f.2, f.3))
            .collect()
    };
    assert_eq!(values(&plain), values(&c));
    // Lines follow the noisy capture: the cut line is numbered where it starts.
    let figs = figures(&results(&c));
    let per_second = find(&figs, "dhrystone/dhry", 1, "dhrystone_per_second");
    assert_eq!(
        noisy.lines().nth(per_second.4 as usize - 1).unwrap(),
        format!("Dhrystones per Se{KERNEL}")
    );
}

#[test]
fn a_missing_end_keeps_the_raw_text() {
    let text = capture_text();
    // The END of the second stream run (line 55) is lost: BEGIN of seq 4 cuts it.
    let lost: String = text
        .lines()
        .filter(|l| !(l.starts_with("@@PERFGUIDE-BENCH END") && l.contains("seq=3 id=stream")))
        .map(|l| format!("{l}\n"))
        .collect();
    let c = read(&lost);
    let g = c
        .segments
        .iter()
        .find(|g| g.seq == 3 && g.id == "stream/stream")
        .unwrap();
    assert!(!g.is_complete());
    assert_eq!(g.cut, Some(Cut::Marker { line: 55 }));
    assert_eq!(g.integrity, Integrity::Unchecked);
    assert!(g.raw.contains("Triad:           6001.9"));
    assert!(
        c.warnings
            .iter()
            .any(|w| w.contains("cut by the marker on line 55")),
        "{:?}",
        c.warnings
    );
    let entries = results(&c);
    let e = entries
        .iter()
        .find(|e| e.seq == 3 && e.id == "stream/stream")
        .unwrap();
    assert_eq!((e.outcome, e.run), (Outcome::Incomplete, 2));
    assert!(e.metrics.is_empty());
    assert_eq!(c.segments[e.segment.unwrap()].raw, g.raw);
    // The segment after it is whole.
    let next = entries
        .iter()
        .find(|e| e.seq == 4 && e.sid == g.sid)
        .unwrap();
    assert_eq!(next.outcome, Outcome::Parsed);

    // A reset inside the dhrystone run: the capture ends there, the session has no DONE.
    let reset: String = text.lines().take(8).map(|l| format!("{l}\n")).collect();
    let c = read(&reset);
    assert_eq!(c.segments.len(), 1);
    assert_eq!(c.segments[0].cut, Some(Cut::CaptureEnds));
    assert!(c.segments[0].raw.starts_with("Dhrystone Benchmark"));
    assert!(c.sessions[0].done.is_none());
    assert!(
        c.warnings.iter().any(|w| w.contains("no DONE")),
        "{:?}",
        c.warnings
    );
    assert_eq!(results(&c)[0].outcome, Outcome::Incomplete);
}

#[test]
fn a_changed_byte_is_an_integrity_mismatch() {
    let text = capture_text().replacen(
        "Dhrystones per Second:                      5000000.0",
        "Dhrystones per Second:                      5000001.0",
        1,
    );
    let c = read(&text);
    assert_eq!(c.segments[0].integrity, Integrity::Mismatch);
    assert_eq!(Integrity::Mismatch.label(), "mismatch");
    let entries = results(&c);
    assert_eq!(entries[0].outcome, Outcome::Parsed);
    assert!(
        entries[0]
            .warnings
            .iter()
            .any(|w| w.contains("integrity: mismatch")),
        "{:?}",
        entries[0].warnings
    );
    let figs = figures(&entries);
    assert_eq!(
        find(&figs, "dhrystone/dhry", 1, "dhrystone_per_second").3,
        5000001.0
    );
    // The same length and no md5: the byte count alone cannot tell.
    let no_md5 = text.replace("md5=24fafa2014baf5f56a238d8ef76a8fe4", "md5=-");
    assert_eq!(read(&no_md5).segments[0].integrity, Integrity::Exact);
    // One byte less: the count tells.
    let shorter = no_md5.replacen("5000001.0", "500001.0", 1);
    assert_eq!(read(&shorter).segments[0].integrity, Integrity::Mismatch);
}

#[test]
fn unparsable_segments_unknown_versions_and_stray_markers() {
    let text = "\
junk before
@@PERFGUIDE-BENCH BEGIN v=1 sid=5-6 seq=1 id=dhrystone/dhry t=1 cmd=dhry
not dhrystone at all
@@PERFGUIDE-BENCH END v=1 sid=5-6 seq=1 id=dhrystone/dhry status=0 dur_ms=1 clock=uptime lines=1 bytes=21 eol=1 md5=-
@@PERFGUIDE-BENCH BEGIN v=2 sid=5-6 seq=2 id=x/y t=1 cmd=y
@@PERFGUIDE-BENCH END v=1 sid=5-6 seq=9 id=x/y status=0
@@PERFGUIDE-BENCH BEGIN v=1 sid=5-6 seq=3 id=newsuite/thing t=1 cmd=thing
Dhrystones per Second:                      100.0
@@PERFGUIDE-BENCH END v=1 sid=5-6 seq=3 id=newsuite/thing status=0 dur_ms=1 clock=uptime lines=1 bytes=50 eol=1 md5=-
@@PERFGUIDE-BENCH DONE v=1 sid=5-6 ran=2 failed=0 skipped=0 dur_ms=3
";
    let c = read(text);
    assert_eq!(c.sessions.len(), 1);
    assert!(c.sessions[0].fields.is_empty());
    assert_eq!(c.segments.len(), 2);
    assert!(
        c.warnings
            .iter()
            .any(|w| w.contains("framing version 2 ignored")),
        "{:?}",
        c.warnings
    );
    assert!(
        c.warnings
            .iter()
            .any(|w| w.contains("END of x/y (sid 5-6, seq 9) without its BEGIN")),
        "{:?}",
        c.warnings
    );
    let entries = results(&c);
    assert_eq!(entries[0].outcome, Outcome::Unparsed);
    assert!(
        entries[0].warnings[0].contains("not recognised"),
        "{:?}",
        entries[0].warnings
    );
    assert_eq!(c.segments[0].raw, "not dhrystone at all\n");
    // A suite with no parser of its name: the tool recognised from the content.
    assert_eq!(entries[1].outcome, Outcome::Parsed);
    assert_eq!(entries[1].tool, Some("dhrystone"));
    assert_eq!(entries[1].metrics[0].benchmark, "newsuite/thing");
}

#[test]
fn every_suite_of_the_runner_catalog_has_a_parser() {
    // The catalog lines of the runner (the Yocto layer's perfguide-bench recipe holds it): `<suite>/<name>|BINARY|FLAGS|COMMAND`
    // (some printed by `echo "..."` in a loop).
    let runner = std::fs::read_to_string(
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../meta-perfguide/recipes-benchmark/perfguide-bench/files/perfguide-bench"),
    )
    .unwrap();
    let mut suites: Vec<&str> = runner
        .lines()
        .filter_map(|l| {
            let l = l.trim_start().trim_start_matches("echo \"");
            let (id, _) = l.split_once('|')?;
            let (suite, name) = id.split_once('/')?;
            let ok = |s: &str| {
                !s.is_empty()
                    && s.bytes()
                        .all(|c| c.is_ascii_alphanumeric() || b"._-$".contains(&c))
            };
            (ok(suite) && ok(name) && !name.contains('/')).then_some(suite)
        })
        .collect();
    suites.sort_unstable();
    suites.dedup();
    assert!(suites.len() >= 13, "{suites:?}");
    for suite in suites {
        let tool = bench_parser::results::tool_of_suite(suite);
        assert!(tool.is_some(), "{suite}");
    }
}

#[test]
fn overlapping_sessions_and_done_counts() {
    // Two boots' runs in one capture, the first reset in the middle of a segment: the second
    // session's SESSION cuts it. DONE's counts disagree with what the capture holds.
    let text = "\
@@PERFGUIDE-BENCH SESSION v=1 sid=1-10 host=a kernel=k machine=aarch64 runner=1.0.0 repeat=1 args=stream
@@PERFGUIDE-BENCH BEGIN v=1 sid=1-10 seq=1 id=stream/stream t=5 cmd=stream
Function    Best Rate MB/s
[    0.000000] Booting Linux on physical CPU 0x0000000000 [0x410fd083]
@@PERFGUIDE-BENCH SESSION v=1 sid=2-20 host=a kernel=k machine=aarch64 runner=1.0.0 repeat=1 args=dhrystone
@@PERFGUIDE-BENCH BEGIN v=1 sid=2-20 seq=1 id=dhrystone/dhry t=9 cmd=dhry
Dhrystones per Second:                      100.0
@@PERFGUIDE-BENCH END v=1 sid=2-20 seq=1 id=dhrystone/dhry status=0 dur_ms=1 clock=uptime lines=1 bytes=50 eol=1 md5=-
@@PERFGUIDE-BENCH DONE v=1 sid=2-20 ran=3 failed=0 skipped=0 dur_ms=3
";
    let c = read(text);
    assert_eq!(c.sessions.len(), 2);
    assert_eq!(c.segments[0].cut, Some(Cut::Marker { line: 5 }));
    assert_eq!(c.segments[0].output, "Function    Best Rate MB/s\n");
    assert_eq!(c.segments[1].integrity, Integrity::Exact);
    assert!(
        c.warnings
            .iter()
            .any(|w| w.contains("session 1-10 (line 1): no DONE")),
        "{:?}",
        c.warnings
    );
    assert!(
        c.warnings
            .iter()
            .any(|w| w.contains("counts 3 run and 0 skipped, the capture holds 1 and 0")),
        "{:?}",
        c.warnings
    );
    let entries = results(&c);
    assert_eq!(entries[0].outcome, Outcome::Incomplete);
    assert_eq!(
        (entries[1].outcome, entries[1].metrics[0].line),
        (Outcome::Parsed, 7)
    );
}
