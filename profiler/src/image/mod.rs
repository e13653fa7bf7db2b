//! Reference images built from distribution packages (`perfguide image build`).
//!
//! For `qemu-arm64`: U-Boot from the distribution's u-boot source built for the profile's
//! defconfig plus its bootstage fragment, the distribution's arm64 cloud kernel, an initramfs
//! with static busybox, the benchmark programs the distribution ships for arm64 and the Yocto
//! layer's target programs (`meta-perfguide/recipes-benchmark/*/files/`), on a partitioned raw
//! disk with `extlinux/extlinux.conf`. Target packages are downloaded and unpacked into the
//! cache, never installed on the host.
//!
//! Layout of the cache directory ([`cache_dir`]):
//! - `images/<board>/`: `u-boot.bin`, `disk.img`, `image.json` (the result);
//! - `logs/image-<board>.log`: every external step's output, appended;
//! - `debs/`, `src/`: downloaded packages and sources, kept; `build/`: U-Boot builds by key;
//! - `work/<board>/`: scratch of the last build.
//!
//! Cached by content: the key hashes the profile's `[image]` section, the rootfs overlay, the
//! target programs and the versions of every package used. A rebuild with nothing
//! changed returns at once (the apt index state stands in for the package versions until it
//! changes).

pub mod apt;
pub mod binman;
pub mod bootloader;
pub mod cache;
pub mod disk;
pub mod env;
pub mod exec;
pub mod kernel;
pub mod layer;
pub mod rootfs;
pub mod spl_limits;
pub mod static_bench;
pub mod uboot;
pub mod uboot_source;

pub use crate::profile::ImageSection;
pub use cache::{cache_dir, Manifest};

use crate::profile::Board;
use anyhow::{bail, Context};
use cache::{sha256_file, FileEntry, KeyBuilder, Lock};
use exec::Runner;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Bumped when the recipe changes what it builds from the same inputs.
const RECIPE_VERSION: &str = "5";
/// Bumped when the U-Boot build changes for the same source, defconfig and fragment.
const UBOOT_RECIPE_VERSION: &str = "2";
/// Bumped when the static benchmark builds change for the same source and recipe.
const STATIC_RECIPE_VERSION: &str = "1";

/// The files of a built image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageArtifacts {
    /// Firmware for `-bios`.
    pub u_boot: PathBuf,
    /// Raw disk image.
    pub disk: PathBuf,
    /// `image.json`.
    pub manifest: PathBuf,
    /// U-Boot environment flash of a loud boot (when the profile has `quiet_kernel_args`).
    pub env_loud: PathBuf,
    /// U-Boot environment flash of a quiet boot.
    pub env_quiet: PathBuf,
}

impl ImageArtifacts {
    /// The files of an image in `dir`, whether or not they are there.
    pub fn in_dir(dir: &Path) -> Self {
        Self {
            u_boot: dir.join("u-boot.bin"),
            disk: dir.join("disk.img"),
            manifest: dir.join("image.json"),
            env_loud: dir.join(ENV_LOUD),
            env_quiet: dir.join(ENV_QUIET),
        }
    }

    /// The files by their role, the `{role}` placeholders of `[qemu] args`: `u_boot`, `disk`,
    /// `manifest`, [`UBOOT_ENV`] (the loud environment flash) and [`UBOOT_ENV_QUIET`].
    pub fn roles(&self) -> BTreeMap<String, PathBuf> {
        [
            ("u_boot", &self.u_boot),
            ("disk", &self.disk),
            ("manifest", &self.manifest),
            (UBOOT_ENV, &self.env_loud),
            (UBOOT_ENV_QUIET, &self.env_quiet),
        ]
        .into_iter()
        .map(|(role, path)| (role.to_string(), path.clone()))
        .collect()
    }
}

/// The file of the loud environment flash.
pub const ENV_LOUD: &str = "env-loud.bin";
/// The file of the quiet environment flash.
pub const ENV_QUIET: &str = "env-quiet.bin";
/// The image file role (and `[qemu] args` placeholder) of the environment flash.
pub const UBOOT_ENV: &str = "uboot_env";
/// The image file role of the quiet environment flash: a boot made quiet gets it as its
/// `{uboot_env}`.
pub const UBOOT_ENV_QUIET: &str = "uboot_env_quiet";

/// Where the image of `board` lives in `cache`.
pub fn image_dir(board: &str, cache: &Path) -> PathBuf {
    cache.join("images").join(board)
}

/// The built image of `board` in `cache`; an error (naming the command that builds it, with
/// `--board-file` when the profile came from `board_file`) when there is none or its files are
/// not those the manifest lists.
pub fn built_image(
    board: &str,
    board_file: Option<&Path>,
    cache: &Path,
) -> anyhow::Result<ImageArtifacts> {
    let dir = image_dir(board, cache);
    let a = ImageArtifacts::in_dir(&dir);
    let which = match board_file {
        Some(f) => format!("--board-file {}", f.display()),
        None => format!("--board {board}"),
    };
    let hint = format!(
        "run `perfguide image build {which} --cache {}`",
        cache.display()
    );
    if !a.manifest.exists() {
        bail!(
            "no image built for board {board} in {} ({hint})",
            dir.display()
        );
    }
    // Waits while a build of this board runs (it holds the lock exclusively).
    let _lock = Lock::shared(&lock_path(cache, board))?;
    let m = Manifest::load(&a.manifest)?;
    if !m.files_intact(&dir, false) {
        bail!("the image in {} is incomplete ({hint})", dir.display());
    }
    Ok(a)
}

