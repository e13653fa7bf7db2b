//! Console capture: bytes in, host-timestamped lines out, written in grabserial's `-t` format.
//!
//! Every line is stamped with the host's monotonic clock at the arrival of its FIRST byte
//! (grabserial's rule), in microseconds since power-on (t = 0). The raw capture line is
//! `[<abs> <delta>] <text>` with both numbers `%.6f` seconds, `delta` being the time since the
//! previous line's stamp (the first line's delta is its abs). Lines are written as they complete
//! and flushed one by one, append-only, so a capture cut by a crash keeps every finished line.
//!
//! Text encoding of a line (lossless, grabserial-identical for ordinary text):
//! - a line ends at LF, CRLF, LFCR or a lone CR (CR runs collapse); the terminator is not
//!   written, the file's lines end with `\n` (grabserial drops CRs instead of splitting on them);
//! - valid UTF-8 is written as is;
//! - every byte that is not part of valid UTF-8 is written as `\xNN` (two lowercase hex digits),
//!   and so is NUL (`\x00`: a NUL would make grep and editors treat the capture as binary);
//! - a backslash that is followed by `x` in the input is written as `\x5c`, so that `\xNN` in
//!   the file always means one escaped byte and the original bytes can be recovered with
//!   [`unescape`].

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// One finished console line.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// Host time of the line's first byte, µs since power-on (negative is never produced:
    /// bytes stamped before power-on are not part of a cycle).
    pub t_us: u64,
    /// The line's bytes without the terminator (and without the `\r` before it).
    pub bytes: Vec<u8>,
    /// The line ended with `\n` (false for a partial line flushed at the end of a cycle).
    pub terminated: bool,
}

impl Line {
    /// The line as text, with the capture's escaping (see the module docs).
    pub fn text(&self) -> String {
        escape(&self.bytes)
    }
}

/// Escapes bytes for the raw capture: valid UTF-8 kept, other bytes as `\xNN`, `\x` as `\x5cx`.
pub fn escape(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    let mut rest = bytes;
    while !rest.is_empty() {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                push_text(&mut out, s, &[]);
                break;
            }
            Err(e) => {
                let (good, bad) = rest.split_at(e.valid_up_to());
                // SAFETY-free: `good` is valid UTF-8 by construction of `valid_up_to`.
                let good = std::str::from_utf8(good).unwrap_or_default();
                push_text(&mut out, good, bad);
                let n = e.error_len().unwrap_or(bad.len()).max(1);
                for b in &bad[..n] {
                    out.push_str(&format!("\\x{b:02x}"));
                }
                rest = &bad[n..];
            }
        }
    }
    out
}

/// Appends valid text, escaping a backslash that is followed by `x` (looking across into
/// `next`, the bytes that follow `s` in the input).
fn push_text(out: &mut String, s: &str, next: &[u8]) {
    let b = s.as_bytes();
    let mut start = 0;
    for (i, &c) in b.iter().enumerate() {
        if c == 0 {
            out.push_str(&s[start..i]);
            out.push_str("\\x00");
            start = i + 1;
        } else if c == b'\\' {
            let following = b.get(i + 1).or_else(|| next.first()).copied();
            if following == Some(b'x') {
                out.push_str(&s[start..i]);
                out.push_str("\\x5c");
                start = i + 1;
            }
        }
    }
    out.push_str(&s[start..]);
}

