//! The benchmark table: one row per benchmark and metric, `mean (min, max)` over its runs.

use bench_parser::{Better, Metric};
use bootlog_parser::stats::Summary;
use std::io::{self, Write};

/// Significant decimals for a figure of this size: three significant digits at least.
fn decimals(v: f64) -> usize {
    let a = v.abs();
    if a >= 100.0 || a == 0.0 {
        1
    } else if a >= 1.0 {
        2
    } else if a >= 0.01 {
        4
    } else {
        6
    }
}

/// Writes the table of `metrics`, rows in the order each (benchmark, metric) first appears.
pub fn write_table(out: &mut impl Write, metrics: &[Metric]) -> io::Result<()> {
    let mut rows: Vec<(&Metric, Vec<f64>)> = Vec::new();
    for m in metrics {
        match rows
            .iter_mut()
            .find(|(r, _)| r.benchmark == m.benchmark && r.metric == m.metric)
        {
            Some((_, v)) => v.push(m.value),
            None => rows.push((m, vec![m.value])),
        }
    }
    writeln!(out, "== benchmarks: {} figures", metrics.len())?;
    if rows.is_empty() {
        return Ok(());
    }
    let w = rows
        .iter()
        .map(|(m, _)| m.benchmark.len() + 1 + m.metric.len())
        .max()
        .unwrap_or(0)
        .max(9);
    writeln!(
        out,
        "{:<w$} {:>4}  {:<44} {:<10} better",
        "benchmark", "n", "mean (min, max)", "unit"
    )?;
    for (m, values) in &rows {
        let Some(s) = Summary::of(values) else {
            continue;
        };
        writeln!(
            out,
            "{:<w$} {:>4}  {:<44} {:<10} {}",
            format!("{} {}", m.benchmark, m.metric),
            s.n,
            s.ti(decimals(s.mean)),
            m.unit,
            match m.better {
                Better::Higher => "higher",
                Better::Lower => "lower",
            }
        )?;
    }
    Ok(())
}
