//! perfguide library: boot loops, console capture, power control, image builds, reports.
//!
//! The `perfguide` binary is a thin CLI over these modules:
//! - [`profile`]: a board profile with its typed lab sections;
//! - [`lab`]: power drivers, consoles, QEMU;
//! - [`process`]: process groups, argv quoting, output tails, stoppable waits (the lab and
//!   the image builds);
//! - [`capture`]: the raw console capture (host-stamped lines), as every session writes it;
//! - [`shell`]: a shell on the board's console (login, commands, their exit status);
//! - [`rundir`]: the run directory, the contract every reader shares (run.json, boots.jsonl,
//!   bench.json, cycle logs, resume, atomic writes); the loop and `bench` write it, report,
//!   compare and lava read it, none through the loop;
//! - [`bootloop`]: the power-cycle loop;
//! - [`collect`]: what the target kept of its boot (kernel log, bootstage), read after it and
//!   put on the host timeline;
//! - [`parse`] and [`table`]: logs streamed through the parser, and the tables printed;
//! - [`bench`]: benchmark output read into metrics, and their table over runs;
//! - [`report`]: the Performance Guide of a run;
//! - [`image`]: reference images built from distribution packages;
//! - [`lava`]: LAVA job definitions and a run's figures as LAVA test cases;
//! - [`digest`], [`flock`], [`mapped`], [`xz`]: file hashes, file locks, memory-mapped
//!   reading, xz-compressed input.

pub mod bench;
pub mod bootloop;
pub mod capture;

pub mod collect;
pub mod compare;
pub mod digest;
pub mod flock;
pub mod image;
pub mod lab;
pub mod lava;
pub mod mapped;
pub mod parse;
pub mod process;
pub mod profile;
pub mod report;
pub mod rundir;
pub mod shell;
pub mod table;
pub mod xz;
