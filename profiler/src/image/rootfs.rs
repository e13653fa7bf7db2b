//! The root file system, packed as an initramfs: static busybox with busybox init (a getty on
//! the console ends the boot at a `login:` prompt), the benchmark programs the distribution
//! ships for arm64 with exactly the shared objects they need, and the target-side programs of
//! the Yocto layer (`meta-perfguide/recipes-benchmark/*/files/`).
//!
//! An initramfs needs no block driver in the kernel: Debian's cloud kernel has virtio-blk as a
//! module, so U-Boot reads the disk and Linux never has to.

use super::exec::{Cmd, Runner};
use anyhow::{bail, Context};
use std::collections::BTreeSet;
use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::{Component, Path, PathBuf};

/// The overlay from `images/qemu/rootfs/`: `(path, contents, mode)`.
pub const OVERLAY: &[(&str, &[u8], u32)] = &[
    (
        "etc/inittab",
        include_bytes!("../../../images/qemu/rootfs/etc/inittab"),
        0o644,
    ),
    (
        "etc/init.d/rcS",
        include_bytes!("../../../images/qemu/rootfs/etc/init.d/rcS"),
        0o755,
    ),
    (
        "etc/passwd",
        include_bytes!("../../../images/qemu/rootfs/etc/passwd"),
        0o644,
    ),
    (
        "etc/group",
        include_bytes!("../../../images/qemu/rootfs/etc/group"),
        0o644,
    ),
    (
        "etc/profile",
        include_bytes!("../../../images/qemu/rootfs/etc/profile"),
        0o644,
    ),
    (
        "etc/issue",
        include_bytes!("../../../images/qemu/rootfs/etc/issue"),
        0o644,
    ),
];

/// Where shared objects are looked up in an unpacked arm64 sysroot.
const LIB_DIRS: &[&str] = &[
    "lib/aarch64-linux-gnu",
    "usr/lib/aarch64-linux-gnu",
    "lib",
    "usr/lib",
];

/// Parts of benchmark packages that the target does not need.
const SKIP_PREFIXES: &[&str] = &["usr/share"];

/// What goes into the root file system.
pub struct RootfsInputs<'a> {
    /// Unpacked busybox-static package.
    pub busybox: &'a Path,
    /// Unpacked benchmark packages.
    pub benches: &'a [PathBuf],
    /// All library packages unpacked into one tree, where shared objects are looked up.
    pub sysroot: &'a Path,
    /// Target-side programs (the layer's `recipes-benchmark/*/files/`), copied to `/usr/bin`.
    pub target_files: &'a [PathBuf],
    /// `/etc/hostname`.
    pub hostname: &'a str,
}

/// Result of [`populate`].
pub struct RootfsInfo {
    /// Executables installed from the benchmark packages and the target programs (target paths).
    pub programs: Vec<String>,
    /// Shared objects copied in (target paths).
    pub libraries: Vec<String>,
}

/// Fills `root` (which must not exist yet).
pub fn populate(root: &Path, inp: &RootfsInputs) -> anyhow::Result<RootfsInfo> {
    for d in [
        "bin",
        "sbin",
        "usr/bin",
        "usr/sbin",
        "etc/init.d",
        "proc",
        "sys",
        "dev",
        "tmp",
        "run",
        "root",
        "var/log",
        "mnt",
    ] {
        std::fs::create_dir_all(root.join(d))?;
    }
    std::fs::set_permissions(root.join("tmp"), std::fs::Permissions::from_mode(0o1777))?;

    let bb = inp.busybox.join("bin/busybox");
    if !bb.exists() {
        bail!("{} missing from busybox-static", bb.display());
    }
    copy_file(&bb, &root.join("bin/busybox"))?;
    // The links init needs before rcS runs `busybox --install -s`.
    symlink("bin/busybox", root.join("init"))?;
    for (link, target) in [
        ("bin/sh", "busybox"),
        ("sbin/init", "../bin/busybox"),
        ("sbin/getty", "../bin/busybox"),
    ] {
        symlink(target, root.join(link))?;
    }
    for (path, data, mode) in OVERLAY {
        let p = root.join(path);
        std::fs::write(&p, data)?;
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(*mode))?;
    }
    std::fs::write(root.join("etc/hostname"), format!("{}\n", inp.hostname))?;

    let mut programs = BTreeSet::new();
    for pkg in inp.benches {
        copy_tree(pkg, root, Path::new(""), &mut programs)?;
    }
    for f in inp.target_files {
        let name = f.file_name().context("target file without a name")?;
        let dest = root.join("usr/bin").join(name);
        copy_file(f, &dest)?;
        std::fs::set_permissions(&dest, std::fs::Permissions::from_mode(0o755))?;
        programs.insert(format!("/usr/bin/{}", name.to_string_lossy()));
    }

    let libraries = copy_needed_libs(root, inp.sysroot)?;
    Ok(RootfsInfo {
        programs: programs.into_iter().collect(),
        libraries,
    })
}

