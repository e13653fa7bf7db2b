//! `perfguide parse`: console logs in, the boot stage table or `perfguide/boot-log/v1` JSON out.

use super::is_broken_pipe;
use anyhow::Result;
use perfguide::parse::{inputs, load_profile, write_json, write_table};
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Output formats of `perfguide parse`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A stage table per boot, and statistics when there are several boots.
    Table,
    /// One `perfguide/boot-log/v1` object (streamed boot by boot; the statistics at the end
    /// keep 8 bytes a figure a boot).
    Json,
}

/// Arguments of `perfguide parse`.
#[derive(clap::Args, Debug)]
#[command(after_long_help = "\
Reads console logs as any tool captured them: perfguide's own run directories and cycle logs,
grabserial (-t, -T), minicom/picocom/tio timestamps, LAVA log.yaml (its console lines, each at
its `dt`), the Boot-Time SIG's grab-boot-data.sh files (one boot each, with the machine data they
hold), plain text; any of them xz-compressed (log.yaml.xz: told by its magic bytes). A file holding
several boots is split (a first-stage banner again, printk time going back). Figures come from
the host clock when the capture stamped lines, otherwise from the target's own clocks; a figure
the log cannot give is absent, never zero.

Examples:
  perfguide parse boot.log
  perfguide parse --board j721e-evm --format json capture.log > boot.json
  perfguide parse runs/2026-11-30/            # every cycle of a boot loop, with statistics
  perfguide parse --board qemu-arm64 log.yaml.xz   # a LAVA job log
  grabserial -t ... | perfguide parse -

Exit status: 0, 1 when no boot was found in the input (said on stderr), 2 on an error.

Regular files are memory-mapped and parsed window by window (memory does not grow with the
file's size, only by the statistics' 8 bytes a figure a boot); set
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

/// Runs the subcommand.
pub fn run(a: ParseArgs) -> Result<ExitCode> {
    let profile = load_profile(a.board.as_deref(), a.board_file.as_deref())?;
    let mut files = Vec::new();
    for f in &a.files {
        files.extend(inputs(f)?);
    }
    let mut out = BufWriter::with_capacity(1 << 16, raw_stdout());
    let r = match a.format {
        Format::Json => write_json(&files, &profile, &mut out),
        Format::Table => write_table(&files, &profile, &mut out),
    };
    match r.and_then(|n| out.flush().map(|()| n).map_err(Into::into)) {
        Ok(0) => {
            let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
            eprintln!(
                "perfguide: no boot found in {}: no line any boot-chain grammar knows \
                 (is it a console log? --board may name the board's patterns)",
                names.join(", ")
            );
            Ok(ExitCode::from(1))
        }
        Ok(_) => Ok(ExitCode::SUCCESS),
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
