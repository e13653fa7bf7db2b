//! `perfguide boards`: the built-in board profiles.

use super::is_broken_pipe;
use bootlog_parser::board::{BoardProfile, BUILTIN};
use std::io::Write;
use std::process::ExitCode;

/// Arguments of `perfguide boards`.
#[derive(clap::Args, Debug)]
pub struct BoardsArgs {
    /// Print one profile's TOML (a starting point for `--board-file`) instead of the list.
    #[arg(long)]
    pub show: Option<String>,
}

/// Runs the subcommand.
pub fn run(a: BoardsArgs) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    match write_boards(&a, &mut out) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) if is_broken_pipe(&e) => Ok(ExitCode::SUCCESS),
        Err(e) => Err(e),
    }
}

fn write_boards(a: &BoardsArgs, out: &mut impl Write) -> anyhow::Result<()> {
    if let Some(name) = &a.show {
        BoardProfile::builtin(name)?;
        if let Some((_, text)) = BUILTIN.iter().find(|(n, _)| n == name) {
            out.write_all(text.as_bytes())?;
        }
        return Ok(());
    }
    for (name, _) in BUILTIN {
        let p = BoardProfile::builtin(name)?;
        let stages: Vec<&str> = p.stages.iter().map(|s| s.as_str()).collect();
        writeln!(out, "{:<14} {}", name, p.description)?;
        writeln!(out, "{:<14} stages: {}", "", stages.join(" > "))?;
    }
    Ok(())
}
