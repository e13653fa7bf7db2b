//! The Performance Guide as data (`perfguide/report/v1`): the setup of each run, then sections
//! of figures, each row holding every cycle's value per run. Every format (Markdown, RST,
//! HTML, CSV, JSON) is printed from this, and `perfguide compare` reads it back.

use bootlog_parser::stats::Summary;
use serde::{Deserialize, Serialize};

/// Schema id of `report.json`.
pub const REPORT_SCHEMA: &str = "perfguide/report/v1";

/// Initcalls and systemd units shown: the slowest this many.
pub const TOP: usize = 15;

/// Which direction of a figure is an improvement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Better {
    /// Smaller is better: times, bytes, latencies.
    Lower,
    /// Larger is better: throughput, scores.
    Higher,
}

impl Better {
    /// `lower` or `higher`.
    pub fn as_str(self) -> &'static str {
        match self {
            Better::Lower => "lower",
            Better::Higher => "higher",
        }
    }
}

/// The whole guide: one column per run directory.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Report {
    /// [`REPORT_SCHEMA`].
    pub schema: String,
    /// The perfguide version that wrote it.
    pub tool_version: String,
    /// The runs, in column order.
    pub runs: Vec<RunInfo>,
    /// The figures, in guide order.
    pub sections: Vec<Section>,
    /// One boot of each run on one time axis, for the waterfall picture.
    pub waterfalls: Vec<Waterfall>,
}

/// What a run is: the setup table's column and the cycles' outcome.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RunInfo {
    /// Column heading: the run directory's name.
    pub name: String,
    /// The run directory, as given.
    pub dir: String,
    /// The board profile's name.
    pub board: String,
    /// The setup table: `(item, value)` in print order (board, SoC, CPU clock, versions,
    /// image hashes, tool, cycles, capture method).
    pub setup: Vec<(String, String)>,
    /// Cycles in `run.json`'s plan.
    pub planned: u32,
    /// Cycles recorded in `boots.jsonl`.
    pub recorded: usize,
    /// Cycles that reached the ready prompt.
    pub ok: usize,
    /// Cycles that failed: number and reason.
    pub failed: Vec<(u32, String)>,
    /// Planned cycles with no record (a run reported with `--partial`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<u32>,
    /// Baud rate the console cost is computed at.
    pub baud: u32,
    /// Whether `baud` is the board's (a serial console) or the nominal 115200 of a virtual one.
    pub baud_nominal: bool,
}

/// A table of the guide.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Section {
    /// Stable id (`boot`, `stages`, `console`, `bootstage`, `sbl`, `r5_spl`, `a_spl`,
    /// `initcalls`, `systemd`, `bench/<tool>`): what `compare`, `--reference` and the CSV name
    /// it by.
    pub id: String,
    /// Heading.
    pub title: String,
    /// One paragraph under the heading: what the figures are and which clock they come from.
    pub note: String,
    /// The rows, in print order.
    pub rows: Vec<Row>,
}

/// A figure over cycles (or benchmark runs), per run.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Row {
    /// The stage, record, step, initcall, unit or metric.
    pub name: String,
    /// Unit of every value (`s`, `ms`, `bytes`, a benchmark's own unit).
    pub unit: String,
    /// Which direction is an improvement.
    pub better: Better,
    /// Whether the figure is computed rather than measured (the quiet-console projection).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub estimate: bool,
    /// Per run (column), every value: one a cycle, or one a benchmark run. Empty when the run
    /// does not have the figure.
    pub values: Vec<Vec<f64>>,
    /// Per run, the summary of `values` (absent for an empty column).
    #[serde(skip_deserializing)]
    pub summaries: Vec<Option<Summary>>,
}

impl Row {
    /// A row with its summaries computed.
    pub fn new(
        name: impl Into<String>,
        unit: impl Into<String>,
        better: Better,
        values: Vec<Vec<f64>>,
    ) -> Row {
        let mut r = Row {
            name: name.into(),
            unit: unit.into(),
            better,
            estimate: false,
            values,
            summaries: Vec::new(),
        };
        r.summarise();
        r
    }

    /// Recomputes `summaries` from `values` (after reading a report back).
    pub fn summarise(&mut self) {
        self.summaries = self.values.iter().map(|v| Summary::of(v)).collect();
    }

    /// The summary of run `i`, if it has the figure.
    pub fn summary(&self, i: usize) -> Option<&Summary> {
        self.summaries.get(i).and_then(Option::as_ref)
    }
}

/// One boot laid out on one time axis (milliseconds from power-on, host clock): stages and
/// their sub-steps, each placed from its own clock.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Waterfall {
    /// The run (column) it belongs to.
    pub run: usize,
    /// The cycle drawn: the one with the median total.
    pub cycle: u32,
    /// Power-on to ready prompt, ms.
    pub total_ms: f64,
    /// Bars in drawing order.
    pub bars: Vec<Bar>,
    /// How the target clocks were placed on the host clock.
    pub alignment: Vec<String>,
}

/// A bar (or a mark, when `end_ms == start_ms`) on the waterfall.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Bar {
    /// `stage`, `bootstage`, `spl` (a step of an SPL's breakdown), `sbl`, `initcall` or
    /// `systemd`.
    pub lane: String,
    /// What it is.
    pub name: String,
    /// The stage it belongs to (its colour).
    pub stage: String,
    /// Start, ms from power-on.
    pub start_ms: f64,
    /// End, ms from power-on.
    pub end_ms: f64,
    /// `host`, or `target` when placed from a target clock.
    pub clock: String,
}

impl Report {
    /// Reads a `report.json` back (summaries recomputed); `source` names it in errors.
    pub fn from_json(source: &str, text: &str) -> Result<Report, String> {
        let v: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("{source}: {e}"))?;
        let schema = v.get("schema").and_then(|s| s.as_str()).unwrap_or("");
        if schema != REPORT_SCHEMA {
            return Err(format!(
                "{source}: schema {schema:?}, expected {REPORT_SCHEMA:?} (a report.json written by `perfguide report`)"
            ));
        }
        let mut r: Report = serde_json::from_value(v).map_err(|e| format!("{source}: {e}"))?;
        for s in &mut r.sections {
            for row in &mut s.rows {
                row.summarise();
            }
        }
        Ok(r)
    }

    /// The section with this id.
    pub fn section(&self, id: &str) -> Option<&Section> {
        self.sections.iter().find(|s| s.id == id)
    }
}

impl Section {
    /// The row with this name.
    pub fn row(&self, name: &str) -> Option<&Row> {
        self.rows.iter().find(|r| r.name == name)
    }
}

/// Digits after the point that show a figure of this size in `unit` sensibly.
pub fn decimals(unit: &str, v: f64) -> usize {
    let a = v.abs();
    match unit {
        "s" => 3,
        "ms" if a >= 100.0 => 1,
        "ms" => 3,
        "us" | "µs" | "bytes" | "count" => 0,
        _ if a >= 10.0 => 2,
        _ => 3,
    }
}

/// `mean (min X, max Y)` of a summary, decimals as [`decimals`] chooses for its mean.
pub fn ti(unit: &str, s: &Summary) -> String {
    s.ti(decimals(unit, s.mean))
}
