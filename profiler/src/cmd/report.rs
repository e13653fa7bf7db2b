//! `perfguide report`: the Performance Guide of a run directory.

use crate::report::Guide;
use anyhow::{Context, Result};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `perfguide report`.
#[derive(clap::Args, Debug)]
#[command(after_long_help = "\
Reads run.json and boots.jsonl of a `perfguide boot-loop` run directory (the board is not
needed again) and writes guide.md (the stage table as `mean (min X, max Y)`, bootstage, SBL
profile, initcalls, software versions, failed cycles) and summary.json for scripts.

Example:
  perfguide report runs/qemu-arm64")]
pub struct ReportArgs {
    /// The run directory.
    pub run: PathBuf,
    /// Where to write the guide (default: RUN/guide.md); `-` for stdout.
    #[arg(long, short)]
    pub out: Option<PathBuf>,
}

/// Runs the subcommand.
pub fn run(a: ReportArgs) -> Result<ExitCode> {
    let g = Guide::load(&a.run)?;
    let md = g.markdown();
    let out = a.out.unwrap_or_else(|| a.run.join("guide.md"));
    if out.as_os_str() == "-" {
        use std::io::Write;
        match std::io::stdout().lock().write_all(md.as_bytes()) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => return Err(e.into()),
            _ => {}
        }
    } else {
        std::fs::write(&out, &md).with_context(|| format!("writing {}", out.display()))?;
        let summary = a.run.join("summary.json");
        std::fs::write(&summary, serde_json::to_string_pretty(&g)?)
            .with_context(|| format!("writing {}", summary.display()))?;
        eprintln!(
            "perfguide: wrote {} and {}",
            out.display(),
            summary.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}
