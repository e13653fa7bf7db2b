//! The command line of `sbl-instrument`, in the library so that `perfguide image ...` offers
//! the same subcommands (`inspect`, `estimate`, `media`, `profile-map`, `extract`, `patch`).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::{
    inspect_path, media, patch, profile, table, Error, HashStatus, Image, InspectReport, Mapped,
};
use clap::{Subcommand, ValueEnum};

/// Output formats.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum OutFormat {
    /// Aligned columns for people.
    Table,
    /// The JSON contracts, for scripts.
    Json,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Cmd {
    /// List the components of boot images (ELF, TI X.509, FIT, board config, appimage, uImage,
    /// ARM64 Image, zImage, MLO), recursively, with every stored digest checked.
    Inspect {
        /// Image files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Output format (`json` is the `perfguide/image/v1` contract).
        #[arg(long, value_enum, default_value = "table")]
        format: OutFormat,
        /// Exit with status 3 when a stored digest does not match or a file is of no known
        /// format.
        #[arg(long)]
        strict: bool,
    },
    /// Estimate how long each component takes to load from a boot medium.
    Estimate {
        /// Image files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Medium id from the media table (see `sbl-instrument media`).
        #[arg(long, required_unless_present_any = ["rate_mbps", "rate_mbytes"])]
        medium: Option<String>,
        /// A measured rate in megabits per second (overrides --medium).
        #[arg(long, conflicts_with = "rate_mbytes")]
        rate_mbps: Option<f64>,
        /// A measured rate in megabytes (10^6 bytes) per second (overrides --medium).
        #[arg(long)]
        rate_mbytes: Option<f64>,
        /// Use this media table instead of the built-in one.
        #[arg(long)]
        media_file: Option<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value = "table")]
        format: OutFormat,
    },
    /// List the media table (ids, rates, where each figure comes from).
    Media {
        /// Use this media table instead of the built-in one.
        #[arg(long)]
        media_file: Option<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value = "table")]
        format: OutFormat,
    },
    /// Locate the SBL profile log (PDK sblProfileLog or MCU+ gProfileObj) in an SBL ELF.
    ProfileMap {
        /// The SBL ELF.
        elf: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value = "table")]
        format: OutFormat,
    },
    /// Decode the SBL profile log from a RAM dump.
    Extract {
        /// The SBL ELF the board ran.
        elf: PathBuf,
        /// RAM dump (raw bytes).
        dump: PathBuf,
        /// Address of the first byte of the dump (0x... or decimal).
        #[arg(long, value_parser = parse_u64)]
        base: u64,
        /// Core clock in MHz, to turn cycles into microseconds.
        #[arg(long)]
        cpu_mhz: Option<f64>,
        /// Output format.
        #[arg(long, value_enum, default_value = "table")]
        format: OutFormat,
    },
    /// Change initialised data in an ELF by symbol.
    Patch {
        /// The ELF to patch.
        elf: PathBuf,
        /// SYMBOL=VALUE (integer, hex:BYTES or str:TEXT); repeatable.
        #[arg(long = "set", required = true, value_parser = parse_assignment)]
        sets: Vec<patch::Assignment>,
        /// Write the result here.
        #[arg(short, long, conflicts_with = "in_place")]
        output: Option<PathBuf>,
        /// Replace the input file atomically.
        #[arg(long)]
        in_place: bool,
        /// Show the bytes that would change; write nothing.
        #[arg(long)]
        dry_run: bool,
        /// Output format.
        #[arg(long, value_enum, default_value = "table")]
        format: OutFormat,
    },
}

fn parse_u64(s: &str) -> Result<u64, String> {
    let t = s.replace('_', "");
    let r = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        u64::from_str_radix(h, 16)
    } else {
        t.parse()
    };
    r.map_err(|e| format!("{s}: {e}"))
}

fn parse_assignment(s: &str) -> Result<patch::Assignment, String> {
    s.parse().map_err(|e: Error| e.to_string())
}

fn print_json<T: serde::Serialize>(v: &T) -> Result<(), Error> {
    let s = serde_json::to_string_pretty(v).map_err(|e| Error::Invalid(e.to_string()))?;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{s}");
    Ok(())
}

fn print(s: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(s.as_bytes());
}

fn media_table(path: Option<&PathBuf>) -> Result<Vec<media::Medium>, Error> {
    match path {
        Some(p) => media::load_media(p),
        None => Ok(media::builtin_media()),
    }
}

/// Exit status of `inspect --strict` when a digest does not match or a file is unknown. An
/// error is 2, as for every perfguide command.
pub const STRICT_FAILED: u8 = 3;

