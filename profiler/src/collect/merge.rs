//! The collected records put on the cycle's host timeline.
//!
//! Clocks: the host's (t = 0 at power-on), printk's (the kernel log, zero when the kernel's
//! sched_clock starts) and the arm64 generic timer's (U-Boot's bootstage marks, zero when the
//! counter starts at reset). [`Alignment::from_sync`] gives `host - printk` and
//! `host - counter` from the [`SyncPoint`], each within `error_s`.
//!
//! A quiet cycle's stages ([`quiet_boot`]), each `derived`:
//! - `rom`: power-on to U-Boot's first mark after `reset`, on the host clock through the counter;
//! - `uboot`: from there to its `start_kernel` mark (the hand-off);
//! - `kernel`: the hand-off to the kernel log's end of the kernel stage (the line the console
//!   parser ends it at), through the printk offset; so it holds the kernel's time before its
//!   clock starts, as a loud cycle's does;
//! - `userspace`: to the ready line, which the console still shows (host clock).
//!
//! Without a counter reading (no `perfguide-counter`, or not arm64) `rom` is unknown, `uboot`
//! is only a duration (target clock), and `kernel` starts at printk's zero, which leaves the
//! kernel's first moments out: a warning says so.

use super::{Collected, SyncPoint};
use bootlog_parser::model::{BootstageRecord, Clock, Stage, StageId};
use bootlog_parser::Boot;
use serde::{Deserialize, Serialize};

/// How the target's clocks were placed on the host clock (`alignment` of a cycle record).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Alignment {
    /// `host - printk`, seconds.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub printk_offset_s: Option<f64>,
    /// `host - generic timer` (the clock of the bootstage marks), seconds.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub counter_offset_s: Option<f64>,
    /// Half the sync command's round trip: each offset is within this of the truth.
    pub error_s: f64,
    /// A loud cycle: `host - printk` from the console's stamps (the least over kernel lines),
    /// to check the sync against.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub console_printk_offset_s: Option<f64>,
    /// A loud cycle: `host - generic timer` from the console (the `Starting kernel` line's
    /// stamp less the `start_kernel` mark), to check the sync against.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub console_counter_offset_s: Option<f64>,
}

impl Alignment {
    /// The offsets of a sync: printk's from the middle of the window, with half its width as
    /// the error; the counter's through printk (`host - counter = (host - printk) + (printk -
    /// counter)` at the counter line).
    pub fn from_sync(s: &SyncPoint) -> Alignment {
        let mid = (s.sent_s + s.ended_s) / 2.0;
        let printk = s.printk_s.map(|p| mid - p);
        Alignment {
            printk_offset_s: printk,
            counter_offset_s: match (printk, s.counter_s, s.counter_printk_s) {
                (Some(off), Some(c), Some(p)) => Some(off + (p - c)),
                _ => None,
            },
            error_s: ((s.ended_s - s.sent_s) / 2.0).max(0.0),
            console_printk_offset_s: None,
            console_counter_offset_s: None,
        }
    }

    /// Adds what a loud cycle's console says of the same offsets.
    pub fn check_against(&mut self, console: &Boot) {
        self.console_printk_offset_s = console.printk_offset_s;
        let handoff = handoff_s(&console.bootstage);
        let starting = console.mark("starting_kernel").and_then(|m| m.host_s);
        if let (Some(h), Some(s)) = (handoff, starting) {
            self.console_counter_offset_s = Some(s - h);
        }
    }
}

/// U-Boot's last bootstage mark before Linux runs.
pub const HANDOFF: &str = "start_kernel";

/// The hand-off mark's time on U-Boot's timer, seconds.
fn handoff_s(records: &[BootstageRecord]) -> Option<f64> {
    records
        .iter()
        .find(|r| r.name == HANDOFF)
        .map(|r| r.mark_us as f64 / 1e6)
}

fn stage(id: StageId, start: Option<f64>, end: Option<f64>, dur: Option<f64>) -> Stage {
    let duration_s = dur.or(match (start, end) {
        (Some(a), Some(b)) => Some(b - a),
        _ => None,
    });
    Stage {
        id,
        start_s: start,
        end_s: end,
        duration_s,
        clock: if start.is_some() {
            Clock::Derived
        } else {
            Clock::Target
        },
        line: None,
        console_bytes: None,
    }
}

