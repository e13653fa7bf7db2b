//! Power drivers (labgrid's "power protocol"): switching a board off and on.
//!
//! From the board profile's `[power]` table:
//! - `driver = "qemu"`: a power-on is a fresh QEMU process built from `[qemu] binary` and
//!   `args` with `{u_boot}`, `{disk}` (and any other `{name}` the caller supplies) replaced by
//!   the built image's files; a power-off kills it and reaps it. Its serial console is the
//!   process's stdout, delivered through [`QemuPower::console`].
//! - `driver = "command"`: argv lists `on`, `off` and/or `cycle` (no shell unless the argv says
//!   `sh -c`), `settle_s` (the time the board stays off, default 1 s) and `timeout_s` (per
//!   command, default 30 s). With only `cycle`, a power-off does nothing and a power-on runs
//!   `cycle` (so t = 0 is when the cycle command starts).
//! - `driver = "labgrid"`, `place = "..."`: `labgrid-client -p PLACE power off|on`.

use crate::console::{own_process_group, quote_argv, spawn_reader, ConsoleEvent, QemuConsole};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Errors of a power driver.
#[derive(Debug, thiserror::Error)]
pub enum PowerError {
    /// The `[power]` or `[qemu]` table is missing or malformed.
    #[error("board {board}: {message}")]
    Config {
        /// Board name.
        board: String,
        /// What is wrong.
        message: String,
    },
    /// A QEMU argument names a `{placeholder}` nobody supplied.
    #[error("board {board}: [qemu] args: no value for {{{name}}} in {arg:?} (known: {known})")]
    Placeholder {
        /// Board name.
        board: String,
        /// The argument.
        arg: String,
        /// The placeholder name.
        name: String,
        /// Names that are known.
        known: String,
    },
    /// A program could not be started.
    #[error("power command `{command}` could not start: {source}")]
    Spawn {
        /// argv, quoted.
        command: String,
        /// Why.
        source: std::io::Error,
    },
    /// A power command exited unsuccessfully.
    #[error("power command `{command}` failed with {status}{}", stderr_suffix(.stderr_tail))]
    Failed {
        /// argv, quoted.
        command: String,
        /// `exit status: 3`, `signal: 9 (SIGKILL)`, ...
        status: String,
        /// The last lines of its stderr (and stdout when stderr is empty).
        stderr_tail: String,
    },
    /// A power command did not finish in time (it was killed).
    #[error("power command `{command}` did not finish in {timeout_s} s (killed)")]
    Timeout {
        /// argv, quoted.
        command: String,
        /// The limit.
        timeout_s: f64,
    },
}

fn stderr_suffix(tail: &str) -> String {
    if tail.is_empty() {
        String::new()
    } else {
        format!("; its output ends with:\n{tail}")
    }
}

/// Switching a board off and on.
pub trait PowerDriver: Send {
    /// One line for people.
    fn describe(&self) -> String;
    /// Switches the board off (idempotent: off when already off is fine).
    fn off(&mut self) -> Result<(), PowerError>;
    /// Switches the board on.
    fn on(&mut self) -> Result<(), PowerError>;
    /// How long the board stays off between `off` and `on`.
    fn settle(&self) -> Duration;
}

/// The `[power]` table.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "driver", rename_all = "lowercase")]
pub enum PowerConfig {
    /// A QEMU process per power cycle.
    Qemu {
        /// Off time.
        #[serde(default)]
        settle_s: f64,
    },
    /// argv lists.
    Command {
        /// Switches on.
        #[serde(default)]
        on: Vec<String>,
        /// Switches off.
        #[serde(default)]
        off: Vec<String>,
        /// Switches off and on again (used when `on` is empty).
        #[serde(default)]
        cycle: Vec<String>,
        /// Off time.
        #[serde(default = "default_settle")]
        settle_s: f64,
        /// Limit per command.
        #[serde(default = "default_cmd_timeout")]
        timeout_s: f64,
    },
    /// A labgrid place.
    Labgrid {
        /// The place name.
        place: String,
        /// Off time.
        #[serde(default = "default_settle")]
        settle_s: f64,
    },
}

