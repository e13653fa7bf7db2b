//! `perfguide parse`: console logs in, the boot stage table or `perfguide/boot-log/v1` JSON out.

use crate::mapped::MappedFile;
use anyhow::{Context, Result};
use bootlog_parser::model::{Boot, BOOT_LOG_SCHEMA};
use bootlog_parser::stats::{BootStats, Collector};
use bootlog_parser::{BoardProfile, Parser};
use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Output formats of `perfguide parse`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A stage table per boot, and statistics when there are several boots.
    Table,
    /// One `perfguide/boot-log/v1` object (streamed: memory stays flat over many boots).
    Json,
}

/// Arguments of `perfguide parse`.
#[derive(clap::Args, Debug)]
#[command(after_long_help = "\
Reads console logs as any tool captured them: perfguide's own run directories and cycle logs,
grabserial (-t, -T), minicom/picocom/tio timestamps, LAVA log.yaml, plain text. A file holding
several boots is split (a first-stage banner again, printk time going back). Figures come from
the host clock when the capture stamped lines, otherwise from the target's own clocks; a figure
the log cannot give is absent, never zero.

Examples:
  perfguide parse boot.log
  perfguide parse --board j721e-evm --format json capture.log > boot.json
  perfguide parse runs/2026-11-30/            # every cycle of a boot loop, with statistics
  grabserial -t ... | perfguide parse -

Regular files are memory-mapped and parsed window by window (memory stays flat); set
PERFGUIDE_NO_MMAP=1 to read them instead (e.g. a log another process may truncate).")]
pub struct ParseArgs {
    /// Log files, run directories (their cycle-NNNN.log files), or `-` for stdin.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Built-in board profile (see `perfguide boards`); default: generic U-Boot + Linux.
    #[arg(long, short)]
    pub board: Option<String>,
    /// A board profile TOML file instead of a built-in one.
    #[arg(long, conflicts_with = "board")]
    pub board_file: Option<PathBuf>,
    /// Output format.
    #[arg(long, short, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// Loads the board profile named by `--board` / `--board-file`, or the generic one.
pub fn load_profile(board: Option<&str>, file: Option<&Path>) -> Result<BoardProfile> {
    Ok(match (board, file) {
        (_, Some(f)) => {
            let text = std::fs::read_to_string(f)
                .with_context(|| format!("reading board profile {}", f.display()))?;
            BoardProfile::from_toml_str(&f.display().to_string(), &text)?
        }
        (Some(b), None) => BoardProfile::builtin(b)?,
        (None, None) => BoardProfile::generic(),
    })
}

/// The inputs behind one argument: a file, stdin, or a run directory's cycle logs.
fn inputs(arg: &Path) -> Result<Vec<PathBuf>> {
    if arg == Path::new("-") {
        return Ok(vec![arg.to_path_buf()]);
    }
    let meta = std::fs::metadata(arg).with_context(|| format!("{}", arg.display()))?;
    if !meta.is_dir() {
        return Ok(vec![arg.to_path_buf()]);
    }
    let mut v: Vec<PathBuf> = std::fs::read_dir(arg)
        .with_context(|| format!("{}", arg.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("cycle-") && n.ends_with(".log"))
        })
        .collect();
    v.sort();
    anyhow::ensure!(
        !v.is_empty(),
        "{}: a directory with no cycle-NNNN.log files",
        arg.display()
    );
    Ok(v)
}

/// Bytes read at a time, or the window of a mapped file dropped at a time.
const CHUNK: usize = 1 << 20;

/// Bytes handed to the parser at a time: the boots it completes go back to it (recycled) after
/// each feed, so the fewer boots a feed completes the fewer vectors and strings it allocates
/// before the first boots come back, and the fewer the parser keeps for reuse; but each feed
/// has a fixed cost (its line splitting and needle scan set up, a partial line carried over).
/// 64 KiB (about a dozen boots of a typical log) measured cheapest on the bench log: 16 KiB
/// cost 0.3% more instructions, 128 KiB 1% more (boots past what the parser's bin keeps are
/// allocated afresh), 1 MiB 5% more.
const FEED: usize = 1 << 16;

