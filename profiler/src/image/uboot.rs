//! U-Boot from the distribution's source package, built for the board's defconfig with the
//! profile's config fragment (bootstage on, silent console possible, no autoboot delay), with
//! its built-in environment as text (`u-boot-initial-env`) beside it.

use super::exec::{Cmd, Runner};
use anyhow::{bail, Context};
use std::path::{Path, PathBuf};

/// The cross compiler prefix.
pub const CROSS_COMPILE: &str = "aarch64-linux-gnu-";

/// What a U-Boot build leaves in its output directory, besides the objects.
pub const OUTPUTS: [&str; 3] = ["u-boot.bin", INITIAL_ENV, ".config"];
/// U-Boot's built-in environment, one `name=value` a line.
pub const INITIAL_ENV: &str = "u-boot-initial-env";

/// Configures and builds U-Boot in `src` with objects in `out`: `u-boot.bin`, and the
/// [`OUTPUTS`] beside it.
pub fn build(
    r: &Runner,
    src: &Path,
    out: &Path,
    defconfig: &str,
    fragment: &[String],
    jobs: usize,
) -> anyhow::Result<PathBuf> {
    std::fs::create_dir_all(out)?;
    // Reproducible banner date: the source package's changelog date.
    let epoch = r
        .read(
            Cmd::new("dpkg-parsechangelog")
                .args(["-S", "Timestamp", "-l"])
                .arg(src.join("debian/changelog")),
        )
        .map(|s| s.trim().to_string())
        .unwrap_or_default();
    let make = |extra: &[&str]| {
        let mut c = Cmd::new("make")
            .arg("-C")
            .arg(src)
            .arg(format!("O={}", out.display()))
            .arg(format!("CROSS_COMPILE={CROSS_COMPILE}"))
            .args(extra.iter().copied());
        if !epoch.is_empty() {
            c = c.env("SOURCE_DATE_EPOCH", epoch.as_str());
        }
        c
    };
    r.run(make(&[defconfig]))?;
    let config = out.join(".config");
    let mut text = std::fs::read_to_string(&config)
        .with_context(|| format!("{} missing after {defconfig}", config.display()))?;
    text.push_str("\n# perfguide board profile [image] uboot_fragment\n");
    for line in fragment {
        text.push_str(line);
        text.push('\n');
    }
    std::fs::write(&config, text)?;
    r.run(make(&["olddefconfig"]))?;
    check_fragment(&std::fs::read_to_string(&config)?, fragment)?;
    r.run(make(&[&format!("-j{jobs}")]))?;
    r.run(make(&[INITIAL_ENV]))?;
    for name in OUTPUTS {
        if !out.join(name).exists() {
            bail!("U-Boot build produced no {}", out.join(name).display());
        }
    }
    Ok(out.join("u-boot.bin"))
}

/// Every fragment line took effect in the final `.config` (Kconfig drops options whose
/// dependencies are not met, silently).
pub fn check_fragment(config: &str, fragment: &[String]) -> anyhow::Result<()> {
    for line in fragment {
        let line = line.trim();
        if line.is_empty() || (line.starts_with('#') && !line.ends_with("is not set")) {
            continue;
        }
        let ok = if let Some(sym) = line
            .strip_prefix("# ")
            .and_then(|l| l.strip_suffix(" is not set"))
        {
            !config.lines().any(|l| l.starts_with(&format!("{sym}=")))
        } else if let Some(sym) = line.strip_suffix("=n") {
            !config.lines().any(|l| l.starts_with(&format!("{sym}=")))
        } else {
            config.lines().any(|l| l.trim() == line)
        };
        if !ok {
            bail!("U-Boot config fragment line {line:?} did not take effect (a dependency is missing?)");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fragment_check() {
        let cfg = "CONFIG_BOOTSTAGE=y\n# CONFIG_FOO is not set\nCONFIG_BOOTDELAY=0\n";
        let f = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(check_fragment(cfg, &f(&["CONFIG_BOOTSTAGE=y", "CONFIG_BOOTDELAY=0"])).is_ok());
        assert!(check_fragment(cfg, &f(&["# CONFIG_FOO is not set", "CONFIG_FOO=n"])).is_ok());
        assert!(check_fragment(cfg, &f(&["CONFIG_BOOTSTAGE_FDT=y"])).is_err());
        assert!(check_fragment(cfg, &f(&["# CONFIG_BOOTSTAGE is not set"])).is_err());
    }
}
