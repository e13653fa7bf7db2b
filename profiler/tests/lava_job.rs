//! `perfguide lava job` for every built-in board with a `[lava]` table, with and without
//! benchmarks, checked by LAVA's own validator (Debian's lava-common: `lava_common.schemas`,
//! strict mode) through `support/lava_validate.py`; a job the validator rejects is reported as
//! rejected; a board without `[lava]` is a clear error.

use perfguide::profile::Board;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The Python that has Debian's lava-common.
const PYTHON: &str = "/usr/bin/python3";

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_perfguide"))
}

fn validator() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/lava_validate.py")
}

/// Runs the validator on `files`; fails the test (with what to install) when lava_common is
/// not importable.
fn validate(files: &[PathBuf]) -> Output {
    let out = Command::new(PYTHON)
        .arg(validator())
        .args(files)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {PYTHON} ({e}): apt-get install python3"));
    assert_ne!(
        out.status.code(),
        Some(2),
        "LAVA's validator is missing: {} (apt-get install lava-common, or bash scripts/setup-host.sh)",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn lava_boards() -> Vec<String> {
    bootlog_parser::board::BUILTIN
        .iter()
        .map(|(n, _)| n.to_string())
        .filter(|n| Board::builtin(n).unwrap().lab.lava.is_some())
        .collect()
}

fn job(args: &[&str], out: &Path) -> serde_yaml::Value {
    let o = bin()
        .args(["lava", "job"])
        .args(args)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_yaml::from_str(&std::fs::read_to_string(out).unwrap()).unwrap()
}

fn count(v: &serde_yaml::Value, action: &str) -> usize {
    v["actions"]
        .as_sequence()
        .unwrap()
        .iter()
        .filter(|a| a.get(action).is_some())
        .count()
}

#[test]
fn every_lava_board_job_validates() {
    let boards = lava_boards();
    assert!(boards.contains(&"qemu-arm64".to_string()), "{boards:?}");
    let d = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for b in &boards {
        let plain = d.path().join(format!("{b}.yaml"));
        let v = job(&["--board", b, "--cycles", "3"], &plain);
        let lava = Board::builtin(b).unwrap().lab.lava.unwrap();
        assert_eq!(v["device_type"].as_str(), Some(lava.device_type.as_str()));
        assert_eq!(count(&v, "boot"), 3, "{b}");
        assert_eq!(count(&v, "test"), 0, "{b}");
        let bench = d.path().join(format!("{b}-bench.yaml"));
        let v = job(
            &[
                "--board", b, "--cycles", "2", "--bench", "openssl", "--runs", "3",
            ],
            &bench,
        );
        assert_eq!(count(&v, "boot"), 2, "{b}");
        assert_eq!(count(&v, "test"), 1, "{b}");
        let steps = v["actions"]
            .as_sequence()
            .unwrap()
            .iter()
            .find_map(|a| a.get("test"))
            .unwrap()["definitions"][0]["repository"]["run"]["steps"]
            .clone();
        // The last step runs the suite (after the board's [bench] setup lines, with its env).
        let last = steps
            .as_sequence()
            .unwrap()
            .last()
            .unwrap()
            .as_str()
            .unwrap();
        assert!(
            last.ends_with("perfguide-bench run --repeat 3 openssl"),
            "{b}: {last}"
        );
        files.push(plain);
        files.push(bench);
    }
    let out = validate(&files);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    for f in &files {
        assert!(
            text.contains(&format!("valid {}", f.display())),
            "{} not validated: {text}",
            f.display()
        );
    }
}

#[test]
fn a_job_the_validator_rejects_is_reported() {
    let d = tempfile::tempdir().unwrap();
    let good = d.path().join("good.yaml");
    let mut v = job(&["--board", "qemu-arm64", "--cycles", "1"], &good);
    // An unknown key in a boot action: strict mode refuses it, as lava-server does.
    v["actions"][1]["boot"]["reboots"] = serde_yaml::Value::from(5);
    let unknown = d.path().join("unknown-key.yaml");
    std::fs::write(&unknown, serde_yaml::to_string(&v).unwrap()).unwrap();
    // A priority LAVA does not know.
    let mut w = job(&["--board", "qemu-arm64", "--cycles", "1"], &good);
    w["priority"] = serde_yaml::Value::from("urgent");
    let priority = d.path().join("priority.yaml");
    std::fs::write(&priority, serde_yaml::to_string(&w).unwrap()).unwrap();
    for bad in [&unknown, &priority] {
        let out = validate(&[good.clone(), bad.clone()]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{text}");
        assert!(
            text.contains(&format!("valid {}", good.display())),
            "{text}"
        );
        assert!(
            text.contains(&format!("rejected {}", bad.display())),
            "{text}"
        );
    }
}

#[test]
fn board_without_lava_table_is_an_error() {
    let o = bin()
        .args(["lava", "job", "--board", "j721e-evm", "--cycles", "2"])
        .output()
        .unwrap();
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains("j721e-evm") && e.contains("has no [lava] table"),
        "{e}"
    );
    assert!(o.stdout.is_empty());
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("my-board.toml");
    std::fs::write(
        &f,
        "name = \"my-board\"\nstages = [\"uboot\", \"kernel\"]\n",
    )
    .unwrap();
    let o = bin()
        .args(["lava", "job", "--cycles", "1", "--board-file"])
        .arg(&f)
        .output()
        .unwrap();
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains(&f.display().to_string()) && e.contains("has no [lava] table"),
        "{e}"
    );
    let o = bin()
        .args([
            "lava",
            "job",
            "--board",
            "qemu-arm64",
            "--cycles",
            "1",
            "--bench",
            "a;b",
        ])
        .output()
        .unwrap();
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.contains("\"a;b\""), "{e}");
}
