//! The metric record, its `perfguide/bench/v1` JSON form and the unit strings.

use serde::Serialize;

/// The `schema` field of every JSON record.
pub const SCHEMA: &str = "perfguide/bench/v1";

/// Which direction of a metric is an improvement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Better {
    Higher,
    Lower,
}

/// One figure read from benchmark output.
#[derive(Debug, Clone, PartialEq)]
pub struct Metric {
    /// `<tool>/<test>`, e.g. `lmbench/bw_mem-rd-1mb`, `iperf3/tcp-tx`.
    pub benchmark: String,
    /// The figure's name as TI's performance guides print it, e.g. `bw_mem-rd-1mb`.
    pub metric: String,
    pub value: f64,
    /// One of the [`unit`] strings.
    pub unit: String,
    pub better: Better,
    /// 1-based run number when the output holds several runs of the same test.
    pub run: u32,
    /// 1-based line of the input the figure was read from.
    pub line: u64,
}

/// What a parser read: the metrics in input order and the warnings
/// (e.g. output that stops midway, naming the line).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Parsed {
    pub metrics: Vec<Metric>,
    pub warnings: Vec<String>,
}

/// The `perfguide/bench/v1` JSON object of one metric.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Record<'a> {
    pub schema: &'static str,
    pub benchmark: &'a str,
    pub metric: &'a str,
    pub value: f64,
    pub unit: &'a str,
    pub better: Better,
    pub run: u32,
    pub source: &'a str,
    pub line: u64,
}

impl Metric {
    /// The JSON record of this metric; `source` names the input (a file name).
    pub fn record<'a>(&'a self, source: &'a str) -> Record<'a> {
        Record {
            schema: SCHEMA,
            benchmark: &self.benchmark,
            metric: &self.metric,
            value: self.value,
            unit: &self.unit,
            better: self.better,
            run: self.run,
            source,
            line: self.line,
        }
    }
}

/// Unit strings, each defined once.
pub mod unit {
    pub const MB_S: &str = "MB/s";
    pub const MIB_S: &str = "MiB/s";
    pub const KB_S: &str = "kB/s";
    pub const KIB_S: &str = "KiB/s";
    pub const MBITS_S: &str = "Mbits/sec";
    pub const US: &str = "us";
    pub const NS: &str = "ns";
    pub const MS: &str = "ms";
    pub const S: &str = "s";
    pub const FILES_S: &str = "files/s";
    pub const PERCENT: &str = "%";
    pub const COUNT: &str = "count";
    pub const TICKS: &str = "ticks";
    pub const DHRYSTONE_S: &str = "DhrystoneP";
    pub const DMIPS: &str = "DMIPS";
    pub const DMIPS_MHZ: &str = "DMIPS/MHz";
    pub const MIPS: &str = "MIPS";
    pub const MWIPS: &str = "MWIPS";
    pub const MFLOPS: &str = "Mflops";
    pub const KFLOPS: &str = "Kflops";
    pub const ITERATIONS_S: &str = "iterations/s";
    pub const COREMARK_MHZ: &str = "CoreMark/MHz";
    pub const WORKLOADS_S: &str = "workloads/s";
    pub const SCORE: &str = "score";
    pub const RATIO: &str = "x";
    pub const BOGO_OPS_S: &str = "bogo ops/s";
    pub const EVENTS_S: &str = "events/s";
    pub const OPS_S: &str = "ops/s";
    pub const SIGN_S: &str = "sign/s";
    pub const VERIFY_S: &str = "verify/s";
    pub const IOPS: &str = "IOPS";
    pub const TRANS_S: &str = "trans/s";
}
