//! Opening a board for a run: its profile (built in, a file, or the run's being continued),
//! on a labgrid place or not, its image files and their hashes, its power and console
//! drivers, and the run manifest; shared by `boot-loop`, `bench` and the labgrid places.

use anyhow::{bail, Context};
use perfguide::digest::sha256_file;
use perfguide::lab::latency::LatencyTimer;
use perfguide::lab::Target;
use perfguide::process::quote_argv;
use perfguide::profile::Board;
use perfguide::rundir::{HostInfo, ImageFile, RunManifest, ToolInfo, RUN_SCHEMA};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The board and its image files, as `boot-loop` and `bench` take them.
#[derive(clap::Args, Debug)]
pub struct BoardArgs {
    /// Built-in board profile (see `perfguide boards`). Defaults to the run's when continuing
    /// one (boot-loop --resume, bench --out RUN), else qemu-arm64.
    #[arg(long, short = 'b')]
    pub board: Option<String>,
    /// A board profile file (TOML, same keys as images/boards/*.toml); wins over --board.
    #[arg(long, value_name = "PATH")]
    pub board_file: Option<PathBuf>,
    /// Image cache of `perfguide image build` (QEMU boards). Default: $PERFGUIDE_CACHE, else
    /// $XDG_CACHE_HOME/perfguide, else ~/.cache/perfguide.
    #[arg(long, value_name = "DIR")]
    pub cache: Option<PathBuf>,
    /// An image file as ROLE=PATH: recorded with its sha256 in run.json; for QEMU boards it
    /// also fills the `{ROLE}` placeholder of [qemu] args (e.g. u_boot=..., disk=...).
    #[arg(long = "image", value_name = "ROLE=PATH")]
    pub images: Vec<String>,
    /// Run on a labgrid place: the board's power and console become the place's (its
    /// network serial port), the coordinator the profile's `[power] coordinator` or
    /// labgrid-client's default (LG_COORDINATOR). The place is acquired for the run and
    /// released at its end. boot-loop takes it more than once: one run per place, at once,
    /// each in --out/PLACE.
    #[arg(long = "place", value_name = "PLACE")]
    pub places: Vec<String>,
}

fn cache_dir(a: &BoardArgs) -> PathBuf {
    a.cache.clone().unwrap_or_else(perfguide::image::cache_dir)
}

/// Image files of a board: `--image` values over, for a QEMU board, the image that
/// `perfguide image build` left in the cache (u-boot.bin, disk.img, image.json).
pub(crate) fn image_files(
    board: &str,
    a: &BoardArgs,
    qemu: bool,
) -> anyhow::Result<BTreeMap<String, PathBuf>> {
    let mut given = BTreeMap::new();
    for spec in &a.images {
        let Some((role, path)) = spec.split_once('=') else {
            bail!("--image {spec:?}: expected ROLE=PATH, e.g. disk=/srv/images/disk.img");
        };
        given.insert(role.to_string(), PathBuf::from(path));
    }
    let mut files = BTreeMap::new();
    if qemu {
        match perfguide::image::built_image(board, a.board_file.as_deref(), &cache_dir(a)) {
            Ok(img) => {
                files = img.roles();
                // An image built before the environment flash images has none.
                if !(img.env_loud.exists() && img.env_quiet.exists()) {
                    files.remove(perfguide::image::UBOOT_ENV);
                    files.remove(perfguide::image::UBOOT_ENV_QUIET);
                }
            }
            // Both boot files given by hand: no built image needed.
            Err(_) if given.contains_key("u_boot") && given.contains_key("disk") => {}
            Err(e) => {
                return Err(e.context(format!(
                    "board {board} boots the image of `perfguide image build` (or pass \
                     --image u_boot=PATH --image disk=PATH)"
                )))
            }
        }
    }
    files.extend(given);
    for (role, p) in &files {
        if !p.exists() {
            bail!("image file {role} = {}: no such file", p.display());
        }
    }
    Ok(files)
}

