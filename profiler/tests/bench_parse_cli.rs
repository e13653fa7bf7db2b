//! `perfguide bench parse` as a user runs it: every benchmark sample of the corpus, the runner's
//! framed capture (plain and as perfguide's capture stamps it), the table, the errors, and a
//! capture holding a boot and a benchmark session read by both `parse` and `bench parse`; and
//! `bench check` on real captures.

use bench_parser::{detect, Better, TOOLS};
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_perfguide"))
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn bench_corpus() -> PathBuf {
    root().join("tests/corpus/I_bench")
}

fn runner_capture() -> PathBuf {
    root().join("bench-parser/tests/captures/runner-two-sessions.txt")
}

fn boot_then_bench() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/qemu-boot-then-bench.log")
}

/// The sample files of a directory, sorted (its README aside).
fn samples(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n != "README.md")
        .collect();
    names.sort();
    names
}

fn run(args: &[&str], files: &[&Path]) -> Output {
    bin()
        .args(["bench", "parse"])
        .args(args)
        .args(files)
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The JSON lines of a successful run, each checked against the `perfguide/bench/v1` keys.
fn records(o: &Output) -> Vec<Value> {
    assert!(o.status.success(), "{}", stderr(o));
    let text = String::from_utf8(o.stdout.clone()).unwrap();
    let v: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    for r in &v {
        let mut keys: Vec<&str> = r.as_object().unwrap().keys().map(|k| k.as_str()).collect();
        keys.sort_unstable();
        let mut contract = [
            "schema",
            "benchmark",
            "metric",
            "value",
            "unit",
            "better",
            "run",
            "source",
            "line",
        ];
        contract.sort_unstable();
        assert_eq!(keys, contract, "{r}");
        assert_eq!(r["schema"], "perfguide/bench/v1");
        assert!(matches!(r["better"].as_str(), Some("higher" | "lower")));
        assert!(r["run"].as_u64().unwrap() >= 1);
        assert!(r["line"].as_u64().unwrap() >= 1);
    }
    v
}

/// The record of `benchmark`/`metric` in `run`.
fn find<'a>(v: &'a [Value], benchmark: &str, metric: &str, run: u64) -> &'a Value {
    v.iter()
        .find(|r| r["benchmark"] == benchmark && r["metric"] == metric && r["run"] == run)
        .unwrap_or_else(|| panic!("no {benchmark} {metric} run {run} in {v:#?}"))
}

/// Asserts one figure: `benchmark | metric | value | unit | better | run | line`.
fn expect(v: &[Value], figure: &str) {
    let f: Vec<&str> = figure.split(" | ").collect();
    let r = find(v, f[0], f[1], f[5].parse().unwrap());
    assert_eq!(
        r["value"].as_f64().unwrap(),
        f[2].parse::<f64>().unwrap(),
        "{figure}"
    );
    assert_eq!(r["unit"], f[3], "{figure}");
    assert_eq!(r["better"], f[4], "{figure}");
    assert_eq!(r["line"], f[6].parse::<u64>().unwrap(), "{figure}");
}