/// Streams one input through a parser, calling `each` for every boot as it completes; the
/// boot goes back to the parser afterwards, to be reused (see [`Parser::recycle`]).
pub fn parse_stream(
    path: &Path,
    profile: &BoardProfile,
    mut each: impl FnMut(&mut Boot) -> io::Result<()>,
) -> Result<()> {
    let file = if path == Path::new("-") {
        None
    } else {
        Some(File::open(path).with_context(|| format!("opening {}", path.display()))?)
    };
    // A boot loop's cycle log starts its clock at power-on.
    let power_on = path
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("cycle-") && n.ends_with(".log"));
    let mut p = Parser::new(profile).power_on_origin(power_on);
    let mapped = match &file {
        Some(f) => MappedFile::map(f).with_context(|| format!("reading {}", path.display()))?,
        None => None,
    };
    if let Some(m) = mapped {
        // A regular file: parsed straight from the page cache (see `crate::mapped`).
        m.for_each_window(CHUNK, |w| {
            w.chunks(FEED).try_for_each(|f| {
                p.feed(f);
                hand_over(&mut p, &mut each)
            })
        })?;
    } else {
        let mut reader: Box<dyn Read> = match file {
            Some(f) => Box::new(f),
            None => Box::new(io::stdin().lock()),
        };
        let mut buf = vec![0u8; CHUNK];
        loop {
            let n = match reader.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
            };
            for f in buf[..n].chunks(FEED) {
                p.feed(f);
                hand_over(&mut p, &mut each)?;
            }
        }
    }
    for mut b in p.finish() {
        each(&mut b)?;
    }
    Ok(())
}

/// Calls `each` on the boots the parser completed, handing each back when done.
fn hand_over(p: &mut Parser, each: &mut impl FnMut(&mut Boot) -> io::Result<()>) -> io::Result<()> {
    while let Some(b) = p.next_boot_mut() {
        each(b)?;
        p.recycle_front();
    }
    Ok(())
}

/// Runs the subcommand.
pub fn run(a: ParseArgs) -> Result<ExitCode> {
    let profile = load_profile(a.board.as_deref(), a.board_file.as_deref())?;
    let mut files = Vec::new();
    for f in &a.files {
        files.extend(inputs(f)?);
    }
    let mut out = BufWriter::with_capacity(1 << 16, raw_stdout());
    let r = match a.format {
        Format::Json => json(&files, &profile, &mut out),
        Format::Table => table(&files, &profile, &mut out),
    };
    match r.and_then(|()| out.flush().map_err(Into::into)) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) if is_broken_pipe(&e) => Ok(ExitCode::SUCCESS),
        Err(e) => Err(e),
    }
}

/// Stdout for bulk output: on Unix a duplicate of fd 1 as a `File`, as `io::Stdout` is line
/// buffered and scans every byte written for a newline (most of the JSON has none).
fn raw_stdout() -> Box<dyn Write> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        if let Ok(fd) = io::stdout().as_fd().try_clone_to_owned() {
            return Box::new(File::from(fd));
        }
    }
    Box::new(io::stdout())
}

/// Whether an error is a closed stdout (`perfguide parse x | head`), which is not a failure.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

fn json(files: &[PathBuf], profile: &BoardProfile, out: &mut impl Write) -> Result<()> {
    write!(
        out,
        "{{\"schema\":\"{BOOT_LOG_SCHEMA}\",\"board\":{},\"boots\":[",
        serde_json::to_string(&profile.name)?
    )?;
    let mut stats = Collector::new();
    let mut index = 0;
    // Boots' objects are written into one reused buffer, which goes out in big writes.
    const FLUSH_AT: usize = 64 * 1024;
    let mut obj = Vec::with_capacity(2 * FLUSH_AT);
    let mut parse_all = || -> Result<()> {
        for f in files {
            let tail = bootlog_parser::json::SourceTail::new(&f.display().to_string());
            parse_stream(f, profile, |b| {
                b.index = index;
                if index > 0 {
                    obj.push(b',');
                }
                index += 1;
                stats.add(b);
                bootlog_parser::json::write_tailed_boot(&mut obj, b, &tail);
                if obj.len() >= FLUSH_AT {
                    out.write_all(&obj)?;
                    obj.clear();
                }
                Ok(())
            })?;
        }
        Ok(())
    };
    let parsed = parse_all();
    if parsed.is_err() {
        // The boots parsed go out even when a later input fails, as they did boot by boot.
        out.write_all(&obj)?;
        return parsed;
    }
    // The last boots and the statistics go out in one write: a buffer of 64 KiB or more
    // goes past the `BufWriter` whole, where two smaller ones were each copied into it.
    obj.extend_from_slice(b"],\"stats\":");
    bootlog_parser::json::write_stats(&mut obj, &stats.into_stats());
    obj.extend_from_slice(b"}\n");
    out.write_all(&obj)?;
    Ok(())
}

fn fmt_opt(v: Option<f64>) -> String {
    v.map(|v| format!("{v:.6}")).unwrap_or_else(|| "-".into())
}

