//! One cycle: power off, settle, open the capture, power on (t = 0), watch the console until
//! the ready pattern, a failure or the timeout, then (quiet cycles, `--collect`) log in and
//! read the target's records back ([`crate::collect`]), parse the capture, merge, and record
//! the cycle.

use super::error::BootLoopError;
use super::options::LoopOptions;
use super::watch::Watch;
use crate::capture::{CaptureError, CaptureWriter};
use crate::collect::merge::{self, Alignment};
use crate::collect::{collect, CollectRecord, Collected, SYNC_MARK};
use crate::lab::console::reopen_within;
use crate::lab::{ConsoleEvent, Target};
use crate::process::sleep_until;
use crate::rundir::{
    collect_log_name, CycleConsole, CycleRecord, Failure, FailureReason, HostTiming, PowerZero,
    RunDir,
};
use crate::shell::{Shell, ShellError};
use bootlog_parser::model::Boot;
use bootlog_parser::BoardProfile;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How one cycle ended.
#[derive(Debug)]
pub enum CycleEnd {
    /// Recorded (ok or failed).
    Recorded(Box<CycleRecord>),
    /// Stopped by request; no record (the cycle will be redone on resume).
    Interrupted,
}

/// Runs one cycle and, unless interrupted, appends its record: the states it walks are
/// off (the console reopened, power off), settle, on (t = 0), watch, then the record (parse,
/// read back, append).
pub fn run_cycle(
    target: &mut Target,
    run: &mut RunDir,
    profile: &BoardProfile,
    cycle: u32,
    opts: &LoopOptions,
    stop: &AtomicBool,
) -> Result<CycleEnd, BootLoopError> {
    let wall0 = Instant::now();
    let mut host = HostTiming::default();
    let log_path = run.cycle_log(cycle);
    let console = opts.console_of(cycle);
    target.power.select_quiet(console == CycleConsole::Quiet);

    let mut failure = power_off(target, opts, stop, &mut host);
    let settle = target.power.settle();
    host.settle_s = settle.as_secs_f64();
    if !sleep_until(Instant::now() + settle, stop, Duration::from_millis(20)) {
        return Ok(CycleEnd::Interrupted);
    }
    // Whatever is still queued came before power-on: not part of this boot.
    let mut discarded = 0u64;
    while let Ok(Some(ev)) = target.console.recv(Duration::ZERO) {
        if let ConsoleEvent::Data { bytes, .. } = ev {
            discarded += bytes.len() as u64;
        }
    }
    let writer = CaptureWriter::create(&log_path)?;
    let (t_call, t0) = power_on(target, &mut host, &mut failure);
    let mut cap = Watch::new(t0, writer, opts, discarded);
    let watched = watch(target, &mut cap, t_call, opts, stop, failure)?;
    failure = watched.failure;
    // Take what is already queued (bytes of the same burst as the ready line), then end.
    while let Ok(Some(ConsoleEvent::Data { at, bytes })) = target.console.recv(Duration::ZERO) {
        if at >= t_call {
            cap.push(at, &bytes, opts)?;
        }
    }
    let end = Instant::now();
    cap.finish(opts)?;
    if let (true, Some(f)) = (watched.lost, failure.as_mut()) {
        // Its capture has a gap from there on, so its figures are not a boot's: the cycle stays
        // failed, and the console is waited for so that the next cycle has one.
        f.detail.push_str("; the capture has a gap from there");
        match reopen_within(target.console.as_mut(), opts.console_wait, stop) {
            Ok(waited) => f
                .detail
                .push_str(&format!("; reopened after {:.1} s", waited.as_secs_f64())),
            Err(e) => f.detail.push_str(&format!(
                "; not back after {:.1} s: {e}",
                opts.console_wait.as_secs_f64()
            )),
        }
    }
    if watched.interrupted {
        target.power.off()?;
        return Ok(CycleEnd::Interrupted);
    }

    host.first_byte_s = cap
        .first_byte
        .map(|f| f.saturating_duration_since(cap.t0).as_secs_f64());
    host.ready_s = cap.ready_us.map(|us| us as f64 / 1e6);
    host.end_s = end.saturating_duration_since(cap.t0).as_secs_f64();
    host.lines = cap.writer.lines();
    host.bytes = cap.writer.bytes();
    host.discarded_bytes = cap.discarded;

    let bytes = std::fs::read(&log_path).map_err(|source| CaptureError::Io {
        path: log_path.clone(),
        source,
    })?;
    let mut boots = bootlog_parser::parse_power_on_capture(&bytes, profile).into_iter();
    let boot = boots.next().unwrap_or_default();
    let extra: Vec<Boot> = boots.collect();
    if failure.is_none() && !extra.is_empty() {
        failure = Some(Failure {
            reason: FailureReason::UnexpectedReset,
            detail: format!("the capture holds {} boots", extra.len() + 1),
        });
    }
    // The target's records, read back after the ready mark (not part of the boot).
    let mut boot = boot;
    let (alignment, collected) = if failure.is_none() && opts.collects(cycle) {
        let read = read_back(target, run, cycle, cap.t0, opts, profile);
        take_read_back(
            read,
            console,
            &mut boot,
            &mut failure,
            collect_log_name(cycle),
        )
    } else {
        (None, None)
    };
    host.cycle_wall_s = wall0.elapsed().as_secs_f64();
    host.overhead_s = host.cycle_wall_s - host.ready_s.unwrap_or(host.end_s);
    let mut rec = CycleRecord::new(cycle, boot, host, failure);
    rec.extra_boots = extra;
    rec.console = Some(console);
    rec.alignment = alignment;
    rec.collected = collected;
    run.append(rec.clone())?;
    Ok(CycleEnd::Recorded(Box::new(rec)))
}

