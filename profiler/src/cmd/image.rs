//! `perfguide image ...`: build the reference image of a board (QEMU `qemu-arm64`), build a
//! board's instrumented boot loaders, inspect boot images.

use perfguide::image::bootloader::{self, UbootOptions, UbootOutcome};
use perfguide::image::{self, BuildOptions};
use perfguide::profile::Board;
use std::path::PathBuf;
use std::process::ExitCode;

/// The board whose reference image `image build` builds and `image argv` boots: a profile id
/// or a profile file, and the cache the image is in.
#[derive(clap::Args, Debug)]
pub struct ImageArgs {
    /// Board profile id (must have an `[image]` section).
    #[arg(long, default_value = "qemu-arm64")]
    board: String,
    /// A board profile file instead (TOML, same keys as images/boards/*.toml, with an
    /// `[image]` section): an image variant, built into the cache under the profile's
    /// `name` and booted with `perfguide boot-loop --board-file` of the same file.
    #[arg(long, value_name = "PATH", conflicts_with = "board")]
    board_file: Option<PathBuf>,
    /// Cache directory [default: $PERFGUIDE_CACHE, else $XDG_CACHE_HOME/perfguide, else
    /// ~/.cache/perfguide].
    #[arg(long)]
    cache: Option<PathBuf>,
}

impl ImageArgs {
    /// The board's profile, read from the file or the built-in profiles.
    fn board(&self) -> anyhow::Result<Board> {
        Ok(match &self.board_file {
            Some(p) => Board::from_file(p)?,
            None => Board::builtin(&self.board)?,
        })
    }

    /// The cache directory.
    fn cache(&self) -> PathBuf {
        self.cache.clone().unwrap_or_else(image::cache::cache_dir)
    }
}

/// Image subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum ImageCommand {
    /// Build the reference image of a board from distribution packages: U-Boot (with
    /// bootstage), kernel, busybox root file system with benchmarks, partitioned disk.
    /// Needs the host packages that `scripts/setup-host.sh` installs.
    Build {
        #[command(flatten)]
        image: ImageArgs,
        /// Rebuild everything even when the cache has this image.
        #[arg(long)]
        force: bool,
        /// Parallel jobs for the U-Boot build [default: number of CPUs].
        #[arg(long, short = 'j')]
        jobs: Option<usize>,
        /// Print the manifest (`image.json`) on stdout when done.
        #[arg(long)]
        json: bool,
    },
    /// Build the board's boot loaders as the Yocto layer instruments them: each `[[uboot]]`
    /// of its profile (e.g. the R5 SPL and the A53 SPL + U-Boot of a TI K3 board) from
    /// U-Boot's source with the layer's patches and config fragments
    /// (meta-perfguide/recipes-bsp/u-boot/files/). Checks that every fragment line is in the
    /// final .config and that each SPL is within the size limits U-Boot enforces; TI firmware
    /// that is not public (SYSFW/TIFS, DM, TF-A, OP-TEE) is faked by binman and named.
    /// Cached by content. The source is U-Boot's release pinned in images/uboot/source.toml
    /// (Debian's upstream tarball; `scripts/setup-host.sh` adds its deb-src entry), or
    /// `--source DIR`, e.g. a checkout of the U-Boot your BSP builds.
    ///
    /// Examples:
    ///   perfguide image uboot --board am62xx-evm
    ///   perfguide image uboot --board j721e-evm --build r5 --source ~/src/ti-u-boot
    ///   perfguide image inspect $(perfguide image uboot --board am62xx-evm --json | jq -r \
    ///       '.[] | .dir + "/" + .images[]')
    Uboot {
        /// Board profile id (must have `[[uboot]]` tables; `perfguide boards` lists them).
        #[arg(long, required_unless_present = "board_file")]
        board: Option<String>,
        /// A board profile file instead (TOML, same keys as images/boards/*.toml).
        #[arg(long, value_name = "PATH", conflicts_with = "board")]
        board_file: Option<PathBuf>,
        /// Only this build of the board (repeatable): a `[[uboot]]` name (`r5`, `a53`, ...).
        #[arg(long = "build", value_name = "NAME")]
        builds: Vec<String>,
        /// Build this U-Boot tree instead of the pinned release (it is copied, then patched;
        /// never taken from the cache).
        #[arg(long, value_name = "DIR")]
        source: Option<PathBuf>,
        /// Cache directory [default: $PERFGUIDE_CACHE, else $XDG_CACHE_HOME/perfguide, else
        /// ~/.cache/perfguide].
        #[arg(long)]
        cache: Option<PathBuf>,
        /// Rebuild even when the cache has the build.
        #[arg(long)]
        force: bool,
        /// Parallel jobs of make [default: number of CPUs].
        #[arg(long, short = 'j')]
        jobs: Option<usize>,
        /// Print the results (`perfguide/uboot-build/v1`, a JSON array) on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Print the command line that boots a QEMU board's built image, as a JSON array (the
    /// program, then each argument): its profile's `[qemu] args` with the image's files in
    /// place, as `boot-loop` starts it. For scripts that start the board themselves, e.g.
    /// with a forwarded port added to its user network.
    ///
    /// Example:
    ///   perfguide image argv --board qemu-arm64 | jq -r '.[]'
    Argv {
        #[command(flatten)]
        image: ImageArgs,
        /// The boot's console: `quiet` takes the quiet U-Boot environment flash.
        #[arg(long, value_parser = ["loud", "quiet"], default_value = "loud")]
        console: String,
    },
    /// Boot image inspection, load-time estimates, SBL profiles and patching: the
    /// `sbl-instrument` subcommands (`inspect`, `estimate`, `media`, `profile-map`, `extract`,
    /// `patch`).
    #[command(flatten)]
    Tools(sbl_instrument::cli::Cmd),
}