fn default_settle() -> f64 {
    1.0
}

fn default_cmd_timeout() -> f64 {
    30.0
}

impl PowerConfig {
    /// Reads the `[power]` table of a profile.
    pub fn from_profile(board: &str, v: Option<&toml::Value>) -> Result<Self, PowerError> {
        let err = |message: String| PowerError::Config {
            board: board.to_string(),
            message,
        };
        let v = v.ok_or_else(|| {
            err(
                "[power] is missing; give `driver = \"command\"` with `on`/`off` argv lists, \
                 or `driver = \"qemu\"`"
                    .into(),
            )
        })?;
        let c: PowerConfig = v
            .clone()
            .try_into()
            .map_err(|e: toml::de::Error| err(format!("[power]: {}", e.message())))?;
        match &c {
            PowerConfig::Command { on, off, cycle, .. } => {
                if on.is_empty() && cycle.is_empty() {
                    return Err(err(
                        "[power] driver = \"command\" has no `on` (nor `cycle`) command: write \
                         your relay or PDU commands as argv lists in a board file, e.g. \
                         on = [\"usbrelay\", \"RELAY_1=1\"], off = [\"usbrelay\", \"RELAY_1=0\"], \
                         and pass it with --board-file"
                            .into(),
                    ));
                }
                if !on.is_empty() && off.is_empty() && cycle.is_empty() {
                    return Err(err(
                        "[power] has `on` but no `off`: the board could never be switched off"
                            .into(),
                    ));
                }
            }
            PowerConfig::Labgrid { place, .. } if place.is_empty() => {
                return Err(err("[power] driver = \"labgrid\" needs `place`".into()))
            }
            _ => {}
        }
        Ok(c)
    }
}

fn secs(s: f64) -> Duration {
    Duration::try_from_secs_f64(s.max(0.0)).unwrap_or(Duration::ZERO)
}

/// Power through argv commands (relays, PDUs, labgrid-client, ...).
#[derive(Debug)]
pub struct CommandPower {
    on: Vec<String>,
    off: Vec<String>,
    cycle: Vec<String>,
    settle: Duration,
    timeout: Duration,
}

impl CommandPower {
    /// From argv lists; see [`PowerConfig::Command`].
    pub fn new(
        on: Vec<String>,
        off: Vec<String>,
        cycle: Vec<String>,
        settle_s: f64,
        timeout_s: f64,
    ) -> Self {
        Self {
            on,
            off,
            cycle,
            settle: secs(settle_s),
            timeout: secs(timeout_s),
        }
    }

    /// Runs one argv to completion (or the timeout), returning a clear error on failure.
    pub fn run(argv: &[String], timeout: Duration) -> Result<(), PowerError> {
        let command = quote_argv(argv);
        let Some((prog, args)) = argv.split_first() else {
            return Ok(());
        };
        let h = duct::cmd(prog, args)
            .stdin_null()
            .stdout_capture()
            .stderr_capture()
            .unchecked()
            .before_spawn(|c| {
                own_process_group(c);
                Ok(())
            })
            .start()
            .map_err(|source| PowerError::Spawn {
                command: command.clone(),
                source,
            })?;
        let deadline = Instant::now() + timeout;
        let out = loop {
            match h.try_wait() {
                Ok(Some(out)) => break out.clone(),
                Ok(None) if Instant::now() >= deadline => {
                    let _ = h.kill();
                    return Err(PowerError::Timeout {
                        command,
                        timeout_s: timeout.as_secs_f64(),
                    });
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(2)),
                Err(source) => return Err(PowerError::Spawn { command, source }),
            }
        };
        if out.status.success() {
            return Ok(());
        }
        let pick = if out.stderr.iter().any(|b| !b.is_ascii_whitespace()) {
            &out.stderr
        } else {
            &out.stdout
        };
        Err(PowerError::Failed {
            command,
            status: out.status.to_string(),
            stderr_tail: tail_lines(pick, 5),
        })
    }
}

