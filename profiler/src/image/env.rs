//! U-Boot environment flash images: how the reference image switches between a loud and a
//! quiet boot without another U-Boot or another disk.
//!
//! U-Boot's `qemu_arm64_defconfig` keeps its environment in the second flash bank
//! (`CONFIG_ENV_IS_IN_FLASH`, `CONFIG_ENV_ADDR`); a bank with a valid environment replaces the
//! built-in one, and one read before the console starts, so its `silent` takes effect from the
//! first character. Both images hold U-Boot's built-in environment (`make u-boot-initial-env`);
//! the quiet one adds `silent=1` (with `CONFIG_SILENT_CONSOLE`) and [`ARGS_VAR`], which the
//! `extlinux.conf` `append` line expands into the kernel command line.
//!
//! The format is U-Boot's (`tools/mkenvimage`): a CRC-32 of the data area, little-endian,
//! then `name=value` strings each ended by a NUL, an empty string, and `0xff` padding to
//! `CONFIG_ENV_SIZE`.

use anyhow::{bail, Context};
use std::path::Path;

/// The variable the `append` line of `extlinux.conf` expands (`${perfguide_args}`): empty in
/// a loud boot, the profile's `quiet_kernel_args` in a quiet one.
pub const ARGS_VAR: &str = "perfguide_args";

/// A boot's console: what the environment image is made for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EnvKind {
    /// U-Boot's built-in environment as it is.
    Loud,
    /// `silent=1` and the quiet kernel arguments.
    Quiet,
}

/// Where and how large the environment is, from U-Boot's `.config`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EnvLayout {
    /// `CONFIG_ENV_SIZE`: CRC and data.
    pub size: usize,
    /// `CONFIG_ENV_ADDR`: where U-Boot reads it.
    pub addr: u64,
}

impl EnvLayout {
    /// Reads the layout from U-Boot's `.config`: the environment must live in flash.
    pub fn from_config(config: &str) -> anyhow::Result<Self> {
        let value = |sym: &str| {
            config
                .lines()
                .find_map(|l| l.strip_prefix(sym)?.strip_prefix('='))
                .map(str::trim)
        };
        if value("CONFIG_ENV_IS_IN_FLASH") != Some("y") {
            bail!(
                "U-Boot is not configured with CONFIG_ENV_IS_IN_FLASH=y: the quiet switch \
                 ([image] quiet_kernel_args) needs its environment in flash"
            );
        }
        let num = |sym: &str| -> anyhow::Result<u64> {
            let v = value(sym).with_context(|| format!("U-Boot's .config has no {sym}"))?;
            let parsed = match v.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => v.parse(),
            };
            parsed.with_context(|| format!("U-Boot's .config: {sym}={v} is not a number"))
        };
        let size = num("CONFIG_ENV_SIZE")?;
        if !(8..=1 << 24).contains(&size) {
            bail!("U-Boot's .config: CONFIG_ENV_SIZE={size} is out of range");
        }
        Ok(EnvLayout {
            size: size as usize,
            addr: num("CONFIG_ENV_ADDR")?,
        })
    }
}

/// `name=value` lines of `u-boot-initial-env` (U-Boot's built-in environment, one variable a
/// line), in order.
pub fn parse_initial_env(text: &str) -> anyhow::Result<Vec<(String, String)>> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let Some((k, v)) = line.split_once('=') else {
            bail!("u-boot-initial-env line {}: no `=` in {line:?}", i + 1);
        };
        out.push((k.to_string(), v.to_string()));
    }
    Ok(out)
}

/// The variables of an environment of `kind`: the built-in ones, and for a quiet boot
/// `silent=1` and [`ARGS_VAR`] (replacing any built-in value of theirs).
pub fn variables(
    builtin: &[(String, String)],
    kind: EnvKind,
    quiet_args: &str,
) -> Vec<(String, String)> {
    let mut vars: Vec<(String, String)> = builtin
        .iter()
        .filter(|(k, _)| kind == EnvKind::Loud || (k != "silent" && k != ARGS_VAR))
        .cloned()
        .collect();
    if kind == EnvKind::Quiet {
        vars.push(("silent".into(), "1".into()));
        vars.push((ARGS_VAR.into(), quiet_args.to_string()));
    }
    vars
}

