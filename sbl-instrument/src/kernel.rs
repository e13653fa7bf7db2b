//! Linux kernel images: the ARM64 `Image` header and the ARM 32-bit `zImage` header.

use crate::bytes::View;
use crate::error::{Error, Result};
use crate::model::Component;

/// "ARM\x64" at offset 56 of an ARM64 `Image`.
pub const ARM64_MAGIC: &[u8] = b"ARM\x64";
/// zImage magic at offset 0x24.
pub const ZIMAGE_MAGIC: u32 = 0x016F_2818;

/// Walk an ARM64 `Image` header into `c`.
pub(crate) fn walk_arm64(c: &mut Component, view: View<'_>) -> Result<()> {
    let text_offset = view.u64le(8, "ARM64 Image header text_offset")?;
    let image_size = view.u64le(16, "ARM64 Image header image_size")?;
    let flags = view.u64le(24, "ARM64 Image header flags")?;
    let pe = view.u32le(60, "ARM64 Image header res5 (PE offset)")?;
    c.detail("text_offset", text_offset);
    c.detail("image_size", image_size);
    c.detail("flags", flags);
    c.detail("endian", if flags & 1 == 1 { "big" } else { "little" });
    c.detail(
        "page_size",
        match (flags >> 1) & 3 {
            1 => "4K",
            2 => "16K",
            3 => "64K",
            _ => "unspecified",
        },
    );
    c.detail(
        "phys_placement",
        if (flags >> 3) & 1 == 1 {
            "anywhere"
        } else {
            "2MB-aligned near DRAM base"
        },
    );
    let is_pe = view.data.starts_with(b"MZ") && pe != 0;
    c.detail("efi_stub", is_pe);
    if is_pe && view.slice(u64::from(pe), 4, "PE header")? != b"PE\0\0" {
        c.warnings
            .push(format!("MZ header but no PE signature at {pe:#x}"));
    }
    if image_size == 0 {
        c.warnings
            .push("image_size is 0 (kernel older than 3.17)".into());
    } else if image_size < view.len() {
        c.warnings.push(format!(
            "image_size {image_size} is smaller than the file ({})",
            view.len()
        ));
    }
    Ok(())
}

/// Walk an ARM `zImage` header into `c`.
pub(crate) fn walk_zimage(c: &mut Component, view: View<'_>) -> Result<()> {
    let start = view.u32le(0x28, "zImage header start")?;
    let end = view.u32le(0x2C, "zImage header end")?;
    if end < start {
        return Err(Error::malformed(
            "zImage header",
            view.base + 0x28,
            format!("end {end:#x} < start {start:#x}"),
        ));
    }
    let size = u64::from(end - start);
    c.detail("start", start);
    c.detail("end", end);
    c.detail("declared_size", size);
    if let Ok(e) = view.u32le(0x30, "zImage endianness marker") {
        c.detail(
            "endian",
            if e == 0x0403_0201 {
                "little"
            } else if e == 0x0102_0304 {
                "big"
            } else {
                "unknown"
            },
        );
    }
    if size > view.len() {
        return Err(Error::truncated(
            "zImage (end - start)",
            view.base,
            size,
            view.len(),
        ));
    }
    Ok(())
}