/// Key figures of each corpus sample (`tests/corpus/SOURCES.md`), read through the CLI.
const CORPUS: &[(&str, &[&str])] = &[
    (
        "coremark-mcu-gcc5.2-o3-stack.log",
        &["coremark/coremark | iterations_per_sec | 190.985485 | iterations/s | higher | 1 | 5"],
    ),
    (
        "dhrystone-leon3-sparc-grmon2-50mhz.log",
        &["dhrystone/dhrystone | dmips | 51.9 | DMIPS | higher | 1 | 14"],
    ),
    (
        "whetstone-xuantie-e907-fpga-bare.log",
        &[
            "whetstone/whetstone | whetstone | 32.8 | MIPS | higher | 1 | 4",
            "whetstone/whetstone | duration | 30 | s | lower | 1 | 3",
        ],
    ),
    (
        "linpack-rtems-rpi4-aarch64-rolled-double.log",
        &["linpack/rolled-double | linpack | 341.73 | Mflops | higher | 1 | 55"],
    ),
    (
        "stream-5.10-oci-epyc9654-nps1-nps4.log",
        &[
            "stream/stream | Triad | 718799.1 | MB/s | higher | 1 | 31",
            "stream/stream | Triad | 753594.8 | MB/s | higher | 2 | 66",
        ],
    ),
    (
        "lmbench3-individual-cmds-bw_tcp-lat_syscall-lat_ctx.log",
        &[
            "lmbench/bw_tcp | bw_tcp | 5434.25 | MB/s | higher | 1 | 3",
            "lmbench/lat_syscall-null | lat_syscall-null | 0.1328 | us | lower | 1 | 7",
            "lmbench/lat_ctx-2-1k | lat_ctx-2-1k | 3.37 | us | lower | 1 | 21",
        ],
    ),
    (
        "openssl3.0.11-speed-elapsed-evp-rk3328-eaidk310.log",
        &["openssl/aes-128-cbc | aes-128-cbc-16384 | 970855.77 | kB/s | higher | 1 | 28"],
    ),
    (
        "iperf3-gbe-client-complete-sender-receiver.log",
        &[
            "iperf3/tcp-tx | sender | 938 | Mbits/sec | higher | 1 | 17",
            "iperf3/tcp-tx | receiver | 937 | Mbits/sec | higher | 1 | 18",
        ],
    ),
    (
        "forlinx-ok527-t527-a55-coremark-and-dhrystone.log",
        &[
            "coremark/coremark | iterations_per_sec | 6715.916723 | iterations/s | higher | 1 | 8",
            "dhrystone/dhrystone | dhrystone_per_second | 6090134.0 | DhrystoneP | higher | 1 | 84",
        ],
    ),
];

#[test]
fn every_corpus_sample_gives_its_figures() {
    let names = samples(&bench_corpus());
    for name in &names {
        let (_, figures) = CORPUS
            .iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("{name}: a corpus sample without figures in CORPUS"));
        let path = bench_corpus().join(name);
        let o = run(&[], &[&path]);
        let v = records(&o);
        assert!(stderr(&o).is_empty(), "{name}: {}", stderr(&o));
        for f in *figures {
            expect(&v, f);
        }
        let source = path.display().to_string();
        assert!(v.iter().all(|r| r["source"] == source.as_str()), "{name}");
    }
    assert_eq!(names.len(), CORPUS.len());
}

#[test]
fn a_sample_holding_two_tools_gives_both_and_tool_picks_one() {
    let path = bench_corpus().join("forlinx-ok527-t527-a55-coremark-and-dhrystone.log");
    let both = records(&run(&[], &[&path]));
    assert_eq!(both.len(), 6);
    let coremark = records(&run(&["--tool", "coremark"], &[&path]));
    assert_eq!(coremark.len(), 3);
    assert!(coremark
        .iter()
        .all(|r| r["benchmark"] == "coremark/coremark"));
}

/// Every bench-parser fixture through the CLI gives what its tool's parser gives.
#[test]
fn bare_output_gives_what_the_library_gives() {
    let dir = root().join("bench-parser/tests/fixtures");
    let names = samples(&dir);
    assert!(names.len() >= TOOLS.len());
    for name in names {
        let path = dir.join(&name);
        let text = std::fs::read_to_string(&path).unwrap();
        let tool = detect(&text).unwrap_or_else(|| panic!("{name}: not detected"));
        let parsed = (tool.parse)(&text).unwrap();
        let v = records(&run(&[], &[&path]));
        assert_eq!(v.len(), parsed.metrics.len(), "{name}");
        for (r, m) in v.iter().zip(&parsed.metrics) {
            assert_eq!(r["benchmark"], m.benchmark.as_str(), "{name}");
            assert_eq!(r["metric"], m.metric.as_str(), "{name}");
            // serde_json reads floats back to within an ulp or so.
            let value = r["value"].as_f64().unwrap();
            assert!(
                (value - m.value).abs() <= m.value.abs() * 1e-15,
                "{name}: {value}"
            );
            assert_eq!(r["unit"], m.unit.as_str(), "{name}");
            let better = match m.better {
                Better::Higher => "higher",
                Better::Lower => "lower",
            };
            assert_eq!(r["better"], better, "{name}");
            assert_eq!(r["run"], m.run, "{name}");
            assert_eq!(r["line"], m.line, "{name}");
        }
    }
}

