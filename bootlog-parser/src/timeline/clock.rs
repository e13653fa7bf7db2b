//! The host clock of a capture: the stamps the capture tool put on lines (grabserial,
//! minicom, LAVA), made continuous across restarts (`grabserial -m` base resets, a new capture
//! in the same log), and each boot's origin on it.

use super::builder::Builder;
use super::recycle::{Slots, StringPool};
use crate::ascii;
use crate::fixed::push_fixed6;
use crate::hoststamp::HostScale;

/// The host clock's state across the boots of one log.
pub(super) struct HostClock {
    /// What is added to a raw host time to keep the clock continuous across restarts.
    pub(super) offset: f64,
    /// The last raw host time read.
    pub(super) last_raw: Option<f64>,
    /// Where the host clock restarted (a new capture), used as the next boot's origin.
    pub(super) pending_origin: Option<f64>,
    /// The scale of the last host time noted.
    pub(super) last_scale: HostScale,
    /// The capture's host clock starts at power-on (perfguide's own captures).
    pub(super) power_on: bool,
}

impl Default for HostClock {
    fn default() -> Self {
        HostClock {
            offset: 0.0,
            last_raw: None,
            pending_origin: None,
            last_scale: HostScale::Relative,
            power_on: false,
        }
    }
}

impl HostClock {
    /// Whether a raw host time `raw` goes back from the last one (a restart).
    #[inline(always)]
    pub(super) fn goes_back(&self, raw: f64) -> bool {
        self.last_raw.is_some_and(|last| raw + 1e-6 < last)
    }

    /// The absolute host time of a raw one, made continuous across restarts (a restart on
    /// line `n` warns in `warnings`), and noted in the boot `b` ([`HostClock::note`]).
    #[inline(always)]
    pub(super) fn host(
        &mut self,
        n: u64,
        raw: Option<f64>,
        scale: HostScale,
        b: &mut Builder,
        first_boot: bool,
        strings: &mut StringPool,
    ) -> Option<f64> {
        let raw = raw?;
        if let Some(last) = self.last_raw {
            if raw + 1e-6 < last {
                self.restart(n, last, raw, &mut b.warnings, strings);
            }
        }
        self.last_raw = Some(raw);
        let abs = raw + self.offset;
        self.note(abs, scale, first_boot, b);
        Some(abs)
    }

    /// A raw host time `raw` below the last one, `last`, on line `n`: the offset that
    /// continues the clock, the next boot's origin, and a warning.
    #[inline(never)]
    fn restart(
        &mut self,
        n: u64,
        last: f64,
        raw: f64,
        warnings: &mut Slots<String>,
        strings: &mut StringPool,
    ) {
        // grabserial -m restarts its base at the matching line: continue from there.
        self.offset += last;
        self.pending_origin = Some(self.offset);
        // Written by hand, not `format!`: a log of many captures has one per capture.
        let w = warnings.next_text(strings, 160);
        w.push_str("line ");
        ascii::push_decimal(w, n);
        w.push_str(": host clock went back from ");
        push_fixed6(w, last);
        w.push_str(" to ");
        push_fixed6(w, raw);
        w.push_str("; continued from ");
        push_fixed6(w, last);
        w.push_str(" (grabserial -m base reset or a new capture?)");
    }

    /// Notes an absolute host time `abs` in the boot `b`, fixing the boot's origin on first
    /// use (`first_boot`: `b` is the log's first boot).
    #[inline]
    pub(super) fn note(&mut self, abs: f64, scale: HostScale, first_boot: bool, b: &mut Builder) {
        self.last_scale = scale;
        if b.origin.is_none() {
            b.scale = Some(scale);
            b.origin = Some(match (scale, self.pending_origin.take()) {
                (HostScale::Wall, _) => abs,
                (HostScale::Relative, Some(p)) => p,
                (HostScale::Relative, None) if first_boot => 0.0,
                (HostScale::Relative, None) => abs,
            });
        }
        b.last_host = Some(abs);
    }
}
