//! `perfguide-simboard`: a simulated board for the boot-loop tests.
//!
//! A board that is always there, with a serial console and a relay: `serve` opens a pty pair,
//! links the slave as `DIR/tty` (the "serial device") and listens on `DIR/ctl` for power
//! commands. `power on DIR` makes it replay a real grabserial `-t` capture into the console with
//! the recorded delays (optionally scaled); `power off DIR` stops it. Faults for the failure
//! tests: `--silent` (prints nothing), `--to-line` (hangs before the login prompt),
//! `--garbage` (power-up noise bytes that are not UTF-8), `--panic-after-line`,
//! `--reset-after-line` (the board resets and boots again), `--unplug-after-line N` with
//! `--unplug-in-power-on K` and `--unplug-for S` (in the K-th power-on, after N lines, the
//! console goes away as a USB serial adapter that re-enumerates: the pty is closed and `DIR/tty`
//! removed; S seconds later a new pty is linked as `DIR/tty` again).
//!
//! ```text
//! perfguide-simboard serve --dir D --log capture.log [--from-line A] [--to-line B]
//!     [--scale F] [--silent] [--garbage] [--panic-after-line N] [--reset-after-line N]
//!     [--unplug-after-line N [--unplug-in-power-on K] [--unplug-for S]] [--lifetime S]
//!     [--shell S --printk-offset P --counter-offset C]
//! perfguide-simboard power on|off D
//! ```
//! `--shell S` makes it a quiet board that kept its records: after the replay (a quiet capture
//! ending at its login prompt) it answers a login and the read-back commands of
//! `perfguide::collect` from the files of S (`dmesg.txt`, `bootstage.txt`), as a target would:
//! the kernel log marker and `perfguide-counter` are stamped on its own clocks, printk at
//! `--printk-offset` seconds after power-on and the generic timer (62.5 MHz) at
//! `--counter-offset`; any other command is not found (exit status 127).
//!
//! Every power command is appended to `D/power.log` (`on` / `off`), every unplug and replug
//! to `D/usb.log` (`unplugged` / `replugged`).

use bootlog_parser::capture::parse_line;
use perfguide::collect::{BOOTSTAGE, COUNTER, COUNTER_MARK, DMESG, SYNC, SYNC_MARK, WIDE};
use perfguide::process::sleep_until;
use serialport::{SerialPort, TTYPort};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

#[derive(Clone, Debug, Default)]
struct Opts {
    dir: PathBuf,
    log: PathBuf,
    from_line: usize,
    to_line: usize,
    scale: f64,
    silent: bool,
    garbage: bool,
    panic_after: Option<usize>,
    reset_after: Option<usize>,
    unplug_after: Option<usize>,
    unplug_in_power_on: usize,
    unplug_for: f64,
    lifetime: f64,
    shell: Option<PathBuf>,
    printk_offset: f64,
    counter_offset: f64,
}

/// One timed write: wait `delay`, write `bytes`.
struct Step {
    delay: Duration,
    bytes: Vec<u8>,
}

/// The capture as timed writes. Lines without a grabserial stamp (prose around the capture)
/// are skipped; two records glued on one line are replayed as two writes.
fn steps(o: &Opts) -> Result<Vec<Step>, String> {
    let text = std::fs::read_to_string(&o.log).map_err(|e| format!("{}: {e}", o.log.display()))?;
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let last = if o.to_line == 0 {
        lines.len()
    } else {
        o.to_line.min(lines.len())
    };
    for (i, line) in lines
        .iter()
        .enumerate()
        .take(last)
        .skip(o.from_line.max(1) - 1)
    {
        let n = i + 1;
        let mut rest = line.trim_start();
        let mut recs: Vec<(f64, String)> = Vec::new();
        while let Some((_, delta_us, after)) = parse_line(rest) {
            let next = after
                .match_indices('[')
                .map(|(k, _)| k)
                .find(|&k| parse_line(&after[k..]).is_some());
            let take = next.unwrap_or(after.len());
            recs.push((delta_us as f64 / 1e6, after[..take].to_string()));
            rest = &after[take..];
            if next.is_none() {
                break;
            }
        }
        let count = recs.len();
        for (k, (delta, t)) in recs.into_iter().enumerate() {
            let mut bytes = t.into_bytes();
            if k + 1 == count {
                bytes.extend_from_slice(b"\r\n");
            }
            out.push(Step {
                delay: Duration::from_secs_f64((delta * o.scale).max(0.0)),
                bytes,
            });
        }
        if Some(n) == o.panic_after {
            out.push(Step {
                delay: Duration::from_millis(5),
                bytes: b"[    1.280112] Kernel panic - not syncing: VFS: Unable to mount root fs on unknown-block(179,1)\r\n[    1.280650] CPU: 0 PID: 1 Comm: swapper/0 Not tainted 4.13.0-rc4\r\n".to_vec(),
            });
            break;
        }
    }
    Ok(out)
}

