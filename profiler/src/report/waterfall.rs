//! One boot on one time axis, milliseconds from power-on on the host clock: the stages as the
//! capture stamped them, and their sub-steps placed from their own clocks. U-Boot's bootstage
//! marks are placed so that `start_kernel` falls where the kernel stage starts (U-Boot prints
//! `Starting kernel ...` at that mark); kernel initcalls through the printk clock's offset on
//! the host clock; SBL profile points from the SBL stage's start.

use super::guide::TOP;
use super::model::{Bar, Waterfall};
use crate::bootloop::run::CycleRecord;
use bootlog_parser::model::{Boot, Clock, StageId};
use bootlog_parser::stats::total_s;

/// The waterfall of the cycle with the median total among `cycles` (the lower middle one for
/// an even count), `None` when no cycle has a total.
pub fn of_median(run: usize, cycles: &[&CycleRecord]) -> Option<Waterfall> {
    let mut with_total: Vec<(f64, &CycleRecord)> = cycles
        .iter()
        .filter_map(|c| total_s(&c.boot).map(|t| (t, *c)))
        .collect();
    if with_total.is_empty() {
        return None;
    }
    with_total.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (total, c) = with_total[(with_total.len() - 1) / 2];
    let (bars, alignment) = bars(&c.boot);
    Some(Waterfall {
        run,
        cycle: c.cycle,
        total_ms: total * 1e3,
        bars,
        alignment,
    })
}

fn clock_name(c: Clock) -> String {
    format!("{c:?}").to_lowercase()
}

fn stage_start_ms(b: &Boot, id: StageId) -> Option<f64> {
    b.stage(id)
        .filter(|s| s.clock == Clock::Host)
        .and_then(|s| s.start_s)
        .map(|s| s * 1e3)
}

/// The bars of a boot, and how each target clock was placed.
pub fn bars(b: &Boot) -> (Vec<Bar>, Vec<String>) {
    let mut out = Vec::new();
    let mut alignment = Vec::new();
    for s in &b.stages {
        if let (Some(a), Some(e)) = (s.start_s, s.end_s) {
            out.push(Bar {
                lane: "stage".into(),
                name: s.id.as_str().into(),
                stage: s.id.as_str().into(),
                start_ms: a * 1e3,
                end_ms: e * 1e3,
                clock: clock_name(s.clock),
            });
        }
    }
    // Bootstage: start_kernel at the kernel stage's start, else reset at U-Boot's.
    let anchor = b
        .bootstage
        .iter()
        .find(|r| r.name == "start_kernel")
        .zip(stage_start_ms(b, StageId::Kernel))
        .map(|(r, k)| {
            (
                k - r.mark_us as f64 / 1e3,
                "bootstage: `start_kernel` placed at the kernel stage's start",
            )
        })
        .or_else(|| {
            stage_start_ms(b, StageId::Uboot).map(|u| {
                (
                    u,
                    "bootstage: U-Boot's reset placed at the U-Boot stage's start",
                )
            })
        });
    if let (Some((offset, how)), false) = (anchor, b.bootstage.is_empty()) {
        alignment.push(how.to_string());
        let mut prev: Option<f64> = None;
        for r in &b.bootstage {
            let at = offset + r.mark_us as f64 / 1e3;
            out.push(Bar {
                lane: "bootstage".into(),
                name: r.name.clone(),
                stage: "uboot".into(),
                start_ms: prev.unwrap_or(at).min(at),
                end_ms: at,
                clock: "target".into(),
            });
            prev = Some(at);
        }
    }
    // SBL points of the first SBL run, from the SBL stage's start.
    if let Some(sbl0) = stage_start_ms(b, StageId::Sbl) {
        let mut at = sbl0;
        let mut any = false;
        for p in b.sbl_profile.iter().filter(|p| p.run == 0) {
            let (start, end) = match (p.duration_us, p.timestamp_us) {
                (Some(d), _) => (at, at + d as f64 / 1e3),
                (None, Some(t)) => {
                    let t = sbl0 + t as f64 / 1e3;
                    (at.min(t), t)
                }
                (None, None) => continue,
            };
            any = true;
            out.push(Bar {
                lane: "sbl".into(),
                name: p.name.clone(),
                stage: "sbl".into(),
                start_ms: start,
                end_ms: end,
                clock: "target".into(),
            });
            at = end;
        }
        if any {
            alignment.push("SBL profile: the SBL's timer placed at the SBL stage's start".into());
        }
    }
    // The slowest initcalls, ending at their printk time.
    let printk = b
        .printk_offset_s
        .map(|o| (o * 1e3, "initcalls: printk time placed by its offset on the host clock (the smallest host - printk over the kernel lines)"))
        .or_else(|| {
            stage_start_ms(b, StageId::Kernel)
                .map(|k| (k, "initcalls: printk time 0 placed at the kernel stage's start"))
        });
    if let Some((offset, how)) = printk {
        let mut slow: Vec<_> = b.initcalls.iter().filter(|c| c.ts_s.is_some()).collect();
        slow.sort_by_key(|c| std::cmp::Reverse(c.duration_us));
        slow.truncate(TOP);
        if !slow.is_empty() {
            alignment.push(how.to_string());
        }
        for c in slow {
            let end = offset + c.ts_s.unwrap_or(0.0) * 1e3;
            out.push(Bar {
                lane: "initcall".into(),
                name: c.name.clone(),
                stage: "kernel".into(),
                start_ms: end - c.duration_us as f64 / 1e3,
                end_ms: end,
                clock: "target".into(),
            });
        }
    }
    (out, alignment)
}