/// Copies a package tree into the root, skipping documentation; records executables.
fn copy_tree(
    src_root: &Path,
    dest_root: &Path,
    rel: &Path,
    programs: &mut BTreeSet<String>,
) -> anyhow::Result<()> {
    let dir = src_root.join(rel);
    let mut entries: Vec<_> = std::fs::read_dir(&dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let r = rel.join(e.file_name());
        let rs = r.to_string_lossy();
        if SKIP_PREFIXES
            .iter()
            .any(|p| rs == *p || rs.starts_with(&format!("{p}/")))
        {
            continue;
        }
        let ft = e.file_type()?;
        let dest = dest_root.join(&r);
        if ft.is_dir() {
            std::fs::create_dir_all(&dest)?;
            copy_tree(src_root, dest_root, &r, programs)?;
        } else if ft.is_symlink() {
            let _ = std::fs::remove_file(&dest);
            symlink(std::fs::read_link(e.path())?, &dest)?;
        } else if ft.is_file() {
            copy_file(&e.path(), &dest)?;
            let mode = e.metadata()?.permissions().mode();
            let parent = r.parent().map(|p| p.to_string_lossy().into_owned());
            let in_bin = matches!(
                parent.as_deref(),
                Some("bin" | "sbin" | "usr/bin" | "usr/sbin")
            );
            if in_bin && mode & 0o111 != 0 {
                programs.insert(format!("/{rs}"));
            }
        }
    }
    Ok(())
}

fn copy_file(src: &Path, dest: &Path) -> anyhow::Result<()> {
    if let Some(p) = dest.parent() {
        std::fs::create_dir_all(p)?;
    }
    let _ = std::fs::remove_file(dest);
    std::fs::copy(src, dest)
        .with_context(|| format!("cannot copy {} to {}", src.display(), dest.display()))?;
    Ok(())
}

/// The interpreter and `DT_NEEDED` entries of an arm64 ELF file; `None` if `bytes` is not one.
pub fn elf_deps(bytes: &[u8]) -> Option<(Option<String>, Vec<String>, Vec<String>)> {
    if !bytes.starts_with(b"\x7fELF") {
        return None;
    }
    let elf = goblin::elf::Elf::parse(bytes).ok()?;
    if elf.header.e_machine != goblin::elf::header::EM_AARCH64 {
        return None;
    }
    let runpaths = elf
        .runpaths
        .iter()
        .chain(elf.rpaths.iter())
        .flat_map(|p| p.split(':'))
        .map(str::to_string)
        .collect();
    Some((
        elf.interpreter.map(str::to_string),
        elf.libraries.iter().map(|s| s.to_string()).collect(),
        runpaths,
    ))
}

/// Resolves `rel` (a path inside `sysroot`) through symlinks, each taken relative to the
/// sysroot; returns the real file's path on the host.
fn resolve_in(sysroot: &Path, rel: &Path) -> Option<PathBuf> {
    let mut cur = normalize(rel)?;
    for _ in 0..32 {
        let host = sysroot.join(&cur);
        let meta = std::fs::symlink_metadata(&host).ok()?;
        if !meta.file_type().is_symlink() {
            return meta.is_file().then_some(host);
        }
        let target = std::fs::read_link(&host).ok()?;
        cur = if target.is_absolute() {
            normalize(target.strip_prefix("/").ok()?)?
        } else {
            normalize(&cur.parent().unwrap_or(Path::new("")).join(target))?
        };
    }
    None
}

/// Lexical normalisation of a relative path (`..` may not climb out).
fn normalize(p: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::Normal(n) => out.push(n),
            Component::CurDir | Component::RootDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::Prefix(_) => return None,
        }
    }
    Some(out)
}

/// Copies into `root` every shared object that the ELF files already in `root` need,
/// transitively, from `sysroot`. Fails when one cannot be found.
fn copy_needed_libs(root: &Path, sysroot: &Path) -> anyhow::Result<Vec<String>> {
    let mut todo: Vec<PathBuf> = Vec::new();
    walk_files(root, Path::new(""), &mut todo)?;
    let mut copied: BTreeSet<String> = BTreeSet::new();
    let mut missing: Vec<String> = Vec::new();
    while let Some(rel) = todo.pop() {
        let bytes = std::fs::read(root.join(&rel))?;
        let Some((interp, needed, runpaths)) = elf_deps(&bytes) else {
            continue;
        };
        let mut wanted: Vec<PathBuf> = Vec::new();
        if let Some(i) = interp {
            wanted.push(PathBuf::from(i.trim_start_matches('/')));
        }
        for lib in needed {
            let dirs = runpaths
                .iter()
                .map(|d| d.trim_start_matches('/').to_string())
                .chain(LIB_DIRS.iter().map(|d| d.to_string()));
            let mut found = None;
            for d in dirs {
                let cand = Path::new(&d).join(&lib);
                if root.join(&cand).exists() || resolve_in(sysroot, &cand).is_some() {
                    found = Some(cand);
                    break;
                }
            }
            match found {
                Some(c) => wanted.push(c),
                None => missing.push(format!("{lib} (needed by /{})", rel.display())),
            }
        }
        for w in wanted {
            let key = w.to_string_lossy().into_owned();
            if copied.contains(&key) || root.join(&w).exists() {
                continue;
            }
            let Some(src) = resolve_in(sysroot, &w) else {
                missing.push(format!("{key} (needed by /{})", rel.display()));
                continue;
            };
            copy_file(&src, &root.join(&w))?;
            copied.insert(key);
            todo.push(w);
        }
    }
    if !missing.is_empty() {
        bail!(
            "shared objects not found in the unpacked library packages: {}",
            missing.join(", ")
        );
    }
    Ok(copied.into_iter().map(|p| format!("/{p}")).collect())
}

