//! Boot-loop measurement quality, from run directories written by `perfguide boot-loop`.
//!
//! ```text
//! cargo run --release -p perfguide --example loop_fidelity -- RUN_DIR [RUN_DIR...]
//! ```
//!
//! 1. Timestamp fidelity: for every console line that carries a printk stamp
//!    (`[    1.234567] ...`) and that the kernel printed live (after `printk: console [..]
//!    enabled` or `printk: bootconsole [..] enabled` with `earlycon`; earlier lines come out of
//!    the log buffer in one burst) with a running printk clock (not `0.000000`),
//!    `host - printk`. Serial output can only arrive after the kernel
//!    printed it, so per boot the minimum of `host - printk` is the clock offset; what is above
//!    it is the error of the host stamp (console and capture latency plus clock drift).
//!    Printed: median, p99 and max over all kernel lines of all cycles, in µs.
//! 2. Orchestration overhead per cycle: from one power-on to the next, minus the boot (power-on
//!    to ready) of the first, i.e. power-off, settle, parsing and record writing (from the
//!    wall-clock `power_on_at` stamps), and `host.overhead_s` as recorded per cycle.

use bootlog_parser::capture::{parse_line, unescape};
use perfguide::rundir::{load_records, CycleRecord};
use std::path::Path;
use std::process::ExitCode;

fn printk_stamp(text: &str) -> Option<f64> {
    let t = text.trim_start();
    let rest = t.strip_prefix('[')?;
    let close = rest.find(']')?;
    let inner = rest[..close].trim();
    let (s, us) = inner.split_once('.')?;
    if us.len() != 6 || !s.bytes().all(|c| c.is_ascii_digit()) || s.is_empty() {
        return None;
    }
    inner.parse().ok()
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn summary(name: &str, unit: &str, v: &mut [f64]) {
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        println!("{name}: no data");
        return;
    }
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    println!(
        "{name}: n {}  median {:.0} {unit}  p99 {:.0} {unit}  max {:.0} {unit}  mean {:.0} {unit}  min {:.0} {unit}",
        v.len(),
        percentile(v, 50.0),
        percentile(v, 99.0),
        v[v.len() - 1],
        mean,
        v[0]
    );
}

fn parse_wall(s: &str) -> Option<f64> {
    let t = chrono::DateTime::parse_from_rfc3339(s).ok()?;
    Some(t.timestamp_micros() as f64 / 1e6)
}

fn main() -> ExitCode {
    let dirs: Vec<String> = std::env::args().skip(1).collect();
    if dirs.is_empty() {
        eprintln!("usage: loop_fidelity RUN_DIR [RUN_DIR...]");
        return ExitCode::from(2);
    }
    let mut errors_us = Vec::new();
    let mut offsets_ms = Vec::new();
    let mut gap_overhead_ms = Vec::new();
    let mut recorded_overhead_ms = Vec::new();
    let mut boots_s = Vec::new();
    for d in &dirs {
        let dir = Path::new(d);
        let recs: Vec<CycleRecord> = match load_records(&dir.join("boots.jsonl"), false) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{d}: {e}");
                return ExitCode::from(2);
            }
        };
        for r in &recs {
            let Ok(text) = std::fs::read_to_string(dir.join(&r.log)) else {
                continue;
            };
            // Only lines the kernel printed live: after its console (or earlycon boot console)
            // was enabled (earlier lines are replayed from the log buffer in one burst), and
            // with a running printk clock (stamps stay 0.000000 until sched_clock starts).
            let mut live = false;
            let pairs: Vec<(f64, f64)> = text
                .lines()
                .filter_map(|l| {
                    let (abs_us, _, body) = parse_line(l)?;
                    let body = String::from_utf8_lossy(&unescape(body)).into_owned();
                    let k = printk_stamp(&body)?;
                    let was_live = live;
                    if body.contains("printk: console [") && body.contains("] enabled")
                        || body.contains("printk: bootconsole [") && body.contains("] enabled")
                    {
                        live = true;
                    }
                    (was_live && k > 0.0).then_some((abs_us as f64 / 1e6, k))
                })
                .collect();
            let diffs: Vec<f64> = pairs.iter().map(|(h, k)| h - k).collect();
            if let Some(off) = diffs.iter().copied().reduce(f64::min) {
                offsets_ms.push(off * 1e3);
                errors_us.extend(diffs.iter().map(|d| (d - off) * 1e6));
            }
            if r.failure.is_none() {
                if let Some(t) = r.host.ready_s {
                    boots_s.push(t);
                }
            }
            recorded_overhead_ms.push(r.host.overhead_s * 1e3);
        }
        for w in recs.windows(2) {
            let (Some(a), Some(b)) = (
                parse_wall(&w[0].host.power_on_at),
                parse_wall(&w[1].host.power_on_at),
            ) else {
                continue;
            };
            let boot = w[0].host.ready_s.unwrap_or(w[0].host.end_s);
            gap_overhead_ms.push((b - a - boot) * 1e3);
        }
    }
    println!("runs: {}", dirs.join(" "));
    summary(
        "host-vs-printk error after offset (kernel lines)",
        "us",
        &mut errors_us,
    );
    summary("host-printk offset per boot", "ms", &mut offsets_ms);
    summary("boot, power-on to ready", "ms", &mut {
        boots_s.iter().map(|s| s * 1e3).collect::<Vec<_>>()
    });
    summary(
        "overhead per cycle (power-on to next power-on, minus the boot)",
        "ms",
        &mut gap_overhead_ms,
    );
    summary(
        "overhead per cycle (recorded host.overhead_s)",
        "ms",
        &mut recorded_overhead_ms,
    );
    ExitCode::SUCCESS
}
