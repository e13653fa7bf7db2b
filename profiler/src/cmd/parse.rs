//! `perfguide parse` (placeholder until its module lands).

use std::process::ExitCode;

/// Arguments of `perfguide parse`.
#[derive(clap::Args, Debug)]
pub struct ParseArgs {}

/// Runs the subcommand.
pub fn run(_a: ParseArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
