//! Benchmark output parsers: bytes in, metrics out.
//!
//! Each tool has one file under [`tools`] with `recognise` (a cheap content
//! check) and `parse` (text to [`Parsed`]). [`tools::TOOLS`] lists them as
//! data; [`tools::detect`] picks the tool from the content.

pub mod error;
pub mod model;
pub mod tools;

mod collect;
mod text;

pub use error::Error;
pub use model::{Better, Metric, Parsed, Record, SCHEMA};
pub use tools::{by_name, detect, parse_auto, Tool, TOOLS};
