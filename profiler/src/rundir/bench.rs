//! `bench.json`: a `perfguide bench` session in the run directory (the benchmarks' metrics are
//! `bench.jsonl`, the capture `bench.log`).

use crate::bench::{Item, SetupStep};
use serde::Serialize;

/// `bench.json`.
#[derive(Serialize)]
pub struct BenchManifest<'a> {
    /// `perfguide/bench-run/v1` ([`BENCH_SCHEMA`](super::BENCH_SCHEMA)).
    pub schema: &'static str,
    /// The board profile's name.
    pub board: &'a str,
    /// When the session started (RFC 3339).
    pub started: String,
    /// When it ended.
    pub finished: String,
    /// The command line.
    pub args: Vec<String>,
    /// `perfguide-bench version` as the target printed it.
    pub runner: Option<String>,
    /// Runs of each benchmark.
    pub runs: u32,
    /// The network benchmarks' server address.
    pub server: Option<&'a str>,
    /// What the network figures measure.
    pub network: Option<String>,
    /// The boot-loop cycle the session followed (none with `--no-power`).
    pub boot_cycle: Option<u32>,
    /// The environment the runner got.
    pub env: std::collections::BTreeMap<&'a str, &'a str>,
    /// The board's `[bench] setup` lines and how each ended.
    pub setup: &'a [SetupStep],
    /// How each benchmark ended.
    pub benchmarks: &'a [Item],
    /// Why the session stopped early, if it did.
    pub error: Option<String>,
    /// Metrics read from `bench.log`.
    pub metrics: usize,
    /// What reading them warned of.
    pub warnings: &'a [String],
}
