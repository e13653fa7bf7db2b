//! The run directory of a boot loop: what a user keeps, diffs and re-runs from.
//!
//! ```text
//! <out>/run.json          manifest: board, image file sha256s, host, tool version, start, args
//! <out>/cycle-NNNN.log    raw capture of cycle N (grabserial -t format), written as it arrives
//! <out>/cycle-NNNN.collect.log  the console session after cycle N's ready mark that read back
//!                         the target's records (`--console quiet|both`, `--collect`), same format
//! <out>/boots.jsonl       one perfguide/boot/v1 object per finished cycle (ok or failed)
//! <out>/.lock             held (flock) while a loop runs in the directory
//! <out>/bench.log         raw capture of a `perfguide bench` session (same format)
//! <out>/bench.jsonl       one perfguide/bench/v1 object per metric read from bench.log
//! <out>/bench.json        the bench session: runner version, plan, how each benchmark ended
//! ```
//!
//! A cycle is completed only when its record is in `boots.jsonl`. `--resume` keeps every
//! completed cycle as it is, moves the log of a cycle that was cut short aside
//! (`cycle-NNNN.log.incomplete[.K]`, kept for inspection) and redoes that cycle.

pub mod bench;

use crate::collect::merge::Alignment;
use crate::collect::CollectRecord;
use crate::lab::latency::LatencyTimer;
use bootlog_parser::model::{Boot, BOOT_SCHEMA};
use serde::{Deserialize, Serialize};
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Schema id of `run.json`.
pub const RUN_SCHEMA: &str = "perfguide/run/v1";

/// Writes `path` atomically: a synced temporary file beside it (`.<name>.tmp`) renamed over
/// it, so a reader sees the old file or the new one, never half of one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), RunError> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.tmp"));
    let mut f = File::create(&tmp).map_err(io_err(&tmp))?;
    f.write_all(bytes)
        .and_then(|_| f.sync_all())
        .map_err(io_err(&tmp))?;
    fs::rename(&tmp, path).map_err(io_err(path))?;
    Ok(())
}

/// The raw capture of a bench session.
pub const BENCH_LOG: &str = "bench.log";
/// The metrics of a bench session.
pub const BENCH_JSONL: &str = "bench.jsonl";
/// The manifest of a bench session.
pub const BENCH_MANIFEST: &str = "bench.json";
/// Schema id of `bench.json`.
pub const BENCH_SCHEMA: &str = "perfguide/bench-run/v1";

/// Errors of the run directory.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// File system error on a named file.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// `run.json` or a `boots.jsonl` line is not what perfguide writes.
    #[error("{path}: {message}")]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The directory already holds a run and `--resume` was not given.
    #[error(
        "{0} already holds a boot-loop run; pass --resume to continue it or choose another --out"
    )]
    Exists(PathBuf),
    /// `--resume` on a directory without a run.
    #[error("{0} holds no run to resume (no run.json)")]
    NothingToResume(PathBuf),
    /// `--resume` with a different board than the run's.
    #[error("{path} is a run of board {run_board:?}, not {board:?}")]
    BoardMismatch {
        /// The run directory.
        path: PathBuf,
        /// The run's board.
        run_board: String,
        /// The board asked for.
        board: String,
    },
    /// Another boot loop holds the directory.
    #[error("{0} is in use by another perfguide boot-loop (its .lock is held)")]
    Locked(PathBuf),
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> RunError + '_ {
    move |source| RunError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// One image file the run booted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ImageFile {
    /// What it is (`u_boot`, `disk`, `manifest`, ...).
    pub role: String,
    /// Where it was.
    pub path: PathBuf,
    /// Its size.
    pub bytes: u64,
    /// Hex SHA-256 of its contents.
    pub sha256: String,
}

