//! `perfguide report` on a run directory built from a real grabserial capture (Amarula Vyasa
//! RK3288, tests/corpus/H_grabserial_lava): the stage table, failed cycles, escaping.

use perfguide::rundir::{
    CycleRecord, Failure, FailureReason, HostInfo, HostTiming, RunDir, RunManifest, ToolInfo,
    RUN_SCHEMA,
};
use std::process::Command;

fn manifest() -> RunManifest {
    RunManifest {
        schema: RUN_SCHEMA.into(),
        board: "vyasa|<b>".into(),
        board_source: "builtin".into(),
        board_profile: String::new(),
        images: vec![],
        host: HostInfo::current(),
        tool: ToolInfo::default(),
        started: "2026-11-30T00:00:00+00:00".into(),
        args: vec![],
        cycles: 3,
        timeout_s: 60.0,
        power: "command".into(),
        console: "pty".into(),
        latency_timer: None,
        resumes: vec![],
    }
}

#[test]
fn guide_from_a_run_directory() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let log = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/corpus/H_grabserial_lava/grabserial-rk3288-vyasa-normal-and-falcon.log"
    ))
    .unwrap();
    let boots = bootlog_parser::parse_bytes(&log, &bootlog_parser::BoardProfile::generic());
    let mut rd = RunDir::create(&run, manifest()).unwrap();
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
    let fail = Failure {
        reason: FailureReason::Timeout,
        detail: "no `login:` in 60 s | <script>".into(),
    };
    rd.append(CycleRecord::new(
        3,
        boots[1].clone(),
        HostTiming::default(),
        Some(fail),
    ))
    .unwrap();
    drop(rd);

    let out = Command::new(env!("CARGO_BIN_EXE_perfguide"))
        .arg("report")
        .arg(&run)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let md = std::fs::read_to_string(run.join("guide.md")).unwrap();
    // Two successful cycles: U-Boot only in the first (the second is a falcon boot).
    assert!(
        md.contains("| uboot | 1538.2 (min 1538.2, max 1538.2) |"),
        "{md}"
    );
    assert!(
        md.contains("| a-spl | 1156.9 (min 435.4, max 1878.5) |"),
        "{md}"
    );
    assert!(
        md.contains("| Power-on to the ready prompt | 4.655 (min 2.586, max 6.724) |"),
        "{md}"
    );
    assert!(
        md.contains("| 3 | timeout: no \\`login:\\` in 60 s \\| \\<script\\> |"),
        "{md}"
    );
    assert!(md.contains("# Performance Guide: vyasa\\|\\<b\\>"), "{md}");
    assert!(md.contains("| U-Boot TPL | 2017.09-rc2-13373-g2cffd0d-dirty |"));
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("report.json")).unwrap()).unwrap();
    assert_eq!(report["schema"], "perfguide/report/v1");
    assert_eq!(report["runs"][0]["ok"], 2);
    assert_eq!(report["runs"][0]["failed"][0][0], 3);
    let boot = &report["sections"][0];
    assert_eq!(boot["id"], "boot");
    assert_eq!(boot["rows"][0]["values"][0].as_array().unwrap().len(), 2);
}

#[test]
fn missing_run_json_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_perfguide"))
        .arg("report")
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("run.json"));
}

/// A run directory whose boots.jsonl is missing, empty, torn or short of the planned cycles:
/// an error naming what is wrong, or with --partial a guide that says which cycles are missing.
#[test]
fn incomplete_runs_are_errors_unless_partial() {
    let saved =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/runs/qemu-arm64-5");
    let recs = std::fs::read_to_string(saved.join("boots.jsonl")).unwrap();
    let lines: Vec<&str> = recs.lines().collect();
    let three: String = lines[..3].iter().map(|l| format!("{l}\n")).collect();
    let torn = format!("{three}{}", &lines[3][..100]);
    let cases: [(&str, Option<String>, &str); 4] = [
        ("missing", None, "boots.jsonl is missing"),
        ("empty", Some(String::new()), "boots.jsonl is empty"),
        (
            "torn",
            Some(torn),
            "the last line is torn (no newline after record 4)",
        ),
        (
            "short",
            Some(three),
            "holds 3 of the 5 cycles run.json plans (cycles 4-5 missing)",
        ),
    ];
    for (name, boots, said) in cases {
        let dir = tempfile::tempdir().unwrap();
        let run = dir.path().join(name);
        std::fs::create_dir(&run).unwrap();
        std::fs::copy(saved.join("run.json"), run.join("run.json")).unwrap();
        if let Some(b) = &boots {
            std::fs::write(run.join("boots.jsonl"), b).unwrap();
        }
        let out = Command::new(env!("CARGO_BIN_EXE_perfguide"))
            .arg("report")
            .arg(&run)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(
            err.contains(said) && err.contains("--partial"),
            "{name}: {err}"
        );
        assert!(
            !run.join("guide.md").exists(),
            "{name}: no guide without --partial"
        );

        let out = Command::new(env!("CARGO_BIN_EXE_perfguide"))
            .arg("report")
            .arg(&run)
            .arg("--partial")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let md = std::fs::read_to_string(run.join("guide.md")).unwrap();
        let row = md
            .lines()
            .find(|l| l.starts_with("| Incomplete run |"))
            .unwrap_or_else(|| panic!("{name}: {md}"));
        assert!(row.contains(said), "{name}: {row}");
        let rep: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(run.join("report.json")).unwrap())
                .unwrap();
        let missing: Vec<u64> = rep["runs"][0]["missing"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        let want: Vec<u64> = match name {
            "missing" | "empty" => vec![1, 2, 3, 4, 5],
            _ => vec![4, 5],
        };
        assert_eq!(missing, want, "{name}");
    }
}
