//! Benchmark output parsers: bytes in, metrics out.
//!
//! Each tool has one file under [`tools`] with `recognise` (a cheap content
//! check) and `parse` (text to [`Parsed`]). [`tools::TOOLS`] lists them as
//! data; [`tools::detect`] picks the tool from the content. [`framing`] cuts a
//! console capture of `perfguide-bench run` into one segment per benchmark, and
//! [`results`] parses each segment with the tool its id names.

pub mod error;
pub mod framing;
pub mod model;
pub mod results;
pub mod tools;

mod collect;
mod text;

pub use error::Error;
pub use model::{Better, Metric, Parsed, Record, SCHEMA};
pub use results::{results, Entry, Outcome};
pub use tools::{by_name, detect, parse_auto, Tool, TOOLS};
