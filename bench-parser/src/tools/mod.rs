//! The registry of tool parsers and detection from content.
//!
//! Adding a tool: one file here with `NAME`, `recognise` and `parse`, its
//! `pub mod` line and one line in [`TOOLS`]. [`detect`] tries the tools in
//! [`TOOLS`] order, so a tool whose output another tool's check would also
//! accept (CoreMark-PRO before CoreMark, lmbench last) sits before it.

use crate::error::Error;
use crate::model::Parsed;
use crate::text;

pub mod coremark;
pub mod coremark_pro;
pub mod cyclictest;
pub mod dhrystone;
pub mod fio;
pub mod iperf2;
pub mod iperf3;
pub mod linpack;
pub mod lmbench;
pub mod mbw;
pub mod netperf;
pub mod openssl;
pub mod sevenzip;
pub mod stream;
pub mod stress_ng;
pub mod sysbench;
pub mod whetstone;

/// One tool parser: its name (the `<tool>` of benchmark ids), its content
/// check and its parser.
#[derive(Debug, Clone, Copy)]
pub struct Tool {
    pub name: &'static str,
    pub recognise: fn(&str) -> bool,
    pub parse: fn(&str) -> Result<Parsed, Error>,
}

macro_rules! tool {
    ($m:ident) => {
        Tool {
            name: $m::NAME,
            recognise: $m::recognise,
            parse: $m::parse,
        }
    };
}

/// Every tool, in detection order.
pub const TOOLS: &[Tool] = &[
    tool!(coremark_pro),
    tool!(coremark),
    tool!(dhrystone),
    tool!(whetstone),
    tool!(linpack),
    tool!(stream),
    tool!(openssl),
    tool!(netperf),
    tool!(iperf3),
    tool!(iperf2),
    tool!(stress_ng),
    tool!(sysbench),
    tool!(mbw),
    tool!(fio),
    tool!(cyclictest),
    tool!(sevenzip),
    tool!(lmbench),
];

/// The tool whose output `text` is, judged from its content.
pub fn detect(text: &str) -> Option<&'static Tool> {
    TOOLS.iter().find(|t| (t.recognise)(text))
}

/// The tool named `name` (as in [`Tool::name`]).
pub fn by_name(name: &str) -> Result<&'static Tool, Error> {
    TOOLS
        .iter()
        .find(|t| t.name == name)
        .ok_or_else(|| Error::UnknownTool(name.to_string()))
}

/// Detects the tool and parses with it.
pub fn parse_auto(input: &str) -> Result<(&'static Tool, Parsed), Error> {
    let tool = detect(input).ok_or(Error::Undetected {
        line: text::first_line(input),
    })?;
    Ok((tool, (tool.parse)(input)?))
}
