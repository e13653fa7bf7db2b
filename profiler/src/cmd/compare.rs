//! `perfguide compare`: is the candidate faster or slower than the base, beyond the noise? Or,
//! with `--reference`, does a run stay within its reference limits?

use anyhow::{bail, Context, Result};
use perfguide::compare::reference::Reference;
use perfguide::compare::render;
use perfguide::compare::side::{self, Side};
use perfguide::compare::verdict::compare;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Output format of a comparison.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareFormat {
    /// A Markdown table, regressions first.
    Md,
    /// `perfguide/compare/v1` (or `perfguide/reference/v1` with `--reference`).
    Json,
    /// One HTML page.
    Html,
}

/// Arguments of `perfguide compare`.
#[derive(clap::Args, Debug)]
#[command(after_long_help = "\
BASE and CANDIDATE are run directories (`perfguide boot-loop --out`) or report.json files kept
from earlier runs (`perfguide report` writes one; a CI keeps the baseline's file, not its run).

Per stage, bootstage record, SBL point, initcall, systemd unit and benchmark metric both sides
have: each side's mean (min, max), the change in the unit and in %, the two-sided Mann-Whitney
U p-value (exact for small samples without ties) and after Holm's correction over the figures
of its section, the Hodges-Lehmann shift with its 95% confidence interval, and the verdict:
faster, slower (in the figure's own direction: higher is better for throughput), no
significant change, or too few cycles to tell (a side is too small for any test to reach 5%;
it says how many a side would need for the spread seen).

Exit status: 0 when nothing is slower beyond --threshold (1% by default) with p (Holm) < 0.05,
1 when something is (a CI gate), 2 on an error.

With --reference LIMITS.toml RUN: checks the run against per-figure limits (the Boot-Time SIG
practice of reference values), exit 1 when one is exceeded or not measured. The file:
  statistic = \"max\"            # mean (default), median, p95 or max
  [stages]                     # a section id of report.json; values in its unit (ms)
  uboot = 400
  [initcalls]
  virtio_mmio_init = 5.0

Examples:
  perfguide compare runs/before runs/after
  perfguide compare baseline/report.json runs/after --threshold 2 --format json
  perfguide compare --reference limits/j721e.toml runs/j721e")]
pub struct CompareArgs {
    /// BASE and CANDIDATE; with --reference, the one run to check.
    #[arg(required = true, num_args = 1..=2, value_name = "RUN")]
    pub sides: Vec<PathBuf>,
    /// A change smaller than this, in % of the base mean, does not fail the exit status (it is
    /// still reported).
    #[arg(long, default_value_t = 1.0, value_name = "PCT")]
    pub threshold: f64,
    /// Output format.
    #[arg(long, short, value_enum, default_value = "md")]
    pub format: CompareFormat,
    /// Write to this file instead of stdout.
    #[arg(long, short)]
    pub out: Option<PathBuf>,
    /// Check one run against the limits of this TOML file instead of comparing two.
    #[arg(long, value_name = "LIMITS.toml")]
    pub reference: Option<PathBuf>,
}

fn load(p: &Path) -> Result<Side> {
    Ok(side::load(p)?)
}

fn emit(out: &Option<PathBuf>, text: &str) -> Result<()> {
    match out {
        Some(p) => std::fs::write(p, text).with_context(|| format!("writing {}", p.display())),
        None => Ok(super::write_stdout(text.as_bytes())?),
    }
}

/// Runs the subcommand.
pub fn run(a: CompareArgs) -> Result<ExitCode> {
    if !(a.threshold >= 0.0 && a.threshold.is_finite()) {
        bail!(
            "--threshold {}: expected a percentage of 0 or more",
            a.threshold
        );
    }
    if let Some(rpath) = &a.reference {
        if a.sides.len() != 1 {
            bail!("--reference checks one run: give one run directory or report.json");
        }
        return reference(&a, rpath);
    }
    if a.sides.len() != 2 {
        bail!("compare needs BASE and CANDIDATE (or --reference LIMITS.toml RUN)");
    }
    let base = load(&a.sides[0])?;
    let cand = load(&a.sides[1])?;
    let c = compare(
        &base.name,
        &base.report,
        &cand.name,
        &cand.report,
        a.threshold,
    );
    let text = match a.format {
        CompareFormat::Md => render::markdown(&c),
        CompareFormat::Json => serde_json::to_string_pretty(&c)? + "\n",
        CompareFormat::Html => render::html(&c),
    };
    emit(&a.out, &text)?;
    eprintln!("perfguide: {}", render::headline(&c));
    Ok(if c.regressions().next().is_some() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn reference(a: &CompareArgs, rpath: &Path) -> Result<ExitCode> {
    let text =
        std::fs::read_to_string(rpath).with_context(|| format!("reading {}", rpath.display()))?;
    let limits = Reference::from_toml_str(&rpath.display().to_string(), &text)?;
    let run = load(&a.sides[0])?;
    let checks = limits.check(&run.report);
    let failed = checks.iter().filter(|c| !c.ok).count();
    let said = format!(
        "{} against {}: {} of {} limits met ({:?} of each figure)",
        run.name,
        rpath.display(),
        checks.len() - failed,
        checks.len(),
        limits.statistic
    )
    .to_lowercase();
    let text = match a.format {
        CompareFormat::Json => {
            serde_json::to_string_pretty(&serde_json::json!({
                "schema": "perfguide/reference/v1",
                "run": run.name,
                "reference": rpath.display().to_string(),
                "statistic": limits.statistic,
                "checks": checks,
            }))? + "\n"
        }
        CompareFormat::Md => render::reference_markdown(&said, &checks),
        CompareFormat::Html => render::reference_html(&said, &checks),
    };
    emit(&a.out, &text)?;
    eprintln!("perfguide: {said}");
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
