//! `perfguide image ...`: build the reference image of a board (QEMU `qemu-arm64`).

use crate::image::{self, BuildOptions};
use crate::profile::Board;
use std::path::PathBuf;
use std::process::ExitCode;

/// Image subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum ImageCommand {
    /// Build the reference image of a board from distribution packages: U-Boot (with
    /// bootstage), kernel, busybox root file system with benchmarks, partitioned disk.
    /// Needs the host packages that `scripts/setup-host.sh` installs.
    Build {
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
        ImageCommand::Build {
            board,
            board_file,
            cache,
            force,
            jobs,
            json,
        } => {
            let mut opts = BuildOptions::new(&board);
            if let Some(p) = board_file {
                let b = Board::from_file(&p)?;
                opts = BuildOptions::new(b.name());
                opts.profile = Some(b);
            }
            if let Some(c) = cache {
                opts.cache = c;
            }
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
