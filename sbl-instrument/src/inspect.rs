//! Format detection and the recursive walk behind `inspect`: the dispatcher from a [`Format`]
//! to its walker. Container walkers reach back here only through `Nested`, which carries
//! `describe` down to them.

use std::fs::File;
use std::path::Path;

use memmap2::Mmap;

use crate::bytes::{peek_u32be, peek_u32le, View};
use crate::error::{Error, Result};
use crate::model::{Component, Format, Hint, Image};
use crate::nested::Nested;
use crate::{appimage, boardcfg, elf, fit, gp, kernel, profile, uimage, x509};

/// Nesting limit of the recursive walk (a FIT in a certificate in a FIT ... stops here).
pub const MAX_DEPTH: usize = 8;

/// Symbols beyond the SBL profile ones whose address and size `inspect` reports when present.
pub const OTHER_SYMBOLS_OF_INTEREST: &[&str] = &["version_string", "main", "_start"];

/// Every symbol `inspect` reports for an ELF when present: the SBL profile symbols and the
/// others.
pub fn symbols_of_interest() -> Vec<&'static str> {
    profile::PDK_SYMBOLS
        .iter()
        .chain(profile::MCU_SYMBOLS)
        .chain(OTHER_SYMBOLS_OF_INTEREST)
        .copied()
        .collect()
}

/// Detect the format of `data` (with an optional hint from the container or file name).
pub fn detect(data: &[u8], hint: Hint) -> Format {
    if data.starts_with(b"\x7fELF") {
        return Format::Elf;
    }
    if peek_u32be(data, 0) == Some(fit::FDT_MAGIC) {
        return if fit::has_images_node(data) {
            Format::Fit
        } else {
            Format::Dtb
        };
    }
    if x509::looks_like_ti_x509(data) {
        return Format::TiX509;
    }
    match peek_u32le(data, 0) {
        Some(appimage::MSTR_MAGIC) => return Format::Appimage,
        Some(appimage::RPRC_MAGIC) => return Format::Rprc,
        _ => {}
    }
    if peek_u32be(data, 0) == Some(uimage::IH_MAGIC) {
        return Format::UImage;
    }
    if data.get(56..60) == Some(kernel::ARM64_MAGIC) {
        return Format::Arm64Image;
    }
    if peek_u32le(data, 0x24) == Some(kernel::ZIMAGE_MAGIC) {
        return Format::ZImage;
    }
    if gp::looks_like_omap_image(data) {
        return Format::OmapImage;
    }
    match hint {
        Hint::BoardcfgCombined if boardcfg::looks_like_combined(data) => {
            return Format::BoardcfgCombined
        }
        Hint::BoardcfgCombined | Hint::Boardcfg => {
            if boardcfg::looks_like_single(data, true) {
                return Format::Boardcfg;
            }
        }
        Hint::None => {}
    }
    if boardcfg::looks_like_combined(data) {
        return Format::BoardcfgCombined;
    }
    if gp::looks_like_gp_image(data) {
        return Format::GpImage;
    }
    if boardcfg::looks_like_single(data, false) {
        return Format::Boardcfg;
    }
    Format::Raw
}

/// Walk `view` as `fmt` into `c` (whose format, offset and size are already set).
pub(crate) fn walk(c: &mut Component, view: View<'_>, fmt: Format, depth: usize) -> Result<()> {
    let nested = Nested::new(depth, describe);
    match fmt {
        Format::Elf => elf::walk(c, view, &symbols_of_interest()),
        Format::TiX509 => x509::walk(c, view, nested),
        Format::Fit => fit::walk(c, view, nested),
        Format::Dtb => fit::walk_dtb(c, view),
        Format::Appimage => appimage::walk(c, view, nested),
        Format::Rprc => appimage::walk_rprc(c, view),
        Format::UImage => uimage::walk(c, view, nested),
        Format::Arm64Image => kernel::walk_arm64(c, view),
        Format::ZImage => kernel::walk_zimage(c, view),
        Format::OmapImage | Format::GpImage => gp::walk(c, view, fmt, nested),
        Format::BoardcfgCombined => boardcfg::walk_combined(c, view, nested),
        Format::Boardcfg => boardcfg::walk_single(c, view),
        Format::Raw => Ok(()),
    }
}