/// The last `n` non-empty lines of some output, lossily decoded.
pub fn tail_lines(bytes: &[u8], n: usize) -> String {
    let s = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = s.lines().filter(|l| !l.trim().is_empty()).collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

impl PowerDriver for CommandPower {
    fn describe(&self) -> String {
        if self.on.is_empty() {
            format!("command cycle `{}`", quote_argv(&self.cycle))
        } else {
            format!(
                "command on `{}` / off `{}`",
                quote_argv(&self.on),
                quote_argv(&self.off)
            )
        }
    }
    fn off(&mut self) -> Result<(), PowerError> {
        if self.on.is_empty() {
            return Ok(());
        }
        Self::run(&self.off, self.timeout)
    }
    fn on(&mut self) -> Result<(), PowerError> {
        if self.on.is_empty() {
            Self::run(&self.cycle, self.timeout)
        } else {
            Self::run(&self.on, self.timeout)
        }
    }
    fn settle(&self) -> Duration {
        if self.on.is_empty() {
            Duration::ZERO
        } else {
            self.settle
        }
    }
}

/// The `[qemu]` table.
#[derive(Debug, Clone, Deserialize)]
pub struct QemuConfig {
    /// The emulator (`qemu-system-aarch64`).
    pub binary: String,
    /// Its arguments, with `{name}` placeholders.
    #[serde(default)]
    pub args: Vec<String>,
}

impl QemuConfig {
    /// Reads `[qemu]`.
    pub fn from_profile(board: &str, v: Option<&toml::Value>) -> Result<Self, PowerError> {
        let err = |message: String| PowerError::Config {
            board: board.to_string(),
            message,
        };
        let v = v.ok_or_else(|| err("driver = \"qemu\" needs a [qemu] table".into()))?;
        v.clone()
            .try_into()
            .map_err(|e: toml::de::Error| err(format!("[qemu]: {}", e.message())))
    }

    /// The argv with `{name}` replaced from `files`; an unknown placeholder is an error.
    pub fn argv(
        &self,
        board: &str,
        files: &BTreeMap<String, PathBuf>,
    ) -> Result<Vec<String>, PowerError> {
        let mut out = vec![self.binary.clone()];
        for arg in &self.args {
            let mut s = String::new();
            let mut rest = arg.as_str();
            while let Some(open) = rest.find('{') {
                let Some(close) = rest[open..].find('}') else {
                    break;
                };
                let name = &rest[open + 1..open + close];
                let v = files.get(name).ok_or_else(|| PowerError::Placeholder {
                    board: board.to_string(),
                    arg: arg.clone(),
                    name: name.to_string(),
                    known: files.keys().cloned().collect::<Vec<_>>().join(", "),
                })?;
                s.push_str(&rest[..open]);
                s.push_str(&v.to_string_lossy());
                rest = &rest[open + close + 1..];
            }
            s.push_str(rest);
            out.push(s);
        }
        Ok(out)
    }
}

struct Running {
    handle: Arc<duct::ReaderHandle>,
    reader: JoinHandle<()>,
    stop: Arc<AtomicBool>,
}

/// A QEMU process per power-on. Its console is [`QemuPower::console`].
pub struct QemuPower {
    argv: Vec<String>,
    settle: Duration,
    tx: Sender<ConsoleEvent>,
    console: Option<QemuConsole>,
    stdin: Arc<Mutex<Option<os_pipe::PipeWriter>>>,
    stderr_tail: Arc<Mutex<Vec<u8>>>,
    running: Option<Running>,
}

impl QemuPower {
    /// A driver that starts `argv` (already substituted) at every power-on.
    pub fn new(argv: Vec<String>, settle_s: f64) -> Self {
        let (tx, rx) = mpsc::channel();
        let stdin = Arc::new(Mutex::new(None));
        QemuPower {
            argv,
            settle: secs(settle_s),
            tx,
            console: Some(QemuConsole {
                rx,
                stdin: stdin.clone(),
            }),
            stdin,
            stderr_tail: Arc::new(Mutex::new(Vec::new())),
            running: None,
        }
    }

    /// The console of every QEMU this driver starts (call once; `None` the second time).
    pub fn console(&mut self) -> Option<QemuConsole> {
        self.console.take()
    }

    /// The command line, quoted.
    pub fn command_line(&self) -> String {
        quote_argv(&self.argv)
    }
}

impl PowerDriver for QemuPower {
    fn describe(&self) -> String {
        format!("qemu `{}`", self.command_line())
    }

    fn off(&mut self) -> Result<(), PowerError> {
        *self.stdin.lock().unwrap_or_else(|p| p.into_inner()) = None;
        if let Some(r) = self.running.take() {
            r.stop.store(true, Ordering::Relaxed);
            // kill() sends SIGKILL and waits for the process (no zombie is left).
            let _ = r.handle.kill();
            let _ = r.reader.join();
        }
        Ok(())
    }

    fn on(&mut self) -> Result<(), PowerError> {
        self.off()?;
        let command = self.command_line();
        let spawn_err = |source| PowerError::Spawn {
            command: command.clone(),
            source,
        };
        let (stdin_r, stdin_w) = os_pipe::pipe().map_err(spawn_err)?;
        let (err_r, err_w) = os_pipe::pipe().map_err(spawn_err)?;
        let Some((prog, args)) = self.argv.split_first() else {
            return Err(spawn_err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "empty QEMU command line",
            )));
        };
        let handle = duct::cmd(prog, args)
            .stdin_file(stdin_r)
            .stderr_file(err_w)
            .unchecked()
            .before_spawn(|c| {
                own_process_group(c);
                Ok(())
            })
            .reader()
            .map_err(spawn_err)?;
        let handle = Arc::new(handle);
        *self.stdin.lock().unwrap_or_else(|p| p.into_inner()) = Some(stdin_w);
        // Keep the end of QEMU's stderr for error messages.
        let tail = self.stderr_tail.clone();
        tail.lock().unwrap_or_else(|p| p.into_inner()).clear();
        std::thread::Builder::new()
            .name("qemu stderr".into())
            .spawn(move || {
                let mut r = err_r;
                let mut buf = [0u8; 1024];
                while let Ok(n) = r.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    let mut t = tail.lock().unwrap_or_else(|p| p.into_inner());
                    t.extend_from_slice(&buf[..n]);
                    let excess = t.len().saturating_sub(4096);
                    t.drain(..excess);
                }
            })
            .map_err(spawn_err)?;
        let stop = Arc::new(AtomicBool::new(false));
        let h2 = handle.clone();
        let tail = self.stderr_tail.clone();
        let reader = spawn_reader(
            ArcReader(handle.clone()),
            self.tx.clone(),
            stop.clone(),
            Arc::new(AtomicBool::new(true)),
            "qemu".into(),
            Box::new(move || {
                let status = h2
                    .try_wait()
                    .ok()
                    .flatten()
                    .map(|o| o.status.to_string())
                    .unwrap_or_else(|| "closed its stdout".into());
                // Give the stderr thread a moment to collect the last words.
                std::thread::sleep(Duration::from_millis(20));
                let t = tail.lock().unwrap_or_else(|p| p.into_inner());
                let t = tail_lines(&t, 3);
                if t.is_empty() {
                    format!("qemu exited ({status})")
                } else {
                    format!("qemu exited ({status}): {t}")
                }
            }),
        )
        .map_err(spawn_err)?;
        self.running = Some(Running {
            handle,
            reader,
            stop,
        });
        Ok(())
    }

    fn settle(&self) -> Duration {
        self.settle
    }
}

