//! Consoles: where a board's console bytes come from.
//!
//! A console is opened once, before the first power-on, and stays open across power cycles so
//! that no byte after power-on is lost (a console reopened after power-on misses the first
//! bytes). Each console runs one reader thread that blocks in `read` and stamps every chunk
//! with the monotonic clock the moment `read` returns, then hands it to the boot loop through
//! a channel; the loop decides which cycle a chunk belongs to.
//!
//! Kinds, from the board profile's `[console]` table ([`crate::profile::ConsoleConfig`]):
//! - `kind = "qemu"`: QEMU's serial on the child's stdout (`-serial stdio`), fed by the `qemu`
//!   power driver of `qemu.rs` (a power cycle is a new process, the console channel stays);
//! - `kind = "serial"`, `device`, `baud` (default 115200): a serial device, 8N1, no flow control;
//!   a USB serial adapter's latency timer is set to 1 ms at every open ([`super::latency`]);
//! - `kind = "tcp"`, `address = "host:port"`: a raw TCP console such as ser2net;
//! - `kind = "command"`, `argv = [...]`: a program whose stdout is the console (no shell unless
//!   the argv says `sh -c`), e.g. `["picocom", "-q", "/dev/ttyUSB0"]` or
//!   `["ssh", "lab", "cat /dev/ttyUSB0"]`;
//! - `kind = "labgrid"`: the network serial port of the labgrid place that `[power]` names,
//!   telnet (RFC 2217, ser2net) or raw TCP as the exporter says ([`super::labgrid`]).

use super::latency::{self, LatencyError, LatencyTimer};
use super::telnet::{self, TelnetReader, TelnetWriter};
use crate::process::{exit_status, own_process_group, quote_argv, ChildStdout};
use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Something the console reader saw.
#[derive(Debug, Clone, PartialEq)]
pub enum ConsoleEvent {
    /// Bytes, stamped when `read` returned them.
    Data {
        /// Arrival (monotonic).
        at: Instant,
        /// The bytes.
        bytes: Vec<u8>,
    },
    /// The source ended (EOF, device gone, process exited).
    Closed {
        /// When it was noticed.
        at: Instant,
        /// Why, for people.
        reason: String,
    },
}

impl ConsoleEvent {
    /// When the event happened.
    pub fn at(&self) -> Instant {
        match self {
            ConsoleEvent::Data { at, .. } | ConsoleEvent::Closed { at, .. } => *at,
        }
    }
}

/// Errors of a console.
#[derive(Debug, thiserror::Error)]
pub enum ConsoleError {
    /// A serial device could not be opened.
    #[error("serial console {device} at {baud} baud: {source}")]
    Serial {
        /// Device path.
        device: String,
        /// Baud rate.
        baud: u32,
        /// Why.
        source: serialport::Error,
    },
    /// A TCP console could not be reached.
    #[error("tcp console {address}: {source}")]
    Tcp {
        /// `host:port`.
        address: String,
        /// Why.
        source: io::Error,
    },
    /// A console command could not be started.
    #[error("console command `{command}`: {source}")]
    Command {
        /// The argv, quoted for people.
        command: String,
        /// Why.
        source: io::Error,
    },
    /// Writing to the console failed.
    #[error("console {console}: write: {source}")]
    Write {
        /// Which console.
        console: String,
        /// Why.
        source: io::Error,
    },
    /// The console is closed and cannot deliver bytes.
    #[error("console {0} is closed")]
    Closed(String),
}

/// A board console: bytes as they arrive, and a way to type.
pub trait Console: Send {
    /// One line for people (`serial /dev/ttyUSB0 115200 8N1`).
    fn describe(&self) -> String;
    /// The next event, waiting at most `timeout`; `Ok(None)` when nothing came.
    fn recv(&mut self, timeout: Duration) -> Result<Option<ConsoleEvent>, ConsoleError>;
    /// Sends bytes to the board.
    fn send(&mut self, bytes: &[u8]) -> Result<(), ConsoleError>;
    /// Reconnects a console whose source ended (a ser2net drop, a console command that
    /// exited). A console that is open does nothing.
    fn ensure_open(&mut self) -> Result<(), ConsoleError>;
    /// A serial console's latency timer as the last open found and left it: `None` when the
    /// console has none (not a USB serial adapter, not serial at all).
    fn latency_timer(&self) -> Option<&Result<LatencyTimer, LatencyError>> {
        None
    }
}

