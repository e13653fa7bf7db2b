//! Distribution packages for the target: resolved with apt-cache, fetched with
//! `apt-get download` / `apt-get source` into the cache, unpacked with dpkg-deb. Nothing is
//! installed on the host.

use super::cache::sha256_file;
use super::exec::{Cmd, Runner};
use anyhow::{bail, Context};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One binary package as the apt index describes its candidate version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Package {
    /// Package name.
    pub name: String,
    /// Candidate version.
    pub version: String,
    /// Architecture (`arm64`, `all`).
    pub arch: String,
    /// Source package name.
    pub source: String,
    /// Source package version (the binary's unless `Source:` names another, as after a
    /// binary-only rebuild).
    pub source_version: String,
    /// `Depends` and `Pre-Depends`, first alternative of each, names only.
    pub depends: Vec<String>,
    /// SHA-256 of the .deb, from the index.
    pub sha256: String,
}

impl Package {
    /// The file name `apt-get download` gives the .deb.
    pub fn deb_name(&self) -> String {
        format!(
            "{}_{}_{}.deb",
            self.name,
            self.version.replace(':', "%3a"),
            self.arch
        )
    }

    /// `name:arch=version`, what `apt-get download` takes.
    pub fn spec(&self) -> String {
        format!("{}:{}={}", self.name, self.arch, self.version)
    }
}

/// Parses `apt-cache show` output (deb822 stanzas).
pub fn parse_show(text: &str) -> Vec<Package> {
    let mut out = Vec::new();
    for stanza in text.split("\n\n") {
        let mut fields: BTreeMap<&str, String> = BTreeMap::new();
        let mut last: Option<&str> = None;
        for line in stanza.lines() {
            if line.starts_with(' ') || line.starts_with('\t') {
                if let Some(k) = last {
                    if let Some(v) = fields.get_mut(k) {
                        v.push(' ');
                        v.push_str(line.trim());
                    }
                }
                continue;
            }
            if let Some((k, v)) = line.split_once(':') {
                fields.insert(k, v.trim().to_string());
                last = Some(k);
            }
        }
        let (Some(name), Some(version)) = (fields.get("Package"), fields.get("Version")) else {
            continue;
        };
        let mut depends = Vec::new();
        for key in ["Pre-Depends", "Depends"] {
            if let Some(d) = fields.get(key) {
                depends.extend(parse_depends(d));
            }
        }
        // `Source: name` or `Source: name (version)`.
        let mut src = fields.get("Source").map(|s| s.split_whitespace());
        let source = src
            .as_mut()
            .and_then(|w| w.next())
            .unwrap_or(name)
            .to_string();
        let source_version = src
            .as_mut()
            .and_then(|w| w.next())
            .and_then(|v| v.strip_prefix('(')?.strip_suffix(')'))
            .unwrap_or(version)
            .to_string();
        out.push(Package {
            name: name.clone(),
            version: version.clone(),
            arch: fields.get("Architecture").cloned().unwrap_or_default(),
            source,
            source_version,
            depends,
            sha256: fields.get("SHA256").cloned().unwrap_or_default(),
        });
    }
    out
}

/// Names from a `Depends` field: the first alternative of each entry, without versions and
/// architecture qualifiers.
pub fn parse_depends(field: &str) -> Vec<String> {
    field
        .split(',')
        .filter_map(|entry| {
            let first = entry.split('|').next()?.trim();
            let name = first
                .split(|c: char| c.is_whitespace() || c == '(')
                .next()?
                .split(':')
                .next()?;
            (!name.is_empty()).then(|| name.to_string())
        })
        .collect()
}

/// Candidate versions of `names` (each `name` or `name:arch`). Fails if one is unknown.
pub fn show(r: &Runner, names: &[String]) -> anyhow::Result<Vec<Package>> {
    if names.is_empty() {
        return Ok(Vec::new());
    }
    let text = r.read(
        Cmd::new("apt-cache")
            .arg("show")
            .arg("--no-all-versions")
            .args(names),
    )?;
    let pkgs = parse_show(&text);
    for n in names {
        let bare = n.split(':').next().unwrap_or(n);
        if !pkgs.iter().any(|p| p.name == bare) {
            bail!("package {n} not found in the apt index (run scripts/setup-host.sh)");
        }
    }
    Ok(pkgs)
}

