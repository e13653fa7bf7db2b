//! netperf 2.x: the classic report (`MIGRATED TCP STREAM TEST ...`, the
//! column header ending in a `10^6bits/s` or `per sec` unit row, one data
//! row, CPU utilisation with `-c`) and keyed output (`-k`, `KEY=VALUE`).

use std::collections::HashMap;

use crate::collect::Collect;
use crate::error::Error;
use crate::model::{unit, Better, Parsed};
use crate::text::{self, lines, number, numbers, slug};

pub const NAME: &str = "netperf";
pub const THROUGHPUT: &str = "throughput";
pub const THROUGHPUT_RECEIVED: &str = "throughput_received";
pub const LOCAL_CPU: &str = "local_cpu_util";
pub const REMOTE_CPU: &str = "remote_cpu_util";
/// Keyed-output latency keys (microseconds).
const LATENCY_KEYS: [&str; 7] = [
    "MIN_LATENCY",
    "MEAN_LATENCY",
    "P50_LATENCY",
    "P90_LATENCY",
    "P99_LATENCY",
    "MAX_LATENCY",
    "STDDEV_LATENCY",
];
const BANNER: &str = " TEST from ";

pub fn recognise(text: &str) -> bool {
    (text.contains(BANNER)
        && (text.contains("MIGRATED") || text.contains("Throughput") || text.contains("Trans.")))
        || text.contains("THROUGHPUT=")
}

/// `tcp-stream`, `tcp-maerts`, `tcp-rr`, `udp-stream` from the banner line.
fn test_name(text: &str) -> String {
    let Some((_, line)) = lines(text).find(|(_, l)| l.contains(BANNER)) else {
        return "test".to_string();
    };
    let head = line.split(BANNER).next().unwrap_or("");
    let head = head
        .trim()
        .trim_start_matches("MIGRATED")
        .replace("REQUEST/RESPONSE", "RR");
    slug(&head)
}

/// A throughput in netperf's units as a value and unit string.
fn throughput(v: f64, units: &str) -> (f64, &'static str) {
    match units {
        u if u.starts_with("10^9bits") => (v * 1e3, unit::MBITS_S),
        u if u.starts_with("10^3bits") => (v / 1e3, unit::MBITS_S),
        u if u.starts_with("10^6bits") => (v, unit::MBITS_S),
        u if u.starts_with("10^6bytes") || u.starts_with("10^6Bytes") => (v, unit::MB_S),
        _ => (v, unit::TRANS_S),
    }
}

pub fn parse(text: &str) -> Result<Parsed, Error> {
    let mut out = Collect::start(NAME, recognise(text), text)?;
    let last = text::last_line(text);
    let bench = format!("{NAME}/{}", test_name(text));
    if text.contains("THROUGHPUT=") {
        keyed(text, &bench, &mut out);
        return out.finish(text);
    }
    // The unit row: index of the rate column and its unit word.
    let mut column: Option<(usize, String)> = None;
    let mut rows = 0;
    let udp = bench.contains("udp");
    for (no, line) in lines(text) {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        let words: Vec<&str> = t.split_whitespace().collect();
        if rows == 0 {
            if let Some(i) = words
                .iter()
                .position(|w| w.starts_with("10^") || *w == "per")
            {
                column = Some((i, words[i].to_string()));
                continue;
            }
        }
        let Some((i, u)) = &column else { continue };
        let v = numbers(t);
        if v.len() != words.len() {
            continue;
        }
        if rows == 0 && v.len() > *i {
            let (value, u) = throughput(v[*i], u);
            out.push(&bench, THROUGHPUT, value, u, Better::Higher, no);
            for (k, name) in [(i + 1, LOCAL_CPU), (i + 2, REMOTE_CPU)] {
                if let Some(c) = v.get(k).filter(|c| **c >= 0.0) {
                    out.push(&bench, name, *c, unit::PERCENT, Better::Lower, no);
                }
            }
            rows += 1;
        } else if rows == 1 && udp {
            if let Some(&last_value) = v.last() {
                let (value, u) = throughput(last_value, u);
                out.push(&bench, THROUGHPUT_RECEIVED, value, u, Better::Higher, no);
            }
            rows += 1;
        }
    }
    if column.is_some() && rows == 0 {
        out.truncated(last, "the result row");
    }
    out.finish(text)
}

fn keyed(text: &str, bench: &str, out: &mut Collect) {
    let mut keys: HashMap<&str, (&str, u64)> = HashMap::new();
    let mut order: Vec<&str> = Vec::new();
    for (no, line) in lines(text) {
        if let Some((k, v)) = line.trim().split_once('=') {
            if !k.is_empty()
                && k.bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
            {
                keys.insert(k, (v.trim(), no));
                order.push(k);
            }
        }
    }
    let units = keys.get("THROUGHPUT_UNITS").map_or("10^6bits/s", |u| u.0);
    for k in order {
        let (v, no) = keys[k];
        let Some(v) = number(v) else {
            if k == "THROUGHPUT" {
                out.truncated(no, "the THROUGHPUT value");
            }
            continue;
        };
        if k == "THROUGHPUT" {
            let (value, u) = throughput(v, units);
            out.push(bench, THROUGHPUT, value, u, Better::Higher, no);
        } else if LATENCY_KEYS.contains(&k) {
            out.push(
                bench,
                &k.to_ascii_lowercase(),
                v,
                unit::US,
                Better::Lower,
                no,
            );
        } else if (k == "LOCAL_CPU_UTIL" || k == "REMOTE_CPU_UTIL") && v >= 0.0 {
            let name = if k == "LOCAL_CPU_UTIL" {
                LOCAL_CPU
            } else {
                REMOTE_CPU
            };
            out.push(bench, name, v, unit::PERCENT, Better::Lower, no);
        } else if k == "TRANSACTION_RATE" {
            out.push(
                bench,
                "transaction_rate",
                v,
                unit::TRANS_S,
                Better::Higher,
                no,
            );
        }
    }
}
