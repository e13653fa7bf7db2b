//! `perfguide report` (placeholder until its module lands).

use std::process::ExitCode;

/// Arguments of `perfguide report`.
#[derive(clap::Args, Debug)]
pub struct ReportArgs {}

/// Runs the subcommand.
pub fn run(_a: ReportArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
