//! iperf3 client output: the text report (`sender` / `receiver` summary
//! lines, TCP retransmits, UDP jitter and loss) and `--json`.

use serde_json::Value;

use crate::collect::Collect;
use crate::error::Error;
use crate::model::{unit, Better, Parsed};
use crate::text::{self, lines, number, rate};

pub const NAME: &str = "iperf3";
pub const SENDER: &str = "sender";
pub const RECEIVER: &str = "receiver";
pub const RETRANSMITS: &str = "retransmits";
pub const JITTER: &str = "jitter";
pub const LOST: &str = "lost_percent";
pub const INTERVALS_MEAN: &str = "intervals_mean";
pub const CPU_HOST: &str = "cpu_host";
pub const CPU_REMOTE: &str = "cpu_remote";

pub fn recognise(text: &str) -> bool {
    text.contains("iperf3")
        || text.contains("Connecting to host")
        || text.contains("iperf Done.")
        || text.contains("\"sum_sent\"")
        || (text.contains("\"start\"") && text.contains("\"connecting_to\""))
        || (text.contains("[ ID]") && text.contains(" sender") && text.contains(" receiver"))
}

pub fn parse(text: &str) -> Result<Parsed, Error> {
    let mut out = Collect::start(NAME, recognise(text), text)?;
    let last = text::last_line(text);
    if text.trim_start().starts_with('{') {
        json(text, &mut out);
        return out.finish(text);
    }
    let udp = text.contains("Jitter");
    let dir = if text.contains("Reverse mode") {
        "rx"
    } else {
        "tx"
    };
    let bench = format!("{NAME}/{}-{dir}", if udp { "udp" } else { "tcp" });
    let has_sum = lines(text)
        .any(|(_, l)| l.starts_with("[SUM]") && (l.ends_with(SENDER) || l.ends_with(RECEIVER)));
    let mut intervals: Vec<f64> = Vec::new();
    let (mut sender, mut receiver) = (false, false);
    for (no, line) in lines(text) {
        let t = line.trim();
        if !t.starts_with('[') || t.starts_with("[ ID]") || (has_sum && !t.starts_with("[SUM]")) {
            continue;
        }
        let words: Vec<&str> = t.split_whitespace().collect();
        let Some((i, mb)) = rate(&words) else {
            continue;
        };
        let role = match words.last() {
            Some(&SENDER) => SENDER,
            Some(&RECEIVER) => RECEIVER,
            _ => {
                intervals.push(mb);
                continue;
            }
        };
        out.push(&bench, role, mb, unit::MBITS_S, Better::Higher, no);
        if role == SENDER {
            sender = true;
        } else {
            receiver = true;
        }
        let after: Vec<&str> = words[i + 1..words.len() - 1].to_vec();
        if udp {
            if let (Some(j), Some(&"ms")) = (after.first().and_then(|w| number(w)), after.get(1)) {
                out.push(
                    &bench,
                    &format!("{JITTER}-{role}"),
                    j,
                    unit::MS,
                    Better::Lower,
                    no,
                );
            }
            if let Some(p) = after
                .iter()
                .find_map(|w| w.strip_prefix('(').and_then(|w| w.strip_suffix("%)")))
                .and_then(number)
            {
                out.push(
                    &bench,
                    &format!("{LOST}-{role}"),
                    p,
                    unit::PERCENT,
                    Better::Lower,
                    no,
                );
            }
        } else if role == SENDER {
            if let Some(r) = after.first().and_then(|w| number(w)) {
                out.push(&bench, RETRANSMITS, r, unit::COUNT, Better::Lower, no);
            }
        }
    }
    if !sender && !receiver {
        intervals_mean(
            &mut out,
            &bench,
            &intervals,
            last,
            "the sender/receiver summary",
        );
    } else if sender != receiver {
        out.truncated(
            last,
            if sender {
                "the receiver line"
            } else {
                "the sender line"
            },
        );
    }
    out.finish(text)
}

/// Output cut before its summary: the mean of the interval rates read, with a
/// warning naming `line`.
pub(crate) fn intervals_mean(
    out: &mut Collect,
    bench: &str,
    rates: &[f64],
    line: u64,
    missing: &str,
) {
    if rates.is_empty() {
        return;
    }
    let mean = rates.iter().sum::<f64>() / rates.len() as f64;
    out.push(
        bench,
        INTERVALS_MEAN,
        mean,
        unit::MBITS_S,
        Better::Higher,
        line,
    );
    out.truncated(line, missing);
}

/// The 1-based line of the first occurrence of `needle` (1 when absent).
fn line_of(text: &str, needle: &str) -> u64 {
    text.find(needle).map_or(1, |i| {
        text[..i].bytes().filter(|&b| b == b'\n').count() as u64 + 1
    })
}

fn json(text: &str, out: &mut Collect) {
    let v: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            out.truncated(e.line() as u64, "the end of the JSON document");
            return;
        }
    };
    if let Some(e) = v.get("error").and_then(Value::as_str) {
        out.warn(&format!("iperf3 reports an error: {e}"));
    }
    let ts = &v["start"]["test_start"];
    let udp = ts["protocol"].as_str() == Some("UDP");
    let dir = if ts["reverse"].as_u64().unwrap_or(0) != 0 {
        "rx"
    } else {
        "tx"
    };
    let bench = format!("{NAME}/{}-{dir}", if udp { "udp" } else { "tcp" });
    let end = &v["end"];
    for (key, role) in [("sum_sent", SENDER), ("sum_received", RECEIVER)] {
        let s = &end[key];
        let line = line_of(text, &format!("\"{key}\""));
        if let Some(bps) = s["bits_per_second"].as_f64() {
            out.push(&bench, role, bps / 1e6, unit::MBITS_S, Better::Higher, line);
        }
        if role == SENDER && !udp {
            if let Some(r) = s["retransmits"].as_f64() {
                out.push(&bench, RETRANSMITS, r, unit::COUNT, Better::Lower, line);
            }
        }
    }
    if udp {
        let line = line_of(text, "\"jitter_ms\"");
        let s = if end["sum_received"]["jitter_ms"].is_number() {
            &end["sum_received"]
        } else {
            &end["sum"]
        };
        if let Some(j) = s["jitter_ms"].as_f64() {
            out.push(
                &bench,
                &format!("{JITTER}-{RECEIVER}"),
                j,
                unit::MS,
                Better::Lower,
                line,
            );
        }
        if let Some(p) = s["lost_percent"].as_f64() {
            out.push(
                &bench,
                &format!("{LOST}-{RECEIVER}"),
                p,
                unit::PERCENT,
                Better::Lower,
                line,
            );
        }
        if out.is_empty() {
            if let Some(bps) = end["sum"]["bits_per_second"].as_f64() {
                out.push(
                    &bench,
                    SENDER,
                    bps / 1e6,
                    unit::MBITS_S,
                    Better::Higher,
                    line_of(text, "\"sum\""),
                );
            }
        }
    }
    let cpu = &end["cpu_utilization_percent"];
    let line = line_of(text, "\"cpu_utilization_percent\"");
    for (key, name) in [("host_total", CPU_HOST), ("remote_total", CPU_REMOTE)] {
        if let Some(c) = cpu[key].as_f64() {
            out.push(&bench, name, c, unit::PERCENT, Better::Lower, line);
        }
    }
}
