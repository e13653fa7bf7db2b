//! perfguide library: boot loops, console capture, power control, image builds, reports.
//!
//! The `perfguide` binary is a thin CLI over these modules.

pub mod bootloop;
pub mod capture;
pub mod cmd;
pub mod console;
pub mod flock;
pub mod image;
pub mod mapped;
pub mod power;
pub mod report;
pub mod run;
