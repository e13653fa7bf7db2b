//! The boot loop: power-cycle a board N times and capture every boot from power-on to its
//! ready pattern.
//!
//! One cycle: power off → settle → open the cycle's capture → power on (t = 0) → read the
//! console until the board's ready pattern (profile `ready`, a login prompt by default) or the
//! timeout → parse the capture → append the cycle's record to `boots.jsonl`. A failed cycle
//! (timeout, no output, kernel panic, unexpected reset, power or console failure) is recorded
//! with its partial capture and its reason, and the loop goes on. A console that goes away
//! during a capture (a USB serial adapter re-enumerating) fails that cycle with reason
//! `console` (its capture has a gap) and is reopened, waiting up to
//! [`LoopOptions::console_wait`] for it to come back. A stop request (Ctrl-C) ends
//! the current cycle's capture, powers the board off and returns; the cut cycle has no record,
//! so `--resume` redoes it.
//!
//! [`cycle`] runs one cycle, `watch` watches its lines as [`crate::capture`] writes them,
//! [`options`] holds the patterns it judges them by, [`crate::rundir`] is the run directory.

pub mod cycle;
pub mod error;
pub mod options;

mod watch;

pub use cycle::{run_cycle, CycleEnd};
pub use error::BootLoopError;
pub use options::LoopOptions;

use crate::lab::Target;
use crate::rundir::{CycleRecord, FailureReason, RunDir};
use bootlog_parser::BoardProfile;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// How the loop ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoopEnd {
    /// Every asked cycle has a record.
    Done,
    /// Stopped by request during this cycle (no record for it).
    Interrupted(u32),
}

/// Runs cycles `run.next_cycle() ..= cycles`, calling `on_cycle` after each record. Stops
/// early when `stop` is raised. The board is powered off at the end, also when an error stops
/// the loop.
pub fn run_loop(
    target: &mut Target,
    run: &mut RunDir,
    profile: &BoardProfile,
    cycles: u32,
    opts: &LoopOptions,
    stop: Arc<AtomicBool>,
    on_cycle: &mut dyn FnMut(&CycleRecord),
) -> Result<LoopEnd, BootLoopError> {
    let mut power_fail_streak = 0u32;
    let mut end = LoopEnd::Done;
    for cycle in run.next_cycle()..=cycles {
        let ended = match run_cycle(target, run, profile, cycle, opts, &stop) {
            Ok(e) => e,
            Err(e) => {
                // The run cannot go on (a capture or record not written): the board is not
                // left powered.
                let _ = target.power.off();
                return Err(e);
            }
        };
        match ended {
            CycleEnd::Interrupted => {
                end = LoopEnd::Interrupted(cycle);
                break;
            }
            CycleEnd::Recorded(rec) => {
                on_cycle(&rec);
                match &rec.failure {
                    Some(f) if f.reason == FailureReason::Power => {
                        power_fail_streak += 1;
                        if power_fail_streak >= 3 {
                            let _ = target.power.off();
                            return Err(BootLoopError::PowerAbort {
                                count: power_fail_streak,
                                last: f.detail.clone(),
                            });
                        }
                    }
                    _ => power_fail_streak = 0,
                }
            }
        }
        if stop.load(Ordering::Relaxed) {
            if cycle < cycles {
                end = LoopEnd::Interrupted(cycle + 1);
            }
            break;
        }
    }
    target.power.off()?;
    Ok(end)
}
