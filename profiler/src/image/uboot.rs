//! Configuring and compiling U-Boot the way the Yocto layer's recipes do: the defconfig, then
//! the config fragments merged with U-Boot's `scripts/kconfig/merge_config.sh -m` and resolved
//! with `olddefconfig` (oe-core's `u-boot-configure.inc`), then a check that every line of every
//! fragment is in the final `.config` (Kconfig drops a symbol whose dependencies are not met,
//! silently), then `make`. Used by the QEMU reference image (`image/mod.rs`) and the
//! instrumented boot-loader builds (`image/bootloader.rs`).

use super::exec::{Cmd, Runner};
use anyhow::{bail, Context};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The cross compiler prefix of the QEMU reference image (arm64).
pub const CROSS_COMPILE: &str = "aarch64-linux-gnu-";

/// What the QEMU reference image's U-Boot build leaves in its output directory, besides the
/// objects.
pub const OUTPUTS: [&str; 3] = ["u-boot.bin", INITIAL_ENV, ".config"];
/// U-Boot's built-in environment, one `name=value` a line.
pub const INITIAL_ENV: &str = "u-boot-initial-env";

/// A Kconfig fragment: its text and where it came from (named in errors).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fragment {
    /// A file name, or what holds the lines (`qemu-arm64 [image] uboot_fragment`).
    pub name: String,
    /// `CONFIG_X=y` and `# CONFIG_Y is not set` lines, comments allowed.
    pub text: String,
}

impl Fragment {
    /// Reads a fragment file.
    pub fn from_file(path: &Path) -> anyhow::Result<Fragment> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read U-Boot config fragment {}", path.display()))?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string());
        Ok(Fragment { name, text })
    }

    /// Fragment lines given inline (a board profile's).
    pub fn from_lines(name: &str, lines: &[String]) -> Fragment {
        let mut text = String::new();
        for l in lines {
            text.push_str(l);
            text.push('\n');
        }
        Fragment {
            name: name.to_string(),
            text,
        }
    }
}

/// How one U-Boot tree is configured and compiled.
#[derive(Debug, Clone)]
pub struct Make<'a> {
    /// The source tree.
    pub src: &'a Path,
    /// The output directory (`O=`).
    pub out: &'a Path,
    /// `CROSS_COMPILE`, empty for the host.
    pub cross_compile: &'a str,
    /// `SOURCE_DATE_EPOCH` (the banner's date), when known.
    pub epoch: Option<String>,
    /// Extra `make` variables (`BINMAN_ALLOW_MISSING=1`).
    pub vars: Vec<String>,
}

impl Make<'_> {
    fn cmd(&self, extra: &[&str]) -> Cmd {
        let mut c = Cmd::new("make")
            .arg("-C")
            .arg(self.src)
            .arg(format!("O={}", self.out.display()))
            .arg(format!("CROSS_COMPILE={}", self.cross_compile))
            .args(self.vars.iter().map(String::as_str))
            .args(extra.iter().copied())
            .env("PATH", distribution_python_path());
        if let Some(e) = &self.epoch {
            c = c.env("SOURCE_DATE_EPOCH", e.as_str());
        }
        c
    }

    /// `make <defconfig>`, the fragments merged in order, `make olddefconfig`, and the check
    /// that every fragment line took effect. The fragments are written to
    /// `<out>/perfguide-fragments/` for the record.
    pub fn configure(
        &self,
        r: &Runner,
        defconfig: &str,
        fragments: &[Fragment],
    ) -> anyhow::Result<()> {
        std::fs::create_dir_all(self.out)?;
        r.run(self.cmd(&[defconfig]))?;
        if !fragments.is_empty() {
            let dir = self.out.join("perfguide-fragments");
            std::fs::create_dir_all(&dir)?;
            let mut files = Vec::new();
            for (i, f) in fragments.iter().enumerate() {
                let p = dir.join(format!("{:02}-{}", i + 1, sanitize(&f.name)));
                std::fs::write(&p, &f.text)?;
                files.push(p);
            }
            r.run(
                Cmd::new("sh")
                    .arg(self.src.join("scripts/kconfig/merge_config.sh"))
                    .args(["-m", "-O"])
                    .arg(self.out)
                    .arg(self.out.join(".config"))
                    .args(files)
                    .dir(self.src),
            )?;
        }
        r.run(self.cmd(&["olddefconfig"]))?;
        let config = std::fs::read_to_string(self.out.join(".config"))
            .with_context(|| format!("no .config in {} after {defconfig}", self.out.display()))?;
        for f in fragments {
            check_fragment(&config, f, defconfig)?;
        }
        Ok(())
    }

    /// `make -j<jobs> [targets]`.
    pub fn compile(&self, r: &Runner, jobs: usize, targets: &[&str]) -> anyhow::Result<()> {
        let j = format!("-j{}", jobs.max(1));
        let mut extra = vec![j.as_str()];
        extra.extend_from_slice(targets);
        r.run(self.cmd(&extra))
    }
}

/// `PATH` with the distribution's `/usr/bin` first: binman and U-Boot's other Python tools
/// start with `#!/usr/bin/env python3` and need the distribution's Python, whose modules
/// (yaml, jsonschema, yamllint, elftools) `scripts/setup-host.sh` installs, not another
/// `python3` earlier on the caller's PATH.
fn distribution_python_path() -> OsString {
    let mut p = OsString::from("/usr/bin");
    if let Some(rest) = std::env::var_os("PATH") {
        p.push(":");
        p.push(rest);
    }
    p
}