/// Reverses [`escape`]: `\xNN` becomes the byte NN, everything else is literal.
pub fn unescape(text: &str) -> Vec<u8> {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && b.get(i + 1) == Some(&b'x') && i + 3 < b.len() {
            let hex = &text.get(i + 2..i + 4);
            if let Some(Ok(v)) = hex.map(|h| u8::from_str_radix(h, 16)) {
                out.push(v);
                i += 4;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    out
}

/// Formats one raw capture line (without the trailing newline).
pub fn format_line(t_us: u64, delta_us: u64, text: &str) -> String {
    let abs = format!("{}.{:06}", t_us / 1_000_000, t_us % 1_000_000);
    let delta = format!("{}.{:06}", delta_us / 1_000_000, delta_us % 1_000_000);
    if text.is_empty() {
        format!("[{abs} {delta}]")
    } else {
        format!("[{abs} {delta}] {text}")
    }
}

/// Splits a byte stream into lines, stamping each at its first byte.
///
/// A line ends at LF, CRLF, LFCR or a lone CR (the same rule as the parser's line splitter);
/// runs of CR collapse, so `\r\r\n` ends one line, not two.
#[derive(Debug)]
pub struct LineSplitter {
    t0: Instant,
    cur: Vec<u8>,
    cur_t_us: Option<u64>,
    /// A CR was seen and the line it ends is not emitted yet (waiting for a possible LF).
    pending_cr: bool,
    /// The previous line ended with LF: a CR right after it belongs to it.
    after_lf: bool,
}

impl LineSplitter {
    /// A splitter whose t = 0 is `t0` (the power-on instant).
    pub fn new(t0: Instant) -> Self {
        Self {
            t0,
            cur: Vec::new(),
            cur_t_us: None,
            pending_cr: false,
            after_lf: false,
        }
    }

    /// µs since t0 (0 for instants before it).
    pub fn since_t0_us(&self, at: Instant) -> u64 {
        u64::try_from(at.saturating_duration_since(self.t0).as_micros()).unwrap_or(u64::MAX)
    }

    fn end_line(&mut self, t: u64, done: &mut Vec<Line>) {
        done.push(Line {
            t_us: self.cur_t_us.take().unwrap_or(t),
            bytes: std::mem::take(&mut self.cur),
            terminated: true,
        });
    }

    /// Feeds bytes that arrived at `at`; returns the lines they completed.
    pub fn push(&mut self, at: Instant, bytes: &[u8]) -> Vec<Line> {
        let t = self.since_t0_us(at);
        let mut done = Vec::new();
        for &b in bytes {
            match b {
                b'\r' if self.after_lf => {}
                b'\r' => {
                    if self.cur_t_us.is_none() {
                        self.cur_t_us = Some(t);
                    }
                    self.pending_cr = true;
                }
                b'\n' => {
                    if self.cur_t_us.is_none() {
                        self.cur_t_us = Some(t);
                    }
                    self.pending_cr = false;
                    self.end_line(t, &mut done);
                    self.after_lf = true;
                }
                _ => {
                    self.after_lf = false;
                    if self.pending_cr {
                        self.pending_cr = false;
                        self.end_line(t, &mut done);
                    }
                    if self.cur_t_us.is_none() {
                        self.cur_t_us = Some(t);
                    }
                    self.cur.push(b);
                }
            }
        }
        done
    }

    /// The unfinished line so far (bytes without a line end yet), e.g. a `login: ` prompt.
    pub fn partial(&self) -> &[u8] {
        &self.cur
    }

    /// Host stamp of the unfinished line, if any byte of it arrived.
    pub fn partial_t_us(&self) -> Option<u64> {
        self.cur_t_us
    }

    /// Ends the capture: the unfinished line, if any byte of it arrived.
    pub fn finish(&mut self) -> Option<Line> {
        let t = self.cur_t_us.take()?;
        let terminated = std::mem::take(&mut self.pending_cr);
        Some(Line {
            t_us: t,
            bytes: std::mem::take(&mut self.cur),
            terminated,
        })
    }
}

/// Errors writing a capture.
#[derive(Debug, thiserror::Error)]
pub enum CaptureError {
    /// The capture file could not be created or written.
    #[error("capture file {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
}

/// Appends lines in the raw capture format to a file, flushing each line.
#[derive(Debug)]
pub struct CaptureWriter {
    path: PathBuf,
    file: File,
    last_t_us: u64,
    lines: u64,
    bytes: u64,
}

impl CaptureWriter {
    /// Opens `path` for appending (created if missing).
    pub fn create(path: &Path) -> Result<Self, CaptureError> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|source| CaptureError::Io {
                path: path.to_path_buf(),
                source,
            })?;
        Ok(Self {
            path: path.to_path_buf(),
            file,
            last_t_us: 0,
            lines: 0,
            bytes: 0,
        })
    }

    /// Writes one line and flushes it to the OS.
    pub fn write_line(&mut self, line: &Line) -> Result<(), CaptureError> {
        let delta = line.t_us.saturating_sub(self.last_t_us);
        self.last_t_us = line.t_us;
        let mut s = format_line(line.t_us, delta, &line.text());
        s.push('\n');
        self.file
            .write_all(s.as_bytes())
            .and_then(|_| self.file.flush())
            .map_err(|source| CaptureError::Io {
                path: self.path.clone(),
                source,
            })?;
        self.lines += 1;
        self.bytes += line.bytes.len() as u64 + u64::from(line.terminated);
        Ok(())
    }

    /// Forces the data to disk (at the end of a cycle).
    pub fn sync(&mut self) -> Result<(), CaptureError> {
        self.file.sync_data().map_err(|source| CaptureError::Io {
            path: self.path.clone(),
            source,
        })
    }

    /// Lines written so far.
    pub fn lines(&self) -> u64 {
        self.lines
    }

    /// Console bytes written so far (terminators counted, `\r` not).
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Seconds as `%.6f` from a duration (for messages).
pub fn secs(d: Duration) -> String {
    format!("{:.6}", d.as_secs_f64())
}

/// Parses the prefix of a raw capture line: `[abs delta] text` -> `(abs_us, delta_us, text)`.
/// Returns `None` for a line without the prefix.
pub fn parse_line(line: &str) -> Option<(u64, u64, &str)> {
    let rest = line.strip_prefix('[')?;
    let close = rest.find(']')?;
    let (nums, after) = rest.split_at(close);
    let mut it = nums.split(' ').filter(|s| !s.is_empty());
    let abs = parse_secs_us(it.next()?)?;
    let delta = parse_secs_us(it.next()?)?;
    if it.next().is_some() {
        return None;
    }
    let text = &after[1..];
    Some((abs, delta, text.strip_prefix(' ').unwrap_or(text)))
}

fn parse_secs_us(s: &str) -> Option<u64> {
    let (int, frac) = s.split_once('.')?;
    if int.is_empty() || !int.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    if frac.is_empty() || frac.len() > 9 || !frac.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let int: u64 = int.parse().ok()?;
    let mut f = frac.to_string();
    f.truncate(6);
    while f.len() < 6 {
        f.push('0');
    }
    let frac: u64 = f.parse().ok()?;
    int.checked_mul(1_000_000)?.checked_add(frac)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_roundtrip() {
        let cases: Vec<&[u8]> = vec![
            b"plain",
            b"\xff\xfe\x00 noise",
            b"a\\xb c:\\x41 \\n",
            b"tail backslash \\",
            "caf\u{e9} \u{2026}".as_bytes(),
            b"\xc3",
            b"\\\xff",
            b"\\",
            b"nul\0 \0\xff",
        ];
        for c in cases {
            let e = escape(c);
            assert_eq!(unescape(&e), c, "{e}");
        }
        assert_eq!(escape(b"\xffok"), "\\xffok");
        assert_eq!(escape(b"C:\\x"), "C:\\x5cx");
        assert_eq!(escape(b"a\\b"), "a\\b");
    }

    #[test]
    fn lines_are_stamped_at_their_first_byte() {
        let t0 = Instant::now();
        let mut s = LineSplitter::new(t0);
        assert!(s.push(t0 + Duration::from_micros(10), b"U-Boot").is_empty());
        let l = s.push(t0 + Duration::from_micros(500), b" 2024\r\nDRAM");
        assert_eq!(l.len(), 1);
        assert_eq!(l[0].t_us, 10);
        assert_eq!(l[0].bytes, b"U-Boot 2024");
        assert_eq!(s.partial(), b"DRAM");
        assert_eq!(s.partial_t_us(), Some(500));
        let l = s.finish().unwrap();
        assert_eq!((l.t_us, l.terminated), (500, false));
    }

    #[test]
    fn line_ends() {
        let t0 = Instant::now();
        let mut s = LineSplitter::new(t0);
        let mut all = Vec::new();
        for chunk in [&b"a\r"[..], b"\nb\n\rc\r\r\nd\re\r", b"\n", b"x"] {
            all.extend(s.push(t0, chunk).into_iter().map(|l| l.bytes));
        }
        let want: Vec<&[u8]> = vec![b"a", b"b", b"c", b"d", b"e"];
        assert_eq!(all, want);
        assert_eq!(s.partial(), b"x");
    }

    #[test]
    fn format_matches_grabserial() {
        assert_eq!(
            format_line(6011, 6011, "Hello World!"),
            "[0.006011 0.006011] Hello World!"
        );
        assert_eq!(format_line(12_345_678, 1, ""), "[12.345678 0.000001]");
        assert_eq!(
            parse_line("[1.974911 0.000202] Starting kernel ..."),
            Some((1_974_911, 202, "Starting kernel ..."))
        );
        assert_eq!(parse_line("[0.000002 0.000002]"), Some((2, 2, "")));
        assert_eq!(parse_line("[    0.090111] dmi"), None);
    }
}
