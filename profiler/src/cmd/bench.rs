//! `perfguide bench`: boot the board, log in on its console, run the target's benchmarks with
//! `perfguide-bench`, and read their figures from the capture.

use super::open::{
    hash_images, latency_timer, new_manifest, now_rfc3339, open_target, shell_path, BoardArgs,
};
use anyhow::{bail, Context};
use perfguide::bench::parse::{read, BenchInput, Kind};
use perfguide::bench::table::BenchTable;
use perfguide::bench::{self, serve, Item, Plan, State};
use perfguide::bootloop::{run_cycle, CycleEnd, LoopOptions};
use perfguide::capture::CaptureWriter;
use perfguide::lab::Target;
use perfguide::profile::Board;
use perfguide::rundir::bench::BenchManifest;
use perfguide::rundir::{
    Resume, RunDir, RunManifest, BENCH_JSONL, BENCH_LOG, BENCH_MANIFEST, BENCH_SCHEMA,
};
use perfguide::shell::Shell;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

const AFTER_HELP: &str = "\
What it does:
  power on and boot as one boot-loop cycle (recorded in boots.jsonl, cycle-NNNN.log), or use
  the board as it is with --no-power -> log in on the console as the profile's [login] says
  (default: user root, no password, a prompt ending in # or $) -> check perfguide-bench is
  there -> the profile's [bench] setup lines (e.g. mount the storage fio writes to; one that
  fails is a warning) -> `perfguide-bench list --all` -> for each selected benchmark
  `perfguide-bench run --repeat N ID` with the profile's [bench] env and --env, stopped with
  Ctrl-C at --bench-timeout -> power off -> read the capture.

What it writes in --out (a new directory, or the run directory of an earlier boot-loop, so
that one directory holds the whole guide):
  bench.log     the console session, `[<seconds> <delta>] <text>` like the cycle logs
  bench.jsonl   one perfguide/bench/v1 object per metric (see `perfguide bench parse`)
  bench.json    runner version, plan, and how each benchmark ended: ok, failed (exited
                non-zero, output kept in bench.log), timed-out, not-available (not installed
                on the target, or a network benchmark without --server)

A benchmark that fails, times out or is missing does not stop the others. Ctrl-C stops at once
(QEMU with it): bench.log keeps every line already received, and `perfguide bench parse
DIR/bench.log` reads its figures.

