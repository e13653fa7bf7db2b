//! Benchmarks built here as static arm64 programs from the distribution's source package
//! (`[image] static_benches`), for tools whose distribution binary links optional libraries
//! the initramfs would have to carry and unpack at every boot: Debian's fio needs librados,
//! librbd and glusterfs, over 30 MB. Each tool has a [`Recipe`]: how its source configures
//! and which programs the build leaves. The programs are stripped and cached by source
//! version and recipe.

use super::exec::{Cmd, Runner};
use super::uboot::CROSS_COMPILE;
use anyhow::bail;
use std::path::{Path, PathBuf};

/// How one package builds static for arm64 from its source package.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Recipe {
    /// The package (`[image] static_benches`): the apt index's arm64 binary of this name
    /// gives the source package and version to build.
    pub package: &'static str,
    /// Arguments of the source's `./configure`; `{cc}` is the cross C compiler.
    pub configure: &'static [&'static str],
    /// Programs the build leaves in the source tree, installed in `/usr/bin`.
    pub programs: &'static [&'static str],
}

/// The tools that can be built.
pub const RECIPES: &[Recipe] = &[Recipe {
    package: "fio",
    // fio's own configure script (not autoconf). The optional engines whose libraries the
    // cross sysroot lacks (libaio, zlib, rados, ...) are left out; the psync/sync engines
    // the runner uses are always there.
    configure: &["--cc={cc}", "--build-static", "--disable-native"],
    programs: &["fio"],
}];

/// The recipe of `package`, or an error naming the ones there are.
pub fn recipe(package: &str) -> anyhow::Result<&'static Recipe> {
    match RECIPES.iter().find(|r| r.package == package) {
        Some(r) => Ok(r),
        None => bail!(
            "[image] static_benches: no static build recipe for {package:?} (there are: {}; \
             recipes live in profiler/src/image/static_bench.rs)",
            RECIPES
                .iter()
                .map(|r| r.package)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

impl Recipe {
    /// The configure arguments with the compiler filled in.
    pub fn configure_args(&self) -> Vec<String> {
        let cc = format!("{CROSS_COMPILE}gcc");
        self.configure
            .iter()
            .map(|a| a.replace("{cc}", &cc))
            .collect()
    }

    /// Configures and builds the unpacked source `src`, then writes each program stripped to
    /// `out`; returns their paths.
    pub fn build(
        &self,
        r: &Runner,
        src: &Path,
        out: &Path,
        jobs: usize,
    ) -> anyhow::Result<Vec<PathBuf>> {
        r.run(
            Cmd::new(&src.join("configure").to_string_lossy())
                .args(self.configure_args())
                .dir(src),
        )?;
        r.run(Cmd::new("make").arg(format!("-j{jobs}")).dir(src))?;
        std::fs::create_dir_all(out)?;
        let mut built = Vec::new();
        for p in self.programs {
            let from = src.join(p);
            if !from.exists() {
                bail!("the {} build produced no {}", self.package, from.display());
            }
            let to = out.join(p);
            r.run(
                Cmd::new(&format!("{CROSS_COMPILE}strip"))
                    .arg("-o")
                    .arg(&to)
                    .arg(&from),
            )?;
            check_static_arm64(&to)?;
            built.push(to);
        }
        Ok(built)
    }
}

/// The file is an arm64 ELF executable with no program interpreter (static).
pub fn check_static_arm64(path: &Path) -> anyhow::Result<()> {
    let bytes = std::fs::read(path)?;
    const EM_AARCH64: u16 = 183;
    let machine = bytes.get(18..20).map(|b| u16::from_le_bytes([b[0], b[1]]));
    if !bytes.starts_with(b"\x7fELF") || machine != Some(EM_AARCH64) {
        bail!("{} is not an arm64 ELF file", path.display());
    }
    match super::rootfs::elf_deps(&bytes) {
        Some((None, needed, _)) if needed.is_empty() => Ok(()),
        Some((interp, needed, _)) => bail!(
            "{} is not static (interpreter {interp:?}, needs {needed:?})",
            path.display()
        ),
        None => bail!("{} is not an ELF file this reader knows", path.display()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fio_has_a_recipe_and_others_are_named() {
        let fio = recipe("fio").unwrap();
        assert_eq!(
            fio.configure_args(),
            [
                "--cc=aarch64-linux-gnu-gcc",
                "--build-static",
                "--disable-native"
            ]
        );
        let e = recipe("lmbench").unwrap_err().to_string();
        assert!(
            e.contains("\"lmbench\"") && e.contains("there are: fio"),
            "{e}"
        );
    }

    #[test]
    fn a_host_program_is_not_a_static_arm64_one() {
        let e = check_static_arm64(Path::new("/bin/sh"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("not an arm64 ELF"), "{e}");
    }
}
