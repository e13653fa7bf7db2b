//! `perfguide bench check`: whether a capture of `perfguide-bench run` is a sound benchmark
//! session. The framing read whole (every session DONE, no lost or overlapping marker, every
//! output matching its END), every benchmark that ran exited 0 and gave figures its parser
//! reads, and every expected benchmark ran. The image's own test (the layer's OEQA case,
//! `meta-perfguide/lib/oeqa/runtime/cases/perfguide_bench.py`) decides with it.

use bench_parser::framing::{self, Integrity};
use bench_parser::results::results;
use bench_parser::Outcome;
use serde::Serialize;

use super::parse::console_line;

/// What is wrong with a capture, one item each.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProblemKind {
    /// No `perfguide-bench run` session in the capture at all.
    NoSession,
    /// Lost or overlapping markers, an interrupted session, output that does not match END.
    Framing,
    /// A benchmark that exited non-zero.
    Failed,
    /// A benchmark whose END never came.
    Incomplete,
    /// A benchmark that ran and exited 0, but whose output its parser cannot read.
    Unparsed,
    /// An expected benchmark that did not run (the runner skipped it, or it is absent).
    Missing,
}

/// One problem, with the benchmark and capture line it concerns when one does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    pub kind: ProblemKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub benchmark: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    pub message: String,
}

/// One benchmark run (or skip) as the check saw it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Ran {
    pub benchmark: String,
    pub run: u32,
    /// `parsed`, `failed`, `incomplete`, `unparsed` or `not-available`.
    pub outcome: &'static str,
    pub figures: usize,
    pub line: u64,
}

/// The check of one capture.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Check {
    pub schema: &'static str,
    pub ok: bool,
    pub sessions: usize,
    pub figures: usize,
    pub runs: Vec<Ran>,
    pub expected: Vec<String>,
    pub problems: Vec<Problem>,
}

/// The schema name of [`Check`] as JSON.
pub const SCHEMA: &str = "perfguide/bench-check/v1";

fn outcome_name(o: Outcome) -> &'static str {
    match o {
        Outcome::Parsed => "parsed",
        Outcome::Failed { .. } => "failed",
        Outcome::Incomplete => "incomplete",
        Outcome::Unparsed => "unparsed",
        Outcome::NotAvailable => "not-available",
    }
}

/// Whether benchmark `id` answers the expectation `want`: the id itself, or its suite.
fn answers(id: &str, want: &str) -> bool {
    id == want || (!want.contains('/') && id.split('/').next() == Some(want))
}

