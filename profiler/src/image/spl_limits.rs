//! An SPL's size against the limits U-Boot itself enforces for the SoC's SRAM, read from a
//! finished build: the file size check of U-Boot's Makefile (`spl/u-boot-spl.bin` against
//! `tools/spl_size_limit`, i.e. `SPL_SIZE_LIMIT` less the stack, global data and early malloc
//! it must leave free), and the linker script's asserts (the loaded image, `_start` to
//! `__image_copy_end`, against `SPL_MAX_SIZE`; the BSS against `SPL_BSS_MAX_SIZE`).

use super::uboot::config_number;
use anyhow::Context;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One limit and what the SPL uses of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SizeLimit {
    /// What is limited, and by what.
    pub what: String,
    /// Bytes used.
    pub used: u64,
    /// Bytes allowed.
    pub limit: u64,
}

impl SizeLimit {
    /// Within the limit.
    pub fn ok(&self) -> bool {
        self.used <= self.limit
    }
}

/// An SPL's sizes and limits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SplSize {
    /// `spl/u-boot-spl.bin`'s size.
    pub bin_bytes: u64,
    /// The limits that apply (those the `.config` sets).
    pub limits: Vec<SizeLimit>,
}

/// The SPL of the build in `out`, if it has one (`spl/u-boot-spl.bin`). `spl_size_limit` is
/// the output of the build's `tools/spl_size_limit` when the `.config` sets `SPL_SIZE_LIMIT`.
pub fn measure(
    out: &Path,
    config: &str,
    spl_size_limit: Option<u64>,
) -> anyhow::Result<Option<SplSize>> {
    let bin = out.join("spl/u-boot-spl.bin");
    let Ok(meta) = std::fs::metadata(&bin) else {
        return Ok(None);
    };
    let sym_path = out.join("spl/u-boot-spl.sym");
    let sym = std::fs::read_to_string(&sym_path)
        .with_context(|| format!("cannot read {}", sym_path.display()))?;
    Ok(Some(sizes(meta.len(), config, &sym, spl_size_limit)))
}

/// The sizes from the SPL binary's size, the `.config` and the SPL's symbol table (`objdump
/// -t` as U-Boot writes it in `spl/u-boot-spl.sym`).
pub fn sizes(bin_bytes: u64, config: &str, sym: &str, spl_size_limit: Option<u64>) -> SplSize {
    let mut limits = Vec::new();
    if let Some(limit) = spl_size_limit.filter(|l| *l > 0) {
        limits.push(SizeLimit {
            what: "spl/u-boot-spl.bin (SPL_SIZE_LIMIT less stack, global data, early malloc)"
                .into(),
            used: bin_bytes,
            limit,
        });
    }
    let addr = |name: &str| symbol(sym, name);
    if let (Some(limit), Some(start), Some(end)) = (
        config_number(config, "SPL_MAX_SIZE"),
        addr("_start"),
        addr("__image_copy_end"),
    ) {
        limits.push(SizeLimit {
            what: "image, text to data (SPL_MAX_SIZE)".into(),
            used: end.saturating_sub(start),
            limit,
        });
    }
    if let (Some(limit), Some(start), Some(end)) = (
        config_number(config, "SPL_BSS_MAX_SIZE"),
        addr("__bss_start"),
        addr("__bss_end"),
    ) {
        limits.push(SizeLimit {
            what: "BSS (SPL_BSS_MAX_SIZE)".into(),
            used: end.saturating_sub(start),
            limit,
        });
    }
    SplSize { bin_bytes, limits }
}

/// The address of a symbol in `objdump -t` output (`43c00000 g  .text  00000000 _start`).
fn symbol(sym: &str, name: &str) -> Option<u64> {
    sym.lines().find_map(|l| {
        let mut words = l.split_whitespace();
        let addr = words.next()?;
        (words.last()? == name)
            .then(|| u64::from_str_radix(addr, 16).ok())
            .flatten()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // Lines of `spl/u-boot-spl.sym` of an am62x_evm_r5 build (U-Boot 2025.01).
    const SYM: &str = "\
43c00000 g       .text\t00000000 __start
43c00000 g       .text\t00000000 _start
43c02c50 g     F .text\t0000001e bootstage_start
43c1f944 g       __u_boot_list\t00000000 __image_copy_end
43c3b000 g       .bss\t00000000 __bss_start
43c3b5b4 g       .bss\t00000000 __bss_end
";
    const CONFIG: &str = "CONFIG_SPL_MAX_SIZE=0x3B000\nCONFIG_SPL_BSS_MAX_SIZE=0x3000\n\
                          CONFIG_SPL_SIZE_LIMIT=0x3A7F0\n";

    #[test]
    fn limits_of_an_r5_spl() {
        let s = sizes(154_228, CONFIG, SYM, Some(197_136));
        assert_eq!(s.limits.len(), 3);
        assert_eq!((s.limits[0].used, s.limits[0].limit), (154_228, 197_136));
        assert_eq!(s.limits[1].used, 0x1f944);
        assert_eq!(s.limits[1].limit, 0x3b000);
        assert_eq!((s.limits[2].used, s.limits[2].limit), (0x5b4, 0x3000));
        assert!(s.limits.iter().all(SizeLimit::ok));
        // Over a limit is not ok.
        let s = sizes(200_000, CONFIG, SYM, Some(197_136));
        assert!(!s.limits[0].ok());
    }

    #[test]
    fn limits_not_set_are_absent() {
        let s = sizes(100, "CONFIG_SPL_SIZE_LIMIT=0x0\n", SYM, Some(0));
        assert!(s.limits.is_empty());
        assert_eq!(symbol(SYM, "bootstage"), None);
        assert_eq!(symbol(SYM, "bootstage_start"), Some(0x43c0_2c50));
    }
}