struct Board {
    /// The pty pair; none while unplugged. The slave is kept open so that the master never
    /// sees a hang-up between consoles.
    pty: Option<(TTYPort, TTYPort)>,
    opts: Opts,
    replay: Option<(Arc<AtomicBool>, JoinHandle<()>)>,
    power_ons: usize,
    /// Raised by the replay when the console is to go away.
    unplug: Arc<AtomicBool>,
}

impl Board {
    fn off(&mut self) {
        if let Some((stop, h)) = self.replay.take() {
            stop.store(true, Ordering::Relaxed);
            let _ = h.join();
        }
    }

    fn on(&mut self) -> Result<(), String> {
        self.off();
        if self.opts.silent {
            return Ok(());
        }
        self.power_ons += 1;
        let steps = steps(&self.opts)?;
        let (master, _) = self.pty.as_ref().ok_or("the console is unplugged")?;
        let mut w = master.try_clone_native().map_err(|e| e.to_string())?;
        let stop = Arc::new(AtomicBool::new(false));
        let st = stop.clone();
        let (garbage, reset_after) = (self.opts.garbage, self.opts.reset_after);
        let unplug_after = self
            .opts
            .unplug_after
            .filter(|_| self.power_ons == self.opts.unplug_in_power_on);
        let unplug = self.unplug.clone();
        let shell = match &self.opts.shell {
            Some(dir) => Some((
                Target::load(dir, self.opts.printk_offset, self.opts.counter_offset)?,
                master.try_clone_native().map_err(|e| e.to_string())?,
            )),
            None => None,
        };
        let h = std::thread::spawn(move || {
            let start = Instant::now();
            if garbage {
                let _ = w.write_all(b"\x00\xff\xfe\x80");
            }
            // Absolute deadlines (no drift): each write is due at the sum of the delays so far.
            let mut resets = 0;
            let mut i = 0;
            let mut due = Instant::now();
            while i < steps.len() {
                let s = &steps[i];
                due += s.delay;
                if !sleep_until(due, &st, Duration::from_millis(2)) {
                    return;
                }
                if w.write_all(&s.bytes).is_err() {
                    return;
                }
                i += 1;
                let lines_so_far = |k: usize| {
                    steps[..k]
                        .iter()
                        .filter(|s| s.bytes.ends_with(b"\r\n"))
                        .count()
                };
                if unplug_after.is_some_and(|n| lines_so_far(i) == n) {
                    // Time for the reader to take the lines: a hang-up flushes what it has not.
                    std::thread::sleep(Duration::from_millis(100));
                    unplug.store(true, Ordering::Relaxed);
                    return;
                }
                // `--reset-after-line` counts replayed lines (CRLF-terminated writes).
                if let Some(n) = reset_after {
                    if resets == 0 && lines_so_far(i) == n {
                        resets += 1;
                        i = 0;
                    }
                }
            }
            if let Some((mut target, mut r)) = shell {
                target.serve(start, &mut r, &mut w, &st);
            }
        });
        self.replay = Some((stop, h));
        Ok(())
    }
}

/// The 62.5 MHz generic timer of QEMU virt.
const CNTFRQ: u64 = 62_500_000;

/// A booted quiet board's shell: its kept records, and its clocks' zeros after power-on.
struct Target {
    dmesg: Vec<String>,
    bootstage: Vec<String>,
    printk_offset: f64,
    counter_offset: f64,
    /// Lines written to the kernel log since the boot, `(printk, text)`.
    kmsg: Vec<(f64, String)>,
}

impl Target {
    fn load(dir: &Path, printk_offset: f64, counter_offset: f64) -> Result<Target, String> {
        let read = |name: &str| {
            std::fs::read_to_string(dir.join(name))
                .map(|t| t.lines().map(str::to_string).collect())
                .map_err(|e| format!("{}: {e}", dir.join(name).display()))
        };
        Ok(Target {
            dmesg: read("dmesg.txt")?,
            bootstage: read("bootstage.txt")?,
            printk_offset,
            counter_offset,
            kmsg: Vec::new(),
        })
    }