fn table(files: &[PathBuf], profile: &BoardProfile, out: &mut impl Write) -> Result<()> {
    let mut stats = Collector::new();
    let mut index = 0;
    for f in files {
        let source = f.display().to_string();
        parse_stream(f, profile, |b| {
            stats.add(b);
            write_boot(out, &source, index, b)?;
            index += 1;
            Ok(())
        })?;
    }
    let s = stats.stats();
    if s.boots > 1 {
        write_stats(out, &s)?;
    }
    Ok(())
}

fn write_boot(out: &mut impl Write, source: &str, index: usize, b: &Boot) -> io::Result<()> {
    writeln!(
        out,
        "== {source}: boot {index} (lines {}-{}), {}",
        b.lines.0,
        b.lines.1,
        if b.complete { "complete" } else { "INCOMPLETE" }
    )?;
    writeln!(
        out,
        "{:<10} {:>12} {:>12} {:>12}  {:<7} {:>6}",
        "stage", "start_s", "end_s", "duration_s", "clock", "line"
    )?;
    for s in &b.stages {
        writeln!(
            out,
            "{:<10} {:>12} {:>12} {:>12}  {:<7} {:>6}",
            s.id.as_str(),
            fmt_opt(s.start_s),
            fmt_opt(s.end_s),
            fmt_opt(s.duration_s),
            format!("{:?}", s.clock).to_lowercase(),
            s.line.map(|l| l.to_string()).unwrap_or_default()
        )?;
    }
    if !b.components.is_empty() {
        writeln!(out, "components:")?;
        for (k, v) in &b.components {
            writeln!(out, "  {k:<12} {v}")?;
        }
    }
    if !b.sbl_total_us.is_empty() {
        let t: Vec<String> = b.sbl_total_us.iter().map(|t| format!("{t} us")).collect();
        writeln!(
            out,
            "SBL total per run: {} ({} profile points)",
            t.join(", "),
            b.sbl_profile.len()
        )?;
    }
    if let Some(last) = b.bootstage.last() {
        writeln!(
            out,
            "bootstage: {} records, last {} at {} us ({} reports)",
            b.bootstage.len(),
            last.name,
            last.mark_us,
            b.bootstage_reports.len()
        )?;
    }
    if let Some(k) = &b.kernel {
        writeln!(
            out,
            "kernel: {} first {} init {} last {}",
            k.version.as_deref().unwrap_or("?"),
            fmt_opt(k.first_ts_s),
            fmt_opt(k.init_ts_s),
            fmt_opt(k.last_ts_s)
        )?;
    }
    if !b.initcalls.is_empty() {
        let mut v: Vec<_> = b.initcalls.iter().collect();
        v.sort_by_key(|c| std::cmp::Reverse(c.duration_us));
        writeln!(
            out,
            "initcalls: {} (slowest: {} {} us)",
            v.len(),
            v[0].name,
            v[0].duration_us
        )?;
    }
    if let Some(sd) = &b.systemd {
        writeln!(
            out,
            "systemd: kernel {} initrd {} userspace {} total {}",
            fmt_opt(sd.kernel_s),
            fmt_opt(sd.initrd_s),
            fmt_opt(sd.userspace_s),
            fmt_opt(sd.total_s)
        )?;
    }
    if let Some(l) = &b.login_prompt {
        writeln!(out, "ready: {l:?}")?;
    }
    for e in &b.errors {
        writeln!(out, "error: {e}")?;
    }
    for w in &b.warnings {
        writeln!(out, "warning: {w}")?;
    }
    writeln!(out)
}

/// Writes the per-stage statistics table (`mean (min X, max Y)`).
pub fn write_stats(out: &mut impl Write, s: &BootStats) -> io::Result<()> {
    writeln!(
        out,
        "== statistics over {} boots ({} complete), seconds",
        s.boots, s.complete
    )?;
    writeln!(
        out,
        "{:<10} {:>4}  {:<36} {:>9} {:>9} {:>9}",
        "stage", "n", "mean (min, max)", "median", "p95", "stddev"
    )?;
    let rows = s
        .stages
        .iter()
        .map(|(id, v)| (id.as_str().to_string(), v))
        .chain(s.total_s.iter().map(|v| ("total".to_string(), v)));
    for (name, v) in rows {
        writeln!(
            out,
            "{:<10} {:>4}  {:<36} {:>9.3} {:>9.3} {:>9.3}",
            name,
            v.n,
            v.ti(3),
            v.median,
            v.p95,
            v.stddev
        )?;
    }
    Ok(())
}