/// A file name made of the fragment's name.
fn sanitize(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Every line of `fragment` took effect in the final `config`: a `CONFIG_X=v` line is there as
/// written, a `# CONFIG_X is not set` (or `CONFIG_X=n`) has no `CONFIG_X=` line. The error
/// names the fragment, the line number, the line and what the `.config` has instead.
pub fn check_fragment(config: &str, fragment: &Fragment, defconfig: &str) -> anyhow::Result<()> {
    for (i, line) in fragment.text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || (line.starts_with('#') && !line.ends_with("is not set")) {
            continue;
        }
        let unset = line
            .strip_prefix("# ")
            .and_then(|l| l.strip_suffix(" is not set"))
            .or_else(|| line.strip_suffix("=n"));
        let sym = unset.unwrap_or_else(|| line.split('=').next().unwrap_or(line));
        let have = config
            .lines()
            .find(|l| {
                l.strip_prefix(sym)
                    .is_some_and(|rest| rest.starts_with('='))
                    || l.trim() == format!("# {sym} is not set")
            })
            .map(str::trim);
        let ok = match unset {
            Some(_) => !have.is_some_and(|h| h.starts_with(sym)),
            None => have == Some(line),
        };
        if !ok {
            let instead = match have {
                Some(h) => format!("the .config has `{h}`"),
                None => format!("the .config has no {sym} (Kconfig dropped it)"),
            };
            bail!(
                "U-Boot config fragment {} line {}: `{line}` did not take effect with {defconfig}: \
                 {instead}; a dependency of {sym} is not met",
                fragment.name,
                i + 1
            );
        }
    }
    Ok(())
}

/// The value of `CONFIG_<sym>` in a `.config` text, unquoted.
pub fn config_value<'a>(config: &'a str, sym: &str) -> Option<&'a str> {
    config.lines().find_map(|l| {
        l.strip_prefix("CONFIG_")
            .and_then(|l| l.strip_prefix(sym))
            .and_then(|l| l.strip_prefix('='))
            .map(|v| v.trim().trim_matches('"'))
    })
}

/// A `.config` number (`0x3B000`, `4096`).
pub fn config_number(config: &str, sym: &str) -> Option<u64> {
    let v = config_value(config, sym)?;
    match v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => v.parse().ok(),
    }
}

/// Configures and builds the QEMU reference image's U-Boot in `src` with objects in `out`:
/// `u-boot.bin`, and the [`OUTPUTS`] beside it.
pub fn build_reference(
    r: &Runner,
    src: &Path,
    out: &Path,
    defconfig: &str,
    fragments: &[Fragment],
    jobs: usize,
) -> anyhow::Result<PathBuf> {
    // Reproducible banner date: the source package's changelog date.
    let epoch = r
        .read(
            Cmd::new("dpkg-parsechangelog")
                .args(["-S", "Timestamp", "-l"])
                .arg(src.join("debian/changelog")),
        )
        .map(|s| s.trim().to_string())
        .ok()
        .filter(|s| !s.is_empty());
    let make = Make {
        src,
        out,
        cross_compile: CROSS_COMPILE,
        epoch,
        vars: Vec::new(),
    };
    make.configure(r, defconfig, fragments)?;
    make.compile(r, jobs, &[])?;
    make.compile(r, 1, &[INITIAL_ENV])?;
    for name in OUTPUTS {
        if !out.join(name).exists() {
            bail!("U-Boot build produced no {}", out.join(name).display());
        }
    }
    Ok(out.join("u-boot.bin"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frag(lines: &[&str]) -> Fragment {
        Fragment {
            name: "f.cfg".into(),
            text: lines.join("\n"),
        }
    }

    #[test]
    fn fragment_check() {
        let cfg = "CONFIG_BOOTSTAGE=y\n# CONFIG_FOO is not set\nCONFIG_BOOTDELAY=0\n";
        let ok = |l: &[&str]| check_fragment(cfg, &frag(l), "x_defconfig");
        assert!(ok(&["CONFIG_BOOTSTAGE=y", "CONFIG_BOOTDELAY=0"]).is_ok());
        assert!(ok(&["# comment", "", "# CONFIG_FOO is not set", "CONFIG_FOO=n"]).is_ok());
        let e = ok(&["CONFIG_BOOTSTAGE=y", "CONFIG_BOOTSTAGE_FDT=y"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("f.cfg line 2"), "{e}");
        assert!(e.contains("CONFIG_BOOTSTAGE_FDT=y"), "{e}");
        assert!(e.contains("Kconfig dropped it"), "{e}");
        assert!(e.contains("x_defconfig"), "{e}");
        let e = ok(&["# CONFIG_BOOTSTAGE is not set"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("`CONFIG_BOOTSTAGE=y`"), "{e}");
        // A value Kconfig changed (out of range, say) names what the .config has.
        let e = ok(&["CONFIG_BOOTDELAY=2"]).unwrap_err().to_string();
        assert!(e.contains("the .config has `CONFIG_BOOTDELAY=0`"), "{e}");
        // A symbol is not taken for another that starts with its name.
        let e = ok(&["CONFIG_BOOT=y"]).unwrap_err().to_string();
        assert!(e.contains("no CONFIG_BOOT "), "{e}");
    }

    #[test]
    fn config_values() {
        let cfg = "CONFIG_SPL_MAX_SIZE=0x3B000\nCONFIG_SPL_SIZE_LIMIT=0\nCONFIG_X=\"a b\"\n";
        assert_eq!(config_number(cfg, "SPL_MAX_SIZE"), Some(0x3b000));
        assert_eq!(config_number(cfg, "SPL_SIZE_LIMIT"), Some(0));
        assert_eq!(config_number(cfg, "SPL_BSS_MAX_SIZE"), None);
        assert_eq!(config_value(cfg, "X"), Some("a b"));
        assert_eq!(config_value(cfg, "SPL_MAX"), None);
    }
}
