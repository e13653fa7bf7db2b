//! perfguide library: boot loops, console capture, power control, image builds, reports.
//!
//! The `perfguide` binary is a thin CLI over these modules.

pub mod cmd;
pub mod bootloop;
pub mod capture;
pub mod console;
pub mod power;
pub mod run;
