//! Power drivers: switching a board off and on.
//!
//! From the board profile's `[power]` table ([`crate::profile::PowerConfig`]):
//! - `driver = "qemu"`: a power-on is a fresh QEMU process (`qemu.rs`);
//! - `driver = "command"`: argv lists `on`, `off` and/or `cycle` (no shell unless the argv says
//!   `sh -c`), `settle_s` (the time the board stays off, default 1 s) and `timeout_s` (per
//!   command, default 30 s). With only `cycle`, a power-off does nothing and a power-on runs
//!   `cycle` (so t = 0 is when the cycle command starts).
//! - `driver = "labgrid"`, `place = "..."`: the place's power through labgrid
//!   ([`super::labgrid`]).

use crate::process::{own_process_group, quote_argv, tail_lines};
use std::time::{Duration, Instant};

/// Errors of a power driver.
#[derive(Debug, thiserror::Error)]
pub enum PowerError {
    /// A program could not be started.
    #[error("power command `{command}` could not start: {source}")]
    Spawn {
        /// argv, quoted.
        command: String,
        /// Why.
        source: std::io::Error,
    },
    /// A power command exited unsuccessfully.
    #[error("`{command}` failed with {status}{}", stderr_suffix(.stderr_tail))]
    Failed {
        /// argv, quoted.
        command: String,
        /// `exit status: 3`, `signal: 9 (SIGKILL)`, ...
        status: String,
        /// The last lines of its stderr (and stdout when stderr is empty).
        stderr_tail: String,
    },
    /// A power command did not finish in time (it was killed).
    #[error("`{command}` did not finish in {timeout_s} s (killed)")]
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
    /// Whether the next power-on can boot loud or quiet at will ([`PowerDriver::select_quiet`]).
    /// Without it the console is as the image on the board was built.
    fn switches_quiet(&self) -> bool {
        false
    }
    /// Makes the next power-on boot quiet (`true`) or loud. A driver that cannot
    /// ([`PowerDriver::switches_quiet`] is false) ignores it.
    fn select_quiet(&mut self, _quiet: bool) {}
    /// When the last [`PowerDriver::on`] switched the board on, if the driver knows it
    /// (labgrid's step log): t = 0 of the boot. `None`: t = 0 is the call.
    fn switched_at(&self) -> Option<Instant> {
        None
    }
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
    /// From argv lists; see [`crate::profile::PowerConfig::Command`].
    pub fn new(
        on: Vec<String>,
        off: Vec<String>,
        cycle: Vec<String>,
        settle: Duration,
        timeout: Duration,
    ) -> Self {
        Self {
            on,
            off,
            cycle,
            settle,
            timeout,
        }
    }

    /// Runs one argv to completion (or the timeout), returning a clear error on failure.
    pub fn run(argv: &[String], timeout: Duration) -> Result<(), PowerError> {
        Self::output(argv, timeout).map(drop)
    }

    /// [`CommandPower::run`], returning what the command printed on stdout.
    pub fn output(argv: &[String], timeout: Duration) -> Result<String, PowerError> {
        if argv.is_empty() {
            return Ok(String::new());
        }
        let f = run_to_end(argv, timeout)?;
        if f.status.success() {
            return Ok(String::from_utf8_lossy(&f.stdout).into_owned());
        }
        let stderr: Vec<u8> = f
            .stderr
            .iter()
            .flat_map(|(_, l)| l.bytes().chain(std::iter::once(b'\n')))
            .collect();
        let pick = if stderr.iter().any(|b| !b.is_ascii_whitespace()) {
            &stderr
        } else {
            &f.stdout
        };
        Err(PowerError::Failed {
            command: quote_argv(argv),
            status: f.status.to_string(),
            stderr_tail: tail_lines(pick, 5),
        })
    }
}

/// A command run to its end.
#[derive(Debug)]
pub struct Finished {
    /// How it ended.
    pub status: std::process::ExitStatus,
    /// What it printed on stdout.
    pub stdout: Vec<u8>,
    /// Its stderr lines (not UTF-8: lossily), each with the instant it arrived.
    pub stderr: Vec<(Instant, String)>,
}

/// Runs a non-empty `argv` in its own process group, stdin empty, to its end; killed after
/// `timeout`. Its stderr is read line by line as it comes, each line stamped.
pub fn run_to_end(argv: &[String], timeout: Duration) -> Result<Finished, PowerError> {
    use std::io::{BufRead, BufReader, Read};
    use std::process::{Command, Stdio};
    let command = quote_argv(argv);
    let mut cmd = Command::new(&argv[0]);
    cmd.args(&argv[1..])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    own_process_group(&mut cmd);
    let mut child = cmd.spawn().map_err(|source| PowerError::Spawn {
        command: command.clone(),
        source,
    })?;
    let stderr = child.stderr.take().map(|e| {
        std::thread::spawn(move || {
            let mut r = BufReader::new(e);
            let (mut lines, mut buf) = (Vec::new(), Vec::new());
            while matches!(r.read_until(b'\n', &mut buf), Ok(n) if n > 0) {
                let at = Instant::now();
                let l = String::from_utf8_lossy(&buf);
                lines.push((at, l.trim_end_matches(['\n', '\r']).to_string()));
                buf.clear();
            }
            lines
        })
    });
    let stdout = child.stdout.take().map(|mut o| {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = o.read_to_end(&mut v);
            v
        })
    });
    let deadline = Instant::now() + timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(st)) => break st,
            Ok(None) if Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(PowerError::Timeout {
                    command,
                    timeout_s: timeout.as_secs_f64(),
                });
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(source) => return Err(PowerError::Spawn { command, source }),
        }
    };
    Ok(Finished {
        status,
        stdout: stdout.and_then(|t| t.join().ok()).unwrap_or_default(),
        stderr: stderr.and_then(|t| t.join().ok()).unwrap_or_default(),
    })
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