/// The runner capture's figures, numbered per run, at their capture lines shifted by `offset`.
fn expect_runner_figures(v: &[Value], offset: u64) {
    assert_eq!(v.len(), 15);
    let at = |line: u64| line + offset;
    for (figure, run, line) in [
        (
            "dhrystone/dhry | dhrystone_per_second | 5000000.0 | DhrystoneP | higher",
            1,
            11,
        ),
        (
            "lmbench/bw_mem-rd-1mb | bw_mem-rd-1mb | 4533.76 | MB/s | higher",
            1,
            18,
        ),
        (
            "lmbench/lat_syscall-null | lat_syscall-null | 0.2107 | us | lower",
            1,
            21,
        ),
        ("stream/stream | Triad | 6001.9 | MB/s | higher", 1, 37),
        ("stream/stream | Triad | 6001.9 | MB/s | higher", 2, 53),
        (
            "lmbench/bw_mem-wr-2mb | bw_mem-wr-2mb | 2210.42 | MB/s | higher",
            1,
            41,
        ),
        (
            "lmbench/bw_mem-wr-2mb | bw_mem-wr-2mb | 2210.42 | MB/s | higher",
            2,
            57,
        ),
    ] {
        expect(v, &format!("{figure} | {run} | {}", at(line)));
    }
}

/// The warnings of the runner capture: the failed benchmark and the two skipped ones.
fn expect_runner_warnings(err: &str, source: &str, offset: u64) {
    for (line, what) in [
        (13, "whetstone/whetstone: failed, exit status 3"),
        (23, "iperf3/tcp-tx: not available (not-installed)"),
        (24, "coremark/coremark: not available (not-installed)"),
    ] {
        let w = format!("perfguide: warning: {source}:{}: {what}", line + offset);
        assert!(err.contains(&w), "missing '{w}' in:\n{err}");
    }
    assert_eq!(err.lines().count(), 3, "{err}");
}

/// `bench parse` of a file holding the runner capture from its line `offset + 1` on.
fn expect_runner_capture(path: &Path, offset: u64) {
    let o = run(&[], &[path]);
    expect_runner_figures(&records(&o), offset);
    expect_runner_warnings(&stderr(&o), &path.display().to_string(), offset);
}