/// The machine that ran the loop.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HostInfo {
    /// Host name.
    pub hostname: String,
    /// OS `PRETTY_NAME`.
    pub os: String,
    /// Kernel release.
    pub kernel: String,
    /// CPU architecture.
    pub arch: String,
    /// Logical CPUs.
    pub cpus: usize,
}

impl HostInfo {
    /// Reads what this machine says about itself (unknown fields are empty).
    pub fn current() -> Self {
        let read = |p: &str| {
            fs::read_to_string(p)
                .map(|s| s.trim().to_string())
                .unwrap_or_default()
        };
        let os = read("/etc/os-release")
            .lines()
            .find_map(|l| l.strip_prefix("PRETTY_NAME="))
            .map(|s| s.trim_matches('"').to_string())
            .unwrap_or_default();
        HostInfo {
            hostname: read("/proc/sys/kernel/hostname"),
            os,
            kernel: read("/proc/sys/kernel/osrelease"),
            arch: std::env::consts::ARCH.to_string(),
            cpus: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1),
        }
    }
}

/// The tool that wrote the run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolInfo {
    /// `perfguide`.
    pub name: String,
    /// Crate version.
    pub version: String,
}

impl Default for ToolInfo {
    fn default() -> Self {
        ToolInfo {
            name: "perfguide".into(),
            version: env!("CARGO_PKG_VERSION").into(),
        }
    }
}

/// A later invocation that continued the run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Resume {
    /// When (RFC 3339, local time with offset).
    pub at: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// The first cycle it ran.
    pub from_cycle: u32,
    /// The serial console's latency timer for this part, when it has one.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub latency_timer: Option<LatencyTimer>,
}

/// `run.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunManifest {
    /// [`RUN_SCHEMA`].
    pub schema: String,
    /// Board profile name.
    pub board: String,
    /// Where the profile came from (`builtin` or the file's path).
    pub board_source: String,
    /// The profile's TOML text, so the run can be re-parsed without the file.
    pub board_profile: String,
    /// Image files, hashed.
    pub images: Vec<ImageFile>,
    /// The host.
    pub host: HostInfo,
    /// The tool.
    pub tool: ToolInfo,
    /// Start of the run (RFC 3339, local time with offset).
    pub started: String,
    /// The command line (argv after the program name).
    pub args: Vec<String>,
    /// Cycles asked for.
    pub cycles: u32,
    /// Per-cycle timeout, seconds.
    pub timeout_s: f64,
    /// Power driver, for people.
    pub power: String,
    /// Console, for people.
    pub console: String,
    /// The serial console's latency timer (a USB serial adapter's), when it has one.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub latency_timer: Option<LatencyTimer>,
    /// Later invocations with `--resume`.
    #[serde(default)]
    pub resumes: Vec<Resume>,
}

/// Why a cycle failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FailureReason {
    /// The ready pattern was not seen before the timeout (output came).
    Timeout,
    /// Not one byte came before the timeout.
    NoOutput,
    /// `Kernel panic - not syncing`.
    KernelPanic,
    /// The first-stage banner came again mid-cycle, or the emulator exited by itself.
    UnexpectedReset,
    /// A power command failed.
    Power,
    /// The console failed or closed.
    Console,
    /// A quiet cycle's records could not be read back from the target (login, console).
    Collect,
}

impl FailureReason {
    /// The id as written in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            FailureReason::Timeout => "timeout",
            FailureReason::NoOutput => "no-output",
            FailureReason::KernelPanic => "kernel-panic",
            FailureReason::UnexpectedReset => "unexpected-reset",
            FailureReason::Power => "power",
            FailureReason::Console => "console",
            FailureReason::Collect => "collect",
        }
    }
}

/// A failed cycle's reason and the details.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Failure {
    /// Why.
    pub reason: FailureReason,
    /// For people: the line, the error message, the timeout.
    pub detail: String,
}

/// ok | failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CycleStatus {
    /// The ready pattern was seen and nothing went wrong.
    Ok,
    /// See `failure`.
    Failed,
}

