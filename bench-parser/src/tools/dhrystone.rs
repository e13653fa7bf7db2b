//! Dhrystone 2.x (`Dhrystones per Second:`), with DMIPS (per second / 1757)
//! and, when the clock is known, DMIPS/MHz.

use crate::collect::Collect;
use crate::error::Error;
use crate::model::{unit, Better, Metric, Parsed};
use crate::text::{after, first_number, lines};

pub const NAME: &str = "dhrystone";
const BENCHMARK: &str = "dhrystone/dhrystone";
pub const PER_SECOND: &str = "dhrystone_per_second";
pub const DMIPS: &str = "dmips";
pub const PER_MHZ: &str = "dhrystone_per_mhz";
pub const US_PER_RUN: &str = "us_per_run";
/// Dhrystones per second of the VAX 11/780, the 1 DMIPS reference.
pub const VAX_DHRYSTONES: f64 = 1757.0;

const PER_SECOND_KEY: &str = "Dhrystones per Second";
const START: &str = "runs through Dhrystone";

pub fn recognise(text: &str) -> bool {
    text.contains(PER_SECOND_KEY) || text.contains("Dhrystone Benchmark") || text.contains(START)
}

/// The `<key>: <number>` value of `line`.
fn value(line: &str, key: &str) -> Option<f64> {
    after(line, key)
        .and_then(|r| r.strip_prefix(':'))
        .and_then(first_number)
}

/// A printed DMIPS figure (`Dhrystones MIPS: 51.9`, `DMIPS: 51.9`; not `DMIPS/MHz:`).
fn printed_dmips(line: &str) -> Option<f64> {
    value(line, "Dhrystones MIPS").or_else(|| value(line, "DMIPS"))
}

pub fn parse(text: &str) -> Result<Parsed, Error> {
    let mut out = Collect::start(NAME, recognise(text), text)?;
    let mut run = 0u32;
    let mut open = false;
    let mut printed_mips = false;
    let mut last = 0;
    for (no, line) in lines(text) {
        let value = |key: &str| value(line, key);
        if line.contains("Execution starts") {
            if open {
                out.truncated(last, PER_SECOND_KEY);
            }
            run += 1;
            out.set_run(run);
            open = true;
            printed_mips = false;
        } else if let Some(v) = value("Microseconds for one run through Dhrystone") {
            out.push(BENCHMARK, US_PER_RUN, v, unit::US, Better::Lower, no);
        } else if let Some(v) = value(PER_SECOND_KEY) {
            out.push(
                BENCHMARK,
                PER_SECOND,
                v,
                unit::DHRYSTONE_S,
                Better::Higher,
                no,
            );
            open = false;
            // Older ports print no MIPS line: derive it.
            let rest = text[..].lines().skip(no as usize).take(4);
            let follows = rest.into_iter().any(|l| printed_dmips(l).is_some());
            if !follows {
                out.push(
                    BENCHMARK,
                    DMIPS,
                    v / VAX_DHRYSTONES,
                    unit::DMIPS,
                    Better::Higher,
                    no,
                );
            }
        } else if let Some(v) = printed_dmips(line) {
            if !printed_mips {
                out.push(BENCHMARK, DMIPS, v, unit::DMIPS, Better::Higher, no);
                printed_mips = true;
            }
        } else if let Some(v) = value("DMIPS/MHz") {
            out.push(BENCHMARK, PER_MHZ, v, unit::DMIPS_MHZ, Better::Higher, no);
        }
        if !line.trim().is_empty() {
            last = no;
        }
    }
    if open {
        out.truncated(last, PER_SECOND_KEY);
    }
    out.finish(text)
}

/// Adds `dhrystone_per_mhz` (DMIPS/MHz) for every DMIPS figure, given the CPU
/// clock, unless the output printed it.
pub fn with_clock(mut parsed: Parsed, cpu_mhz: f64) -> Parsed {
    let printed = parsed.metrics.iter().any(|m| m.metric == PER_MHZ);
    if printed || !(cpu_mhz.is_finite() && cpu_mhz > 0.0) {
        return parsed;
    }
    let per_mhz: Vec<Metric> = parsed
        .metrics
        .iter()
        .filter(|m| m.metric == DMIPS)
        .map(|m| Metric {
            metric: PER_MHZ.to_string(),
            value: m.value / cpu_mhz,
            unit: unit::DMIPS_MHZ.to_string(),
            ..m.clone()
        })
        .collect();
    parsed.metrics.extend(per_mhz);
    parsed
}
