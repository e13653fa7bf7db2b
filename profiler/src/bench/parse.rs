//! Benchmark output as `perfguide bench parse` reads it: a console capture framed by
//! `perfguide-bench` (its segments parsed by the tools their ids name), or a tool's bare
//! output (the tools recognised from the content, or the one named).

use bench_parser::framing::{self, SENTINEL};
use bench_parser::results::tool_of_suite;
use bench_parser::{results, Error as ToolError, Metric, Outcome, Tool, TOOLS};
use bootlog_parser::hoststamp::{self, Layer};
use std::borrow::Cow;
use std::fmt;
use std::io::{self, Read as _};
use std::path::Path;
use thiserror::Error;

/// Longest excerpt of a line quoted in an error.
const EXCERPT: usize = 60;

/// How an input was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// A capture framed by `perfguide-bench`: its sessions, segments and skips.
    Framed {
        sessions: usize,
        segments: usize,
        skips: usize,
    },
    /// Bare output of these tools.
    Bare { tools: Vec<&'static str> },
}

/// Something about an input that did not stop it being read, with the line it concerns
/// when one alone does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    pub line: Option<u64>,
    pub message: String,
}

impl Warning {
    /// The warning as `<source>:<line>: <message>` (`<source>: <message>` without a line).
    pub fn located(&self, source: &str) -> String {
        match self.line {
            Some(l) => format!("{source}:{l}: {}", self.message),
            None => format!("{source}: {}", self.message),
        }
    }
}

/// What one input gave: its figures in input order and the warnings.
#[derive(Debug, Clone, PartialEq)]
pub struct BenchInput {
    pub kind: Kind,
    pub metrics: Vec<Metric>,
    pub warnings: Vec<Warning>,
}

/// A line of the input, quoted in errors: its number and an excerpt of its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct At {
    pub line: u64,
    pub text: String,
}

impl At {
    /// Line `line` (1-based) of `text`.
    fn of(text: &str, line: u64) -> At {
        let content = usize::try_from(line.saturating_sub(1))
            .ok()
            .and_then(|i| text.split('\n').nth(i))
            .unwrap_or("")
            .trim();
        // Control characters (a binary file, a terminal's escapes) quoted as escapes.
        let mut excerpt = String::new();
        for c in content.chars().take(EXCERPT) {
            if c.is_control() {
                excerpt.extend(c.escape_default());
            } else {
                excerpt.push(c);
            }
        }
        if content.chars().nth(EXCERPT).is_some() {
            excerpt.push_str("...");
        }
        At {
            line,
            text: excerpt,
        }
    }
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.text.is_empty() {
            write!(f, "line {}: empty", self.line)
        } else {
            write!(f, "line {}: {}", self.line, self.text)
        }
    }
}

/// Why an input gave no figures at all.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BenchInputError {
    /// Not framed, and no tool recognises the content; `at` is its first non-blank line.
    #[error("not recognised as any benchmark's output ({at})")]
    NotRecognised { at: At },
    /// Not the output of the tool named; `detected` is a tool that does recognise it.
    #[error("not recognised as {tool} output ({at}){}", detected.map(|d| format!("; it looks like {d} output")).unwrap_or_default())]
    NotTool {
        tool: &'static str,
        at: At,
        detected: Option<&'static str>,
    },
    /// Looks like `tool`'s output but holds no figure; `at` is where it stops.
    #[error("{tool} output without a figure, it stops at {at}")]
    NoMetrics { tool: &'static str, at: At },
    /// Any other parser error.
    #[error(transparent)]
    Tool(ToolError),
}

/// Reads one input whole: a file, or stdin for `-`. Bytes that are not UTF-8 become U+FFFD.
pub fn read_source(path: &Path) -> io::Result<String> {
    let bytes = if path == Path::new("-") {
        let mut b = Vec::new();
        io::stdin().lock().read_to_end(&mut b)?;
        b
    } else {
        std::fs::read(path)?
    };
    Ok(match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

/// One console line without the capture tool's stamp (perfguide's capture and grabserial
/// `-t`/`-T`, minicom/picocom/tio wall clocks, LAVA `log.yaml`): its host time and its text.
pub fn console_line(line: &str) -> (Option<f64>, Cow<'_, str>) {
    match hoststamp::strip(line) {
        Layer::None(text) => (None, Cow::Borrowed(text)),
        Layer::Host(s, _, text) => (Some(s), Cow::Borrowed(text)),
        Layer::Lava(s, message) => (s, Cow::Owned(message.unwrap_or_default())),
        Layer::LavaInput(s, _) => (s, Cow::Borrowed("")),
    }
}

/// The text with each line's `\r` and capture stamp removed, line for line.
fn console_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let line = line.strip_suffix('\r').unwrap_or(line);
        out.push_str(&console_line(line).1);
    }
    out
}

