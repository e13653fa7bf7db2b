//! Benchmarks on the host side: benchmark output read into `bench-parser` metrics
//! ([`parse`]) and the table of their figures over runs ([`table`]).

pub mod parse;
pub mod table;
