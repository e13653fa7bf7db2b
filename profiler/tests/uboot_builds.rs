//! The Yocto layer's instrumented boot loaders, really built (`perfguide image uboot`): every
//! board profile's `[[uboot]]` from U-Boot's pinned release (Debian's upstream tarball) with
//! the layer's patches and config fragments, into the default cache (a warm run takes seconds).
//! Each build: every fragment line in the final `.config` (the builder fails otherwise), the
//! boot images made and readable by `perfguide image inspect`, each SPL within the limits
//! U-Boot enforces, the instrumentation compiled in, TI's missing firmware named. And one run:
//! U-Boot's sandbox SPL hands over to U-Boot proper, whose report carries the SPL's records,
//! parsed by `perfguide parse`.
//!
//! Needs the host packages of `scripts/setup-host.sh` (cross compilers, binman's Python modules,
//! the deb-src entry of the pinned release's suite).

use perfguide::image::bootloader::{self, UbootOptions, UbootOutcome};
use perfguide::image::uboot::config_value;
use perfguide::profile::Board;
use std::path::{Path, PathBuf};
use std::process::Command;

fn build(board: Board) -> Vec<UbootOutcome> {
    let name = board.name().to_string();
    let mut opts = UbootOptions::new(board);
    opts.quiet = false;
    match bootloader::build_board(&opts) {
        Ok(o) => o,
        Err(e) => panic!("{name}: instrumented U-Boot build failed: {e:#}"),
    }
}

fn builtin(name: &str) -> Vec<UbootOutcome> {
    build(Board::builtin(name).unwrap())
}

fn by_name<'a>(out: &'a [UbootOutcome], name: &str) -> &'a UbootOutcome {
    out.iter()
        .find(|o| o.name == name)
        .unwrap_or_else(|| panic!("no build {name}"))
}

fn config(o: &UbootOutcome) -> String {
    std::fs::read_to_string(o.path(".config")).unwrap()
}

fn contains(hay: &[u8], needle: &str) -> bool {
    hay.windows(needle.len()).any(|w| w == needle.as_bytes())
}