fn walk_files(root: &Path, rel: &Path, out: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    for e in std::fs::read_dir(root.join(rel))? {
        let e = e?;
        let r = rel.join(e.file_name());
        let ft = e.file_type()?;
        if ft.is_dir() {
            walk_files(root, &r, out)?;
        } else if ft.is_file() {
            out.push(r);
        }
    }
    Ok(())
}

/// All paths under `root`, relative, sorted (directories before their contents).
pub fn list_paths(root: &Path) -> anyhow::Result<Vec<String>> {
    fn go(root: &Path, rel: &Path, out: &mut Vec<String>) -> anyhow::Result<()> {
        let mut entries: Vec<_> = std::fs::read_dir(root.join(rel))?.collect::<Result<_, _>>()?;
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let r = rel.join(e.file_name());
            out.push(r.to_string_lossy().into_owned());
            if e.file_type()?.is_dir() {
                go(root, &r, out)?;
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    go(root, Path::new(""), &mut out)?;
    Ok(out)
}

/// Packs `root` into a newc cpio (owned by root, reproducible) compressed with zstd at `out`.
pub fn pack_initramfs(r: &Runner, root: &Path, out: &Path, epoch: i64) -> anyhow::Result<()> {
    let paths = list_paths(root)?;
    set_mtimes(r, root, &paths, epoch)?;
    let mut list = String::new();
    for p in &paths {
        list.push_str(p);
        list.push('\n');
    }
    let cpio = out.with_extension("cpio");
    r.run_to_file(
        Cmd::new("cpio")
            .args(["--quiet", "-o", "-H", "newc", "-R", "0:0", "--reproducible"])
            .dir(root)
            .stdin(list.into_bytes()),
        &cpio,
    )?;
    r.run_to_file(
        Cmd::new("zstd").args(["-q", "-c", "-9", "-T0"]).arg(&cpio),
        out,
    )?;
    std::fs::remove_file(&cpio)?;
    Ok(())
}

/// Sets the modification time of `paths` (relative to `dir`, symlinks themselves included) to
/// `epoch`, so that archives and file systems made from them do not depend on when they were
/// built.
pub fn set_mtimes(r: &Runner, dir: &Path, paths: &[String], epoch: i64) -> anyhow::Result<()> {
    for chunk in paths.chunks(500) {
        r.run(
            Cmd::new("touch")
                .args(["-h", "-d"])
                .arg(format!("@{epoch}"))
                .arg("--")
                .args(chunk)
                .dir(dir),
        )?;
    }
    r.run(
        Cmd::new("touch")
            .args(["-h", "-d"])
            .arg(format!("@{epoch}"))
            .arg("--")
            .arg(".")
            .dir(dir),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_stays_inside() {
        assert_eq!(
            normalize(Path::new("lib/../usr/lib/x.so")).unwrap(),
            PathBuf::from("usr/lib/x.so")
        );
        assert!(normalize(Path::new("../etc/passwd")).is_none());
    }

    #[test]
    fn resolves_symlinks_inside_sysroot() {
        let d = tempfile::tempdir().unwrap();
        let s = d.path();
        std::fs::create_dir_all(s.join("lib/aarch64-linux-gnu")).unwrap();
        std::fs::write(s.join("lib/aarch64-linux-gnu/ld.so"), b"x").unwrap();
        symlink("aarch64-linux-gnu/ld.so", s.join("lib/ld-link")).unwrap();
        symlink("/lib/ld-link", s.join("lib/abs-link")).unwrap();
        assert_eq!(
            resolve_in(s, Path::new("lib/abs-link")).unwrap(),
            s.join("lib/aarch64-linux-gnu/ld.so")
        );
        assert!(resolve_in(s, Path::new("lib/none")).is_none());
    }

    #[test]
    fn not_elf_has_no_deps() {
        assert!(elf_deps(b"#!/bin/sh\n").is_none());
    }
}
