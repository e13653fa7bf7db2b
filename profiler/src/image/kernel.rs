//! The distribution's arm64 kernel as an `Image` that U-Boot's `booti` takes.
//!
//! Debian's arm64 `vmlinuz` is an uncompressed, EFI-stub `Image` (the arm64 boot header with
//! the `ARM\x64` magic at 0x38); a gzip-compressed one is decompressed here, because `booti`
//! of a compressed image needs `kernel_comp_addr_r` set up in the U-Boot environment.

use super::exec::{Cmd, Runner};
use anyhow::{bail, Context};
use std::path::{Path, PathBuf};

/// arm64 `Image` header magic, little-endian `ARM\x64` at offset 0x38.
const ARM64_MAGIC: &[u8; 4] = b"ARMd";

/// Finds `boot/vmlinuz-*` in an unpacked kernel package.
pub fn find_vmlinuz(pkg_root: &Path) -> anyhow::Result<(PathBuf, String)> {
    let boot = pkg_root.join("boot");
    for e in std::fs::read_dir(&boot).with_context(|| format!("no {}", boot.display()))? {
        let e = e?;
        let name = e.file_name().to_string_lossy().into_owned();
        if let Some(release) = name.strip_prefix("vmlinuz-") {
            return Ok((e.path(), release.to_string()));
        }
    }
    bail!("no vmlinuz-* in {}", boot.display())
}

/// Whether `bytes` start with an arm64 `Image` header.
pub fn is_arm64_image(bytes: &[u8]) -> bool {
    bytes.len() >= 0x40 && &bytes[0x38..0x3c] == ARM64_MAGIC
}

/// Writes the kernel as an uncompressed `Image` at `out`.
pub fn to_image(r: &Runner, vmlinuz: &Path, out: &Path) -> anyhow::Result<()> {
    let head = read_head(vmlinuz, 0x40)?;
    if is_arm64_image(&head) {
        std::fs::copy(vmlinuz, out)?;
    } else if head.starts_with(&[0x1f, 0x8b]) {
        r.run_to_file(Cmd::new("gzip").arg("-dc").arg(vmlinuz), out)?;
        if !is_arm64_image(&read_head(out, 0x40)?) {
            bail!(
                "{} decompressed to something that is not an arm64 Image",
                vmlinuz.display()
            );
        }
    } else {
        bail!("{} is neither an arm64 Image nor gzip", vmlinuz.display());
    }
    Ok(())
}

fn read_head(path: &Path, n: usize) -> anyhow::Result<Vec<u8>> {
    use std::io::Read;
    let mut buf = Vec::with_capacity(n);
    std::fs::File::open(path)
        .with_context(|| format!("cannot read {}", path.display()))?
        .take(n as u64)
        .read_to_end(&mut buf)?;
    Ok(buf)
}

/// Reads `CONFIG_*` values from the kernel package's `boot/config-*`.
pub fn config_value(pkg_root: &Path, release: &str, symbol: &str) -> Option<String> {
    let text = std::fs::read_to_string(pkg_root.join(format!("boot/config-{release}"))).ok()?;
    let prefix = format!("{symbol}=");
    text.lines()
        .find_map(|l| l.strip_prefix(&prefix).map(str::to_string))
}
