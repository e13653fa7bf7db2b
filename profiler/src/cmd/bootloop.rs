//! `perfguide bootloop` (placeholder until its module lands).

use std::process::ExitCode;

/// Arguments of `perfguide bootloop`.
#[derive(clap::Args, Debug)]
pub struct BootLoopArgs {}

/// Runs the subcommand.
pub fn run(_a: BootLoopArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
