//! `perfguide`: measure how an embedded Linux board boots and how fast the booted image runs.
//!
//! A thin CLI over the `perfguide` library (probe-rs style): argument parsing and error
//! reporting live here, the work in the library modules.

use clap::{Parser, Subcommand};
mod cmd;
use std::process::ExitCode;

/// Boot-time and performance profiler for embedded Linux boards.
///
/// Typical flow: `perfguide image build` (QEMU reference board), `perfguide boot-loop` to
/// power-cycle a board N times with host-timestamped console capture, `perfguide parse` to break
/// any console log into stages, `perfguide report` to write the Performance Guide, `perfguide compare` to tell whether a
/// change made the boot faster beyond the noise.
#[derive(Parser)]
#[command(name = "perfguide", version, about, long_about = None, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Break console logs into boot stages (ROM, SBL, SYSFW, SPL, TF-A, U-Boot, kernel,
    /// userspace) and print the table or the `perfguide/boot-log/v1` JSON.
    Parse(cmd::parse::ParseArgs),
    /// List the board profiles built into perfguide.
    Boards(cmd::boards::BoardsArgs),
    /// Build or inspect boot images (the QEMU reference image with `image build`).
    #[command(subcommand)]
    Image(cmd::image::ImageCommand),
    /// Power-cycle a board N times, capturing the console with host timestamps, and break
    /// every boot into stages.
    BootLoop(cmd::bootloop::BootLoopArgs),
    /// Write the Performance Guide of run directories: Markdown, RST, HTML with pictures, JSON
    /// and CSV.
    Report(cmd::report::ReportArgs),
    /// Compare two runs figure by figure (Mann-Whitney U, Hodges-Lehmann shift): faster,
    /// slower or no significant change; exit 1 on a regression. Or check a run against
    /// reference limits.
    Compare(cmd::compare::CompareArgs),
    /// Boot the board, log in on its console and run its benchmarks with `perfguide-bench`:
    /// a table of every metric as `mean (min, max)` over the runs, and bench.jsonl;
    /// `bench parse` reads the figures of any capture or benchmark output.
    Bench(cmd::bench::BenchArgs),
    /// LAVA: a job definition that boots the board N times and runs its benchmarks
    /// (`lava job`), and a run directory's figures as LAVA test cases (`lava results`).
    /// `perfguide parse` reads LAVA's job logs (log.yaml, log.yaml.xz).
    #[command(subcommand)]
    Lava(cmd::lava::LavaCommand),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Parse(a) => cmd::parse::run(a),
        Command::Boards(a) => cmd::boards::run(a),
        Command::Image(a) => cmd::image::run(a),
        Command::BootLoop(a) => cmd::bootloop::run(a),
        Command::Report(a) => cmd::report::run(a),
        Command::Compare(a) => cmd::compare::run(a),
        Command::Bench(a) => cmd::bench::run(a),
        Command::Lava(c) => cmd::lava::run(c),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("perfguide: error: {}", once(&e));
            ExitCode::from(2)
        }
    }
}

/// The error and its causes, `: `-separated, each said once: an error whose message already
/// ends with its cause's (`{path}: {source}`) does not repeat it.
fn once(e: &anyhow::Error) -> String {
    let mut said = String::new();
    for cause in e.chain() {
        let c = cause.to_string();
        if said.ends_with(&c) {
            continue;
        }
        if !said.is_empty() {
            said.push_str(": ");
        }
        said.push_str(&c);
    }
    said
}
