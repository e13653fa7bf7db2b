//! Watching one cycle's console as it is captured: every line is written to the capture and
//! matched against the board's ready, panic and banner patterns
//! ([`bootlog_parser::console`]), on the text the parser would see.

use super::options::LoopOptions;
use crate::capture::{CaptureError, CaptureWriter, Line, LineSplitter};
use bootlog_parser::capture::escape;
use bootlog_parser::console::match_text;
use std::time::Instant;

/// Live state of the capture of one cycle.
pub(super) struct Watch {
    pub splitter: LineSplitter,
    pub writer: CaptureWriter,
    /// Power-on.
    pub t0: Instant,
    pub first_byte: Option<Instant>,
    /// Stamp of the line that matched the ready pattern.
    pub ready_us: Option<u64>,
    /// When the panic line came, and the line.
    pub panic_at: Option<(Instant, String)>,
    /// A banner seen more often than the board prints it.
    pub reset: Option<String>,
    banner_counts: Vec<usize>,
    /// Bytes that came before power-on.
    pub discarded: u64,
    last_text: String,
}

impl Watch {
    /// Watching from power-on `t0`, writing to `writer`.
    pub fn new(t0: Instant, writer: CaptureWriter, opts: &LoopOptions, discarded: u64) -> Self {
        Watch {
            splitter: LineSplitter::new(t0),
            writer,
            t0,
            first_byte: None,
            ready_us: None,
            panic_at: None,
            reset: None,
            banner_counts: vec![0; opts.banners.len()],
            discarded,
            last_text: String::new(),
        }
    }

    /// Bytes that arrived at `at` (after power-on): the lines they complete are written and
    /// watched.
    pub fn push(
        &mut self,
        at: Instant,
        bytes: &[u8],
        opts: &LoopOptions,
    ) -> Result<(), CaptureError> {
        self.first_byte.get_or_insert(at);
        for line in self.splitter.push(at, bytes) {
            self.on_line(&line, opts)?;
        }
        Ok(())
    }

    /// Whether the unfinished line is the ready prompt (a `login: ` waits for input without
    /// a line end); if so its stamp is the ready time.
    pub fn partial_ready(&mut self, opts: &LoopOptions) {
        if self.ready_us.is_none() && !self.splitter.partial().is_empty() {
            let t = match_text(self.splitter.partial());
            if opts.ready.is_match(&t) {
                self.ready_us = self.splitter.partial_t_us();
            }
        }
    }

    /// Ends the capture: the unfinished line is written and watched.
    pub fn finish(&mut self, opts: &LoopOptions) -> Result<(), CaptureError> {
        if let Some(line) = self.splitter.finish() {
            self.on_line(&line, opts)?;
        }
        self.writer.sync()
    }

    fn on_line(&mut self, line: &Line, opts: &LoopOptions) -> Result<(), CaptureError> {
        self.writer.write_line(line)?;
        if opts.echo {
            eprintln!("{:>11.6} {}", line.t_us as f64 / 1e6, line.text());
        }
        let t = match_text(&line.bytes);
        if !t.trim().is_empty() {
            self.last_text = t.trim().to_string();
        }
        if self.ready_us.is_none() && opts.ready.is_match(&t) {
            self.ready_us = Some(line.t_us);
        }
        if self.panic_at.is_none() && opts.panic.is_match(&t) {
            self.panic_at = Some((Instant::now(), t.trim().to_string()));
        }
        for (i, (re, allowed)) in opts.banners.iter().enumerate() {
            if re.is_match(&t) {
                self.banner_counts[i] += 1;
                if self.banner_counts[i] > *allowed && self.reset.is_none() {
                    self.reset = Some(format!(
                        "banner seen again at {:.6} s: {}",
                        line.t_us as f64 / 1e6,
                        t.trim()
                    ));
                }
            }
        }
        Ok(())
    }

    /// The last text the board printed, for a timeout's message.
    pub fn last_line_hint(&self) -> String {
        let p = self.splitter.partial();
        if !p.is_empty() {
            return escape(p);
        }
        if self.last_text.is_empty() {
            return format!("({} empty lines captured)", self.writer.lines());
        }
        self.last_text.clone()
    }
}
