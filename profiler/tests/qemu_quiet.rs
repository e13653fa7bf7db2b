//! A quiet-console boot loop on the QEMU reference board (`perfguide image build --board
//! qemu-arm64` first; scripts/test.sh does it): `--console both`, loud and quiet cycles in
//! turns, every one read back from the target after its prompt.
//! QEMU missing, or the image not built, is a failure.

use perfguide::collect::{parse_bootstage, BOOTSTAGE};
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};

const PERFGUIDE: &str = env!("CARGO_BIN_EXE_perfguide");
/// Host stamps of console lines are late by the console's latency (QEMU's stdio pipe and the
/// reader thread: `qemu_loop.rs` measures p99 0.3-1.6 ms here); a check of a stamp against the
/// sync allows this much beyond the stated alignment error.
const STAMP_LATENCY_S: f64 = 0.002;
/// The sync's stated error (half its round trip) and its distance from the console's own
/// offsets are at most this. Measured over ten loud cycles of this test (debug build): error
/// 11.4-12.3 ms (README: 11-13 ms), the sync's printk offset 10.2-11.1 ms below the console's
/// (the marker is written near the end of the round trip, not in its middle), the console's
/// counter offset 12.7-13.8 ms above the sync's. Twice the largest error: this host's CPU runs
/// at half speed for seconds at a time, which doubles a round trip caught in it.
const SYNC_ERROR_MAX_S: f64 = 0.025;

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn stage<'a>(r: &'a Value, id: &str) -> &'a Value {
    r["stages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == id)
        .unwrap_or_else(|| panic!("no stage {id} in {r}"))
}

