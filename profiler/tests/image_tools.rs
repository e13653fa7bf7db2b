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
