//! McCalpin's STREAM: `Copy`, `Scale`, `Add`, `Triad` best rates in MB/s, one
//! run per `STREAM version` header.

use crate::collect::Collect;
use crate::error::Error;
use crate::model::{unit, Better, Parsed};
use crate::text::{lines, number};

pub const NAME: &str = "stream";
const BENCHMARK: &str = "stream/stream";
/// The kernels in output order; each is a metric name.
pub const KERNELS: [&str; 4] = ["Copy", "Scale", "Add", "Triad"];

pub fn recognise(text: &str) -> bool {
    text.contains("STREAM version") || (text.contains("Best Rate") && text.contains("Triad:"))
}

pub fn parse(text: &str) -> Result<Parsed, Error> {
    let mut out = Collect::start(NAME, recognise(text), text)?;
    let mut run = 0u32;
    let mut seen = 0usize;
    let mut open = false;
    let mut last = 0;
    let close = |out: &mut Collect, seen: usize, last: u64| {
        if seen < KERNELS.len() {
            out.truncated(last, KERNELS[seen]);
        }
    };
    for (no, line) in lines(text) {
        let t = line.trim();
        if t.contains("STREAM version") {
            if open {
                close(&mut out, seen, last);
            }
            run += 1;
            out.set_run(run);
            seen = 0;
            open = true;
        } else if let Some((name, rest)) = t.split_once(':') {
            if let Some(i) = KERNELS.iter().position(|k| *k == name) {
                if let Some(v) = rest.split_whitespace().next().and_then(number) {
                    if !open {
                        run += 1;
                        out.set_run(run);
                        open = true;
                    }
                    out.push(BENCHMARK, KERNELS[i], v, unit::MB_S, Better::Higher, no);
                    seen = i + 1;
                }
            }
        }
        if t.contains("Failed Validation") {
            out.warn(&format!("the run fails validation (line {no})"));
        }
        if t.starts_with("Solution Validates") || t.starts_with("Failed Validation") {
            if open {
                close(&mut out, seen, last);
            }
            open = false;
        }
        if !t.is_empty() {
            last = no;
        }
    }
    if open && seen < KERNELS.len() {
        close(&mut out, seen, last);
    }
    out.finish(text)
}