/// The bootstage marks of a cycle record, `(name, µs)`.
fn record_bootstage(r: &Value) -> Vec<(String, u64)> {
    r["bootstage"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["name"].as_str().unwrap().to_string(),
                b["mark_us"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// The bootstage lines of a collection capture, as the target printed them.
fn collected_bootstage(log: &Path) -> Vec<(String, u64)> {
    let text = std::fs::read_to_string(log).unwrap();
    let lines: Vec<String> = text
        .lines()
        .filter_map(|l| Some(l.split_once("] ")?.1.to_string()))
        .collect();
    // The output of the bootstage command: after its echoed line.
    let from = lines
        .iter()
        .position(|l| l.contains(&BOOTSTAGE[..30]))
        .expect("the bootstage command in the capture");
    let (marks, _) = parse_bootstage(&lines[from + 1..]);
    marks.into_iter().map(|r| (r.name, r.mark_us)).collect()
}

#[test]
fn qemu_loud_and_quiet_cycles_agree() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    let o = Command::new(PERFGUIDE)
        .args(["boot-loop", "--board", "qemu-arm64", "--console", "both"])
        .args(["--cycles", "4", "--timeout", "180", "--out"])
        .arg(&out)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    eprintln!("--- stdout\n{stdout}--- stderr\n{stderr}");
    assert_eq!(o.status.code(), Some(0), "every cycle completes");
    // The run ends with the console's cost, measured and projected, and the guide written.
    assert!(stdout.contains("-- loud cycles") && stdout.contains("-- quiet cycles"));
    assert!(stdout.contains("kernel measured") && stdout.contains("kernel projected"));
    for f in ["guide.md", "report.html", "report.json"] {
        assert!(out.join(f).exists(), "{f}");
    }
    let recs: Vec<Value> = std::fs::read_to_string(out.join("boots.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(recs.len(), 4);
    for r in &recs {
        let n = r["cycle"].as_u64().unwrap();
        let quiet = n % 2 == 0;
        assert_eq!(r["status"], "ok", "{r}");
        assert_eq!(r["console"], if quiet { "quiet" } else { "loud" });
        let ids: Vec<&str> = r["stages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["id"].as_str().unwrap())
            .collect();
        assert_eq!(ids, ["rom", "uboot", "kernel", "userspace"], "{r}");
        let a = &r["alignment"];
        let err = num(&a["error_s"]);
        assert!(
            err > 0.0 && err <= SYNC_ERROR_MAX_S,
            "the sync took {err} s: {a}"
        );
        // The bootstage records of the device tree, from the collection's capture.
        let log = out.join(r["collected"]["log"].as_str().unwrap());
        let dt = collected_bootstage(&log);
        assert_eq!(dt.first().map(|m| m.0.as_str()), Some("reset"), "{dt:?}");
        assert_eq!(
            dt.last().map(|m| m.0.as_str()),
            Some("start_kernel"),
            "{dt:?}"
        );
        let ready = num(&r["host"]["ready_s"]);
        if quiet {
            // Nothing of U-Boot or the kernel on the console; every stage placed on the host
            // clock through the target's.
            assert!(r["host"]["lines"].as_u64().unwrap() < 10, "{r}");
            for id in ids {
                assert_eq!(stage(r, id)["clock"], "derived", "{id}");
            }
            let bs = record_bootstage(r);
            assert_eq!(bs, dt, "the record's bootstage is the device tree's");
            // U-Boot: from its first mark after reset to its hand-off, on its own timer.
            let first = dt.iter().find(|m| m.0 != "reset").unwrap().1;
            let handoff = dt.last().unwrap().1;
            let u = stage(r, "uboot");
            assert!((num(&u["duration_s"]) - (handoff - first) as f64 / 1e6).abs() < 1e-9);
            // The kernel from the hand-off to `Run /init` in the kernel log (printk), through
            // the sync's offset.
            let k = stage(r, "kernel");
            let init = num(&r["kernel"]["init_ts_s"]);
            let off = num(&a["printk_offset_s"]);
            assert!((num(&k["end_s"]) - (init + off)).abs() < 1e-9);
            assert!((num(&k["start_s"]) - num(&u["end_s"])).abs() < 1e-9);
            // User space to the prompt on the host clock; the total is the host's.
            let us = stage(r, "userspace");
            assert!((num(&us["end_s"]) - ready).abs() < 1e-9);
            assert_eq!(num(&stage(r, "rom")["start_s"]), 0.0);
            // The kernel's version from the dmesg read back (the console printed none of it):
            // the image's Debian 6.1 kernel.
            let version = r["kernel"]["version"].as_str().unwrap_or_default();
            assert!(version.starts_with("6.1."), "kernel version {version:?}");
            assert!(r["collected"]["dmesg_lines"].as_u64().unwrap() > 100);
        } else {
            // The sync against the console's own stamps of the same boot: printk's offset
            // within the stated error (the console's stamps are late by their latency only).
            let sync = num(&a["printk_offset_s"]);
            let console = num(&a["console_printk_offset_s"]);
            assert!(
                (sync - console).abs() <= err + STAMP_LATENCY_S,
                "printk offset: sync {sync} vs console {console}, stated error {err}"
            );
            assert!(
                (sync - console).abs() <= SYNC_ERROR_MAX_S,
                "printk offset: sync {sync} vs console {console}"
            );
            // The generic timer's: the console prints `Starting kernel` after the bootstage
            // report, so its stamp is later than the mark, never earlier.
            let sync_c = num(&a["counter_offset_s"]);
            let console_c = num(&a["console_counter_offset_s"]);
            eprintln!(
                "cycle {n}: stated error {:.1} ms, printk offset sync - console {:.2} ms, \
                 counter offset console - sync {:.2} ms",
                err * 1e3,
                (sync - console) * 1e3,
                (console_c - sync_c) * 1e3
            );
            assert!(
                console_c >= sync_c - err - STAMP_LATENCY_S,
                "counter offset: sync {sync_c} vs console {console_c}, stated error {err}"
            );
            assert!(
                console_c - sync_c <= SYNC_ERROR_MAX_S,
                "counter offset: sync {sync_c} vs console {console_c}"
            );
            // The device tree holds the records the console's report printed.
            let bs = record_bootstage(r);
            assert_eq!(
                bs, dt,
                "the console's bootstage report is the device tree's"
            );
            assert_eq!(stage(r, "kernel")["clock"], "host");
        }
    }
}
