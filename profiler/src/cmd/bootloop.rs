//! `perfguide boot-loop`: power-cycle a board N times with host-timestamped console capture.

use super::open::{
    hash_images, latency_timer, new_manifest, now_rfc3339, open_target, shell_path, BoardArgs,
};
use anyhow::{bail, Context};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use perfguide::bootloop::{run_loop, LoopEnd, LoopOptions};
use perfguide::lab::Target;
use perfguide::profile::{Board, ConsoleMode};
use perfguide::rundir::{CycleRecord, ImageFile, Resume, RunDir, RunManifest};
use perfguide::table::write_loop_summary;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

const AFTER_HELP: &str = "\
What one cycle does:
  power off -> wait the profile's settle time -> open cycle-NNNN.log -> power on (t = 0)
  -> read the console until the board's ready pattern (profile `ready`, a login prompt by
  default) or --timeout -> parse the capture into stages -> append the cycle to boots.jsonl.
  The console is opened once, before the first power-on, and stays open across cycles, so
  the first bytes after power-on are never lost. A serial console on a USB serial adapter
  gets its latency timer set to 1 ms (sysfs latency_timer; a warning when it cannot be, as
  stamps may then be late by up to its value; both values in run.json).

What it writes in --out:
  run.json          board, its profile, image file sha256s, host, tool version, start time,
                    arguments (and every --resume)
  cycle-NNNN.log    raw capture, `[<seconds since power-on> <delta>] <text>` (grabserial -t
                    format, %.6f), each line stamped when its FIRST byte arrived, flushed per
                    line; bytes that are not UTF-8 are kept as \\xNN
  cycle-NNNN.collect.log  the session that read the target's records back (quiet cycles,
                    --collect), same format and clock
  boots.jsonl       one perfguide/boot/v1 object per cycle: the parsed boot plus `cycle`,
                    `status` (ok | failed), `failure` {reason, detail}, `host` timing

A failed cycle is recorded with its partial log and the loop goes on. Reasons: timeout (no
ready pattern in time), no-output (not one byte), kernel-panic, unexpected-reset (a first-stage
banner again, or QEMU exiting by itself), power (a power command failed; 3 in a row stop the
loop), console (it could not be opened, or it went away during the capture, such as a USB
serial adapter re-enumerating: the capture has a gap; the console is reopened, waiting up to
10 s for it to come back, and the loop goes on).

An error that stops the loop (a file of --out that cannot be written, e.g. a full file
system) names the file; the board is powered off and boots.jsonl holds only whole records, so
--resume continues once there is room.

Ctrl-C ends the current cycle's capture, powers the board off and stops; the cut cycle has no
record. `--resume` continues: every cycle with a record in boots.jsonl is kept as it is, the
log of the cut cycle is moved aside to cycle-NNNN.log.incomplete and that cycle is redone.

