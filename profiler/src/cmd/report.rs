//! `perfguide report`: the Performance Guide of one or more run directories, in every format.

use super::guide::load_runs;
use anyhow::{bail, Context, Result};
use perfguide::report::format::{write_formats, Format};
use perfguide::report::{self, model::TOP};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `perfguide report`.
#[derive(clap::Args, Debug)]
#[command(after_long_help = "\
Reads run.json, boots.jsonl and (when `perfguide bench` ran there) bench.jsonl of each run
directory; the board is not needed again. Several run directories make one column each, as
TI's tables have one column per board.

The guide: a setup table (board, SoC, versions, image hashes, tool, cycles, capture), the boot
time as mean (min, max), the stage breakdown in ms, the console's cost per stage and the boot
time projected with a quiet console (an estimate), U-Boot bootstage records, SBL profile
points, the slowest initcalls and systemd units, the benchmark tables by tool, failed cycles.

Files (all by default, into the first run directory or -o DIR):
  guide.md     Markdown
  guide.rst    reStructuredText (builds with sphinx-build -W)
  report.html  one page, inline SVG pictures: the boot waterfall of the median cycle, each
               stage's spread over the cycles, benchmark bars; readable with JavaScript off
  report.json  perfguide/report/v1: every figure with every cycle's value; what
               `perfguide compare` reads when the run directory is gone
  report.csv   run,section,name,statistic,value,unit

Examples:
  perfguide report runs/q1
  perfguide report runs/j721e runs/am62x -o guide/       # one column per board
  perfguide report runs/q1 --format md -o -              # Markdown on stdout")]
pub struct ReportArgs {
    /// The run directories (`perfguide boot-loop --out`).
    #[arg(required = true)]
    pub runs: Vec<PathBuf>,
    /// Formats to write (repeat or comma-separate) [default: all].
    #[arg(long, short, value_enum, value_delimiter = ',')]
    pub format: Vec<Format>,
    /// Directory to write into [default: the first run directory]; `-` for stdout (one format).
    #[arg(long, short)]
    pub out: Option<PathBuf>,
    /// Report a run whose boots.jsonl is missing, empty, torn or short of the planned cycles
    /// (a loop that was stopped): the guide says which cycles are missing.
    #[arg(long)]
    pub partial: bool,
}

/// Runs the subcommand.
pub fn run(a: ReportArgs) -> Result<ExitCode> {
    let runs = load_runs(&a.runs, a.partial)?;
    let r = report::guide::build(&runs, Some(TOP));
    let formats: Vec<Format> = if a.format.is_empty() {
        Format::ALL.to_vec()
    } else {
        a.format.clone()
    };
    let out = a.out.clone().unwrap_or_else(|| a.runs[0].clone());
    if out.as_os_str() == "-" {
        if formats.len() != 1 {
            bail!("-o - writes one format to stdout: give exactly one --format");
        }
        super::write_stdout(formats[0].render(&r)?.as_bytes())?;
        return Ok(ExitCode::SUCCESS);
    }
    std::fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
    let written = write_formats(&r, &formats, &out)?;
    let names: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
    eprintln!("perfguide: wrote {}", names.join(", "));
    Ok(ExitCode::SUCCESS)
}
