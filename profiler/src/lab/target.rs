//! A board under control: the power driver and the console its profile names.

use super::console::{Console, ConsoleError, StreamConsole};
use super::labgrid::{LabgridPower, Lease, LeaseError, Place};
use super::power::{CommandPower, PowerDriver};
use super::qemu::QemuPower;
use crate::image::{UBOOT_ENV, UBOOT_ENV_QUIET};
use crate::profile::{seconds, Board, ConsoleConfig, PowerConfig, ProfileError};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Errors building a target.
#[derive(Debug, thiserror::Error)]
pub enum TargetError {
    /// The profile's `[power]`, `[console]` or `[qemu]` cannot be used.
    #[error(transparent)]
    Profile(#[from] ProfileError),
    /// The console could not be opened.
    #[error(transparent)]
    Console(#[from] ConsoleError),
    /// The labgrid place could not be held.
    #[error(transparent)]
    Lease(#[from] LeaseError),
}

/// A board under control: its power driver and its console.
pub struct Target {
    /// Power.
    pub power: Box<dyn PowerDriver>,
    /// Console.
    pub console: Box<dyn Console>,
    /// The labgrid place held for the run (released when the target is dropped, after the
    /// power and the console).
    pub lease: Option<Lease>,
}

impl Target {
    /// Builds the drivers named by the profile's `[power]`, `[console]` and `[qemu]` tables.
    /// `files` gives the values of `{name}` placeholders in `[qemu] args` (`u_boot`, `disk`,
    /// `uboot_env`); with a `uboot_env_quiet` the QEMU board boots quiet at will, with that
    /// file as its `{uboot_env}`.
    pub fn from_profile(
        board: &Board,
        files: &BTreeMap<String, PathBuf>,
    ) -> Result<Target, TargetError> {
        let power_cfg = board.power()?;
        let console_cfg = board.console()?;
        let mut qemu_console = None;
        let mut lease = None;
        let power: Box<dyn PowerDriver> = match power_cfg {
            PowerConfig::Qemu { settle_s } => {
                let mut p = QemuPower::new(board.qemu_argv(files)?, seconds(*settle_s));
                // A quiet boot is the same command line with the quiet environment flash.
                if let Some(quiet_env) = files.get(UBOOT_ENV_QUIET) {
                    let mut quiet = files.clone();
                    quiet.insert(UBOOT_ENV.to_string(), quiet_env.clone());
                    p = p.with_quiet_argv(board.qemu_argv(&quiet)?);
                }
                qemu_console = p.console();
                Box::new(p)
            }
            PowerConfig::Command {
                on,
                off,
                cycle,
                settle_s,
                timeout_s,
            } => Box::new(CommandPower::new(
                on.clone(),
                off.clone(),
                cycle.clone(),
                seconds(*settle_s),
                seconds(*timeout_s),
            )),
            PowerConfig::Labgrid {
                place,
                coordinator,
                settle_s,
                timeout_s,
            } => {
                let p = Place::new(place, coordinator.as_deref(), seconds(*timeout_s));
                lease = Some(Lease::take(
                    p.clone(),
                    &crate::image::cache_dir().join("labgrid"),
                )?);
                Box::new(LabgridPower::new(p, seconds(*settle_s)))
            }
        };
        let console: Box<dyn Console> = match console_cfg {
            ConsoleConfig::Qemu {} => match qemu_console {
                Some(c) => Box::new(c),
                None => {
                    return Err(ProfileError::Invalid {
                        board: board.name().to_string(),
                        message: "[console] kind = \"qemu\" needs [power] driver = \"qemu\"".into(),
                    }
                    .into())
                }
            },
            ConsoleConfig::Serial { device, baud } => {
                Box::new(StreamConsole::serial(device, *baud)?)
            }
            ConsoleConfig::Tcp { address } => Box::new(StreamConsole::tcp(address)?),
            ConsoleConfig::Command { argv } => Box::new(StreamConsole::command(argv)?),
            ConsoleConfig::Labgrid {} => {
                let Some(l) = &lease else {
                    return Err(ProfileError::Invalid {
                        board: board.name().to_string(),
                        message: "[console] kind = \"labgrid\" needs [power] driver = \"labgrid\""
                            .into(),
                    }
                    .into());
                };
                let (address, protocol) = l.place().serial_port()?;
                match protocol.as_str() {
                    "raw" => Box::new(StreamConsole::tcp(&address)?),
                    "rfc2217" | "telnet" => Box::new(StreamConsole::telnet(&address)?),
                    other => {
                        return Err(LeaseError::Serial {
                            place: l.place().name.clone(),
                            message: format!("protocol {other:?} is neither rfc2217 nor raw"),
                        }
                        .into())
                    }
                }
            }
        };
        Ok(Target {
            power,
            console,
            lease,
        })
    }
}
