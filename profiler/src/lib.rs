//! perfguide library: boot loops, console capture, power control, image builds, reports.
//!
//! The `perfguide` binary is a thin CLI over these modules.

pub mod cmd;
