//! `perfguide image ...` (placeholder until its module lands).

use std::process::ExitCode;

/// Image subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum ImageCommand {
    /// Build the reference image of a board.
    Build {},
}

/// Runs the subcommand.
pub fn run(_a: ImageCommand) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
