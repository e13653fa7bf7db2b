//! Reference values: limits per figure in a TOML file, the Boot-Time SIG's practice for
//! regression tests across boards. A run passes when every figure named stays within its
//! limit (below it for times, above it for throughput).
//!
//! ```toml
//! # Which statistic of a run is held to the limits: mean (default), median, p95 or max.
//! statistic = "max"
//!
//! [stages]            # a section id of the report; values in the section's unit (ms here)
//! uboot = 400
//! kernel = 1800
//!
//! [initcalls]
//! virtio_mmio_init = 5.0
//!
//! [boot]
//! "Power-on to the ready prompt" = 2.5   # seconds
//!
//! ["bench/openssl"]
//! "speed-sha256: sha256-16384" = 500000  # a minimum: higher is better
//! ```

use crate::report::model::{Better, Report};
use bootlog_parser::stats::Summary;
use serde::Serialize;
use std::collections::BTreeMap;

/// Why a reference file could not be used.
#[derive(Debug, thiserror::Error)]
#[error("{source_name}: {message}")]
pub struct ReferenceError {
    /// The file.
    pub source_name: String,
    /// What is wrong (TOML errors name the line).
    pub message: String,
}

/// The statistic a run is held to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Statistic {
    /// Arithmetic mean.
    Mean,
    /// Median.
    Median,
    /// 95th percentile.
    P95,
    /// Largest value.
    Max,
}

impl Statistic {
    fn of(self, s: &Summary, better: Better) -> f64 {
        match (self, better) {
            (Statistic::Mean, _) => s.mean,
            (Statistic::Median, _) => s.median,
            (Statistic::P95, _) => s.p95,
            // The worst value in the figure's direction.
            (Statistic::Max, Better::Lower) => s.max,
            (Statistic::Max, Better::Higher) => s.min,
        }
    }
}

/// A reference file: the statistic and the limits, `section -> figure -> limit`.
#[derive(Debug, Clone)]
pub struct Reference {
    /// The statistic compared.
    pub statistic: Statistic,
    /// Limits by section id and figure name.
    pub limits: BTreeMap<String, BTreeMap<String, f64>>,
}

/// One limit checked.
#[derive(Debug, Clone, Serialize)]
pub struct Check {
    /// Section id.
    pub section: String,
    /// Figure.
    pub name: String,
    /// Unit.
    pub unit: String,
    /// The limit.
    pub limit: f64,
    /// The run's statistic, absent when the run does not have the figure.
    pub value: Option<f64>,
    /// Within the limit.
    pub ok: bool,
}

impl Reference {
    /// Reads a reference TOML; `source_name` names it in errors.
    pub fn from_toml_str(source_name: &str, text: &str) -> Result<Reference, ReferenceError> {
        let err = |message: String| ReferenceError {
            source_name: source_name.to_string(),
            message,
        };
        let table: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| err(e.to_string()))?;
        let mut statistic = Statistic::Mean;
        let mut limits = BTreeMap::new();
        for (k, v) in table {
            if k == "statistic" {
                statistic = match v.as_str() {
                    Some("mean") => Statistic::Mean,
                    Some("median") => Statistic::Median,
                    Some("p95") => Statistic::P95,
                    Some("max") => Statistic::Max,
                    _ => {
                        return Err(err(format!(
                            "statistic = {v}: expected \"mean\", \"median\", \"p95\" or \"max\""
                        )))
                    }
                };
                continue;
            }
            let Some(t) = v.as_table() else {
                return Err(err(format!(
                    "{k}: expected a table of limits ([{k}] with `figure = limit` lines)"
                )));
            };
            let mut section = BTreeMap::new();
            for (name, lim) in t {
                let x = lim
                    .as_float()
                    .or_else(|| lim.as_integer().map(|i| i as f64))
                    .ok_or_else(|| err(format!("[{k}] {name} = {lim}: expected a number")))?;
                section.insert(name.clone(), x);
            }
            limits.insert(k, section);
        }
        if limits.is_empty() {
            return Err(err(
                "no limits: expected [section] tables such as [stages]".into()
            ));
        }
        Ok(Reference { statistic, limits })
    }

    /// Checks the first run of `r` against every limit. A figure the run does not have fails:
    /// a limit nobody measured is not met.
    pub fn check(&self, r: &Report) -> Vec<Check> {
        let mut out = Vec::new();
        for (sec, figures) in &self.limits {
            for (name, &limit) in figures {
                let row = r.section(sec).and_then(|s| s.row(name));
                let value =
                    row.and_then(|row| row.summary(0).map(|s| self.statistic.of(s, row.better)));
                let better = row.map_or(Better::Lower, |r| r.better);
                let ok = value.is_some_and(|v| match better {
                    Better::Lower => v <= limit,
                    Better::Higher => v >= limit,
                });
                out.push(Check {
                    section: sec.clone(),
                    name: name.clone(),
                    unit: row.map(|r| r.unit.clone()).unwrap_or_default(),
                    limit,
                    value,
                    ok,
                });
            }
        }
        out
    }
}