Boards: `perfguide boards` lists the built-in profiles. A real board needs its power commands:
copy a profile, fill in [power] (argv lists, no shell unless you write sh -c) and [console],
and pass it with --board-file:
  [power]   driver = \"command\", on = [\"usbrelay\", \"RELAY_1=1\"], off = [\"usbrelay\", \"RELAY_1=0\"], settle_s = 2.0
  [console] kind = \"serial\", device = \"/dev/ttyUSB0\", baud = 115200
            (or kind = \"tcp\", address = \"lab:3001\"; or kind = \"command\", argv = [...])

A board in a labgrid farm: --place P (the profile's stages and patterns, the place's power and
console; the coordinator from the profile's [power] coordinator, else LG_COORDINATOR). The place
is acquired for the run and released at its end, after an error or Ctrl-C/SIGTERM; a run killed
outright leaves it held, and the next run on this host releases it and says so. Power goes
through `labgrid-client -v power on|off`; t = 0 is the switch as labgrid's step log reports it
(the client's ~1 s of start-up before it is not the board's). The console is the exporter's
network serial port (ser2net telnet), connected before the first power-on. --place A --place B
runs the places at once, each in --out/PLACE, and writes the guide of all of them into --out.

Quiet console (--console quiet|both): a quiet cycle boots with the kernel's `quiet` and U-Boot's
silent console, and still ends at the ready line on the host clock. Then perfguide logs in as
[login] says and reads back, into cycle-NNNN.collect.log: a marker written to the kernel log
with the generic timer read (perfguide-counter) in one command, which ties the printk and the
bootstage clocks to the host clock within half that command's round trip (the record's
`alignment`), dmesg, the bootstage records of /proc/device-tree/bootstage, /proc/uptime and
systemd-analyze. The stages are rebuilt from them, each `derived`; the record says `console`.
Quiet hides everything before the kernel that leaves no record: without bootstage in the device
tree there is no U-Boot stage, and without the generic timer no ROM stage. --console both runs
odd cycles loud and even ones quiet (boards that switch at will: the QEMU board); `perfguide
report` then shows each stage loud and quiet, and the console's cost measured beside its
projection from the bytes printed.

Exit status: 0 every cycle ok, 1 some cycle failed, 130 stopped by Ctrl-C, 2 error.

Examples:
  perfguide image build --board qemu-arm64
  perfguide boot-loop --board qemu-arm64 --cycles 5 --out runs/qemu
  perfguide boot-loop --out runs/qemu --resume
  perfguide boot-loop --board qemu-arm64 --console both --cycles 10 --out runs/qemu-quiet
  perfguide boot-loop --board-file my-am62.toml --cycles 50 --timeout 60 --out runs/am62
  LG_COORDINATOR=lab:20408 perfguide boot-loop --board j721e-evm --place j7-1 --place j7-2 -n 50 --out runs/j7";

/// Arguments of `perfguide boot-loop`.
#[derive(clap::Args, Debug)]
#[command(after_long_help = AFTER_HELP)]
pub struct BootLoopArgs {
    #[command(flatten)]
    pub target: BoardArgs,
    /// Power cycles to run [default: 5] (with --resume: the run's total, default the run's).
    #[arg(long, short = 'n')]
    pub cycles: Option<u32>,
    /// Run directory (created). Default: runs/<board>-<date>-<time>.
    #[arg(long, short = 'o', value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Continue the run in --out: keep completed cycles, redo the one that was cut short.
    #[arg(long)]
    pub resume: bool,
    /// Seconds from power-on to the ready pattern before a cycle counts as timed out
    /// [default: 120] (with --resume: the run's).
    #[arg(long, value_name = "S")]
    pub timeout: Option<f64>,
    /// Print console lines on stderr as they arrive (instead of the progress bar).
    #[arg(long)]
    pub show_console: bool,
    /// The boot's console: loud (timed from the console), quiet (kernel `quiet`, U-Boot
    /// silent: the boot as it ships; after the login prompt perfguide logs in and reads the
    /// stages back from the target), or both (odd cycles loud, even quiet: the console's
    /// cost measured) [default: the profile's [boot_loop] console, else loud].
    #[arg(long, value_enum, value_name = "MODE")]
    pub console: Option<ConsoleMode>,
    /// Read the target's records back after loud cycles too (quiet cycles always are): checks
    /// the clock alignment against the console's own stamps.
    #[arg(long)]
    pub collect: bool,
}

const DEFAULT_CYCLES: u32 = 5;
const DEFAULT_TIMEOUT_S: f64 = 120.0;

/// Runs the subcommand.
pub fn run(a: BootLoopArgs) -> anyhow::Result<ExitCode> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    check_args(&a)?;
    if a.target.places.len() > 1 {
        return super::places::run(&a.target.places, a.out.as_deref(), a.resume);
    }

    // The run directory first: on --resume it names the board and the profile.
    let existing = existing_run(&a)?;
    let (board, files, mut target) = open_target(&a.target, existing.as_ref())?;
    let profile = &board.profile;
    let cycles = a
        .cycles
        .or(existing.as_ref().map(|m| m.cycles))
        .unwrap_or(DEFAULT_CYCLES);
    let timeout_s = a
        .timeout
        .or(existing.as_ref().map(|m| m.timeout_s))
        .unwrap_or(DEFAULT_TIMEOUT_S);
    let opts = loop_options(&a, &board, &target, timeout_s)?;
    let images = hash_images(&files)?;
    let mut run = if a.resume {
        resume_run(&a, &board, &target, &args, images, cycles, timeout_s)?
    } else {
        let out = a.out.clone().unwrap_or_else(|| {
            PathBuf::from("runs").join(format!(
                "{}-{}",
                profile.name,
                chrono::Local::now().format("%Y%m%d-%H%M%S")
            ))
        });
        RunDir::create(
            &out,
            new_manifest(&board, images, &target, &args, cycles, timeout_s),
        )?
    };
    let stop = stop_on_ctrl_c();

    eprintln!(
        "perfguide: boot loop of {} in {}: cycles {}..={}, timeout {} s; power: {}; console: {}",
        profile.name,
        run.path().display(),
        run.next_cycle(),
        cycles,
        timeout_s,
        target.power.describe(),
        target.console.describe()
    );
    let mut progress = Progress::start(&run, &profile.name, cycles, a.show_console);
    let end = run_loop(
        &mut target,
        &mut run,
        profile,
        cycles,
        &opts,
        stop.clone(),
        &mut |r: &CycleRecord| progress.cycle(r),
    );
    progress.pb.finish_and_clear();
    let end = end.with_context(|| {
        format!(
            "boot loop stopped in cycle {} ({} completed cycles kept; once the cause is fixed, \
             continue with: perfguide boot-loop --out {} --resume)",
            run.next_cycle(),
            run.records().len(),
            shell_path(run.path())
        )
    })?;

    write_loop_summary(&mut std::io::stdout().lock(), run.records())?;
    if opts.console != ConsoleMode::Loud {
        super::guide::write_guide(&[run.path().to_path_buf()], run.path())?;
    }
    println!("run: {}", run.path().display());
    drop(target);
    match end {
        LoopEnd::Interrupted(c) => {
            eprintln!(
                "perfguide: stopped during cycle {c}; continue with: perfguide boot-loop --out {} --resume",
                shell_path(run.path())
            );
            Ok(ExitCode::from(130))
        }
        LoopEnd::Done if run.records().iter().any(|r| r.failure.is_some()) => Ok(ExitCode::from(1)),
        LoopEnd::Done => Ok(ExitCode::SUCCESS),
    }
}