/// Off: the console (re)opened within the profile's wait, then the power switched off. The
/// cycle's failure when either could not be done.
fn power_off(
    target: &mut Target,
    opts: &LoopOptions,
    stop: &AtomicBool,
    host: &mut HostTiming,
) -> Option<Failure> {
    let mut failure: Option<Failure> = None;
    if let Err(e) = reopen_within(target.console.as_mut(), opts.console_wait, stop) {
        failure = Some(Failure {
            reason: FailureReason::Console,
            detail: format!(
                "console {} not there (waited {:.1} s): {e}",
                target.console.describe(),
                opts.console_wait.as_secs_f64()
            ),
        });
    }
    let t_off = Instant::now();
    if failure.is_none() {
        if let Err(e) = target.power.off() {
            failure = Some(Failure {
                reason: FailureReason::Power,
                detail: e.to_string(),
            });
        }
    }
    host.power_off_s = t_off.elapsed().as_secs_f64();
    failure
}

/// On: the power switched on (unless the cycle already failed). Bytes from the power-on call
/// on are this boot's; t = 0 is the call, or the switch when the driver says when it switched
/// (bytes before that are kept, stamped 0). Returns the call's instant and t = 0.
fn power_on(
    target: &mut Target,
    host: &mut HostTiming,
    failure: &mut Option<Failure>,
) -> (Instant, Instant) {
    let t_call = Instant::now();
    let mut wall_on = chrono::Local::now();
    if failure.is_none() {
        if let Err(e) = target.power.on() {
            *failure = Some(Failure {
                reason: FailureReason::Power,
                detail: e.to_string(),
            });
        }
    }
    host.power_on_s = t_call.elapsed().as_secs_f64();
    let t0 = match target.power.switched_at().filter(|t| *t >= t_call) {
        Some(t) => {
            host.zero = PowerZero::Switch;
            // The wall clock of the switch, from the call's and the time between.
            wall_on += chrono::Duration::from_std(t - t_call).unwrap_or_default();
            t
        }
        None => t_call,
    };
    host.power_on_at = wall_on.format("%Y-%m-%dT%H:%M:%S%.6f%:z").to_string();
    (t_call, t0)
}

/// How the watch of a boot ended.
struct Watched {
    /// The cycle's failure, if it failed.
    failure: Option<Failure>,
    /// Stopped by request.
    interrupted: bool,
    /// The console went away during the capture (not by power): it is reopened after.
    lost: bool,
}