/// Where a cycle's t = 0 is, against the power-on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PowerZero {
    /// When the power-on was called.
    #[default]
    Call,
    /// When the power driver reported the switch.
    Switch,
}

impl PowerZero {
    fn is_call(&self) -> bool {
        *self == PowerZero::Call
    }
}

/// Host-side timing of one cycle (seconds; `*_s` after power-on are on the host clock with
/// t = 0 at power-on).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct HostTiming {
    /// Wall clock at power-on (RFC 3339, local, µs).
    pub power_on_at: String,
    /// How long the power-off took.
    pub power_off_s: f64,
    /// How long the board was left off.
    pub settle_s: f64,
    /// How long the power-on took (command or process spawn).
    pub power_on_s: f64,
    /// Where t = 0 is: the power-on call (`call`, left out), or the switch as the power driver
    /// reported it (`switch`: labgrid's step log), later than the call by the client's
    /// start-up.
    #[serde(skip_serializing_if = "PowerZero::is_call", default)]
    pub zero: PowerZero,
    /// First console byte after power-on.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub first_byte_s: Option<f64>,
    /// Stamp of the line that matched the ready pattern.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub ready_s: Option<f64>,
    /// When the capture of this cycle ended.
    pub end_s: f64,
    /// The whole cycle on the host: power-off to record written.
    pub cycle_wall_s: f64,
    /// `cycle_wall_s` minus the boot (`ready_s`, or `end_s` when not ready): the loop's cost.
    pub overhead_s: f64,
    /// Lines captured.
    pub lines: u64,
    /// Console bytes captured.
    pub bytes: u64,
    /// Bytes that arrived before power-on (left over from the previous cycle), not captured.
    #[serde(skip_serializing_if = "is_zero", default)]
    pub discarded_bytes: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// How a cycle's console was set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CycleConsole {
    /// Everything printed; the stages timed from the console.
    Loud,
    /// Kernel `quiet`, U-Boot silent; the stages read back from the target.
    Quiet,
}

impl CycleConsole {
    /// The id as written in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            CycleConsole::Loud => "loud",
            CycleConsole::Quiet => "quiet",
        }
    }
}

/// One line of `boots.jsonl` (`perfguide/boot/v1`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CycleRecord {
    /// [`BOOT_SCHEMA`].
    pub schema: String,
    /// 1-based cycle number.
    pub cycle: u32,
    /// ok | failed.
    pub status: CycleStatus,
    /// Why it failed.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub failure: Option<Failure>,
    /// The capture, relative to the run directory.
    pub log: String,
    /// Host timing.
    pub host: HostTiming,
    /// The cycle's console; absent means loud.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub console: Option<CycleConsole>,
    /// How the target's clocks were placed on the host clock (cycles with a collection).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub alignment: Option<Alignment>,
    /// What was read back from the target.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub collected: Option<CollectRecord>,
    /// More boots found in the same capture (after an unexpected reset).
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub extra_boots: Vec<Boot>,
    /// The boot (the first one of the capture).
    #[serde(flatten)]
    pub boot: Boot,
}

impl CycleRecord {
    /// A record with the schema id filled in.
    pub fn new(cycle: u32, boot: Boot, host: HostTiming, failure: Option<Failure>) -> Self {
        CycleRecord {
            schema: BOOT_SCHEMA.to_string(),
            cycle,
            status: if failure.is_some() {
                CycleStatus::Failed
            } else {
                CycleStatus::Ok
            },
            failure,
            log: cycle_log_name(cycle),
            host,
            console: None,
            alignment: None,
            collected: None,
            extra_boots: Vec::new(),
            boot,
        }
    }
}

impl CycleRecord {
    /// The cycle's console (loud when the record does not say).
    pub fn console_kind(&self) -> CycleConsole {
        self.console.unwrap_or(CycleConsole::Loud)
    }
}

