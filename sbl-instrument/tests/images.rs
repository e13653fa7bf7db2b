//! `inspect` on fixtures made by real tools: sizes, offsets, addresses and digests.

mod common;

use std::process::Command;

use common::*;
use sbl_instrument::{inspect_bytes, inspect_path, Component, Error, HashStatus};

fn child<'a>(c: &'a Component, name: &str) -> &'a Component {
    c.components
        .iter()
        .find(|x| x.name == name)
        .unwrap_or_else(|| {
            panic!(
                "{} has no component {name}: {:?}",
                c.name,
                c.components.iter().map(|x| &x.name).collect::<Vec<_>>()
            )
        })
}

fn flen(f: &Fixtures, n: &str) -> u64 {
    std::fs::metadata(f.path(n)).unwrap().len()
}

#[test]
fn combined_tiboot3_components_sizes_and_sha512() {
    let f = fixtures();
    let img = inspect_path(&f.path("tiboot3.bin")).unwrap();
    let r = &img.root;
    assert_eq!(r.format, "ti-x509");
    assert_eq!(r.size, flen(f, "tiboot3.bin"));
    let cert_len = flen(f, "tiboot3.bin.der");
    let cert = child(r, "certificate");
    assert_eq!((cert.offset, cert.size), (0, cert_len));
    let expect = [
        ("sbl", "u-boot-spl.bin", 0x43c00000u64),
        ("sysfw", "tifs.bin", 0x40000),
        ("sysfw-data", "combined-tifs-cfg.bin", 0x67000),
        ("dm-data", "combined-dm-cfg.bin", 0x43c3a800),
    ];
    let mut off = cert_len;
    for (name, file, load) in expect {
        let c = child(r, name);
        assert_eq!(c.offset, off, "{name} offset");
        assert_eq!(c.size, flen(f, file), "{name} size");
        assert_eq!(c.load_addr, Some(load), "{name} load address");
        assert_eq!(c.sha512, HashStatus::Ok, "{name} sha512");
        let h = c.hashes.iter().find(|h| h.algo == "sha512").unwrap();
        assert_eq!(h.expected, sha512_hex(&f.read(file)));
        off += c.size;
    }
    assert_eq!(off, r.size, "components cover the payload");
    assert_eq!(r.details["boot_flow"], "combined");
    // The TIFS board config inside the certificate is decoded.
    let cfg = child(r, "sysfw-data");
    assert_eq!(cfg.format, "ti-boardcfg-combined");
    let names: Vec<&str> = cfg.components.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["board", "rm", "sec", "pm"]);
    let board = child(cfg, "board");
    assert_eq!(board.format, "ti-boardcfg");
    assert_eq!(board.size, board_cfg().len() as u64);
    assert_eq!(board.details["trace_dst_enables"], 1);
    assert_eq!(child(cfg, "rm").details["resasg_entries"], 3);
    assert_eq!(child(cfg, "sec").components.len(), 7);
    // The extensions are reported.
    let exts = r.details["ti_extensions"].as_array().unwrap();
    let ebi = exts.iter().find(|e| e["name"] == "ext_boot_info").unwrap();
    assert_eq!(ebi["num_comp"], 4);
    assert_eq!(ebi["components"][1]["comp_type"], 2);
    assert!(exts.iter().any(|e| e["name"] == "swrv" && e["swrv"] == 1));
}

#[test]
fn legacy_tiboot3_boot_seq_and_integrity() {
    let f = fixtures();
    let img = inspect_path(&f.path("tiboot3-legacy.bin")).unwrap();
    let r = &img.root;
    let cert_len = flen(f, "tiboot3-legacy.bin.der");
    let image = child(r, "image");
    assert_eq!(
        (image.offset, image.size),
        (cert_len, flen(f, "u-boot-spl.bin"))
    );
    assert_eq!(image.load_addr, Some(0x41c00000));
    assert_eq!(image.sha512, HashStatus::Ok);
    let exts = r.details["ti_extensions"].as_array().unwrap();
    let bs = exts.iter().find(|e| e["name"] == "boot_seq").unwrap();
    assert_eq!(bs["cert_type"], 1);
    assert_eq!(bs["boot_core"], 16);
    assert_eq!(bs["image_size"], image.size);
    let dbg = exts.iter().find(|e| e["name"] == "debug").unwrap();
    assert_eq!(dbg["debug_type"], 4);
}

