//! The framing reader: a console capture cut into one segment per benchmark by the
//! `@@PERFGUIDE-BENCH` markers of `docs/bench-framing.md` (framing version 1).
//!
//! [`read`] takes the capture's text and a [`HostStamp`] reader for the capture tool's line
//! prefix; it gives the sessions, the segments (complete or cut short) and the skipped
//! benchmarks. [`results`](crate::results) turns the segments into metrics.

mod integrity;
mod marker;
mod md5;
mod stamp;

use std::borrow::Cow;
use std::collections::HashMap;

pub use integrity::Integrity;
pub use marker::{SENTINEL, VERSION};
pub use stamp::{HostStamp, SecsDelta};

use integrity::{join, kernel_stamp, matches, remove_kernel, Expected};
use marker::{Kind, Marker};

/// Most lines a marker cut by kernel messages is joined across.
const MAX_SPLICE: usize = 8;

/// One `perfguide-bench run` invocation, named by its `sid`.
#[derive(Debug, Clone, PartialEq)]
pub struct Session {
    pub sid: String,
    /// The SESSION marker's fields (`host`, `kernel`, `machine`, `runner`, `repeat`,
    /// `args`, ...); empty when the capture starts after it.
    pub fields: Vec<(String, String)>,
    /// Capture line of the SESSION marker (of the first marker seen without one).
    pub line: u64,
    /// Host time of that line.
    pub host_s: Option<f64>,
    /// The DONE marker; `None`: the session was interrupted (reset, timeout, Ctrl-C).
    pub done: Option<Done>,
}

impl Session {
    /// The value of a SESSION field.
    pub fn field(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// The DONE marker of a session.
#[derive(Debug, Clone, PartialEq)]
pub struct Done {
    pub ran: Option<u64>,
    pub failed: Option<u64>,
    pub skipped: Option<u64>,
    pub dur_ms: Option<u64>,
    pub line: u64,
    pub host_s: Option<f64>,
}

/// The END marker of a segment.
#[derive(Debug, Clone, PartialEq)]
pub struct End {
    /// Exit status of the benchmark command; non-zero is a failed run.
    pub status: Option<i32>,
    pub dur_ms: Option<u64>,
    /// `date-ns`, `uptime` or `date-s`.
    pub clock: Option<String>,
    pub lines: Option<u64>,
    pub bytes: Option<u64>,
    /// Whether the output ended with `\n` (or was empty).
    pub eol: Option<bool>,
    /// MD5 of the output; `None` when the target had no `md5sum` (`md5=-`).
    pub md5: Option<String>,
    pub line: u64,
    pub host_s: Option<f64>,
}

/// Why a segment has no END.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// The capture ends inside it (a crash, a reset, a capture stopped early).
    CaptureEnds,
    /// Another marker came first (bytes lost, or two sessions overlap); its capture line.
    Marker { line: u64 },
}

/// The output of one benchmark run, between its BEGIN and END markers.
#[derive(Debug, Clone, PartialEq)]
pub struct Segment {
    pub sid: String,
    /// BEGIN's `seq`: 1, 2, ... per session, shared with SKIP.
    pub seq: u32,
    /// The runner's id, `<suite>/<name>`.
    pub id: String,
    /// The catalog command (for humans; not parsed).
    pub cmd: String,
    /// BEGIN's `t` on the target clock, ms.
    pub t_ms: Option<u64>,
    /// Capture line of BEGIN and its host time.
    pub begin_line: u64,
    pub begin_host_s: Option<f64>,
    /// The END marker; `None` when the segment was cut short (see `cut`).
    pub end: Option<End>,
    pub cut: Option<Cut>,
    /// The lines between the markers as captured (stamps and `\r` removed), joined by `\n`.
    pub raw: String,
    /// The benchmark's output: `raw` when it matches END, else `raw` without kernel messages.
    pub output: String,
    /// Capture line of each line of `output`.
    pub lines: Vec<u64>,
    pub integrity: Integrity,
}

impl Segment {
    /// The suite of the id (the part before `/`).
    pub fn suite(&self) -> &str {
        self.id.split('/').next().unwrap_or("")
    }

    /// Whether the END marker was seen.
    pub fn is_complete(&self) -> bool {
        self.end.is_some()
    }
}

/// A benchmark the runner did not run (SKIP marker).
#[derive(Debug, Clone, PartialEq)]
pub struct Skip {
    pub sid: String,
    pub seq: u32,
    pub id: String,
    /// `not-installed` or `no-server`.
    pub reason: String,
    pub line: u64,
    pub host_s: Option<f64>,
}

/// Everything framed in a capture, in capture order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Capture {
    pub sessions: Vec<Session>,
    pub segments: Vec<Segment>,
    pub skips: Vec<Skip>,
    /// Lost or overlapping markers, interrupted sessions, markers of other versions.
    pub warnings: Vec<String>,
}