/// Runs a reader thread: reads `r` until EOF or `stop`, sends stamped chunks to `tx`.
/// Read timeouts (serial, TCP) are not errors: they only give the thread a chance to stop.
pub(crate) fn spawn_reader<R: Read + Send + 'static>(
    mut r: R,
    tx: Sender<ConsoleEvent>,
    stop: Arc<AtomicBool>,
    open: Arc<AtomicBool>,
    name: String,
    on_eof: Box<dyn FnOnce() -> String + Send>,
) -> io::Result<JoinHandle<()>> {
    std::thread::Builder::new()
        .name(format!("console {name}"))
        .spawn(move || {
            let mut buf = vec![0u8; 4096];
            let reason = loop {
                if stop.load(Ordering::Relaxed) {
                    break None;
                }
                match r.read(&mut buf) {
                    // A close we asked for (power-off, shutdown) is not news.
                    Ok(0) if stop.load(Ordering::Relaxed) => break None,
                    Ok(0) => break Some(on_eof()),
                    Ok(n) => {
                        let at = Instant::now();
                        if tx
                            .send(ConsoleEvent::Data {
                                at,
                                bytes: buf[..n].to_vec(),
                            })
                            .is_err()
                        {
                            break None;
                        }
                    }
                    Err(e)
                        if matches!(
                            e.kind(),
                            io::ErrorKind::TimedOut
                                | io::ErrorKind::WouldBlock
                                | io::ErrorKind::Interrupted
                        ) =>
                    {
                        continue
                    }
                    // A USB serial adapter that goes away: EIO, or a hang-up (broken pipe).
                    Err(e) => break Some(format!("console {name}: read error: {e}")),
                }
            };
            open.store(false, Ordering::Relaxed);
            if let Some(reason) = reason {
                if !stop.load(Ordering::Relaxed) {
                    let _ = tx.send(ConsoleEvent::Closed {
                        at: Instant::now(),
                        reason,
                    });
                }
            }
        })
}

/// Reopens a console whose source ended ([`Console::ensure_open`]), trying again every 100 ms
/// until it opens, `wait` is over or `stop` is raised: a USB serial adapter that re-enumerates
/// is back under the same path after a moment. Returns how long the console was waited for;
/// when it did not open, the last error.
pub fn reopen_within(
    console: &mut dyn Console,
    wait: Duration,
    stop: &AtomicBool,
) -> Result<Duration, ConsoleError> {
    let start = Instant::now();
    loop {
        match console.ensure_open() {
            Ok(()) => return Ok(start.elapsed()),
            Err(e) if start.elapsed() >= wait || stop.load(Ordering::Relaxed) => return Err(e),
            Err(_) => std::thread::sleep(Duration::from_millis(100).min(wait)),
        }
    }
}

/// The consumer side shared by every console kind.
pub(crate) fn recv_from(
    rx: &Receiver<ConsoleEvent>,
    timeout: Duration,
    name: &str,
) -> Result<Option<ConsoleEvent>, ConsoleError> {
    match rx.recv_timeout(timeout) {
        Ok(ev) => Ok(Some(ev)),
        Err(RecvTimeoutError::Timeout) => Ok(None),
        Err(RecvTimeoutError::Disconnected) => Err(ConsoleError::Closed(name.to_string())),
    }
}

enum Source {
    Serial { device: String, baud: u32 },
    Tcp { address: String },
    Telnet { address: String },
    Command { argv: Vec<String> },
}

/// A console read by one reader thread from a serial device, a TCP port or a command's stdout.
pub struct StreamConsole {
    source: Source,
    rx: Receiver<ConsoleEvent>,
    tx: Sender<ConsoleEvent>,
    writer: Option<Box<dyn Write + Send>>,
    stop: Arc<AtomicBool>,
    open: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    child: Option<Arc<duct::ReaderHandle>>,
    latency: Option<Result<LatencyTimer, LatencyError>>,
}

impl StreamConsole {
    /// Opens a serial device at `baud`, 8N1, no flow control.
    pub fn serial(device: &str, baud: u32) -> Result<Self, ConsoleError> {
        Self::open(Source::Serial {
            device: device.into(),
            baud,
        })
    }

    /// Connects to a raw TCP console (`host:port`).
    pub fn tcp(address: &str) -> Result<Self, ConsoleError> {
        Self::open(Source::Tcp {
            address: address.into(),
        })
    }

    /// Connects to a telnet console (`host:port`): a network serial port of ser2net, whose
    /// negotiation [`telnet`] answers and removes.
    pub fn telnet(address: &str) -> Result<Self, ConsoleError> {
        Self::open(Source::Telnet {
            address: address.into(),
        })
    }

    /// Starts a console command (argv, no shell).
    pub fn command(argv: &[String]) -> Result<Self, ConsoleError> {
        Self::open(Source::Command {
            argv: argv.to_vec(),
        })
    }