fn lock_path(cache: &Path, board: &str) -> PathBuf {
    cache.join("locks").join(format!("image-{board}.lock"))
}

/// What `build` is asked to do.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// Board profile id: its image goes to `images/<board>` in the cache.
    pub board: String,
    /// The profile, when it is not the built-in one of that name (`image build --board-file`).
    pub profile: Option<Board>,
    /// Cache directory.
    pub cache: PathBuf,
    /// Rebuild even when the cache has this image.
    pub force: bool,
    /// Parallel jobs for the U-Boot build.
    pub jobs: usize,
    /// No progress lines on stderr (they still go to the build log).
    pub quiet: bool,
}

impl BuildOptions {
    /// Defaults: the cache from [`cache_dir`], as many jobs as CPUs.
    pub fn new(board: &str) -> Self {
        Self {
            board: board.to_string(),
            profile: None,
            cache: cache_dir(),
            force: false,
            jobs: std::thread::available_parallelism().map_or(2, |n| n.get()),
            quiet: false,
        }
    }
}

/// What `build` did.
#[derive(Debug, Clone)]
pub struct BuildOutcome {
    /// The image files.
    pub artifacts: ImageArtifacts,
    /// Its manifest.
    pub manifest: Manifest,
    /// True when nothing was built (cache hit).
    pub cached: bool,
    /// Wall time of this call, seconds.
    pub seconds: f64,
}

/// The target-side programs' one home: the Yocto layer's `recipes-benchmark/`, a recipe per
/// program, its `files/` holding the program (`perfguide-bench/files/perfguide-bench`, a
/// script; `perfguide-counter/files/perfguide-counter.c`, a C source). The reference image and
/// the Buildroot package take them from there. Overridable with `PERFGUIDE_TARGET_FILES` (a
/// directory laid out the same way).
pub fn target_recipes_dir() -> PathBuf {
    match std::env::var_os("PERFGUIDE_TARGET_FILES") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("../meta-perfguide/recipes-benchmark"),
    }
}