/// The environment block: CRC-32 (little-endian) of the data area, then the data area of
/// `size - 4` bytes.
pub fn block(vars: &[(String, String)], size: usize) -> anyhow::Result<Vec<u8>> {
    let mut data = Vec::with_capacity(size);
    for (k, v) in vars {
        if k.is_empty() || k.contains('=') || k.contains('\0') || v.contains('\0') {
            bail!("U-Boot environment variable {k:?}={v:?} cannot be stored");
        }
        data.extend_from_slice(k.as_bytes());
        data.push(b'=');
        data.extend_from_slice(v.as_bytes());
        data.push(0);
    }
    data.push(0);
    if data.len() > size - 4 {
        bail!(
            "the U-Boot environment needs {} bytes, CONFIG_ENV_SIZE holds {}",
            data.len() + 4,
            size
        );
    }
    data.resize(size - 4, 0xff);
    let mut out = (crc32fast::hash(&data)).to_le_bytes().to_vec();
    out.extend_from_slice(&data);
    Ok(out)
}

/// Writes a flash bank of `bank_bytes` (sparse) holding `block` where U-Boot reads it: the
/// bank starts at a multiple of its size, so the block sits at `addr % bank_bytes`.
pub fn write_flash(
    path: &Path,
    block: &[u8],
    layout: EnvLayout,
    bank_bytes: u64,
) -> anyhow::Result<()> {
    use std::io::{Seek, SeekFrom, Write};
    if bank_bytes == 0 {
        bail!("[image] uboot_env_flash_bytes must not be 0");
    }
    let offset = layout.addr % bank_bytes;
    if offset + block.len() as u64 > bank_bytes {
        bail!(
            "the U-Boot environment at {:#x} ({} bytes) does not fit a flash bank of {bank_bytes} bytes",
            layout.addr,
            block.len()
        );
    }
    let mut f =
        std::fs::File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
    f.set_len(bank_bytes)?;
    f.seek(SeekFrom::Start(offset))?;
    f.write_all(block)?;
    f.sync_all()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONFIG: &str = "CONFIG_ENV_SIZE=0x40000\nCONFIG_ENV_IS_IN_FLASH=y\n\
                          CONFIG_ENV_ADDR=0x4000000\nCONFIG_ENV_SECT_SIZE=0x40000\n";

    #[test]
    fn layout_from_config() {
        let l = EnvLayout::from_config(CONFIG).unwrap();
        assert_eq!(
            l,
            EnvLayout {
                size: 0x40000,
                addr: 0x4000000
            }
        );
        let e = EnvLayout::from_config("CONFIG_ENV_IS_NOWHERE=y\n").unwrap_err();
        assert!(e.to_string().contains("CONFIG_ENV_IS_IN_FLASH"), "{e}");
    }

    #[test]
    fn quiet_adds_silent_and_the_args() {
        let b = parse_initial_env("bootcmd=run distro_bootcmd\nsilent=0\n\narch=arm\n").unwrap();
        assert_eq!(variables(&b, EnvKind::Loud, "quiet"), b);
        let q = variables(&b, EnvKind::Quiet, "quiet");
        let names: Vec<&str> = q.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, ["bootcmd", "arch", "silent", ARGS_VAR]);
        assert_eq!(q[3].1, "quiet");
        assert!(parse_initial_env("novalue\n").is_err());
    }

    #[test]
    fn block_is_mkenvimage_format() {
        let vars = vec![("a".to_string(), "1".to_string())];
        let b = block(&vars, 16).unwrap();
        assert_eq!(b.len(), 16);
        assert_eq!(&b[4..9], b"a=1\0\0");
        assert!(b[9..].iter().all(|&x| x == 0xff));
        // CRC-32 (IEEE) of the data area, as U-Boot's env_import checks it.
        let crc = u32::from_le_bytes(b[..4].try_into().unwrap());
        assert_eq!(crc, crc32fast::hash(&b[4..]));
        assert!(block(&vars, 8).is_err(), "too small");
    }

    #[test]
    fn flash_bank_holds_the_block_at_the_address() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("env.bin");
        let layout = EnvLayout {
            size: 16,
            addr: 0x4000010,
        };
        let b = block(&[("x".into(), "y".into())], 16).unwrap();
        write_flash(&p, &b, layout, 0x4000000).unwrap();
        let bytes = std::fs::read(&p).unwrap();
        assert_eq!(bytes.len(), 0x4000000);
        assert_eq!(&bytes[0x10..0x20], &b[..]);
        // 0x4000010 % 28 = 20: 16 bytes from there overrun a bank of 28.
        assert!(write_flash(&p, &b, layout, 28).is_err());
    }
}