/// `cycle-NNNN.log`.
pub fn cycle_log_name(cycle: u32) -> String {
    format!("cycle-{cycle:04}.log")
}

/// `cycle-NNNN.collect.log`.
pub fn collect_log_name(cycle: u32) -> String {
    format!("cycle-{cycle:04}.collect.log")
}

/// An open run directory (holds its lock).
#[derive(Debug)]
pub struct RunDir {
    path: PathBuf,
    manifest: RunManifest,
    records: Vec<CycleRecord>,
    _lock: File,
    /// Logs of cut-short cycles moved aside by `resume` (new paths).
    pub moved_aside: Vec<PathBuf>,
}

impl RunDir {
    fn lock(path: &Path) -> Result<File, RunError> {
        let p = path.join(".lock");
        let f = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&p)
            .map_err(io_err(&p))?;
        match crate::flock::try_lock_exclusive(&f) {
            Ok(true) => Ok(f),
            Ok(false) => Err(RunError::Locked(path.to_path_buf())),
            Err(e) => Err(RunError::Io { path: p, source: e }),
        }
    }

    /// Starts a new run in `path` (created if missing; refused if it already holds a run).
    pub fn create(path: &Path, manifest: RunManifest) -> Result<Self, RunError> {
        fs::create_dir_all(path).map_err(io_err(path))?;
        let lock = Self::lock(path)?;
        if path.join("run.json").exists() || path.join("boots.jsonl").exists() {
            return Err(RunError::Exists(path.to_path_buf()));
        }
        let d = RunDir {
            path: path.to_path_buf(),
            manifest,
            records: Vec::new(),
            _lock: lock,
            moved_aside: Vec::new(),
        };
        d.write_manifest()?;
        let b = path.join("boots.jsonl");
        File::create(&b).map_err(io_err(&b))?;
        Ok(d)
    }

    /// Opens a run to continue it: keeps every completed cycle, moves cut-short logs aside.
    /// The resume entry's `from_cycle` is set to the first cycle without a record.
    pub fn resume(path: &Path, board: &str, resume: Resume) -> Result<Self, RunError> {
        let mpath = path.join("run.json");
        if !mpath.exists() {
            return Err(RunError::NothingToResume(path.to_path_buf()));
        }
        let lock = Self::lock(path)?;
        let text = fs::read_to_string(&mpath).map_err(io_err(&mpath))?;
        let mut manifest: RunManifest =
            serde_json::from_str(&text).map_err(|e| RunError::Format {
                path: mpath.clone(),
                message: e.to_string(),
            })?;
        if manifest.board != board {
            return Err(RunError::BoardMismatch {
                path: path.to_path_buf(),
                run_board: manifest.board,
                board: board.to_string(),
            });
        }
        let records = load_records(&path.join("boots.jsonl"), true)?;
        let done = records.last().map_or(0, |r| r.cycle);
        // Any capture of a cycle after the last completed one was cut short: keep it aside.
        let mut moved = Vec::new();
        let entries = fs::read_dir(path).map_err(io_err(path))?;
        let mut names: Vec<String> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        for name in names {
            let Some(n) = name
                .strip_prefix("cycle-")
                .and_then(|s| s.strip_suffix(".log"))
                .and_then(|s| s.strip_suffix(".collect").or(Some(s)))
                .and_then(|s| s.parse::<u32>().ok())
            else {
                continue;
            };
            if n <= done {
                continue;
            }
            let from = path.join(&name);
            let mut to = path.join(format!("{name}.incomplete"));
            let mut k = 1;
            while to.exists() {
                to = path.join(format!("{name}.incomplete.{k}"));
                k += 1;
            }
            fs::rename(&from, &to).map_err(io_err(&from))?;
            moved.push(to);
        }
        manifest.resumes.push(Resume {
            from_cycle: done + 1,
            ..resume
        });
        let d = RunDir {
            path: path.to_path_buf(),
            manifest,
            records,
            _lock: lock,
            moved_aside: moved,
        };
        d.write_manifest()?;
        Ok(d)
    }

    /// Writes `run.json` atomically (temp file + rename).
    pub fn write_manifest(&self) -> Result<(), RunError> {
        let mut text =
            serde_json::to_string_pretty(&self.manifest).map_err(|e| RunError::Format {
                path: self.path.join("run.json"),
                message: e.to_string(),
            })?;
        text.push('\n');
        self.write_file("run.json", text.as_bytes())
    }

    /// Writes the file `name` of the directory atomically (a synced temporary file renamed
    /// over it).
    pub fn write_file(&self, name: &str, bytes: &[u8]) -> Result<(), RunError> {
        write_atomic(&self.path.join(name), bytes)
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The manifest.
    pub fn manifest(&self) -> &RunManifest {
        &self.manifest
    }

    /// The manifest, to change (then [`RunDir::write_manifest`]).
    pub fn manifest_mut(&mut self) -> &mut RunManifest {
        &mut self.manifest
    }

    /// Completed cycles, in order.
    pub fn records(&self) -> &[CycleRecord] {
        &self.records
    }

    /// The next cycle to run (1-based).
    pub fn next_cycle(&self) -> u32 {
        self.records.last().map_or(1, |r| r.cycle + 1)
    }

    /// Path of a cycle's capture.
    pub fn cycle_log(&self, cycle: u32) -> PathBuf {
        self.path.join(cycle_log_name(cycle))
    }

    /// Path of a cycle's collection session.
    pub fn collect_log(&self, cycle: u32) -> PathBuf {
        self.path.join(collect_log_name(cycle))
    }

    /// Appends a finished cycle to `boots.jsonl` (one line, fsynced). From here on the cycle
    /// is completed. A line is written whole or not at all: when the write or the sync fails
    /// (a full file system), the file is cut back to its length before the write, so that it
    /// holds only whole records.
    pub fn append(&mut self, rec: CycleRecord) -> Result<(), RunError> {
        let p = self.path.join("boots.jsonl");
        let mut line = serde_json::to_string(&rec).map_err(|e| RunError::Format {
            path: p.clone(),
            message: e.to_string(),
        })?;
        line.push('\n');
        let mut f = OpenOptions::new()
            .append(true)
            .create(true)
            .open(&p)
            .map_err(io_err(&p))?;
        let before = f.metadata().map_err(io_err(&p))?.len();
        if let Err(e) = f.write_all(line.as_bytes()).and_then(|_| f.sync_data()) {
            // Cutting back frees what the torn part took, so it works on a full file system.
            let _ = f.set_len(before).and_then(|_| f.sync_data());
            return Err(io_err(&p)(e));
        }
        self.records.push(rec);
        Ok(())
    }
}

