//! `perfguide parse` as a user runs it: the JSON contract, the table, errors, stdin, run dirs.

use std::io::Write;
use std::process::{Command, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_perfguide"))
}

fn corpus(rel: &str) -> String {
    format!("{}/../tests/corpus/{rel}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn json_contract_keys_and_values() {
    let out = bin()
        .args(["parse", "--format", "json", "--board", "am62xx-evm"])
        .arg(corpus("B_sbl/mcupsdk-am62x-sbl-ospi-linux-multistage.log"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["schema"], "perfguide/boot-log/v1");
    let b = &v["boots"][0];
    assert_eq!(b["index"], 0);
    assert_eq!(b["complete"], true);
    assert_eq!(b["sbl_total_us"], serde_json::json!([61628, 77797]));
    assert_eq!(b["components"]["uboot_spl"], "2023.04-ga3595f1e3e");
    assert_eq!(b["components"]["sysfw"], "9.0.5--v09.00.05 (Kool Koala)");
    assert_eq!(
        b["sbl_profile"][0],
        serde_json::json!({"run": 0, "name": "System_init", "duration_us": 6411})
    );
    assert_eq!(b["login_prompt"], "am62xx-evm login:");
    let stage = &b["stages"][0];
    assert_eq!(stage["id"], "sbl");
    assert_eq!(stage["clock"], "target");
    assert!(b["warnings"].is_array());
}

#[test]
fn json_stages_on_host_clock_and_stats() {
    let out = bin()
        .args(["parse", "-f", "json"])
        .arg(corpus(
            "H_grabserial_lava/grabserial-rk3288-vyasa-normal-and-falcon.log",
        ))
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["boots"].as_array().unwrap().len(), 2);
    let u = &v["boots"][0]["stages"][1];
    assert_eq!(
        (u["id"].as_str(), u["clock"].as_str()),
        (Some("uboot"), Some("host"))
    );
    assert_eq!(u["start_s"], 0.436696);
    assert_eq!(u["end_s"], 1.974911);
    assert_eq!(v["stats"]["boots"], 2);
}

#[test]
fn table_from_stdin() {
    let mut child = bin()
        .args(["parse", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let log = std::fs::read(corpus(
        "C_am335x/bbb-uboot2013.04-angstrom-3.8.13-wrapped-80col.log",
    ))
    .unwrap();
    child.stdin.take().unwrap().write_all(&log).unwrap();
    let out = child.wait_with_output().unwrap();
    let s = String::from_utf8(out.stdout).unwrap();
    assert!(
        s.contains("complete") && s.contains("uboot") && s.contains("beaglebone login:"),
        "{s}"
    );
}

#[test]
fn missing_file_is_a_clear_error() {
    let out = bin()
        .args(["parse", "/nonexistent/boot.log"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(
        e.contains("/nonexistent/boot.log") && !e.contains("panicked"),
        "{e}"
    );
}

#[test]
fn unknown_board_lists_the_known_ones() {
    let out = bin()
        .args(["parse", "--board", "nope", "x"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("j721e-evm"));
}

#[test]
fn bad_board_file_names_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("b.toml");
    std::fs::write(&f, "name = \"b\"\nstages = [\"nonsense\"]\n").unwrap();
    let out = bin()
        .arg("parse")
        .arg("--board-file")
        .arg(&f)
        .arg(corpus("X_other/andes-ae350-riscv-falcon-opensbi.log"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(e.contains("b.toml") && e.contains("line 2"), "{e}");
}

#[test]
fn run_directory_cycles_are_parsed_in_order_with_stats() {
    let dir = tempfile::tempdir().unwrap();
    let log = std::fs::read(corpus(
        "H_grabserial_lava/grabserial-rk3288-vyasa-normal-and-falcon.log",
    ))
    .unwrap();
    for i in 0..3 {
        std::fs::write(dir.path().join(format!("cycle-{i:04}.log")), &log).unwrap();
    }
    let out = bin()
        .args(["parse", "-f", "json"])
        .arg(dir.path())
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let boots = v["boots"].as_array().unwrap();
    assert_eq!(boots.len(), 6);
    assert!(boots[5]["source"]
        .as_str()
        .unwrap()
        .ends_with("cycle-0002.log"));
    assert_eq!(boots[5]["index"], 5);
    assert_eq!(v["stats"]["complete"], 6);
}

/// A file parsed through the memory map (windows of 1 MiB, lines cut across windows) and read
/// with read(2) (`PERFGUIDE_NO_MMAP=1`, stdin's path) gives the same JSON.
#[test]
fn mapped_and_read_files_parse_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("many.log");
    let mut big = Vec::new();
    for rel in [
        "qemu/qemu-arm64-boot.log",
        "B_sbl/mcupsdk-am62x-sbl-ospi-linux-multistage.log",
        "H_grabserial_lava/grabserial-rk3288-vyasa-normal-and-falcon.log",
    ] {
        big.extend(std::fs::read(corpus(rel)).unwrap());
    }
    let unit = big.clone();
    while big.len() < 3 << 20 {
        big.extend_from_slice(&unit);
    }
    std::fs::write(&f, &big).unwrap();
    let run = |no_mmap: &str| {
        let out = bin()
            .args(["parse", "--format", "json"])
            .arg(&f)
            .env("PERFGUIDE_NO_MMAP", no_mmap)
            .output()
            .unwrap();
        assert!(out.status.success());
        out.stdout
    };
    let mapped = run("0");
    let read = run("1");
    let v: serde_json::Value = serde_json::from_slice(&mapped).unwrap();
    assert!(v["boots"].as_array().unwrap().len() > 100);
    assert!(mapped == read, "mapped and read outputs differ");
}

/// Lines longer than the parser keeps (70 KiB, and 1.5 MiB across the 1 MiB windows a mapped
/// file is read by) each count as one line: the stages after them point at the file's lines,
/// mapped or read.
#[test]
fn stages_after_long_lines_keep_the_file_line_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("long.log");
    let mut log = Vec::new();
    log.extend_from_slice(b"U-Boot 2023.04 (Apr 04 2023 - 12:00:00 +0000)\n");
    log.extend(std::iter::repeat(b'#').take(70 * 1024));
    log.extend_from_slice(b"\nLoading Environment from MMC... OK\n");
    log.extend(std::iter::repeat(b'#').take(3 << 19));
    log.extend_from_slice(b"\nStarting kernel ...\n");
    log.extend_from_slice(b"[    0.000000] Booting Linux on physical CPU 0x0\n");
    log.extend_from_slice(b"[    1.796412] Run /sbin/init as init process\n");
    log.extend_from_slice(b"buildroot login: \n");
    std::fs::write(&f, &log).unwrap();
    for no_mmap in ["0", "1"] {
        let out = bin()
            .args(["parse", "--format", "json"])
            .arg(&f)
            .env("PERFGUIDE_NO_MMAP", no_mmap)
            .output()
            .unwrap();
        assert!(out.status.success());
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let b = &v["boots"][0];
        let lines: Vec<u64> = b["stages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["line"].as_u64().unwrap())
            .collect();
        assert_eq!(lines, [1, 5, 7], "PERFGUIDE_NO_MMAP={no_mmap}");
        assert_eq!(b["lines"], serde_json::json!([1, 8]));
    }
}

/// Input with no boot in it (here a real benchmark log) says so on stderr, in both formats,
/// and exits 1; the output is still written.
#[test]
fn no_boot_found_is_said() {
    let log = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/corpus/I_bench/stream-5.10-oci-epyc9654-nps1-nps4.log"
    );
    for format in ["table", "json"] {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_perfguide"))
            .args(["parse", "--format", format, log])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(1), "{format}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("no boot found in") && err.contains("stream-5.10"),
            "{err}"
        );
    }
    let boot = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/corpus/A_k3/beagleplay-am62-debian11-full-boot-to-login.log"
    );
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_perfguide"))
        .args(["parse", boot])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert!(!String::from_utf8_lossy(&o.stderr).contains("no boot found"));
}

/// A Boot-Time SIG grab-boot-data.sh file is one boot with the machine data it holds.
#[test]
fn boot_data_file_is_one_boot_with_its_system() {
    let f = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../bootlog-parser/tests/data/boot-data-perfguide-qemu-arm64-261205-171502.txt"
    );
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_perfguide"))
        .args(["parse", "--format", "json", f])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let boots = v["boots"].as_array().unwrap();
    assert_eq!(boots.len(), 1);
    assert_eq!(boots[0]["system"]["machine"], "qemu-arm64");
    assert_eq!(boots[0]["system"]["cpus"], 1);
    assert_eq!(boots[0]["system"]["config"]["CONFIG_HZ"], "250");
    assert_eq!(
        boots[0]["kernel"]["cmdline"],
        "console=ttyAMA0,115200 printk.time=1"
    );
    assert_eq!(boots[0]["stages"][0]["line"], 64);
}