/// Every file of a recipe's `files/` under [`target_recipes_dir`], sorted (none when the
/// directory is absent).
fn target_recipe_files() -> anyhow::Result<Vec<PathBuf>> {
    let dir = target_recipes_dir();
    let mut out = Vec::new();
    let Ok(recipes) = std::fs::read_dir(&dir) else {
        return Ok(out);
    };
    for r in recipes {
        let files = r?.path().join("files");
        let Ok(rd) = std::fs::read_dir(&files) else {
            continue;
        };
        for e in rd {
            let e = e?;
            let hidden = e.file_name().to_string_lossy().starts_with('.');
            if !hidden && e.file_type()?.is_file() {
                out.push(e.path());
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The C sources of the target recipes, sorted: each is built into a program of its name
/// (`perfguide-counter.c` -> `/usr/bin/perfguide-counter`).
fn target_sources() -> anyhow::Result<Vec<PathBuf>> {
    Ok(target_recipe_files()?
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect())
}

/// Builds a freestanding static arm64 program from `src` into `dir` (named after the source).
fn build_target_program(r: &Runner, src: &Path, dir: &Path) -> anyhow::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let name = src.file_stem().context("a source without a name")?;
    let out = dir.join(name);
    r.run(
        exec::Cmd::new(&format!("{}gcc", uboot::CROSS_COMPILE))
            .args(["-static", "-nostdlib", "-ffreestanding", "-O2", "-s", "-o"])
            .arg(&out)
            .arg(src),
    )?;
    Ok(out)
}

/// The target recipes' executable files (and `perfguide-bench` whatever its mode), sorted:
/// installed as they are.
fn target_files() -> anyhow::Result<Vec<PathBuf>> {
    use std::os::unix::fs::PermissionsExt;
    let mut out = Vec::new();
    for p in target_recipe_files()? {
        let executable = std::fs::metadata(&p)?.permissions().mode() & 0o111 != 0;
        if executable || p.file_name().is_some_and(|n| n == "perfguide-bench") {
            out.push(p);
        }
    }
    Ok(out)
}

/// Hash of the apt index state: changes whenever `apt-get update` brought anything new.
fn apt_fingerprint() -> String {
    let mut k = KeyBuilder::default();
    let dir = Path::new("/var/lib/apt/lists");
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    let n = p.file_name().unwrap_or_default().to_string_lossy();
                    n.ends_with("InRelease") || n.ends_with("_Release")
                })
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    for p in names {
        if let Ok(bytes) = std::fs::read(&p) {
            k.add_bytes(&p.to_string_lossy(), &bytes);
        }
    }
    for f in ["/etc/apt/preferences", "/var/lib/dpkg/arch"] {
        if let Ok(bytes) = std::fs::read(f) {
            k.add_bytes(f, &bytes);
        }
    }
    k.finish()
}

/// The key of everything but the package versions.
fn local_key(board: &str, section: &ImageSection, targets: &[PathBuf]) -> anyhow::Result<String> {
    let mut k = KeyBuilder::default();
    k.add("recipe", RECIPE_VERSION).add("board", board);
    k.add("section", &format!("{section:?}"));
    for b in &section.static_benches {
        if let Ok(r) = static_bench::recipe(b) {
            k.add(&format!("static:{b}"), &format!("{r:?}"));
        }
    }
    for (path, data, mode) in rootfs::OVERLAY {
        k.add_bytes(&format!("overlay:{path}:{mode:o}"), data);
    }
    for t in targets {
        let name = t.file_name().unwrap_or_default().to_string_lossy();
        k.add(&format!("target:{name}"), &sha256_file(t)?);
    }
    Ok(k.finish())
}

/// Packages resolved from the apt index for one build.
struct Resolved {
    uboot_source: String,
    uboot_version: String,
    kernel: apt::Package,
    busybox: apt::Package,
    benches: Vec<apt::Package>,
    /// The binary packages of `static_benches`: their source is built.
    statics: Vec<apt::Package>,
    libs: Vec<apt::Package>,
}

impl Resolved {
    fn versions(&self) -> BTreeMap<String, String> {
        let mut m = BTreeMap::new();
        m.insert(
            format!("source:{}", self.uboot_source),
            self.uboot_version.clone(),
        );
        for p in &self.statics {
            m.insert(format!("source:{}", p.source), p.source_version.clone());
        }
        for p in [&self.kernel, &self.busybox]
            .into_iter()
            .chain(&self.benches)
            .chain(&self.libs)
        {
            m.insert(format!("{}:{}", p.name, p.arch), p.version.clone());
        }
        m
    }
}

fn resolve(r: &Runner, s: &ImageSection) -> anyhow::Result<Resolved> {
    // Three apt-cache calls in all: each one re-reads the indexes on a host without pkgcache.
    let arm64 = |n: &str| format!("{n}:arm64");
    let mut first = vec![
        s.uboot_package.clone(),
        arm64(&s.kernel_package),
        arm64(&s.busybox_package),
    ];
    first.extend(s.bench_packages.iter().map(|b| arm64(b)));
    first.extend(s.packages.iter().map(|b| arm64(b)));
    first.extend(s.static_benches.iter().map(|b| arm64(b)));
    let found = apt::show_known(r, &first)?;
    let get = |name: &str| -> anyhow::Result<apt::Package> {
        found
            .iter()
            .find(|p| p.name == name)
            .cloned()
            .with_context(|| {
                format!("package {name} not found in the apt index (run scripts/setup-host.sh)")
            })
    };
    let ub = get(&s.uboot_package)?;
    let meta = get(&s.kernel_package)?;
    let busybox = get(&s.busybox_package)?;
    let mut benches = Vec::new();
    for b in &s.bench_packages {
        match get(b) {
            Ok(p) => benches.push(p),
            Err(_) => r.progress(&format!(
                "benchmark package {b} is not in the apt index for arm64: skipped"
            )),
        }
    }
    for name in &s.packages {
        benches.push(get(name)?);
    }
    let mut statics = Vec::new();
    for b in &s.static_benches {
        static_bench::recipe(b)?;
        statics.push(get(b)?);
    }
    let roots: Vec<String> = benches.iter().map(|p| p.name.clone()).collect();
    let lib_names = apt::library_closure(r, &roots)?;
    // The kernel metapackage points at the versioned image package.
    let kernel_dep = meta
        .depends
        .iter()
        .find(|d| d.starts_with("linux-image-"))
        .cloned();
    let mut second: Vec<String> = lib_names.iter().map(|n| arm64(n)).collect();
    if let Some(k) = &kernel_dep {
        second.push(arm64(k));
    }
    let found2 = apt::show_known(r, &second)?;
    let kernel = match &kernel_dep {
        Some(k) => found2
            .iter()
            .find(|p| &p.name == k)
            .cloned()
            .with_context(|| format!("kernel package {k} not found in the apt index"))?,
        None => meta,
    };
    let libs = found2
        .into_iter()
        .filter(|p| lib_names.contains(&p.name) && p.arch == "arm64")
        .collect();
    Ok(Resolved {
        uboot_source: ub.source,
        uboot_version: ub.version,
        kernel,
        busybox,
        benches,
        statics,
        libs,
    })
}

/// The source package `source` at `version`, downloaded into the cache's `src/` (kept) and
/// unpacked with its patches into `dest`, as a step of the build.
fn fetch_source(
    r: &Runner,
    cache: &Path,
    source: &str,
    version: &str,
    dest: &Path,
) -> anyhow::Result<PathBuf> {
    r.step(
        &format!("fetch source {source} {version} (apt-get source)"),
        || apt::source(r, &cache.join("src"), source, version, dest),
    )
}

/// A profile given as a file whose `[image]` differs from the built-in profile of the same
/// name would replace that board's image in the cache (it is stored under the name): an error
/// asking for a name of its own.
fn check_variant_name(opts: &BuildOptions, section: &ImageSection) -> anyhow::Result<()> {
    let Some(b) = &opts.profile else {
        return Ok(());
    };
    let Ok(builtin) = Board::builtin(&opts.board) else {
        return Ok(());
    };
    if builtin.lab.image.as_ref() != Some(section) {
        bail!(
            "board profile {} is named {:?} like the built-in board, but its [image] differs: \
             give it a `name` of its own (the image is cached under the name, and would replace \
             the built-in board's)",
            b.source,
            opts.board
        );
    }
    Ok(())
}

/// Builds (or finds in the cache) the reference image of `opts.board`.
pub fn build(opts: &BuildOptions) -> anyhow::Result<BuildOutcome> {
    let t0 = Instant::now();
    let section = match &opts.profile {
        Some(b) => b.image()?.clone(),
        None => Board::builtin(&opts.board)?.image()?.clone(),
    };
    check_variant_name(opts, &section)?;
    let cache = &opts.cache;
    std::fs::create_dir_all(cache)
        .with_context(|| format!("cannot create the cache directory {}", cache.display()))?;
    let _lock = Lock::acquire(&lock_path(cache, &opts.board))?;
    let out_dir = image_dir(&opts.board, cache);
    let artifacts = ImageArtifacts::in_dir(&out_dir);

    let mut targets = target_files()?;
    let sources = target_sources()?;
    let local = local_key(
        &opts.board,
        &section,
        &targets.iter().chain(&sources).cloned().collect::<Vec<_>>(),
    )?;
    let quick_key = KeyBuilder::default()
        .add("local", &local)
        .add("apt", &apt_fingerprint())
        .finish();
    let previous = Manifest::load(&artifacts.manifest).ok();
    if let Some(m) = quick_hit(opts, previous.as_ref(), &quick_key, &out_dir) {
        return Ok(BuildOutcome {
            artifacts,
            manifest: m,
            cached: true,
            seconds: t0.elapsed().as_secs_f64(),
        });
    }

    let log = cache.join("logs").join(format!("image-{}.log", opts.board));
    let r = Runner::new(&log, opts.quiet)?;
    r.progress(&format!(
        "{}: checking packages, then building what changed, in {} (log: {})",
        opts.board,
        out_dir.display(),
        log.display()
    ));
    let res = r.step("resolve packages (apt-cache)", || resolve(&r, &section))?;
    let versions = res.versions();
    let mut k = KeyBuilder::default();
    k.add("local", &local);
    for (n, v) in &versions {
        k.add(n, v);
    }
    let cache_key = k.finish();
    if let Some(m) = full_hit(&r, opts, previous, &cache_key, &quick_key, &artifacts)? {
        return Ok(BuildOutcome {
            artifacts,
            manifest: m,
            cached: true,
            seconds: t0.elapsed().as_secs_f64(),
        });
    }

    // The old image is no longer valid from here on.
    let _ = std::fs::remove_file(&artifacts.manifest);
    let work = cache.join("work").join(&opts.board);
    if work.exists() {
        r.step("clear the work directory", || {
            std::fs::remove_dir_all(&work)
                .with_context(|| format!("cannot clear {}", work.display()))
        })?;
    }
    std::fs::create_dir_all(&work)?;
    let debs_dir = cache.join("debs");

    // Packages.
    unpack_packages(&r, &res, &debs_dir, &work)?;

    let (ub_bin, ub_dir) = build_uboot(&r, opts, &section, &res, &work)?;

    targets.extend(build_statics(&r, opts, &res, &work)?);

    // Kernel.
    let boot = work.join("boot");
    std::fs::create_dir_all(boot.join("extlinux"))?;
    let kdir = pkg_dir(&work, &res.kernel);
    let release = kernel_image(&r, &res.kernel.name, &kdir, &boot)?;

    // Root file system.
    let root = work.join("rootfs");
    let (info, modules) = root_fs(
        &r,
        &section,
        &res,
        &work,
        &RootFsParts {
            sources: &sources,
            targets,
            root: &root,
            kdir: &kdir,
            release: &release,
        },
    )?;
    // Fixed timestamps: the same inputs give the same bytes.
    let epoch: i64 = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    r.step("initramfs (cpio newc + zstd)", || {
        rootfs::pack_initramfs(&r, &root, &boot.join("initrd.img"), epoch)
    })?;

    // Disk.
    let (cmdline, disk_tmp) = disk_image(&r, opts, &section, &boot, &work, epoch)?;

    // Publish.
    std::fs::create_dir_all(&out_dir)?;
    let mut files = publish(&ub_bin, &disk_tmp, &boot, &artifacts)?;
    files.extend(env_flash(&r, &section, &ub_dir, &artifacts)?);
    let mut packages = versions;
    packages.insert("kernel-release".into(), release);
    let manifest = Manifest {
        schema: "perfguide/image/v1".into(),
        board: opts.board.clone(),
        cache_key,
        quick_key,
        built_at: chrono::Local::now().to_rfc3339(),
        tool_version: env!("CARGO_PKG_VERSION").into(),
        build_seconds: t0.elapsed().as_secs_f64(),
        files,
        packages,
        kernel_cmdline: cmdline,
        uboot_fragments: section.uboot_fragments.clone(),
        uboot_fragment: section.uboot_fragment.clone(),
        benchmarks: info.programs,
        modules,
    };
    manifest.save(&artifacts.manifest)?;
    r.progress(&format!(
        "done in {:.1}s: {}",
        t0.elapsed().as_secs_f64(),
        out_dir.display()
    ));
    Ok(BuildOutcome {
        artifacts,
        manifest,
        cached: false,
        seconds: t0.elapsed().as_secs_f64(),
    })
}

/// The previous image, when its quick key (the local inputs and apt's lists) is this build's
/// and its files are intact: nothing to do.
fn quick_hit(
    opts: &BuildOptions,
    previous: Option<&Manifest>,
    quick_key: &str,
    out_dir: &Path,
) -> Option<Manifest> {
    let m = previous.filter(|_| !opts.force)?;
    if m.quick_key != quick_key || !m.files_intact(out_dir, false) {
        return None;
    }
    if !opts.quiet {
        eprintln!(
            "perfguide image: {} is up to date (cache key {}) in {}",
            opts.board,
            &m.cache_key[..16],
            out_dir.display()
        );
    }
    Some(m.clone())
}

/// The previous image, when its full key (the local inputs and the resolved package
/// versions) is this build's and its files hash as recorded: its manifest, with the new
/// quick key saved.
fn full_hit(
    r: &Runner,
    opts: &BuildOptions,
    previous: Option<Manifest>,
    cache_key: &str,
    quick_key: &str,
    artifacts: &ImageArtifacts,
) -> anyhow::Result<Option<Manifest>> {
    let Some(mut m) = previous.filter(|_| !opts.force) else {
        return Ok(None);
    };
    let out_dir = artifacts.manifest.parent().unwrap_or(Path::new("."));
    if m.cache_key != cache_key || !m.files_intact(out_dir, true) {
        return Ok(None);
    }
    m.quick_key = quick_key.to_string();
    m.save(&artifacts.manifest)?;
    r.progress(&format!(
        "{} is up to date (cache key {})",
        opts.board,
        &cache_key[..16]
    ));
    Ok(Some(m))
}

/// The disk: extlinux.conf with the kernel command line (U-Boot's variable added when the
/// profile boots quiet at will), then the partitioned image. The command line and the disk.
fn disk_image(
    r: &Runner,
    opts: &BuildOptions,
    section: &ImageSection,
    boot: &Path,
    work: &Path,
    epoch: i64,
) -> anyhow::Result<(String, PathBuf)> {
    let cmdline = match &section.quiet_kernel_args {
        Some(_) => format!("{} ${{{}}}", section.cmdline(), env::ARGS_VAR),
        None => section.cmdline(),
    };
    std::fs::write(
        boot.join("extlinux/extlinux.conf"),
        disk::extlinux_conf(&opts.board, &cmdline),
    )?;
    let disk_tmp = work.join("disk.img");
    r.step("disk image (sfdisk + mkfs.ext4 -d)", || {
        rootfs::set_mtimes(r, boot, &rootfs::list_paths(boot)?, epoch)?;
        disk::build(r, boot, &disk_tmp, epoch, section.scratch_mib)
    })?;
    Ok((cmdline, disk_tmp))
}

/// The directory a package is unpacked into.
fn pkg_dir(work: &Path, p: &apt::Package) -> PathBuf {
    work.join("pkgs").join(&p.name)
}

/// The packages downloaded and unpacked: the libraries into `sysroot`, each other package
/// into its own directory ([`pkg_dir`]).
fn unpack_packages(r: &Runner, res: &Resolved, debs_dir: &Path, work: &Path) -> anyhow::Result<()> {
    let all: Vec<apt::Package> = [&res.kernel, &res.busybox]
        .into_iter()
        .chain(&res.benches)
        .chain(&res.libs)
        .cloned()
        .collect();
    let debs = r.step(
        &format!("download {} arm64 packages (apt-get download)", all.len()),
        || apt::download(r, debs_dir, &all),
    )?;
    let sysroot = work.join("sysroot");
    r.step("unpack packages (dpkg-deb -x)", || {
        for (i, p) in all.iter().enumerate() {
            if res.libs.contains(p) {
                apt::extract(r, &debs[i], &sysroot)?;
            } else {
                apt::extract(r, &debs[i], &pkg_dir(work, p))?;
            }
        }
        Ok(())
    })
}

/// What the root file system is made of besides the packages.
struct RootFsParts<'a> {
    /// The target programs' sources, built here.
    sources: &'a [PathBuf],
    /// Files put in as they are (the static benchmarks' programs).
    targets: Vec<PathBuf>,
    /// Where the tree is made.
    root: &'a Path,
    /// The kernel package's directory and release (its modules).
    kdir: &'a Path,
    release: &'a str,
}

