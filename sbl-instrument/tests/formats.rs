//! Formats with no host tool in the distribution (PDK appimage/RPRC, zImage), written by the
//! test from their documented layouts; the media table and `estimate`.

mod common;

use common::{appimage, rprc, zimage};
use sbl_instrument::media::{builtin_media, estimate};
use sbl_instrument::{inspect_bytes, Error, Image};

#[test]
fn appimage_with_rprc_images() {
    let r0 = rprc(
        0x41c00100,
        &[(0x41c00000, vec![1; 100]), (0x41c10000, vec![2; 60])],
    );
    let r1 = rprc(0x80000000, &[(0x80000000, vec![3; 256])]);
    let app = appimage(&[(6, r0.clone()), (0, r1.clone())]);
    let c = inspect_bytes("app.appimage", &app).unwrap();
    assert_eq!(c.format, "ti-appimage");
    assert_eq!(c.details["num_files"], 2);
    let core6 = &c.components[1];
    assert_eq!(core6.name, "core-6");
    assert_eq!(core6.format, "rprc");
    assert_eq!(core6.size, r0.len() as u64);
    assert_eq!(core6.entry, Some(0x41c00100));
    assert_eq!(core6.components.len(), 2);
    let s1 = &core6.components[1];
    assert_eq!((s1.load_addr, s1.size), (Some(0x41c10000), 60));
    assert_eq!(s1.offset, 40 + 20 + 20 + 100 + 20);
    assert_eq!(
        &app[s1.offset as usize..(s1.offset + 60) as usize],
        &[2u8; 60][..]
    );
    let core0 = &c.components[2];
    assert_eq!(core0.components[0].size, 256);
    // Truncated: the second RPRC section data is cut.
    let cut = &r0[..r0.len() - 5];
    let err = inspect_bytes("core6.rprc", cut).unwrap_err();
    assert!(
        matches!(&err, Error::Truncated { structure, offset, needed: 60, available: 55 } if structure == "RPRC section #1 data" && *offset == 160),
        "{err}"
    );
    // An appimage cut inside its first image: an error naming that image and its offset.
    let err = inspect_bytes("app.appimage", &app[..(s1.offset + 10) as usize]).unwrap_err();
    assert!(
        err.to_string()
            .contains("appimage image #0 at offset 0x28: truncated"),
        "{err}"
    );
    // A bad footer is an error naming the footer and its offset.
    let mut bad = app.clone();
    bad[16 + 16 + 4] = b'X';
    let err = inspect_bytes("app.appimage", &bad).unwrap_err();
    assert!(
        matches!(&err, Error::Malformed { structure, offset, .. } if structure == "appimage meta footer" && *offset == 36),
        "{err}"
    );
}

#[test]
fn zimage_header() {
    let z = zimage(0x1000);
    let c = inspect_bytes("zImage", &z).unwrap();
    assert_eq!(c.format, "zimage");
    assert_eq!(c.details["declared_size"], 0x1000);
    assert_eq!(c.details["endian"], "little");
    let err = inspect_bytes("zImage", &z[..0x800]).unwrap_err();
    assert!(err.to_string().contains("zImage"), "{err}");
}

#[test]
fn media_table_has_the_published_modes() {
    let m = builtin_media();
    for id in [
        "ospi-166-dac",
        "ospi-166-dac-dma",
        "ospi-166-indac",
        "ospi-133-dac",
        "ospi-133-dac-dma",
        "ospi-133-indac",
        "emmc-ds",
        "emmc-hs-sdr",
        "emmc-hs-ddr",
        "emmc-hs200",
        "emmc-hs400",
        "sd-ds",
        "sd-hs",
        "sd-sdr12",
        "sd-sdr25",
        "sd-sdr50",
        "sd-ddr50",
    ] {
        let x = m
            .iter()
            .find(|x| x.id == id)
            .unwrap_or_else(|| panic!("medium {id} missing"));
        assert!(x.rate_mbytes_s > 0.0 && !x.source.is_empty(), "{id}");
    }
}

#[test]
fn estimate_rows_add_up() {
    let r0 = rprc(0x41c00100, &[(0x41c00000, vec![1; 1_000_000])]);
    let app = appimage(&[(6, r0)]);
    let root = inspect_bytes("app.appimage", &app).unwrap();
    let img = Image {
        path: "app.appimage".into(),
        root,
    };
    let e = estimate(std::slice::from_ref(&img), "x", 100.0, "test");
    assert_eq!(e.total_bytes, app.len() as u64);
    let sum: u64 = e.rows.iter().map(|r| r.size).sum();
    assert_eq!(sum, e.total_bytes);
    let share: f64 = e.rows.iter().map(|r| r.share).sum();
    assert!((share - 1.0).abs() < 1e-9);
    // 1 MB at 100 MB/s = 10 ms.
    assert!((e.total_ms - app.len() as f64 / 100e6 * 1e3).abs() < 1e-9);
    let big = e.rows.iter().find(|r| r.component == "core-6").unwrap();
    assert!((big.ms - 10.0).abs() < 0.01, "{}", big.ms);
}
