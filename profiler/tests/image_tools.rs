//! `perfguide image inspect|estimate` reach the sbl-instrument library with the same contract
//! as the `sbl-instrument` binary.

use std::process::Command;

#[test]
fn inspect_json_of_an_elf() {
    let exe = env!("CARGO_BIN_EXE_perfguide");
    let out = Command::new(exe)
        .args(["image", "inspect", "--format", "json", exe])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["schema"], "perfguide/image/v1");
    let img = &v["images"][0];
    assert_eq!(
        img["size"].as_u64().unwrap(),
        std::fs::metadata(exe).unwrap().len()
    );
    assert!(img["format"].as_str().unwrap().contains("elf"), "{img}");
}

#[test]
fn estimate_with_a_measured_rate() {
    let exe = env!("CARGO_BIN_EXE_perfguide");
    let size = std::fs::metadata(exe).unwrap().len() as f64;
    let out = Command::new(exe)
        .args(["image", "estimate", "--rate-mbytes", "100", exe])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let want = format!("{:.3}", size / 100e6 * 1e3);
    assert!(text.contains(&want), "want {want} ms in:\n{text}");
}

#[test]
fn inspect_missing_file_is_an_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_perfguide"))
        .args(["image", "inspect", "/nonexistent.bin"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent.bin"));
}

/// `perfguide image inspect` has sbl-instrument's exit codes and says each error once; a TOML
/// error of a board file is said once too.
#[test]
fn errors_are_said_once_with_the_shared_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let pg = || std::process::Command::new(env!("CARGO_BIN_EXE_perfguide"));
    let out = pg()
        .args(["image", "inspect"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(e.contains("is a directory"), "{e}");
    let out = pg()
        .args(["image", "inspect"])
        .arg(dir.path().join("nope.bin"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let e = String::from_utf8_lossy(&out.stderr);
    assert_eq!(e.matches("No such file or directory").count(), 1, "{e}");
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "not an image\n").unwrap();
    let out = pg()
        .args(["image", "inspect", "--strict"])
        .arg(&text)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no known image format"));

    let board = dir.path().join("bad.toml");
    std::fs::write(&board, "name = \"x\"\n[console\n").unwrap();
    let out = pg()
        .args(["parse", "--board-file"])
        .arg(&board)
        .arg(&text)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let e = String::from_utf8_lossy(&out.stderr);
    assert_eq!(e.matches("TOML parse error").count(), 1, "{e}");
    assert!(e.contains("bad.toml") && e.contains("line 2"), "{e}");
}

#[test]
fn argv_without_a_built_image_names_the_build_command() {
    let cache = std::env::temp_dir().join(format!("perfguide-argv-{}", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_perfguide"))
        .args(["image", "argv", "--board", "qemu-arm64", "--cache"])
        .arg(&cache)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(
        e.contains("perfguide image build --board qemu-arm64"),
        "{e}"
    );
    assert!(out.stdout.is_empty());
}
