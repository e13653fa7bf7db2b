//! `perfguide report` in every format on saved runs: a real 5-cycle run of the QEMU reference
//! board (`data/runs/qemu-arm64-5`) and a TI-style run assembled from corpus logs of AM62A and
//! AM62x SBL boots. Golden files (`data/golden/<run>/`) hold each format; the figures are also
//! checked against the runs' own records, and the RST goes through `sphinx-build -W`.
//!
//! After a deliberate change of a format: `PERFGUIDE_BLESS=1 cargo test -p perfguide --test
//! report_formats` rewrites the golden files; review the diff.

use perfguide::rundir::{
    CycleRecord, HostInfo, HostTiming, RunDir, RunManifest, ToolInfo, RUN_SCHEMA,
};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const FILES: [&str; 5] = [
    "guide.md",
    "guide.rst",
    "report.html",
    "report.json",
    "report.csv",
];

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// Runs `perfguide report NAME -o OUT` in `parent`, so the run is named by a relative path.
fn report(parent: &Path, name: &str, out: &Path) {
    let o = Command::new(env!("CARGO_BIN_EXE_perfguide"))
        .current_dir(parent)
        .arg("report")
        .arg(name)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

fn golden(run: &str, out: &Path) {
    let dir = data().join("golden").join(run);
    let bless = std::env::var_os("PERFGUIDE_BLESS").is_some();
    for f in FILES {
        let got = std::fs::read_to_string(out.join(f)).unwrap();
        let path = dir.join(f);
        if bless {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (PERFGUIDE_BLESS=1 writes it)", path.display()));
        if got != want {
            let line = got
                .lines()
                .zip(want.lines())
                .position(|(a, b)| a != b)
                .map_or(got.lines().count().min(want.lines().count()), |i| i);
            panic!(
                "{} differs from {} at line {}:\n got: {:?}\nwant: {:?}\n(PERFGUIDE_BLESS=1 rewrites the golden files)",
                out.join(f).display(),
                path.display(),
                line + 1,
                got.lines().nth(line),
                want.lines().nth(line)
            );
        }
    }
}

fn records(run: &Path) -> Vec<Value> {
    std::fs::read_to_string(run.join("boots.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

/// The report.json row `name` of section `section`.
fn row<'a>(report: &'a Value, section: &str, name: &str) -> &'a Value {
    report["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == section)
        .and_then(|s| {
            s["rows"]
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r["name"] == name)
        })
        .unwrap_or_else(|| panic!("no row {section}: {name}"))
}

#[test]
fn qemu_run_in_every_format() {
    let out = tempfile::tempdir().unwrap();
    let runs = data().join("runs");
    report(&runs, "qemu-arm64-5", out.path());
    golden("qemu-arm64-5", out.path());

    // The figures against the run's own records.
    let recs = records(&runs.join("qemu-arm64-5"));
    assert_eq!(recs.len(), 5);
    let rep: Value =
        serde_json::from_str(&std::fs::read_to_string(out.path().join("report.json")).unwrap())
            .unwrap();
    let md = std::fs::read_to_string(out.path().join("guide.md")).unwrap();
    let csv = std::fs::read_to_string(out.path().join("report.csv")).unwrap();
    for stage in ["rom", "uboot", "kernel", "userspace"] {
        let ms: Vec<f64> = recs
            .iter()
            .map(|r| {
                r["stages"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|s| s["id"] == stage)
                    .unwrap()["duration_s"]
                    .as_f64()
                    .unwrap()
                    * 1e3
            })
            .collect();
        let row = row(&rep, "stages", stage);
        let values: Vec<f64> = row["values"][0]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        assert_eq!(values.len(), ms.len());
        for (v, m) in values.iter().zip(&ms) {
            assert!(
                (v - m).abs() < 1e-9,
                "{stage}: every cycle's value, in cycle order"
            );
        }
        let m = mean(&ms);
        assert!((row["summaries"][0]["mean"].as_f64().unwrap() - m).abs() < 1e-9);
        let min = ms.iter().copied().fold(f64::INFINITY, f64::min);
        let max = ms.iter().copied().fold(0.0, f64::max);
        let d = if m >= 100.0 { 1 } else { 3 };
        let cell = format!("| {stage} | {m:.d$} (min {min:.d$}, max {max:.d$}) |");
        assert!(md.contains(&cell), "{cell} not in guide.md");
        // The CSV prints the mean as summed by the report: equal but for the last bits.
        let prefix = format!("qemu-arm64-5,stages,{stage},mean,");
        let line = csv
            .lines()
            .find(|l| l.starts_with(&prefix))
            .unwrap_or_else(|| panic!("no {prefix} line in the CSV"));
        let got: f64 = line.rsplit(',').nth(1).unwrap().parse().unwrap();
        assert!((got - m).abs() < 1e-9, "{line}: mean {m}");
    }
    // Boot time: power-on (first stage start) to ready, from the records.
    let totals: Vec<f64> = recs
        .iter()
        .map(|r| {
            let st = r["stages"].as_array().unwrap();
            st.last().unwrap()["end_s"].as_f64().unwrap() - st[0]["start_s"].as_f64().unwrap()
        })
        .collect();
    let t = row(&rep, "boot", "Power-on to the ready prompt");
    assert!((t["summaries"][0]["mean"].as_f64().unwrap() - mean(&totals)).abs() < 1e-9);
    assert!(md.contains("## Linux boot time (5 boot cycles)"));
    // Bootstage marks in ms.
    let marks: Vec<f64> = recs
        .iter()
        .map(|r| {
            r["bootstage"]
                .as_array()
                .unwrap()
                .iter()
                .find(|b| b["name"] == "start_kernel")
                .unwrap()["mark_us"]
                .as_f64()
                .unwrap()
                / 1e3
        })
        .collect();
    let b = row(&rep, "bootstage", "start_kernel");
    assert!((b["summaries"][0]["mean"].as_f64().unwrap() - mean(&marks)).abs() < 1e-9);
    // The waterfall draws the median cycle.
    let mut sorted = totals.clone();
    sorted.sort_by(f64::total_cmp);
    let median_cycle = totals.iter().position(|&x| x == sorted[2]).unwrap() + 1;
    assert_eq!(rep["waterfalls"][0]["cycle"], median_cycle as u64);
}

/// A TI-style run: two real MCU+ SDK SBL boots (AM62A from eMMC, AM62x from OSPI) as two
/// cycles of one run.
fn ti_run(parent: &Path) -> PathBuf {
    let run = parent.join("am62-sbl-corpus");
    let manifest = RunManifest {
        schema: RUN_SCHEMA.into(),
        board: "am62x-family".into(),
        board_source: "builtin".into(),
        board_profile: perfguide::profile::Board::builtin("am62xx-evm")
            .map(|b| b.text)
            .unwrap_or_default(),
        images: vec![],
        host: HostInfo {
            hostname: "lab".into(),
            os: "Debian GNU/Linux 12 (bookworm)".into(),
            kernel: "6.1.0".into(),
            arch: "x86_64".into(),
            cpus: 8,
        },
        tool: ToolInfo {
            name: "perfguide".into(),
            version: "0.1.0".into(),
        },
        started: "2026-12-01T00:00:00+00:00".into(),
        args: vec![],
        cycles: 2,
        timeout_s: 60.0,
        power: "command".into(),
        console: "serial /dev/ttyUSB0 115200".into(),
        latency_timer: None,
        resumes: vec![],
    };
    let board = perfguide::profile::Board::builtin("am62xx-evm").unwrap();
    let mut rd = RunDir::create(&run, manifest).unwrap();
    for (i, f) in [
        "B_sbl/mcupsdk-am62ax-sbl-emmc-linux-multistage-kpi.log",
        "B_sbl/mcupsdk-am62x-sbl-ospi-linux-multistage.log",
    ]
    .iter()
    .enumerate()
    {
        let log = std::fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../tests/corpus")
                .join(f),
        )
        .unwrap();
        let boots = bootlog_parser::parse_bytes(&log, &board.profile);
        rd.append(CycleRecord::new(
            i as u32 + 1,
            boots[0].clone(),
            HostTiming::default(),
            None,
        ))
        .unwrap();
    }
    run
}

#[test]
fn ti_style_run_in_every_format() {
    let tmp = tempfile::tempdir().unwrap();
    let run = ti_run(tmp.path());
    let out = tmp.path().join("out");
    report(tmp.path(), "am62-sbl-corpus", &out);
    golden("am62-sbl-corpus", &out);
    // SBL total of the first SBL run of each boot, from the records (157040 us for the AM62A).
    let recs = records(&run);
    let totals: Vec<f64> = recs
        .iter()
        .map(|r| r["sbl_total_us"][0].as_f64().unwrap() / 1e3)
        .collect();
    assert_eq!(totals[0], 157.04);
    let rep: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    let row = row(&rep, "sbl", "0:total");
    assert!((row["summaries"][0]["mean"].as_f64().unwrap() - mean(&totals)).abs() < 1e-9);
    let md = std::fs::read_to_string(out.join("guide.md")).unwrap();
    assert!(md.contains("## SBL boot time breakdown"), "{md}");
    // The board's console is serial at 115200: the wire time is the board's, not nominal.
    assert_eq!(rep["runs"][0]["baud"], 115200);
}

/// `sphinx-build`, from the venv `scripts/setup-docs.sh` makes.
fn sphinx() -> PathBuf {
    let p = perfguide::image::cache::cache_dir().join("docs-venv/bin/sphinx-build");
    assert!(
        p.exists(),
        "{} is missing: run `bash scripts/setup-docs.sh` (scripts/test.sh does)",
        p.display()
    );
    p
}

#[test]
fn rst_builds_with_sphinx_without_a_warning() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    std::fs::create_dir_all(&src).unwrap();
    // The QEMU run, the TI-style run, and a run whose board name and failure carry markup.
    let runs = data().join("runs");
    report(&runs, "qemu-arm64-5", &tmp.path().join("qemu"));
    let ti = ti_run(tmp.path());
    report(
        tmp.path(),
        ti.file_name().unwrap().to_str().unwrap(),
        &tmp.path().join("ti"),
    );
    let hostile = hostile_run(tmp.path());
    report(
        tmp.path(),
        hostile.file_name().unwrap().to_str().unwrap(),
        &tmp.path().join("hostile"),
    );
    for (name, dir) in [("qemu", "qemu"), ("ti", "ti"), ("hostile", "hostile")] {
        std::fs::copy(
            tmp.path().join(dir).join("guide.rst"),
            src.join(format!("{name}.rst")),
        )
        .unwrap();
    }
    std::fs::write(src.join("conf.py"), "project = 'perfguide'\n").unwrap();
    std::fs::write(
        src.join("index.rst"),
        "Guides\n======\n\n.. toctree::\n\n   qemu\n   ti\n   hostile\n",
    )
    .unwrap();
    let out = tmp.path().join("html");
    let o = Command::new(sphinx())
        .args(["-W", "--keep-going", "-q", "-b", "html"])
        .arg(&src)
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "sphinx-build -W failed:\n{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    // What the log said arrives as text, not markup.
    let page = std::fs::read_to_string(out.join("hostile.html")).unwrap();
    assert!(page.contains("&lt;script&gt;"), "escaped text missing");
    assert!(
        !page.contains("<script>alert"),
        "markup from the log reached the page"
    );
    assert!(
        page.contains("*bold*"),
        "an RST emphasis from the log must stay literal"
    );
    let qemu = std::fs::read_to_string(out.join("qemu.html")).unwrap();
    assert!(qemu.contains("Linux boot time (5 boot cycles)"));
}

/// A run whose board name and failure detail carry HTML and RST markup.
fn hostile_run(parent: &Path) -> PathBuf {
    let run = parent.join("hostile");
    let log =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(
            "../tests/corpus/H_grabserial_lava/grabserial-rk3288-vyasa-normal-and-falcon.log",
        ))
        .unwrap();
    let boots = bootlog_parser::parse_bytes(&log, &bootlog_parser::BoardProfile::generic());
    let manifest = RunManifest {
        schema: RUN_SCHEMA.into(),
        board: "*bold* `code` |sub| _target <script>alert(1)</script>".into(),
        board_source: "builtin".into(),
        board_profile: String::new(),
        images: vec![],
        host: HostInfo::current(),
        tool: ToolInfo::default(),
        started: "2026-12-01T00:00:00+00:00".into(),
        args: vec![],
        cycles: 3,
        timeout_s: 60.0,
        power: "command".into(),
        console: "pty".into(),
        latency_timer: None,
        resumes: vec![],
    };
    let mut rd = RunDir::create(&run, manifest).unwrap();
    rd.append(CycleRecord::new(
        1,
        boots[0].clone(),
        HostTiming::default(),
        None,
    ))
    .unwrap();
    rd.append(CycleRecord::new(
        2,
        boots[1].clone(),
        HostTiming::default(),
        None,
    ))
    .unwrap();
    rd.append(CycleRecord::new(
        3,
        boots[1].clone(),
        HostTiming::default(),
        Some(perfguide::rundir::Failure {
            reason: perfguide::rundir::FailureReason::Timeout,
            detail: ".. raw:: html\n\n   <script>alert(2)</script> `x`_ [#]_".into(),
        }),
    ))
    .unwrap();
    run
}

