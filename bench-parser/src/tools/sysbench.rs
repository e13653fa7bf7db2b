//! sysbench 1.x: `cpu` (events per second), `memory` (MiB/sec transferred,
//! operations per second), `fileio` (reads/writes/fsyncs per second, read and
//! written MiB/s), and the latency block every test prints.

use crate::collect::Collect;
use crate::error::Error;
use crate::model::{unit, Better, Parsed};
use crate::text::{self, after, first_number, lines, number};

pub const NAME: &str = "sysbench";

/// `<key>` lines: key, metric, unit, direction.
const KEYS: &[(&str, &str, &str, Better)] = &[
    (
        "events per second:",
        "events_per_second",
        unit::EVENTS_S,
        Better::Higher,
    ),
    ("reads/s:", "reads_per_second", unit::OPS_S, Better::Higher),
    (
        "writes/s:",
        "writes_per_second",
        unit::OPS_S,
        Better::Higher,
    ),
    (
        "fsyncs/s:",
        "fsyncs_per_second",
        unit::OPS_S,
        Better::Higher,
    ),
    ("read, MiB/s:", "read", unit::MIB_S, Better::Higher),
    ("written, MiB/s:", "written", unit::MIB_S, Better::Higher),
];
/// Lines of the `Latency (ms):` block: key, metric.
const LATENCY: &[(&str, &str)] = &[
    ("min:", "latency_min"),
    ("avg:", "latency_avg"),
    ("max:", "latency_max"),
    ("95th percentile:", "latency_p95"),
];

pub fn recognise(text: &str) -> bool {
    text.contains("sysbench ")
        && (text.contains("Threads started!") || text.contains("General statistics:"))
}

fn test(text: &str) -> &'static str {
    if text.contains("Prime numbers limit") || text.contains("CPU speed:") {
        "cpu"
    } else if text.contains("memory speed test") || text.contains("MiB transferred") {
        "memory"
    } else if text.contains("File operations:") || text.contains("Extra file open flags") {
        "fileio"
    } else {
        "test"
    }
}

pub fn parse(text: &str) -> Result<Parsed, Error> {
    let mut out = Collect::start(NAME, recognise(text), text)?;
    let last = text::last_line(text);
    let bench = format!("{NAME}/{}", test(text));
    let mut in_latency = false;
    let mut started: Option<u64> = None;
    let mut finished = false;
    for (no, line) in lines(text) {
        let t = line.trim();
        if t.starts_with("Threads started!") {
            started = Some(no);
        } else if t.starts_with("General statistics:") {
            finished = true;
        } else if t.starts_with("Latency (ms):") {
            in_latency = true;
        } else if t.is_empty() {
            in_latency = false;
        } else if in_latency {
            if let Some((k, m)) = LATENCY.iter().find(|(k, _)| t.starts_with(k)) {
                if let Some(v) = number(&t[k.len()..]) {
                    out.push(&bench, m, v, unit::MS, Better::Lower, no);
                }
            }
        } else if let Some((k, m, u, b)) = KEYS.iter().find(|(k, ..)| t.starts_with(k)) {
            if let Some(v) = number(&t[k.len()..]) {
                out.push(&bench, m, v, u, *b, no);
            }
        } else if let Some(rest) = after(t, "Total operations:") {
            if let Some(v) = after(rest, "(").and_then(first_number) {
                out.push(
                    &bench,
                    "operations_per_second",
                    v,
                    unit::OPS_S,
                    Better::Higher,
                    no,
                );
            }
        } else if t.contains("MiB transferred (") {
            if let Some(v) = after(t, "(").and_then(first_number) {
                out.push(&bench, "transfer", v, unit::MIB_S, Better::Higher, no);
            }
        }
    }
    if started.is_some() && !finished {
        out.truncated(last, "General statistics");
    }
    out.finish(text)
}