/// Watch: the console read into the capture until the ready pattern, a panic (after its
/// grace), a reset, the console's loss or the timeout.
fn watch(
    target: &mut Target,
    cap: &mut Watch,
    t_call: Instant,
    opts: &LoopOptions,
    stop: &AtomicBool,
    failure: Option<Failure>,
) -> Result<Watched, BootLoopError> {
    let t0 = cap.t0;
    let deadline = t0 + opts.timeout;
    let mut w = Watched {
        failure,
        interrupted: false,
        lost: false,
    };
    while w.failure.is_none() {
        if stop.load(Ordering::Relaxed) {
            w.interrupted = true;
            break;
        }
        let now = Instant::now();
        if let Some((at, line)) = &cap.panic_at {
            if now >= *at + opts.panic_grace || now >= deadline {
                w.failure = Some(Failure {
                    reason: FailureReason::KernelPanic,
                    detail: line.clone(),
                });
                break;
            }
        }
        if now >= deadline {
            w.failure = Some(timed_out(cap, opts));
            break;
        }
        let wait = (deadline - now).min(Duration::from_millis(50));
        match target.console.recv(wait) {
            Ok(None) => {}
            Ok(Some(ConsoleEvent::Data { at, bytes })) => {
                if at < t_call {
                    cap.discarded += bytes.len() as u64;
                    continue;
                }
                cap.push(at, &bytes, opts)?;
                cap.partial_ready(opts);
                if let Some(r) = &cap.reset {
                    w.failure = Some(Failure {
                        reason: FailureReason::UnexpectedReset,
                        detail: r.clone(),
                    });
                    break;
                }
                if cap.ready_us.is_some() && cap.panic_at.is_none() {
                    break;
                }
            }
            Ok(Some(ConsoleEvent::Closed { at, reason })) => {
                if at < t_call {
                    continue;
                }
                let qemu = reason.starts_with("qemu exited");
                w.failure = Some(if qemu && cap.first_byte.is_some() {
                    Failure {
                        reason: FailureReason::UnexpectedReset,
                        detail: format!("{reason} (with -no-reboot a guest reset ends QEMU)"),
                    }
                } else if qemu {
                    Failure {
                        reason: FailureReason::Power,
                        detail: format!("{reason} before any console output"),
                    }
                } else {
                    w.lost = true;
                    Failure {
                        reason: FailureReason::Console,
                        detail: format!(
                            "console lost {:.3} s after power-on: {reason}",
                            at.saturating_duration_since(t0).as_secs_f64()
                        ),
                    }
                });
                break;
            }
            Err(e) => {
                w.lost = true;
                w.failure = Some(Failure {
                    reason: FailureReason::Console,
                    detail: format!(
                        "console lost {:.3} s after power-on: {e}",
                        t0.elapsed().as_secs_f64()
                    ),
                });
                break;
            }
        }
    }
    Ok(w)
}

/// The failure of a boot the timeout ended: no output at all, or no ready pattern.
fn timed_out(cap: &Watch, opts: &LoopOptions) -> Failure {
    if cap.first_byte.is_none() {
        Failure {
            reason: FailureReason::NoOutput,
            detail: format!(
                "no console byte in {:.1} s after power-on",
                opts.timeout.as_secs_f64()
            ),
        }
    } else {
        Failure {
            reason: FailureReason::Timeout,
            detail: format!(
                "ready pattern {:?} not seen in {:.1} s; last line: {}",
                opts.ready.as_str(),
                opts.timeout.as_secs_f64(),
                cap.last_line_hint()
            ),
        }
    }
}

/// Puts a read-back into the cycle: a quiet cycle's boot is rebuilt from it (and fails without
/// the sync that places its kernel on the host clock, or without the read-back), a loud
/// cycle's alignment is checked against its console (a failed read-back is a warning).
fn take_read_back(
    read: Result<Collected, ShellError>,
    console: CycleConsole,
    boot: &mut Boot,
    failure: &mut Option<Failure>,
    log: String,
) -> (Option<Alignment>, Option<CollectRecord>) {
    let c = match read {
        Ok(c) => c,
        Err(e) => {
            let detail = format!("reading the target's records back: {e}");
            match console {
                CycleConsole::Quiet => {
                    *failure = Some(Failure {
                        reason: FailureReason::Collect,
                        detail,
                    })
                }
                CycleConsole::Loud => boot.warnings.push(format!("collect: {detail}")),
            }
            return (None, None);
        }
    };
    let mut a = c.sync.as_ref().map(Alignment::from_sync);
    match (console, a.as_mut()) {
        (CycleConsole::Loud, Some(a)) => a.check_against(boot),
        (CycleConsole::Loud, None) => {}
        (CycleConsole::Quiet, Some(al)) if al.printk_offset_s.is_some() => {
            *boot = merge::quiet_boot(boot, &c, al);
        }
        (CycleConsole::Quiet, _) => {
            let notes = if c.notes.is_empty() {
                String::new()
            } else {
                format!(" ({})", c.notes.join("; "))
            };
            *failure = Some(Failure {
                reason: FailureReason::Collect,
                detail: format!(
                    "no {SYNC_MARK} line in the collected kernel log, so the quiet boot's \
                     kernel cannot be placed on the host clock{notes}"
                ),
            });
        }
    }
    (a, Some(c.record(log)))
}

/// Logs in on the booted board and collects its records, the session captured to the cycle's
/// `cycle-NNNN.collect.log` on the cycle's host clock.
fn read_back(
    target: &mut Target,
    run: &RunDir,
    cycle: u32,
    t0: Instant,
    opts: &LoopOptions,
    profile: &BoardProfile,
) -> Result<Collected, ShellError> {
    let writer = CaptureWriter::create(&run.collect_log(cycle))?;
    let mut shell = Shell::new(
        target.console.as_mut(),
        t0,
        writer,
        opts.login.clone(),
        opts.echo,
    )?;
    let c = collect(&mut shell, profile)?;
    shell.finish()?;
    Ok(c)
}