/// The root file system: busybox, the benchmarks, their libraries, the target programs and
/// the kernel modules the profile names; what went in.
fn root_fs(
    r: &Runner,
    section: &ImageSection,
    res: &Resolved,
    work: &Path,
    parts: &RootFsParts<'_>,
) -> anyhow::Result<(rootfs::RootfsInfo, Vec<String>)> {
    let mut targets = parts.targets.clone();
    let (root, kdir, release) = (parts.root, parts.kdir, parts.release);
    let pkg_dir = |p: &apt::Package| pkg_dir(work, p);
    let sysroot = work.join("sysroot");
    for src in parts.sources {
        let name = src.file_name().unwrap_or_default().to_string_lossy();
        targets.push(r.step(&format!("target program {name}"), || {
            build_target_program(r, src, &work.join("target-programs"))
        })?);
    }
    let bench_dirs: Vec<PathBuf> = res.benches.iter().map(pkg_dir).collect();
    let info = r.step("root file system (busybox, benchmarks, libraries)", || {
        rootfs::populate(
            root,
            &rootfs::RootfsInputs {
                busybox: &pkg_dir(&res.busybox),
                benches: &bench_dirs,
                sysroot: &sysroot,
                target_files: &targets,
                hostname: &section.hostname,
            },
        )
    })?;
    let modules = r.step("kernel modules for the initramfs", || {
        kernel::install_modules(kdir, release, root, &section.modules)
    })?;
    r.progress(&format!(
        "rootfs: {} programs, {} shared objects, modules: {}",
        info.programs.len(),
        info.libraries.len(),
        if modules.is_empty() {
            "none".to_string()
        } else {
            modules.join(" ")
        }
    ));
    Ok((info, modules))
}