#[test]
fn several_runs_are_one_column_each() {
    let tmp = tempfile::tempdir().unwrap();
    let ti = ti_run(tmp.path());
    let qemu = data().join("runs/qemu-arm64-5");
    let out = tmp.path().join("out");
    let o = Command::new(env!("CARGO_BIN_EXE_perfguide"))
        .arg("report")
        .arg(&qemu)
        .arg(&ti)
        .args(["--format", "md,json", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let md = std::fs::read_to_string(out.join("guide.md")).unwrap();
    assert!(
        md.contains("# Performance Guide: qemu-arm64, am62x-family"),
        "{md}"
    );
    assert!(
        md.contains("| Stage (ms) | qemu-arm64-5 | am62-sbl-corpus |"),
        "{md}"
    );
    // A stage only one run has: the other column says so.
    assert!(
        md.contains("| sbl | - | 218.6 (min 139.4, max 297.8) |"),
        "{md}"
    );
    let rep: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    let uboot = row(&rep, "stages", "uboot");
    assert_eq!(uboot["values"][0].as_array().unwrap().len(), 5);
    assert_eq!(uboot["values"][1].as_array().unwrap().len(), 0);
    assert!(uboot["summaries"][1].is_null());
    // The stage note names the stages timed from a target clock.
    assert!(
        md.contains("through them) in some or all cycles: sbl."),
        "{md}"
    );
}

/// The benchmark tables, from a `bench.jsonl` beside the boots: here the figures
/// `perfguide bench parse` reads from a real capture of the bundled benchmarks on the QEMU
/// board (`bench-parser/tests/captures/qemu-arm64-bundled.txt`).
#[test]
fn benchmark_tables_from_bench_jsonl() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("with-bench");
    std::fs::create_dir(&run).unwrap();
    for f in ["run.json", "boots.jsonl"] {
        std::fs::copy(data().join("runs/qemu-arm64-5").join(f), run.join(f)).unwrap();
    }
    let capture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../bench-parser/tests/captures/qemu-arm64-bundled.txt");
    let o = Command::new(env!("CARGO_BIN_EXE_perfguide"))
        .args(["bench", "parse"])
        .arg(&capture)
        .output()
        .unwrap();
    assert!(o.status.success());
    std::fs::write(run.join("bench.jsonl"), &o.stdout).unwrap();
    let out = tmp.path().join("out");
    report(tmp.path(), "with-bench", &out);
    let rep: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    // Every metric of bench.jsonl is in its tool's section, with every run's value.
    let mut by: std::collections::BTreeMap<(String, String), Vec<f64>> = Default::default();
    for l in String::from_utf8(o.stdout).unwrap().lines() {
        let m: Value = serde_json::from_str(l).unwrap();
        by.entry((
            m["benchmark"].as_str().unwrap().to_string(),
            m["metric"].as_str().unwrap().to_string(),
        ))
        .or_default()
        .push(m["value"].as_f64().unwrap());
    }
    assert!(by.len() > 10);
    for ((bench, metric), values) in &by {
        let (tool, test) = bench.split_once('/').unwrap();
        let name = if test == metric {
            format!("{metric} ({bench})")
        } else {
            format!("{test}: {metric}")
        };
        let r = row(&rep, &format!("bench/{tool}"), &name);
        let got: Vec<f64> = r["values"][0]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        assert_eq!(&got, values, "{bench} {metric}");
    }
    let md = std::fs::read_to_string(out.join("guide.md")).unwrap();
    assert!(md.contains("## Benchmark: openssl"), "{md}");
    assert!(
        md.contains("| sha256: sha256-16 | 1823.26 (min 1823.26, max 1823.26) |"),
        "{md}"
    );
}
