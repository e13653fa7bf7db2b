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

/// The `.modinfo` `depends=` list of a kernel module.
pub fn module_depends(bytes: &[u8]) -> anyhow::Result<Vec<String>> {
    let elf = goblin::elf::Elf::parse(bytes).context("not an ELF module")?;
    for sh in &elf.section_headers {
        if elf.shdr_strtab.get_at(sh.sh_name) != Some(".modinfo") {
            continue;
        }
        let start = sh.sh_offset as usize;
        let end = start + sh.sh_size as usize;
        let data = bytes.get(start..end).context("truncated .modinfo")?;
        for field in data.split(|b| *b == 0) {
            if let Some(d) = field.strip_prefix(b"depends=") {
                return Ok(String::from_utf8_lossy(d)
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect());
            }
        }
    }
    Ok(Vec::new())
}

fn module_key(name: &str) -> String {
    name.replace('-', "_")
}

/// Copies the modules `wanted` (by name) and their dependencies from the unpacked kernel
/// package into `root/lib/modules/<release>/`, with a `modules.dep` for `modprobe`. Returns
/// the module names in load order.
pub fn install_modules(
    pkg_root: &Path,
    release: &str,
    root: &Path,
    wanted: &[String],
) -> anyhow::Result<Vec<String>> {
    if wanted.is_empty() {
        return Ok(Vec::new());
    }
    let modroot = pkg_root.join("lib/modules").join(release);
    let mut index = std::collections::BTreeMap::new();
    let mut stack = vec![PathBuf::from("kernel")];
    while let Some(rel) = stack.pop() {
        for e in std::fs::read_dir(modroot.join(&rel))
            .with_context(|| format!("no modules in {}", modroot.display()))?
        {
            let e = e?;
            let r = rel.join(e.file_name());
            if e.file_type()?.is_dir() {
                stack.push(r);
            } else if let Some(stem) = e.file_name().to_string_lossy().strip_suffix(".ko") {
                index.insert(module_key(stem), r);
            }
        }
    }
    // Depth-first: dependencies before the modules that need them.
    fn visit(
        name: &str,
        modroot: &Path,
        index: &std::collections::BTreeMap<String, PathBuf>,
        order: &mut Vec<(String, PathBuf, Vec<String>)>,
        seen: &mut std::collections::BTreeSet<String>,
    ) -> anyhow::Result<()> {
        let key = module_key(name);
        if !seen.insert(key.clone()) {
            return Ok(());
        }
        let rel = index
            .get(&key)
            .with_context(|| format!("kernel module {name} not in the kernel package"))?;
        let deps = module_depends(&std::fs::read(modroot.join(rel))?)?;
        for d in &deps {
            visit(d, modroot, index, order, seen)?;
        }
        order.push((key, rel.clone(), deps));
        Ok(())
    }
    let mut order = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for w in wanted {
        visit(w, &modroot, &index, &mut order, &mut seen)?;
    }
    let dest = root.join("lib/modules").join(release);
    let path_of: std::collections::BTreeMap<&str, &PathBuf> =
        order.iter().map(|(k, p, _)| (k.as_str(), p)).collect();
    let mut dep_file = String::new();
    for (i, (key, rel, _)) in order.iter().enumerate() {
        let to = dest.join(rel);
        std::fs::create_dir_all(to.parent().expect("module path has a parent"))?;
        std::fs::copy(modroot.join(rel), &to)?;
        // All transitive dependencies, the first to load last (depmod's order).
        let mut need = std::collections::BTreeSet::new();
        let mut todo = vec![key.clone()];
        while let Some(k) = todo.pop() {
            if let Some((_, _, deps)) = order.iter().find(|(kk, _, _)| *kk == k) {
                for d in deps {
                    if need.insert(module_key(d)) {
                        todo.push(module_key(d));
                    }
                }
            }
        }
        let line: Vec<String> = order[..i]
            .iter()
            .rev()
            .filter(|(k, _, _)| need.contains(k))
            .map(|(k, _, _)| path_of[k.as_str()].to_string_lossy().into_owned())
            .collect();
        dep_file.push_str(&format!("{}:", rel.display()));
        for l in line {
            dep_file.push(' ');
            dep_file.push_str(&l);
        }
        dep_file.push('\n');
    }
    std::fs::write(dest.join("modules.dep"), dep_file)?;
    Ok(order.into_iter().map(|(k, _, _)| k).collect())
}
