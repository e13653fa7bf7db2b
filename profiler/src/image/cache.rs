//! Content keys, file hashes, the image manifest and the cache lock.

use anyhow::Context;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};

/// The cache directory: `$PERFGUIDE_CACHE`, else `$XDG_CACHE_HOME/perfguide`, else
/// `$HOME/.cache/perfguide`.
pub fn cache_dir() -> PathBuf {
    let non_empty = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    if let Some(d) = non_empty("PERFGUIDE_CACHE") {
        return PathBuf::from(d);
    }
    if let Some(d) = non_empty("XDG_CACHE_HOME") {
        return PathBuf::from(d).join("perfguide");
    }
    let home = non_empty("HOME").unwrap_or_else(|| "/root".into());
    PathBuf::from(home).join(".cache").join("perfguide")
}

/// Builds a content key from labelled inputs (order matters; labels keep fields apart).
#[derive(Default)]
pub struct KeyBuilder {
    h: Sha256,
}

impl KeyBuilder {
    /// Adds a labelled string.
    pub fn add(&mut self, label: &str, value: &str) -> &mut Self {
        for part in [label.as_bytes(), value.as_bytes()] {
            self.h.update((part.len() as u64).to_le_bytes());
            self.h.update(part);
        }
        self
    }

    /// Adds labelled bytes.
    pub fn add_bytes(&mut self, label: &str, value: &[u8]) -> &mut Self {
        self.h.update((label.len() as u64).to_le_bytes());
        self.h.update(label.as_bytes());
        self.h.update((value.len() as u64).to_le_bytes());
        self.h.update(value);
        self
    }

    /// The key, hex.
    pub fn finish(&self) -> String {
        hex(&self.h.clone().finalize())
    }
}

pub use crate::digest::hex;

/// SHA-256 of a file, hex.
pub fn sha256_file(path: &Path) -> anyhow::Result<String> {
    let (sha256, _) = crate::digest::sha256_file(path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    Ok(sha256)
}

/// One file of the built image.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct FileEntry {
    /// File name inside the image directory.
    pub name: String,
    /// SHA-256, hex.
    pub sha256: String,
    /// Size in bytes.
    pub size: u64,
}

/// `image.json`: what was built, from what.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Manifest {
    /// `perfguide/image/v1`.
    pub schema: String,
    /// Board profile id.
    pub board: String,
    /// Content key of all inputs; equal keys mean equal images.
    pub cache_key: String,
    /// Key of the local inputs plus the apt index state: lets a rebuild with nothing changed
    /// skip even the package resolution.
    pub quick_key: String,
    /// When the image was built (RFC 3339).
    pub built_at: String,
    /// perfguide version that built it.
    pub tool_version: String,
    /// Wall time of the build, seconds.
    pub build_seconds: f64,
    /// The files: `u-boot.bin`, `disk.img`, and the parts inside the disk.
    pub files: Vec<FileEntry>,
    /// Distribution packages used, name -> version (`source:` prefix for source packages).
    pub packages: BTreeMap<String, String>,
    /// Kernel command line written to `extlinux.conf`.
    pub kernel_cmdline: String,
    /// The Yocto layer's U-Boot config fragments merged on top of the defconfig (file names).
    #[serde(default)]
    pub uboot_fragments: Vec<String>,
    /// The board's own U-Boot config lines merged after them.
    pub uboot_fragment: Vec<String>,
    /// Benchmark programs installed in the root file system (paths in the target).
    pub benchmarks: Vec<String>,
    /// Kernel modules in the initramfs, in load order (none is loaded at boot).
    #[serde(default)]
    pub modules: Vec<String>,
}

impl Manifest {
    /// Reads `image.json`.
    pub fn load(path: &Path) -> anyhow::Result<Self> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        serde_json::from_str(&text)
            .with_context(|| format!("{} is not a valid image manifest", path.display()))
    }

    /// Writes `image.json` atomically.
    pub fn save(&self, path: &Path) -> anyhow::Result<()> {
        let tmp = path.with_extension("json.tmp");
        std::fs::write(&tmp, serde_json::to_string_pretty(self)? + "\n")?;
        std::fs::rename(&tmp, path)?;
        Ok(())
    }

    /// The entry of a file.
    pub fn file(&self, name: &str) -> Option<&FileEntry> {
        self.files.iter().find(|f| f.name == name)
    }

    /// Whether the files named in the manifest exist in `dir` with their recorded sizes
    /// (`deep`: and hashes).
    pub fn files_intact(&self, dir: &Path, deep: bool) -> bool {
        self.files
            .iter()
            .filter(|f| !f.name.contains('/'))
            .all(|f| {
                let p = dir.join(&f.name);
                match std::fs::metadata(&p) {
                    Ok(m) if m.len() == f.size => {
                        !deep || sha256_file(&p).ok().as_deref() == Some(&f.sha256)
                    }
                    _ => false,
                }
            })
    }
}

/// An exclusive lock on a file in the cache, held until dropped (two builds of the same board
/// never interleave).
pub struct Lock {
    _file: File,
}

impl Lock {
    fn open(path: &Path) -> anyhow::Result<File> {
        if let Some(d) = path.parent() {
            std::fs::create_dir_all(d)?;
        }
        File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)
            .with_context(|| format!("cannot open lock {}", path.display()))
    }

    /// Blocks until the lock at `path` is ours.
    pub fn acquire(path: &Path) -> anyhow::Result<Self> {
        let file = Self::open(path)?;
        if !crate::flock::try_lock_exclusive(&file).unwrap_or(false) {
            eprintln!(
                "perfguide image: waiting for another build holding {}",
                path.display()
            );
            crate::flock::lock_exclusive(&file)
                .with_context(|| format!("cannot lock {}", path.display()))?;
        }
        Ok(Self { _file: file })
    }

    /// Blocks until no one holds the lock at `path` exclusively, then holds it shared.
    pub fn shared(path: &Path) -> anyhow::Result<Self> {
        let file = Self::open(path)?;
        crate::flock::lock_shared(&file)
            .with_context(|| format!("cannot lock {}", path.display()))?;
        Ok(Self { _file: file })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_separates_fields() {
        let a = KeyBuilder::default().add("a", "bc").finish();
        let b = KeyBuilder::default().add("ab", "c").finish();
        assert_ne!(a, b);
        assert_eq!(a, KeyBuilder::default().add("a", "bc").finish());
    }
}
