//! Format detection and the recursive walk behind `inspect`.

use std::fs::File;
use std::path::Path;

use memmap2::Mmap;

use crate::bytes::{peek_u32be, peek_u32le, View};
use crate::error::{Error, Result};
use crate::model::{Component, Image};
use crate::{appimage, boardcfg, elf, fit, gp, kernel, uimage, x509};

/// Nesting limit of the recursive walk (a FIT in a certificate in a FIT ... stops here).
pub const MAX_DEPTH: usize = 8;

/// What the container says a part is, when its bytes alone cannot tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hint {
    /// Nothing known: detect from the bytes.
    None,
    /// A single TISCI board configuration (board/pm/rm/sec).
    Boardcfg,
    /// A combined board configuration (`combined-tifs-cfg.bin`, `combined-dm-cfg.bin`).
    BoardcfgCombined,
}

/// Formats `inspect` recognises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// ELF 32/64.
    Elf,
    /// DER X.509 certificate carrying TI extensions, then its payload.
    TiX509,
    /// Flattened image tree (FIT): an FDT with `/images`.
    Fit,
    /// A plain flattened device tree.
    Dtb,
    /// TI PDK multicore appimage (`MSTR`).
    Appimage,
    /// TI remoteproc image (`RPRC`).
    Rprc,
    /// Legacy U-Boot image.
    UImage,
    /// ARM64 Linux `Image`.
    Arm64Image,
    /// ARM 32-bit Linux `zImage`.
    ZImage,
    /// OMAP/AM335x boot image with a CH TOC (`MLO` as `mkimage -T omapimage` writes it).
    OmapImage,
    /// AM335x GP header image (`mkimage -T gpimage`).
    GpImage,
    /// Combined TISCI board configuration.
    BoardcfgCombined,
    /// Single TISCI board configuration.
    Boardcfg,
    /// Anything else.
    Raw,
}

impl Format {
    /// The name used in the JSON `format` field.
    pub fn name(self) -> &'static str {
        match self {
            Format::Elf => "elf",
            Format::TiX509 => "ti-x509",
            Format::Fit => "fit",
            Format::Dtb => "dtb",
            Format::Appimage => "ti-appimage",
            Format::Rprc => "rprc",
            Format::UImage => "uimage",
            Format::Arm64Image => "arm64-image",
            Format::ZImage => "zimage",
            Format::OmapImage => "omap-image",
            Format::GpImage => "ti-gp-image",
            Format::BoardcfgCombined => "ti-boardcfg-combined",
            Format::Boardcfg => "ti-boardcfg",
            Format::Raw => "raw",
        }
    }
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
    match fmt {
        Format::Elf => elf::walk(c, view),
        Format::TiX509 => x509::walk(c, view, depth),
        Format::Fit => fit::walk(c, view, depth),
        Format::Dtb => fit::walk_dtb(c, view),
        Format::Appimage => appimage::walk(c, view, depth),
        Format::Rprc => appimage::walk_rprc(c, view),
        Format::UImage => uimage::walk(c, view, depth),
        Format::Arm64Image => kernel::walk_arm64(c, view),
        Format::ZImage => kernel::walk_zimage(c, view),
        Format::OmapImage | Format::GpImage => gp::walk(c, view, fmt, depth),
        Format::BoardcfgCombined => boardcfg::walk_combined(c, view, depth),
        Format::Boardcfg => boardcfg::walk_single(c, view),
        Format::Raw => Ok(()),
    }
}

/// Build the component for a nested part: detect, walk, and keep a failure of the nested walk
/// as a warning (the container itself was well formed).
pub(crate) fn describe(name: &str, view: View<'_>, depth: usize, hint: Hint) -> Component {
    let fmt = if depth >= MAX_DEPTH {
        Format::Raw
    } else {
        detect(view.data, hint)
    };
    let mut c = Component::new(name, fmt.name(), view.base, view.len());
    if let Err(e) = walk(&mut c, view, fmt, depth) {
        c.warnings.push(e.to_string());
    }
    c
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
        let len = f.metadata().map_err(|e| Error::io(path, e))?.len();
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
