//! `perfguide boards`: the built-in board profiles.

use bootlog_parser::board::{BoardProfile, BUILTIN};
use std::process::ExitCode;

/// Arguments of `perfguide boards`.
#[derive(clap::Args, Debug)]
pub struct BoardsArgs {
    /// Print one profile's TOML instead of the list.
    #[arg(long)]
    pub show: Option<String>,
}

/// Runs the subcommand.
pub fn run(a: BoardsArgs) -> anyhow::Result<ExitCode> {
    if let Some(name) = a.show {
        BoardProfile::builtin(&name)?;
        let (_, text) = BUILTIN
            .iter()
            .find(|(n, _)| *n == name)
            .expect("checked above");
        print!("{text}");
        return Ok(ExitCode::SUCCESS);
    }
    for (name, _) in BUILTIN {
        let p = BoardProfile::builtin(name)?;
        let stages: Vec<&str> = p.stages.iter().map(|s| s.as_str()).collect();
        println!(
            "{:<14} {}\n{:<14} stages: {}",
            name,
            p.description,
            "",
            stages.join(" > ")
        );
    }
    Ok(ExitCode::SUCCESS)
}
