//! The boot-loop strategy (labgrid's "strategy"): power-cycle a board N times and capture every
//! boot from power-on to its ready pattern.
//!
//! One cycle: power off → settle → open the cycle's capture → power on (t = 0) → read the
//! console until the board's ready pattern (profile `ready`, a login prompt by default) or the
//! timeout → parse the capture → append the cycle's record to `boots.jsonl`. A failed cycle
//! (timeout, no output, kernel panic, unexpected reset, power or console failure) is recorded
//! with its partial capture and its reason, and the loop goes on. A stop request (Ctrl-C) ends
//! the current cycle's capture, powers the board off and returns; the cut cycle has no record,
//! so `--resume` redoes it.

pub mod capture;
pub mod cycle;
pub mod run;
mod watch;

pub use cycle::{run_cycle, CycleEnd};

use crate::lab::{ConsoleError, PowerError, Target, TargetError};
use bootlog_parser::console;
use bootlog_parser::BoardProfile;
use capture::CaptureError;
use regex::Regex;
use run::{CycleRecord, FailureReason, RunDir, RunError};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Errors that stop the loop (a failed cycle is not one: it is recorded and the loop goes on).
#[derive(Debug, thiserror::Error)]
pub enum BootLoopError {
    /// Power control failed.
    #[error(transparent)]
    Power(#[from] PowerError),
    /// The console could not be opened.
    #[error(transparent)]
    Console(#[from] ConsoleError),
    /// The board's drivers could not be built from its profile.
    #[error(transparent)]
    Target(#[from] TargetError),
    /// The capture file could not be written.
    #[error(transparent)]
    Capture(#[from] CaptureError),
    /// The run directory could not be written.
    #[error(transparent)]
    Run(#[from] RunError),
    /// A pattern of the profile does not compile.
    #[error("board {board}: bad pattern {pattern:?}: {source}")]
    Pattern {
        /// Board.
        board: String,
        /// The pattern.
        pattern: String,
        /// Why.
        source: regex::Error,
    },
    /// Power failed in several cycles in a row: nothing can be measured.
    #[error("power failed in {count} cycles in a row; last error: {last}")]
    PowerAbort {
        /// How many.
        count: u32,
        /// The last error.
        last: String,
    },
}

/// How cycles are run and judged.
#[derive(Debug, Clone)]
pub struct LoopOptions {
    /// Per cycle, from power-on.
    pub timeout: Duration,
    /// After a kernel panic line, how long to keep capturing the trace.
    pub panic_grace: Duration,
    /// The board is ready.
    pub ready: Regex,
    /// Kernel panic.
    pub panic: Regex,
    /// `(banner, allowed occurrences)`: seeing a banner more often than allowed in one cycle is
    /// an unexpected reset.
    pub banners: Vec<(Regex, usize)>,
    /// Print every captured line on stderr too.
    pub echo: bool,
}

impl LoopOptions {
    /// Options for a profile: its ready pattern and its banners
    /// ([`bootlog_parser::console`]).
    pub fn for_profile(profile: &BoardProfile, timeout: Duration) -> Result<Self, BootLoopError> {
        let re = |p: &str| {
            Regex::new(p).map_err(|source| BootLoopError::Pattern {
                board: profile.name.clone(),
                pattern: p.to_string(),
                source,
            })
        };
        let ready = re(console::ready_pattern(profile))?;
        let banners = console::banners(profile)
            .into_iter()
            .map(|b| Ok((re(&b.pattern)?, b.allowed)))
            .collect::<Result<_, BootLoopError>>()?;
        Ok(LoopOptions {
            timeout,
            panic_grace: Duration::from_secs(2),
            ready,
            panic: re(console::PANIC_PATTERN)?,
            banners,
            echo: false,
        })
    }
}

/// How the loop ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoopEnd {
    /// Every asked cycle has a record.
    Done,
    /// Stopped by request during this cycle (no record for it).
    Interrupted(u32),
}

/// Runs cycles `run.next_cycle() ..= cycles`, calling `on_cycle` after each record. Stops
/// early when `stop` is raised. The board is powered off at the end.
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
        match run_cycle(target, run, profile, cycle, opts, &stop)? {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_follow_the_profile() {
        let k3 = BoardProfile::builtin("j721e-evm").unwrap();
        let o = LoopOptions::for_profile(&k3, Duration::from_secs(1)).unwrap();
        // R5 SPL and A72 SPL print the same banner.
        assert!(o
            .banners
            .iter()
            .any(|(r, n)| r.is_match("U-Boot SPL 2023.04-g1 (Jan 1)") && *n == 2));
        assert!(o.ready.is_match("j721e-evm login: "));
        assert!(o.panic.is_match("Kernel panic - not syncing: VFS"));
    }
}