/// A quiet cycle's boot: the console's boot (ready line, what little it printed) with the
/// stages, kernel facts, initcalls and bootstage records the target kept.
pub fn quiet_boot(console: &Boot, c: &Collected, a: &Alignment) -> Boot {
    let mut b = console.clone();
    let dmesg = c.dmesg.as_ref();
    let off_p = a.printk_offset_s;
    let off_c = a.counter_offset_s;
    // U-Boot on the counter: its first mark after `reset`, and the hand-off.
    let first = c
        .bootstage
        .iter()
        .find(|r| r.name != "reset" && r.mark_us > 0)
        .map(|r| r.mark_us as f64 / 1e6);
    let handoff = handoff_s(&c.bootstage).or(c.bootstage.last().map(|r| r.mark_us as f64 / 1e6));
    let on_host = |t: Option<f64>, off: Option<f64>| Some(t? + off?);
    let uboot_start = on_host(first, off_c);
    let uboot_end = on_host(handoff, off_c);
    // The kernel log's stage: where the console parser starts and ends the kernel.
    let k = dmesg.and_then(|d| d.stage(StageId::Kernel));
    let k_end = on_host(k.and_then(|s| s.end_s), off_p);
    let k_start = uboot_end.or(on_host(k.and_then(|s| s.start_s), off_p));
    let ready = console.mark("ready").and_then(|m| m.host_s);

    let mut stages = Vec::new();
    if let Some(s) = uboot_start {
        stages.push(stage(StageId::Rom, Some(0.0), Some(s), None));
    }
    if first.is_some() || handoff.is_some() {
        let dur = match (first, handoff) {
            (Some(f), Some(h)) => Some(h - f),
            _ => None,
        };
        stages.push(stage(StageId::Uboot, uboot_start, uboot_end, dur));
    }
    if k_start.is_some() || k_end.is_some() {
        stages.push(stage(StageId::Kernel, k_start, k_end, None));
    }
    if k_end.is_some() || ready.is_some() {
        stages.push(stage(StageId::Userspace, k_end, ready, None));
    }
    // What the console did print, per stage: its bytes stay with the stage of their id.
    for s in &mut stages {
        s.console_bytes = console
            .stage(s.id)
            .and_then(|cs| cs.console_bytes)
            .or(Some(0));
    }
    b.stages = stages;
    let mut warnings = Vec::new();
    if uboot_end.is_none() && k_start.is_some() {
        warnings.push(
            "quiet: no generic timer reading, so the kernel stage starts at the printk clock's \
             zero and its first moments (before that clock runs) are in no stage"
                .into(),
        );
    }
    if let Some(d) = dmesg {
        b.kernel = d.kernel.clone();
        b.initcalls = d.initcalls.clone();
        b.probes = d.probes.clone();
        if let Some(v) = d.components.get("kernel") {
            b.components.insert("kernel".into(), v.clone());
        }
        b.errors.extend(d.errors.iter().cloned());
        b.marks.extend(d.marks.iter().map(|m| {
            let mut m = m.clone();
            m.host_s = on_host(m.target_s, off_p);
            m
        }));
    }
    b.bootstage = c.bootstage.clone();
    b.bootstage_accumulated = c.bootstage_accumulated.clone();
    b.bootstage_reports = if c.bootstage.is_empty() {
        Vec::new()
    } else {
        vec![c.bootstage.clone()]
    };
    if c.systemd.is_some() {
        b.systemd = c.systemd.clone();
    }
    b.printk_offset_s = off_p;
    // The console parser's doubts were about the stages it could not see; these are the
    // stages' now.
    b.warnings = warnings;
    if let Some(d) = dmesg {
        b.warnings
            .extend(d.warnings.iter().map(|w| format!("dmesg: {w}")));
    }
    b.warnings
        .extend(c.notes.iter().map(|n| format!("collect: {n}")));
    b
}

