//! bootlog-parser: bytes of a console log in, a typed boot timeline out.
//!
//! Pure: no files, no processes, no clocks. The log grammar is written with nom, one module per
//! boot component (`uboot.rs`, `sbl.rs`, `linux.rs`, ...); `timeline.rs` assembles the lines
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

mod ascii;
pub mod board;
mod fixed;
pub mod gate;
pub mod hoststamp;
pub mod json;
pub mod lines;
pub mod linux;
pub mod model;
pub mod needles;
pub mod optee;
pub mod rpi;
pub mod sbl;
pub mod stats;
pub mod sysfw;
pub mod systemd;
pub mod tfa;
pub mod timeline;
pub mod uboot;

pub use board::BoardProfile;
pub use model::{Boot, Clock, Stage, StageId};
pub use timeline::{parse_bytes, parse_power_on_capture, Parser};
