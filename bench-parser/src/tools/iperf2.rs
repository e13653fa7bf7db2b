//! iperf 2 (`iperf -c` / `iperf -s`, 2.0 and 2.1 interval formats): the
//! whole-run interval (`0.0-10.0 sec ... Mbits/sec`, `[SUM]` with `-P`) and,
//! for UDP, jitter and loss.

use super::iperf3::{intervals_mean, JITTER, LOST};
use crate::collect::Collect;
use crate::error::Error;
use crate::model::{unit, Better, Parsed};
use crate::text::{lines, number, rate};

pub const NAME: &str = "iperf2";
pub const BANDWIDTH: &str = "bandwidth";

pub fn recognise(text: &str) -> bool {
    (text.contains("Client connecting to") || text.contains("Server listening on"))
        && (text.contains("window size") || text.contains("buffer size"))
}

/// The `<start>-<end>` interval among `words`.
fn interval(words: &[&str]) -> Option<(f64, f64)> {
    words.iter().find_map(|w| {
        let (a, b) = w.split_once('-')?;
        Some((number(a)?, number(b)?))
    })
}

struct Report {
    start: f64,
    end: f64,
    mbits: f64,
    jitter: Option<f64>,
    lost: Option<f64>,
    line: u64,
}

pub fn parse(text: &str) -> Result<Parsed, Error> {
    let mut out = Collect::start(NAME, recognise(text), text)?;
    let proto = if text.contains("UDP port") || text.contains("UDP buffer size") {
        "udp"
    } else {
        "tcp"
    };
    let dir = if text.contains("Client connecting to") {
        "tx"
    } else {
        "rx"
    };
    let bench = format!("{NAME}/{proto}-{dir}");
    let sum = text.contains("[SUM]");
    let mut reports: Vec<Report> = Vec::new();
    for (no, line) in lines(text) {
        let t = line.trim();
        if !t.starts_with('[') || t.starts_with("[ ID]") || (sum && !t.starts_with("[SUM]")) {
            continue;
        }
        // `[  3]  0.0-10.0 sec` and `[  3] 0.0-10.0 sec` alike: drop the id.
        let mut body = t.split_once(']').map_or("", |(_, b)| b).to_string();
        // iperf 2.0 pads the end of the interval: `0.0- 1.0 sec`.
        while body.contains("- ") {
            body = body.replace("- ", "-");
        }
        let words: Vec<&str> = body.split_whitespace().collect();
        let (Some((start, end)), Some((_, mbits))) = (interval(&words), rate(&words)) else {
            continue;
        };
        let ms = words.iter().position(|w| *w == "ms");
        let jitter = ms.and_then(|m| number(words.get(m.checked_sub(1)?)?));
        let lost = words
            .iter()
            .find_map(|w| w.strip_prefix('(').and_then(|w| w.strip_suffix("%)")))
            .and_then(number);
        reports.push(Report {
            start,
            end,
            mbits,
            jitter,
            lost,
            line: no,
        });
    }
    let max_end = reports.iter().map(|r| r.end).fold(0.0, f64::max);
    let whole = reports
        .iter()
        .rev()
        .find(|r| r.start == 0.0 && r.end >= max_end);
    match whole {
        Some(r) => {
            out.push(
                &bench,
                BANDWIDTH,
                r.mbits,
                unit::MBITS_S,
                Better::Higher,
                r.line,
            );
            // UDP: jitter and loss come from the server's report.
            let r = reports
                .iter()
                .rev()
                .find(|x| x.jitter.is_some())
                .unwrap_or(r);
            if let Some(j) = r.jitter {
                out.push(&bench, JITTER, j, unit::MS, Better::Lower, r.line);
            }
            if let Some(l) = r.lost {
                out.push(&bench, LOST, l, unit::PERCENT, Better::Lower, r.line);
            }
        }
        None => {
            let rates: Vec<f64> = reports.iter().map(|r| r.mbits).collect();
            let line = reports.last().map_or(1, |r| r.line);
            intervals_mean(&mut out, &bench, &rates, line, "the whole-run interval");
        }
    }
    out.finish(text)
}
