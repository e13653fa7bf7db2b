//! Holding a place for a run: acquire it, and release it whatever happens.
//!
//! - An idle place is acquired, and released when the [`Lease`] is dropped (the run's end, an
//!   error, Ctrl-C or SIGTERM, which end the run through its stop flag).
//! - A place the user already holds (`labgrid-client acquire` by hand, same `host/user` as
//!   labgrid-client computes it) is used and left acquired.
//! - A place held by someone else is an error naming them.
//! - A run killed outright cannot release. It leaves its record: a lock file per coordinator and
//!   place under the cache (`labgrid/`), holding the pid and the holder, flock'ed while the run
//!   lives. The next run on this host finds the record with no live lock and releases the place
//!   first, saying so. A record whose lock is held is another perfguide's live run: an error.

use super::Place;
use crate::flock::try_lock_exclusive;
use crate::lab::power::PowerError;
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

/// Errors of holding a place.
#[derive(Debug, thiserror::Error)]
pub enum LeaseError {
    /// labgrid-client could not be started.
    #[error(
        "labgrid: `{command}` could not start: {reason} (labgrid-client comes with labgrid: \
         pip install labgrid; or name it in ${})",
        super::CLIENT_ENV
    )]
    NoClient {
        /// argv, quoted.
        command: String,
        /// Why.
        reason: std::io::Error,
    },
    /// A labgrid-client command failed or timed out (the command names the place).
    #[error("labgrid: {0}")]
    Client(PowerError),
    /// `show`'s output could not be read.
    #[error("labgrid place {place}: `labgrid-client show`: {message}")]
    Show {
        /// The place.
        place: String,
        /// What and where.
        message: String,
    },
    /// The place has no usable network serial port.
    #[error("labgrid place {place}: console: {message}")]
    Serial {
        /// The place.
        place: String,
        /// Why.
        message: String,
    },
    /// Someone else holds the place.
    #[error(
        "labgrid place {place} is acquired by {holder}, not by you ({me}); wait for them or ask \
         them to run: labgrid-client -p {place} allow {me}"
    )]
    Taken {
        /// The place.
        place: String,
        /// `host/user` holding it.
        holder: String,
        /// `host/user` of this run.
        me: String,
    },
    /// Another perfguide on this host runs on the place.
    #[error("labgrid place {place} is in use by perfguide pid {pid} on this host (lock {})", .lock.display())]
    Busy {
        /// The place.
        place: String,
        /// That run's process.
        pid: u32,
        /// The lock file.
        lock: PathBuf,
    },
    /// The lock file could not be used.
    #[error("labgrid place lock {}: {source}", .path.display())]
    Lock {
        /// The lock file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

impl From<PowerError> for LeaseError {
    fn from(e: PowerError) -> Self {
        match e {
            PowerError::Spawn { command, source } => LeaseError::NoClient {
                command,
                reason: source,
            },
            e => LeaseError::Client(e),
        }
    }
}

/// What a lock file records while a run holds the place.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Record {
    pid: u32,
    place: String,
    coordinator: Option<String>,
    holder: String,
}

/// The place held for a run; released on drop when this run acquired it.
#[derive(Debug)]
pub struct Lease {
    place: Place,
    release: bool,
    file: File,
    /// What happened when it was taken, for people (a stale hold released, a hold reused).
    pub notes: Vec<String>,
}

/// `host/user` as labgrid-client names its holder: `LG_HOSTNAME` else the host name,
/// `LG_USERNAME` else the login name (Python's `getpass.getuser()` order).
pub fn holder() -> String {
    let host = std::env::var("LG_HOSTNAME").unwrap_or_else(|_| hostname());
    let user = std::env::var("LG_USERNAME")
        .ok()
        .or_else(|| {
            ["LOGNAME", "USER", "LNAME", "USERNAME"]
                .iter()
                .find_map(|k| std::env::var(k).ok().filter(|v| !v.is_empty()))
        })
        .unwrap_or_else(login_name);
    format!("{host}/{user}")
}

fn hostname() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: gethostname writes at most buf.len() bytes into buf.
    let r = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
    if r != 0 {
        return "localhost".into();
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

fn login_name() -> String {
    // SAFETY: getpwuid returns a pointer into static storage or null; read at once.
    unsafe {
        let pw = libc::getpwuid(libc::getuid());
        if pw.is_null() || (*pw).pw_name.is_null() {
            return libc::getuid().to_string();
        }
        std::ffi::CStr::from_ptr((*pw).pw_name)
            .to_string_lossy()
            .into_owned()
    }
}

/// The lock file of `place` under `dir`.
pub fn lock_path(dir: &Path, place: &Place) -> PathBuf {
    let safe = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    };
    let coord = place.coordinator.as_deref().unwrap_or("default");
    dir.join(format!("{}--{}.lock", safe(coord), safe(&place.name)))
}

impl Lease {
    /// Takes `place` for this run; `dir` holds the lock files.
    pub fn take(place: Place, dir: &Path) -> Result<Lease, LeaseError> {
        let path = lock_path(dir, &place);
        let lock_err = |source| LeaseError::Lock {
            path: path.clone(),
            source,
        };
        std::fs::create_dir_all(dir).map_err(lock_err)?;
        let mut file = File::options()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(&path)
            .map_err(lock_err)?;
        let mut text = String::new();
        file.read_to_string(&mut text).map_err(lock_err)?;
        let left: Option<Record> = serde_json::from_str(&text).ok();
        if !try_lock_exclusive(&file).map_err(lock_err)? {
            return Err(LeaseError::Busy {
                place: place.name.clone(),
                pid: left.map_or(0, |r| r.pid),
                lock: path,
            });
        }
        let me = holder();
        let mut notes = Vec::new();
        let mut shown = place.show()?;
        if let (Some(rec), Some(by)) = (&left, &shown.acquired_by) {
            if *by == rec.holder && *by == me {
                place.run(&["release"])?;
                notes.push(format!(
                    "labgrid place {} was left acquired by perfguide pid {}, which ended without \
                     releasing it: released",
                    place.name, rec.pid
                ));
                shown = place.show()?;
            }
        }
        let release = match &shown.acquired_by {
            None => {
                place.run(&["acquire"])?;
                true
            }
            Some(by) if *by == me => {
                notes.push(format!(
                    "labgrid place {} is already acquired by you ({me}): used, and left acquired",
                    place.name
                ));
                false
            }
            Some(by) => {
                return Err(LeaseError::Taken {
                    place: place.name.clone(),
                    holder: by.clone(),
                    me,
                })
            }
        };
        let mut lease = Lease {
            place,
            release,
            file,
            notes,
        };
        if release {
            let rec = Record {
                pid: std::process::id(),
                place: lease.place.name.clone(),
                coordinator: lease.place.coordinator.clone(),
                holder: me,
            };
            lease
                .write(&serde_json::to_string(&rec).unwrap_or_default())
                .map_err(lock_err)?;
        }
        Ok(lease)
    }

    /// The place.
    pub fn place(&self) -> &Place {
        &self.place
    }

    fn write(&mut self, text: &str) -> std::io::Result<()> {
        self.file.set_len(0)?;
        self.file.rewind()?;
        self.file.write_all(text.as_bytes())?;
        self.file.sync_data()
    }

    /// Releases the place now if this run acquired it; the record is cleared once released.
    pub fn release(&mut self) -> Result<(), LeaseError> {
        if !self.release {
            return Ok(());
        }
        self.place.run(&["release"])?;
        self.release = false;
        let _ = self.write("");
        Ok(())
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        if let Err(e) = self.release() {
            eprintln!("perfguide: warning: {e}");
        }
    }
}
