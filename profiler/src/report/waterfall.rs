//! One boot on one time axis, milliseconds from power-on on the host clock: the stages as the
//! capture stamped them, and their sub-steps placed from their own clocks. U-Boot's bootstage
//! marks are placed so that `start_kernel` falls where the kernel stage starts (U-Boot prints
//! `Starting kernel ...` at that mark); kernel initcalls through the printk clock's offset on
//! the host clock; SBL profile points from the SBL stage's start; the steps of an SPL's own
//! bootstage report (the R5 SPL's on a TI K3 SoC) from the host stamp of the report's header
//! line ([`spl_breakdown::report_steps`] says how, and its error), and the A-core SPL's steps
//! in U-Boot proper's report with U-Boot's other marks.

use super::model::{Bar, Waterfall, TOP};
use crate::rundir::CycleRecord;
use bootlog_parser::model::{Boot, Clock, StageId};
use bootlog_parser::spl_breakdown;
use bootlog_parser::stats::total_s;

/// The waterfall of the cycle with the median total among `cycles` (the lower middle one for
/// an even count), `None` when no cycle has a total; `byte_us` is the console's time a byte
/// on the wire (0 for a virtual console), for the SPL reports' placement.
pub fn of_median(run: usize, cycles: &[&CycleRecord], byte_us: f64) -> Option<Waterfall> {
    let mut with_total: Vec<(f64, &CycleRecord)> = cycles
        .iter()
        .filter_map(|c| total_s(&c.boot).map(|t| (t, *c)))
        .collect();
    if with_total.is_empty() {
        return None;
    }
    with_total.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (total, c) = with_total[(with_total.len() - 1) / 2];
    let (bars, alignment) = bars(&c.boot, byte_us);
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

/// The bars of a boot, and how each target clock was placed (`byte_us` as in [`of_median`]).
pub fn bars(b: &Boot, byte_us: f64) -> (Vec<Bar>, Vec<String>) {
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
        // The A-core SPL's steps among those marks (its stashed records).
        for st in spl_breakdown::a_spl_steps(b) {
            let at = offset + st.start_us as f64 / 1e3;
            out.push(spl_bar(st.name, StageId::ASpl, at, st.duration_us));
        }
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
    // The SPLs' own reports, each step from its report's header line on the host clock.
    let mut placed = false;
    for r in &b.spl_bootstage {
        for st in spl_breakdown::report_steps(r, byte_us) {
            if let Some(h) = st.host_start_s {
                placed = true;
                out.push(spl_bar(st.name, r.stage, h * 1e3, st.duration_us));
            }
        }
    }
    if placed {
        alignment.push(format!(
            "SPL steps: each SPL's own bootstage report placed by the host stamp of its header line, which it prints right after its last mark (`start atf` on the R5), less {byte_us:.1} us for the header's first byte on the wire; late, never early, by the serial adapter's latency and any output still queued in the UART"
        ));
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

/// A bar of an SPL's step: `stage`'s `spl` lane, from `start_ms` for `duration_us`, placed
/// through a target clock.
fn spl_bar(name: String, stage: StageId, start_ms: f64, duration_us: u64) -> Bar {
    Bar {
        lane: "spl".into(),
        name,
        stage: stage.as_str().into(),
        start_ms,
        end_ms: start_ms + duration_us as f64 / 1e3,
        clock: "target".into(),
    }
}