/// Build the component for a nested part: detect, walk, and keep a failure of the nested walk
/// as a warning (the container itself was well formed). An arithmetic overflow is the
/// exception: it marks a hostile header, and the whole file is rejected with it.
pub(crate) fn describe(name: &str, view: View<'_>, depth: usize, hint: Hint) -> Result<Component> {
    let fmt = if depth >= MAX_DEPTH {
        Format::Raw
    } else {
        detect(view.data, hint)
    };
    let mut c = Component::new(name, fmt.name(), view.base, view.len());
    match walk(&mut c, view, fmt, depth) {
        Ok(()) => {}
        Err(e @ Error::Overflow { .. }) => return Err(e),
        Err(e) => c.warnings.push(e.to_string()),
    }
    Ok(c)
}

fn hint_from_name(name: &str) -> Hint {
    let n = name.to_ascii_lowercase();
    if n.contains("combined") && n.contains("cfg") {
        Hint::BoardcfgCombined
    } else if n.ends_with("cfg.bin") || n.contains("-cfg") || n.contains("boardcfg") {
        Hint::Boardcfg
    } else {
        Hint::None
    }
}

/// Inspect bytes as a whole file named `name`. Malformed top-level structures are errors.
pub fn inspect_bytes(name: &str, data: &[u8]) -> Result<Component> {
    let file_name = Path::new(name)
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| name.to_string());
    let fmt = detect(data, hint_from_name(&file_name));
    let mut c = Component::new(file_name, fmt.name(), 0, data.len() as u64);
    walk(&mut c, View::new(data, 0), fmt, 0)?;
    Ok(c)
}

/// A read-only memory map of a file (an empty file gets an empty slice).
pub struct Mapped {
    map: Option<Mmap>,
}

impl Mapped {
    /// Map `path` read-only.
    pub fn open(path: &Path) -> Result<Mapped> {
        let f = File::open(path).map_err(|e| Error::io(path, e))?;
        let meta = f.metadata().map_err(|e| Error::io(path, e))?;
        if meta.is_dir() {
            return Err(Error::Invalid(format!(
                "{}: is a directory; give the image files in it",
                path.display()
            )));
        }
        let len = meta.len();
        if len == 0 {
            return Ok(Mapped { map: None });
        }
        // SAFETY: the map is read-only and private to this process; if another process
        // truncates the file while it is mapped, reads may fault. That is the documented
        // risk of memory-mapping and acceptable for a command-line inspection tool.
        let map = unsafe { Mmap::map(&f) }.map_err(|e| Error::io(path, e))?;
        Ok(Mapped { map: Some(map) })
    }

    /// The mapped bytes.
    pub fn bytes(&self) -> &[u8] {
        self.map.as_deref().unwrap_or(&[])
    }
}

/// Inspect one file (memory-mapped, never copied whole).
pub fn inspect_path(path: &Path) -> Result<Image> {
    let m = Mapped::open(path)?;
    let root = inspect_bytes(&path.to_string_lossy(), m.bytes()).map_err(|e| e.in_file(path))?;
    Ok(Image {
        path: path.to_string_lossy().into_owned(),
        root,
    })
}

/// Walk `data` as `fmt` without detection (for callers that know the format, and fuzzing).
pub fn inspect_as(fmt: Format, name: &str, data: &[u8]) -> Result<Component> {
    let mut c = Component::new(name, fmt.name(), 0, data.len() as u64);
    walk(&mut c, View::new(data, 0), fmt, 0)?;
    Ok(c)
}