[bench] in a board profile (both optional):
  setup = [\"modprobe virtio_blk\", \"mount /dev/vda2 /mnt/scratch\"], env = { PERFGUIDE_FIO_DIR =
  \"/mnt/scratch\" }   (--env NAME=VALUE overrides a variable of env)

[login] in a board profile (every key optional):
  user = \"root\", password = \"...\", prompt = '[#$]\\s*$', login_prompt = '(?i)\\blogin:\\s*$',
  password_prompt = '(?i)password:\\s*$', timeout_s = 30

Exit status: 0 every benchmark ran and exited 0 (or was not available), 1 some failed or timed
out, or the boot failed, 2 error.

Examples:
  perfguide bench --board qemu-arm64 --runs 3
  perfguide bench --board qemu-arm64 --suite openssl --suite stress-ng --out runs/q1
  perfguide bench --board-file my-am62.toml --no-power --bench lmbench/bw_mem-rd-1mb";

/// Arguments of `perfguide bench`: a session on a board, or a subcommand.
#[derive(clap::Args, Debug)]
#[command(after_long_help = AFTER_HELP, args_conflicts_with_subcommands = true)]
pub struct BenchArgs {
    #[command(subcommand)]
    pub command: Option<BenchCommand>,
    #[command(flatten)]
    pub session: BenchRunArgs,
}

/// The subcommands of `perfguide bench`.
#[derive(clap::Subcommand, Debug)]
pub enum BenchCommand {
    /// Read benchmark figures from console captures framed by `perfguide-bench` or from a
    /// benchmark's bare output, as `perfguide/bench/v1` JSON lines or a table.
    Parse(super::bench_parse::BenchParseArgs),
    /// Check a capture of `perfguide-bench run`: framing whole, every benchmark exited 0 and
    /// gave figures the parsers read, every expected benchmark ran. Exit 0 or 1.
    Check(super::bench_check::BenchCheckArgs),
}

/// Runs `perfguide bench` or its subcommand.
pub fn run(a: BenchArgs) -> anyhow::Result<ExitCode> {
    match a.command {
        Some(BenchCommand::Parse(p)) => super::bench_parse::run(p),
        Some(BenchCommand::Check(c)) => super::bench_check::run(c),
        None => run_session(a.session),
    }
}

/// The options of a bench session on a board.
#[derive(clap::Args, Debug)]
pub struct BenchRunArgs {
    #[command(flatten)]
    pub target: BoardArgs,
    /// A suite of the runner to run (repeatable); with neither --suite nor --bench, every
    /// benchmark of the runner's catalog.
    #[arg(long, value_name = "SUITE")]
    pub suite: Vec<String>,
    /// A benchmark id to run, `<suite>/<name>` as `perfguide-bench list` prints it
    /// (repeatable).
    #[arg(long = "bench", value_name = "ID")]
    pub bench: Vec<String>,
    /// Runs of each benchmark.
    #[arg(long, short = 'n', default_value_t = 1)]
    pub runs: u32,
    /// Directory to write into: a boot-loop run directory gains bench.*; another is created.
    /// Default: runs/<board>-bench-<date>-<time>.
    #[arg(long, short = 'o', value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Do not power the board: it is already booted and its console is at a login or shell
    /// prompt.
    #[arg(long)]
    pub no_power: bool,
    /// Peer host of the network benchmarks (iperf3, iperf2, netperf), passed to the runner.
    #[arg(long, value_name = "HOST")]
    pub server: Option<String>,
    /// Start the network benchmarks' servers (iperf3 -s, iperf -s, netserver) for the session:
    /// on this host for a real board (give --server with this host's address as the board
    /// sees it), on the target's own loopback for a QEMU board (its user network cannot reach
    /// the host).
    #[arg(long)]
    pub serve: bool,
    /// A variable for the runner on the target, NAME=VALUE (repeatable): the knobs its catalog
    /// reads, e.g. PERFGUIDE_STRESS_SECONDS=5, PERFGUIDE_NET_SECONDS=5,
    /// PERFGUIDE_OPENSSL_SECONDS=1 (`perfguide-bench show ID` on the target shows them).
    #[arg(long = "env", value_name = "NAME=VALUE")]
    pub env: Vec<String>,
    /// Seconds one benchmark (all its runs) may take before it is stopped.
    #[arg(long, value_name = "S", default_value_t = 600.0)]
    pub bench_timeout: f64,
    /// Seconds from power-on to the ready pattern.
    #[arg(long, value_name = "S", default_value_t = 120.0)]
    pub boot_timeout: f64,
    /// Print console lines on stderr as they arrive.
    #[arg(long)]
    pub show_console: bool,
}

/// How long one `[bench] setup` line may take.
const SETUP_TIMEOUT: Duration = Duration::from_secs(60);

fn positive(name: &str, v: f64) -> anyhow::Result<Duration> {
    if !(v.is_finite() && v > 0.0) {
        bail!("{name} must be a positive number of seconds, not {v}");
    }
    Ok(Duration::from_secs_f64(v))
}

/// The run directory: an earlier boot-loop's (its board and profile win) or a new one.
fn open_run(
    a: &BenchRunArgs,
    args: &[String],
) -> anyhow::Result<(perfguide::profile::Board, RunDir, Target)> {
    let existing: Option<RunManifest> = match &a.out {
        Some(out) if out.join("run.json").exists() => {
            let p = out.join("run.json");
            let text = std::fs::read_to_string(&p)
                .with_context(|| format!("cannot read {}", p.display()))?;
            Some(
                serde_json::from_str(&text)
                    .with_context(|| format!("{} is not a perfguide run.json", p.display()))?,
            )
        }
        _ => None,
    };
    let (board, files, target) = open_target(&a.target, existing.as_ref())?;
    let name = board.profile.name.clone();
    let images = hash_images(&files)?;
    let run = match (&a.out, existing) {
        (Some(out), Some(_)) => RunDir::resume(
            out,
            &name,
            Resume {
                at: now_rfc3339(),
                args: args.to_vec(),
                from_cycle: 0,
                latency_timer: latency_timer(&target),
            },
        )?,
        (out, _) => {
            let out = out.clone().unwrap_or_else(|| {
                PathBuf::from("runs").join(format!(
                    "{name}-bench-{}",
                    chrono::Local::now().format("%Y%m%d-%H%M%S")
                ))
            });
            RunDir::create(
                &out,
                new_manifest(&board, images, &target, args, 0, a.boot_timeout),
            )?
        }
    };
    if run.path().join(BENCH_JSONL).exists() || run.path().join(BENCH_LOG).exists() {
        bail!(
            "{} already holds a bench session ({BENCH_LOG}); give another --out",
            run.path().display()
        );
    }
    Ok((board, run, target))
}

/// Boots the board as the run's next cycle; `Ok(None)` when the boot failed (recorded).
fn boot(
    a: &BenchRunArgs,
    board: &perfguide::profile::Board,
    run: &mut RunDir,
    target: &mut Target,
) -> anyhow::Result<Option<u32>> {
    let mut opts =
        LoopOptions::for_profile(&board.profile, positive("--boot-timeout", a.boot_timeout)?)?;
    opts.echo = a.show_console;
    let cycle = run.next_cycle();
    let m = run.manifest_mut();
    m.cycles = m.cycles.max(cycle);
    run.write_manifest()?;
    eprintln!(
        "perfguide: booting {} (cycle {cycle} of {})",
        board.profile.name,
        run.path().display()
    );
    let never = AtomicBool::new(false);
    match run_cycle(target, run, &board.profile, cycle, &opts, &never)? {
        CycleEnd::Recorded(rec) => match &rec.failure {
            None => {
                eprintln!(
                    "perfguide: ready at {:.3} s",
                    rec.host.ready_s.unwrap_or(f64::NAN)
                );
                Ok(Some(cycle))
            }
            Some(f) => {
                eprintln!(
                    "perfguide: the boot failed ({}): {}",
                    f.reason.as_str(),
                    f.detail
                );
                Ok(None)
            }
        },
        CycleEnd::Interrupted => Ok(None),
    }
}

/// Boots the board, runs the session, reads the capture back.
fn run_session(a: BenchRunArgs) -> anyhow::Result<ExitCode> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if a.runs == 0 {
        bail!("--runs must be at least 1");
    }
    let plan = plan_of(&a)?;
    let (board, mut run, mut target) = open_run(&a, &args)?;
    let mut plan = plan;
    let board_bench = board.bench();
    let setup_lines = board_bench.setup;
    plan.env = bench::merged_env(&board_bench.env, &plan.env)
        .map_err(|e| anyhow::anyhow!("board profile {}: {e}", board.source))?;
    let serve_on_target = a.serve && board.is_qemu();
    let (_host_servers, mut network) = host_servers(&a, &board)?;
    if serve_on_target {
        plan.server = Some(serve::LOOPBACK.to_string());
        network = Some(
            "the target's loopback (QEMU's user network cannot reach the host): these figures \
             measure the guest's network stack, not a link"
                .to_string(),
        );
    }
    if a.no_power && board.is_qemu() {
        bail!(
            "--no-power: board {} is a QEMU board, whose console exists only while perfguide \
             runs QEMU",
            board.profile.name
        );
    }
    let started = now_rfc3339();
    let boot_cycle = if a.no_power {
        None
    } else {
        match boot(&a, &board, &mut run, &mut target)? {
            Some(c) => Some(c),
            None => {
                let _ = target.power.off();
                eprintln!("run: {}", run.path().display());
                return Ok(ExitCode::from(1));
            }
        }
    };

    // The session: every byte goes to bench.log as it arrives, whatever happens after.
    let log = run.path().join(BENCH_LOG);
    let writer = CaptureWriter::create(&log)?;
    let mut runner = None;
    let mut setup = Vec::new();
    let mut items: Vec<Item> = Vec::new();
    let session = (|| -> anyhow::Result<()> {
        let mut shell = Shell::new(
            target.console.as_mut(),
            Instant::now(),
            writer,
            board.login(),
            a.show_console,
        )?;
        let r = (|| -> anyhow::Result<()> {
            shell.login()?;
            let version = bench::check_runner(&mut shell)?;
            eprintln!("perfguide: {version}");
            runner = Some(version);
            setup = bench::run_setup(&mut shell, &setup_lines, SETUP_TIMEOUT)?;
            for s in setup.iter().filter(|s| !s.ok()) {
                eprintln!(
                    "perfguide: warning: [bench] setup `{}`: {} (its output is in {BENCH_LOG}); \
                     the benchmarks that need it will fail",
                    s.command,
                    match s.status {
                        Some(c) => format!("exit status {c}"),
                        None =>
                            format!("still running after {} s, stopped", SETUP_TIMEOUT.as_secs()),
                    }
                );
            }
            if serve_on_target {
                serve::start_on_target(&mut shell)?;
            }
            let mut progress = |i: usize, n: usize, it: &Item| print_progress(i, n, it);
            items = bench::run_plan(&mut shell, &plan, &mut progress)?;
            if serve_on_target {
                serve::stop_on_target(&mut shell)?;
            }
            Ok(())
        })();
        let lines = shell.finish()?;
        eprintln!("perfguide: {lines} console lines in {}", log.display());
        r
    })();
    if !a.no_power {
        if let Err(e) = target.power.off() {
            eprintln!("perfguide: warning: power off: {e}");
        }
    }
    drop(target);

    let (metrics, warnings) = read_capture(&log)?;
    let mut jsonl = Vec::new();
    for m in &metrics {
        serde_json::to_writer(&mut jsonl, &m.record(BENCH_LOG))?;
        jsonl.push(b'\n');
    }
    run.write_file(BENCH_JSONL, &jsonl)?;
    let manifest = BenchManifest {
        schema: BENCH_SCHEMA,
        board: &board.profile.name,
        started,
        finished: now_rfc3339(),
        args,
        runner,
        runs: a.runs,
        server: plan.server.as_deref(),
        network,
        boot_cycle,
        env: plan
            .env
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect(),
        setup: &setup,
        benchmarks: &items,
        error: session.as_ref().err().map(|e| format!("{e:#}")),
        metrics: metrics.len(),
        warnings: &warnings,
    };
    run.write_file(BENCH_MANIFEST, &serde_json::to_vec_pretty(&manifest)?)?;
    for w in &warnings {
        eprintln!("perfguide: warning: {w}");
    }
    let mut out = std::io::stdout().lock();
    BenchTable::of(&metrics).write_text(&mut out)?;
    writeln!(out, "run: {}", run.path().display())?;
    if let Err(e) = session {
        return Err(e.context(format!(
            "the bench session stopped early (what it captured is in {}; metrics in {})",
            shell_path(&log),
            BENCH_JSONL
        )));
    }
    let bad = items
        .iter()
        .any(|i| matches!(i.state, State::Failed | State::TimedOut));
    Ok(if bad {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The plan of `--suite`/`--bench`, `--runs`, `--server`, `--env` and `--bench-timeout`.
fn plan_of(a: &BenchRunArgs) -> anyhow::Result<Plan> {
    let env = a
        .env
        .iter()
        .map(|e| {
            bench::env_setting(e).with_context(|| {
                format!("--env {e:?}: expected NAME=VALUE with NAME a shell variable name")
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok(Plan {
        names: a.suite.iter().chain(&a.bench).cloned().collect(),
        repeat: a.runs,
        server: a.server.clone(),
        env,
        timeout: positive("--bench-timeout", a.bench_timeout)?,
    })
}

/// With `--serve` on a real board: the network benchmarks' servers started on this host, and
/// what the manifest says of the network.
fn host_servers(
    a: &BenchRunArgs,
    board: &Board,
) -> anyhow::Result<(Option<serve::HostServers>, Option<String>)> {
    if !a.serve || board.is_qemu() {
        return Ok((None, None));
    }
    let Some(server) = &a.server else {
        bail!("--serve on a real board needs --server with this host's address as the board reaches it");
    };
    let (mut servers, started) = serve::HostServers::start()
        .context("cannot start the network benchmarks' servers on this host")?;
    if started.is_empty() {
        bail!("--serve: none of iperf3, iperf, netserver is installed on this host");
    }
    std::thread::sleep(Duration::from_millis(300));
    for e in servers.exited() {
        eprintln!("perfguide: warning: server exited at once: {e}");
    }
    eprintln!(
        "perfguide: serving on this host ({server}): {}",
        started.join(", ")
    );
    let network = format!("host servers at {server}: {}", started.join(", "));
    Ok((Some(servers), Some(network)))
}

/// The metrics and warnings of the session's capture, read back whatever happened. Only what
/// the runner framed counts: a session cut before the runner ran holds other text (the
/// catalog, the login) that is no benchmark's output.
fn read_capture(log: &Path) -> anyhow::Result<(Vec<bench_parser::Metric>, Vec<String>)> {
    let text = std::fs::read(log).with_context(|| format!("cannot read {}", log.display()))?;
    Ok(match read(&String::from_utf8_lossy(&text), None) {
        Ok(BenchInput {
            kind: Kind::Framed { .. },
            metrics,
            warnings,
        }) => (
            metrics,
            warnings.iter().map(|w| w.located(BENCH_LOG)).collect(),
        ),
        _ => (Vec::new(), vec![format!("{BENCH_LOG}: no benchmark ran")]),
    })
}

/// A benchmark's line as the session goes: `[i/n] id: how (seconds)`.
fn print_progress(i: usize, n: usize, it: &Item) {
    let how = match it.state {
        State::Ok => "ok".to_string(),
        State::Failed => format!("FAILED (exit status {})", it.status.unwrap_or(-1)),
        State::TimedOut => "TIMED OUT (stopped)".to_string(),
        State::NotAvailable => {
            format!("not available ({})", it.reason.as_deref().unwrap_or("?"))
        }
    };
    eprintln!("[{i}/{n}] {}: {how} ({:.1} s)", it.id, it.duration_s);
}
