//! `profile-map`, `extract` (RAM dumps written from the PDK / MCU+ layouts) and `patch`
//! (checked with a byte diff by `cmp -l`).

mod common;

use std::process::Command;

use common::*;
use sbl_instrument::patch::{patch_file, plan, Assignment};
use sbl_instrument::profile::{extract, profile_map, Flavor, PDK_SYMBOLS};
use sbl_instrument::Error;

#[test]
fn profile_map_pdk() {
    let f = fixtures();
    let elf = f.read("sbl_pdk.xer5f");
    let (m, _) = profile_map(&elf).unwrap();
    assert_eq!(m.flavor, Flavor::Pdk);
    assert_eq!((m.entry_size, m.capacity), (12, 256));
    let p = f.path("sbl_pdk.xer5f");
    // The log, its counters and the exported pointers to them (the print and log functions
    // are code, checked elsewhere).
    for &s in PDK_SYMBOLS
        .iter()
        .filter(|s| s.starts_with("sblProfileLog"))
    {
        let (addr, size) = nm("arm-none-eabi-nm", &p, s);
        let got = m.symbols[s].as_ref().unwrap();
        assert_eq!((got.addr, got.size), (addr, size), "{s}");
    }
    let sec = m.profile_info_section.as_ref().unwrap();
    assert_eq!(sec.size, 12);
    let info_ptr = m.symbols["sblProfileLogAddr"].as_ref().unwrap();
    assert_eq!(info_ptr.section.as_deref(), Some(".sbl_profile_info"));
    assert!(info_ptr.addr >= sec.addr && info_ptr.addr < sec.addr + sec.size);
}

#[test]
fn extract_pdk_recovers_points_exactly() {
    let f = fixtures();
    let elf = f.read("sbl_pdk.xer5f");
    let d = pdk_dump(&elf, 5);
    let x = extract(&elf, &d.dump, R5_BASE, Some(1000.0)).unwrap();
    assert!(!x.overflow);
    assert!(x.warnings.is_empty(), "{:?}", x.warnings);
    assert_eq!(x.entries.len(), 5);
    for (e, (name, line, cycle)) in x.entries.iter().zip(&d.points) {
        assert_eq!(&e.fxn, name);
        assert_eq!(e.line, Some(*line));
        assert_eq!(e.cycle, u64::from(*cycle));
        assert_eq!(e.timestamp_us, Some(u64::from(*cycle) / 1000));
    }
    assert_eq!(x.sbl_profile[1].name, "System_init");
    assert_eq!(x.sbl_profile[1].src_line, Some(41));
    // Without a clock the timestamps are absent, not zero.
    let x = extract(&elf, &d.dump, R5_BASE, None).unwrap();
    assert!(x.entries.iter().all(|e| e.timestamp_us.is_none()));
}

#[test]
fn extract_pdk_overflow_is_chronological() {
    let f = fixtures();
    let elf = f.read("sbl_pdk.xer5f");
    let d = pdk_dump(&elf, 260);
    let x = extract(&elf, &d.dump, R5_BASE, Some(800.0)).unwrap();
    assert!(x.overflow);
    assert_eq!(x.entries.len(), 256);
    // The oldest 4 points were overwritten; the rest come oldest first.
    let expect = &d.points[4..];
    for (e, (name, line, cycle)) in x.entries.iter().zip(expect) {
        assert_eq!(
            (&e.fxn, e.line, e.cycle),
            (name, Some(*line), u64::from(*cycle))
        );
    }
}

