//! The guide as CSV (`report.csv`): one line per figure, `run,section,name,statistic,value,unit`
//! (statistics `n`, `mean`, `min`, `max`, `median`, `p95`, `stddev`), quoted as RFC 4180 says.

use super::model::Report;
use std::fmt::Write as _;

/// The header line.
pub const HEADER: &str = "run,section,name,statistic,value,unit";

/// A CSV field: quoted when it holds a comma, a quote or a line break, quotes doubled.
pub fn field(t: &str) -> String {
    if t.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", t.replace('"', "\"\""))
    } else {
        t.to_string()
    }
}

/// Every figure of the guide as CSV.
pub fn csv(r: &Report) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{HEADER}");
    for sec in &r.sections {
        for row in &sec.rows {
            for (i, run) in r.runs.iter().enumerate() {
                let Some(m) = row.summary(i) else { continue };
                let stats = [
                    ("n", m.n as f64),
                    ("mean", m.mean),
                    ("min", m.min),
                    ("max", m.max),
                    ("median", m.median),
                    ("p95", m.p95),
                    ("stddev", m.stddev),
                ];
                for (stat, v) in stats {
                    let unit = if stat == "n" { "" } else { row.unit.as_str() };
                    let _ = writeln!(
                        s,
                        "{},{},{},{stat},{v},{}",
                        field(&run.name),
                        field(&sec.id),
                        field(&row.name),
                        field(unit)
                    );
                }
            }
        }
    }
    s
}
