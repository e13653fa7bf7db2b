//! Process plumbing of the lab: children in their own process group, emulators off the host's
//! huge pages, argv quoted for messages, the tail of a child's output, a child's stdout shared with its waiter, waits a
//! stop request cuts short.

use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Sleeps until `end` unless `stop` is raised, looking at `stop` every `tick` at most; returns
/// false when stopped.
pub fn sleep_until(end: Instant, stop: &AtomicBool, tick: Duration) -> bool {
    loop {
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        let now = Instant::now();
        if now >= end {
            return true;
        }
        std::thread::sleep((end - now).min(tick));
    }
}

/// Puts a child in its own process group, so that a Ctrl-C on the terminal reaches perfguide
/// only and perfguide shuts the child down in order; and asks the kernel to kill the child if
/// perfguide dies without cleaning up (SIGKILL, crash), so no QEMU or console process is left
/// behind. Children are spawned from the main thread, whose exit is what the kernel watches.
pub fn own_process_group(c: &mut std::process::Command) {
    use std::os::unix::process::CommandExt;
    c.process_group(0);
    // SAFETY: prctl(PR_SET_PDEATHSIG) is async-signal-safe and touches no memory of the parent.
    unsafe {
        c.pre_exec(|| {
            libc::prctl(
                libc::PR_SET_PDEATHSIG,
                libc::SIGKILL as libc::c_ulong,
                0,
                0,
                0,
            );
            Ok(())
        });
    }
}

/// Keeps a child's memory off the host's transparent huge pages (`prctl(PR_SET_THP_DISABLE)`,
/// inherited by everything it starts). For QEMU: it madvises its guest RAM and TCG code buffer
/// `MADV_HUGEPAGE`, and where the host is itself a virtual machine that hands free memory back
/// to its hypervisor (virtio-balloon free page reporting, 2 MiB chunks 2 s after they are
/// freed), each huge page the emulator touches costs from 0.2 to 5 ms depending on how long ago
/// the previous emulator freed it. The emulated board then runs its memory-heavy stages up to
/// four times slower or not depending on the host's recent history (docs/userspace-shift.md);
/// with 4 KiB pages it runs at one speed.
pub fn without_host_huge_pages(c: &mut std::process::Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: prctl(PR_SET_THP_DISABLE) is async-signal-safe and touches no memory of the parent.
    unsafe {
        c.pre_exec(|| {
            if libc::prctl(libc::PR_SET_THP_DISABLE, 1 as libc::c_ulong, 0, 0, 0) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// Quotes an argv for messages, the way a shell user would type it.
pub fn quote_argv(argv: &[String]) -> String {
    argv.iter()
        .map(|a| {
            if !a.is_empty()
                && a.bytes()
                    .all(|c| c.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&c))
            {
                a.clone()
            } else {
                format!("'{}'", a.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The last `n` non-empty lines of some output, lossily decoded.
pub fn tail_lines(bytes: &[u8], n: usize) -> String {
    let s = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = s.lines().filter(|l| !l.trim().is_empty()).collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// The stdout of a child started with `duct`'s `reader()`, read by one thread while
/// others wait for or kill the child through the same handle.
pub struct ChildStdout(pub Arc<duct::ReaderHandle>);

/// How a child started with `duct` ended, for messages (`exit status: 1`), or that it
/// closed its stdout while still running.
pub fn exit_status(h: &duct::ReaderHandle) -> String {
    h.try_wait()
        .ok()
        .flatten()
        .map(|o| o.status.to_string())
        .unwrap_or_else(|| "closed its stdout".into())
}

impl Read for ChildStdout {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        (&*self.0).read(buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting() {
        assert_eq!(
            quote_argv(&["sh".into(), "-c".into(), "echo 'x'".into()]),
            "sh -c 'echo '\\''x'\\'''"
        );
    }
}
