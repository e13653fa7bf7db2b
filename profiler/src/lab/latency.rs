//! The latency timer of a USB serial adapter (FTDI and others driven by `usb-serial`).
//!
//! Such an adapter holds received bytes until its buffer fills or its latency timer runs out
//! (FTDI's default is 16 ms), so a console line reaches the host, and is stamped, up to that
//! long after the board sent it. The timer is the sysfs file
//! `<sysfs>/bus/usb-serial/devices/<ttyUSBn>/latency_timer`, in milliseconds; the device name
//! is the console device's own after following its links (`/dev/serial/by-id/...` ->
//! `/dev/ttyUSB0` -> `ttyUSB0`). [`tune`] sets it to 1 ms when it is above that and may be
//! written. A device without the file (a native UART, a pty, a CDC-ACM adapter) has no timer.
//!
//! The sysfs root is `/sys`, or the directory the `PERFGUIDE_SYSFS` environment variable
//! names ([`sysfs_root`]).

use serde::{Deserialize, Serialize};
use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The environment variable that names another sysfs root.
pub const SYSFS_ENV: &str = "PERFGUIDE_SYSFS";

/// The value [`tune`] sets, in milliseconds.
pub const WANTED_MS: u32 = 1;

/// A serial console's latency timer: what it was and what it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LatencyTimer {
    /// The sysfs file.
    pub file: PathBuf,
    /// The value found, milliseconds.
    pub found_ms: u32,
    /// The value in effect for the run, milliseconds.
    pub in_effect_ms: u32,
    /// Why it could not be set to [`WANTED_MS`], when it could not.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub not_set: Option<String>,
}

impl LatencyTimer {
    /// For people, when the timer in effect is above [`WANTED_MS`]: the file, the value and
    /// what it costs.
    pub fn warning(&self) -> Option<String> {
        if self.in_effect_ms <= WANTED_MS {
            return None;
        }
        let why = self
            .not_set
            .as_deref()
            .map(|e| format!(" and could not be set to {WANTED_MS} ({e})"))
            .unwrap_or_default();
        Some(format!(
            "the latency timer {} is {} ms{why}: console stamps may be late by up to {} ms",
            self.file.display(),
            self.in_effect_ms,
            self.in_effect_ms
        ))
    }
}

/// Errors reading a latency timer.
#[derive(Debug, thiserror::Error)]
pub enum LatencyError {
    /// The file could not be read.
    #[error("latency timer {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The file does not hold a number of milliseconds.
    #[error("latency timer {path}: not a number of milliseconds: {text:?}")]
    Format {
        /// The file.
        path: PathBuf,
        /// What it holds.
        text: String,
    },
}

/// The sysfs root: `$PERFGUIDE_SYSFS`, or `/sys`.
pub fn sysfs_root() -> PathBuf {
    std::env::var_os(SYSFS_ENV)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/sys"))
}

/// The latency timer file of `device` under `sysfs`, when it has one. Links are followed to
/// the device's own name.
pub fn latency_file(device: &Path, sysfs: &Path) -> Option<PathBuf> {
    let real = fs::canonicalize(device).unwrap_or_else(|_| device.to_path_buf());
    let name = real.file_name()?;
    let f = sysfs
        .join("bus/usb-serial/devices")
        .join(name)
        .join("latency_timer");
    f.is_file().then_some(f)
}

fn read_ms(path: &Path) -> Result<u32, LatencyError> {
    let text = fs::read_to_string(path).map_err(|source| LatencyError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    text.trim().parse().map_err(|_| LatencyError::Format {
        path: path.to_path_buf(),
        text: text.trim().to_string(),
    })
}

/// Finds the latency timer of `device` under `sysfs` and sets it to [`WANTED_MS`] when it is
/// above and the file may be written. `None`: the device has no latency timer.
pub fn tune(device: &Path, sysfs: &Path) -> Result<Option<LatencyTimer>, LatencyError> {
    let Some(file) = latency_file(device, sysfs) else {
        return Ok(None);
    };
    let found_ms = read_ms(&file)?;
    let mut t = LatencyTimer {
        file,
        found_ms,
        in_effect_ms: found_ms,
        not_set: None,
    };
    if found_ms <= WANTED_MS {
        return Ok(Some(t));
    }
    let written = OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(&t.file)
        .and_then(|mut f| f.write_all(WANTED_MS.to_string().as_bytes()));
    match written {
        Ok(()) => t.in_effect_ms = read_ms(&t.file)?,
        Err(e) => t.not_set = Some(e.to_string()),
    }
    Ok(Some(t))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fake(root: &Path, name: &str, value: &str) -> PathBuf {
        let d = root.join("bus/usb-serial/devices").join(name);
        fs::create_dir_all(&d).unwrap();
        let f = d.join("latency_timer");
        fs::write(&f, value).unwrap();
        f
    }

    #[test]
    fn sixteen_is_set_to_one_through_a_by_id_link() {
        let tmp = tempfile::tempdir().unwrap();
        let sys = tmp.path().join("sys");
        let file = fake(&sys, "ttyUSB3", "16\n");
        let dev = tmp.path().join("dev");
        fs::create_dir_all(dev.join("serial/by-id")).unwrap();
        fs::write(dev.join("ttyUSB3"), "").unwrap();
        let by_id = dev.join("serial/by-id/usb-FTDI_FT232R_USB_UART_A10K-if00-port0");
        std::os::unix::fs::symlink("../../ttyUSB3", &by_id).unwrap();
        let t = tune(&by_id, &sys).unwrap().expect("a timer");
        assert_eq!(t.file, file);
        assert_eq!((t.found_ms, t.in_effect_ms), (16, 1));
        assert_eq!(t.not_set, None);
        assert_eq!(t.warning(), None);
        assert_eq!(fs::read_to_string(&file).unwrap(), "1");
    }

    #[test]
    fn one_is_left_alone_and_no_file_is_no_timer() {
        let tmp = tempfile::tempdir().unwrap();
        let sys = tmp.path().join("sys");
        let file = fake(&sys, "ttyUSB0", "1\n");
        let t = tune(Path::new("/dev/ttyUSB0"), &sys).unwrap().unwrap();
        assert_eq!((t.found_ms, t.in_effect_ms), (1, 1));
        assert_eq!(fs::read_to_string(&file).unwrap(), "1\n");
        assert_eq!(tune(Path::new("/dev/ttyS0"), &sys).unwrap(), None);
    }

    #[test]
    fn a_timer_not_set_is_a_warning_and_garbage_an_error() {
        let t = LatencyTimer {
            file: "/sys/bus/usb-serial/devices/ttyUSB0/latency_timer".into(),
            found_ms: 16,
            in_effect_ms: 16,
            not_set: Some("Permission denied (os error 13)".into()),
        };
        assert_eq!(
            t.warning().unwrap(),
            "the latency timer /sys/bus/usb-serial/devices/ttyUSB0/latency_timer is 16 ms and \
             could not be set to 1 (Permission denied (os error 13)): console stamps may be \
             late by up to 16 ms"
        );
        let tmp = tempfile::tempdir().unwrap();
        fake(tmp.path(), "ttyUSB1", "fast\n");
        let e = tune(Path::new("/dev/ttyUSB1"), tmp.path()).unwrap_err();
        assert!(e.to_string().contains("not a number"), "{e}");
    }
}
