//! The QEMU board: a power-on is a fresh QEMU process started from the profile's `[qemu]`
//! argv (its `{u_boot}`, `{disk}` placeholders already replaced by the image's files), a
//! power-off kills and reaps it. QEMU runs off the host's transparent huge pages, so that
//! the board's speed does not follow the host's memory history
//! ([`crate::process::without_host_huge_pages`]). QEMU's serial console is the process's stdout
//! (`-serial stdio`), delivered through [`QemuPower::console`]: one channel that every
//! process of the run feeds in turn.

use super::console::{recv_from, spawn_reader, Console, ConsoleError, ConsoleEvent};
use super::power::{PowerDriver, PowerError};
use crate::process::{
    exit_status, own_process_group, quote_argv, tail_lines, without_host_huge_pages, ChildStdout,
};
use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// QEMU's serial console: a channel that every QEMU process of the run feeds in turn.
pub struct QemuConsole {
    rx: Receiver<ConsoleEvent>,
    stdin: Arc<Mutex<Option<os_pipe::PipeWriter>>>,
}

impl Console for QemuConsole {
    fn describe(&self) -> String {
        "qemu serial (stdio)".into()
    }
    fn recv(&mut self, timeout: Duration) -> Result<Option<ConsoleEvent>, ConsoleError> {
        recv_from(&self.rx, timeout, "qemu")
    }
    fn send(&mut self, bytes: &[u8]) -> Result<(), ConsoleError> {
        let mut g = self.stdin.lock().unwrap_or_else(|p| p.into_inner());
        match g.as_mut() {
            Some(w) => w
                .write_all(bytes)
                .and_then(|_| w.flush())
                .map_err(|source| ConsoleError::Write {
                    console: "qemu".into(),
                    source,
                }),
            None => Err(ConsoleError::Closed("qemu (powered off)".into())),
        }
    }
    fn ensure_open(&mut self) -> Result<(), ConsoleError> {
        Ok(())
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
    /// The command line of a quiet boot, when the image has one (its U-Boot environment flash).
    quiet_argv: Option<Vec<String>>,
    quiet: bool,
    settle: Duration,
    tx: Sender<ConsoleEvent>,
    console: Option<QemuConsole>,
    stdin: Arc<Mutex<Option<os_pipe::PipeWriter>>>,
    stderr_tail: Arc<Mutex<Vec<u8>>>,
    running: Option<Running>,
}

impl QemuPower {
    /// A driver that starts `argv` (already substituted) at every power-on.
    pub fn new(argv: Vec<String>, settle: Duration) -> Self {
        let (tx, rx) = mpsc::channel();
        let stdin = Arc::new(Mutex::new(None));
        QemuPower {
            argv,
            quiet_argv: None,
            quiet: false,
            settle,
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

    /// Gives the command line of a quiet boot: from here on [`PowerDriver::select_quiet`]
    /// picks the one the next power-on starts.
    pub fn with_quiet_argv(mut self, argv: Vec<String>) -> Self {
        self.quiet_argv = Some(argv);
        self
    }

    /// The command line the next power-on starts.
    fn current_argv(&self) -> &[String] {
        match (&self.quiet_argv, self.quiet) {
            (Some(q), true) => q,
            _ => &self.argv,
        }
    }

    /// The console of every QEMU this driver starts (call once; `None` the second time).
    pub fn console(&mut self) -> Option<QemuConsole> {
        self.console.take()
    }

    /// The command line of the next power-on, quoted.
    pub fn command_line(&self) -> String {
        quote_argv(self.current_argv())
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
        let Some((prog, args)) = self.current_argv().split_first() else {
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
                without_host_huge_pages(c);
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
            ChildStdout(handle.clone()),
            self.tx.clone(),
            stop.clone(),
            Arc::new(AtomicBool::new(true)),
            "qemu".into(),
            Box::new(move || {
                let status = exit_status(&h2);
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

    fn switches_quiet(&self) -> bool {
        self.quiet_argv.is_some()
    }

    fn select_quiet(&mut self, quiet: bool) {
        self.quiet = quiet;
    }
}

impl Drop for QemuPower {
    fn drop(&mut self) {
        let _ = self.off();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qemu_power_cycle_is_a_fresh_process_and_off_reaps_it() {
        // `sh` stands in for QEMU: it prints its pid and waits.
        let mut p = QemuPower::new(
            vec![
                "sh".into(),
                "-c".into(),
                "echo pid=$$; exec sleep 30".into(),
            ],
            Duration::ZERO,
        );
        let mut con = p.console().unwrap();
        let mut pids = Vec::new();
        for _ in 0..2 {
            p.on().unwrap();
            let mut got = Vec::new();
            while !got.ends_with(b"\n") {
                match con.recv(Duration::from_secs(5)).unwrap() {
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
