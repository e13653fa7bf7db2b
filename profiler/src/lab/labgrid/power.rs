//! A labgrid place's power: `labgrid-client -v -p PLACE power on|off`.
//!
//! The client spends most of its time before the switch (Python's start-up, the coordinator's
//! answer: about 0.9 s here) and some after it (closing down: 80 ms here, more on a loaded
//! host). With `-v` labgrid's step logger prints the power driver's step as it ends
//! (`← NetworkPowerDriver.on() [0.005s]`); the moment that line arrives is when the board was
//! switched on ([`PowerDriver::switched_at`]), and t = 0 of the boot. Without that line t = 0
//! stays at the call.

use super::Place;
use crate::lab::power::{run_to_end, Finished, PowerDriver, PowerError};
use crate::process::quote_argv;
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

/// A failed labgrid-client: its status and the last lines of its stderr, the step log left out.
fn failed(argv: &[String], f: &Finished) -> PowerError {
    let text: Vec<&str> = f
        .stderr
        .iter()
        .map(|(_, l)| l.as_str())
        .filter(|l| !l.contains("StepLogger") && !l.trim().is_empty())
        .collect();
    PowerError::Failed {
        command: quote_argv(argv),
        status: f.status.to_string(),
        stderr_tail: text[text.len().saturating_sub(5)..].join("\n"),
    }
}

impl LabgridPower {
    fn switch(&mut self, action: &str) -> Result<(), PowerError> {
        let argv = self.place.argv_verbose(&["power", action]);
        let f = run_to_end(&argv, self.place.timeout)?;
        if !f.status.success() {
            return Err(failed(&argv, &f));
        }
        self.switched = f
            .stderr
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
        let argv: Vec<String> = [
            "sh",
            "-c",
            "echo 'INFO StepLogger:  → NetworkPowerDriver.on()' >&2; \
             echo 'labgrid-client: error: place x is not acquired' >&2; exit 1",
        ]
        .map(String::from)
        .to_vec();
        let f = run_to_end(&argv, Duration::from_secs(10)).unwrap();
        assert!(!f.status.success());
        let e = failed(&argv, &f).to_string();
        assert!(e.contains("sh -c") && e.contains("not acquired"), "{e}");
        let tail = e.split("ends with:").nth(1).unwrap_or_default();
        assert!(!tail.contains("StepLogger"), "{e}");
    }
}