/// Runs a subcommand; output goes to stdout.
pub fn run(cmd: Cmd) -> Result<ExitCode, Error> {
    match cmd {
        Cmd::Inspect {
            files,
            format,
            strict,
        } => {
            return inspect(&files, format, strict);
        }
        Cmd::Estimate {
            files,
            medium,
            rate_mbps,
            rate_mbytes,
            media_file,
            format,
        } => {
            estimate(&files, medium, rate_mbps, rate_mbytes, media_file, format)?;
        }
        Cmd::Media { media_file, format } => {
            let t = media_table(media_file.as_ref())?;
            match format {
                OutFormat::Json => print_json(&t)?,
                OutFormat::Table => {
                    for m in &t {
                        print(&format!(
                            "{:<20} {:>10.3} MB/s  {:<12} {}\n",
                            m.id, m.rate_mbytes_s, m.basis, m.name
                        ));
                    }
                }
            }
        }
        Cmd::ProfileMap { elf, format } => {
            let m = Mapped::open(&elf)?;
            let (map, _) = profile::profile_map(m.bytes()).map_err(|e| e.in_file(&elf))?;
            match format {
                OutFormat::Json => print_json(&map)?,
                OutFormat::Table => print(&table::profile_map_table(&map)),
            }
        }
        Cmd::Extract {
            elf,
            dump,
            base,
            cpu_mhz,
            format,
        } => {
            let e = Mapped::open(&elf)?;
            let d = Mapped::open(&dump)?;
            let x = profile::extract(e.bytes(), d.bytes(), base, cpu_mhz)
                .map_err(|er| er.in_file(&dump))?;
            match format {
                OutFormat::Json => print_json(&x)?,
                OutFormat::Table => print(&table::extract_table(&x)),
            }
        }
        Cmd::Patch {
            elf,
            sets,
            output,
            in_place,
            dry_run,
            format,
        } => {
            if !dry_run && output.is_none() && !in_place {
                return Err(Error::Invalid(
                    "patch: give --output FILE, --in-place or --dry-run".into(),
                ));
            }
            let changes = patch::patch_file(&elf, output.as_deref(), &sets, dry_run)?;
            match format {
                OutFormat::Json => print_json(&changes)?,
                OutFormat::Table => print(&table::patch_table(&changes, dry_run)),
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `inspect`: the images' tables or JSON; with `strict`, a digest that does not match or an
/// unknown file is exit status [`STRICT_FAILED`].
fn inspect(files: &[PathBuf], format: OutFormat, strict: bool) -> Result<ExitCode, Error> {
    let images = files
        .iter()
        .map(|f| inspect_path(f))
        .collect::<Result<Vec<Image>, _>>()?;
    let mut mismatch = false;
    for i in &images {
        i.root.walk(&mut |c, _| {
            if c.sha512 == HashStatus::Mismatch || c.hashes.iter().any(|h| h.status == "mismatch") {
                mismatch = true;
            }
        });
    }
    let unknown: Vec<String> = images
        .iter()
        .filter(|i| i.root.format == crate::Format::Raw.name() && i.root.components.is_empty())
        .map(|i| i.path.clone())
        .collect();
    match format {
        OutFormat::Json => print_json(&InspectReport::new(images))?,
        OutFormat::Table => {
            for i in &images {
                print(&table::inspect_table(i));
            }
        }
    }
    for u in &unknown {
        eprintln!(
            "warning: {u}: no known image format (ELF, TI X.509, FIT, board config, appimage, uImage, Image, zImage, MLO): listed as raw bytes"
        );
    }
    if strict && mismatch {
        eprintln!("error: a stored digest does not match (--strict)");
        return Ok(ExitCode::from(STRICT_FAILED));
    }
    if strict && !unknown.is_empty() {
        eprintln!("error: a file is of no known image format (--strict)");
        return Ok(ExitCode::from(STRICT_FAILED));
    }
    Ok(ExitCode::SUCCESS)
}

/// `estimate`: load time of the images at a medium's rate, or at a measured one.
fn estimate(
    files: &[PathBuf],
    medium: Option<String>,
    rate_mbps: Option<f64>,
    rate_mbytes: Option<f64>,
    media_file: Option<PathBuf>,
    format: OutFormat,
) -> Result<(), Error> {
    let (id, rate, basis) = if let Some(r) = rate_mbps {
        (
            "measured".to_string(),
            r / 8.0,
            format!("measured, {r} Mbit/s"),
        )
    } else if let Some(r) = rate_mbytes {
        ("measured".to_string(), r, format!("measured, {r} MB/s"))
    } else {
        let id = medium.unwrap_or_default();
        let table = media_table(media_file.as_ref())?;
        let m = table.iter().find(|m| m.id == id).ok_or_else(|| {
            let ids: Vec<&str> = table.iter().map(|m| m.id.as_str()).collect();
            Error::Invalid(format!("unknown medium {id}; known: {}", ids.join(", ")))
        })?;
        (
            m.id.clone(),
            m.rate_mbytes_s,
            format!("{}: {}", m.basis, m.source),
        )
    };
    if !(rate.is_finite() && rate > 0.0) {
        return Err(Error::Invalid(format!(
            "rate {rate} MB/s: must be positive"
        )));
    }
    let images = files
        .iter()
        .map(|f| inspect_path(f))
        .collect::<Result<Vec<Image>, _>>()?;
    let e = media::estimate(&images, &id, rate, &basis);
    match format {
        OutFormat::Json => print_json(&e)?,
        OutFormat::Table => print(&table::estimate_table(&e)),
    }
    Ok(())
}