#[test]
fn sha512_mismatch_is_reported() {
    let f = fixtures();
    let mut data = f.read("tiboot3.bin");
    let cert_len = flen(f, "tiboot3.bin.der") as usize;
    let spl_len = flen(f, "u-boot-spl.bin") as usize;
    data[cert_len + spl_len + 10] ^= 0xff; // inside the TIFS component
    let r = inspect_bytes("tiboot3.bin", &data).unwrap();
    assert_eq!(child(&r, "sbl").sha512, HashStatus::Ok);
    assert_eq!(child(&r, "sysfw").sha512, HashStatus::Mismatch);
}

#[test]
fn truncated_tiboot3_names_structure_and_offset() {
    let f = fixtures();
    let data = f.read("tiboot3.bin");
    let cert_len = flen(f, "tiboot3.bin.der");
    let spl_len = flen(f, "u-boot-spl.bin");
    let cut = (cert_len + spl_len + 100) as usize;
    let err = inspect_bytes("tiboot3.bin", &data[..cut]).unwrap_err();
    match &err {
        Error::Truncated {
            structure, offset, ..
        } => {
            assert!(
                structure.contains("ext_boot_info component #1 (sysfw)"),
                "{err}"
            );
            assert_eq!(*offset, cert_len + spl_len);
        }
        e => panic!("unexpected {e}"),
    }
    let msg = err.to_string();
    assert!(msg.contains("offset 0x"), "{msg}");
}

fn check_fit(name: &str) {
    let f = fixtures();
    let img = inspect_path(&f.path(name)).unwrap();
    let r = &img.root;
    assert_eq!(r.format, "fit");
    let data = f.read(name);
    for (node, file, load) in [
        ("atf", "bl31.bin", Some(0x70000000u64)),
        ("tee", "tee.bin", Some(0x9e800000)),
        ("dm", "sbl_pdk.xer5f", Some(0x89000000)),
        ("spl", "a53.elf", Some(0x80080000)),
        ("fdt-1", "board.dtb", None),
    ] {
        let c = child(r, node);
        let want = f.read(file);
        assert_eq!(c.size, want.len() as u64, "{name}:{node} size");
        assert_eq!(
            &data[c.offset as usize..(c.offset + c.size) as usize],
            &want[..],
            "{name}:{node} bytes at offset"
        );
        assert_eq!(c.load_addr, load, "{name}:{node} load");
        assert!(
            !c.hashes.is_empty() && c.hashes.iter().all(|h| h.status == "ok"),
            "{name}:{node} {:?}",
            c.hashes
        );
    }
    assert_eq!(child(r, "tee").sha512, HashStatus::Ok);
    assert_eq!(child(r, "atf").sha512, HashStatus::Absent);
    assert_eq!(child(r, "dm").format, "elf");
    assert_eq!(child(r, "spl").format, "elf");
    assert_eq!(child(r, "fdt-1").format, "dtb");
    assert_eq!(child(r, "fdt-1").details["model"], "perfguide test board");
    let confs = &r.details["configurations"];
    assert_eq!(confs["default"], "conf-0");
    assert_eq!(confs["list"][0]["firmware"], "atf");
    assert_eq!(
        confs["list"][0]["loadables"],
        serde_json::json!(["tee", "dm", "spl"])
    );
}

#[test]
fn fit_embedded_data() {
    check_fit("tispl.bin");
}

#[test]
fn fit_external_data() {
    check_fit("tispl-ext.bin");
    let img = inspect_path(&fixtures().path("tispl-ext.bin")).unwrap();
    assert_eq!(child(&img.root, "atf").details["data"], "external");
}

#[test]
fn fit_matches_mkimage_listing() {
    let f = fixtures();
    let out = run(Command::new(tool("mkimage"))
        .arg("-l")
        .arg(f.path("tispl.bin")));
    let img = inspect_path(&f.path("tispl.bin")).unwrap();
    for c in &img.root.components {
        assert!(
            out.contains(&format!("({})", c.name)),
            "mkimage -l lacks image {}:\n{out}",
            c.name
        );
        assert!(
            out.contains(&format!("{} Bytes", c.size)),
            "mkimage -l lacks {} bytes for {}:\n{out}",
            c.size,
            c.name
        );
    }
}

