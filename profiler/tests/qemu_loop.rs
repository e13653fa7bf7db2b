//! Real boot loops on the QEMU reference board (`perfguide image build --board qemu-arm64`
//! first; scripts/test.sh does it).
//! QEMU missing, or the image not built, is a failure.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};

const PERFGUIDE: &str = env!("CARGO_BIN_EXE_perfguide");

/// The QEMU tests of this file run one at a time: a second QEMU on a 2-core machine would
/// delay the console stamps the fidelity test measures.
static QEMU: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    QEMU.lock().unwrap_or_else(|e| e.into_inner())
}

#[path = "support/stamps.rs"]
mod stamps;
use stamps::{pct, stamp_errors_us};

#[test]
fn qemu_boot_loop_three_cycles() {
    let _one = one_at_a_time();
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    let o = Command::new(PERFGUIDE)
        .args(["boot-loop", "--board", "qemu-arm64", "--cycles", "3"])
        .args(["--timeout", "180", "--out"])
        .arg(&out)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    eprintln!("--- stdout\n{stdout}--- stderr\n{stderr}");
    assert!(
        !stderr.contains("no built image"),
        "build the image first: perfguide image build --board qemu-arm64"
    );
    assert_eq!(o.status.code(), Some(0), "every cycle completes");
    let recs: Vec<Value> = std::fs::read_to_string(out.join("boots.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(recs.len(), 3);
    let mut errors_us = Vec::new();
    for (i, r) in recs.iter().enumerate() {
        assert_eq!(r["cycle"], i as u64 + 1);
        assert_eq!(r["status"], "ok", "{r}");
        assert_eq!(r["complete"], true);
        // Stages found, in boot order, each starting where the previous one ended.
        let stages = r["stages"].as_array().unwrap();
        let ids: Vec<&str> = stages.iter().map(|s| s["id"].as_str().unwrap()).collect();
        // `rom`: power-on to the first console line (QEMU start, U-Boot before its console).
        assert_eq!(ids, ["rom", "uboot", "kernel", "userspace"], "{r}");
        assert_eq!(
            stages[0]["start_s"].as_f64(),
            Some(0.0),
            "t = 0 is power-on"
        );
        let mut prev_end = 0.0;
        for s in stages {
            let (start, end) = (s["start_s"].as_f64().unwrap(), s["end_s"].as_f64().unwrap());
            assert!(start >= prev_end - 1e-6 && end > start, "{s}");
            prev_end = end;
        }
        let ready = r["host"]["ready_s"].as_f64().unwrap();
        assert!(
            (prev_end - ready).abs() < 1e-3,
            "userspace ends at the login prompt"
        );
        // U-Boot's bootstage records (CONFIG_BOOTSTAGE_REPORT).
        let bs = r["bootstage"].as_array().expect("bootstage records");
        assert!(bs.len() >= 3, "{r}");
        assert!(bs.iter().any(|b| b["name"] == "board_init_f"), "{r}");
        assert!(r["kernel"]["version"].is_string());
        assert!(r["components"]["uboot"].is_string());
        // Host stamps against printk stamps: after the per-boot offset, small.
        let text = std::fs::read_to_string(out.join(r["log"].as_str().unwrap())).unwrap();
        errors_us.extend(stamp_errors_us(&text));
    }
    errors_us.sort_by(f64::total_cmp);
    let (med, p99) = (pct(&errors_us, 50.0), pct(&errors_us, 99.0));
    eprintln!("host-vs-printk error: median {med:.0} us, p99 {p99:.0} us");
    // README: median 38 us, p99 230 us from the release build. This test runs the debug build,
    // whose twelve runs here gave medians of 65-80 us and p99s of 315-1,563 us (the tail is
    // this host's CPU dropping to half speed for seconds, which delays the reading thread);
    // the bounds are 1.5x those worst figures.
    assert!(med < 120.0, "median {med} us");
    assert!(p99 < 2_400.0, "p99 {p99} us");
    assert!(
        stdout.contains("uboot") && stdout.contains("(min "),
        "{stdout}"
    );
    assert!(stdout.contains("3 ok, 0 failed"), "{stdout}");
    let run: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    let roles: Vec<&str> = run["images"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["role"].as_str().unwrap())
        .collect();
    assert!(
        roles.contains(&"u_boot") && roles.contains(&"disk"),
        "{run}"
    );
    for i in run["images"].as_array().unwrap() {
        assert_eq!(i["sha256"].as_str().unwrap().len(), 64);
        assert!(Path::new(i["path"].as_str().unwrap()).exists());
    }
}

fn children(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    if let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) {
        for t in tasks.flatten() {
            if let Ok(c) = std::fs::read_to_string(t.path().join("children")) {
                out.extend(c.split_whitespace().filter_map(|s| s.parse::<u32>().ok()));
            }
        }
    }
    out
}

#[test]
fn qemu_killed_loop_leaves_no_qemu_and_resumes() {
    let _one = one_at_a_time();
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    let mut child = Command::new(PERFGUIDE)
        .args(["boot-loop", "--board", "qemu-arm64", "--cycles", "2"])
        .args(["--timeout", "180", "--out"])
        .arg(&out)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let log = out.join("cycle-0001.log");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let qemu = loop {
        assert!(
            std::time::Instant::now() < deadline,
            "cycle 1 never started"
        );
        let lines = std::fs::read_to_string(&log).map_or(0, |t| t.lines().count());
        let kids = children(child.id());
        if lines >= 20 && !kids.is_empty() {
            break kids[0];
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let comm = std::fs::read_to_string(format!("/proc/{qemu}/comm")).unwrap_or_default();
    assert!(comm.starts_with("qemu-system"), "{comm}");
    child.kill().unwrap(); // SIGKILL: perfguide cannot clean up
    child.wait().unwrap();
    let gone = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while Path::new(&format!("/proc/{qemu}/comm")).exists()
        && std::fs::read_to_string(format!("/proc/{qemu}/stat"))
            .map(|s| !s.contains(") Z "))
            .unwrap_or(false)
    {
        assert!(
            std::time::Instant::now() < gone,
            "QEMU {qemu} outlived the killed loop"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let o = Command::new(PERFGUIDE)
        .args(["boot-loop", "--resume", "--out"])
        .arg(&out)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    eprintln!("{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(o.status.code(), Some(0));
    let n = std::fs::read_to_string(out.join("boots.jsonl"))
        .unwrap()
        .lines()
        .count();
    assert_eq!(n, 2);
    assert!(out.join("cycle-0001.log.incomplete").exists());
}