/// Runs the subcommand.
pub fn run(a: ImageCommand) -> anyhow::Result<ExitCode> {
    match a {
        ImageCommand::Tools(cmd) => Ok(sbl_instrument::cli::run(cmd)?),
        ImageCommand::Argv { image: a, console } => {
            let b = a.board()?;
            let built = image::built_image(b.name(), a.board_file.as_deref(), &a.cache())?;
            let mut files = built.roles();
            if console == "quiet" {
                files.insert(image::UBOOT_ENV.to_string(), built.env_quiet.clone());
            }
            println!("{}", serde_json::to_string(&b.qemu_argv(&files)?)?);
            Ok(ExitCode::SUCCESS)
        }
        ImageCommand::Uboot {
            board,
            board_file,
            builds,
            source,
            cache,
            force,
            jobs,
            json,
        } => {
            let b = match (board_file, board) {
                (Some(p), _) => Board::from_file(&p)?,
                (None, Some(name)) => Board::builtin(&name)?,
                (None, None) => anyhow::bail!("give --board NAME or --board-file PATH"),
            };
            let mut opts = UbootOptions::new(b);
            opts.only = builds;
            opts.source = source;
            if let Some(c) = cache {
                opts.cache = c;
            }
            if let Some(j) = jobs {
                opts.jobs = j.max(1);
            }
            opts.force = force;
            let out = bootloader::build_board(&opts)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&out)?);
            } else {
                for o in &out {
                    print!("{}", describe(o));
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        ImageCommand::Build {
            image: a,
            force,
            jobs,
            json,
        } => {
            let mut opts = BuildOptions::new(&a.board);
            if a.board_file.is_some() {
                let b = a.board()?;
                opts = BuildOptions::new(b.name());
                opts.profile = Some(b);
            }
            opts.cache = a.cache();
            if let Some(j) = jobs {
                opts.jobs = j.max(1);
            }
            opts.force = force;
            let out = image::build(&opts)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&out.manifest)?);
            } else {
                println!("u-boot: {}", out.artifacts.u_boot.display());
                println!("disk:   {}", out.artifacts.disk.display());
                println!("manifest: {}", out.artifacts.manifest.display());
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// A build's result for people.
fn describe(o: &UbootOutcome) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let how = if o.cached {
        "cached".to_string()
    } else {
        format!("built in {:.0} s", o.build_seconds)
    };
    let _ = writeln!(
        s,
        "{} {}: {} ({}) from {}, {how}",
        o.board,
        o.name,
        o.defconfig,
        o.arch.as_str(),
        o.source
    );
    let _ = writeln!(
        s,
        "  fragments: {} ({} lines, each in the final .config)",
        o.fragments.join(" "),
        o.config_lines_checked
    );
    if !o.patches.is_empty() {
        let _ = writeln!(s, "  patches:   {} applied", o.patches.len());
    }
    if let Some(spl) = &o.spl {
        let _ = writeln!(
            s,
            "  SPL:       spl/u-boot-spl.bin, {} bytes",
            spl.bin_bytes
        );
        for l in &spl.limits {
            let _ = writeln!(
                s,
                "             {}: {} of {} bytes ({:.1} %)",
                l.what,
                l.used,
                l.limit,
                100.0 * l.used as f64 / l.limit.max(1) as f64
            );
        }
    }
    for img in &o.images {
        let size = o
            .files
            .iter()
            .find(|f| &f.name == img)
            .map_or(0, |f| f.size);
        let _ = writeln!(s, "  image:     {} ({size} bytes)", o.path(img).display());
    }
    let faked: Vec<String> = o
        .missing_blobs
        .iter()
        .flat_map(|b| b.faked.iter().cloned())
        .fold(Vec::new(), |mut v, n| {
            if !v.contains(&n) {
                v.push(n);
            }
            v
        });
    if !faked.is_empty() {
        let _ = writeln!(
            s,
            "  firmware not found, faked by binman (the images do not boot without it): {}",
            faked.join(" ")
        );
    }
    s
}
