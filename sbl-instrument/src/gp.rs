//! OMAP/AM335x ROM boot images: the GP header `{size u32, load_addr u32}` before the SPL
//! (`MLO`, `mkimage -T gpimage`), optionally preceded by a 512-byte CH table of contents
//! (`mkimage -T omapimage`, "CHSETTINGS").

use crate::bytes::{peek_u32le, View};
use crate::error::Result;
use crate::inspect::{describe, Format, Hint};
use crate::model::Component;

const TOC_SIZE: u64 = 0x200;

/// True when `data` has the CH table of contents of an OMAP boot image.
pub fn looks_like_omap_image(data: &[u8]) -> bool {
    data.len() > 0x208 && data.get(0x14..0x1e) == Some(b"CHSETTINGS")
}

fn plausible_gp(size: u32, load: u32, avail: usize) -> bool {
    // On-chip SRAM load addresses of OMAP3/AM335x/AM437x/DRA7 ROMs.
    let sram = (0x4020_0000..0x4040_0000).contains(&load);
    sram && size > 0 && (size as usize) <= avail
}

/// True when `data` starts with a plausible GP header (size fits the file, load in SRAM).
pub fn looks_like_gp_image(data: &[u8]) -> bool {
    match (peek_u32le(data, 0), peek_u32le(data, 4)) {
        (Some(size), Some(load)) => {
            let avail = data.len().saturating_sub(8);
            plausible_gp(size, load, avail) && (size as usize) + 4096 >= avail
        }
        _ => false,
    }
}

/// Walk an OMAP image (TOC + GP header) or a bare GP image into `c`.
pub(crate) fn walk(c: &mut Component, view: View<'_>, fmt: Format, depth: usize) -> Result<()> {
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
    let size = u64::from(view.u32le(gp_off, "GP header size")?);
    let load = view.u32le(gp_off + 4, "GP header load address")?;
    c.components.push(Component::new(
        "gp-header",
        "ti-gp-header",
        view.base + gp_off,
        8,
    ));
    let sub = view.sub(gp_off + 8, size, "GP header payload (size)")?;
    let mut spl = describe("spl", sub, depth + 1, Hint::None);
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