    fn open(source: Source) -> Result<Self, ConsoleError> {
        let (tx, rx) = mpsc::channel();
        let mut c = StreamConsole {
            source,
            rx,
            tx,
            writer: None,
            stop: Arc::new(AtomicBool::new(false)),
            open: Arc::new(AtomicBool::new(false)),
            thread: None,
            child: None,
            latency: None,
        };
        c.connect()?;
        Ok(c)
    }

    /// Connects the source and starts its reader. A connect that fails leaves the console
    /// closed, so that [`Console::ensure_open`] tries again.
    fn connect(&mut self) -> Result<(), ConsoleError> {
        let r = self.try_connect();
        if r.is_err() {
            self.open.store(false, Ordering::Relaxed);
        }
        r
    }

    fn try_connect(&mut self) -> Result<(), ConsoleError> {
        self.shutdown();
        self.stop = Arc::new(AtomicBool::new(false));
        self.open = Arc::new(AtomicBool::new(true));
        let name = self.describe();
        let tx = self.tx.clone();
        let (stop, open) = (self.stop.clone(), self.open.clone());
        let thread = match &self.source {
            Source::Serial { device, baud } => {
                let err = |source| ConsoleError::Serial {
                    device: device.clone(),
                    baud: *baud,
                    source,
                };
                let port = serialport::new(device.as_str(), *baud)
                    .data_bits(serialport::DataBits::Eight)
                    .parity(serialport::Parity::None)
                    .stop_bits(serialport::StopBits::One)
                    .flow_control(serialport::FlowControl::None)
                    .timeout(Duration::from_millis(100))
                    .open_native()
                    .map_err(err)?;
                let w = port.try_clone_native().map_err(err)?;
                self.writer = Some(Box::new(w));
                // A re-enumerated adapter comes back with its default timer: set at every open.
                self.latency = latency::tune(Path::new(device), &latency::sysfs_root()).transpose();
                let dev = device.clone();
                spawn_reader(
                    port,
                    tx,
                    stop,
                    open,
                    name,
                    Box::new(move || format!("serial device {dev} closed (end of file)")),
                )
            }
            Source::Tcp { address } => {
                let err = |source| ConsoleError::Tcp {
                    address: address.clone(),
                    source,
                };
                let s = TcpStream::connect(address.as_str()).map_err(err)?;
                s.set_nodelay(true).map_err(err)?;
                s.set_read_timeout(Some(Duration::from_millis(100)))
                    .map_err(err)?;
                self.writer = Some(Box::new(s.try_clone().map_err(err)?));
                let a = address.clone();
                spawn_reader(
                    s,
                    tx,
                    stop,
                    open,
                    name,
                    Box::new(move || format!("tcp console {a}: connection closed by peer")),
                )
            }
            Source::Telnet { address } => {
                let err = |source| ConsoleError::Tcp {
                    address: address.clone(),
                    source,
                };
                let mut s = TcpStream::connect(address.as_str()).map_err(err)?;
                s.set_nodelay(true).map_err(err)?;
                s.set_read_timeout(Some(Duration::from_millis(100)))
                    .map_err(err)?;
                s.write_all(&telnet::opening()).map_err(err)?;
                let reply = s.try_clone().map_err(err)?;
                self.writer = Some(Box::new(TelnetWriter(s.try_clone().map_err(err)?)));
                let a = address.clone();
                spawn_reader(
                    TelnetReader::new(s, reply),
                    tx,
                    stop,
                    open,
                    name,
                    Box::new(move || format!("telnet console {a}: connection closed by peer")),
                )
            }
            Source::Command { argv } => {
                let err = |source| ConsoleError::Command {
                    command: quote_argv(argv),
                    source,
                };
                let Some((prog, args)) = argv.split_first() else {
                    return Err(err(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        "empty argv",
                    )));
                };
                let (stdin_r, stdin_w) = os_pipe::pipe().map_err(err)?;
                let h = duct::cmd(prog, args)
                    .stdin_file(stdin_r)
                    .unchecked()
                    .before_spawn(|c| {
                        own_process_group(c);
                        Ok(())
                    })
                    .reader()
                    .map_err(err)?;
                let h = Arc::new(h);
                self.child = Some(h.clone());
                self.writer = Some(Box::new(stdin_w));
                let cmdline = quote_argv(argv);
                let h2 = h.clone();
                spawn_reader(
                    ChildStdout(h),
                    tx,
                    stop,
                    open,
                    name,
                    Box::new(move || {
                        format!("console command `{cmdline}` ended: {}", exit_status(&h2))
                    }),
                )
            }
        };
        let thread = thread.map_err(|source| ConsoleError::Command {
            command: "reader thread".into(),
            source,
        })?;
        self.thread = Some(thread);
        Ok(())
    }

    fn shutdown(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.writer = None;
        if let Some(c) = self.child.take() {
            let _ = c.kill();
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Console for StreamConsole {
    fn describe(&self) -> String {
        match &self.source {
            Source::Serial { device, baud } => format!("serial {device} {baud} 8N1"),
            Source::Tcp { address } => format!("tcp {address}"),
            Source::Telnet { address } => format!("telnet {address}"),
            Source::Command { argv } => format!("command `{}`", quote_argv(argv)),
        }
    }
    fn recv(&mut self, timeout: Duration) -> Result<Option<ConsoleEvent>, ConsoleError> {
        let name = self.describe();
        recv_from(&self.rx, timeout, &name)
    }
    fn send(&mut self, bytes: &[u8]) -> Result<(), ConsoleError> {
        let console = self.describe();
        match self.writer.as_mut() {
            Some(w) => w
                .write_all(bytes)
                .and_then(|_| w.flush())
                .map_err(|source| ConsoleError::Write { console, source }),
            None => Err(ConsoleError::Closed(console)),
        }
    }
    fn ensure_open(&mut self) -> Result<(), ConsoleError> {
        if self.open.load(Ordering::Relaxed) {
            return Ok(());
        }
        self.connect()
    }
    fn latency_timer(&self) -> Option<&Result<LatencyTimer, LatencyError>> {
        self.latency.as_ref()
    }
}

impl Drop for StreamConsole {
    fn drop(&mut self) {
        self.shutdown();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_console_delivers_bytes_and_end() {
        let mut c =
            StreamConsole::command(&["printf".into(), "a\\377b\\n".into()]).expect("printf runs");
        let mut got = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            assert!(Instant::now() < deadline, "no end of console");
            match c.recv(Duration::from_millis(100)).unwrap() {
                Some(ConsoleEvent::Data { bytes, .. }) => got.extend(bytes),
                Some(ConsoleEvent::Closed { reason, .. }) => {
                    assert!(reason.contains("printf"), "{reason}");
                    break;
                }
                None => {}
            }
        }
        assert_eq!(got, b"a\xffb\n");
    }

    #[test]
    fn tcp_console_stays_open_and_reconnects() {
        use std::net::TcpListener;
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap().to_string();
        let server = std::thread::spawn(move || {
            // First connection: a line, then the peer (ser2net) drops it.
            let (mut s, _) = l.accept().unwrap();
            s.write_all(b"U-Boot 2024.01\r\n").unwrap();
            let mut buf = [0u8; 5];
            s.read_exact(&mut buf).unwrap();
            assert_eq!(&buf, b"hello");
            drop(s);
            let (mut s, _) = l.accept().unwrap();
            s.write_all(b"again\n").unwrap();
        });
        let mut c = StreamConsole::tcp(&addr).unwrap();
        assert_eq!(c.describe(), format!("tcp {addr}"));
        c.send(b"hello").unwrap();
        let mut got = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(5);
        let reason = loop {
            assert!(Instant::now() < deadline);
            match c.recv(Duration::from_millis(100)).unwrap() {
                Some(ConsoleEvent::Data { bytes, .. }) => got.extend(bytes),
                Some(ConsoleEvent::Closed { reason, .. }) => break reason,
                None => {}
            }
        };
        assert_eq!(got, b"U-Boot 2024.01\r\n");
        assert!(reason.contains("closed by peer"), "{reason}");
        c.ensure_open().unwrap();
        let mut got = Vec::new();
        while !got.ends_with(b"\n") {
            assert!(Instant::now() < deadline);
            if let Some(ConsoleEvent::Data { bytes, .. }) =
                c.recv(Duration::from_millis(100)).unwrap()
            {
                got.extend(bytes);
            }
        }
        assert_eq!(got, b"again\n");
        server.join().unwrap();
    }

    #[test]
    fn failed_reconnect_stays_closed() {
        use std::net::TcpListener;
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap().to_string();
        let mut c = StreamConsole::tcp(&addr).unwrap();
        drop(l.accept().unwrap());
        drop(l);
        let deadline = Instant::now() + Duration::from_secs(5);
        while !matches!(
            c.recv(Duration::from_millis(100)).unwrap(),
            Some(ConsoleEvent::Closed { .. })
        ) {
            assert!(Instant::now() < deadline);
        }
        // Nobody listens any more: every attempt fails, none claims the console is open.
        assert!(c.ensure_open().is_err());
        assert!(c.ensure_open().is_err());
        let stop = AtomicBool::new(false);
        let e = reopen_within(&mut c, Duration::from_millis(250), &stop).unwrap_err();
        assert!(e.to_string().contains(&addr), "{e}");
    }

    #[test]
    fn empty_command_is_an_error() {
        let e = StreamConsole::command(&[]).err().expect("error");
        assert!(e.to_string().contains("empty argv"), "{e}");
    }
}
