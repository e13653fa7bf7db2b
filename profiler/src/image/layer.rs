//! Where the Yocto layer's U-Boot files are: the config fragments and patches that
//! `meta-perfguide`'s bbappends give to the boards' U-Boot recipes, which the QEMU reference
//! image and `perfguide image uboot` apply too (one copy of each).

use super::uboot::Fragment;
use anyhow::{bail, Context};
use std::path::{Path, PathBuf};

/// `meta-perfguide/recipes-bsp/u-boot/files/`. Overridable with `PERFGUIDE_UBOOT_FILES`.
pub fn uboot_files_dir() -> PathBuf {
    match std::env::var_os("PERFGUIDE_UBOOT_FILES") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../meta-perfguide/recipes-bsp/u-boot/files")
        }
    }
}

/// A file of the layer's U-Boot files by name; an error naming the directory when missing.
pub fn uboot_file(name: &str) -> anyhow::Result<PathBuf> {
    let dir = uboot_files_dir();
    let p = dir.join(name);
    if !p.is_file() {
        bail!(
            "{name} is not among the layer's U-Boot files ({}; set PERFGUIDE_UBOOT_FILES to \
             use another directory)",
            dir.display()
        );
    }
    Ok(p)
}

/// The layer's config fragments `names`, read.
pub fn fragments(names: &[String]) -> anyhow::Result<Vec<Fragment>> {
    names
        .iter()
        .map(|n| Fragment::from_file(&uboot_file(n)?))
        .collect()
}

/// The layer's patches `names`, (name, text), in order; a name with `*` stands for the files
/// it matches, in name order (`*.patch`: the whole series, numbered as `git format-patch`
/// numbers it). A pattern that matches nothing is an error.
pub fn patches(names: &[String]) -> anyhow::Result<Vec<(String, Vec<u8>)>> {
    let mut out = Vec::new();
    for n in names {
        let files = if n.contains('*') {
            let dir = uboot_files_dir();
            let mut m: Vec<String> = std::fs::read_dir(&dir)
                .with_context(|| format!("cannot list {}", dir.display()))?
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|f| wildcard(n, f))
                .collect();
            m.sort();
            if m.is_empty() {
                bail!(
                    "no file of the layer's U-Boot files ({}) matches {n:?}",
                    dir.display()
                );
            }
            m
        } else {
            vec![n.clone()]
        };
        for f in files {
            let p = uboot_file(&f)?;
            let text = std::fs::read(&p)
                .with_context(|| format!("cannot read U-Boot patch {}", p.display()))?;
            out.push((f, text));
        }
    }
    Ok(out)
}

/// Whether `name` matches `pattern`, whose `*`s match any run of characters.
fn wildcard(pattern: &str, name: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !name.starts_with(first) || name.len() < first.len() + last.len() || !name.ends_with(last) {
        return false;
    }
    let mut rest = &name[first.len()..name.len() - last.len()];
    for mid in &parts[1..parts.len() - 1] {
        match rest.find(mid) {
            Some(i) => rest = &rest[i + mid.len()..],
            None => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards() {
        assert!(wildcard("*.patch", "0001-a.patch"));
        assert!(!wildcard("*.patch", "a.cfg"));
        assert!(wildcard("00*-spl-*.patch", "0003-spl-x.patch"));
        assert!(!wildcard("00*-spl-*.patch", "0003-ram-x.patch"));
        assert!(wildcard("a*a", "aa"));
        assert!(!wildcard("a*a", "a"));
    }

    #[test]
    fn the_layer_series_reads_in_order() {
        let p = patches(&["*.patch".to_string()]).unwrap();
        assert!(p.len() >= 2);
        let names: Vec<&str> = p.iter().map(|(n, _)| n.as_str()).collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted);
        assert!(p.iter().all(|(_, t)| t.starts_with(b"From ")));
        let e = patches(&["*.nothing".to_string()]).unwrap_err().to_string();
        assert!(e.contains("matches \"*.nothing\""), "{e}");
    }
}