#[test]
fn runner_capture_gives_the_runs_and_warns_of_the_rest() {
    expect_runner_capture(&runner_capture(), 0);
    // `--tool` keeps the benchmarks that tool parses.
    let o = run(&["--tool", "lmbench"], &[&runner_capture()]);
    let v = records(&o);
    let ids: Vec<(&str, u64)> = v
        .iter()
        .map(|r| (r["benchmark"].as_str().unwrap(), r["run"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        ids,
        [
            ("lmbench/bw_mem-rd-1mb", 1),
            ("lmbench/lat_syscall-null", 1),
            ("lmbench/bw_mem-wr-2mb", 1),
            ("lmbench/bw_mem-wr-2mb", 2)
        ]
    );
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    // A tool whose only run failed: nothing read, the failure said.
    let o = run(&["--tool", "whetstone"], &[&runner_capture()]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("runner-two-sessions.txt:13: whetstone/whetstone: failed, exit status 3"),
        "{err}"
    );
    assert!(err.contains("no segment parsed by whetstone"), "{err}");
}

/// The capture as perfguide's boot loop writes it (`[<abs> <delta>] `), as grabserial `-T`
/// and minicom stamp it, each with `\r\n` line ends.
#[test]
fn stamped_captures_give_the_same_figures() {
    let text = std::fs::read_to_string(runner_capture()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    type Stamp = fn(f64) -> String;
    let stamps: [(&str, Stamp); 3] = [
        ("cycle-0001.log", |t| format!("[{t:.6} 0.250000] ")),
        ("grabserial-T.log", |t| format!("[12:00:{t:09.6}] ")),
        ("minicom.log", |t| format!("[2026-12-05 12:00:{t:06.3}] ")),
    ];
    for (name, stamp) in stamps {
        let path = dir.path().join(name);
        let mut f = std::fs::File::create(&path).unwrap();
        for (i, line) in text.lines().enumerate() {
            write!(f, "{}{line}\r\n", stamp(10.0 + i as f64 * 0.25)).unwrap();
        }
        drop(f);
        expect_runner_capture(&path, 0);
    }
}

#[test]
fn a_benchmark_cut_off_is_a_warning_and_the_rest_is_read() {
    // The capture ends inside the second session's first STREAM run (line 33).
    let text = std::fs::read_to_string(runner_capture()).unwrap();
    let cut: String = text.split_inclusive('\n').take(33).collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cut.log");
    std::fs::write(&path, cut).unwrap();
    let o = run(&[], &[&path]);
    let v = records(&o);
    assert_eq!(v.len(), 5, "dhrystone (3), bw_mem-rd-1mb, lat_syscall-null");
    assert!(v.iter().all(|r| r["benchmark"] != "stream/stream"));
    let err = stderr(&o);
    let source = path.display().to_string();
    assert!(
        err.contains(&format!(
            "perfguide: warning: {source}:27: stream/stream: incomplete, no END marker"
        )),
        "{err}"
    );
    assert!(err.contains("no END, the capture ends inside it"), "{err}");
}

#[test]
fn table_gives_mean_min_max_over_runs() {
    let o = run(&["--format", "table"], &[&runner_capture()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "== benchmarks: mean (min, max) over runs");
    let header: Vec<&str> = lines[1].split_whitespace().collect();
    assert_eq!(
        header,
        [
            "benchmark",
            "metric",
            "n",
            "mean",
            "(min,",
            "max)",
            "unit",
            "better"
        ]
    );
    let row = |benchmark: &str, metric: &str| -> Vec<&str> {
        let r = lines
            .iter()
            .find(|l| l.split_whitespace().take(2).eq([benchmark, metric]))
            .unwrap_or_else(|| panic!("no row {benchmark} {metric}:\n{text}"));
        r.split_whitespace().collect()
    };
    assert_eq!(
        row("stream/stream", "Triad"),
        [
            "stream/stream",
            "Triad",
            "2",
            "6001.90",
            "(min",
            "6001.90,",
            "max",
            "6001.90)",
            "MB/s",
            "higher"
        ]
    );
    assert_eq!(
        row("lmbench/lat_syscall-null", "lat_syscall-null"),
        [
            "lmbench/lat_syscall-null",
            "lat_syscall-null",
            "1",
            "0.2107",
            "(min",
            "0.2107,",
            "max",
            "0.2107)",
            "us",
            "lower"
        ]
    );
    // One row per benchmark and metric: 3 dhrystone, 2 lmbench singles, 4 STREAM, bw_mem-wr.
    assert_eq!(lines.len(), 2 + 10, "{text}");

    // Two different runs: the mean of STREAM's two Triad figures of the corpus sample.
    let path = bench_corpus().join("stream-5.10-oci-epyc9654-nps1-nps4.log");
    let o = run(&["-f", "table"], &[&path]);
    let text = String::from_utf8(o.stdout).unwrap();
    let triad = text.lines().find(|l| l.contains(" Triad ")).unwrap();
    let mean = format!("{:.1}", (718799.1 + 753594.8) / 2.0);
    assert!(
        triad.contains(&format!(
            "  2  {mean} (min 718799.1, max 753594.8)  MB/s  higher"
        )),
        "{triad}"
    );
}

/// `bench parse` fails with exit status 1, no output, and `<path>: <message>` on stderr.
fn expect_error(args: &[&str], path: &Path, message: &str) {
    let o = run(args, &[path]);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    let err = stderr(&o);
    let expected = format!("perfguide: error: {}: {message}", path.display());
    assert!(err.contains(&expected), "missing '{expected}' in:\n{err}");
}

#[test]
fn unrecognised_input_is_an_error_naming_the_line() {
    expect_error(
        &[],
        &root().join("tests/corpus/qemu/qemu-arm64-boot.log"),
        "not recognised as any benchmark's output (line 3: U-Boot 2023.01 (Jun 22 2026",
    );
}

#[test]
fn a_mismatched_tool_says_so() {
    let path = bench_corpus().join("coremark-mcu-gcc5.2-o3-stack.log");
    expect_error(
        &["--tool", "stream"],
        &path,
        "not recognised as stream output (line 1: 2K performance run parameters for coremark.); it looks like coremark output",
    );
    // A tool perfguide does not know is a usage error.
    let o = run(&["--tool", "nope"], &[&path]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("possible values"), "{}", stderr(&o));
}

#[test]
fn an_unreadable_file_fails_the_run_but_not_the_others() {
    let good = bench_corpus().join("whetstone-xuantie-e907-fpga-bare.log");
    let missing = Path::new("/nonexistent/bench.log");
    let o = run(&[], &[missing, &good]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 2);
    assert!(
        stderr(&o).contains("/nonexistent/bench.log: No such file"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn stdin_is_read_for_a_dash() {
    let text =
        std::fs::read(bench_corpus().join("stream-5.10-oci-epyc9654-nps1-nps4.log")).unwrap();
    let mut child = bin()
        .args(["bench", "parse", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&text).unwrap();
    let o = child.wait_with_output().unwrap();
    let v = records(&o);
    assert_eq!(v.len(), 8);
    assert!(v.iter().all(|r| r["source"] == "-"));
    expect(
        &v,
        "stream/stream | Triad | 753594.8 | MB/s | higher | 2 | 66",
    );
}

#[test]
fn help_teaches_with_examples_and_the_tools() {
    let o = bin().args(["bench", "parse", "--help"]).output().unwrap();
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("Examples:"), "{text}");
    assert!(text.contains("perfguide/bench/v1"), "{text}");
    let listed: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("Tools (--tool)"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let names: Vec<&str> = TOOLS.iter().map(|t| t.name).collect();
    assert_eq!(listed, names);
}

/// Issue 23: a capture holding a boot and a bench session parses as both.
#[test]
fn a_capture_with_a_boot_and_a_bench_session_parses_as_both() {
    let path = boot_then_bench();
    // The boot: `perfguide parse`.
    let o = bin()
        .args(["parse", "--format", "json"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let boots = v["boots"].as_array().unwrap();
    assert_eq!(boots.len(), 1);
    let b = &boots[0];
    assert_eq!(b["complete"], true);
    assert_eq!(b["login_prompt"], "perfguide-qemu login:");
    let stages: Vec<&str> = b["stages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert_eq!(stages, ["uboot", "kernel", "userspace"]);
    assert_eq!(b["components"]["uboot"], "2023.01");
    assert_eq!(b["components"]["kernel"], "6.1.0-57-cloud-arm64");
    // The benchmarks: `perfguide bench parse`, lines counted in the whole capture.
    expect_runner_capture(&path, 273);
}

fn check(args: &[&str], file: &Path) -> Output {
    bin()
        .args(["bench", "check"])
        .args(args)
        .arg(file)
        .output()
        .unwrap()
}

#[test]
fn check_passes_a_real_qemu_session_with_its_benchmarks() {
    // A real `perfguide-bench run` on the QEMU reference board, as perfguide captured it.
    let file = root().join("bench-parser/tests/captures/qemu-arm64-bundled.txt");
    let o = check(&["--expect", "stress-ng/cpu openssl"], &file);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("pass: 11 benchmark run(s), 49 figure(s), 0 skipped, 2/2 expected present"),
        "{out}"
    );
    let j = check(&["--format", "json"], &file);
    assert!(j.status.success(), "{}", stderr(&j));
    let v: Value = serde_json::from_slice(&j.stdout).unwrap();
    assert_eq!(v["schema"], "perfguide/bench-check/v1");
    assert_eq!(v["ok"], true);
    assert_eq!(v["figures"], 49);
}

#[test]
fn check_names_a_failed_run_and_an_absent_benchmark_with_their_lines() {
    // The runner's own capture holds a whetstone that exits 3 (make-runner-capture.sh).
    let o = check(&["--expect", "iperf3/tcp-tx"], &runner_capture());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains("runner-two-sessions.txt:13: whetstone/whetstone: failed, exit status 3"),
        "{e}"
    );
    assert!(e.contains("iperf3/tcp-tx: expected, but"), "{e}");
    let missing = check(&[], Path::new("/nonexistent/capture.log"));
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("/nonexistent/capture.log"));
}
