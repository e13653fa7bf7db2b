//! Parsing console logs as `perfguide parse` does: inputs (files, stdin, run directories;
//! xz-compressed ones decompressed as read) streamed through the parser, each boot handed
//! over as it completes, and written as the `perfguide/boot-log/v1` JSON or as tables.

use crate::mapped::MappedFile;
use crate::table::{write_boot, StageTable};
use crate::xz;
use anyhow::{Context, Result};
use bootlog_parser::model::{Boot, BOOT_LOG_SCHEMA};
use bootlog_parser::stats::Collector;
use bootlog_parser::{BoardProfile, Parser};
use std::fs::File;
use std::io::{self, BufRead, Read, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

/// Loads the board profile named by `--board` / `--board-file`, or the generic one.
pub fn load_profile(board: Option<&str>, file: Option<&Path>) -> Result<BoardProfile> {
    Ok(match (board, file) {
        // The whole file is checked (the profiler's tables too), so a misspelt key is an
        // error here as in every command.
        (_, Some(f)) => crate::profile::Board::from_file(f)?.profile,
        (Some(b), None) => BoardProfile::builtin(b)?,
        (None, None) => BoardProfile::generic(),
    })
}

/// The inputs behind one argument: a file, stdin, or a run directory's cycle logs.
pub fn inputs(arg: &Path) -> Result<Vec<PathBuf>> {
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
/// 64 KiB, about a dozen boots of a typical log, is the cheapest on the bench log
/// (`scripts/bench-parse.sh`): smaller feeds pay the fixed cost more often, larger ones
/// complete more boots than the parser keeps for reuse.
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
    if let Some(f) = &file {
        // A Boot-Time SIG boot-data file: small, read whole, one boot.
        let mut head = [0u8; bootlog_parser::bootdata::FIRST_LINE.len()];
        let n = f.read_at(&mut head, 0).unwrap_or(0);
        if bootlog_parser::bootdata::is_boot_data(&head[..n]) {
            let bytes =
                std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
            for mut b in bootlog_parser::bootdata::parse_boot_data(&bytes, profile) {
                each(&mut b)?;
            }
            return Ok(());
        }
    }
    let mut p = Parser::new(profile).power_on_origin(power_on);
    let name = path.display().to_string();
    if let Some(f) = &file {
        let mut head = [0u8; xz::MAGIC.len()];
        let n = f.read_at(&mut head, 0).unwrap_or(0);
        if xz::is_xz(&head[..n]) {
            let mut input = io::BufReader::with_capacity(CHUNK, f);
            xz::decompress(&name, &mut input, &mut Feeder(&mut p, &mut each))?;
            return finish(p, each);
        }
    }
    let mapped = match &file {
        Some(f) => MappedFile::map(f).with_context(|| format!("reading {name}"))?,
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
        let reader: Box<dyn Read> = match file {
            Some(f) => Box::new(f),
            None => Box::new(io::stdin().lock()),
        };
        let mut reader = io::BufReader::with_capacity(CHUNK, reader);
        let head = reader
            .fill_buf()
            .with_context(|| format!("reading {name}"))?;
        if xz::is_xz(head) {
            xz::decompress(&name, &mut reader, &mut Feeder(&mut p, &mut each))?;
            return finish(p, each);
        }
        loop {
            let buf = match reader.fill_buf() {
                Ok([]) => break,
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e).with_context(|| format!("reading {name}")),
            };
            for f in buf.chunks(FEED) {
                p.feed(f);
                hand_over(&mut p, &mut each)?;
            }
            let n = buf.len();
            reader.consume(n);
        }
    }
    finish(p, each)
}

/// Hands the parser's last boots to `each`, once the input ended.
fn finish(p: Parser, mut each: impl FnMut(&mut Boot) -> io::Result<()>) -> Result<()> {
    for mut b in p.finish() {
        each(&mut b)?;
    }
    Ok(())
}

/// Decompressed bytes fed to the parser, its boots handed over as they complete.
struct Feeder<'a, F>(&'a mut Parser, &'a mut F);

impl<F: FnMut(&mut Boot) -> io::Result<()>> Write for Feeder<'_, F> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        for f in buf.chunks(FEED) {
            self.0.feed(f);
            hand_over(self.0, self.1)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Calls `each` on the boots the parser completed, handing each back when done.
fn hand_over(p: &mut Parser, each: &mut impl FnMut(&mut Boot) -> io::Result<()>) -> io::Result<()> {
    while let Some(b) = p.next_boot_mut() {
        each(b)?;
        p.recycle_front();
    }
    Ok(())
}

/// Whether the parser found anything of a boot: a stage, a record of a sub-timeline, the
/// kernel, systemd or the ready prompt (a file of other text gives one boot with none).
fn found(b: &Boot) -> bool {
    !b.stages.is_empty()
        || !b.bootstage.is_empty()
        || !b.spl_bootstage.is_empty()
        || !b.sbl_profile.is_empty()
        || !b.initcalls.is_empty()
        || b.kernel.is_some()
        || b.systemd.is_some()
        || b.login_prompt.is_some()
}

/// Writes one `perfguide/boot-log/v1` object: every boot of `files` as it completes, then
/// the statistics. Answers how many boots had anything of a boot in them.
pub fn write_json(
    files: &[PathBuf],
    profile: &BoardProfile,
    out: &mut impl Write,
) -> Result<usize> {
    write!(
        out,
        "{{\"schema\":\"{BOOT_LOG_SCHEMA}\",\"board\":{},\"boots\":[",
        serde_json::to_string(&profile.name)?
    )?;
    let mut stats = Collector::new();
    let mut index = 0;
    let mut boots = 0;
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
                boots += usize::from(found(b));
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
    if let Err(e) = parsed {
        // The boots parsed go out even when a later input fails, as they did boot by boot.
        out.write_all(&obj)?;
        return Err(e);
    }
    // The last boots and the statistics go out in one write: a buffer of 64 KiB or more
    // goes past the `BufWriter` whole, where two smaller ones were each copied into it.
    obj.extend_from_slice(b"],\"stats\":");
    bootlog_parser::json::write_stats(&mut obj, &stats.into_stats());
    obj.extend_from_slice(b"}\n");
    out.write_all(&obj)?;
    Ok(boots)
}

/// Writes every boot of `files` as a stage table, then the statistics when there are several.
/// Answers how many boots had anything of a boot in them.
pub fn write_table(
    files: &[PathBuf],
    profile: &BoardProfile,
    out: &mut impl Write,
) -> Result<usize> {
    let mut stats = Collector::new();
    let mut index = 0;
    let mut boots = 0;
    for f in files {
        let source = f.display().to_string();
        parse_stream(f, profile, |b| {
            boots += usize::from(found(b));
            stats.add(b);
            write_boot(out, &source, index, b)?;
            index += 1;
            Ok(())
        })?;
    }
    let s = stats.stats();
    if s.boots > 1 {
        StageTable::of(&s)
            .with_total("total", s.total_s.as_ref())
            .write_text(out)?;
    }
    Ok(boots)
}