/// The built files put in the image directory, each replaced by rename, never rewritten in
/// place (a QEMU still running from the old files keeps reading them); their entries, with
/// the disk's boot files.
fn publish(
    ub_bin: &Path,
    disk_tmp: &Path,
    boot: &Path,
    artifacts: &ImageArtifacts,
) -> anyhow::Result<Vec<FileEntry>> {
    let mut files = Vec::new();
    let ub_tmp = artifacts.u_boot.with_extension("bin.tmp");
    std::fs::copy(ub_bin, &ub_tmp)?;
    std::fs::rename(&ub_tmp, &artifacts.u_boot)?;
    files.push(file_entry("u-boot.bin", &artifacts.u_boot)?);
    std::fs::rename(disk_tmp, &artifacts.disk)?;
    files.push(file_entry("disk.img", &artifacts.disk)?);
    for (name, p) in [
        ("disk.img:/Image", boot.join("Image")),
        ("disk.img:/initrd.img", boot.join("initrd.img")),
        (
            "disk.img:/extlinux/extlinux.conf",
            boot.join("extlinux/extlinux.conf"),
        ),
    ] {
        files.push(file_entry(name, &p)?);
    }
    Ok(files)
}

/// U-Boot, cached by its own key: the layer's fragments, then the profile's lines. Returns
/// the binary and the directory of its cached build.
fn build_uboot(
    r: &Runner,
    opts: &BuildOptions,
    section: &ImageSection,
    res: &Resolved,
    work: &Path,
) -> anyhow::Result<(PathBuf, PathBuf)> {
    let mut fragments = layer::fragments(&section.uboot_fragments)?;
    fragments.push(uboot::Fragment::from_lines(
        &format!("{} [image] uboot_fragment", opts.board),
        &section.uboot_fragment,
    ));
    let mut ub_key = KeyBuilder::default();
    ub_key
        .add("recipe", UBOOT_RECIPE_VERSION)
        .add("source", &res.uboot_source)
        .add("version", &res.uboot_version)
        .add("defconfig", &section.uboot_defconfig);
    for f in &fragments {
        ub_key.add(&format!("fragment {}", f.name), &f.text);
    }
    let ub_key = ub_key.finish();
    let ub_dir = opts
        .cache
        .join("build")
        .join(format!("u-boot-{}", &ub_key[..16]));
    let ub_cached = ub_dir.join("u-boot.bin");
    let ub_bin = if uboot::OUTPUTS.iter().all(|n| ub_dir.join(n).exists()) && !opts.force {
        r.progress(&format!(
            "u-boot {}: cached build {}",
            res.uboot_version,
            ub_cached.display()
        ));
        ub_cached
    } else {
        let src = fetch_source(
            r,
            &opts.cache,
            &res.uboot_source,
            &res.uboot_version,
            &work.join("u-boot-src"),
        )?;
        r.step(
            &format!(
                "build U-Boot {} ({} + {}, -j{})",
                res.uboot_version,
                section.uboot_defconfig,
                fragments
                    .iter()
                    .map(|f| f.name.as_str())
                    .collect::<Vec<_>>()
                    .join(" + "),
                opts.jobs
            ),
            || {
                let bin = uboot::build_reference(
                    r,
                    &src,
                    &work.join("u-boot-build"),
                    &section.uboot_defconfig,
                    &fragments,
                    opts.jobs.max(1),
                )?;
                std::fs::create_dir_all(&ub_dir)?;
                let built = bin.parent().expect("has a parent");
                for name in uboot::OUTPUTS {
                    std::fs::copy(built.join(name), ub_dir.join(name))?;
                }
                // The trees are large and the binary is kept by key: drop them now.
                for d in ["u-boot-src", "u-boot-build"] {
                    let _ = std::fs::remove_dir_all(work.join(d));
                }
                Ok(ub_cached.clone())
            },
        )?
    };
    Ok((ub_bin, ub_dir))
}

