//! The accumulator every parser fills: metrics, warnings and the final checks.

use crate::error::Error;
use crate::model::{Better, Metric, Parsed};
use crate::text;

/// Metrics and warnings of one parse of one tool's output.
pub(crate) struct Collect {
    tool: &'static str,
    run: u32,
    parsed: Parsed,
}

impl Collect {
    /// Starts a parse of `tool`'s output, or says the text is not its output.
    pub(crate) fn start(
        tool: &'static str,
        recognised: bool,
        input: &str,
    ) -> Result<Collect, Error> {
        if recognised {
            Ok(Collect {
                tool,
                run: 1,
                parsed: Parsed::default(),
            })
        } else {
            Err(Error::NotRecognised {
                tool,
                line: text::first_line(input),
            })
        }
    }

    /// Sets the run number of the figures pushed from now on (1 at the start).
    pub(crate) fn set_run(&mut self, run: u32) {
        self.run = run.max(1);
    }

    /// Adds one figure of the current run.
    pub(crate) fn push(
        &mut self,
        benchmark: &str,
        metric: &str,
        value: f64,
        unit: &str,
        better: Better,
        line: u64,
    ) {
        self.parsed.metrics.push(Metric {
            benchmark: benchmark.to_string(),
            metric: metric.to_string(),
            value,
            unit: unit.to_string(),
            better,
            run: self.run,
            line,
        });
    }

    /// Notes that the output stops at `line` before `missing`.
    pub(crate) fn truncated(&mut self, line: u64, missing: &str) {
        self.parsed.warnings.push(format!(
            "{}: output stops at line {line} before {missing}",
            self.tool
        ));
    }

    /// Adds a free-form warning (prefixed with the tool name).
    pub(crate) fn warn(&mut self, message: &str) {
        self.parsed
            .warnings
            .push(format!("{}: {message}", self.tool));
    }

    /// Whether no metric has been read yet.
    pub(crate) fn is_empty(&self) -> bool {
        self.parsed.metrics.is_empty()
    }

    /// The result: the metrics read, or [`Error::NoMetrics`] when there are none.
    pub(crate) fn finish(self, input: &str) -> Result<Parsed, Error> {
        if self.parsed.metrics.is_empty() {
            Err(Error::NoMetrics {
                tool: self.tool,
                line: text::last_line(input),
            })
        } else {
            Ok(self.parsed)
        }
    }
}