#[test]
fn sysfw_itb_board_configs() {
    let f = fixtures();
    let img = inspect_path(&f.path("sysfw.itb")).unwrap();
    let r = &img.root;
    let sysfw = child(r, "sysfw.bin");
    assert_eq!(sysfw.format, "ti-x509");
    assert_eq!(sysfw.load_addr, Some(0x40000));
    assert_eq!(child(sysfw, "image").sha512, HashStatus::Ok);
    assert_eq!(child(sysfw, "image").size, flen(f, "tifs.bin"));
    for (n, kind, blocks) in [
        ("board-cfg.bin", "board", 4),
        ("pm-cfg.bin", "pm", 0),
        ("rm-cfg.bin", "rm", 2),
        ("sec-cfg.bin", "sec", 7),
    ] {
        let c = child(r, n);
        assert_eq!(c.format, "ti-boardcfg", "{n}");
        assert_eq!(c.details["kind"], kind, "{n}");
        assert_eq!(c.details["abi_minor"], 1);
        assert_eq!(c.components.len(), blocks, "{n}");
        assert_eq!(c.size, flen(f, n));
    }
    assert_eq!(child(r, "rm-cfg.bin").details["resasg_entries"], 5);
}

#[test]
fn boardcfg_unknown_magic_is_reported() {
    let mut b = board_cfg();
    b.extend_from_slice(&0xBEEFu16.to_le_bytes());
    b.extend_from_slice(&6u16.to_le_bytes());
    b.extend_from_slice(&[1, 2]);
    let r = inspect_bytes("board-cfg.bin", &b).unwrap();
    assert_eq!(r.format, "ti-boardcfg");
    assert!(
        r.warnings
            .iter()
            .any(|w| w.contains("unknown sub-header magic 0xbeef at offset 0x1d")),
        "{:?}",
        r.warnings
    );
    assert_eq!(r.details["unknown_magic"][0]["magic"], 0xBEEF);
    assert_eq!(r.components.last().unwrap().name, "unknown-0xbeef");
}

#[test]
fn elf_r5_matches_nm_and_readelf() {
    let f = fixtures();
    let p = f.path("sbl_pdk.xer5f");
    let img = inspect_path(&p).unwrap();
    let r = &img.root;
    assert_eq!(r.details["class"], 32);
    assert_eq!(r.details["machine"], "arm");
    for sym in [
        "sblProfileLog",
        "sblProfileLogIndx",
        "sblProfileLogAddr",
        "main",
    ] {
        let (addr, size) = nm("arm-none-eabi-nm", &p, sym);
        assert_eq!(r.details["symbols"][sym]["addr"], addr, "{sym}");
        assert_eq!(r.details["symbols"][sym]["size"], size, "{sym}");
    }
    assert_eq!(r.details["symbols"]["sblProfileLog"]["size"], 256 * 12);
    assert_eq!(
        r.details["symbols"]["sblProfileLogAddr"]["section"],
        ".sbl_profile_info"
    );
    let readelf = run(Command::new(tool("arm-none-eabi-readelf"))
        .args(["-n"])
        .arg(&p));
    let bid = r.details["build_id"].as_str().unwrap();
    assert!(readelf.contains(bid), "build id {bid} not in\n{readelf}");
    // Segments: compare with readelf -lW (Offset, PhysAddr, FileSiz of each LOAD).
    let ph = run(Command::new(tool("arm-none-eabi-readelf"))
        .args(["-lW"])
        .arg(&p));
    let loads: Vec<(u64, u64, u64)> = ph
        .lines()
        .filter(|l| l.trim_start().starts_with("LOAD"))
        .map(|l| {
            let v: Vec<&str> = l.split_whitespace().collect();
            let h = |s: &str| u64::from_str_radix(s.trim_start_matches("0x"), 16).unwrap();
            (h(v[1]), h(v[3]), h(v[4]))
        })
        .collect();
    let ours: Vec<(u64, u64, u64)> = r
        .components
        .iter()
        .map(|c| (c.offset, c.load_addr.unwrap(), c.size))
        .collect();
    assert_eq!(ours, loads);
}

#[test]
fn elf_aarch64() {
    let f = fixtures();
    let img = inspect_path(&f.path("a53.elf")).unwrap();
    let r = &img.root;
    assert_eq!(r.details["class"], 64);
    assert_eq!(r.details["machine"], "aarch64");
    assert_eq!(r.entry, Some(0x80080000));
    assert_eq!(
        r.details["symbols"]["version_string"]["string"],
        "perfguide-test A53 image 1.0"
    );
    let text = r
        .components
        .iter()
        .flat_map(|s| &s.components)
        .find(|s| s.name == ".text")
        .unwrap();
    assert_eq!(text.load_addr, Some(0x80080000));
}