/// The benchmarks built static from source, each cached by its own key: their programs.
fn build_statics(
    r: &Runner,
    opts: &BuildOptions,
    res: &Resolved,
    work: &Path,
) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in &res.statics {
        let recipe = static_bench::recipe(&p.name)?;
        let key = KeyBuilder::default()
            .add("recipe", STATIC_RECIPE_VERSION)
            .add("source", &p.source)
            .add("version", &p.source_version)
            .add("build", &format!("{recipe:?}"))
            .finish();
        let dir = opts
            .cache
            .join("build")
            .join(format!("{}-{}", p.source, &key[..16]));
        let programs: Vec<PathBuf> = recipe.programs.iter().map(|n| dir.join(n)).collect();
        if !opts.force && programs.iter().all(|f| f.exists()) {
            r.progress(&format!(
                "{} {}: cached static build {}",
                p.source,
                p.source_version,
                dir.display()
            ));
        } else {
            let src = fetch_source(
                r,
                &opts.cache,
                &p.source,
                &p.source_version,
                &work.join(format!("{}-src", p.source)),
            )?;
            r.step(
                &format!(
                    "build {} {} static for arm64 (-j{})",
                    p.source, p.source_version, opts.jobs
                ),
                || {
                    let tmp = dir.with_extension("tmp");
                    let _ = std::fs::remove_dir_all(&tmp);
                    recipe.build(r, &src, &tmp, opts.jobs.max(1))?;
                    let _ = std::fs::remove_dir_all(&dir);
                    std::fs::rename(&tmp, &dir)?;
                    let _ = std::fs::remove_dir_all(&src);
                    Ok(())
                },
            )?;
        }
        out.extend(programs);
    }
    Ok(out)
}

