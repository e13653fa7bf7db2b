//! A run directory read for a report: `run.json`, `boots.jsonl` and, when a bench session ran
//! there, `bench.jsonl`.

use super::ReportError;
use crate::rundir::{load_records, CycleRecord, RunManifest, BENCH_JSONL};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// One `perfguide/bench/v1` line of `bench.jsonl`.
#[derive(Debug, Clone, Deserialize)]
pub struct BenchLine {
    /// The runner's id, `<tool>/<test>`.
    pub benchmark: String,
    /// The figure's name.
    pub metric: String,
    /// The value.
    pub value: f64,
    /// Its unit.
    pub unit: String,
    /// `higher` or `lower`.
    pub better: super::model::Better,
    /// 1-based run of the benchmark.
    #[serde(default)]
    pub run: u32,
}

/// What a report reads of a run directory.
#[derive(Debug)]
pub struct RunData {
    /// What is missing or damaged in `boots.jsonl` (empty when it holds every planned cycle
    /// whole); only with [`RunData::load`]'s `partial`, else these are errors.
    pub gaps: Vec<String>,
    /// Planned cycles with no record.
    pub missing: Vec<u32>,
    /// The directory.
    pub dir: PathBuf,
    /// `run.json`.
    pub manifest: RunManifest,
    /// `boots.jsonl`, in cycle order.
    pub records: Vec<CycleRecord>,
    /// `bench.jsonl` (empty when no bench session ran there).
    pub bench: Vec<BenchLine>,
}

impl RunData {
    /// Reads the run directory `dir`. A `boots.jsonl` that is missing, empty, torn (its last
    /// line without a newline) or holds fewer records than `run.json` plans is an error, unless
    /// `partial`: then what is there is read and [`RunData::gaps`] says what is not.
    pub fn load(dir: &Path, partial: bool) -> Result<RunData, ReportError> {
        if !dir.is_dir() {
            return Err(ReportError::NotARun(dir.to_path_buf()));
        }
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
        let bpath = dir.join("boots.jsonl");
        let records = load_records(&bpath, false)?;
        let mut gaps = Vec::new();
        match last_byte(&bpath) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                gaps.push(format!("{} is missing", bpath.display()))
            }
            Err(e) => {
                return Err(ReportError::Manifest {
                    path: bpath.display().to_string(),
                    message: e.to_string(),
                })
            }
            Ok(None) => gaps.push(format!("{} is empty", bpath.display())),
            Ok(Some(b)) if b != b'\n' => gaps.push(format!(
                "{}: the last line is torn (no newline after record {}): a loop stopped while writing it",
                bpath.display(),
                records.len() + 1
            )),
            Ok(_) => {}
        }
        let have = records.last().map_or(0, |r| r.cycle);
        let missing: Vec<u32> = (have + 1..=manifest.cycles).collect();
        if !missing.is_empty() {
            gaps.push(format!(
                "{} holds {} of the {} cycles run.json plans (cycles {} missing)",
                bpath.display(),
                records.len(),
                manifest.cycles,
                span(&missing)
            ));
        }
        if !gaps.is_empty() && !partial {
            return Err(ReportError::Incomplete {
                what: gaps.join("; "),
            });
        }
        let bench = load_bench(&dir.join(BENCH_JSONL))?;
        Ok(RunData {
            gaps,
            missing,
            dir: dir.to_path_buf(),
            manifest,
            records,
            bench,
        })
    }

    /// The column name: the directory's last component.
    pub fn name(&self) -> String {
        self.dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| self.dir.display().to_string())
    }
}

/// The last byte of a file (`None` when it is empty): what tells a torn last record, read
/// without reading the file again.
fn last_byte(path: &Path) -> std::io::Result<Option<u8>> {
    use std::os::unix::fs::FileExt;
    let f = std::fs::File::open(path)?;
    let len = f.metadata()?.len();
    if len == 0 {
        return Ok(None);
    }
    let mut b = [0u8; 1];
    f.read_exact_at(&mut b, len - 1)?;
    Ok(Some(b[0]))
}

/// `3-7` for consecutive cycle numbers, `3` for one.
pub fn span(cycles: &[u32]) -> String {
    match (cycles.first(), cycles.last()) {
        (Some(a), Some(b)) if a == b => a.to_string(),
        (Some(a), Some(b)) => format!("{a}-{b}"),
        _ => String::new(),
    }
}

/// Reads `bench.jsonl`; a missing file is no benchmarks.
fn load_bench(path: &Path) -> Result<Vec<BenchLine>, ReportError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => {
            return Err(ReportError::Bench {
                path: path.to_path_buf(),
                line: 0,
                message: e.to_string(),
            })
        }
    };
    let mut out = Vec::new();
    for (i, l) in text.lines().enumerate() {
        if l.trim().is_empty() {
            continue;
        }
        let m: BenchLine = serde_json::from_str(l).map_err(|e| ReportError::Bench {
            path: path.to_path_buf(),
            line: i as u64 + 1,
            message: e.to_string(),
        })?;
        out.push(m);
    }
    Ok(out)
}