/// Reads `boots.jsonl`. A last line without its newline (the writer was killed mid-write) is
/// not a completed cycle: with `repair`, the file is cut back to the last complete line.
/// Cycle numbers must be 1, 2, 3, ... in order.
pub fn load_records(path: &Path, repair: bool) -> Result<Vec<CycleRecord>, RunError> {
    let f = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io_err(path)(e)),
    };
    let mut r = BufReader::new(f);
    let mut out: Vec<CycleRecord> = Vec::new();
    let mut good_len = 0u64;
    let mut buf = Vec::new();
    let mut line_no = 0;
    loop {
        buf.clear();
        let n = r.read_until(b'\n', &mut buf).map_err(io_err(path))?;
        if n == 0 {
            break;
        }
        line_no += 1;
        if buf.last() != Some(&b'\n') {
            break; // torn final line
        }
        let rec: CycleRecord = serde_json::from_slice(&buf).map_err(|e| RunError::Format {
            path: path.to_path_buf(),
            message: format!("line {line_no}: {e}"),
        })?;
        let want = out.last().map_or(1, |p| p.cycle + 1);
        if rec.cycle != want {
            return Err(RunError::Format {
                path: path.to_path_buf(),
                message: format!(
                    "line {line_no}: cycle {} where {want} was expected",
                    rec.cycle
                ),
            });
        }
        good_len += n as u64;
        out.push(rec);
    }
    let total = fs::metadata(path).map_err(io_err(path))?.len();
    if repair && total > good_len {
        let f = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(io_err(path))?;
        f.set_len(good_len).map_err(io_err(path))?;
        let mut f = f;
        f.seek(SeekFrom::End(0)).map_err(io_err(path))?;
        f.sync_all().map_err(io_err(path))?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest() -> RunManifest {
        RunManifest {
            schema: RUN_SCHEMA.into(),
            board: "b".into(),
            board_source: "builtin".into(),
            board_profile: String::new(),
            images: vec![],
            host: HostInfo::current(),
            tool: ToolInfo::default(),
            started: "2024-01-01T00:00:00+00:00".into(),
            args: vec![],
            cycles: 3,
            timeout_s: 1.0,
            power: "p".into(),
            console: "c".into(),
            latency_timer: None,
            resumes: vec![],
        }
    }

    #[test]
    fn create_append_resume() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("run");
        {
            let mut r = RunDir::create(&p, manifest()).unwrap();
            assert!(matches!(
                RunDir::resume(&p, "b", resume()),
                Err(RunError::Locked(_))
            ));
            r.append(CycleRecord::new(
                1,
                Boot::default(),
                HostTiming::default(),
                None,
            ))
            .unwrap();
            fs::write(r.cycle_log(1), "[0.1 0.1] x\n").unwrap();
            fs::write(r.cycle_log(2), "[0.1 0.1] cut\n").unwrap();
            // A torn record of cycle 2.
            let mut f = OpenOptions::new()
                .append(true)
                .open(p.join("boots.jsonl"))
                .unwrap();
            f.write_all(b"{\"schema\":\"perfguide/boot/v1\",\"cyc")
                .unwrap();
        }
        assert!(matches!(
            RunDir::create(&p, manifest()),
            Err(RunError::Exists(_))
        ));
        assert!(matches!(
            RunDir::resume(&p, "other", resume()),
            Err(RunError::BoardMismatch { .. })
        ));
        let r = RunDir::resume(&p, "b", resume()).unwrap();
        assert_eq!(r.next_cycle(), 2);
        assert_eq!(r.moved_aside, vec![p.join("cycle-0002.log.incomplete")]);
        assert!(r.cycle_log(1).exists());
        assert!(!r.cycle_log(2).exists());
        let text = fs::read_to_string(p.join("boots.jsonl")).unwrap();
        assert_eq!(text.lines().count(), 1);
        assert!(text.ends_with('\n'));
        assert_eq!(r.manifest().resumes.len(), 1);
    }

    fn resume() -> Resume {
        Resume {
            at: "now".into(),
            args: vec![],
            from_cycle: 0,
            latency_timer: None,
        }
    }

    #[test]
    fn record_flattens_the_boot() {
        let b = Boot {
            complete: true,
            ..Boot::default()
        };
        let r = CycleRecord::new(
            7,
            b,
            HostTiming::default(),
            Some(Failure {
                reason: FailureReason::NoOutput,
                detail: "x".into(),
            }),
        );
        let v: serde_json::Value = serde_json::to_value(&r).unwrap();
        assert_eq!(v["schema"], "perfguide/boot/v1");
        assert_eq!(v["cycle"], 7);
        assert_eq!(v["complete"], true);
        assert_eq!(v["status"], "failed");
        assert_eq!(v["failure"]["reason"], "no-output");
        assert_eq!(v["log"], "cycle-0007.log");
        let back: CycleRecord = serde_json::from_value(v).unwrap();
        assert_eq!(back, r);
    }
}
