//! perfguide library: boot loops, console capture, power control, image builds, reports.
//!
//! The `perfguide` binary is a thin CLI over these modules:
//! - [`profile`]: a board profile with its typed lab sections;
//! - [`lab`]: power drivers, consoles, QEMU, process plumbing;
//! - [`bootloop`]: the power-cycle loop, its capture and its run directory;
//! - [`parse`] and [`table`]: logs streamed through the parser, and the tables printed;
//! - [`bench`]: benchmark output read into metrics, and their table over runs;
//! - [`report`]: the Performance Guide of a run;
//! - [`image`]: reference images built from distribution packages;
//! - [`digest`], [`flock`], [`mapped`]: file hashes, file locks, memory-mapped reading.

pub mod bench;
pub mod bootloop;
pub mod cmd;
pub mod compare;
pub mod digest;
pub mod flock;
pub mod image;
pub mod lab;
pub mod mapped;
pub mod parse;
pub mod profile;
pub mod report;
pub mod table;