/// A segment being read: BEGIN seen, END not yet.
struct Open {
    seg: Segment,
    lines: Vec<(u64, String)>,
}

/// One console line: capture line number, host time, text without `\r` and stamp.
struct Line<'a> {
    no: u64,
    host_s: Option<f64>,
    text: Cow<'a, str>,
}

struct Reader {
    capture: Capture,
    open: Option<Open>,
}

/// Cuts `text` (a console capture) into sessions, segments and skips; `stamp` removes the
/// capture tool's prefix from each line. Never fails: whatever is not framed is ignored.
pub fn read(text: &str, stamp: &dyn HostStamp) -> Capture {
    let mut lines = text
        .split('\n')
        .enumerate()
        .map(|(i, raw)| {
            let raw = raw.strip_suffix('\r').unwrap_or(raw);
            let (host_s, text) = stamp.strip(raw);
            Line {
                no: i as u64 + 1,
                host_s,
                text,
            }
        })
        .peekable();
    // A final `\n` does not start another line.
    let mut r = Reader {
        capture: Capture::default(),
        open: None,
    };
    while let Some(line) = lines.next() {
        if line.text.is_empty() && lines.peek().is_none() {
            break;
        }
        let Some(at) = line.text.find(SENTINEL) else {
            r.text_line(line.no, line.text.into_owned());
            continue;
        };
        if at > 0 {
            r.text_line(line.no, line.text[..at].to_string());
        }
        let mut candidate = line.text[at..].to_string();
        // A kernel message that cut the marker line in two: the marker is the text before
        // it joined with the next line.
        let mut spliced = 0;
        while let Some(k) = kernel_stamp(&candidate) {
            if spliced == MAX_SPLICE {
                break;
            }
            candidate.truncate(k);
            match lines.next() {
                Some(next) => candidate.push_str(&next.text),
                None => break,
            }
            spliced += 1;
        }
        match marker::parse(&candidate) {
            Some(m) if m.version == VERSION => r.marker(&m, line.no, line.host_s),
            Some(m) => r.capture.warnings.push(format!(
                "line {}: marker of framing version {} ignored",
                line.no, m.version
            )),
            None => r.text_line(line.no, candidate),
        }
    }
    r.finish()
}

impl Reader {
    fn text_line(&mut self, no: u64, text: String) {
        if let Some(open) = &mut self.open {
            open.lines.push((no, text));
        }
    }

    /// The session `sid`, created when the capture holds none of its SESSION marker.
    fn session(&mut self, sid: &str, line: u64, host_s: Option<f64>) -> &mut Session {
        let sessions = &mut self.capture.sessions;
        let at = match sessions.iter().rposition(|s| s.sid == sid) {
            Some(at) => at,
            None => {
                sessions.push(Session {
                    sid: sid.to_string(),
                    fields: Vec::new(),
                    line,
                    host_s,
                    done: None,
                });
                sessions.len() - 1
            }
        };
        &mut sessions[at]
    }

    /// Closes the open segment without END (cut by the marker on `line`, or by the end).
    fn cut(&mut self, cut: Cut) {
        if let Some(open) = self.open.take() {
            let s = &open.seg;
            self.capture.warnings.push(match cut {
                Cut::CaptureEnds => format!(
                    "{} (sid {}, seq {}, line {}): no END, the capture ends inside it",
                    s.id, s.sid, s.seq, s.begin_line
                ),
                Cut::Marker { line } => format!(
                    "{} (sid {}, seq {}, line {}): no END, cut by the marker on line {line}",
                    s.id, s.sid, s.seq, s.begin_line
                ),
            });
            self.close(open, None, Some(cut));
        }
    }

    fn close(&mut self, open: Open, end: Option<End>, cut: Option<Cut>) {
        let Open { mut seg, lines } = open;
        let expected = end.as_ref().and_then(|e| {
            Some(Expected {
                bytes: e.bytes?,
                eol: e.eol.unwrap_or(true),
                md5: e.md5.as_deref(),
            })
        });
        let eol = expected.as_ref().map_or(true, |e| e.eol);
        seg.raw = join(&lines.iter().map(|(_, l)| l).collect::<Vec<_>>(), eol);
        let exact = expected.as_ref().map(|e| matches(&seg.raw, e));
        let kept = if exact == Some(true) {
            seg.integrity = Integrity::Exact;
            lines
        } else {
            let cleaned = remove_kernel(&lines);
            let text = join(&cleaned.iter().map(|(_, l)| l).collect::<Vec<_>>(), eol);
            seg.integrity = match &expected {
                None => Integrity::Unchecked,
                Some(e) if matches(&text, e) => Integrity::KernelLinesRemoved,
                Some(_) => Integrity::Mismatch,
            };
            cleaned
        };
        seg.output = join(&kept.iter().map(|(_, l)| l).collect::<Vec<_>>(), eol);
        seg.lines = kept.into_iter().map(|(no, _)| no).collect();
        seg.end = end;
        seg.cut = cut;
        self.capture.segments.push(seg);
    }

