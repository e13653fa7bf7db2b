//! `perfguide lava job` (a LAVA job definition that boots a board N times and runs its
//! benchmarks) and `perfguide lava results` (a run directory's figures as LAVA test cases).

use super::write_stdout;
use anyhow::{bail, Context, Result};
use perfguide::image::{image_dir, ImageArtifacts};
use perfguide::lava::job::{job_yaml, BenchStep, JobOptions};
use perfguide::lava::results::{cases, shell_lines};
use perfguide::profile::Board;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

/// `perfguide lava` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum LavaCommand {
    /// Write a LAVA job definition (YAML) that boots the board N times and, with --bench,
    /// runs a suite of its benchmarks with perfguide-bench after the last boot.
    Job(JobArgs),
    /// A run directory's figures (boots.jsonl, bench.jsonl) as LAVA test cases.
    Results(ResultsArgs),
}

/// Arguments of `perfguide lava job`.
#[derive(clap::Args, Debug)]
#[command(after_long_help = "\
The device type, the boot method and the timeout of a boot come from the profile's [lava]
table, the login and shell prompts from its [login] table (root, `login:` and `#` by default):

  [lava]
  device_type = \"qemu\"        # a LAVA device type
  boot_method = \"qemu\"        # qemu | minimal | u-boot
  boot_commands = [...]       # u-boot only: the boot action's commands
  prompts = ['# $']           # default: [login] prompt
  boot_timeout_s = 300

N boots are N boot actions in sequence, each from power-on (LAVA's job schema has no block
that repeats actions; an action's `repeat` is its retries on failure). `minimal` boots the
image on the board untouched: LAVA switches the board on and waits for the login prompt. A
QEMU board (`qemu`) gets a deploy action with its image files: `[qemu] args` are split into
what LAVA's qemu device type sets (machine, CPU, memory: job context) and image arguments
(`image_arg`, with the `{role}` placeholder). The files' URLs are --image ROLE=URL, by
default file:// URLs of the image `perfguide image build` left in the cache (the worker
must see them).

With --bench, the last boot fetches LAVA's test overlay (busybox wget and tar) and a test
action runs `perfguide-bench run --repeat R SUITE`; its console output in LAVA's log.yaml is
read by `perfguide bench parse log.yaml`, the boots by `perfguide parse log.yaml`.

Examples:
  perfguide lava job --board qemu-arm64 --cycles 10 -o boot10.yaml
  perfguide lava job --board am62xx-evm --cycles 5 --bench openssl --runs 3
  lavacli jobs submit boot10.yaml")]
pub struct JobArgs {
    /// Built-in board profile (see `perfguide boards`).
    #[arg(long, short = 'b', required_unless_present = "board_file")]
    pub board: Option<String>,
    /// A board profile file (TOML, same keys as images/boards/*.toml).
    #[arg(long, value_name = "PATH", conflicts_with = "board")]
    pub board_file: Option<PathBuf>,
    /// Boots, each from power-on.
    #[arg(long, short = 'n')]
    pub cycles: u32,
    /// A suite of perfguide-bench to run after the last boot (`perfguide-bench suites`).
    #[arg(long, value_name = "SUITE")]
    pub bench: Option<String>,
    /// Runs of each benchmark of the suite.
    #[arg(long, default_value_t = 1, requires = "bench")]
    pub runs: u32,
    /// Seconds the benchmark test action may take.
    #[arg(long, default_value_t = 3600, requires = "bench")]
    pub bench_timeout_s: u64,
    /// An image file's URL as ROLE=URL (QEMU boards: u_boot, disk, uboot_env).
    #[arg(long = "image", value_name = "ROLE=URL")]
    pub images: Vec<String>,
    /// Image cache of `perfguide image build`, for the default image URLs.
    #[arg(long, value_name = "DIR")]
    pub cache: Option<PathBuf>,
    /// Write the job here instead of stdout.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// Output formats of `perfguide lava results`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultsFormat {
    /// A YAML list of test cases (`case`, `result`, `measurement`, `units`), as LAVA's
    /// results hold them: to read, keep or compare beside a LAVA job's own results.
    Yaml,
    /// The same list as JSON, for scripts.
    Json,
    /// `lava-test-case NAME --result R --measurement M --units U` lines: run in a LAVA test
    /// shell (e.g. `perfguide lava results RUN --format shell | sh`) they report perfguide's
    /// figures as the job's own test cases.
    Shell,
}

/// Arguments of `perfguide lava results`.
#[derive(clap::Args, Debug)]
#[command(after_long_help = "\
Cases: boot.cycle-NNNN (fail when the cycle failed; power-on to ready), boot.cycle-NNNN.STAGE
(each stage of each cycle), boot.STAGE.mean and boot.total.mean (over the ok cycles), and
bench.SUITE.NAME.METRIC.mean (each benchmark metric of bench.jsonl, over its runs). Boot
figures are in seconds. Names and units keep to [-_a-zA-Z0-9.], other characters become `_`.")]
pub struct ResultsArgs {
    /// A run directory (`perfguide boot-loop --out`, `perfguide bench --out`).
    pub run: PathBuf,
    /// Output format.
    #[arg(long, short, value_enum, default_value_t = ResultsFormat::Yaml)]
    pub format: ResultsFormat,
}

/// Runs the subcommand.
pub fn run(c: LavaCommand) -> Result<ExitCode> {
    match c {
        LavaCommand::Job(a) => job(a),
        LavaCommand::Results(a) => results(a),
    }
}

fn job(a: JobArgs) -> Result<ExitCode> {
    let board = match (&a.board_file, &a.board) {
        (Some(f), _) => Board::from_file(f)?,
        (None, Some(b)) => Board::builtin(b)?,
        (None, None) => bail!("give --board or --board-file"),
    };
    let mut images = BTreeMap::new();
    for spec in &a.images {
        let Some((role, url)) = spec.split_once('=') else {
            bail!("--image {spec:?}: expected ROLE=URL, e.g. disk=https://lab/images/disk.img");
        };
        images.insert(role.to_string(), url.to_string());
    }
    if board.is_qemu() {
        let cache = a.cache.clone().unwrap_or_else(perfguide::image::cache_dir);
        let built = ImageArtifacts::in_dir(&image_dir(board.name(), &cache));
        for (role, path) in built.roles() {
            let wanted = board
                .qemu()?
                .args
                .iter()
                .any(|arg| arg.contains(&format!("{{{role}}}")));
            if wanted {
                images
                    .entry(role.to_string())
                    .or_insert_with(|| format!("file://{}", path.display()));
            }
        }
    }
    let o = JobOptions {
        cycles: a.cycles,
        bench: a.bench.map(|suite| BenchStep {
            suite,
            runs: a.runs,
            timeout_s: a.bench_timeout_s,
        }),
        images,
    };
    let yaml = job_yaml(&board, &o)?;
    match &a.out {
        Some(f) => std::fs::write(f, &yaml).with_context(|| format!("writing {}", f.display()))?,
        None => write_stdout(yaml.as_bytes())?,
    }
    Ok(ExitCode::SUCCESS)
}

fn results(a: ResultsArgs) -> Result<ExitCode> {
    let c = cases(&a.run)?;
    let text = match a.format {
        ResultsFormat::Yaml => serde_yaml::to_string(&c)?,
        ResultsFormat::Json => serde_json::to_string_pretty(&c)? + "\n",
        ResultsFormat::Shell => shell_lines(&c),
    };
    write_stdout(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