/// The kernel package's image as `boot/Image`, its configuration checked: its release.
fn kernel_image(r: &Runner, name: &str, kdir: &Path, boot: &Path) -> anyhow::Result<String> {
    r.step(&format!("kernel {name} -> Image"), || {
        let (vmlinuz, release) = kernel::find_vmlinuz(kdir)?;
        kernel::to_image(r, &vmlinuz, &boot.join("Image"))?;
        if kernel::config_value(kdir, &release, "CONFIG_PRINTK_TIME").as_deref() != Some("y") {
            r.progress("warning: the kernel has no CONFIG_PRINTK_TIME=y");
        }
        for sym in ["CONFIG_BLK_DEV_INITRD", "CONFIG_RD_ZSTD"] {
            if kernel::config_value(kdir, &release, sym).as_deref() != Some("y") {
                bail!("kernel {release} lacks {sym}=y, which the zstd initramfs needs");
            }
        }
        Ok(release)
    })
}

/// A file of the image: its name, sha256 and size.
fn file_entry(name: &str, path: &Path) -> anyhow::Result<FileEntry> {
    Ok(FileEntry {
        name: name.to_string(),
        sha256: sha256_file(path)?,
        size: std::fs::metadata(path)?.len(),
    })
}

/// With `[image] quiet_kernel_args`: U-Boot's environment flash, loud and quiet, from the
/// build's default environment; their entries. Without: none (old ones removed).
fn env_flash(
    r: &Runner,
    section: &ImageSection,
    ub_dir: &Path,
    artifacts: &ImageArtifacts,
) -> anyhow::Result<Vec<FileEntry>> {
    if let Some(args) = &section.quiet_kernel_args {
        let bank = section.uboot_env_flash_bytes.with_context(|| {
            "[image] quiet_kernel_args needs uboot_env_flash_bytes (the size of the flash bank \
             that holds U-Boot's environment)"
        })?;
        r.step("U-Boot environment flash, loud and quiet", || {
            let config = std::fs::read_to_string(ub_dir.join(".config"))?;
            let layout = env::EnvLayout::from_config(&config)?;
            let builtin =
                env::parse_initial_env(&std::fs::read_to_string(ub_dir.join(uboot::INITIAL_ENV))?)?;
            for (kind, path) in [
                (env::EnvKind::Loud, &artifacts.env_loud),
                (env::EnvKind::Quiet, &artifacts.env_quiet),
            ] {
                let block = env::block(&env::variables(&builtin, kind, args), layout.size)?;
                let tmp = path.with_extension("bin.tmp");
                env::write_flash(&tmp, &block, layout, bank)?;
                std::fs::rename(&tmp, path)?;
            }
            Ok(())
        })?;
        Ok(vec![
            file_entry(ENV_LOUD, &artifacts.env_loud)?,
            file_entry(ENV_QUIET, &artifacts.env_quiet)?,
        ])
    } else {
        for p in [&artifacts.env_loud, &artifacts.env_quiet] {
            let _ = std::fs::remove_file(p);
        }
        Ok(Vec::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BUILTIN_QEMU: &str = include_str!("../../../images/boards/qemu-arm64.toml");

    fn section() -> ImageSection {
        Board::builtin("qemu-arm64")
            .unwrap()
            .image()
            .unwrap()
            .clone()
    }

    #[test]
    fn qemu_profile_has_an_image_section() {
        let s = section();
        assert_eq!(s.uboot_defconfig, "qemu_arm64_defconfig");
        assert!(s
            .uboot_fragments
            .iter()
            .any(|f| f == "perfguide-bootstage.cfg"));
        // Every fragment the profile names is one of the layer's files, readable.
        let frags = layer::fragments(&s.uboot_fragments).unwrap();
        assert!(frags[0].text.lines().any(|l| l == "CONFIG_BOOTSTAGE=y"));
        assert!(s.cmdline().contains("printk.time=1"));
        assert!(Board::builtin("generic").unwrap().image().is_err());
    }

    #[test]
    fn local_key_follows_inputs() {
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("perfguide-bench");
        std::fs::write(&f, b"#!/bin/sh\n").unwrap();
        let s = section();
        let a = local_key("qemu-arm64", &s, std::slice::from_ref(&f)).unwrap();
        assert_eq!(
            a,
            local_key("qemu-arm64", &s, std::slice::from_ref(&f)).unwrap()
        );
        std::fs::write(&f, b"#!/bin/sh\necho\n").unwrap();
        assert_ne!(
            a,
            local_key("qemu-arm64", &s, std::slice::from_ref(&f)).unwrap()
        );
        let mut s2 = s.clone();
        s2.kernel_cmdline.push_str(" quiet");
        assert_ne!(
            local_key("qemu-arm64", &s, &[]).unwrap(),
            local_key("qemu-arm64", &s2, &[]).unwrap()
        );
    }

    #[test]
    fn a_variant_needs_a_name_of_its_own() {
        let d = tempfile::tempdir().unwrap();
        let text = BUILTIN_QEMU.replace(
            "\"CONFIG_BOOTDELAY=0\"",
            "\"CONFIG_BOOTDELAY=0\", 'CONFIG_PREBOOT=\"sleep 0.2\"'",
        );
        assert_ne!(text, BUILTIN_QEMU);
        let mut opts = BuildOptions::new("qemu-arm64");
        opts.cache = d.path().join("cache");
        opts.profile = Some(Board::from_toml_str("variant.toml", &text).unwrap());
        let e = build(&opts).unwrap_err().to_string();
        assert!(
            e.contains("variant.toml") && e.contains("a `name` of its own"),
            "{e}"
        );
        assert!(!opts.cache.exists(), "nothing is written");
        // The built-in profile's own text from a file is the same board.
        opts.profile = Some(Board::from_toml_str("copy.toml", BUILTIN_QEMU).unwrap());
        check_variant_name(&opts, &section()).unwrap();
    }

    #[test]
    fn the_delay_variant_is_qemu_arm64_with_a_preboot_sleep_only() {
        // An A/B test of the U-Boot stage needs everything else equal: the copy must not drift.
        let variant = include_str!("../../tests/data/qemu-arm64-uboot-delay.toml");
        let b = Board::from_toml_str("qemu-arm64-uboot-delay.toml", variant).unwrap();
        assert_eq!(b.name(), "qemu-arm64-uboot-delay");
        let preboot = ["CONFIG_USE_PREBOOT=y", "CONFIG_PREBOOT=\"sleep 0.2\""];
        let fragment = &b.image().unwrap().uboot_fragment;
        assert!(preboot.iter().all(|l| fragment.iter().any(|f| f == l)));
        let strip = |text: &str| {
            let mut v: toml::Table = toml::from_str(text).unwrap();
            v.remove("name");
            v.remove("description");
            // The layer's U-Boot builds are the board's, not its image's.
            v.remove("uboot");
            if let Some(toml::Value::Array(f)) =
                v.get_mut("image").and_then(|i| i.get_mut("uboot_fragment"))
            {
                f.retain(|l| !preboot.contains(&l.as_str().unwrap_or_default()));
            }
            v
        };
        assert_eq!(strip(variant), strip(BUILTIN_QEMU));
    }

    #[test]
    fn built_image_hint_names_the_board_file() {
        let d = tempfile::tempdir().unwrap();
        let f = Path::new("tests/data/qemu-arm64-uboot-delay.toml");
        let e = built_image("qemu-arm64-uboot-delay", Some(f), d.path())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("image build --board-file tests/data/qemu-arm64-uboot-delay.toml"),
            "{e}"
        );
        let e = built_image("qemu-arm64", None, d.path())
            .unwrap_err()
            .to_string();
        assert!(e.contains("image build --board qemu-arm64 "), "{e}");
    }

    #[test]
    fn cache_dir_prefers_perfguide_cache() {
        // Only reads the environment; the variable is set by whoever runs the tests or not.
        let d = cache_dir();
        assert!(d.is_absolute() || std::env::var_os("PERFGUIDE_CACHE").is_some());
    }
}
