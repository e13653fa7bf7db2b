//! perfguide library: boot loops, console capture, power control, image builds, reports.
//!
//! The `perfguide` binary is a thin CLI over these modules:
//! - [`profile`]: a board profile with its typed lab sections;
//! - [`lab`]: power drivers, consoles, QEMU, process plumbing;
//! - [`capture`]: the raw console capture (host-stamped lines), as every session writes it;
//! - [`shell`]: a shell on the board's console (login, commands, their exit status);
//! - [`bootloop`]: the power-cycle loop and its run directory;
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
pub mod profile;
pub mod report;
pub mod shell;
pub mod table;
pub mod xz;