#[test]
fn extract_flags_bad_export_pointer_and_outside_dump() {
    let f = fixtures();
    let elf = f.read("sbl_pdk.xer5f");
    let p = f.path("sbl_pdk.xer5f");
    let mut d = pdk_dump(&elf, 3);
    let (plog, _) = nm("arm-none-eabi-nm", &p, "sblProfileLogAddr");
    put32(&mut d.dump, plog, 0xdead_beef);
    let x = extract(&elf, &d.dump, R5_BASE, None).unwrap();
    assert!(
        x.warnings
            .iter()
            .any(|w| w.contains("sblProfileLogAddr holds 0xdeadbeef")),
        "{:?}",
        x.warnings
    );
    // A dump that starts after the log is an error naming the log and its address.
    let err = extract(&elf, &d.dump, R5_BASE + 0x1000, None).unwrap_err();
    assert!(err.to_string().contains("sblProfileLog"), "{err}");
    // A dump too short for the log: truncated, with the offset.
    let err = extract(&elf, &d.dump[..0x300], R5_BASE, None).unwrap_err();
    assert!(matches!(err, Error::Truncated { .. }), "{err}");
}

#[test]
fn extract_mcu_plus() {
    let f = fixtures();
    let elf = f.read("sbl_mcu.xer5f");
    let p = f.path("sbl_mcu.xer5f");
    let (m, _) = profile_map(&elf).unwrap();
    assert_eq!(m.flavor, Flavor::McuPlus);
    assert_eq!((m.entry_size, m.capacity, m.entries_offset), (8, 32, 4));
    let (obj, size) = nm("arm-none-eabi-nm", &p, "gProfileObj");
    assert_eq!(m.symbols["gProfileObj"].as_ref().unwrap().size, size);
    let names = [
        "SBL Start",
        "System_init",
        "Drivers_open",
        "Board_driversOpen",
        "Sciclient Get Version",
        "App_loadImages",
    ];
    let cycles = [
        100u32, 39_447_100, 39_665_100, 39_753_100, 49_662_100, 52_880_100,
    ];
    let mut dump = vec![0u8; DUMP_LEN];
    put32(&mut dump, obj, names.len() as u32);
    for (i, (n, c)) in names.iter().zip(cycles).enumerate() {
        put32(&mut dump, obj + 4 + 8 * i as u64, str_addr(&elf, n));
        put32(&mut dump, obj + 8 + 8 * i as u64, c);
    }
    put32(&mut dump, obj + 4 + 8 * 32, 158 * 1024); // appimageSize
    let x = extract(&elf, &dump, R5_BASE, Some(1000.0)).unwrap();
    let got: Vec<&str> = x.entries.iter().map(|e| e.fxn.as_str()).collect();
    assert_eq!(got, names);
    assert!(x.entries.iter().all(|e| e.line.is_none()));
    assert_eq!(x.sbl_profile[0].name, "System_init");
    assert_eq!(x.sbl_profile[0].duration_us, Some(39_447));
    assert_eq!(x.sbl_total_us, Some(52_880));
    assert_eq!(x.extra["appimage_size"], 158 * 1024);
}

fn cmp_l(a: &std::path::Path, b: &std::path::Path) -> Vec<(u64, u8, u8)> {
    // `cmp -l` prints "offset(1-based, decimal) old(octal) new(octal)" per differing byte and
    // exits 1 when the files differ.
    let out = Command::new(tool("cmp"))
        .arg("-l")
        .arg(a)
        .arg(b)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let v: Vec<&str> = l.split_whitespace().collect();
            (
                v[0].parse::<u64>().unwrap() - 1,
                u8::from_str_radix(v[1], 8).unwrap(),
                u8::from_str_radix(v[2], 8).unwrap(),
            )
        })
        .collect()
}

