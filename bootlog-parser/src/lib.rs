//! bootlog-parser: bytes of a console log in, a typed boot timeline out.
//!
//! Pure: no files, no processes, no clocks. The log grammar is written with nom, one module per
//! boot component (`uboot.rs`, `sbl.rs`, `linux.rs`, ...); `timeline` assembles the lines
//! into [`model::Boot`]s, splitting logs that hold several boots, and `stats.rs` summarises
//! many boots. The few grammars on the per-line hot path (printk and grabserial stamps, clocks,
//! initcall lines) are hand-written twins of nom grammars that stay in the tests as their
//! reference; `gate.rs` and `needles.rs` decide cheaply which grammars a line can match, and
//! `json.rs` writes boots as JSON without serde's per-field cost.
//!
//! ```
//! use bootlog_parser::{parse_bytes, BoardProfile, StageId};
//! let log = b"U-Boot 2024.01 (Jan 01 2024)\nStarting kernel ...\n[    0.000000] Booting Linux\nbox login: \n";
//! let boots = parse_bytes(log, &BoardProfile::generic());
//! assert!(boots[0].complete);
//! assert!(boots[0].stage(StageId::Uboot).is_some());
//! ```

#![deny(unsafe_code)]

// `unsafe` is allowed only in the modules marked below: the byte and SIMD primitives
// (`ascii`), the line splitter (`lines`), the JSON writer's byte paths (`json`), the needle
// scan (`needles`), the printk stamp reader (`linux`) and, inside `timeline`, the per-line
// path (`timeline::dispatch`).
#[allow(unsafe_code)]
mod ascii;
pub mod board;
pub mod bootdata;
pub mod capture;
pub mod console;
mod cpu;
pub mod declaration;
mod fixed;
pub mod gate;
pub mod hoststamp;
#[allow(unsafe_code)]
pub mod json;
pub mod lava;
#[allow(unsafe_code)]
pub mod lines;
#[allow(unsafe_code)]
pub mod linux;
pub mod model;
#[allow(unsafe_code)]
pub mod needles;
pub mod optee;
pub mod rpi;
pub mod sbl;
pub mod spl_breakdown;
pub mod stats;
pub mod sysfw;
pub mod systemd;
pub mod tfa;
pub mod timeline;
pub mod uboot;

pub use board::BoardProfile;
pub use model::{Boot, Clock, SplBootstage, Stage, StageId};
pub use timeline::{parse_bytes, parse_power_on_capture, Parser};