impl Drop for QemuPower {
    fn drop(&mut self) {
        let _ = self.off();
    }
}

struct ArcReader(Arc<duct::ReaderHandle>);

impl Read for ArcReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        (&*self.0).read(buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(s: &str) -> Result<PowerConfig, PowerError> {
        let v: toml::Value = toml::from_str(s).unwrap();
        PowerConfig::from_profile("b", v.get("power"))
    }

    #[test]
    fn empty_command_lists_are_explained() {
        let e = cfg("[power]\ndriver = \"command\"\non = []\noff = []\nsettle_s = 2.0\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("--board-file") && e.contains("usbrelay"), "{e}");
    }

    #[test]
    fn failing_command_names_command_status_and_stderr() {
        let e = CommandPower::run(
            &[
                "sh".into(),
                "-c".into(),
                "echo starting; echo relay 3 stuck >&2; exit 3".into(),
            ],
            Duration::from_secs(10),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("sh -c"), "{e}");
        assert!(e.contains("exit status: 3"), "{e}");
        assert!(e.contains("relay 3 stuck"), "{e}");
        let tail = e.split("ends with:").nth(1).unwrap_or_default();
        assert!(
            !tail.contains("starting"),
            "stdout is not the tail when stderr has text: {e}"
        );
    }

    #[test]
    fn missing_program_and_timeout() {
        let e =
            CommandPower::run(&["/nonexistent/relay".into()], Duration::from_secs(5)).unwrap_err();
        assert!(matches!(e, PowerError::Spawn { .. }), "{e}");
        let t = Instant::now();
        let e = CommandPower::run(&["sleep".into(), "10".into()], Duration::from_millis(200))
            .unwrap_err();
        assert!(matches!(e, PowerError::Timeout { .. }), "{e}");
        assert!(t.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn qemu_placeholders() {
        let q = QemuConfig {
            binary: "qemu".into(),
            args: vec!["-bios".into(), "{u_boot}".into(), "file={disk},x".into()],
        };
        let mut f = BTreeMap::new();
        f.insert("u_boot".to_string(), PathBuf::from("/c/u-boot.bin"));
        let e = q.argv("b", &f).unwrap_err().to_string();
        assert!(e.contains("{disk}") && e.contains("u_boot"), "{e}");
        f.insert("disk".to_string(), PathBuf::from("/c/disk.img"));
        assert_eq!(
            q.argv("b", &f).unwrap(),
            vec!["qemu", "-bios", "/c/u-boot.bin", "file=/c/disk.img,x"]
        );
    }

    #[test]
    fn qemu_power_cycle_is_a_fresh_process_and_off_reaps_it() {
        // `sh` stands in for QEMU: it prints its pid and waits.
        let mut p = QemuPower::new(
            vec![
                "sh".into(),
                "-c".into(),
                "echo pid=$$; exec sleep 30".into(),
            ],
            0.0,
        );
        let mut con = p.console().unwrap();
        let mut pids = Vec::new();
        for _ in 0..2 {
            p.on().unwrap();
            let mut got = Vec::new();
            while !got.ends_with(b"\n") {
                match crate::console::Console::recv(&mut con, Duration::from_secs(5)).unwrap() {
                    Some(ConsoleEvent::Data { bytes, .. }) => got.extend(bytes),
                    other => panic!("unexpected {other:?}"),
                }
            }
            let pid: u32 = String::from_utf8(got).unwrap()[4..].trim().parse().unwrap();
            p.off().unwrap();
            // Reaped: no /proc entry (a zombie would still have one).
            assert!(!std::path::Path::new(&format!("/proc/{pid}")).exists());
            pids.push(pid);
        }
        assert_ne!(pids[0], pids[1]);
    }
}