#[test]
fn uimage_kernel_and_multi() {
    let f = fixtures();
    let img = inspect_path(&f.path("uImage")).unwrap();
    let r = &img.root;
    assert_eq!(r.format, "uimage");
    assert!(r.hashes.iter().all(|h| h.status == "ok"));
    let d = child(r, "data");
    assert_eq!((d.offset, d.size), (64, flen(f, "a53.elf")));
    assert_eq!(d.format, "elf");
    assert_eq!(d.hashes[0].status, "ok");
    assert_eq!(r.load_addr, Some(0x80080000));
    assert_eq!(r.details["name"], "perfguide test");
    let img = inspect_path(&f.path("uImage.multi")).unwrap();
    let d = child(&img.root, "data");
    assert_eq!(d.components.len(), 2);
    assert_eq!(d.components[0].size, flen(f, "bl31.bin"));
    assert_eq!(d.components[1].size, flen(f, "board.dtb"));
    assert_eq!(d.components[1].format, "dtb");
    // A corrupted data byte fails the data CRC.
    let mut data = f.read("uImage");
    data[100] ^= 1;
    let r = inspect_bytes("uImage", &data).unwrap();
    assert_eq!(child(&r, "data").hashes[0].status, "mismatch");
}

#[test]
fn mlo_omapimage_and_gpimage() {
    let f = fixtures();
    let spl = flen(f, "u-boot-spl.bin");
    let img = inspect_path(&f.path("MLO")).unwrap();
    let r = &img.root;
    assert_eq!(r.format, "omap-image");
    assert_eq!(child(r, "toc").details["items"][0], "CHSETTINGS");
    let s = child(r, "spl");
    assert_eq!(
        (s.offset, s.size, s.load_addr),
        (0x208, spl, Some(0x402F0400))
    );
    let img = inspect_path(&f.path("MLO.gp")).unwrap();
    let s = child(&img.root, "spl");
    assert_eq!((s.offset, s.size, s.load_addr), (8, spl, Some(0x402F0400)));
}

#[test]
fn distribution_uboot_elf() {
    let p = std::path::Path::new("/usr/lib/u-boot/qemu_arm64/uboot.elf");
    assert!(
        p.exists(),
        "{} missing (Debian package u-boot-qemu): run sbl-instrument/tests/setup-fixtures-deps.sh",
        p.display()
    );
    let img = inspect_path(p).unwrap();
    let r = &img.root;
    assert_eq!(r.details["machine"], "aarch64");
    let v = r.details["uboot_version"].as_str().unwrap();
    assert!(v.starts_with("U-Boot 20"), "{v}");
    let covered: u64 = r.components.iter().map(|c| c.size).sum();
    assert!(covered > 500_000 && covered <= r.size);
}

#[test]
fn distribution_arm64_kernel_image() {
    let cache = std::env::var("SBL_FIXTURE_CACHE")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| {
            std::path::PathBuf::from(std::env::var("HOME").unwrap_or_default())
                .join(".cache/perfguide-fixtures")
        });
    let p = cache.join("arm64/Image");
    assert!(p.exists(), "{} missing: run sbl-instrument/tests/setup-fixtures-deps.sh (unpacks Debian's arm64 kernel)", p.display());
    let img = inspect_path(&p).unwrap();
    let r = &img.root;
    assert_eq!(r.format, "arm64-image");
    assert_eq!(r.details["endian"], "little");
    assert_eq!(r.details["efi_stub"], true);
    let size = r.details["image_size"].as_u64().unwrap();
    assert!(size >= r.size, "image_size {size} < file {}", r.size);
}

#[test]
fn every_prefix_of_every_fixture_is_an_error_or_a_result_never_a_panic() {
    let f = fixtures();
    for n in [
        "tiboot3.bin",
        "tiboot3-legacy.bin",
        "tispl.bin",
        "tispl-ext.bin",
        "sysfw.itb",
        "uImage.multi",
        "MLO",
        "sbl_pdk.xer5f",
        "combined-tifs-cfg.bin",
    ] {
        let data = f.read(n);
        let step = (data.len() / 300).max(1);
        for cut in (0..data.len()).step_by(step) {
            let _ = inspect_bytes(n, &data[..cut]);
        }
        // And with bytes flipped at many positions.
        for pos in (0..data.len()).step_by(step.max(7)) {
            let mut d = data.clone();
            d[pos] ^= 0xa5;
            let _ = inspect_bytes(n, &d);
        }
    }
}