/// Checks a capture `text` against the `expected` benchmarks (ids `<suite>/<name>`, or
/// suites: any benchmark of the suite that gave figures answers it).
pub fn check(text: &str, expected: &[String]) -> Check {
    let capture = framing::read(text, &console_line);
    let mut problems = Vec::new();
    if capture.sessions.is_empty() {
        problems.push(Problem {
            kind: ProblemKind::NoSession,
            benchmark: None,
            line: None,
            message: format!(
                "no perfguide-bench session: no {} SESSION marker (was `perfguide-bench run` \
                 captured whole?)",
                framing::SENTINEL
            ),
        });
    }
    for w in &capture.warnings {
        problems.push(Problem {
            kind: ProblemKind::Framing,
            benchmark: None,
            line: None,
            message: w.clone(),
        });
    }
    for seg in &capture.segments {
        if seg.integrity == Integrity::Mismatch {
            problems.push(Problem {
                kind: ProblemKind::Framing,
                benchmark: Some(seg.id.clone()),
                line: Some(seg.begin_line),
                message: format!(
                    "{}: the output differs from its END marker's bytes/md5 (bytes lost or \
                     altered on the console)",
                    seg.id
                ),
            });
        }
    }
    let entries = results(&capture);
    let mut runs = Vec::with_capacity(entries.len());
    let mut figures = 0;
    for e in &entries {
        figures += e.metrics.len();
        runs.push(Ran {
            benchmark: e.id.clone(),
            run: e.run,
            outcome: outcome_name(e.outcome),
            figures: e.metrics.len(),
            line: e.line,
        });
        let (kind, message) = match e.outcome {
            Outcome::Parsed if e.metrics.is_empty() => (
                ProblemKind::Unparsed,
                format!("{}: ran and exited 0, but no figure was read", e.id),
            ),
            Outcome::Parsed | Outcome::NotAvailable => continue,
            Outcome::Failed { .. } => (ProblemKind::Failed, e.warnings.join("; ")),
            Outcome::Incomplete => (ProblemKind::Incomplete, e.warnings.join("; ")),
            Outcome::Unparsed => (ProblemKind::Unparsed, e.warnings.join("; ")),
        };
        problems.push(Problem {
            kind,
            benchmark: Some(e.id.clone()),
            line: Some(e.line),
            message,
        });
    }
    for want in expected {
        if entries
            .iter()
            .any(|e| answers(&e.id, want) && e.outcome == Outcome::Parsed)
        {
            continue;
        }
        let skipped = entries
            .iter()
            .find(|e| answers(&e.id, want) && e.outcome == Outcome::NotAvailable);
        let ran = entries.iter().any(|e| answers(&e.id, want));
        let message = match skipped {
            Some(s) => format!(
                "{want}: expected, but the runner did not run it ({}: {})",
                s.id,
                s.reason.as_deref().unwrap_or("not available")
            ),
            None if ran => format!("{want}: expected, but no run of it gave figures"),
            None => format!("{want}: expected, but the capture has no run of it"),
        };
        problems.push(Problem {
            kind: ProblemKind::Missing,
            benchmark: Some(want.clone()),
            line: skipped.map(|s| s.line),
            message,
        });
    }
    Check {
        schema: SCHEMA,
        ok: problems.is_empty(),
        sessions: capture.sessions.len(),
        figures,
        runs,
        expected: expected.to_vec(),
        problems,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `perfguide-bench run` capture composed for these tests in the runner's framing
    /// (docs/bench-framing.md): one session, each benchmark's output as the runner frames it.
    fn capture(segments: &[(&str, &str, i32)], skips: &[&str], done: bool) -> String {
        let s = "@@PERFGUIDE-BENCH";
        let mut out = format!(
            "{s} SESSION v=1 sid=1-1 host=h kernel=k machine=m runner=1.0.0 repeat=1 args=quick\n"
        );
        let mut seq = 0;
        for (id, body, status) in segments {
            seq += 1;
            let bytes = body.len();
            let lines = body.lines().count();
            out.push_str(&format!(
                "{s} BEGIN v=1 sid=1-1 seq={seq} id={id} t=0 cmd=x\n"
            ));
            out.push_str(body);
            out.push_str(&format!(
                "{s} END v=1 sid=1-1 seq={seq} id={id} status={status} dur_ms=1 clock=date-ns \
                 lines={lines} bytes={bytes} eol=1 md5=-\n"
            ));
        }
        for id in skips {
            seq += 1;
            out.push_str(&format!(
                "{s} SKIP v=1 sid=1-1 seq={seq} id={id} reason=not-installed\n"
            ));
        }
        if done {
            out.push_str(&format!(
                "{s} DONE v=1 sid=1-1 ran={} failed=0 skipped={} dur_ms=2\n",
                segments.len(),
                skips.len()
            ));
        }
        out
    }

    const STREAM: &str = "Function    Best Rate MB/s  Avg time     Min time     Max time\n\
                          Copy:            4705.4     0.034152     0.034004     0.034471\n\
                          Scale:           4526.1     0.035621     0.035350     0.035907\n\
                          Add:             5183.8     0.046449     0.046298     0.046708\n\
                          Triad:           5242.5     0.046064     0.045780     0.046437\n";

    #[test]
    fn a_sound_session_passes() {
        let c = check(
            &capture(&[("stream/stream", STREAM, 0)], &["dhrystone/dhry"], true),
            &["stream/stream".to_string()],
        );
        assert!(c.ok, "{:?}", c.problems);
        assert_eq!(c.figures, 4);
        assert_eq!(c.runs.len(), 2);
        assert_eq!(c.runs[1].outcome, "not-available");
    }

    #[test]
    fn a_skipped_expected_benchmark_is_missing() {
        let c = check(
            &capture(&[("stream/stream", STREAM, 0)], &["dhrystone/dhry"], true),
            &["stream".to_string(), "dhrystone/dhry".to_string()],
        );
        assert!(!c.ok);
        assert_eq!(c.problems.len(), 1, "{:?}", c.problems);
        assert_eq!(c.problems[0].kind, ProblemKind::Missing);
        assert_eq!(c.problems[0].line, Some(9));
        assert!(c.problems[0].message.contains("not-installed"));
        let absent = check(&capture(&[], &[], true), &["mbw/mbw".to_string()]);
        assert!(absent.problems[0].message.contains("no run of it"));
    }

    #[test]
    fn failures_unreadable_output_and_broken_framing_are_problems() {
        let failed = check(&capture(&[("stream/stream", STREAM, 1)], &[], true), &[]);
        assert_eq!(failed.problems[0].kind, ProblemKind::Failed);
        assert!(failed.problems[0].message.contains("exit status 1"));
        let unread = check(
            &capture(&[("stream/stream", "Segmentation fault\n", 0)], &[], true),
            &[],
        );
        assert_eq!(unread.problems[0].kind, ProblemKind::Unparsed);
        let interrupted = check(&capture(&[("stream/stream", STREAM, 0)], &[], false), &[]);
        assert_eq!(interrupted.problems[0].kind, ProblemKind::Framing);
        assert!(interrupted.problems[0].message.contains("no DONE"));
        // A byte lost on the console: the output no longer matches END's byte count.
        let lost =
            capture(&[("stream/stream", STREAM, 0)], &[], true).replacen("4705.4", "470.4", 1);
        let c = check(&lost, &[]);
        assert!(
            c.problems.iter().any(|p| p.kind == ProblemKind::Framing),
            "{:?}",
            c.problems
        );
        let none = check("login: root\n# \n", &[]);
        assert_eq!(none.problems[0].kind, ProblemKind::NoSession);
    }
}
