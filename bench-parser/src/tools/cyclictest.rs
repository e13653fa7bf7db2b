//! rt-tests `cyclictest`: per-thread `T: <n> ... Min: Act: Avg: Max:` lines
//! (the last report of each thread counts, as the screen refreshes them) and
//! the `# Min/Avg/Max Latencies:` lines of histogram output. Microseconds.

use std::collections::BTreeMap;

use crate::collect::Collect;
use crate::error::Error;
use crate::model::{unit, Better, Parsed};
use crate::text::{lines, number};

pub const NAME: &str = "cyclictest";
const BENCHMARK: &str = "cyclictest/cyclictest";
/// The overall maximum latency over all threads.
pub const MAX: &str = "max";
const STATS: [&str; 3] = ["Min:", "Avg:", "Max:"];
const HIST: [(&str, &str); 3] = [
    ("# Min Latencies:", "min"),
    ("# Avg Latencies:", "avg"),
    ("# Max Latencies:", "max"),
];

pub fn recognise(text: &str) -> bool {
    lines(text).any(|(_, l)| l.contains("T:") && l.contains("Avg:")) || text.contains(HIST[2].0)
}

/// The value after `key` among `words`; a value filling its column touches
/// the key (`Max:12345678`).
fn field(words: &[&str], key: &str) -> Option<f64> {
    let i = words.iter().position(|w| w.starts_with(key))?;
    match &words[i][key.len()..] {
        "" => number(words.get(i + 1)?),
        attached => number(attached),
    }
}

pub fn parse(text: &str) -> Result<Parsed, Error> {
    let mut out = Collect::start(NAME, recognise(text), text)?;
    let mut threads: BTreeMap<u64, ([f64; 3], u64)> = BTreeMap::new();
    let mut hist: Vec<(&str, Vec<f64>, u64)> = Vec::new();
    for (no, line) in lines(text) {
        // Screen refreshes put escape sequences before the report.
        for part in line.split('\r') {
            let Some(at) = part.find("T:") else {
                if let Some((prefix, name)) = HIST.iter().find(|(p, _)| part.starts_with(p)) {
                    let v: Vec<f64> = part[prefix.len()..]
                        .split_whitespace()
                        .filter_map(number)
                        .collect();
                    hist.push((name, v, no));
                }
                continue;
            };
            // `T: 0` and `T:10` (the id is `%2d`).
            let words: Vec<&str> = part[at + 2..].split_whitespace().collect();
            let Some(id) = words.first().and_then(|w| w.parse::<u64>().ok()) else {
                continue;
            };
            let vals: Vec<Option<f64>> = STATS.iter().map(|k| field(&words, k)).collect();
            match (vals[0], vals[1], vals[2]) {
                (Some(a), Some(b), Some(c)) => {
                    threads.insert(id, ([a, b, c], no));
                }
                _ => out.truncated(no, &format!("the Max of thread {id}")),
            }
        }
    }
    for (id, (v, no)) in &threads {
        for (name, value) in ["min", "avg", "max"].iter().zip(v) {
            out.push(
                BENCHMARK,
                &format!("T{id}-{name}"),
                *value,
                unit::US,
                Better::Lower,
                *no,
            );
        }
    }
    if let Some((_, no)) = threads.values().max_by(|a, b| a.0[2].total_cmp(&b.0[2])) {
        let max = threads.values().map(|t| t.0[2]).fold(f64::MIN, f64::max);
        out.push(BENCHMARK, MAX, max, unit::US, Better::Lower, *no);
    }
    if threads.is_empty() {
        for (name, values, no) in &hist {
            for (id, v) in values.iter().enumerate() {
                out.push(
                    BENCHMARK,
                    &format!("T{id}-{name}"),
                    *v,
                    unit::US,
                    Better::Lower,
                    *no,
                );
            }
        }
    }
    out.finish(text)
}
