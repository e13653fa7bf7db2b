//! `perfguide report`: the Performance Guide of one or more run directories, in every format.

use crate::bootloop::run::write_atomic;
use crate::report::{self, load::RunData, model::Report};
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// A document format of the guide.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `guide.md`: Markdown.
    Md,
    /// `guide.rst`: reStructuredText for Sphinx.
    Rst,
    /// `report.html`: one self-contained page with pictures (inline SVG, no JavaScript).
    Html,
    /// `report.json`: every figure with every cycle's value (`perfguide/report/v1`).
    Json,
    /// `report.csv`: one line per figure and statistic.
    Csv,
}

impl Format {
    /// Every format, in the order they are written.
    pub const ALL: [Format; 5] = [
        Format::Md,
        Format::Rst,
        Format::Html,
        Format::Json,
        Format::Csv,
    ];

    /// The file a format is written to.
    pub fn file_name(self) -> &'static str {
        match self {
            Format::Md => "guide.md",
            Format::Rst => "guide.rst",
            Format::Html => "report.html",
            Format::Json => "report.json",
            Format::Csv => "report.csv",
        }
    }

    /// The document in this format.
    pub fn render(self, r: &Report) -> Result<String> {
        Ok(match self {
            Format::Md => report::markdown::markdown(r),
            Format::Rst => report::rst::rst(r),
            Format::Html => report::html::html(r),
            Format::Json => serde_json::to_string_pretty(r)? + "\n",
            Format::Csv => report::csv::csv(r),
        })
    }
}

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

/// Size of `boots.jsonl` above which reading it is announced before it starts (about 3,000
/// cycles of a QEMU boot).
const LARGE: u64 = 8_000_000;

/// Reads run directories, saying how many cycles each holds and how long it took.
pub fn load_runs(dirs: &[PathBuf], partial: bool) -> Result<Vec<RunData>> {
    let mut runs = Vec::new();
    for d in dirs {
        let t = Instant::now();
        let bytes = std::fs::metadata(d.join("boots.jsonl")).map_or(0, |m| m.len());
        if bytes >= LARGE {
            eprintln!(
                "perfguide: reading {} ({:.0} MB of boot records)...",
                d.display(),
                bytes as f64 / 1e6
            );
        }
        let r = RunData::load(d, partial)?;
        for g in &r.gaps {
            eprintln!("perfguide: warning: {g}");
        }
        eprintln!(
            "perfguide: read {}: {} cycles{} in {:.2} s",
            d.display(),
            r.records.len(),
            if r.bench.is_empty() {
                String::new()
            } else {
                format!(", {} benchmark figures", r.bench.len())
            },
            t.elapsed().as_secs_f64()
        );
        runs.push(r);
    }
    Ok(runs)
}

/// Runs the subcommand.
pub fn run(a: ReportArgs) -> Result<ExitCode> {
    let runs = load_runs(&a.runs, a.partial)?;
    let r = report::guide::build(&runs, Some(report::guide::TOP));
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

/// Writes the guide `r` in each of `formats` into `dir` (atomically); returns the files.
pub fn write_formats(r: &Report, formats: &[Format], dir: &Path) -> Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for f in formats {
        let path = dir.join(f.file_name());
        write_atomic(&path, f.render(r)?.as_bytes())?;
        written.push(path);
    }
    Ok(written)
}
