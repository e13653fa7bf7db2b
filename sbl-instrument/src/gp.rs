//! OMAP/AM335x ROM boot images: the GP header `{size u32, load_addr u32}` before the SPL
//! (`MLO`; `mkimage -T gpimage` writes it big-endian, for Keystone 2), optionally preceded
//! by a 512-byte CH table of contents (`mkimage -T omapimage`, "CHSETTINGS").

use crate::bytes::{peek_u32be, peek_u32le, View};
use crate::error::{Error, Result};
use crate::model::{Component, Format, Hint};
use crate::nested::Nested;

const TOC_SIZE: u64 = 0x200;

/// True when `data` has the CH table of contents of an OMAP boot image.
pub fn looks_like_omap_image(data: &[u8]) -> bool {
    data.len() > 0x208 && data.get(0x14..0x1e) == Some(b"CHSETTINGS")
}

fn plausible_gp(size: u32, load: u32, avail: u64) -> bool {
    // On-chip SRAM load addresses of OMAP3/AM335x/AM437x/DRA7 ROMs, Keystone 2 MSMC SRAM.
    let sram =
        (0x4020_0000..0x4040_0000).contains(&load) || (0x0c00_0000..0x0c60_0000).contains(&load);
    let size = u64::from(size);
    // mkimage's omapimage counts the 8-byte GP header in `size`. Both sides are file sizes
    // plus small constants: far from overflowing a u64.
    sram && size > 0 && size <= avail + 8 && size + 4096 >= avail
}

/// Read a GP header at `off`: (size, load, big_endian), trying little then big endian.
fn gp_header(data: &[u8], off: usize) -> Option<(u32, u32, bool)> {
    let avail = (data.len() as u64).saturating_sub(off as u64 + 8);
    let le = (peek_u32le(data, off)?, peek_u32le(data, off + 4)?);
    if plausible_gp(le.0, le.1, avail) {
        return Some((le.0, le.1, false));
    }
    let be = (peek_u32be(data, off)?, peek_u32be(data, off + 4)?);
    if plausible_gp(be.0, be.1, avail) {
        return Some((be.0, be.1, true));
    }
    None
}

/// True when `data` starts with a plausible GP header (size fits the file, load in SRAM).
pub fn looks_like_gp_image(data: &[u8]) -> bool {
    gp_header(data, 0).is_some()
}

/// Walk an OMAP image (TOC + GP header) or a bare GP image into `c`.
pub(crate) fn walk(c: &mut Component, view: View<'_>, fmt: Format, nested: Nested) -> Result<()> {
    let gp_off = if fmt == Format::OmapImage {
        let mut toc = Component::new("toc", "omap-toc", view.base, TOC_SIZE);
        let mut items = Vec::new();
        for i in 0..(TOC_SIZE / 32) {
            let st = format!("CH TOC item #{i}");
            let start = view.u32le(32 * i, &st)?;
            if start == 0xFFFF_FFFF {
                break;
            }
            let name = view.slice(32 * i + 20, 12, &st)?;
            let end = name.iter().position(|&b| b == 0).unwrap_or(12);
            items.push(String::from_utf8_lossy(&name[..end]).into_owned());
        }
        toc.detail("items", items);
        c.components.push(toc);
        TOC_SIZE
    } else {
        0
    };
    view.slice(gp_off, 8, "GP header")?;
    let (size, load, big) = gp_header(view.data, gp_off as usize).ok_or_else(|| {
        Error::malformed(
            "GP header",
            view.base + gp_off,
            "size/load address implausible in either byte order",
        )
    })?;
    let avail = view.len() - gp_off - 8;
    let mut size = u64::from(size);
    if size == avail + 8 {
        c.detail("size_includes_header", true);
        size = avail;
    }
    c.detail("gp_endian", if big { "big" } else { "little" });
    c.components.push(Component::new(
        "gp-header",
        "ti-gp-header",
        view.base + gp_off,
        8,
    ));
    let sub = view.sub(gp_off + 8, size, "GP header payload (size)")?;
    let mut spl = nested.part("spl", sub, Hint::None)?;
    spl.load_addr = Some(u64::from(load));
    spl.entry = Some(u64::from(load));
    c.components.push(spl);
    c.load_addr = Some(u64::from(load));
    c.entry = Some(u64::from(load));
    let used = gp_off + 8 + size;
    if used < view.len() {
        c.warnings
            .push(format!("{} bytes after the GP payload", view.len() - used));
    }
    Ok(())
}