#[cfg(test)]
mod tests {
    use super::*;
    use bootlog_parser::model::Mark;
    use bootlog_parser::BoardProfile;

    fn rec(name: &str, us: u64) -> BootstageRecord {
        BootstageRecord {
            name: name.into(),
            mark_us: us,
            elapsed_us: 0,
        }
    }

    fn close(a: Option<f64>, b: f64) -> bool {
        a.is_some_and(|a| (a - b).abs() < 1e-9)
    }

    #[test]
    fn sync_window_gives_offsets_and_error() {
        let a = Alignment::from_sync(&SyncPoint {
            sent_s: 3.0,
            ended_s: 3.004,
            printk_s: Some(2.2),
            counter_s: Some(2.9),
            counter_printk_s: Some(2.25),
            uptime_s: Some(2.17),
        });
        assert!(close(a.printk_offset_s, 0.802));
        // The counter read 2.9 s when printk read 2.25 s: 0.65 s behind printk's offset.
        assert!(close(a.counter_offset_s, 0.802 - 0.65));
        assert!((a.error_s - 0.002).abs() < 1e-12);
    }

    #[test]
    fn quiet_stages_by_hand() {
        let p = BoardProfile::builtin("qemu-arm64").unwrap();
        let (dmesg, _) = super::super::parse_dmesg(
            &[
                "[    0.000000] Booting Linux on physical CPU 0x0000000000 [0x411fd070]",
                "[    1.320040] Freeing unused kernel memory: 7552K",
                "[    1.334278] Run /init as init process",
            ]
            .map(String::from),
            &p,
        );
        let c = Collected {
            dmesg,
            bootstage: vec![
                rec("reset", 0),
                rec("board_init_f", 1_000),
                rec("start_kernel", 400_000),
            ],
            ..Collected::default()
        };
        let a = Alignment {
            printk_offset_s: Some(0.7),
            counter_offset_s: Some(0.05),
            error_s: 0.001,
            console_printk_offset_s: None,
            console_counter_offset_s: None,
        };
        let console = Boot {
            complete: true,
            marks: vec![Mark {
                kind: "ready".into(),
                line: 3,
                host_s: Some(2.4),
                target_s: None,
            }],
            ..Boot::default()
        };
        let b = quiet_boot(&console, &c, &a);
        let got: Vec<(StageId, Option<f64>, Option<f64>)> = b
            .stages
            .iter()
            .map(|s| (s.id, s.start_s, s.end_s))
            .collect();
        let want = [
            (StageId::Rom, 0.0, 0.051),
            (StageId::Uboot, 0.051, 0.45),
            (StageId::Kernel, 0.45, 0.7 + 1.334278),
            (StageId::Userspace, 0.7 + 1.334278, 2.4),
        ];
        assert_eq!(got.len(), want.len(), "{got:?}");
        for (g, w) in got.iter().zip(want) {
            assert_eq!(g.0, w.0);
            assert!(close(g.1, w.1) && close(g.2, w.2), "{g:?} vs {w:?}");
        }
        assert!(b.stages.iter().all(|s| s.clock == Clock::Derived));
        assert!(close(b.stage(StageId::Uboot).unwrap().duration_s, 0.399));
        assert_eq!(b.kernel.as_ref().unwrap().init_ts_s, Some(1.334278));
        assert!(
            b.warnings.iter().all(|w| w.starts_with("dmesg: ")),
            "{:?}",
            b.warnings
        );

        // No counter: U-Boot a target-clock duration, the kernel from printk's zero.
        let a2 = Alignment {
            counter_offset_s: None,
            ..a
        };
        let b2 = quiet_boot(&console, &c, &a2);
        let u = b2.stage(StageId::Uboot).unwrap();
        assert_eq!((u.clock, u.start_s), (Clock::Target, None));
        assert!(close(u.duration_s, 0.399));
        assert!(b2.stage(StageId::Rom).is_none());
        assert!(close(b2.stage(StageId::Kernel).unwrap().start_s, 0.7));
        assert!(b2.warnings.iter().any(|w| w.contains("no generic timer")));
    }
}
