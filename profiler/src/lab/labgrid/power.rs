//! A labgrid place's power: `labgrid-client -v -p PLACE power on|off`.
//!
//! The client spends most of its time before the switch (Python's start-up, the coordinator's
//! answer: about 0.9 s here) and some after it (closing down: 80 ms here, more on a loaded
//! host). With `-v` labgrid's step logger prints the power driver's step as it ends
//! (`← NetworkPowerDriver.on() [0.005s]`); the moment that line arrives is when the board was
//! switched on ([`PowerDriver::switched_at`]), and t = 0 of the boot. Without that line t = 0
//! stays at the call.

use super::Place;
use crate::lab::power::{PowerDriver, PowerError};
use crate::lab::process::{own_process_group, quote_argv};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Power through labgrid.
#[derive(Debug)]
pub struct LabgridPower {
    place: Place,
    settle: Duration,
    switched: Option<Instant>,
}

impl LabgridPower {
    /// The place's power, left off for `settle` between cycles.
    pub fn new(place: Place, settle: Duration) -> Self {
        Self {
            place,
            settle,
            switched: None,
        }
    }
}

/// Whether a step-logger line is the end of a power driver's `action` step.
pub fn is_step_end(line: &str, action: &str) -> bool {
    let Some((_, rest)) = line.split_once("← ") else {
        return false;
    };
    let call = rest.split(" [").next().unwrap_or(rest).trim_end();
    call.ends_with(&format!(".{action}()")) && call.contains("Driver.")
}

/// Runs `argv` to its end (or `timeout`), returning the arrival instant of each stderr line.
fn run_stamped(argv: &[String], timeout: Duration) -> Result<Vec<(Instant, String)>, PowerError> {
    let command = quote_argv(argv);
    let Some((prog, args)) = argv.split_first() else {
        return Ok(Vec::new());
    };
    let mut cmd = Command::new(prog);
    cmd.args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    own_process_group(&mut cmd);
    let mut child = cmd.spawn().map_err(|source| PowerError::Spawn {
        command: command.clone(),
        source,
    })?;
    let stderr = child.stderr.take();
    let lines = std::thread::spawn(move || {
        let mut out = Vec::new();
        if let Some(e) = stderr {
            for l in BufReader::new(e).lines() {
                let Ok(l) = l else { break };
                out.push((Instant::now(), l));
            }
        }
        out
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
    let lines = lines.join().unwrap_or_default();
    if status.success() {
        return Ok(lines);
    }
    let text: Vec<&str> = lines
        .iter()
        .map(|(_, l)| l.as_str())
        .filter(|l| !l.contains("StepLogger"))
        .collect();
    Err(PowerError::Failed {
        command,
        status: status.to_string(),
        stderr_tail: text[text.len().saturating_sub(5)..].join("\n"),
    })
}

impl LabgridPower {
    fn switch(&mut self, action: &str) -> Result<(), PowerError> {
        let lines = run_stamped(
            &self.place.argv_verbose(&["power", action]),
            self.place.timeout,
        )?;
        self.switched = lines
            .iter()
            .rev()
            .find(|(_, l)| is_step_end(l, action))
            .map(|(at, _)| *at);
        Ok(())
    }
}

impl PowerDriver for LabgridPower {
    fn describe(&self) -> String {
        format!(
            "labgrid place {} (coordinator {})",
            self.place.name,
            self.place
                .coordinator
                .as_deref()
                .unwrap_or("of labgrid-client")
        )
    }
    fn off(&mut self) -> Result<(), PowerError> {
        self.switch("off")
    }
    fn on(&mut self) -> Result<(), PowerError> {
        self.switch("on")
    }
    fn settle(&self) -> Duration {
        self.settle
    }
    fn switched_at(&self) -> Option<Instant> {
        self.switched
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_end_lines() {
        // labgrid 25.0.1, `labgrid-client -v -p P power on`, as printed here.
        let end = "INFO         StepLogger:  ← NetworkPowerDriver.on() [0.005s]";
        let start = "INFO         StepLogger:  → NetworkPowerDriver.on()";
        assert!(is_step_end(end, "on"));
        assert!(!is_step_end(end, "off"));
        assert!(!is_step_end(start, "on"));
        assert!(is_step_end(
            "INFO StepLogger:  ← PDUDaemonDriver.off() [1.250s]",
            "off"
        ));
        assert!(!is_step_end("← RemotePlace.on() [0.1s]", "on"));
    }

    #[test]
    fn failure_names_command_and_message() {
        let e = run_stamped(
            &[
                "sh".into(),
                "-c".into(),
                "echo 'labgrid-client: error: place x is not acquired' >&2; exit 1".into(),
            ],
            Duration::from_secs(10),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("sh -c") && e.contains("not acquired"), "{e}");
    }
}