    /// A command's output lines and exit status, at `t` seconds after power-on.
    fn run(&mut self, command: &str, t: f64) -> (Vec<String>, i32) {
        let printk = t - self.printk_offset;
        match command {
            WIDE => (vec![], 0),
            SYNC => {
                self.kmsg.push((printk, SYNC_MARK.to_string()));
                (vec![], 0)
            }
            COUNTER => {
                let count = ((t - self.counter_offset) * CNTFRQ as f64) as u64;
                let line = format!("{COUNTER_MARK} cntvct {count} cntfrq {CNTFRQ}");
                self.kmsg.push((printk, line.clone()));
                (vec![line, format!("{:.2} 0.00", printk)], 0)
            }
            DMESG => {
                let mut out = self.dmesg.clone();
                out.extend(self.kmsg.iter().map(|(ts, m)| format!("[{ts:12.6}] {m}")));
                (out, 0)
            }
            BOOTSTAGE => (self.bootstage.clone(), 0),
            other => {
                let word = other.split_whitespace().next().unwrap_or_default();
                (vec![format!("-sh: {word}: not found")], 127)
            }
        }
    }

    /// Answers the console from the login prompt on: echoes what is typed, logs in whoever
    /// gives a name, runs each line (`<command>; echo "<exit word>"" <n> $?"`).
    fn serve(&mut self, start: Instant, r: &mut TTYPort, w: &mut TTYPort, stop: &AtomicBool) {
        use std::io::Read;
        let _ = r.set_timeout(Duration::from_millis(20));
        let mut logged_in = false;
        let mut line = Vec::new();
        let mut buf = [0u8; 256];
        while !stop.load(Ordering::Relaxed) {
            let n = match r.read(&mut buf) {
                Ok(0) => continue,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::TimedOut => continue,
                Err(_) => return,
            };
            for &b in &buf[..n] {
                if b != b'\r' {
                    line.push(b);
                    let _ = w.write_all(&[b]);
                    continue;
                }
                let typed = String::from_utf8_lossy(&line).trim().to_string();
                line.clear();
                let mut out = String::from("\r\n");
                if !logged_in {
                    if typed.is_empty() {
                        out.push_str("perfguide-qemu login: ");
                    } else {
                        logged_in = true;
                        out.push_str("# ");
                    }
                } else if let Some((command, exit)) = typed.split_once("; echo ") {
                    let (lines, status) = self.run(command, start.elapsed().as_secs_f64());
                    for l in lines {
                        out.push_str(&l);
                        out.push_str("\r\n");
                    }
                    out.push_str(&exit.replace('"', "").replace("$?", &status.to_string()));
                    out.push_str("\r\n# ");
                } else {
                    out.push_str("# ");
                }
                let _ = w.write_all(out.as_bytes());
            }
        }
    }
}

/// A new pty pair, its slave linked as `DIR/tty`.
fn plug(dir: &Path) -> Result<(TTYPort, TTYPort), String> {
    let (master, slave) = TTYPort::pair().map_err(|e| format!("pty: {e}"))?;
    let slave_name = slave.name().ok_or("pty has no name")?;
    let link = dir.join("tty");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(slave_name, &link).map_err(|e| e.to_string())?;
    Ok((master, slave))
}

fn usb_log(dir: &Path, what: &str) {
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("usb.log"))
    {
        let _ = writeln!(f, "{what}");
    }
}

fn serve(o: Opts) -> Result<(), String> {
    std::fs::create_dir_all(&o.dir).map_err(|e| e.to_string())?;
    steps(&o)?; // validate the log early
    let pty = plug(&o.dir)?;
    let slave_name = pty.1.name().ok_or("pty has no name")?;
    let ctl = o.dir.join("ctl");
    let _ = std::fs::remove_file(&ctl);
    let listener = UnixListener::bind(&ctl).map_err(|e| format!("{}: {e}", ctl.display()))?;
    let lifetime = Duration::from_secs_f64(o.lifetime);
    let started = Instant::now();
    listener.set_nonblocking(true).map_err(|e| e.to_string())?;
    let mut board = Board {
        pty: Some(pty),
        opts: o.clone(),
        replay: None,
        power_ons: 0,
        unplug: Arc::new(AtomicBool::new(false)),
    };
    std::fs::write(o.dir.join("ready"), slave_name.as_bytes()).map_err(|e| e.to_string())?;
    let mut replug_at: Option<Instant> = None;
    while started.elapsed() < lifetime {
        if board.unplug.swap(false, Ordering::Relaxed) {
            board.off();
            // The path goes, then both ends close: a reader of the slave sees a hang-up.
            let _ = std::fs::remove_file(o.dir.join("tty"));
            board.pty = None;
            usb_log(&o.dir, "unplugged");
            replug_at = Some(Instant::now() + Duration::from_secs_f64(o.unplug_for));
        }
        if replug_at.is_some_and(|t| Instant::now() >= t) {
            replug_at = None;
            board.pty = Some(plug(&o.dir)?);
            usb_log(&o.dir, "replugged");
        }
        match listener.accept() {
            Ok((s, _)) => {
                let _ = s.set_nonblocking(false);
                let _ = handle(&mut board, s, &o.dir);
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(2));
            }
            Err(e) => return Err(e.to_string()),
        }
    }
    board.off();
    Ok(())
}

