//! Segments to metrics: each complete segment parsed by the tool its id's suite names.

use crate::framing::{Capture, Integrity, Segment};
use crate::model::Metric;
use crate::tools::{
    self, coremark, coremark_pro, cyclictest, dhrystone, fio, iperf2, iperf3, linpack, lmbench,
    mbw, netperf, openssl, sevenzip, stream, stress_ng, sysbench, whetstone, Tool,
};

/// The runner's suites (the `<suite>` of `<suite>/<name>` ids) and the tool that parses
/// their output. A suite not listed is parsed by the tool of the same name, else by the tool
/// recognised from the content.
pub const SUITES: &[(&str, &str)] = &[
    ("lmbench", lmbench::NAME),
    ("dhrystone", dhrystone::NAME),
    ("whetstone", whetstone::NAME),
    ("linpack", linpack::NAME),
    ("stream", stream::NAME),
    ("coremark", coremark::NAME),
    ("coremark-pro", coremark_pro::NAME),
    ("openssl", openssl::NAME),
    ("iperf3", iperf3::NAME),
    ("iperf2", iperf2::NAME),
    ("netperf", netperf::NAME),
    ("stress-ng", stress_ng::NAME),
    ("fio", fio::NAME),
    ("sysbench", sysbench::NAME),
    ("mbw", mbw::NAME),
    ("cyclictest", cyclictest::NAME),
    ("rt-tests", cyclictest::NAME),
    ("7zip", sevenzip::NAME),
    ("7z", sevenzip::NAME),
];

/// Tools whose output names its figures only through the command line in front of it
/// (lmbench's `bw_mem` prints `<size> <MB/s>`): the segment's `cmd` is given to them as a
/// `$ <cmd>` line before the output.
const COMMAND_HEADING: &[&str] = &[lmbench::NAME];

/// What became of one benchmark run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Parsed: `metrics` holds its figures.
    Parsed,
    /// Exited non-zero: not parsed, its output kept (`Entry::segment`).
    Failed { status: i32 },
    /// No END (crash, reset, lost bytes): not parsed, its raw text kept.
    Incomplete,
    /// Complete but its output does not parse: raw text kept, reason in `warnings`.
    Unparsed,
    /// A SKIP marker: the benchmark is not available (not installed, no server).
    NotAvailable,
}

/// One benchmark run (or skip) of a capture, in capture order.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub sid: String,
    pub seq: u32,
    /// The runner's id, `<suite>/<name>`.
    pub id: String,
    /// 1-based run of this id in the capture (repeats, sessions).
    pub run: u32,
    pub outcome: Outcome,
    /// The tool that parsed (or would have parsed) the output.
    pub tool: Option<&'static str>,
    /// Figures with `benchmark` set to `id`, `run` to the run and `line` to the capture line.
    pub metrics: Vec<Metric>,
    /// The parser's warnings, integrity and reasons for an outcome other than `Parsed`.
    pub warnings: Vec<String>,
    /// Index into [`Capture::segments`] (`None` for a skip).
    pub segment: Option<usize>,
    /// SKIP's `reason` (`not-installed`, `no-server`).
    pub reason: Option<String>,
    /// Capture line of the BEGIN or SKIP marker.
    pub line: u64,
}

/// The tool that parses the output of `suite`, or `None` to recognise it from the content.
pub fn tool_of_suite(suite: &str) -> Option<&'static Tool> {
    let name = SUITES
        .iter()
        .find(|(s, _)| *s == suite)
        .map_or(suite, |(_, t)| *t);
    tools::by_name(name).ok()
}

/// The entries of every segment and skip of `capture`, in capture order.
pub fn results(capture: &Capture) -> Vec<Entry> {
    let mut entries: Vec<Entry> = Vec::new();
    for (i, seg) in capture.segments.iter().enumerate() {
        entries.push(segment_entry(i, seg));
    }
    for skip in &capture.skips {
        entries.push(Entry {
            sid: skip.sid.clone(),
            seq: skip.seq,
            id: skip.id.clone(),
            run: 0,
            outcome: Outcome::NotAvailable,
            tool: None,
            metrics: Vec::new(),
            warnings: vec![format!("{}: not available ({})", skip.id, skip.reason)],
            segment: None,
            reason: Some(skip.reason.clone()),
            line: skip.line,
        });
    }
    entries.sort_by_key(|e| e.line);
    // Runs: per id in capture order; an output holding several runs takes as many numbers.
    let mut next: Vec<(String, u32)> = Vec::new();
    for e in &mut entries {
        let at = match next.iter().position(|(id, _)| *id == e.id) {
            Some(at) => at,
            None => {
                next.push((e.id.clone(), 1));
                next.len() - 1
            }
        };
        let base = next[at].1;
        e.run = base;
        let mut used = 1;
        for m in &mut e.metrics {
            used = used.max(m.run);
            m.run = base.saturating_add(m.run.max(1) - 1);
        }
        next[at].1 = base.saturating_add(used);
    }
    entries
}

fn segment_entry(index: usize, seg: &Segment) -> Entry {
    let mut e = Entry {
        sid: seg.sid.clone(),
        seq: seg.seq,
        id: seg.id.clone(),
        run: 0,
        outcome: Outcome::Parsed,
        tool: None,
        metrics: Vec::new(),
        warnings: Vec::new(),
        segment: Some(index),
        reason: None,
        line: seg.begin_line,
    };
    let Some(end) = &seg.end else {
        e.outcome = Outcome::Incomplete;
        e.warnings
            .push(format!("{}: incomplete, no END marker", seg.id));
        return e;
    };
    if let Some(status) = end.status.filter(|s| *s != 0) {
        e.outcome = Outcome::Failed { status };
        e.warnings
            .push(format!("{}: failed, exit status {status}", seg.id));
        return e;
    }
    if seg.integrity == Integrity::Mismatch {
        e.warnings.push(format!(
            "{}: integrity: mismatch (the output differs from END's bytes/md5)",
            seg.id
        ));
    }
    let tool = tool_of_suite(seg.suite()).or_else(|| tools::detect(&seg.output));
    let Some(tool) = tool else {
        e.outcome = Outcome::Unparsed;
        e.warnings.push(format!(
            "{}: no parser for suite '{}' and no tool recognised",
            seg.id,
            seg.suite()
        ));
        return e;
    };
    e.tool = Some(tool.name);
    // Lines of the parsed text: capture line of each.
    let mut lines = Vec::with_capacity(seg.lines.len() + 1);
    let text = if COMMAND_HEADING.contains(&tool.name) && !seg.cmd.is_empty() {
        lines.push(seg.begin_line);
        format!("$ {}\n{}", seg.cmd, seg.output)
    } else {
        seg.output.clone()
    };
    lines.extend_from_slice(&seg.lines);
    match (tool.parse)(&text) {
        Ok(parsed) => {
            e.metrics = parsed
                .metrics
                .into_iter()
                .map(|mut m| {
                    m.benchmark = seg.id.clone();
                    m.line = usize::try_from(m.line)
                        .ok()
                        .and_then(|l| lines.get(l.wrapping_sub(1)))
                        .copied()
                        .unwrap_or(seg.begin_line);
                    m
                })
                .collect();
            e.warnings.extend(
                parsed
                    .warnings
                    .into_iter()
                    .map(|w| format!("{}: {w}", seg.id)),
            );
        }
        Err(err) => {
            e.outcome = Outcome::Unparsed;
            e.warnings.push(format!("{}: {err}", seg.id));
        }
    }
    e
}