#[test]
fn patch_changes_exactly_the_intended_bytes() {
    let f = fixtures();
    let src = f.path("sbl_pdk.xer5f");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("patched.xer5f");
    let sets: Vec<Assignment> = [
        "sbl_log_level=3",
        "sbl_enable_profile_print=1",
        "sbl_boot_delay_ms=-2",
        "sbl_banner=str:PATCHED",
    ]
    .iter()
    .map(|s| s.parse().unwrap())
    .collect();
    let changes = patch_file(&src, Some(&out), &sets, false).unwrap();
    let data = f.read("sbl_pdk.xer5f");
    // Expected offsets: symbol address -> file offset through the .data section header.
    let (data_off, data_addr) = {
        use object::{Object, ObjectSection};
        let o = object::File::parse(&*data).unwrap();
        let s = o.section_by_name(".data").unwrap();
        (s.file_range().unwrap().0, s.address())
    };
    let off = |sym: &str| nm("arm-none-eabi-nm", &src, sym).0 - data_addr + data_off;
    let mut expect: Vec<(u64, u8, u8)> = Vec::new();
    let mut want = |sym: &str, new: &[u8]| {
        let o = off(sym);
        for (i, b) in new.iter().enumerate() {
            let old = data[o as usize + i];
            if old != *b {
                expect.push((o + i as u64, old, *b));
            }
        }
    };
    want("sbl_log_level", &3u32.to_le_bytes());
    want("sbl_enable_profile_print", &[1]);
    want("sbl_boot_delay_ms", &(-2i16).to_le_bytes());
    let mut banner = b"PATCHED".to_vec();
    banner.resize(16, 0);
    want("sbl_banner", &banner);
    expect.sort();
    let diff = cmp_l(&src, &out);
    assert_eq!(diff, expect);
    assert_eq!(
        changes.iter().map(|c| c.bytes_changed).sum::<usize>(),
        diff.len()
    );
    // The patched file is still a valid ELF that inspects the same way.
    let a = sbl_instrument::inspect_path(&src).unwrap();
    let b = sbl_instrument::inspect_path(&out).unwrap();
    assert_eq!(a.root.components, b.root.components);
}

#[test]
fn patch_dry_run_and_in_place() {
    let f = fixtures();
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("sbl.xer5f");
    std::fs::copy(f.path("sbl_pdk.xer5f"), &p).unwrap();
    let before = std::fs::read(&p).unwrap();
    let sets = vec!["sbl_log_level=0x1".parse::<Assignment>().unwrap()];
    let c = patch_file(&p, None, &sets, true).unwrap();
    assert_eq!(c[0].old, "02000000");
    assert_eq!(c[0].new, "01000000");
    assert_eq!(std::fs::read(&p).unwrap(), before, "dry run wrote nothing");
    patch_file(&p, None, &sets, false).unwrap();
    let after = std::fs::read(&p).unwrap();
    assert_eq!(after.len(), before.len());
    assert_eq!(before.iter().zip(&after).filter(|(a, b)| a != b).count(), 1);
    let leftovers: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(leftovers.len(), 1, "no temporary file left behind");
}

#[test]
fn patch_refuses_what_it_cannot_do() {
    let elf = fixtures().read("sbl_pdk.xer5f");
    let one = |s: &str| plan(&elf, &[s.parse().unwrap()]).unwrap_err().to_string();
    assert!(one("no_such_symbol=1").contains("not found"));
    let e = one("sbl_scratch_bss=1");
    assert!(
        e.contains("SHT_NOBITS") || e.contains("no bytes in the file"),
        "{e}"
    );
    assert!(one("sbl_enable_profile_print=256").contains("does not fit 1 bytes"));
    assert!(one("sbl_boot_delay_ms=-32769").contains("does not fit 2 bytes"));
    assert!(one("sbl_banner=str:0123456789abcdef").contains("does not fit"));
    assert!(one("sbl_banner=5").contains("integer fits a 1, 2, 4 or 8-byte symbol"));
    assert!("sbl_log_level".parse::<Assignment>().is_err());
    assert!("x=hex:123".parse::<Assignment>().is_err());
    // -1 fits a 4-byte symbol (two's complement), 2^32-1 too; 2^32 does not.
    assert!(plan(&elf, &["sbl_log_level=-1".parse().unwrap()]).is_ok());
    assert!(plan(&elf, &["sbl_log_level=4294967295".parse().unwrap()]).is_ok());
    assert!(one("sbl_log_level=4294967296").contains("does not fit 4 bytes"));
}
