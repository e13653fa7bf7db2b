//! sbl-instrument: boot image inspection and instrumentation for TI K3 (J721E, J7200,
//! J784S4, AM62x...), AM335x and generic U-Boot + Linux boards.
//!
//! * [`inspect_path`] / [`inspect_bytes`]: detect and walk ELF, TI K3 X.509 ROM images, FIT,
//!   board-config blobs, PDK appimages (MSTR/RPRC), uImage, ARM64 `Image`, zImage and the
//!   AM335x GP header, recursively, checking every stored digest. JSON contract
//!   `perfguide/image/v1` ([`InspectReport`]).
//! * [`media`]: load-time estimates per component from a boot medium's read rate.
//! * [`profile`]: locate the TI PDK (`sblProfileLog`) or MCU+ (`gProfileObj`) SBL profile log
//!   in an SBL ELF and decode it from a RAM dump.
//! * [`patch`]: change initialised data of an ELF by symbol, checked and atomic.
//!
//! No function here panics on malformed input: every error is an [`Error`] that names the
//! structure and the file offset.

#![warn(missing_docs)]

pub mod appimage;
pub mod boardcfg;
mod bytes;
pub mod cli;
pub mod elf;
pub mod error;
pub mod fdt;
pub mod fit;
pub mod gp;
pub mod hashes;
pub mod inspect;
pub mod kernel;
pub mod media;
pub mod model;
mod nested;
pub mod patch;
pub mod profile;
pub mod table;
pub mod uimage;
pub mod x509;

pub use bytes::hex;
pub use error::{Error, Result};
pub use inspect::{detect, inspect_as, inspect_bytes, inspect_path, Mapped};
pub use model::{
    Component, Format, HashCheck, HashStatus, Hint, Image, InspectReport, IMAGE_SCHEMA,
};

/// Inspect several files into the `perfguide/image/v1` document.
pub fn inspect_paths<P: AsRef<std::path::Path>>(paths: &[P]) -> Result<InspectReport> {
    let images = paths
        .iter()
        .map(|p| inspect_path(p.as_ref()))
        .collect::<Result<Vec<_>>>()?;
    Ok(InspectReport::new(images))
}
