//! Peers for the network benchmarks (`--serve`): the servers of iperf3, iperf2 and netperf,
//! started for the session and stopped after it, on the host (a real board reaches it over
//! the lab network) or on the target's own loopback (QEMU's user network cannot reach the
//! host).

use crate::process::{own_process_group, quote_argv};
use crate::shell::{Shell, ShellError};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The servers: program and argv (foreground, so the host can stop them).
const SERVERS: &[&[&str]] = &[&["iperf3", "-s"], &["iperf", "-s"], &["netserver", "-D"]];

/// The address the target reaches its own servers at.
pub const LOOPBACK: &str = "127.0.0.1";

/// Servers running on the host; stopped when dropped.
#[derive(Debug, Default)]
pub struct HostServers {
    children: Vec<(String, Child)>,
}

impl HostServers {
    /// Starts every server whose program is on the host's PATH; names the ones it started.
    pub fn start() -> std::io::Result<(HostServers, Vec<String>)> {
        let mut s = HostServers::default();
        let mut started = Vec::new();
        for argv in SERVERS {
            let mut c = Command::new(argv[0]);
            c.args(&argv[1..])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null());
            own_process_group(&mut c);
            match c.spawn() {
                Ok(child) => {
                    let what = quote_argv(&argv.iter().map(|a| a.to_string()).collect::<Vec<_>>());
                    started.push(what.clone());
                    s.children.push((what, child));
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(e),
            }
        }
        Ok((s, started))
    }

    /// The servers that exited by themselves (a port in use, a missing library), with
    /// their status.
    pub fn exited(&mut self) -> Vec<String> {
        self.children
            .iter_mut()
            .filter_map(|(what, c)| match c.try_wait() {
                Ok(Some(st)) => Some(format!("{what}: {st}")),
                _ => None,
            })
            .collect()
    }
}

impl Drop for HostServers {
    fn drop(&mut self) {
        for (_, c) in &mut self.children {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// Starts the servers the target has, as daemons, on the target.
pub fn start_on_target(shell: &mut Shell<'_>) -> Result<(), ShellError> {
    shell.run(
        "for s in 'iperf3 -s -D' 'iperf -s -D' 'netserver'; do \
         command -v ${s%% *} >/dev/null && $s >/dev/null 2>&1; done; true",
        Duration::from_secs(30),
    )?;
    Ok(())
}

/// Stops the servers [`start_on_target`] started.
pub fn stop_on_target(shell: &mut Shell<'_>) -> Result<(), ShellError> {
    shell.run(
        "killall iperf3 iperf netserver >/dev/null 2>&1; true",
        Duration::from_secs(30),
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_servers_are_stopped_when_dropped() {
        let (mut s, started) = HostServers::start().unwrap();
        assert!(
            started.iter().any(|w| w.starts_with("iperf3")),
            "iperf3 is not on this host's PATH (scripts/setup-host.sh installs it): {started:?}"
        );
        let pids: Vec<u32> = s.children.iter().map(|(_, c)| c.id()).collect();
        assert_eq!(started.len(), pids.len());
        std::thread::sleep(Duration::from_millis(200));
        assert!(s.exited().is_empty(), "{:?}", s.exited());
        drop(s);
        for pid in pids {
            // The child was reaped: no process of that pid is ours any more.
            let alive = std::path::Path::new(&format!("/proc/{pid}/stat")).exists()
                && std::fs::read_to_string(format!("/proc/{pid}/stat"))
                    .map(|t| !t.contains(") Z "))
                    .unwrap_or(false);
            assert!(!alive, "server {pid} still running");
        }
    }
}
