//! A run directory's figures as LAVA test cases: what a LAVA test shell reports with
//! `lava-test-case NAME --result pass|fail --measurement M --units U`, and what LAVA's
//! results hold for each case (`case`, `result`, `measurement`, `units`).
//!
//! Cases, in this order:
//! - `boot.cycle-NNNN`: each cycle, `fail` when it failed; power-on to ready, seconds;
//! - `boot.cycle-NNNN.STAGE`: each stage of each cycle, the cycle's result, seconds;
//! - `boot.STAGE.mean` and `boot.total.mean`: the mean over the ok cycles, seconds;
//! - `bench.SUITE.NAME.METRIC.mean`: each benchmark metric of `bench.jsonl`, the mean over
//!   its runs, in its own unit.

use super::LavaError;
use crate::process::quote_argv;
use crate::report::load::RunData;
use crate::rundir::CycleStatus;
use bootlog_parser::stats::total_s;
use serde::Serialize;
use std::path::Path;

/// A case's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The cycle booted.
    Pass,
    /// The cycle failed.
    Fail,
}

impl Outcome {
    fn as_str(self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail => "fail",
        }
    }
}

/// One LAVA test case.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TestCase {
    /// The case name, of LAVA's characters only ([`case_name`]).
    pub case: String,
    /// `pass` or `fail`.
    pub result: Outcome,
    /// The figure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub measurement: Option<f64>,
    /// Its unit, of LAVA's characters only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub units: Option<String>,
}

/// The unit of the boot figures.
pub const SECONDS: &str = "seconds";

/// `raw` with every character outside `[-_a-zA-Z0-9.]` made `_`: the characters LAVA's job
/// schema allows in a test definition's name (`lava_common/schemas/test/definition.py`),
/// none of which breaks the `KEY=VALUE` words of the test shell's result signal (split at
/// blanks and `=`).
pub fn case_name(raw: &str) -> String {
    raw.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

fn mean(v: &[f64]) -> Option<f64> {
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

/// The test cases of a run directory (its `boots.jsonl`, and `bench.jsonl` when there).
pub fn cases(dir: &Path) -> Result<Vec<TestCase>, LavaError> {
    let run = RunData::load(dir, false)?;
    Ok(cases_of(&run))
}

/// The test cases of a run that was read.
pub fn cases_of(run: &RunData) -> Vec<TestCase> {
    let seconds = || Some(SECONDS.to_string());
    let mut out = Vec::new();
    // Stage ids in the order first seen, with the durations of the ok cycles.
    let mut stages: Vec<(String, Vec<f64>)> = Vec::new();
    let mut totals = Vec::new();
    for r in &run.records {
        let result = match r.status {
            CycleStatus::Ok => Outcome::Pass,
            CycleStatus::Failed => Outcome::Fail,
        };
        let cycle = format!("boot.cycle-{:04}", r.cycle);
        let total = total_s(&r.boot);
        out.push(TestCase {
            case: case_name(&cycle),
            result,
            measurement: total,
            units: total.and(seconds()),
        });
        for s in &r.boot.stages {
            let Some(d) = s.duration_s else { continue };
            let id = s.id.as_str();
            out.push(TestCase {
                case: case_name(&format!("{cycle}.{id}")),
                result,
                measurement: Some(d),
                units: seconds(),
            });
            if result == Outcome::Pass {
                match stages.iter_mut().find(|(n, _)| n == id) {
                    Some((_, v)) => v.push(d),
                    None => stages.push((id.to_string(), vec![d])),
                }
            }
        }
        if let (Outcome::Pass, Some(t)) = (result, total) {
            totals.push(t);
        }
    }
    for (id, v) in stages
        .iter()
        .chain(std::iter::once(&("total".to_string(), totals)))
    {
        if let Some(m) = mean(v) {
            out.push(TestCase {
                case: case_name(&format!("boot.{id}.mean")),
                result: Outcome::Pass,
                measurement: Some(m),
                units: seconds(),
            });
        }
    }
    // Bench metrics in the order first seen, every run's value.
    let mut metrics: Vec<(String, String, Vec<f64>)> = Vec::new();
    for b in &run.bench {
        let name = format!("bench.{}.{}.mean", b.benchmark.replace('/', "."), b.metric);
        match metrics
            .iter_mut()
            .find(|(n, u, _)| *n == name && *u == b.unit)
        {
            Some((_, _, v)) => v.push(b.value),
            None => metrics.push((name, b.unit.clone(), vec![b.value])),
        }
    }
    for (name, unit, v) in metrics {
        out.push(TestCase {
            case: case_name(&name),
            result: Outcome::Pass,
            measurement: mean(&v),
            units: Some(case_name(&unit)),
        });
    }
    out
}

/// The cases as `lava-test-case` command lines, one a line, each word quoted for a POSIX
/// shell where it needs it.
pub fn shell_lines(cases: &[TestCase]) -> String {
    let mut s = String::new();
    for c in cases {
        let mut argv = vec![
            "lava-test-case".to_string(),
            c.case.clone(),
            "--result".into(),
            c.result.as_str().into(),
        ];
        if let Some(m) = c.measurement {
            argv.push("--measurement".into());
            argv.push(format!("{m}"));
            if let Some(u) = &c.units {
                argv.push("--units".into());
                argv.push(u.clone());
            }
        }
        s.push_str(&quote_argv(&argv));
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_keep_to_lavas_characters() {
        assert_eq!(
            case_name("bench.iperf3.udp-tx.lost_percent-sender"),
            "bench.iperf3.udp-tx.lost_percent-sender"
        );
        assert_eq!(case_name("bogo ops/s"), "bogo_ops_s");
        assert_eq!(case_name("a=b;$(x)"), "a_b___x_");
    }

    #[test]
    fn shell_lines_are_argv_safe() {
        let c = [
            TestCase {
                case: "boot.cycle-0001".into(),
                result: Outcome::Fail,
                measurement: None,
                units: None,
            },
            TestCase {
                case: "boot.uboot.mean".into(),
                result: Outcome::Pass,
                measurement: Some(0.25),
                units: Some("seconds".into()),
            },
        ];
        assert_eq!(
            shell_lines(&c),
            "lava-test-case boot.cycle-0001 --result fail\n\
             lava-test-case boot.uboot.mean --result pass --measurement 0.25 --units seconds\n"
        );
    }
}
