//! `perfguide parse` of a real LAVA job log (data/lava/, made by scripts/lava-capture.sh:
//! LAVA's dispatcher booting the QEMU reference board twice) against the raw serial bytes
//! QEMU wrote of the same boots: the same boots and stages, the same target-clock figures,
//! and host times from LAVA's `dt`, the login prompt LAVA typed at as the ready marker; the
//! xz-compressed log read alike, by its magic bytes.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_perfguide"))
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/lava")
        .join(name)
}

fn parse(path: &Path) -> Value {
    let out = bin()
        .args(["parse", "--board", "qemu-arm64", "--format", "json"])
        .arg(path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The boots with `source` taken out (it names the file).
fn boots(v: &Value) -> Vec<Value> {
    v["boots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            let mut b = b.clone();
            b.as_object_mut().unwrap().remove("source");
            b
        })
        .collect()
}

/// Seconds since midnight of a LAVA `dt` (`2026-12-05T21:03:55.798052`).
fn dt_seconds(dt: &str) -> f64 {
    let clock = dt.split('T').nth(1).unwrap();
    let mut p = clock.split(':');
    let h: f64 = p.next().unwrap().parse().unwrap();
    let m: f64 = p.next().unwrap().parse().unwrap();
    let s: f64 = p.next().unwrap().parse().unwrap();
    h * 3600.0 + m * 60.0 + s
}

/// The `dt` of line `n` (1-based) of log.yaml, read as text.
fn dt_of_line(n: u64) -> f64 {
    let text = std::fs::read_to_string(data("log.yaml")).unwrap();
    let line = text.lines().nth(n as usize - 1).unwrap();
    let start = line.find("\"dt\": \"").unwrap() + 7;
    dt_seconds(&line[start..start + 26])
}

#[test]
fn xz_log_parses_as_the_plain_one() {
    let plain = parse(&data("log.yaml"));
    assert_eq!(boots(&parse(&data("log.yaml.xz"))), boots(&plain));
    // Recognised by its magic bytes, whatever it is called, and on stdin.
    let d = tempfile::tempdir().unwrap();
    let renamed = d.path().join("job-1.log");
    std::fs::copy(data("log.yaml.xz"), &renamed).unwrap();
    assert_eq!(boots(&parse(&renamed)), boots(&plain));
    let out = bin()
        .args(["parse", "--board", "qemu-arm64", "--format", "json", "-"])
        .stdin(Stdio::from(
            std::fs::File::open(data("log.yaml.xz")).unwrap(),
        ))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        boots(&serde_json::from_slice(&out.stdout).unwrap()),
        boots(&plain)
    );
}

#[test]
fn corrupt_xz_names_the_file() {
    let d = tempfile::tempdir().unwrap();
    let bytes = std::fs::read(data("log.yaml.xz")).unwrap();
    let cut = d.path().join("cut.yaml.xz");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 3] ^= 0x55;
    let bad = d.path().join("bad.yaml.xz");
    std::fs::write(&bad, &flipped).unwrap();
    for f in [&cut, &bad] {
        let out = bin().args(["parse"]).arg(f).output().unwrap();
        let e = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{e}");
        assert!(
            e.contains(&format!("{}: corrupt xz stream", f.display())),
            "{e}"
        );
    }
}

#[test]
fn lava_log_and_raw_serial_give_the_same_boots() {
    let lava = parse(&data("log.yaml"));
    let raw = parse(&data("raw.log"));
    let lb = lava["boots"].as_array().unwrap();
    let rb = raw["boots"].as_array().unwrap();
    let job: serde_yaml::Value =
        serde_yaml::from_str(&std::fs::read_to_string(data("job.yaml")).unwrap()).unwrap();
    let boots_in_job = job["actions"]
        .as_sequence()
        .unwrap()
        .iter()
        .filter(|a| a.get("boot").is_some())
        .count();
    assert_eq!(lb.len(), boots_in_job);
    assert_eq!(rb.len(), boots_in_job);
    for (l, r) in lb.iter().zip(rb) {
        let ids = |b: &Value| -> Vec<String> {
            b["stages"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["id"].as_str().unwrap().to_string())
                .collect()
        };
        assert_eq!(ids(l), ids(r));
        assert!(!ids(l).is_empty());
        // The target's clocks: U-Boot's bootstage records and printk, the same bytes.
        assert_eq!(l["bootstage"], r["bootstage"]);
        assert!(!l["bootstage"].as_array().unwrap().is_empty());
        assert_eq!(l["kernel"], r["kernel"]);
        assert_eq!(l["components"], r["components"]);
        // The raw bytes have no host clock; LAVA's log has the dispatcher's `dt`.
        for s in r["stages"].as_array().unwrap() {
            assert_eq!(s["clock"], "target", "{s}");
        }
        assert!(r.get("printk_offset_s").is_none());
        assert!(l["printk_offset_s"].as_f64().is_some());
        let first = &l["stages"][0];
        let first_line = first["line"].as_u64().unwrap();
        for s in l["stages"].as_array().unwrap() {
            assert_eq!(s["clock"], "host", "{s}");
            // A stage starts at the `dt` of the line that opened it, on the boot's clock.
            let expect = dt_of_line(s["line"].as_u64().unwrap()) - dt_of_line(first_line)
                + first["start_s"].as_f64().unwrap();
            let start = s["start_s"].as_f64().unwrap();
            assert!((start - expect).abs() < 1e-6, "{s}: {start} != {expect}");
        }
        // LAVA logs the login prompt with the user name it typed (`login: root`): the boot
        // is complete, its ready marker the prompt at the `dt` LAVA typed (the line before).
        assert_eq!(l["complete"], true, "{}", l["warnings"]);
        let ready = l["marks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["kind"] == "ready")
            .unwrap();
        let n = ready["line"].as_u64().unwrap();
        let text = std::fs::read_to_string(data("log.yaml")).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[n as usize - 1].contains("login: root"),
            "{}",
            lines[n as usize - 1]
        );
        assert!(lines[n as usize - 2].contains(r#""lvl": "input""#));
        let last = l["stages"].as_array().unwrap().last().unwrap();
        let expect =
            dt_of_line(n - 1) - dt_of_line(first_line) + first["start_s"].as_f64().unwrap();
        let end = last["end_s"].as_f64().unwrap();
        assert!((end - expect).abs() < 1e-6, "{last}: {end} != {expect}");
    }
}