/// `perfguide image inspect --format json` of the files: the JSON.
fn inspect(files: &[PathBuf]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_perfguide"))
        .args(["image", "inspect", "--format", "json"])
        .args(files)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "inspect failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Every component (recursively) of an inspected image: (name, value).
fn components(img: &serde_json::Value) -> Vec<serde_json::Value> {
    fn walk(v: &serde_json::Value, out: &mut Vec<serde_json::Value>) {
        if let Some(cs) = v["components"].as_array() {
            for c in cs {
                out.push(c.clone());
                walk(c, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(img, &mut out);
    out
}

/// The size check of every SPL, printed: the figures the README gives.
fn print_spl(o: &UbootOutcome) {
    if let Some(spl) = &o.spl {
        for l in &spl.limits {
            eprintln!(
                "{} {}: {}: {} of {} bytes ({:.1} %)",
                o.board,
                o.name,
                l.what,
                l.used,
                l.limit,
                100.0 * l.used as f64 / l.limit as f64
            );
            assert!(l.used <= l.limit, "{} {}: {l:?}", o.board, o.name);
        }
    }
}

/// The checks of a TI K3 board: an R5 build (`r5`) and an A-core build (`a53`/`a72`).
fn check_k3(board: &str, acore: &str, r5_load: u64) {
    let out = builtin(board);
    assert_eq!(out.len(), 2);
    let r5 = by_name(&out, "r5");
    let a = by_name(&out, acore);
    for o in [r5, a] {
        print_spl(o);
        let spl = o.spl.as_ref().expect("a K3 build has an SPL");
        assert!(spl.limits.len() >= 2, "{board} {}: {spl:?}", o.name);
        assert_eq!(o.patches.len(), 6, "the layer's whole series");
    }
    // The R5 SPL: bootstage with its own report, the marks of the patches compiled in.
    let c = config(r5);
    for sym in ["BOOTSTAGE", "SPL_BOOTSTAGE", "SPL_BOOTSTAGE_REPORT"] {
        assert_eq!(config_value(&c, sym), Some("y"), "{board} r5: {sym}");
    }
    assert_eq!(config_value(&c, "SPL_BOOTSTAGE_RECORD_COUNT"), Some("40"));
    let spl = std::fs::read(r5.path("spl/u-boot-spl.bin")).unwrap();
    for mark in [
        "sysfw start",
        "sysfw running",
        "board cfg security",
        "ram init",
        "fit header",
        "loaded %s",
        "start atf",
        "Timer summary in microseconds",
    ] {
        assert!(contains(&spl, mark), "{board} r5 SPL lacks {mark:?}");
    }
    // The A-core SPL stashes for U-Boot proper, at the layer's address.
    let c = config(a);
    assert_eq!(config_value(&c, "BOOTSTAGE_STASH"), Some("y"));
    assert_eq!(config_value(&c, "BOOTSTAGE_STASH_ADDR"), Some("0x80700000"));
    assert_eq!(config_value(&c, "BOOTSTAGE_FDT"), Some("y"));
    let aspl = std::fs::read(a.path("spl/u-boot-spl.bin")).unwrap();
    assert!(contains(&aspl, "fit header") && contains(&aspl, "end phase"));
    // TI's firmware is not public: binman faked it and said which.
    let faked_r5: Vec<&str> = r5
        .missing_blobs
        .iter()
        .flat_map(|b| b.faked.iter().map(String::as_str))
        .collect();
    assert!(
        faked_r5
            .iter()
            .any(|f| f.starts_with("ti-fs-") || f.starts_with("ti-sci-firmware-")),
        "{board} r5: SYSFW/TIFS not named among the faked blobs: {faked_r5:?}"
    );
    assert!(
        a.missing_blobs
            .iter()
            .any(|b| b.missing.iter().any(|m| m == "atf-bl31")),
        "{board} {acore}: TF-A not named missing: {:?}",
        a.missing_blobs
    );
    // The images as perfguide image inspect reads them.
    let files: Vec<PathBuf> = r5
        .images
        .iter()
        .map(|i| r5.path(i))
        .chain(a.images.iter().map(|i| a.path(i)))
        .collect();
    let v = inspect(&files);
    let images = v["images"].as_array().unwrap();
    assert_eq!(images.len(), files.len());
    let tiboot3 = &images[0];
    assert_eq!(tiboot3["format"], "ti-x509", "{tiboot3}");
    let comps = components(tiboot3);
    // The combined boot flow (AM6x) packs SPL, SYSFW and board config in tiboot3.bin; the
    // legacy one (J721E) has the SPL alone there, its certificate's only image, and SYSFW
    // with the board config apart in sysfw.itb.
    let legacy = tiboot3["details"]["boot_flow"] == "legacy";
    let sbl_name = if legacy { "image" } else { "sbl" };
    let sbl = comps
        .iter()
        .find(|c| c["name"] == sbl_name)
        .unwrap_or_else(|| panic!("{board}: no {sbl_name} in tiboot3.bin: {tiboot3}"));
    assert_eq!(
        legacy,
        r5.images.iter().any(|i| i == "sysfw.itb"),
        "{board}: {:?}",
        r5.images
    );
    assert_eq!(sbl["load_addr"].as_u64(), Some(r5_load), "{board}: {sbl}");
    assert_eq!(
        sbl["sha512"], "ok",
        "{board}: the certificate's hash of the SPL: {sbl}"
    );
    // The SPL in tiboot3.bin is the instrumented one the build made.
    assert_eq!(
        sbl["size"].as_u64(),
        r5.spl.as_ref().map(|s| s.bin_bytes),
        "{board}: {sbl}"
    );
    if legacy {
        // The board configuration binman built from the board's YAML, as the inspector reads
        // it: the four blocks SYSFW is handed, each in TI's board-config format.
        let sysfw = images
            .iter()
            .find(|i| i["path"].as_str().unwrap().ends_with("sysfw.itb"))
            .unwrap();
        for (name, kind) in [
            ("board-cfg.bin", "board"),
            ("pm-cfg.bin", "pm"),
            ("rm-cfg.bin", "rm"),
            ("sec-cfg.bin", "sec"),
        ] {
            let parts = components(sysfw);
            let c = parts
                .iter()
                .find(|c| c["name"] == name)
                .unwrap_or_else(|| panic!("{board}: sysfw.itb has no {name}: {sysfw}"));
            assert_eq!(c["format"], "ti-boardcfg", "{board} {name}: {c}");
            assert_eq!(c["details"]["kind"], kind, "{board} {name}: {c}");
        }
    }
    let tispl = images
        .iter()
        .find(|i| i["path"].as_str().unwrap().ends_with("tispl.bin"))
        .unwrap();
    let top: Vec<&serde_json::Value> = tispl["components"].as_array().unwrap().iter().collect();
    let part = |name: &str| {
        *top.iter()
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| panic!("{board}: tispl.bin has no {name}: {tispl}"))
    };
    // TF-A and OP-TEE at their load addresses, faked by binman (no payload).
    let atf_load = if board == "am62xx-evm" {
        0x8000_0000
    } else {
        0
    };
    for (name, load) in [("atf", atf_load), ("tee", 0x9e80_0000)] {
        let c = part(name);
        if load != 0 {
            assert_eq!(c["load_addr"].as_u64(), Some(load), "{board} {name}: {c}");
        }
        let payload: u64 = components(c)
            .iter()
            .filter(|x| x["name"] == "image")
            .map(|x| x["size"].as_u64().unwrap())
            .sum();
        assert_eq!(payload, 0, "{board} {name} is faked: {c}");
    }
    let aspl = part("spl");
    assert_eq!(
        aspl["load_addr"].as_u64(),
        Some(0x8008_0000),
        "{board}: {aspl}"
    );
    let uboot = images
        .iter()
        .find(|i| i["path"].as_str().unwrap().ends_with("u-boot.img"))
        .unwrap();
    assert!(
        components(uboot).iter().any(|c| c["name"] == "uboot"),
        "{board}: u-boot.img has no uboot: {uboot}"
    );
}

#[test]
fn am62x_r5_and_a53() {
    check_k3("am62xx-evm", "a53", 0x43c0_0000);
}

#[test]
fn am64x_r5_and_a53() {
    check_k3("am64xx-evm", "a53", 0x7000_0000);
}

#[test]
fn j721e_r5_and_a72() {
    check_k3("j721e-evm", "a72", 0x41c0_0000);
}

#[test]
fn j7200_r5_and_a72() {
    check_k3("j7200-evm", "a72", 0x41c0_0000);
}

#[test]
fn j784s4_r5_and_a72() {
    check_k3("j784s4-evm", "a72", 0x41c0_0000);
}

#[test]
fn am335x_mlo_reports_itself() {
    let out = builtin("am335x-evm");
    let o = by_name(&out, "am335x");
    print_spl(o);
    let spl = o.spl.as_ref().unwrap();
    // MLO runs from on-chip SRAM: the image limit is the one that binds.
    assert!(
        spl.limits.iter().any(|l| l.what.contains("SPL_MAX_SIZE")),
        "{spl:?}"
    );
    let c = config(o);
    assert_eq!(config_value(&c, "SPL_BOOTSTAGE_REPORT"), Some("y"));
    assert_eq!(config_value(&c, "BOOTSTAGE_REPORT"), Some("y"));
    assert_eq!(config_value(&c, "SPL_NET"), None, "room made in the MLO");
    let mlo = std::fs::read(o.path("MLO")).unwrap();
    assert!(contains(&mlo, "Timer summary in microseconds"));
    let v = inspect(&[o.path("MLO"), o.path("u-boot.img")]);
    let mlo = &v["images"][0];
    assert_eq!(mlo["format"], "omap-image", "{mlo}");
    assert_eq!(
        mlo["load_addr"].as_u64(),
        Some(0x402f_0400),
        "MLO's load address: {mlo}"
    );
    // BeagleBone builds the same: shared in the cache, not built twice.
    let bb = builtin("beaglebone");
    assert_eq!(by_name(&bb, "am335x").key, o.key);
    assert!(by_name(&bb, "am335x").cached);
}

#[test]
fn rpi4_and_qemu_uboot_proper() {
    for (board, name) in [("raspberrypi4", "rpi"), ("qemu-arm64", "qemu")] {
        let out = builtin(board);
        let o = by_name(&out, name);
        assert!(o.spl.is_none(), "{board}: no SPL");
        assert!(o.patches.is_empty());
        let c = config(o);
        for sym in [
            "BOOTSTAGE",
            "BOOTSTAGE_REPORT",
            "BOOTSTAGE_FDT",
            "CMD_BOOTSTAGE",
        ] {
            assert_eq!(config_value(&c, sym), Some("y"), "{board}: {sym}");
        }
        let bin = std::fs::read(o.path("u-boot.bin")).unwrap();
        assert!(contains(&bin, "Timer summary in microseconds"), "{board}");
    }
}

/// A board file next to the test's scratch: the text given.
fn board_file(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn a_fragment_line_kconfig_drops_is_an_error_naming_it() {
    // The SPL fragment on a board without an SPL: Kconfig drops SPL_BOOTSTAGE.
    let d = tempfile::tempdir().unwrap();
    let f = board_file(
        d.path(),
        "rpi-spl.toml",
        "name = \"rpi-spl\"\nstages = [\"uboot\"]\n[[uboot]]\nname = \"rpi\"\n\
         defconfig = \"rpi_4_defconfig\"\narch = \"arm64\"\n\
         fragments = [\"perfguide-bootstage.cfg\", \"perfguide-bootstage-spl.cfg\"]\n",
    );
    let out = Command::new(env!("CARGO_BIN_EXE_perfguide"))
        .args(["image", "uboot", "--board-file"])
        .arg(&f)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("perfguide-bootstage-spl.cfg line ")
            && err.contains("`CONFIG_SPL_BOOTSTAGE=y` did not take effect with rpi_4_defconfig"),
        "{err}"
    );
}

#[test]
fn a_board_whose_defconfig_the_release_lacks_says_so() {
    let out = Command::new(env!("CARGO_BIN_EXE_perfguide"))
        .args(["image", "uboot", "--board", "am62dxx-evm", "--build", "r5"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("has no configs/am62dx_evm_r5_defconfig") && err.contains("--source"),
        "{err}"
    );
}

#[test]
fn a_patch_that_does_not_apply_is_named() {
    let d = tempfile::tempdir().unwrap();
    let files = d.path().join("files");
    std::fs::create_dir_all(&files).unwrap();
    let layer =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../meta-perfguide/recipes-bsp/u-boot/files");
    std::fs::copy(
        layer.join("perfguide-bootstage.cfg"),
        files.join("perfguide-bootstage.cfg"),
    )
    .unwrap();
    std::fs::write(
        files.join("0001-broken.patch"),
        "From 0 Mon Sep 17 00:00:00 2001\nSubject: broken\n\n--- a/Makefile\n+++ b/Makefile\n\
         @@ -1,2 +1,2 @@\n-not U-Boot's first line\n+x\n not its second\n",
    )
    .unwrap();
    let f = board_file(
        d.path(),
        "broken.toml",
        "name = \"broken\"\nstages = [\"uboot\"]\n[[uboot]]\nname = \"q\"\n\
         defconfig = \"qemu_arm64_defconfig\"\narch = \"arm64\"\n\
         fragments = [\"perfguide-bootstage.cfg\"]\npatches = [\"*.patch\"]\n",
    );
    let out = Command::new(env!("CARGO_BIN_EXE_perfguide"))
        .args(["image", "uboot", "--board-file"])
        .arg(&f)
        .env("PERFGUIDE_UBOOT_FILES", &files)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("the layer's patch 0001-broken.patch does not apply to u-boot 2025.01"),
        "{err}"
    );
}

#[test]
fn sandbox_spl_hands_its_records_to_uboot_proper() {
    let profile = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sandbox-spl.toml");
    let out = build(Board::from_file(&profile).unwrap());
    let o = by_name(&out, "sandbox");
    let c = config(o);
    assert_eq!(config_value(&c, "BOOTSTAGE_STASH"), Some("y"));
    assert_eq!(config_value(&c, "SPL_BOOTSTAGE"), Some("y"));
    // Run SPL; it loads and starts U-Boot proper, which runs the command and powers off.
    let spl = o.path("spl/u-boot-spl");
    let run = Command::new("timeout")
        .arg("60")
        .arg(&spl)
        .args(["-c", "bootstage report; poweroff"])
        .output()
        .unwrap();
    let console = String::from_utf8_lossy(&run.stdout).into_owned();
    assert!(
        run.status.success(),
        "sandbox run failed: {console}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(console.contains("U-Boot SPL 2025.01"), "{console}");
    let d = tempfile::tempdir().unwrap();
    let log = d.path().join("sandbox.log");
    std::fs::write(&log, &console).unwrap();
    // The report of U-Boot proper holds the SPL's records, read back from the stash.
    let parsed = Command::new(env!("CARGO_BIN_EXE_perfguide"))
        .args(["parse", "--format", "json", "--board-file"])
        .arg(&profile)
        .arg(&log)
        .output()
        .unwrap();
    assert!(
        parsed.status.success(),
        "{}",
        String::from_utf8_lossy(&parsed.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&parsed.stdout).unwrap();
    let boot = &v["boots"][0];
    let names: Vec<&str> = boot["bootstage"]
        .as_array()
        .unwrap_or_else(|| panic!("no bootstage report parsed: {boot}"))
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    for want in ["SPL", "end phase", "board_init_f", "board_init_r"] {
        assert!(
            names.contains(&want),
            "{want} not in U-Boot's report: {names:?}"
        );
    }
    let spl_pos = names.iter().position(|n| *n == "SPL").unwrap();
    let f_pos = names.iter().position(|n| *n == "board_init_f").unwrap();
    assert!(spl_pos < f_pos, "the SPL's records come first: {names:?}");
    // Stages on U-Boot's clock (the log has no host stamps): the SPL from its start to its
    // end, U-Boot from board_init_f.
    let stage = |id: &str| {
        boot["stages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["id"] == id)
            .unwrap_or_else(|| panic!("no {id} stage: {boot}"))
            .clone()
    };
    for id in ["a-spl", "uboot"] {
        let s = stage(id);
        assert_eq!(s["clock"], "target", "{s}");
        let d = s["duration_s"]
            .as_f64()
            .unwrap_or_else(|| panic!("{id}: no duration: {s}"));
        assert!(d > 0.0 && d < 5.0, "{id}: {s}");
    }
}
