//! Console capture: bytes in, host-timestamped lines out, written in the raw capture format
//! ([`bootlog_parser::capture`], grabserial's `-t` format).
//!
//! Every line is stamped with the host's monotonic clock at the arrival of its FIRST byte
//! (grabserial's rule), in microseconds since power-on (t = 0). A line ends at LF, CRLF, LFCR
//! or a lone CR (CR runs collapse); the terminator is not written, the file's lines end with
//! `\n`. Lines are written as they complete and flushed one by one, append-only, so a capture
//! cut by a crash keeps every finished line.

use bootlog_parser::capture::{escape, format_line};
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

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
    /// The line as text, with the capture's escaping.
    pub fn text(&self) -> String {
        escape(&self.bytes)
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

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
}
