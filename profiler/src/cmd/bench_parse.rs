//! `perfguide bench parse`: benchmark output (framed console captures or bare tool output) in,
//! `perfguide/bench/v1` JSON lines or the table of `mean (min, max)` per metric out.

use super::is_broken_pipe;
use anyhow::Result;
use bench_parser::{by_name, results::SUITES, Metric, TOOLS};
use clap::builder::PossibleValuesParser;
use perfguide::bench::parse::{read, read_source};
use perfguide::bench::table::BenchTable;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Output formats of `perfguide bench parse`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One `perfguide/bench/v1` JSON object per metric per line.
    Jsonl,
    /// Per benchmark and metric: `mean (min, max)` over the runs, n, unit, better.
    Table,
}

/// Arguments of `perfguide bench parse`.
#[derive(clap::Args, Debug)]
#[command(after_long_help = after_help())]
pub struct BenchParseArgs {
    /// Captures or benchmark output files, or `-` for stdin.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The tool whose bare output the files hold; with a framed capture, only the
    /// benchmarks this tool parses. Default: recognised from the content.
    #[arg(long, short, value_parser = PossibleValuesParser::new(TOOLS.iter().map(|t| t.name)))]
    pub tool: Option<String>,
    /// Output format.
    #[arg(long, short, value_enum, default_value_t = Format::Jsonl)]
    pub format: Format,
}

/// The long help's text after the options: inputs, examples, exit status, and the tools with
/// the runner suites each parses.
fn after_help() -> String {
    let width = TOOLS.iter().map(|t| t.name.len()).max().unwrap_or(0);
    let tools: Vec<String> = TOOLS
        .iter()
        .map(|t| {
            let suites: Vec<&str> = SUITES
                .iter()
                .filter(|(_, tool)| *tool == t.name)
                .map(|(suite, _)| *suite)
                .collect();
            format!("  {:<width$}  {}", t.name, suites.join(", "))
        })
        .collect();
    format!(
        "\
Inputs:
  A console capture holding `@@PERFGUIDE-BENCH` markers (what `perfguide-bench run` prints,
  docs/bench-framing.md) is cut into one segment per benchmark run; each is parsed by the
  tool of its id's suite and its figures are named by the runner's id
  (`lmbench/bw_mem-rd-1mb`), numbered per run. Raw console text, perfguide's own capture
  (`[<abs> <delta>] text`), grabserial, minicom/picocom/tio and LAVA stamps are all read; a
  boot before the benchmarks does no harm (`perfguide parse` reads the same file for the
  boot). Failed, skipped and cut-off benchmarks are warnings on stderr with file and line.
  Anything else is bare output of a benchmark, named `<tool>/<test>`: every tool that
  recognises the content parses it, or the one `--tool` names.

Output:
  jsonl: one object per metric per line,
    {{\"schema\":\"perfguide/bench/v1\",\"benchmark\":\"stream/stream\",\"metric\":\"Triad\",
     \"value\":718799.1,\"unit\":\"MB/s\",\"better\":\"higher\",\"run\":1,
     \"source\":\"stream.log\",\"line\":31}}
  table: per benchmark and metric, `mean (min X, max Y)` over its runs.

Examples:
  perfguide bench parse console.log                       # a capture of perfguide-bench run
  perfguide bench parse --format table capture.log      # mean (min, max) over the runs
  perfguide bench parse stream.txt coremark.txt           # bare output, tools recognised
  perfguide bench parse --tool lmbench bw_mem.txt
  ssh board perfguide-bench run stream | perfguide bench parse -

Exit status: 0 when figures were read; 1 when a file could not be read or held no
benchmark output (said on stderr with its line), or nothing at all was read; 2 on bad
arguments.

Tools (--tool) and the runner suites each parses:
{}",
        tools.join("\n")
    )
}

/// Runs `perfguide bench parse`.
pub fn run(a: BenchParseArgs) -> Result<ExitCode> {
    let tool = a.tool.as_deref().map(by_name).transpose()?;
    let mut out = BufWriter::new(io::stdout().lock());
    let mut failed = false;
    let mut figures = 0usize;
    let mut table: Vec<Metric> = Vec::new();
    let mut write_all = || -> Result<()> {
        for path in &a.files {
            let source = path.display().to_string();
            let text = match read_source(path) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("perfguide: error: {source}: {e}");
                    failed = true;
                    continue;
                }
            };
            let input = match read(&text, tool) {
                Ok(input) => input,
                Err(e) => {
                    eprintln!("perfguide: error: {source}: {e}");
                    failed = true;
                    continue;
                }
            };
            for w in &input.warnings {
                eprintln!("perfguide: warning: {}", w.located(&source));
            }
            if input.metrics.is_empty() {
                eprintln!("perfguide: warning: {source}: no benchmark figure");
            }
            figures += input.metrics.len();
            match a.format {
                Format::Jsonl => {
                    for m in &input.metrics {
                        serde_json::to_writer(&mut out, &m.record(&source))?;
                        out.write_all(b"\n")?;
                    }
                    out.flush()?;
                }
                Format::Table => table.extend(input.metrics),
            }
        }
        if a.format == Format::Table {
            BenchTable::of(&table).write_text(&mut out)?;
        }
        out.flush()?;
        Ok(())
    };
    match write_all() {
        Ok(()) => {}
        Err(e) if is_broken_pipe(&e) => return Ok(ExitCode::SUCCESS),
        Err(e) => return Err(e),
    }
    if figures == 0 {
        eprintln!("perfguide: error: no benchmark figure in any input");
    }
    Ok(if failed || figures == 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
