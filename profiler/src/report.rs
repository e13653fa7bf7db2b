//! The Performance Guide of a run directory, written the way TI's Processor SDK guides present
//! boot time: a stage table with `mean (min X, max Y)` over the cycles, then the sub-timelines
//! (U-Boot bootstage, SBL profile, kernel initcalls), the components that booted and the
//! failed cycles. Markdown here; other formats build on [`Guide`].

use crate::bootloop::run::{load_records, CycleRecord, CycleStatus, RunError, RunManifest};
use crate::table::{markdown_row, md, StageTable};
use bootlog_parser::stats::{BootStats, Collector};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// Schema id of `summary.json`.
pub const SUMMARY_SCHEMA: &str = "perfguide/summary/v1";

/// Errors building a report.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// The run directory could not be read.
    #[error(transparent)]
    Run(#[from] RunError),
    /// `run.json` is missing or malformed.
    #[error("{path}: {message}")]
    Manifest {
        /// The file.
        path: String,
        /// What is wrong.
        message: String,
    },
}

/// Everything a guide shows, computed once from a run directory.
#[derive(Debug, Serialize)]
pub struct Guide {
    /// [`SUMMARY_SCHEMA`].
    pub schema: &'static str,
    /// The run's manifest.
    pub manifest: RunManifest,
    /// Cycles recorded.
    pub cycles: usize,
    /// Cycles that failed, with the reason.
    pub failed: Vec<(u32, String)>,
    /// Statistics over the successful cycles.
    pub stats: BootStats,
    /// Components (versions) as seen in the cycles; more than one value means they changed.
    pub components: BTreeMap<String, Vec<String>>,
}

impl Guide {
    /// Reads `run.json` and `boots.jsonl` of a run directory.
    pub fn load(dir: &Path) -> Result<Guide, ReportError> {
        let mpath = dir.join("run.json");
        let text = std::fs::read_to_string(&mpath).map_err(|e| ReportError::Manifest {
            path: mpath.display().to_string(),
            message: e.to_string(),
        })?;
        let manifest: RunManifest =
            serde_json::from_str(&text).map_err(|e| ReportError::Manifest {
                path: mpath.display().to_string(),
                message: e.to_string(),
            })?;
        let records = load_records(&dir.join("boots.jsonl"), false)?;
        Ok(Self::from_records(manifest, &records))
    }

    /// Builds the guide from records already in memory.
    pub fn from_records(manifest: RunManifest, records: &[CycleRecord]) -> Guide {
        let mut c = Collector::new();
        let mut failed = Vec::new();
        let mut components: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for r in records {
            for (k, v) in &r.boot.components {
                let e = components.entry(k.clone()).or_default();
                if !e.contains(v) {
                    e.push(v.clone());
                }
            }
            match r.status {
                CycleStatus::Ok => c.add(&r.boot),
                CycleStatus::Failed => failed.push((
                    r.cycle,
                    r.failure
                        .as_ref()
                        .map(|f| format!("{}: {}", f.reason.as_str(), f.detail))
                        .unwrap_or_default(),
                )),
            }
        }
        Guide {
            schema: SUMMARY_SCHEMA,
            manifest,
            cycles: records.len(),
            failed,
            stats: c.stats(),
            components,
        }
    }

    /// The guide as Markdown.
    pub fn markdown(&self) -> String {
        let mut s = String::new();
        let m = &self.manifest;
        let _ = writeln!(s, "# Performance Guide: {}\n", md(&m.board));
        let _ = writeln!(
            s,
            "Boot loop of {} cycles ({} failed) started {} on {} with perfguide {}. Power: {}; console: {}.\n",
            self.cycles,
            self.failed.len(),
            md(&m.started),
            md(&m.host.hostname),
            md(&m.tool.version),
            md(&m.power),
            md(&m.console)
        );
        let _ = writeln!(s, "## Boot time\n");
        let _ = writeln!(
            s,
            "Seconds over {} successful cycles, `mean (min, max)`; each stage runs from the line that announces it to the line that announces the next, on the host clock of the capture.\n",
            self.stats.boots
        );
        let _ = writeln!(
            s,
            "| Stage | Time (s) | Median | p95 | Std dev | n |\n|---|---|---|---|---|---|"
        );
        StageTable::of(&self.stats)
            .with_total("Total (to the ready prompt)", self.stats.total_s.as_ref())
            .write_markdown(&mut s);
        if !self.stats.console_bytes.is_empty() {
            let _ = writeln!(
                s,
                "\n### Console output per stage\n\nPrinting costs boot time: at 115200 baud 8N1 each byte takes 86.8 µs on the wire.\n\n| Stage | Bytes | ≈ ms at 115200 |\n|---|---|---|"
            );
            for (id, v) in &self.stats.console_bytes {
                let _ = writeln!(
                    s,
                    "| {} | {:.0} | {:.1} |",
                    id.as_str(),
                    v.mean,
                    v.mean * 10.0 / 115_200.0 * 1e3
                );
            }
        }
        if !self.stats.bootstage_mark_us.is_empty() {
            let _ = writeln!(s, "\n## U-Boot bootstage\n\nMarks in milliseconds since reset (U-Boot's timer), `mean (min, max)`.\n");
            let _ = writeln!(
                s,
                "| Record | Mark (ms) | Median | p95 | Std dev | n |\n|---|---|---|---|---|---|"
            );
            let mut v: Vec<_> = self.stats.bootstage_mark_us.iter().collect();
            v.sort_by(|a, b| a.1.mean.total_cmp(&b.1.mean));
            for (k, sm) in v {
                markdown_row(&mut s, k, sm, 3, 1e-3);
            }
        }
        if !self.stats.sbl_us.is_empty() {
            let _ = writeln!(
                s,
                "\n## SBL profile\n\nMicroseconds per step (`run:step`).\n"
            );
            let _ = writeln!(
                s,
                "| Step | Time (µs) | Median | p95 | Std dev | n |\n|---|---|---|---|---|---|"
            );
            for (k, sm) in &self.stats.sbl_us {
                markdown_row(&mut s, k, sm, 0, 1.0);
            }
        }
        if !self.stats.initcall_us.is_empty() {
            let _ = writeln!(s, "\n## Slowest kernel initcalls\n\n| Initcall | Time (µs) | Median | p95 | Std dev | n |\n|---|---|---|---|---|---|");
            let mut v: Vec<_> = self.stats.initcall_us.iter().collect();
            v.sort_by(|a, b| b.1.mean.total_cmp(&a.1.mean));
            for (k, sm) in v.into_iter().take(15) {
                markdown_row(&mut s, k, sm, 0, 1.0);
            }
        }
        if !self.components.is_empty() {
            let _ = writeln!(s, "\n## Software\n\n| Component | Version |\n|---|---|");
            for (k, v) in &self.components {
                let _ = writeln!(s, "| {} | {} |", md(k), md(&v.join(" / ")));
            }
        }
        if !m.images.is_empty() {
            let _ = writeln!(
                s,
                "\n## Images\n\n| Role | File | Bytes | SHA-256 |\n|---|---|---|---|"
            );
            for i in &m.images {
                let _ = writeln!(
                    s,
                    "| {} | {} | {} | `{}` |",
                    md(&i.role),
                    md(&i.path.display().to_string()),
                    i.bytes,
                    md(&i.sha256)
                );
            }
        }
        if !self.failed.is_empty() {
            let _ = writeln!(s, "\n## Failed cycles\n\n| Cycle | Reason |\n|---|---|");
            for (c, why) in &self.failed {
                let _ = writeln!(s, "| {c} | {} |", md(why));
            }
        }
        s
    }
}
