//! The `sbl-instrument` binary: JSON contracts and exit codes.

mod common;

use std::process::Command;

use common::*;
use serde_json::Value;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sbl-instrument"))
}

fn json(cmd: &mut Command) -> Value {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{cmd:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn inspect_json_contract() {
    let f = fixtures();
    let v = json(
        bin()
            .args(["inspect", "--format", "json"])
            .arg(f.path("tiboot3.bin"))
            .arg(f.path("tispl.bin")),
    );
    assert_eq!(v["schema"], "perfguide/image/v1");
    let imgs = v["images"].as_array().unwrap();
    assert_eq!(imgs.len(), 2);
    for img in imgs {
        for k in ["path", "format", "size", "components"] {
            assert!(img.get(k).is_some(), "image lacks {k}");
        }
        fn check(c: &Value) {
            for k in [
                "name",
                "format",
                "offset",
                "size",
                "load_addr",
                "entry",
                "sha512",
                "components",
            ] {
                assert!(c.get(k).is_some(), "component {} lacks {k}", c["name"]);
            }
            assert!(["ok", "mismatch", "absent"].contains(&c["sha512"].as_str().unwrap()));
            for s in c["components"].as_array().unwrap() {
                check(s);
            }
        }
        for c in img["components"].as_array().unwrap() {
            check(c);
        }
    }
    let cert = &imgs[0]["components"][0];
    assert_eq!(cert["name"], "certificate");
    assert!(cert["load_addr"].is_null());
    assert_eq!(imgs[0]["components"][1]["sha512"], "ok");
}

#[test]
fn inspect_table_and_strict() {
    let f = fixtures();
    let out = bin()
        .arg("inspect")
        .arg(f.path("tiboot3.bin"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let t = String::from_utf8_lossy(&out.stdout);
    assert!(t.contains("sysfw-data") && t.contains("0x43c00000"), "{t}");
    let dir = tempfile::tempdir().unwrap();
    let mut d = f.read("tiboot3.bin");
    let n = d.len();
    d[n - 3] ^= 1;
    let p = dir.path().join("tiboot3.bin");
    std::fs::write(&p, d).unwrap();
    let out = bin()
        .args(["inspect", "--strict"])
        .arg(&p)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stdout).contains("MISMATCH"));
}

#[test]
fn malformed_input_exits_2_with_structure_and_offset() {
    let f = fixtures();
    let dir = tempfile::tempdir().unwrap();
    let d = f.read("tispl.bin");
    let p = dir.path().join("tispl.bin");
    std::fs::write(&p, &d[..d.len() / 2]).unwrap();
    let out = bin().arg("inspect").arg(&p).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(e.contains("FDT") && e.contains("offset 0x"), "{e}");
    assert!(!e.contains("panicked"), "{e}");
}

#[test]
fn estimate_json() {
    let f = fixtures();
    let v = json(
        bin()
            .args([
                "estimate",
                "--medium",
                "ospi-166-dac-dma",
                "--format",
                "json",
            ])
            .arg(f.path("tiboot3.bin")),
    );
    assert_eq!(v["medium"], "ospi-166-dac-dma");
    assert_eq!(v["rate_mbytes_s"], 332.0);
    let rows = v["rows"].as_array().unwrap();
    let names: Vec<&str> = rows
        .iter()
        .map(|r| r["component"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["certificate", "sbl", "sysfw", "sysfw-data", "dm-data"]
    );
    let v = json(
        bin()
            .args(["estimate", "--rate-mbps", "800", "--format", "json"])
            .arg(f.path("tiboot3.bin")),
    );
    assert_eq!(v["rate_mbytes_s"], 100.0);
    let out = bin()
        .args(["estimate", "--medium", "floppy"])
        .arg(f.path("tiboot3.bin"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown medium floppy"));
}

#[test]
fn profile_map_extract_patch_commands() {
    let f = fixtures();
    let elf = f.path("sbl_pdk.xer5f");
    let v = json(bin().args(["profile-map", "--format", "json"]).arg(&elf));
    assert_eq!(v["flavor"], "pdk");
    assert_eq!(v["entry_size"], 12);
    let log = v["symbols"]["sblProfileLog"]["addr"].as_u64().unwrap();
    let indx = v["symbols"]["sblProfileLogIndx"]["addr"].as_u64().unwrap();
    // A dump with two points.
    let data = f.read("sbl_pdk.xer5f");
    let main_addr = find_in_section(&data, ".rodata", b"main\0").1 as u32;
    let sys_addr = find_in_section(&data, ".rodata", b"System_init\0").1 as u32;
    let mut dump = vec![0u8; 0x2000];
    let mut put = |a: u64, v: u32| {
        let o = (a - R5_BASE) as usize;
        dump[o..o + 4].copy_from_slice(&v.to_le_bytes());
    };
    put(log, main_addr);
    put(log + 4, 57);
    put(log + 8, 5000);
    put(log + 12, sys_addr);
    put(log + 16, 42);
    put(log + 20, 7_000_000);
    put(indx, 2);
    let dir = tempfile::tempdir().unwrap();
    let dp = dir.path().join("msram.bin");
    std::fs::write(&dp, &dump).unwrap();
    let v = json(
        bin()
            .args([
                "extract",
                "--format",
                "json",
                "--base",
                "0x41c00000",
                "--cpu-mhz",
                "1000",
            ])
            .arg(&elf)
            .arg(&dp),
    );
    assert_eq!(v["overflow"], false);
    assert_eq!(
        v["entries"],
        serde_json::json!([
            {"fxn": "main", "line": 57, "cycle": 5000, "timestamp_us": 5},
            {"fxn": "System_init", "line": 42, "cycle": 7000000, "timestamp_us": 7000}
        ])
    );
    // patch --dry-run prints the change and writes nothing.
    let v = json(
        bin()
            .args([
                "patch",
                "--dry-run",
                "--format",
                "json",
                "--set",
                "sbl_log_level=3",
            ])
            .arg(&elf),
    );
    assert_eq!(v[0]["old"], "02000000");
    assert_eq!(v[0]["new"], "03000000");
    let out = bin()
        .args(["patch", "--set", "sbl_log_level=3"])
        .arg(&elf)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "needs --output, --in-place or --dry-run"
    );
}

/// Errors and `--strict` findings have the exit codes of every perfguide command, and each
/// error is said once: a directory, a missing file, a file of no known format.
#[test]
fn directories_missing_and_unknown_files() {
    let dir = tempfile::tempdir().unwrap();
    let out = bin().arg("inspect").arg(dir.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(e.contains("is a directory"), "{e}");
    assert_eq!(e.lines().count(), 1, "{e}");

    let missing = dir.path().join("nope.bin");
    let out = bin().arg("inspect").arg(&missing).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let e = String::from_utf8_lossy(&out.stderr);
    assert_eq!(e.matches("No such file or directory").count(), 1, "{e}");

    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "not an image\n").unwrap();
    let out = bin().arg("inspect").arg(&text).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(e.contains("notes.txt: no known image format"), "{e}");
    let out = bin()
        .args(["inspect", "--strict"])
        .arg(&text)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
}
