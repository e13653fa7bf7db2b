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

use crate::capture::{escape, CaptureError, CaptureWriter, Line, LineSplitter};
use crate::console::{Console, ConsoleConfig, ConsoleError, ConsoleEvent, StreamConsole};
use crate::power::{CommandPower, PowerConfig, PowerDriver, PowerError, QemuConfig, QemuPower};
use crate::run::{CycleRecord, Failure, FailureReason, HostTiming, RunDir, RunError};
use bootlog_parser::model::{Boot, StageId};
use bootlog_parser::stats::{Collector, Summary};
use bootlog_parser::BoardProfile;
use regex::Regex;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Default ready pattern: a login prompt.
pub const DEFAULT_READY: &str = r"(?i)\blogin:\s*$";
/// The kernel's panic line.
pub const PANIC_PATTERN: &str = r"Kernel panic - not syncing";

/// Errors that stop the loop (a failed cycle is not one: it is recorded and the loop goes on).
#[derive(Debug, thiserror::Error)]
pub enum BootLoopError {
    /// Power control failed.
    #[error(transparent)]
    Power(#[from] PowerError),
    /// The console could not be opened.
    #[error(transparent)]
    Console(#[from] ConsoleError),
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

/// A board under control: its power driver and its console.
pub struct Target {
    /// Power.
    pub power: Box<dyn PowerDriver>,
    /// Console.
    pub console: Box<dyn Console>,
}

impl Target {
    /// Builds the drivers named by the profile's `[power]`, `[console]` and `[qemu]` tables.
    /// `files` gives the values of `{name}` placeholders in `[qemu] args` (`u_boot`, `disk`).
    pub fn from_profile(
        profile: &BoardProfile,
        files: &BTreeMap<String, PathBuf>,
    ) -> Result<Target, BootLoopError> {
        let board = profile.name.as_str();
        let power_cfg = PowerConfig::from_profile(board, profile.power.as_ref())?;
        let console_cfg = ConsoleConfig::from_profile(board, profile.console.as_ref())?;
        let mut qemu_console = None;
        let power: Box<dyn PowerDriver> = match power_cfg {
            PowerConfig::Qemu { settle_s } => {
                let q = QemuConfig::from_profile(board, profile.qemu.as_ref())?;
                let mut p = QemuPower::new(q.argv(board, files)?, settle_s);
                qemu_console = p.console();
                Box::new(p)
            }
            PowerConfig::Command {
                on,
                off,
                cycle,
                settle_s,
                timeout_s,
            } => Box::new(CommandPower::new(on, off, cycle, settle_s, timeout_s)),
            PowerConfig::Labgrid { place, settle_s } => {
                let lg = |what: &str| -> Vec<String> {
                    ["labgrid-client", "-p", place.as_str(), "power", what]
                        .iter()
                        .map(|s| s.to_string())
                        .collect()
                };
                Box::new(CommandPower::new(
                    lg("on"),
                    lg("off"),
                    vec![],
                    settle_s,
                    60.0,
                ))
            }
        };
        let console: Box<dyn Console> = match console_cfg {
            ConsoleConfig::Qemu {} => match qemu_console {
                Some(c) => Box::new(c),
                None => {
                    return Err(ConsoleError::Config {
                        board: board.to_string(),
                        message: "kind = \"qemu\" needs [power] driver = \"qemu\"".into(),
                    }
                    .into())
                }
            },
            ConsoleConfig::Serial { device, baud } => {
                Box::new(StreamConsole::serial(&device, baud)?)
            }
            ConsoleConfig::Tcp { address } => Box::new(StreamConsole::tcp(&address)?),
            ConsoleConfig::Command { argv } => Box::new(StreamConsole::command(&argv)?),
        };
        Ok(Target { power, console })
    }
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
    /// Options for a profile: its ready pattern (or a login prompt) and the banners of its
    /// stages (built-in ones and the profile's markers).
    pub fn for_profile(profile: &BoardProfile, timeout: Duration) -> Result<Self, BootLoopError> {
        let re = |p: &str| {
            Regex::new(p).map_err(|source| BootLoopError::Pattern {
                board: profile.name.clone(),
                pattern: p.to_string(),
                source,
            })
        };
        let ready = re(profile.ready.as_deref().unwrap_or(DEFAULT_READY))?;
        let mut banners = Vec::new();
        for (pat, stages) in builtin_banners() {
            let allowed = stages.iter().filter(|s| profile.has_stage(**s)).count();
            if allowed > 0 {
                banners.push((re(pat)?, allowed));
            }
        }
        if let Some(first) = profile.stages.iter().find(|s| **s != StageId::Power) {
            for m in profile.markers.iter().filter(|m| m.stage == *first) {
                banners.push((re(&m.pattern)?, 1));
            }
        }
        Ok(LoopOptions {
            timeout,
            panic_grace: Duration::from_secs(2),
            ready,
            panic: re(PANIC_PATTERN)?,
            banners,
            echo: false,
        })
    }
}

/// Lines that open a boot stage and appear once per stage in a normal boot.
fn builtin_banners() -> Vec<(&'static str, Vec<StageId>)> {
    vec![
        (r"^RPi: BOOTLOADER release", vec![StageId::Rom]),
        (r"^SBL Revision:", vec![StageId::Sbl]),
        (
            r"^U-Boot SPL \d{4}\.\d{2}",
            vec![StageId::R5Spl, StageId::ASpl],
        ),
        (r"^U-Boot \d{4}\.\d{2}", vec![StageId::Uboot]),
        (
            r"Booting Linux on physical CPU 0x0*0\b",
            vec![StageId::Kernel],
        ),
    ]
}

/// Console text for pattern matching: lossy UTF-8, ANSI escape sequences and control bytes
/// (except TAB) removed, leading blanks trimmed.
pub fn match_text(bytes: &[u8]) -> String {
    let s = String::from_utf8_lossy(bytes);
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c == '\u{1b}' {
            if it.peek() == Some(&'[') {
                it.next();
                while let Some(&d) = it.peek() {
                    it.next();
                    if ('@'..='~').contains(&d) {
                        break;
                    }
                }
            } else {
                it.next();
            }
        } else if c == '\u{8}' {
            out.pop();
        } else if c == '\t' || !c.is_control() {
            out.push(c);
        }
    }
    out.trim_start().to_string()
}

/// Parses one cycle's capture into boots (power-on origin: the raw capture
/// is grabserial `-t` format, which the parser reads as a host clock).
pub fn parse_capture(bytes: &[u8], profile: &BoardProfile) -> Vec<Boot> {
    bootlog_parser::parse_power_on_capture(bytes, profile)
}

/// How one cycle ended.
#[derive(Debug)]
pub enum CycleEnd {
    /// Recorded (ok or failed).
    Recorded(Box<CycleRecord>),
    /// Stopped by request; no record (the cycle will be redone on resume).
    Interrupted,
}

/// Live state of the capture of one cycle.
struct Capture {
    splitter: LineSplitter,
    writer: CaptureWriter,
    t0: Instant,
    first_byte: Option<Instant>,
    ready_us: Option<u64>,
    panic_at: Option<(Instant, String)>,
    reset: Option<String>,
    banner_counts: Vec<usize>,
    discarded: u64,
    last_text: String,
}

impl Capture {
    fn on_line(&mut self, line: &Line, opts: &LoopOptions) -> Result<(), CaptureError> {
        self.writer.write_line(line)?;
        if opts.echo {
            eprintln!("{:>11.6} {}", us_s(line.t_us), line.text());
        }
        let t = match_text(&line.bytes);
        if !t.trim().is_empty() {
            self.last_text = t.trim().to_string();
        }
        if self.ready_us.is_none() && opts.ready.is_match(&t) {
            self.ready_us = Some(line.t_us);
        }
        if self.panic_at.is_none() && opts.panic.is_match(&t) {
            self.panic_at = Some((Instant::now(), t.trim().to_string()));
        }
        for (i, (re, allowed)) in opts.banners.iter().enumerate() {
            if re.is_match(&t) {
                self.banner_counts[i] += 1;
                if self.banner_counts[i] > *allowed && self.reset.is_none() {
                    self.reset = Some(format!(
                        "banner seen again at {:.6} s: {}",
                        line.t_us as f64 / 1e6,
                        t.trim()
                    ));
                }
            }
        }
        Ok(())
    }
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

fn us_s(us: u64) -> f64 {
    us as f64 / 1e6
}

/// Sleeps `d` unless `stop` is raised; returns false when stopped.
fn sleep_unless(d: Duration, stop: &AtomicBool) -> bool {
    let end = Instant::now() + d;
    loop {
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        let now = Instant::now();
        if now >= end {
            return true;
        }
        std::thread::sleep((end - now).min(Duration::from_millis(20)));
    }
}

/// Runs one cycle and, unless interrupted, appends its record.
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

    let mut failure: Option<Failure> = None;
    if let Err(e) = target.console.ensure_open() {
        failure = Some(Failure {
            reason: FailureReason::Console,
            detail: e.to_string(),
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
    host.power_off_s = secs(t_off.elapsed());
    let settle = target.power.settle();
    host.settle_s = secs(settle);
    if !sleep_unless(settle, stop) {
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
    let t0 = Instant::now();
    host.power_on_at = chrono::Local::now()
        .format("%Y-%m-%dT%H:%M:%S%.6f%:z")
        .to_string();
    let mut cap = Capture {
        splitter: LineSplitter::new(t0),
        writer,
        t0,
        first_byte: None,
        ready_us: None,
        panic_at: None,
        reset: None,
        banner_counts: vec![0; opts.banners.len()],
        discarded,
        last_text: String::new(),
    };
    if failure.is_none() {
        if let Err(e) = target.power.on() {
            failure = Some(Failure {
                reason: FailureReason::Power,
                detail: e.to_string(),
            });
        }
    }
    host.power_on_s = secs(t0.elapsed());

    let deadline = t0 + opts.timeout;
    let mut interrupted = false;
    let mut ready_partial = false;
    while failure.is_none() {
        if stop.load(Ordering::Relaxed) {
            interrupted = true;
            break;
        }
        let now = Instant::now();
        if let Some((at, line)) = &cap.panic_at {
            if now >= *at + opts.panic_grace || now >= deadline {
                failure = Some(Failure {
                    reason: FailureReason::KernelPanic,
                    detail: line.clone(),
                });
                break;
            }
        }
        if now >= deadline {
            failure = Some(if cap.first_byte.is_none() {
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
                        last_line_hint(&cap)
                    ),
                }
            });
            break;
        }
        let wait = (deadline - now).min(Duration::from_millis(50));
        match target.console.recv(wait) {
            Ok(None) => {}
            Ok(Some(ConsoleEvent::Data { at, bytes })) => {
                if at < t0 {
                    cap.discarded += bytes.len() as u64;
                    continue;
                }
                cap.first_byte.get_or_insert(at);
                for line in cap.splitter.push(at, &bytes) {
                    cap.on_line(&line, opts)?;
                }
                if cap.ready_us.is_none() && !cap.splitter.partial().is_empty() {
                    let t = match_text(cap.splitter.partial());
                    if opts.ready.is_match(&t) {
                        cap.ready_us = cap.splitter.partial_t_us();
                        ready_partial = true;
                    }
                }
                if let Some(r) = &cap.reset {
                    failure = Some(Failure {
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
                if at < t0 {
                    continue;
                }
                let qemu = reason.starts_with("qemu exited");
                failure = Some(if qemu && cap.first_byte.is_some() {
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
                    Failure {
                        reason: FailureReason::Console,
                        detail: reason,
                    }
                });
                break;
            }
            Err(e) => {
                failure = Some(Failure {
                    reason: FailureReason::Console,
                    detail: e.to_string(),
                });
                break;
            }
        }
    }
    // Take what is already queued (bytes of the same burst as the ready line), then end.
    while let Ok(Some(ConsoleEvent::Data { at, bytes })) = target.console.recv(Duration::ZERO) {
        if at >= t0 {
            cap.first_byte.get_or_insert(at);
            for line in cap.splitter.push(at, &bytes) {
                cap.on_line(&line, opts)?;
            }
        }
    }
    let end = Instant::now();
    if let Some(line) = cap.splitter.finish() {
        cap.on_line(&line, opts)?;
    }
    let _ = ready_partial;
    cap.writer.sync()?;
    if interrupted {
        target.power.off()?;
        return Ok(CycleEnd::Interrupted);
    }

    host.first_byte_s = cap
        .first_byte
        .map(|f| secs(f.saturating_duration_since(cap.t0)));
    host.ready_s = cap.ready_us.map(us_s);
    host.end_s = secs(end.saturating_duration_since(cap.t0));
    host.lines = cap.writer.lines();
    host.bytes = cap.writer.bytes();
    host.discarded_bytes = cap.discarded;

    let bytes = std::fs::read(&log_path).map_err(|source| CaptureError::Io {
        path: log_path.clone(),
        source,
    })?;
    let mut boots = parse_capture(&bytes, profile).into_iter();
    let boot = boots.next().unwrap_or_default();
    let extra: Vec<Boot> = boots.collect();
    if failure.is_none() && !extra.is_empty() {
        failure = Some(Failure {
            reason: FailureReason::UnexpectedReset,
            detail: format!("the capture holds {} boots", extra.len() + 1),
        });
    }
    host.cycle_wall_s = secs(wall0.elapsed());
    host.overhead_s = host.cycle_wall_s - host.ready_s.unwrap_or(host.end_s);
    let mut rec = CycleRecord::new(cycle, boot, host, failure);
    rec.extra_boots = extra;
    run.append(rec.clone())?;
    Ok(CycleEnd::Recorded(Box::new(rec)))
}

fn last_line_hint(cap: &Capture) -> String {
    let p = cap.splitter.partial();
    if !p.is_empty() {
        return escape(p);
    }
    if cap.last_text.is_empty() {
        return format!("({} empty lines captured)", cap.writer.lines());
    }
    cap.last_text.clone()
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

/// One row of the stage table.
#[derive(Debug, Clone, PartialEq)]
pub struct StageRow {
    /// Stage id, or `total (power-on to ready, host)`.
    pub name: String,
    /// Durations in seconds over the ok cycles that had the stage.
    pub summary: Summary,
}

/// Per-stage statistics over the ok cycles (bootlog-parser's stats), in boot order, then the
/// host time from power-on to the ready line.
pub fn stage_table(records: &[CycleRecord]) -> Vec<StageRow> {
    let ok: Vec<&CycleRecord> = records.iter().filter(|r| r.failure.is_none()).collect();
    let mut c = Collector::new();
    ok.iter().for_each(|r| c.add(&r.boot));
    let stats = c.stats();
    let mut rows: Vec<StageRow> = stats
        .stages
        .into_iter()
        .map(|(id, summary)| StageRow {
            name: id.as_str().to_string(),
            summary,
        })
        .collect();
    let total: Vec<f64> = ok.iter().filter_map(|r| r.host.ready_s).collect();
    if let Some(summary) = Summary::of(&total) {
        rows.push(StageRow {
            name: "total (power-on to ready)".into(),
            summary,
        });
    }
    rows
}

/// The stage table as text: `stage  n  mean (min X, max Y)` in seconds, then the cycle counts
/// and failure reasons.
pub fn format_stage_table(records: &[CycleRecord]) -> String {
    let rows = stage_table(records);
    let failed = records.iter().filter(|r| r.failure.is_some()).count();
    let width = rows.iter().map(|r| r.name.len()).max().unwrap_or(5).max(5);
    let mut s = format!(
        "{:<width$}  {:>3}  seconds: mean (min, max)\n",
        "stage", "n"
    );
    for r in &rows {
        s.push_str(&format!(
            "{:<width$}  {:>3}  {}\n",
            r.name,
            r.summary.n,
            r.summary.ti(3)
        ));
    }
    if rows.is_empty() {
        s.push_str("(no completed boot to summarise)\n");
    }
    s.push_str(&format!(
        "cycles: {} recorded, {} ok, {} failed",
        records.len(),
        records.len() - failed,
        failed
    ));
    let mut reasons: BTreeMap<&str, usize> = BTreeMap::new();
    for r in records.iter().filter_map(|r| r.failure.as_ref()) {
        *reasons.entry(r.reason.as_str()).or_default() += 1;
    }
    if !reasons.is_empty() {
        let list: Vec<String> = reasons.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        s.push_str(&format!(" ({})", list.join(", ")));
    }
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn match_text_strips_escapes() {
        assert_eq!(
            match_text(b"\x1b[0;32m  OK  \x1b[0m] Started"),
            "OK  ] Started"
        );
        assert_eq!(match_text(b"  boot: 2\x08 1"), "boot:  1");
        assert_eq!(match_text(b"\xffqemu login: "), "\u{fffd}qemu login: ");
    }

    #[test]
    fn banners_follow_the_profile() {
        let q = BoardProfile::builtin("qemu-arm64").unwrap();
        let o = LoopOptions::for_profile(&q, Duration::from_secs(1)).unwrap();
        // U-Boot proper and the kernel, once each.
        assert!(o
            .banners
            .iter()
            .any(|(r, n)| r.is_match("U-Boot 2024.01+dfsg-1 (Jan 1 2024)") && *n == 1));
        assert!(!o
            .banners
            .iter()
            .any(|(r, _)| r.is_match("U-Boot SPL 2024.01")));
        let k3 = BoardProfile::builtin("j721e-evm").unwrap();
        let o = LoopOptions::for_profile(&k3, Duration::from_secs(1)).unwrap();
        // R5 SPL and A72 SPL print the same banner.
        assert!(o
            .banners
            .iter()
            .any(|(r, n)| r.is_match("U-Boot SPL 2023.04-g1 (Jan 1)") && *n == 2));
        assert!(o.ready.is_match("j721e-evm login: "));
    }
}
