//! `perfguide bench check`: a capture of `perfguide-bench run` judged whole (framing, exit
//! statuses, figures, the expected benchmarks), exit 0 or 1; what an image's own test runs.

use anyhow::{Context, Result};
use perfguide::bench::check::{check, Check};
use perfguide::bench::parse::read_source;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Output formats of `perfguide bench check`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One line per problem (`<file>:<line>: <benchmark>: ...`) on stderr, a summary on stdout.
    Text,
    /// The `perfguide/bench-check/v1` object: every run, the expected list, the problems.
    Json,
}

/// Arguments of `perfguide bench check`.
#[derive(clap::Args, Debug)]
#[command(after_long_help = AFTER_HELP)]
pub struct BenchCheckArgs {
    /// A console capture (or the runner's stdout) of `perfguide-bench run`, or `-` for stdin.
    pub file: PathBuf,
    /// A benchmark that must have run and given figures: an id (`stream/stream`) or a suite
    /// (`lmbench`: any of its benchmarks). Repeatable; also space-separated in one value.
    #[arg(long, short, value_name = "ID|SUITE")]
    pub expect: Vec<String>,
    /// Output format.
    #[arg(long, short, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

const AFTER_HELP: &str = "\
A capture passes when all of these hold:
  - it holds a perfguide-bench session, and every session ends with DONE;
  - no marker is lost or overlaps another, and every benchmark's output matches its END
    marker's byte count and MD5 (kernel messages aside);
  - every benchmark that ran exited 0, reached END, and gave at least one figure that
    `perfguide bench parse` reads (the same parsers);
  - every --expect benchmark or suite ran and gave figures; the runner skipping it
    (not installed, no server) fails the check.
A benchmark the runner skipped that nobody expects is fine: `run quick` names benchmarks
of every suite and runs those installed.

Examples:
  ssh root@board perfguide-bench run quick | perfguide bench check -e stress-ng/cpu -e openssl -
  perfguide bench check --format json --expect lmbench bench.log

Exit status: 0 the capture passes; 1 it does not (each problem on stderr with its line);
2 bad arguments or the file cannot be read.";

/// Runs `perfguide bench check`.
pub fn run(a: BenchCheckArgs) -> Result<ExitCode> {
    let source = a.file.display().to_string();
    let text = match read_source(&a.file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("perfguide: error: {source}: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    let expected: Vec<String> = a
        .expect
        .iter()
        .flat_map(|e| e.split_whitespace())
        .map(str::to_string)
        .collect();
    let c = check(&text, &expected);
    let mut out = io::stdout().lock();
    match a.format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut out, &c).context("writing the check")?;
            writeln!(out)?;
        }
        Format::Text => {
            for p in &c.problems {
                let at = p.line.map(|l| format!(":{l}")).unwrap_or_default();
                eprintln!("perfguide: {source}{at}: {}", p.message);
            }
            writeln!(out, "{}", summary(&source, &c))?;
        }
    }
    Ok(if c.ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn summary(source: &str, c: &Check) -> String {
    let ran = c
        .runs
        .iter()
        .filter(|r| r.outcome != "not-available")
        .count();
    let skipped = c.runs.len() - ran;
    format!(
        "{source}: {verdict}: {ran} benchmark run(s), {figures} figure(s), {skipped} skipped, \
         {found}/{expected} expected present, {problems} problem(s)",
        verdict = if c.ok { "pass" } else { "FAIL" },
        figures = c.figures,
        found = c.expected.len()
            - c.problems
                .iter()
                .filter(|p| p.kind == perfguide::bench::check::ProblemKind::Missing)
                .count(),
        expected = c.expected.len(),
        problems = c.problems.len(),
    )
}
