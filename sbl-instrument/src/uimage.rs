//! Legacy U-Boot images (`mkimage -T kernel|firmware|multi|script ...`): the 64-byte
//! big-endian header, both CRC32s checked, multi-file images split.

use crate::bytes::View;
use crate::error::Result;
use crate::hashes;
use crate::model::{Component, Hint};
use crate::nested::Nested;

/// Legacy image magic.
pub const IH_MAGIC: u32 = 0x2705_1956;
const HDR: u64 = 64;

fn os_name(v: u8) -> String {
    match v {
        5 => "linux".into(),
        17 => "u-boot".into(),
        26 => "arm-trusted-firmware".into(),
        n => format!("os-{n}"),
    }
}
fn arch_name(v: u8) -> String {
    match v {
        2 => "arm".into(),
        3 => "x86".into(),
        22 => "arm64".into(),
        n => format!("arch-{n}"),
    }
}
fn type_name(v: u8) -> String {
    match v {
        1 => "standalone".into(),
        2 => "kernel".into(),
        3 => "ramdisk".into(),
        4 => "multi".into(),
        5 => "firmware".into(),
        6 => "script".into(),
        7 => "filesystem".into(),
        8 => "flat_dt".into(),
        n => format!("type-{n}"),
    }
}
fn comp_name(v: u8) -> String {
    match v {
        0 => "none".into(),
        1 => "gzip".into(),
        2 => "bzip2".into(),
        3 => "lzma".into(),
        4 => "lzo".into(),
        5 => "lz4".into(),
        6 => "zstd".into(),
        n => format!("comp-{n}"),
    }
}

/// Walk a legacy uImage into `c`.
pub(crate) fn walk(c: &mut Component, view: View<'_>, nested: Nested) -> Result<()> {
    let hdr = view.slice(0, HDR, "uImage header")?;
    let hcrc = view.u32be(4, "uImage header")?;
    let time = view.u32be(8, "uImage header")?;
    let size = u64::from(view.u32be(12, "uImage header")?);
    let load = view.u32be(16, "uImage header")?;
    let ep = view.u32be(20, "uImage header")?;
    let dcrc = view.u32be(24, "uImage header")?;
    let (os, arch, typ, comp) = (hdr[28], hdr[29], hdr[30], hdr[31]);
    let name_end = hdr[32..64].iter().position(|&b| b == 0).unwrap_or(32);
    let name = String::from_utf8_lossy(&hdr[32..32 + name_end]).into_owned();
    let mut zeroed = hdr.to_vec();
    zeroed[4..8].fill(0);
    c.add_hash(hashes::check("crc32", &hcrc.to_be_bytes(), &zeroed));
    c.detail("name", name);
    c.detail("timestamp", time);
    c.detail("os", os_name(os));
    c.detail("arch", arch_name(arch));
    c.detail("type", type_name(typ));
    c.detail("compression", comp_name(comp));
    c.load_addr = Some(u64::from(load));
    c.entry = Some(u64::from(ep));
    c.components
        .push(Component::new("header", "uimage-header", view.base, HDR));
    let data = view.sub(HDR, size, "uImage data (ih_size)")?;
    let mut dc = Component::new("data", "raw", data.base, size);
    dc.add_hash(hashes::check("crc32", &dcrc.to_be_bytes(), data.data));
    dc.load_addr = Some(u64::from(load));
    dc.entry = Some(u64::from(ep));
    if typ == 4 {
        // Multi-file: a zero-terminated table of big-endian sizes, then the images, each
        // padded to 4 bytes.
        let mut sizes = Vec::new();
        let mut p = 0u64;
        loop {
            let s = data.u32be(p, "uImage multi-file size table")?;
            p += 4;
            if s == 0 {
                break;
            }
            sizes.push(u64::from(s));
        }
        for (i, s) in sizes.iter().enumerate() {
            let sub = data.sub(p, *s, &format!("uImage multi-file image #{i}"))?;
            dc.components
                .push(nested.part(&format!("image-{i}"), sub, Hint::None)?);
            p = (p + s + 3) & !3;
        }
        dc.format = "uimage-multi".into();
    } else if comp == 0 {
        let inner = nested.part("data", data, Hint::None)?;
        dc.format = inner.format;
        dc.components = inner.components;
        dc.details = inner.details;
        dc.warnings = inner.warnings;
    }
    c.components.push(dc);
    if HDR + size < view.len() {
        c.warnings.push(format!(
            "{} bytes after the image data",
            view.len() - HDR - size
        ));
    }
    Ok(())
}