pub(crate) fn hash_images(files: &BTreeMap<String, PathBuf>) -> anyhow::Result<Vec<ImageFile>> {
    files
        .iter()
        .map(|(role, path)| {
            let (sha256, bytes) =
                sha256_file(path).with_context(|| format!("cannot read {}", path.display()))?;
            Ok(ImageFile {
                role: role.clone(),
                path: std::fs::canonicalize(path).unwrap_or_else(|_| path.clone()),
                bytes,
                sha256,
            })
        })
        .collect()
}

/// The board: `--board-file`, else the run's own profile on `--resume` (unless `--board`
/// names another board), else the built-in `--board` (default `qemu-arm64`).
pub(crate) fn load_board(
    a: &BoardArgs,
    run_manifest: Option<&RunManifest>,
) -> anyhow::Result<Board> {
    if let Some(p) = &a.board_file {
        return Board::from_file(p);
    }
    if let Some(m) = run_manifest {
        if a.board.as_deref().map_or(true, |b| b == m.board) && !m.board_profile.is_empty() {
            let mut b = Board::from_toml_str(&format!("{} (run.json)", m.board), &m.board_profile)?;
            b.source = m.board_source.clone();
            return Ok(b);
        }
    }
    let name = a
        .board
        .clone()
        .or_else(|| run_manifest.map(|m| m.board.clone()))
        .unwrap_or_else(|| "qemu-arm64".to_string());
    Ok(Board::builtin(&name)?)
}

/// [`load_board`], on the `--place` given (one).
fn board_on_place(a: &BoardArgs, run_manifest: Option<&RunManifest>) -> anyhow::Result<Board> {
    let mut board = load_board(a, run_manifest)?;
    match a.places.as_slice() {
        [] => {}
        [p] => board.on_place(p)?,
        _ => bail!("one --place per run here; boot-loop takes several"),
    }
    Ok(board)
}

/// The board and the files of `a`: its profile on the `--place` given, the drivers it names
/// opened (a labgrid place acquired, its notes printed).
pub(crate) fn open_target(
    a: &BoardArgs,
    run_manifest: Option<&RunManifest>,
) -> anyhow::Result<(Board, BTreeMap<String, PathBuf>, Target)> {
    let board = board_on_place(a, run_manifest)?;
    let files = image_files(&board.profile.name, a, board.is_qemu())?;
    let target = Target::from_profile(&board, &files)?;
    for n in target.lease.iter().flat_map(|l| &l.notes) {
        eprintln!("perfguide: {n}");
    }
    Ok((board, files, target))
}

/// The manifest of a new run of `board` on `target`.
pub(crate) fn new_manifest(
    board: &Board,
    images: Vec<ImageFile>,
    target: &Target,
    args: &[String],
    cycles: u32,
    timeout_s: f64,
) -> RunManifest {
    RunManifest {
        schema: RUN_SCHEMA.into(),
        board: board.profile.name.clone(),
        board_source: board.source.clone(),
        board_profile: board.text.clone(),
        images,
        host: HostInfo::current(),
        tool: ToolInfo::default(),
        started: now_rfc3339(),
        args: args.to_vec(),
        cycles,
        timeout_s,
        power: target.power.describe(),
        console: target.console.describe(),
        latency_timer: latency_timer(target),
        resumes: vec![],
    }
}

/// The console's latency timer for run.json; a timer above 1 ms or one that cannot be read is
/// a warning on stderr.
pub(crate) fn latency_timer(target: &Target) -> Option<LatencyTimer> {
    match target.console.latency_timer()? {
        Ok(t) => {
            if let Some(w) = t.warning() {
                eprintln!("perfguide: warning: {w}");
            }
            Some(t.clone())
        }
        Err(e) => {
            eprintln!("perfguide: warning: {e}: console stamps may be late by up to its value");
            None
        }
    }
}

pub(crate) fn now_rfc3339() -> String {
    chrono::Local::now()
        .format("%Y-%m-%dT%H:%M:%S%.6f%:z")
        .to_string()
}

pub(crate) fn shell_path(p: &Path) -> String {
    quote_argv(&[p.display().to_string()])
}
