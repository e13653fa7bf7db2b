//! bootlog-parser: bytes of a console log in, a typed boot timeline out.
//!
//! Pure: no files, no processes, no clocks. The log grammar is written with nom, one module per
//! boot component (`uboot.rs`, `sbl.rs`, `linux.rs`, ...); `timeline.rs` assembles the events
//! into [`model::Boot`]s and `stats.rs` summarises many boots.

pub mod board;
pub mod model;

pub use board::BoardProfile;
pub use model::{Boot, Clock, Stage, StageId};
