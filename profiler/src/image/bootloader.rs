//! The boot loaders of a board as the Yocto layer instruments them (`perfguide image uboot`):
//! each `[[uboot]]` build of the board profile, from U-Boot's source (the pinned release, or
//! a tree given with `--source`) with the layer's patches applied and its config fragments
//! merged, compiled with binman's missing-blob mode (TI's firmware is not public: binman puts
//! a fake in its place and says which). Each build is checked: every fragment line is in the
//! final `.config`, the images listed are made, the SPL is within the size limits U-Boot
//! enforces. Cached by content under `<cache>/build/uboot/`, one directory per build with
//! `result.json` and the files kept.

use super::binman::{self, ImageBlobs};
use super::cache::{sha256_file, FileEntry, KeyBuilder, Lock};
use super::exec::{Cmd, Runner};
use super::layer;
use super::spl_limits::{self, SplSize};
use super::uboot::{config_number, Make};
use super::uboot_source::{PinnedSource, Source};
use crate::profile::{Board, UbootArch, UbootBuild};
use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Bumped when the build changes what it makes from the same inputs.
const RECIPE_VERSION: &str = "1";
/// The schema of `result.json`.
pub const SCHEMA: &str = "perfguide/uboot-build/v1";
/// What every build keeps, when the build made it.
const ALWAYS_KEPT: [&str; 5] = [
    ".config",
    "u-boot.bin",
    "spl/u-boot-spl.bin",
    "spl/u-boot-spl.sym",
    "build.log",
];

/// What to build.
#[derive(Debug, Clone)]
pub struct UbootOptions {
    /// The board (its `[[uboot]]` tables).
    pub board: Board,
    /// Only these builds (by name); all when empty.
    pub only: Vec<String>,
    /// A U-Boot tree to build instead of the pinned release (never taken from the cache).
    pub source: Option<PathBuf>,
    /// Cache directory.
    pub cache: PathBuf,
    /// Parallel jobs of `make`.
    pub jobs: usize,
    /// Rebuild even when the cache has the build.
    pub force: bool,
    /// No progress on stderr.
    pub quiet: bool,
}

impl UbootOptions {
    /// The defaults for `board`: every build, the pinned source, the default cache, a job per
    /// CPU.
    pub fn new(board: Board) -> Self {
        Self {
            board,
            only: Vec::new(),
            source: None,
            cache: super::cache_dir(),
            jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
            force: false,
            quiet: false,
        }
    }
}

/// One build's result (`result.json`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct UbootOutcome {
    /// [`SCHEMA`].
    pub schema: String,
    /// Board profile.
    pub board: String,
    /// Build name.
    pub name: String,
    /// U-Boot defconfig.
    pub defconfig: String,
    /// `arm`, `arm64` or `sandbox`.
    pub arch: UbootArch,
    /// The source built.
    pub source: String,
    /// The layer's fragments merged, in order.
    pub fragments: Vec<String>,
    /// The layer's patches applied, in order (patterns resolved to file names).
    pub patches: Vec<String>,
    /// Fragment lines checked in the final `.config`.
    pub config_lines_checked: usize,
    /// Content key of the inputs.
    pub key: String,
    /// Seconds the build took (when it was made).
    pub build_seconds: f64,
    /// Where the kept files are.
    pub dir: PathBuf,
    /// The kept files, paths in `dir`.
    pub files: Vec<FileEntry>,
    /// The boot images (paths in `dir`).
    pub images: Vec<String>,
    /// The SPL's size against its limits, when the build has an SPL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spl: Option<SplSize>,
    /// What binman could not find (faked in the images).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing_blobs: Vec<ImageBlobs>,
    /// True when this call found the build in the cache.
    #[serde(default)]
    pub cached: bool,
}

impl UbootOutcome {
    /// The path of a kept file.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    fn intact(&self) -> bool {
        self.files
            .iter()
            .all(|f| std::fs::metadata(self.dir.join(&f.name)).is_ok_and(|m| m.len() == f.size))
    }
}

