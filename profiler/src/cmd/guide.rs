//! Reading run directories and writing their guide, for the commands that end with one
//! (`report`, `boot-loop`, the labgrid places).

use anyhow::Result;
use perfguide::report::format::{write_formats, Format};
use perfguide::report::load::RunData;
use perfguide::report::model::TOP;
use perfguide::report::{guide, tables};
use std::path::{Path, PathBuf};
use std::time::Instant;

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

/// Writes the guide of run directories `dirs` (every format) into `out`, and prints the
/// console's cost (measured, and projected from the bytes) when a run has quiet cycles. A run
/// with quiet cycles ends with it, as does a boot loop on several places.
pub fn write_guide(dirs: &[PathBuf], out: &Path) -> anyhow::Result<()> {
    let runs = load_runs(dirs, false)?;
    let r = guide::build(&runs, Some(TOP));
    let formats = Format::ALL;
    write_formats(&r, &formats, out)?;
    let written: Vec<&str> = formats.iter().map(|f| f.file_name()).collect();
    if let Some(s) = r.sections.iter().find(|s| s.id == "console_cost") {
        let t = tables::section(&r, s);
        println!("== {}", t.title);
        for row in &t.rows {
            println!("{:<24} {}", row[0], row.get(1).map_or("", String::as_str));
        }
    }
    println!("guide: {} in {}", written.join(", "), out.display());
    Ok(())
}