/// The arguments a loop cannot start with.
fn check_args(a: &BootLoopArgs) -> anyhow::Result<()> {
    if let Some(t) = a.timeout {
        if !(t.is_finite() && t > 0.0) {
            bail!("--timeout must be a positive number of seconds, not {t}");
        }
    }
    if a.cycles == Some(0) {
        bail!("--cycles must be at least 1");
    }
    Ok(())
}

/// With --resume, the manifest of the run to continue.
fn existing_run(a: &BootLoopArgs) -> anyhow::Result<Option<RunManifest>> {
    if !a.resume {
        return Ok(None);
    }
    let out = a
        .out
        .as_ref()
        .context("--resume needs --out DIR (the run to continue)")?;
    let p = out.join("run.json");
    let text = std::fs::read_to_string(&p)
        .with_context(|| format!("{} holds no run to resume", out.display()))?;
    Ok(Some(serde_json::from_str(&text).with_context(|| {
        format!("{} is not a perfguide run.json", p.display())
    })?))
}

/// The loop's options from the arguments and the board; refuses a console mode the board
/// cannot switch to, warns of one it can only boot as built.
fn loop_options(
    a: &BootLoopArgs,
    board: &Board,
    target: &Target,
    timeout_s: f64,
) -> anyhow::Result<LoopOptions> {
    let profile = &board.profile;
    let mut opts = LoopOptions::for_profile(profile, Duration::from_secs_f64(timeout_s))?;
    opts.echo = a.show_console;
    opts.console = a
        .console
        .or(board.lab.boot_loop.as_ref().map(|b| b.console))
        .unwrap_or_default();
    opts.collect_loud = a.collect;
    opts.login = board.login();

    match opts.console {
        ConsoleMode::Both if !target.power.switches_quiet() => bail!(
            "--console both needs a board that boots loud or quiet at will (the QEMU board with \
             its U-Boot environment flash images); {} boots as its image was built: run a loud \
             and a quiet image (PERFGUIDE_CONSOLE = \"quiet\" in the Yocto layer) as two runs \
             and put both in `perfguide report`",
            profile.name
        ),
        ConsoleMode::Quiet if !target.power.switches_quiet() => eprintln!(
            "perfguide: {} cannot be switched to quiet: its image must be built quiet (kernel \
             `quiet`, U-Boot silent); perfguide logs in after each boot to read the stages back",
            profile.name
        ),
        _ => {}
    }
    Ok(opts)
}

