//! Writes the seed corpora of the fuzz targets (`fuzz/seeds/<target>/`) from the fixtures the
//! tests build: small real images in the input layout of each target. Ignored by default; run
//! it again when a fixture or a target's input layout changes:
//!
//! ```text
//! cargo test -p sbl-instrument --test fuzz_seeds -- --ignored
//! ```

mod common;

use std::path::{Path, PathBuf};

use common::*;

/// `containers`: the first byte picks the format (the order of its `FORMATS`).
const CONTAINERS: &[(u8, &str)] = &[
    (0, "combined-tifs-cfg.bin"),
    (0, "combined-dm-cfg.bin"),
    (1, "board-cfg.bin"),
    (1, "rm-cfg.bin"),
    (1, "sec-cfg.bin"),
    (1, "pm-cfg.bin"),
    (4, "uImage"),
    (4, "uImage.multi"),
    (7, "MLO"),
    (8, "MLO.gp"),
    (9, "sbl_pdk.xer5f"),
];
const X509: &[&str] = &["tiboot3.bin", "tiboot3-legacy.bin", "sysfw.bin"];
const FIT: &[&str] = &["tispl.bin", "tispl-ext.bin", "sysfw.itb", "board.dtb"];
/// Fixtures too large to be useful seeds (the fuzzers cut inputs to a few KB).
const MAX_SEED: usize = 256 << 10;

fn seeds_dir(target: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/seeds")
        .join(target);
    if d.exists() {
        std::fs::remove_dir_all(&d).unwrap();
    }
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn put(dir: &Path, name: &str, data: &[u8]) {
    assert!(data.len() <= MAX_SEED, "seed {name}: {} bytes", data.len());
    std::fs::write(dir.join(name), data).unwrap();
}

/// A minimal ARM64 `Image`: the 64-byte header, then code-sized filler.
fn arm64_image() -> Vec<u8> {
    let mut b = prng_bytes(64, 4096);
    b[..64].fill(0);
    b[8..16].copy_from_slice(&0x8_0000u64.to_le_bytes());
    b[16..24].copy_from_slice(&4096u64.to_le_bytes());
    b[24..32].copy_from_slice(&0xAu64.to_le_bytes());
    b[56..60].copy_from_slice(b"ARM\x64");
    b
}

/// `elf_profile_patch`: u32 LE length of the ELF, the ELF, then the RAM dump.
fn elf_and_dump(elf: &[u8], dump: &[u8]) -> Vec<u8> {
    let mut b = (elf.len() as u32).to_le_bytes().to_vec();
    b.extend_from_slice(elf);
    b.extend_from_slice(dump);
    b
}

#[test]
#[ignore = "writes fuzz/seeds; run with --ignored"]
fn write_fuzz_seeds() {
    let f = fixtures();
    let rprc_img = rprc(
        0x41c00100,
        &[(0x41c00000, vec![1; 100]), (0x41c10000, vec![2; 60])],
    );
    let app = appimage(&[
        (6, rprc_img.clone()),
        (0, rprc(0x8000_0000, &[(0x8000_0000, vec![3; 256])])),
    ]);
    let built: Vec<(&str, Vec<u8>)> = vec![
        ("app.appimage", app.clone()),
        ("core.rprc", rprc_img.clone()),
        ("zImage", zimage(0x400)),
        ("Image", arm64_image()),
    ];

    let inspect = seeds_dir("inspect");
    let mut names: Vec<String> = std::fs::read_dir(&f.dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for n in &names {
        let data = f.read(n);
        let is_input = !n.ends_with(".its") && !n.ends_with(".cnf") && !n.ends_with(".pem");
        if is_input && !data.is_empty() && data.len() <= MAX_SEED {
            put(&inspect, n, &data);
        }
    }
    for (n, data) in &built {
        put(&inspect, n, data);
    }

    let x509 = seeds_dir("x509");
    for n in X509 {
        put(&x509, n, &f.read(n));
    }
    let fit = seeds_dir("fit");
    for n in FIT {
        put(&fit, n, &f.read(n));
    }

    let containers = seeds_dir("containers");
    let with_sel = |sel: u8, name: &str, data: &[u8]| {
        let mut b = vec![sel];
        b.extend_from_slice(data);
        put(&containers, &format!("{sel}-{name}"), &b);
    };
    for (sel, n) in CONTAINERS {
        with_sel(*sel, n, &f.read(n));
    }
    with_sel(2, "app.appimage", &app);
    with_sel(3, "core.rprc", &rprc_img);
    with_sel(5, "Image", &arm64_image());
    with_sel(6, "zImage", &zimage(0x400));

    let epp = seeds_dir("elf_profile_patch");
    let pdk = f.read("sbl_pdk.xer5f");
    put(
        &epp,
        "pdk-3-points",
        &elf_and_dump(&pdk, &pdk_dump(&pdk, 3).dump),
    );
    put(
        &epp,
        "pdk-wrapped",
        &elf_and_dump(&pdk, &pdk_dump(&pdk, 300).dump),
    );
    let mcu = f.read("sbl_mcu.xer5f");
    put(
        &epp,
        "mcu-empty-dump",
        &elf_and_dump(&mcu, &vec![0; DUMP_LEN]),
    );
}