/// Builds (or finds in the cache) the board's `[[uboot]]` builds.
pub fn build_board(opts: &UbootOptions) -> anyhow::Result<Vec<UbootOutcome>> {
    let board = opts.board.name().to_string();
    let all = opts.board.uboot_builds()?;
    if let Some(unknown) = opts
        .only
        .iter()
        .find(|n| !all.iter().any(|b| &b.name == *n))
    {
        bail!(
            "board {board} has no [[uboot]] build {unknown:?} (it has: {})",
            all.iter()
                .map(|b| b.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let builds: Vec<&UbootBuild> = all
        .iter()
        .filter(|b| opts.only.is_empty() || opts.only.contains(&b.name))
        .collect();
    let source = match &opts.source {
        Some(d) => Source::Dir(d.clone()),
        None => Source::Pinned(PinnedSource::builtin()),
    };
    // Scratch of this call (trees and objects are large): removed when it returns.
    let work = WorkDir(
        opts.cache
            .join("work")
            .join("uboot")
            .join(format!("{board}-{}", std::process::id())),
    );
    // Patched trees by patch list, shared by the builds of this call.
    let mut trees: BTreeMap<String, PathBuf> = BTreeMap::new();
    let mut out = Vec::new();
    for b in builds {
        let r = Runner::new(
            &opts
                .cache
                .join("logs")
                .join(format!("uboot-{board}-{}.log", b.name)),
            opts.quiet,
        )?;
        let inputs = Inputs::read(b)?;
        // Keyed by what is built, not by board: boards that build the same share it.
        let key = inputs.key(b, &source);
        let dir =
            opts.cache
                .join("build")
                .join("uboot")
                .join(format!("{}-{}", b.defconfig, &key[..16]));
        // Two calls building the same never interleave; the second finds it cached.
        let _lock = Lock::acquire(&opts.cache.join("locks").join(format!(
            "uboot-{}.lock",
            dir.file_name().expect("named").to_string_lossy()
        )))?;
        let result = dir.join("result.json");
        if !opts.force && opts.source.is_none() && result.exists() {
            let mut o: UbootOutcome = serde_json::from_str(&std::fs::read_to_string(&result)?)
                .with_context(|| format!("{} is not a build result", result.display()))?;
            if o.intact() && o.dir == dir {
                r.progress(&format!(
                    "{board} {}: cached build {}",
                    b.name,
                    dir.display()
                ));
                o.cached = true;
                o.board = board.clone();
                o.name = b.name.clone();
                // What the key covers is named as this call resolves it.
                o.fragments = b.fragments.clone();
                o.patches = inputs.patches.iter().map(|(n, _)| n.clone()).collect();
                o.config_lines_checked = inputs.config_lines();
                out.push(o);
                continue;
            }
        }
        let tree_key = inputs.patch_key(&source);
        let src = match trees.get(&tree_key) {
            Some(t) => t.clone(),
            None => {
                let t = patched_tree(&r, opts, &source, &inputs, &tree_key, &work)?;
                trees.insert(tree_key, t.clone());
                t
            }
        };
        let o = build_one(&r, opts, b, &inputs, &source, &src, &work, &key, &dir)?;
        out.push(o);
    }
    Ok(out)
}

/// The source patched with the build's patches. The pinned release's is kept in the cache by
/// its key (`<cache>/src/u-boot-<key>/`, made once, then only read: every build writes its
/// objects elsewhere, `O=`); a `--source` tree's is a copy in this call's scratch.
fn patched_tree(
    r: &Runner,
    opts: &UbootOptions,
    source: &Source,
    inputs: &Inputs,
    key: &str,
    work: &Path,
) -> anyhow::Result<PathBuf> {
    if let Source::Dir(_) = source {
        let t = work.join(format!("src-{}", &key[..16]));
        source.prepare(r, &opts.cache, &t, &inputs.patches)?;
        return Ok(t);
    }
    let t = opts
        .cache
        .join("src")
        .join(format!("u-boot-{}", &key[..16]));
    let _lock = Lock::acquire(
        &opts
            .cache
            .join("locks")
            .join(format!("uboot-src-{}.lock", &key[..16])),
    )?;
    if t.join(".perfguide-ready").exists() {
        return Ok(t);
    }
    let tmp = t.with_extension("tmp");
    source.prepare(r, &opts.cache, &tmp, &inputs.patches)?;
    std::fs::write(tmp.join(".perfguide-ready"), key)?;
    let _ = std::fs::remove_dir_all(&t);
    std::fs::rename(&tmp, &t)?;
    Ok(t)
}

/// A scratch directory removed when dropped.
struct WorkDir(PathBuf);

impl std::ops::Deref for WorkDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for WorkDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The layer's files a build uses, read once.
struct Inputs {
    fragments: Vec<super::uboot::Fragment>,
    patches: Vec<(String, Vec<u8>)>,
}

impl Inputs {
    fn read(b: &UbootBuild) -> anyhow::Result<Inputs> {
        Ok(Inputs {
            fragments: layer::fragments(&b.fragments)?,
            patches: layer::patches(&b.patches)?,
        })
    }

    /// The fragment lines checked in the final `.config`.
    fn config_lines(&self) -> usize {
        self.fragments
            .iter()
            .flat_map(|f| f.text.lines())
            .map(str::trim)
            .filter(|l| !l.is_empty() && (!l.starts_with('#') || l.ends_with("is not set")))
            .count()
    }

    fn patch_key(&self, source: &Source) -> String {
        let mut k = KeyBuilder::default();
        k.add("source", &source.describe());
        for (name, text) in &self.patches {
            k.add_bytes(name, text);
        }
        k.finish()
    }

    fn key(&self, b: &UbootBuild, source: &Source) -> String {
        let mut k = KeyBuilder::default();
        k.add("recipe", RECIPE_VERSION)
            .add("patched source", &self.patch_key(source))
            .add("defconfig", &b.defconfig)
            .add("arch", b.arch.as_str());
        for v in &b.make_vars {
            k.add("make var", v);
        }
        for f in &self.fragments {
            k.add(&format!("fragment {}", f.name), &f.text);
        }
        for f in b.images.iter().chain(&b.files) {
            k.add("keep", f);
        }
        k.finish()
    }
}

#[allow(clippy::too_many_arguments)]
fn build_one(
    r: &Runner,
    opts: &UbootOptions,
    b: &UbootBuild,
    inputs: &Inputs,
    source: &Source,
    src: &Path,
    work: &Path,
    key: &str,
    dir: &Path,
) -> anyhow::Result<UbootOutcome> {
    let t0 = Instant::now();
    let board = opts.board.name();
    let objs = work.join(&b.name);
    if objs.exists() {
        std::fs::remove_dir_all(&objs)?;
    }
    let mut vars = vec!["BINMAN_ALLOW_MISSING=1".to_string()];
    vars.extend(b.make_vars.iter().cloned());
    let make = Make {
        src,
        out: &objs,
        cross_compile: b.arch.cross_compile(),
        epoch: source.epoch(),
        vars,
    };
    if !src.join("configs").join(&b.defconfig).is_file() {
        bail!(
            "{board} {}: {} has no configs/{} (build from a U-Boot tree that has it: --source DIR)",
            b.name,
            source.describe(),
            b.defconfig
        );
    }
    let names: Vec<&str> = inputs.fragments.iter().map(|f| f.name.as_str()).collect();
    r.step(
        &format!(
            "{board} {}: configure {} + {}",
            b.name,
            b.defconfig,
            names.join(" + ")
        ),
        || make.configure(r, &b.defconfig, &inputs.fragments),
    )?;
    let log_from = std::fs::metadata(r.log_path()).map_or(0, |m| m.len());
    r.step(
        &format!("{board} {}: build (-j{})", b.name, opts.jobs),
        || make.compile(r, opts.jobs, &[]),
    )?;
    let log = std::fs::read(r.log_path()).unwrap_or_default();
    let output = String::from_utf8_lossy(&log[(log_from as usize).min(log.len())..]).into_owned();
    std::fs::write(objs.join("build.log"), &output)?;
    let missing_blobs = binman::missing_blobs(&output);
    for img in &b.images {
        if !objs.join(img).is_file() {
            bail!(
                "{board} {}: the build made no {img} (binman: {})",
                b.name,
                if missing_blobs.is_empty() {
                    "said nothing of missing blobs".to_string()
                } else {
                    format!("{missing_blobs:?}")
                }
            );
        }
    }
    let config = std::fs::read_to_string(objs.join(".config"))?;
    let limit = spl_size_limit(r, &objs, &config)?;
    let spl = spl_limits::measure(&objs, &config, limit)?;
    if let Some(over) = spl.iter().flat_map(|s| &s.limits).find(|l| !l.ok()) {
        bail!(
            "{board} {}: the SPL is over its limit: {} uses {} of {} bytes",
            b.name,
            over.what,
            over.used,
            over.limit
        );
    }
    // Keep the files: into a fresh directory, then moved in place.
    let tmp = dir.with_extension("tmp");
    let _ = std::fs::remove_dir_all(&tmp);
    let mut files = Vec::new();
    let keep = ALWAYS_KEPT
        .iter()
        .map(|s| s.to_string())
        .chain(b.images.iter().cloned())
        .chain(b.files.iter().cloned());
    for name in keep {
        let from = objs.join(&name);
        if !from.is_file() || files.iter().any(|f: &FileEntry| f.name == name) {
            if b.files.contains(&name) {
                bail!("{board} {}: the build made no {name}", b.name);
            }
            continue;
        }
        let to = tmp.join(&name);
        std::fs::create_dir_all(to.parent().expect("a file in a directory"))?;
        std::fs::copy(&from, &to)
            .with_context(|| format!("cannot copy {} to {}", from.display(), to.display()))?;
        files.push(FileEntry {
            sha256: sha256_file(&to)?,
            size: std::fs::metadata(&to)?.len(),
            name,
        });
    }
    let outcome = UbootOutcome {
        schema: SCHEMA.into(),
        board: board.to_string(),
        name: b.name.clone(),
        defconfig: b.defconfig.clone(),
        arch: b.arch,
        source: source.describe(),
        fragments: b.fragments.clone(),
        patches: inputs.patches.iter().map(|(n, _)| n.clone()).collect(),
        config_lines_checked: inputs.config_lines(),
        key: key.to_string(),
        build_seconds: t0.elapsed().as_secs_f64(),
        dir: dir.to_path_buf(),
        files,
        images: b.images.clone(),
        spl,
        missing_blobs,
        cached: false,
    };
    std::fs::write(
        tmp.join("result.json"),
        serde_json::to_string_pretty(&outcome)? + "\n",
    )?;
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir.parent().expect("a build directory has a parent"))?;
    std::fs::rename(&tmp, dir)?;
    let _ = std::fs::remove_dir_all(&objs);
    r.progress(&format!(
        "{board} {}: built in {:.0}s: {}",
        b.name,
        outcome.build_seconds,
        dir.display()
    ));
    Ok(outcome)
}

/// The SPL size limit the build enforces (`CONFIG_SPL_SIZE_LIMIT`, as U-Boot's
/// `tools/spl_size_limit` computes it), or none.
fn spl_size_limit(r: &Runner, objs: &Path, config: &str) -> anyhow::Result<Option<u64>> {
    Ok(match config_number(config, "SPL_SIZE_LIMIT") {
        Some(l) if l > 0 => {
            let s = r.read(Cmd::new(
                &objs.join("tools/spl_size_limit").display().to_string(),
            ))?;
            Some(
                s.trim()
                    .parse::<u64>()
                    .with_context(|| format!("tools/spl_size_limit printed {s:?}"))?,
            )
        }
        _ => None,
    })
}
