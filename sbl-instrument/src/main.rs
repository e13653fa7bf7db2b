//! `sbl-instrument`: inspect boot images, estimate their load time, decode SBL profile logs
//! from RAM dumps, and patch initialised data in ELF images. The command line lives in
//! [`sbl_instrument::cli`], shared with `perfguide image`. Exit status: 0, 2 on an error, 3 when
//! `inspect --strict` finds a digest mismatch or a file of no known format.

use clap::Parser;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "sbl-instrument",
    version,
    about = "Boot images: inspect, attribute load time, decode SBL profiles, patch"
)]
struct Cli {
    #[command(subcommand)]
    cmd: sbl_instrument::cli::Cmd,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match sbl_instrument::cli::run(cli.cmd) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("sbl-instrument: error: {e}");
            ExitCode::from(2)
        }
    }
}