/// Candidate versions of those of `names` that the index knows (one apt-cache call; unknown
/// and virtual names are left out).
pub fn show_known(r: &Runner, names: &[String]) -> anyhow::Result<Vec<Package>> {
    if names.is_empty() {
        return Ok(Vec::new());
    }
    let text = r.read_lenient(
        Cmd::new("apt-cache")
            .arg("show")
            .arg("--no-all-versions")
            .args(names),
    )?;
    Ok(parse_show(&text))
}

/// Whether a dependency is followed into the root file system: shared-library packages.
pub fn is_library_package(name: &str) -> bool {
    name.starts_with("lib") || name.starts_with("zlib")
}

/// The arm64 library packages that `roots` (arm64 package names) depend on, transitively
/// (`Depends` and `Pre-Depends`, all alternatives), by name. One apt-cache call: this host's
/// apt may keep no binary cache, so each call re-reads every index.
pub fn library_closure(r: &Runner, roots: &[String]) -> anyhow::Result<Vec<String>> {
    if roots.is_empty() {
        return Ok(Vec::new());
    }
    let text = r.read(
        Cmd::new("apt-cache")
            .args(["depends", "--recurse", "--no-recommends", "--no-suggests"])
            .args([
                "--no-conflicts",
                "--no-breaks",
                "--no-replaces",
                "--no-enhances",
            ])
            .args(roots.iter().map(|n| format!("{n}:arm64"))),
    )?;
    Ok(parse_recursive_depends(&text, roots))
}

/// Package lines of `apt-cache depends --recurse` output that are arm64 library packages, not
/// among `roots`, sorted and unique.
pub fn parse_recursive_depends(text: &str, roots: &[String]) -> Vec<String> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        if line.starts_with(' ') || line.starts_with('<') {
            continue;
        }
        let Some(name) = line.trim().strip_suffix(":arm64") else {
            continue;
        };
        if is_library_package(name) && !roots.iter().any(|r| r == name) {
            out.insert(name.to_string());
        }
    }
    out.into_iter().collect()
}

/// Holds `dir`'s fetch lock (`dir/.fetch.lock`, flock) until dropped: builds that share a
/// download directory (parallel tests, two `perfguide image` runs) fetch into it one at a
/// time, and the second finds what the first fetched.
fn fetch_lock(dir: &Path) -> anyhow::Result<std::fs::File> {
    let path = dir.join(".fetch.lock");
    let f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    crate::flock::lock_exclusive(&f).with_context(|| format!("cannot lock {}", path.display()))?;
    Ok(f)
}

/// Runs `cmd` (an apt-get fetch) in a fresh directory inside `dir` and moves every file it
/// wrote into `dir` once it has succeeded, so that no file in `dir` is ever half written
/// (an interrupted fetch leaves nothing behind).
fn fetch_into(r: &Runner, dir: &Path, cmd: Cmd) -> anyhow::Result<()> {
    let tmp = dir.join(format!(".fetch-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp)?;
    let fetched = r.run(cmd.dir(&tmp)).and_then(|()| {
        for entry in std::fs::read_dir(&tmp)? {
            let entry = entry?;
            let to = dir.join(entry.file_name());
            std::fs::rename(entry.path(), &to)
                .with_context(|| format!("cannot move a fetched file to {}", to.display()))?;
        }
        Ok(())
    });
    let _ = std::fs::remove_dir_all(&tmp);
    fetched
}

/// Downloads the .debs of `pkgs` into `dir` (those already there with the right hash are
/// kept) and returns their paths, in the order of `pkgs`.
pub fn download(r: &Runner, dir: &Path, pkgs: &[Package]) -> anyhow::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let _lock = fetch_lock(dir)?;
    let mut missing = Vec::new();
    for p in pkgs {
        let path = dir.join(p.deb_name());
        let ok = path.exists() && (p.sha256.is_empty() || sha256_file(&path)? == p.sha256);
        if !ok {
            let _ = std::fs::remove_file(&path);
            missing.push(p.spec());
        }
    }
    for chunk in missing.chunks(100) {
        fetch_into(r, dir, Cmd::new("apt-get").arg("download").args(chunk))?;
    }
    let mut out = Vec::new();
    for p in pkgs {
        let path = dir.join(p.deb_name());
        if !path.exists() {
            bail!("apt-get download did not produce {}", path.display());
        }
        if !p.sha256.is_empty() && sha256_file(&path)? != p.sha256 {
            bail!(
                "{} does not match the SHA-256 of the apt index",
                path.display()
            );
        }
        out.push(path);
    }
    Ok(out)
}

/// Unpacks a .deb into `dest` (no maintainer scripts run, nothing installed).
pub fn extract(r: &Runner, deb: &Path, dest: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dest)?;
    r.run(Cmd::new("dpkg-deb").arg("-x").arg(deb).arg(dest))
}

