//! `mbw` memory bandwidth: the `AVG  Method: <M> ... Copy: <v> MiB/s` line of
//! each method (MEMCPY, DUMB, MCBLOCK); output cut before an AVG line gives
//! the mean of that method's runs.

use crate::collect::Collect;
use crate::error::Error;
use crate::model::{unit, Better, Parsed};
use crate::text::{after, lines, number};

pub const NAME: &str = "mbw";
const BENCHMARK: &str = "mbw/mbw";
const METHOD: &str = "Method:";

pub fn recognise(text: &str) -> bool {
    ["MEMCPY", "DUMB", "MCBLOCK"]
        .iter()
        .any(|m| text.contains(&format!("{METHOD} {m}")))
}

pub fn parse(text: &str) -> Result<Parsed, Error> {
    let mut out = Collect::start(NAME, recognise(text), text)?;
    // Runs of the method being read that have no AVG line yet.
    let mut pending: Option<(String, Vec<f64>, u64)> = None;
    for (no, line) in lines(text) {
        let t = line.trim();
        let Some(method) = after(t, METHOD).and_then(|r| r.split_whitespace().next()) else {
            continue;
        };
        let Some(v) = after(t, "Copy:")
            .and_then(|r| r.split_whitespace().next())
            .and_then(number)
        else {
            out.truncated(no, &format!("the Copy figure of {method}"));
            continue;
        };
        let method = method.to_ascii_lowercase();
        if t.starts_with("AVG") {
            out.push(BENCHMARK, &method, v, unit::MIB_S, Better::Higher, no);
            pending = None;
        } else {
            match &mut pending {
                Some((m, runs, at)) if *m == method => {
                    runs.push(v);
                    *at = no;
                }
                _ => {
                    flush(&mut out, pending.take());
                    pending = Some((method, vec![v], no));
                }
            }
        }
    }
    flush(&mut out, pending);
    out.finish(text)
}

/// The mean of runs whose AVG line never came, with a warning.
fn flush(out: &mut Collect, pending: Option<(String, Vec<f64>, u64)>) {
    if let Some((method, runs, no)) = pending {
        let mean = runs.iter().sum::<f64>() / runs.len() as f64;
        out.push(BENCHMARK, &method, mean, unit::MIB_S, Better::Higher, no);
        out.truncated(no, &format!("the AVG line of {method}"));
    }
}
