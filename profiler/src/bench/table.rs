//! The benchmark table: per benchmark and metric, `mean (min, max)` over its runs, with the
//! number of runs, the unit and the better direction. `perfguide bench parse --format table`
//! prints it, and so does the end of a `perfguide bench` run.

use bench_parser::{Better, Metric};
use bootlog_parser::stats::Summary;
use std::collections::HashMap;
use std::io::{self, Write};

/// One row: a metric of a benchmark over its runs.
#[derive(Debug, Clone, PartialEq)]
pub struct BenchRow {
    pub benchmark: String,
    pub metric: String,
    pub unit: String,
    pub better: Better,
    pub summary: Summary,
}

/// The rows, in the order their benchmark and metric first appear.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BenchTable {
    pub rows: Vec<BenchRow>,
}

impl BenchTable {
    /// The table of `metrics`: one row per benchmark, metric and unit.
    pub fn of<'a>(metrics: impl IntoIterator<Item = &'a Metric>) -> BenchTable {
        let mut keys: Vec<(&'a Metric, Vec<f64>)> = Vec::new();
        let mut index: HashMap<(&'a str, &'a str, &'a str), usize> = HashMap::new();
        for m in metrics {
            let key = (m.benchmark.as_str(), m.metric.as_str(), m.unit.as_str());
            let at = *index.entry(key).or_insert_with(|| {
                keys.push((m, Vec::new()));
                keys.len() - 1
            });
            keys[at].1.push(m.value);
        }
        BenchTable {
            rows: keys
                .into_iter()
                .filter_map(|(m, values)| {
                    Some(BenchRow {
                        benchmark: m.benchmark.clone(),
                        metric: m.metric.clone(),
                        unit: m.unit.clone(),
                        better: m.better,
                        summary: Summary::of(&values)?,
                    })
                })
                .collect(),
        }
    }

    /// The table as text: `benchmark metric n mean (min, max) unit better`.
    pub fn write_text(&self, out: &mut impl Write) -> io::Result<()> {
        let figures: Vec<String> = self
            .rows
            .iter()
            .map(|r| r.summary.ti(decimals(&r.summary)))
            .collect();
        let width = |head: &str, cell: &dyn Fn(usize) -> usize| {
            (0..self.rows.len())
                .map(cell)
                .max()
                .unwrap_or(0)
                .max(head.len())
        };
        let wb = width("benchmark", &|i| self.rows[i].benchmark.len());
        let wm = width("metric", &|i| self.rows[i].metric.len());
        let wf = width("mean (min, max)", &|i| figures[i].len());
        let wu = width("unit", &|i| self.rows[i].unit.len());
        writeln!(out, "== benchmarks: mean (min, max) over runs")?;
        writeln!(
            out,
            "{:<wb$}  {:<wm$}  {:>4}  {:<wf$}  {:<wu$}  better",
            "benchmark", "metric", "n", "mean (min, max)", "unit"
        )?;
        for (r, figure) in self.rows.iter().zip(&figures) {
            writeln!(
                out,
                "{:<wb$}  {:<wm$}  {:>4}  {:<wf$}  {:<wu$}  {}",
                r.benchmark,
                r.metric,
                r.summary.n,
                figure,
                r.unit,
                match r.better {
                    Better::Higher => "higher",
                    Better::Lower => "lower",
                }
            )?;
        }
        Ok(())
    }
}

/// Decimals that show about four significant digits of the row's largest figure (none for 0).
fn decimals(s: &Summary) -> usize {
    let m = s.min.abs().max(s.max.abs());
    if m == 0.0 {
        0
    } else if m >= 10_000.0 {
        1
    } else if m >= 100.0 {
        2
    } else if m >= 1.0 {
        3
    } else {
        4
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metric(benchmark: &str, name: &str, value: f64, run: u32) -> Metric {
        Metric {
            benchmark: benchmark.into(),
            metric: name.into(),
            value,
            unit: "MB/s".into(),
            better: Better::Higher,
            run,
            line: 1,
        }
    }

    #[test]
    fn rows_group_runs_in_first_seen_order() {
        let m = [
            metric("stream/stream", "Copy", 10.0, 1),
            metric("stream/stream", "Triad", 30.0, 1),
            metric("stream/stream", "Copy", 20.0, 2),
        ];
        let t = BenchTable::of(&m);
        assert_eq!(t.rows.len(), 2);
        assert_eq!(t.rows[0].metric, "Copy");
        assert_eq!(t.rows[0].summary.n, 2);
        assert_eq!(t.rows[0].summary.mean, 15.0);
        assert_eq!(t.rows[1].metric, "Triad");
        let mut out = Vec::new();
        t.write_text(&mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[2],
            "stream/stream  Copy       2  15.000 (min 10.000, max 20.000)  MB/s  higher"
        );
        // Columns line up with the header.
        assert_eq!(lines[1].find("unit"), lines[2].find("MB/s"));
    }
}