/// The run directory of --out reopened to continue: this resume noted in run.json, with the
/// image files when they differ from the first part's.
fn resume_run(
    a: &BootLoopArgs,
    board: &Board,
    target: &Target,
    args: &[String],
    images: Vec<ImageFile>,
    cycles: u32,
    timeout_s: f64,
) -> anyhow::Result<RunDir> {
    let out = a.out.clone().unwrap_or_default();
    let mut r = RunDir::resume(
        &out,
        &board.profile.name,
        Resume {
            at: now_rfc3339(),
            args: args.to_vec(),
            from_cycle: 0,
            latency_timer: latency_timer(target),
        },
    )?;
    let m = r.manifest_mut();
    if m.images != images {
        eprintln!("perfguide: warning: the image files differ from the run's first part (both are in run.json)");
        m.images.extend(images.iter().cloned().map(|mut i| {
            i.role = format!("{} (resume {})", i.role, m.resumes.len());
            i
        }));
    }
    m.cycles = cycles;
    m.timeout_s = timeout_s;
    r.write_manifest()?;
    for p in &r.moved_aside {
        eprintln!("perfguide: cut-short capture kept as {}", p.display());
    }
    Ok(r)
}

/// The flag Ctrl-C sets (the loop ends after the cycle it is in); a second Ctrl-C exits at
/// once.
fn stop_on_ctrl_c() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            eprintln!("\nperfguide: stopped hard (the board may still be powered)");
            std::process::exit(130);
        }
    });
    stop
}

/// The loop's progress: a bar on a terminal, and a line per cycle.
struct Progress {
    pb: ProgressBar,
    tty: bool,
    cycles: u32,
    boot_times: Vec<f64>,
    failed: usize,
}

impl Progress {
    /// The bar of a run of `cycles`, at the cycles `run` already holds.
    fn start(run: &RunDir, name: &str, cycles: u32, show_console: bool) -> Progress {
        let done_before = run.records().len() as u64;
        let tty = std::io::stderr().is_terminal() && !show_console;
        let pb =
            ProgressBar::with_draw_target(Some(u64::from(cycles)), ProgressDrawTarget::hidden());
        if tty {
            pb.set_style(
                ProgressStyle::with_template(
                    "{prefix} [{bar:28.cyan/blue}] {pos}/{len} cycles  elapsed {elapsed}  ETA {eta}  {msg}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
            );
        }
        pb.set_prefix(name.to_string());
        pb.set_position(done_before.min(u64::from(cycles)));
        pb.set_message(format!("cycle {} booting", run.next_cycle()));
        pb.reset_eta();
        if tty {
            pb.set_draw_target(ProgressDrawTarget::stderr());
            // Elapsed time moves while a board boots.
            pb.enable_steady_tick(Duration::from_millis(250));
        }
        Progress {
            pb,
            tty,
            cycles,
            boot_times: run
                .records()
                .iter()
                .filter(|r| r.failure.is_none())
                .filter_map(|r| r.host.ready_s)
                .collect(),
            failed: run.records().iter().filter(|r| r.failure.is_some()).count(),
        }
    }

    /// A cycle ended: the bar's mean and failures, and the cycle's line.
    fn cycle(&mut self, r: &CycleRecord) {
        let cycles = self.cycles;
        if let Some(t) = r.host.ready_s.filter(|_| r.failure.is_none()) {
            self.boot_times.push(t);
        }
        if r.failure.is_some() {
            self.failed += 1;
        }
        let mean = if self.boot_times.is_empty() {
            "-".to_string()
        } else {
            format!(
                "{:.3} s",
                self.boot_times.iter().sum::<f64>() / self.boot_times.len() as f64
            )
        };
        let next = if r.cycle < cycles {
            format!(", cycle {} booting", r.cycle + 1)
        } else {
            String::new()
        };
        self.pb
            .set_message(format!("mean boot {mean}, failed {}{next}", self.failed));
        self.pb.inc(1);
        let line = match &r.failure {
            None => format!(
                "cycle {}/{}: ok, ready at {:.3} s ({} lines)",
                r.cycle,
                cycles,
                r.host.ready_s.unwrap_or(f64::NAN),
                r.host.lines
            ),
            Some(f) => format!(
                "cycle {}/{}: FAILED ({}): {}",
                r.cycle,
                cycles,
                f.reason.as_str(),
                f.detail
            ),
        };
        if self.tty {
            self.pb.println(line);
        } else {
            eprintln!("{line}");
        }
    }
}
