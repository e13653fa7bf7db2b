//! A board in a labgrid farm: a place, driven through `labgrid-client`.
//!
//! perfguide acquires the place for the run ([`lease`]), reads its resources with
//! `labgrid-client show` ([`show`]), connects to the network serial port the exporter serves
//! (ser2net's telnet, [`super::telnet`]) before the first power-on, switches power with
//! `labgrid-client power on|off` ([`power`]) and releases the place when the run ends: at its
//! end, after an error, a timeout or Ctrl-C. A run killed outright leaves its record, and the
//! next run on this host releases the place with a message.
//!
//! The coordinator is the profile's `[power] coordinator`, else labgrid-client's own default
//! (`LG_COORDINATOR`, else 127.0.0.1:20408). The client is `labgrid-client` on `PATH`, or
//! `$PERFGUIDE_LABGRID_CLIENT`.

pub mod lease;
pub mod power;
pub mod show;

use super::power::{CommandPower, PowerError};
use std::time::Duration;

pub use lease::{Lease, LeaseError};
pub use power::LabgridPower;
pub use show::{ShownPlace, ShownResource};

/// The environment variable naming the labgrid-client program.
pub const CLIENT_ENV: &str = "PERFGUIDE_LABGRID_CLIENT";

/// A place and how to reach it: the client commands perfguide runs.
#[derive(Debug, Clone)]
pub struct Place {
    /// The place's name.
    pub name: String,
    /// `host:port`, when the profile gives one.
    pub coordinator: Option<String>,
    /// The limit per command.
    pub timeout: Duration,
    client: String,
}

impl Place {
    /// The place `name` at `coordinator`.
    pub fn new(name: &str, coordinator: Option<&str>, timeout: Duration) -> Self {
        Place {
            name: name.to_string(),
            coordinator: coordinator.map(str::to_string),
            timeout,
            client: std::env::var(CLIENT_ENV).unwrap_or_else(|_| "labgrid-client".to_string()),
        }
    }

    /// `labgrid-client [-x C] -p PLACE args...`.
    pub fn argv(&self, args: &[&str]) -> Vec<String> {
        let mut v = vec![self.client.clone()];
        if let Some(c) = &self.coordinator {
            v.extend(["-x".to_string(), c.clone()]);
        }
        v.extend(["-p".to_string(), self.name.clone()]);
        v.extend(args.iter().map(|s| s.to_string()));
        v
    }

    /// [`Place::argv`] with labgrid's step logger on (`-v`).
    pub fn argv_verbose(&self, args: &[&str]) -> Vec<String> {
        let mut v = self.argv(args);
        v.insert(1, "-v".to_string());
        v
    }

    /// Runs `labgrid-client ... args` to its end.
    pub fn run(&self, args: &[&str]) -> Result<(), PowerError> {
        CommandPower::run(&self.argv(args), self.timeout)
    }

    /// The place as `labgrid-client show` prints it.
    pub fn show(&self) -> Result<ShownPlace, LeaseError> {
        let argv = self.argv(&["show"]);
        let out = CommandPower::output(&argv, self.timeout)?;
        show::parse(&out).map_err(|message| LeaseError::Show {
            place: self.name.clone(),
            message,
        })
    }

    /// `host:port` and protocol (`rfc2217` or `raw`) of the place's network serial port, as
    /// the exporter serves it while the place is acquired.
    pub fn serial_port(&self) -> Result<(String, String), LeaseError> {
        let shown = self.show()?;
        let missing = |message: String| LeaseError::Serial {
            place: self.name.clone(),
            message,
        };
        let r = shown
            .resources
            .iter()
            .find(|r| r.acquired && r.cls == "NetworkSerialPort")
            .ok_or_else(|| {
                missing("no acquired NetworkSerialPort (add a serial port to the place)".into())
            })?;
        let host = r.params["host"]
            .as_str()
            .ok_or_else(|| missing(format!("{} has no host", r.path)))?;
        let port = r.params["port"].as_u64().ok_or_else(|| {
            missing(format!(
                "{} has no port: the exporter serves it once the place is acquired{}",
                r.path,
                if r.avail {
                    ""
                } else {
                    " and the device is there (it is not)"
                }
            ))
        })?;
        let protocol = r.params["protocol"].as_str().unwrap_or("rfc2217");
        let host = if host.contains(':') {
            format!("[{host}]")
        } else {
            host.to_string()
        };
        Ok((format!("{host}:{port}"), protocol.to_string()))
    }
}