    fn marker(&mut self, m: &Marker, line: u64, host_s: Option<f64>) {
        let seq = m.number::<u32>("seq");
        let id = m.field("id");
        if m.kind == Kind::End {
            let closes = self.open.as_ref().is_some_and(|o| {
                o.seg.sid == m.sid && Some(o.seg.seq) == seq && Some(o.seg.id.as_str()) == id
            });
            if closes {
                let open = self.open.take().expect("checked above");
                let end = End {
                    status: m.number("status"),
                    dur_ms: m.number("dur_ms"),
                    clock: m.field("clock").map(str::to_string),
                    lines: m.number("lines"),
                    bytes: m.number("bytes"),
                    eol: m.field("eol").map(|v| v != "0"),
                    md5: m.field("md5").filter(|v| *v != "-").map(str::to_string),
                    line,
                    host_s,
                };
                self.close(open, Some(end), None);
                return;
            }
            self.cut(Cut::Marker { line });
            self.capture.warnings.push(format!(
                "line {line}: END of {} (sid {}, seq {}) without its BEGIN",
                id.unwrap_or("?"),
                m.sid,
                seq.map_or("?".to_string(), |s| s.to_string())
            ));
            return;
        }
        self.cut(Cut::Marker { line });
        match m.kind {
            Kind::Session => {
                self.capture.sessions.push(Session {
                    sid: m.sid.to_string(),
                    fields: m
                        .fields
                        .iter()
                        .map(|(k, v)| (k.to_string(), v.to_string()))
                        .collect(),
                    line,
                    host_s,
                    done: None,
                });
            }
            Kind::Begin => {
                self.session(m.sid, line, host_s);
                self.open = Some(Open {
                    seg: Segment {
                        sid: m.sid.to_string(),
                        seq: seq.unwrap_or(0),
                        id: id.unwrap_or("").to_string(),
                        cmd: m.field("cmd").unwrap_or("").to_string(),
                        t_ms: m.number("t"),
                        begin_line: line,
                        begin_host_s: host_s,
                        end: None,
                        cut: None,
                        raw: String::new(),
                        output: String::new(),
                        lines: Vec::new(),
                        integrity: Integrity::Unchecked,
                    },
                    lines: Vec::new(),
                });
            }
            Kind::Skip => {
                self.session(m.sid, line, host_s);
                self.capture.skips.push(Skip {
                    sid: m.sid.to_string(),
                    seq: seq.unwrap_or(0),
                    id: id.unwrap_or("").to_string(),
                    reason: m.field("reason").unwrap_or("").to_string(),
                    line,
                    host_s,
                });
            }
            Kind::Done => {
                self.session(m.sid, line, host_s).done = Some(Done {
                    ran: m.number("ran"),
                    failed: m.number("failed"),
                    skipped: m.number("skipped"),
                    dur_ms: m.number("dur_ms"),
                    line,
                    host_s,
                });
            }
            Kind::End => {}
        }
    }

    fn finish(mut self) -> Capture {
        self.cut(Cut::CaptureEnds);
        let mut c = self.capture;
        // Segments and skips per session, to compare with DONE.
        let mut seen: HashMap<&str, (u64, u64)> = HashMap::new();
        for g in &c.segments {
            seen.entry(g.sid.as_str()).or_default().0 += 1;
        }
        for k in &c.skips {
            seen.entry(k.sid.as_str()).or_default().1 += 1;
        }
        let mut warnings = Vec::new();
        for s in &c.sessions {
            let (ran, skipped) = seen.get(s.sid.as_str()).copied().unwrap_or_default();
            match &s.done {
                None => warnings.push(format!(
                    "session {} (line {}): no DONE, interrupted",
                    s.sid, s.line
                )),
                Some(d)
                    if d.ran.is_some_and(|r| r != ran)
                        || d.skipped.is_some_and(|k| k != skipped) =>
                {
                    warnings.push(format!(
                        "session {}: DONE (line {}) counts {} run and {} skipped, the capture holds {ran} and {skipped}",
                        s.sid,
                        d.line,
                        d.ran.unwrap_or(0),
                        d.skipped.unwrap_or(0)
                    ));
                }
                Some(_) => {}
            }
        }
        c.warnings.extend(warnings);
        c
    }
}
