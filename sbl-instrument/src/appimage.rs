//! TI PDK multicore application images: the `MSTR` meta header listing one RPRC image per
//! core, and RPRC images (`RPRC` header, then sections `{addr, rsvd_addr, size, crc, rsvd}`
//! each followed by its data).

use crate::bytes::View;
use crate::error::{Error, Result};
use crate::model::{Component, Hint};
use crate::nested::Nested;

/// "MSTR", little-endian.
pub const MSTR_MAGIC: u32 = 0x5254_534D;
/// "MEND", little-endian.
pub const MEND_MAGIC: u32 = 0x444E_454D;
/// "RPRC", little-endian.
pub const RPRC_MAGIC: u32 = 0x4352_5052;
/// The PDK's limit on images in one appimage.
pub const MAX_INPUT_FILES: u32 = 16;

/// Walk an `MSTR` multicore appimage into `c`.
pub(crate) fn walk(c: &mut Component, view: View<'_>, nested: Nested) -> Result<()> {
    let num = view.u32le(4, "appimage meta header num_files")?;
    let dev_id = view.u32le(8, "appimage meta header dev_id")?;
    c.detail("num_files", num);
    c.detail("dev_id", dev_id);
    if num == 0 || num > MAX_INPUT_FILES {
        return Err(Error::malformed(
            "appimage meta header num_files",
            view.base + 4,
            format!("{num} images (1..={MAX_INPUT_FILES} expected)"),
        ));
    }
    let mut entries = Vec::new();
    for i in 0..u64::from(num) {
        let st = format!("appimage meta header entry #{i}");
        let core = view.u32le(16 + 8 * i, &st)?;
        let off = u64::from(view.u32le(20 + 8 * i, &st)?);
        entries.push((core, off));
    }
    let foot = 16 + 8 * u64::from(num);
    let end_magic = view.u32le(foot + 4, "appimage meta footer")?;
    if end_magic != MEND_MAGIC {
        return Err(Error::malformed(
            "appimage meta footer",
            view.base + foot + 4,
            format!("magic {end_magic:#010x}, expected MEND"),
        ));
    }
    let mut starts: Vec<u64> = entries.iter().map(|e| e.1).collect();
    starts.sort_unstable();
    let header_len = foot + 8;
    c.components.push(Component::new(
        "meta-header",
        "appimage-header",
        view.base,
        header_len,
    ));
    for (i, (core, off)) in entries.iter().enumerate() {
        if *off < header_len || *off > view.len() {
            return Err(Error::malformed(
                format!("appimage meta header entry #{i}"),
                view.base + 20 + 8 * i as u64,
                format!(
                    "image offset {off:#x} outside {header_len:#x}..{:#x}",
                    view.len()
                ),
            ));
        }
        let end = starts
            .iter()
            .copied()
            .find(|s| *s > *off)
            .unwrap_or(view.len());
        let sub = view.sub(*off, end - off, &format!("appimage image #{i}"))?;
        let mut ic = nested.part(&format!("core-{core}"), sub, Hint::None)?;
        ic.detail("core_id", *core);
        c.components.push(ic);
    }
    Ok(())
}

/// Walk an RPRC image into `c`: one component per section.
pub(crate) fn walk_rprc(c: &mut Component, view: View<'_>) -> Result<()> {
    let entry = view.u32le(4, "RPRC header entry")?;
    let count = view.u32le(12, "RPRC header SectionCount")?;
    let version = view.u32le(16, "RPRC header version")?;
    c.entry = Some(u64::from(entry));
    c.detail("section_count", count);
    c.detail("version", version);
    let mut pos = 20u64;
    for i in 0..count {
        let st = format!("RPRC section header #{i}");
        let addr = view.u32le(pos, &st)?;
        let size = u64::from(view.u32le(pos + 8, &st)?);
        view.slice(pos, 20, &st)?;
        let data = view.sub(pos + 20, size, &format!("RPRC section #{i} data"))?;
        let mut sc = Component::new(format!("section-{i}"), "rprc-section", data.base, size);
        sc.load_addr = Some(u64::from(addr));
        c.components.push(sc);
        pos += 20 + size;
    }
    if pos < view.len() {
        c.warnings.push(format!(
            "{} bytes after the last RPRC section",
            view.len() - pos
        ));
    }
    Ok(())
}
