//! The U-Boot source of the instrumented boot-loader builds: the release pinned in
//! `images/uboot/source.toml` (Debian's upstream tarball), or a tree the user gives; unpacked
//! or copied and patched with the Yocto layer's patches, as a recipe's `do_patch` does.

use super::exec::{Cmd, Runner};
use anyhow::{bail, Context};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// `images/uboot/source.toml`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PinnedSource {
    /// Debian source package.
    pub package: String,
    /// Its version (the suite's).
    pub version: String,
    /// The suite whose deb-src entry holds it.
    pub suite: String,
    /// The upstream tarball's file name.
    pub tarball: String,
    /// The tarball's SHA-256.
    pub sha256: String,
    /// The directory the tarball unpacks into.
    pub top: String,
    /// `SOURCE_DATE_EPOCH` of the builds.
    pub epoch: u64,
}

impl PinnedSource {
    /// The built-in pin.
    pub fn builtin() -> PinnedSource {
        toml::from_str(include_str!("../../../images/uboot/source.toml"))
            .expect("images/uboot/source.toml is valid (checked by a test)")
    }

    /// How the source is named in results: `u-boot 2025.01-3+deb13u1 (u-boot_2025.01.orig...)`.
    pub fn describe(&self) -> String {
        format!("{} {} ({})", self.package, self.version, self.tarball)
    }
}

/// Where a build's U-Boot comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// The pinned tarball.
    Pinned(PinnedSource),
    /// A U-Boot tree on disk (`--source`), copied before it is patched.
    Dir(PathBuf),
}

impl Source {
    /// How the source is named in results and keys.
    pub fn describe(&self) -> String {
        match self {
            Source::Pinned(p) => p.describe(),
            Source::Dir(d) => format!("tree {}", d.display()),
        }
    }

    /// `SOURCE_DATE_EPOCH` of builds from it.
    pub fn epoch(&self) -> Option<String> {
        match self {
            Source::Pinned(p) => Some(p.epoch.to_string()),
            Source::Dir(_) => None,
        }
    }

    /// Unpacks (or copies) the source into `dest` (replaced) and applies `patches` in order,
    /// each with `patch -p1 --fuzz=0`: a patch that does not apply exactly (offsets allowed,
    /// as in a recipe's do_patch without fuzz) is an error naming it. `cache` keeps the
    /// fetched tarball.
    pub fn prepare(
        &self,
        r: &Runner,
        cache: &Path,
        dest: &Path,
        patches: &[(String, Vec<u8>)],
    ) -> anyhow::Result<()> {
        if dest.exists() {
            std::fs::remove_dir_all(dest)
                .with_context(|| format!("cannot remove {}", dest.display()))?;
        }
        let parent = dest.parent().context("a source directory has a parent")?;
        std::fs::create_dir_all(parent)?;
        match self {
            Source::Pinned(p) => {
                let tarball = r.step(
                    &format!("fetch {} (apt-get source --tar-only)", p.describe()),
                    || {
                        super::apt::source_tarball(
                            r,
                            &cache.join("src"),
                            &p.package,
                            &p.version,
                            &p.tarball,
                            &p.sha256,
                        )
                    },
                )?;
                let unpack = parent.join(format!(".unpack-{}", std::process::id()));
                let _ = std::fs::remove_dir_all(&unpack);
                std::fs::create_dir_all(&unpack)?;
                let unpacked = r.step(&format!("unpack {}", p.tarball), || {
                    r.run(
                        Cmd::new("tar")
                            .arg("-xf")
                            .arg(&tarball)
                            .arg("-C")
                            .arg(&unpack),
                    )
                });
                if unpacked.is_err() {
                    let _ = std::fs::remove_dir_all(&unpack);
                }
                unpacked?;
                let top = unpack.join(&p.top);
                if !top.is_dir() {
                    bail!("{} did not unpack into {}", p.tarball, p.top);
                }
                std::fs::rename(&top, dest)?;
                let _ = std::fs::remove_dir_all(&unpack);
            }
            Source::Dir(d) => {
                if !d.join("Makefile").is_file() || !d.join("Kconfig").is_file() {
                    bail!(
                        "{} is not a U-Boot source tree (no Makefile and Kconfig)",
                        d.display()
                    );
                }
                r.step(&format!("copy {}", d.display()), || {
                    r.run(
                        Cmd::new("cp")
                            .args(["-a", "--reflink=auto"])
                            .arg(d)
                            .arg(dest),
                    )
                })?;
            }
        }
        let patch_dir = dest.join(".perfguide-patches");
        std::fs::create_dir_all(&patch_dir)?;
        for (name, text) in patches {
            let file = patch_dir.join(name);
            std::fs::write(&file, text)?;
            r.run(
                Cmd::new("patch")
                    .args(["-p1", "--fuzz=0", "--forward", "--batch", "-i"])
                    .arg(&file)
                    .arg("-d")
                    .arg(dest),
            )
            .with_context(|| {
                format!(
                    "the layer's patch {name} does not apply to {}",
                    self.describe()
                )
            })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pin_reads() {
        let p = PinnedSource::builtin();
        assert_eq!(p.package, "u-boot");
        assert_eq!(p.sha256.len(), 64);
        assert!(p.tarball.starts_with("u-boot_") && p.tarball.contains(".orig.tar"));
        assert!(p.describe().contains(&p.version));
    }
}
