//! EEMBC CoreMark: the full report, abbreviated reports (only
//! `Iterations/Sec` or only the `CoreMark 1.0 :` line) and tick counts with a
//! `k` suffix.

use crate::collect::Collect;
use crate::error::Error;
use crate::model::{unit, Better, Parsed};
use crate::text::{self, after, first_number, lines, number_k};

pub const NAME: &str = "coremark";
const BENCHMARK: &str = "coremark/coremark";
pub const ITERATIONS_PER_SEC: &str = "iterations_per_sec";
pub const TOTAL_TICKS: &str = "total_ticks";
pub const TOTAL_TIME: &str = "total_time";
pub const PER_MHZ: &str = "coremark_per_mhz";

const SIZE: &str = "CoreMark Size";
const TICKS: &str = "Total ticks";
const TIME: &str = "Total time (secs)";
const IPS: &str = "Iterations/Sec";
const SUMMARY: &str = "CoreMark 1.0 :";

pub fn recognise(text: &str) -> bool {
    text.contains(SIZE) || text.contains(IPS) || text.contains(SUMMARY)
}

pub fn parse(text: &str) -> Result<Parsed, Error> {
    let mut out = Collect::start(NAME, recognise(text), text)?;
    let last = text::last_line(text);
    let mut run = 0u32;
    // The report being read: its header line and whether it gave its score.
    let mut open: Option<u64> = None;
    let mut scored = false;
    for (no, line) in lines(text) {
        let value = |key: &str| after(line, key).and_then(|r| r.strip_prefix(':'));
        let score = |v: f64| (ITERATIONS_PER_SEC, v, unit::ITERATIONS_S, Better::Higher);
        let figure = if line.contains(SIZE) {
            if let (Some(start), false) = (open, scored) {
                out.truncated(no.saturating_sub(1).max(start), IPS);
            }
            run += 1;
            out.set_run(run);
            open = Some(no);
            scored = false;
            None
        } else if let Some(v) = value(TICKS).and_then(|r| r.split_whitespace().next()) {
            number_k(v).map(|(v, k)| {
                let ticks = if k { v * 1000.0 } else { v };
                (TOTAL_TICKS, ticks, unit::TICKS, Better::Lower)
            })
        } else if let Some(v) = value(TIME).and_then(first_number) {
            Some((TOTAL_TIME, v, unit::S, Better::Lower))
        } else if let Some(v) = value(IPS).and_then(first_number) {
            scored = true;
            Some(score(v))
        } else if let Some(v) = after(line, SUMMARY).and_then(first_number) {
            // An abbreviated report is this line alone.
            let figure = (!scored).then(|| score(v));
            open = None;
            scored = false;
            figure
        } else if let Some(v) = ["CoreMark/MHz", "Coremarks/MHz", "CoreMarks/MHz"]
            .iter()
            .find_map(|k| after(line, k))
            .and_then(|r| {
                r.trim_start_matches([')', ':', ' '])
                    .split_whitespace()
                    .next()
            })
            .and_then(first_number)
        {
            Some((PER_MHZ, v, unit::COREMARK_MHZ, Better::Higher))
        } else {
            if line.contains("Errors detected") {
                out.warn(&format!("the run reports errors (line {no})"));
            }
            None
        };
        if let Some((metric, v, u, better)) = figure {
            out.push(BENCHMARK, metric, v, u, better, no);
        }
    }
    if let (Some(_), false) = (open, scored) {
        out.truncated(last, IPS);
    }
    out.finish(text)
}
