//! `perfguide compare` on saved runs: sides from run directories and kept report.json files,
//! the exit status a CI gates on, reference limits, and clear errors. The detection of a real
//! change between two QEMU runs is in `qemu_compare.rs`.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn qemu_run() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/runs/qemu-arm64-5")
}

fn perfguide(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_perfguide"))
        .args(args)
        .output()
        .unwrap()
}

fn os<T: AsRef<std::ffi::OsStr> + ?Sized>(s: &T) -> &std::ffi::OsStr {
    s.as_ref()
}

#[test]
fn a_run_against_itself_and_its_kept_report() {
    let tmp = tempfile::tempdir().unwrap();
    let o = perfguide(&[
        os("report"),
        os(&qemu_run()),
        os("--format"),
        os("json"),
        os("-o"),
        os(tmp.path()),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let kept = tmp.path().join("report.json");
    for base in [qemu_run(), kept.clone()] {
        let o = perfguide(&[
            os("compare"),
            os(&base),
            os(&qemu_run()),
            os("--format"),
            os("json"),
        ]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let c: Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(c["schema"], "perfguide/compare/v1");
        let lines = c["lines"].as_array().unwrap();
        assert!(lines.len() >= 20, "{}", lines.len());
        for l in lines {
            assert_eq!(l["verdict"], "no-change", "{l}");
            assert_eq!(l["change"], 0.0);
        }
        let uboot = lines
            .iter()
            .find(|l| l["section"] == "stages" && l["name"] == "uboot")
            .unwrap();
        // 5 against the same 5: every value tied with its copy, so the tie-corrected normal
        // approximation, U = 12.5 = n m / 2 and p = 1.
        assert!((uboot["p"].as_f64().unwrap() - 1.0).abs() < 1e-12);
        assert_eq!(uboot["shift"]["estimate"], 0.0);
    }
}

#[test]
fn too_few_cycles_is_a_warning_with_the_cycles_needed() {
    let tmp = tempfile::tempdir().unwrap();
    // Two cycles a side: no test can reach 5 %.
    let small = tmp.path().join("two");
    std::fs::create_dir(&small).unwrap();
    let mut run: Value =
        serde_json::from_str(&std::fs::read_to_string(qemu_run().join("run.json")).unwrap())
            .unwrap();
    run["cycles"] = 2.into();
    std::fs::write(small.join("run.json"), run.to_string()).unwrap();
    let recs = std::fs::read_to_string(qemu_run().join("boots.jsonl")).unwrap();
    let two: String = recs.lines().take(2).map(|l| format!("{l}\n")).collect();
    std::fs::write(small.join("boots.jsonl"), two).unwrap();
    let o = perfguide(&[os("compare"), os(&small), os(&qemu_run())]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let md = String::from_utf8_lossy(&o.stdout);
    let uboot = md
        .lines()
        .find(|l| l.starts_with("| stages | uboot |"))
        .unwrap();
    assert!(uboot.contains("too few cycles to tell"), "{uboot}");
    assert!(uboot.contains("a side to tell this change"), "{uboot}");
}

#[test]
fn reference_limits_pass_and_fail() {
    let tmp = tempfile::tempdir().unwrap();
    let lim = tmp.path().join("limits.toml");
    // The run's uboot stage: 290.5 ms mean, 406.3 ms max; kernel 1495.9 mean.
    std::fs::write(
        &lim,
        "[stages]\nuboot = 300\nkernel = 1600\n[boot]\n\"Power-on to the ready prompt\" = 2.5\n",
    )
    .unwrap();
    let o = perfguide(&[os("compare"), os("--reference"), os(&lim), os(&qemu_run())]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("3 of 3 limits met"));

    std::fs::write(
        &lim,
        "statistic = \"max\"\n[stages]\nuboot = 300\n[initcalls]\nnot_measured_init = 1\n",
    )
    .unwrap();
    let o = perfguide(&[
        os("compare"),
        os("--reference"),
        os(&lim),
        os(&qemu_run()),
        os("--format"),
        os("json"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let r: Value = serde_json::from_slice(&o.stdout).unwrap();
    let checks = r["checks"].as_array().unwrap();
    let uboot = checks.iter().find(|c| c["name"] == "uboot").unwrap();
    assert_eq!(uboot["ok"], false);
    assert!((uboot["value"].as_f64().unwrap() - 406.327).abs() < 1e-6);
    let missing = checks
        .iter()
        .find(|c| c["name"] == "not_measured_init")
        .unwrap();
    assert_eq!(missing["ok"], false);
    assert!(missing["value"].is_null());
}

#[test]
fn bad_inputs_are_clear_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let lim = tmp.path().join("limits.toml");
    std::fs::write(&lim, "[stages]\nuboot = \"fast\"\n").unwrap();
    let o = perfguide(&[os("compare"), os("--reference"), os(&lim), os(&qemu_run())]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("limits.toml") && e.contains("uboot"), "{e}");

    std::fs::write(&lim, "[stages\n").unwrap();
    let o = perfguide(&[os("compare"), os("--reference"), os(&lim), os(&qemu_run())]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("line 1"));

    let summary = tmp.path().join("summary.json");
    std::fs::write(&summary, r#"{"schema":"perfguide/summary/v1"}"#).unwrap();
    let o = perfguide(&[os("compare"), os(&summary), os(&qemu_run())]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("report.json"));

    let o = perfguide(&[os("compare"), os(&tmp.path().join("nope")), os(&qemu_run())]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("nope"));

    let o = perfguide(&[os("compare"), os(&qemu_run())]);
    assert_eq!(o.status.code(), Some(2));
}
