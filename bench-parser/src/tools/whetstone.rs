//! Whetstone: the netlib C version (`Double Precision Whetstones: N MIPS`,
//! durations in whole, fractional or milli-seconds) and Roy Longbottom's
//! (`MWIPS` line).

use crate::collect::Collect;
use crate::error::Error;
use crate::model::{unit, Better, Parsed};
use crate::text::{after, lines, number, numbers};

pub const NAME: &str = "whetstone";
const BENCHMARK: &str = "whetstone/whetstone";
pub const WHETSTONE: &str = "whetstone";
pub const WHETSTONE_SP: &str = "whetstone_sp";
pub const DURATION: &str = "duration";

const LOOPS: &str = "Loops:";

pub fn recognise(text: &str) -> bool {
    text.contains("Whetstone")
        || text.contains("MWIPS")
        || (text.contains(LOOPS) && text.contains("Iterations:") && text.contains("Duration:"))
}

/// `30 sec.`, `2.5 sec`, `1500 msec`, `1500 ms` as seconds.
fn duration(rest: &str) -> Option<f64> {
    let mut toks = rest.split_whitespace();
    let v = number(toks.next()?)?;
    let u = toks.next().unwrap_or("sec").trim_end_matches(['.', ',']);
    match u {
        "msec" | "ms" | "millisec" | "milliseconds" => Some(v / 1000.0),
        _ => Some(v),
    }
}

pub fn parse(text: &str) -> Result<Parsed, Error> {
    let mut out = Collect::start(NAME, recognise(text), text)?;
    let mut run = 0u32;
    let mut open = false;
    let mut last = 0;
    for (no, line) in lines(text) {
        let t = line.trim();
        if t.contains(LOOPS) {
            if open {
                out.truncated(last, "the Whetstones line");
            }
            run += 1;
            out.set_run(run);
            open = true;
        }
        if let Some(d) = after(t, "Duration:").and_then(duration) {
            out.push(BENCHMARK, DURATION, d, unit::S, Better::Lower, no);
        }
        if let Some(rest) = after(t, "Whetstones:") {
            let mut w = rest.split_whitespace();
            if let (Some(v), u) = (w.next().and_then(number), w.next().unwrap_or("MIPS")) {
                // `KIPS` / `KWIPS` below 1000: the same unit in thousands.
                let (v, u) = match u {
                    "KIPS" => (v / 1000.0, unit::MIPS),
                    "KWIPS" => (v / 1000.0, unit::MWIPS),
                    "MWIPS" => (v, unit::MWIPS),
                    _ => (v, unit::MIPS),
                };
                let name = if t.contains("Single") {
                    WHETSTONE_SP
                } else {
                    WHETSTONE
                };
                out.push(BENCHMARK, name, v, u, Better::Higher, no);
                open = false;
            }
        } else if let Some(rest) = t.strip_prefix("MWIPS") {
            if let Some(&v) = numbers(rest).first() {
                out.push(BENCHMARK, WHETSTONE, v, unit::MWIPS, Better::Higher, no);
                open = false;
            }
        }
        if !t.is_empty() {
            last = no;
        }
    }
    if open {
        out.truncated(last, "the Whetstones line");
    }
    out.finish(text)
}