/// Fetches the source package `source` at `version` into `dir` (kept across builds) and
/// unpacks it into `dest` (removed first). Returns `dest`.
pub fn source(
    r: &Runner,
    dir: &Path,
    source: &str,
    version: &str,
    dest: &Path,
) -> anyhow::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let noepoch = version.split_once(':').map_or(version, |(_, v)| v);
    let dsc = dir.join(format!("{source}_{noepoch}.dsc"));
    let lock = fetch_lock(dir)?;
    if !dsc.exists() {
        fetch_into(
            r,
            dir,
            Cmd::new("apt-get")
                .args(["source", "--download-only"])
                .arg(format!("{source}={version}")),
        )?;
    }
    drop(lock);
    if !dsc.exists() {
        bail!("apt-get source did not produce {}", dsc.display());
    }
    if dest.exists() {
        std::fs::remove_dir_all(dest)
            .with_context(|| format!("cannot remove {}", dest.display()))?;
    }
    r.run(
        Cmd::new("dpkg-source")
            .args(["--no-check", "-x"])
            .arg(&dsc)
            .arg(dest),
    )?;
    Ok(dest.to_path_buf())
}

/// Fetches the upstream tarball `tarball` of the source package `source` at `version` into
/// `dir` (kept across builds) with `apt-get source --download-only --tar-only`, and checks its
/// SHA-256 against `sha256`. Returns its path.
pub fn source_tarball(
    r: &Runner,
    dir: &Path,
    source: &str,
    version: &str,
    tarball: &str,
    sha256: &str,
) -> anyhow::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let path = dir.join(tarball);
    let digest = |p: &Path| super::cache::sha256_file(p);
    let _lock = fetch_lock(dir)?;
    if !path.exists() || digest(&path)? != sha256 {
        let _ = std::fs::remove_file(&path);
        fetch_into(
            r,
            dir,
            Cmd::new("apt-get")
                .args(["source", "--download-only", "--tar-only"])
                .arg(format!("{source}={version}")),
        )
        .with_context(|| {
            format!(
                "cannot fetch the source of {source} {version} (its deb-src suite must be in                  the apt sources: run scripts/setup-host.sh)"
            )
        })?;
    }
    if !path.exists() {
        bail!(
            "apt-get source {source}={version} did not produce {}",
            path.display()
        );
    }
    let got = digest(&path)?;
    if got != sha256 {
        bail!(
            "{} has SHA-256 {got}, not the {sha256} this build is pinned to",
            path.display()
        );
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_show_output() {
        let text = "Package: busybox-static\nSource: busybox (1:1.35.0-4+deb12u1)\n\
                    Version: 1:1.35.0-4+deb12u1+b1\nArchitecture: arm64\n\
                    Depends: libc6 (>= 2.34), libfoo1:any | libbar1,\n libbaz2 (>= 1)\n\
                    SHA256: abc\n\nPackage: x\nVersion: 1\nArchitecture: all\n";
        let p = parse_show(text);
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].source, "busybox");
        assert_eq!(p[0].depends, ["libc6", "libfoo1", "libbaz2"]);
        assert_eq!(
            p[0].deb_name(),
            "busybox-static_1%3a1.35.0-4+deb12u1+b1_arm64.deb"
        );
        assert_eq!(p[0].source_version, "1:1.35.0-4+deb12u1");
        assert_eq!(p[1].source, "x");
        assert_eq!(p[1].source_version, "1");
    }

    #[test]
    fn parses_recursive_depends() {
        let text = "stress-ng:arm64\n  Depends: libc6:arm64\nlibc6:arm64\n  Depends: <libgcc1>\n\
                    <debconf-2.0:arm64>\nlibc6\nzlib1g:arm64\nperl:arm64\n";
        let roots = vec!["stress-ng".to_string()];
        assert_eq!(parse_recursive_depends(text, &roots), ["libc6", "zlib1g"]);
    }
}