fn handle(board: &mut Board, s: UnixStream, dir: &Path) -> std::io::Result<()> {
    let mut r = BufReader::new(s.try_clone()?);
    let mut line = String::new();
    r.read_line(&mut line)?;
    let cmd = line.trim();
    let mut w = s;
    let res = match cmd {
        "on" => board.on(),
        "off" => {
            board.off();
            Ok(())
        }
        other => Err(format!("unknown command {other:?}")),
    };
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("power.log"))?;
    writeln!(f, "{cmd}")?;
    match res {
        Ok(()) => w.write_all(b"ok\n"),
        Err(e) => w.write_all(format!("error {e}\n").as_bytes()),
    }
}

fn power(what: &str, dir: &Path) -> Result<(), String> {
    let ctl = dir.join("ctl");
    let mut s =
        UnixStream::connect(&ctl).map_err(|e| format!("no board at {}: {e}", ctl.display()))?;
    s.write_all(format!("{what}\n").as_bytes())
        .map_err(|e| e.to_string())?;
    let mut answer = String::new();
    BufReader::new(s)
        .read_line(&mut answer)
        .map_err(|e| e.to_string())?;
    if answer.trim() == "ok" {
        Ok(())
    } else {
        Err(answer.trim().to_string())
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let res = match args.first().map(String::as_str) {
        Some("power") if args.len() == 3 => power(&args[1], Path::new(&args[2])),
        Some("serve") => parse_serve(&args[1..]).and_then(serve),
        _ => {
            Err("usage: perfguide-simboard serve --dir D --log FILE [...] | power on|off D".into())
        }
    };
    match res {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("perfguide-simboard: {e}");
            ExitCode::FAILURE
        }
    }
}

fn parse_serve(a: &[String]) -> Result<Opts, String> {
    let mut o = Opts {
        scale: 1.0,
        lifetime: 300.0,
        from_line: 1,
        unplug_in_power_on: 1,
        unplug_for: 1.0,
        ..Opts::default()
    };
    let mut i = 0;
    let val = |i: usize| {
        a.get(i + 1)
            .cloned()
            .ok_or(format!("{} needs a value", a[i]))
    };
    let num = |s: String| s.parse::<f64>().map_err(|e| format!("{s}: {e}"));
    while i < a.len() {
        match a[i].as_str() {
            "--dir" => o.dir = PathBuf::from(val(i)?),
            "--log" => o.log = PathBuf::from(val(i)?),
            "--from-line" => o.from_line = num(val(i)?)? as usize,
            "--to-line" => o.to_line = num(val(i)?)? as usize,
            "--scale" => o.scale = num(val(i)?)?,
            "--lifetime" => o.lifetime = num(val(i)?)?,
            "--panic-after-line" => o.panic_after = Some(num(val(i)?)? as usize),
            "--reset-after-line" => o.reset_after = Some(num(val(i)?)? as usize),
            "--unplug-after-line" => o.unplug_after = Some(num(val(i)?)? as usize),
            "--unplug-in-power-on" => o.unplug_in_power_on = num(val(i)?)? as usize,
            "--unplug-for" => o.unplug_for = num(val(i)?)?,
            "--shell" => o.shell = Some(PathBuf::from(val(i)?)),
            "--printk-offset" => o.printk_offset = num(val(i)?)?,
            "--counter-offset" => o.counter_offset = num(val(i)?)?,
            "--silent" => {
                o.silent = true;
                i += 1;
                continue;
            }
            "--garbage" => {
                o.garbage = true;
                i += 1;
                continue;
            }
            other => return Err(format!("unknown option {other}")),
        }
        i += 2;
    }
    if o.dir.as_os_str().is_empty() || o.log.as_os_str().is_empty() {
        return Err("serve needs --dir and --log".into());
    }
    Ok(o)
}