/// Reads the figures of one input. A text holding the framing's sentinel is a framed
/// capture: every complete segment parsed by the tool of its id's suite (only those of
/// `tool`, when given). Other text is bare output: parsed by `tool`, or by every tool that
/// recognises it (a log may hold several tools' output).
pub fn read(text: &str, tool: Option<&'static Tool>) -> Result<BenchInput, BenchInputError> {
    if text.contains(SENTINEL) {
        let framed = read_framed(text, tool);
        if !matches!(framed.kind, Kind::Framed { sessions: 0, .. }) {
            return Ok(framed);
        }
    }
    read_bare(text, tool)
}

fn read_framed(text: &str, tool: Option<&'static Tool>) -> BenchInput {
    let capture = framing::read(text, &console_line);
    let mut input = BenchInput {
        kind: Kind::Framed {
            sessions: capture.sessions.len(),
            segments: capture.segments.len(),
            skips: capture.skips.len(),
        },
        metrics: Vec::new(),
        warnings: capture
            .warnings
            .iter()
            .map(|w| Warning {
                line: None,
                message: w.clone(),
            })
            .collect(),
    };
    for entry in results(&capture) {
        // A failed or skipped run has no parser: the tool of its suite.
        let suite = entry.id.split('/').next().unwrap_or("");
        let of = entry.tool.or_else(|| tool_of_suite(suite).map(|t| t.name));
        if tool.is_some_and(|t| of != Some(t.name)) {
            continue;
        }
        input
            .warnings
            .extend(entry.warnings.into_iter().map(|message| Warning {
                line: Some(entry.line),
                message,
            }));
        if entry.outcome == Outcome::Parsed {
            input.metrics.extend(entry.metrics);
        }
    }
    if let (Some(t), true) = (tool, input.metrics.is_empty()) {
        input.warnings.push(Warning {
            line: None,
            message: format!("no segment parsed by {}", t.name),
        });
    }
    input
}

fn read_bare(text: &str, tool: Option<&'static Tool>) -> Result<BenchInput, BenchInputError> {
    let text = console_text(text);
    let tools: Vec<&'static Tool> = match tool {
        Some(t) => vec![t],
        None => TOOLS.iter().filter(|t| (t.recognise)(&text)).collect(),
    };
    let mut input = BenchInput {
        kind: Kind::Bare { tools: Vec::new() },
        metrics: Vec::new(),
        warnings: Vec::new(),
    };
    let mut first_error = None;
    for t in tools {
        match (t.parse)(&text) {
            Ok(parsed) => {
                if let Kind::Bare { tools } = &mut input.kind {
                    tools.push(t.name);
                }
                input.metrics.extend(parsed.metrics);
                input
                    .warnings
                    .extend(parsed.warnings.into_iter().map(|message| Warning {
                        line: None,
                        message,
                    }));
            }
            Err(e) => {
                let e = explain(&text, e);
                if tool.is_none() {
                    input.warnings.push(Warning {
                        line: None,
                        message: e.to_string(),
                    });
                }
                first_error.get_or_insert(e);
            }
        }
    }
    if !input.metrics.is_empty() {
        return Ok(input);
    }
    Err(match first_error {
        Some(e) => e,
        // No tool recognised the text: `parse_auto` names its first non-blank line.
        None => match bench_parser::parse_auto(&text) {
            Err(ToolError::Undetected { line }) => BenchInputError::NotRecognised {
                at: At::of(&text, line),
            },
            Err(e) => explain(&text, e),
            Ok(_) => BenchInputError::NotRecognised {
                at: At::of(&text, 1),
            },
        },
    })
}

/// A parser's error with the line it names quoted.
fn explain(text: &str, e: ToolError) -> BenchInputError {
    match e {
        ToolError::NotRecognised { tool, line } => BenchInputError::NotTool {
            tool,
            at: At::of(text, line),
            detected: bench_parser::detect(text).map(|t| t.name),
        },
        ToolError::NoMetrics { tool, line } => BenchInputError::NoMetrics {
            tool,
            at: At::of(text, line),
        },
        ToolError::Undetected { line } => BenchInputError::NotRecognised {
            at: At::of(text, line),
        },
        e => BenchInputError::Tool(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_are_removed_line_for_line() {
        let text = "[1.000000 1.000000] Copy:   10.0\r\n[1.5 0.5]\nplain\n";
        assert_eq!(console_text(text), "Copy:   10.0\n\nplain\n");
    }

    #[test]
    fn quoted_lines_are_cut_and_blank_ones_named() {
        let long = "x".repeat(100);
        let at = At::of(&format!("a\n{long}\n"), 2);
        assert_eq!(at.text, format!("{}...", "x".repeat(EXCERPT)));
        assert_eq!(At::of(&"y".repeat(EXCERPT), 1).text, "y".repeat(EXCERPT));
        assert_eq!(At::of("", 1).to_string(), "line 1: empty");
        assert_eq!(At::of("a\n  b \n", 2).to_string(), "line 2: b");
        assert_eq!(At::of("\x1b[0m\u{7}x", 1).text, "\\u{1b}[0m\\u{7}x");
    }
}
