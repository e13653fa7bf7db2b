//! Assembles classified console lines into boots: stage boundaries, components, sub-timelines,
//! and the split of a log that holds several boots.
//!
//! Stages open at the line that announces them (a banner, `Starting kernel ...`, `Run /init`).
//! A stage that opens while a later stage is already running means the board was reset, so a
//! new boot begins; so does a printk clock that goes back. Figures are taken on the host clock
//! when the capture stamped lines, otherwise from the target's own clocks (SBL profile,
//! bootstage, printk, systemd), and are absent when neither tells.
//!
//! The modules, each using only those after it: [`dispatch`] (the per-line path: a line's
//! first bytes, its stamps and prefixes, to its record), [`assemble`] (the grammars' reading
//! of a record: stages opened and closed, components, ready detection), [`clock`] (the host
//! clock), [`builder`] (the boot under construction and its finishing) and [`recycle`] (the
//! pools that keep vectors and strings from boot to boot).

mod assemble;
mod builder;
mod clock;
#[allow(unsafe_code)]
mod dispatch;
mod recycle;
#[cfg(test)]
mod tests;

use crate::board::BoardProfile;
use crate::lines::LineSplitter;
use crate::model::Boot;
use assemble::State;

pub use crate::console::DEFAULT_READY;

/// A streaming boot-log parser: feed bytes, take completed boots; memory stays bounded by one
/// boot's facts whatever the input size.
pub struct Parser {
    splitter: LineSplitter,
    state: State,
}

impl Parser {
    /// A parser for a board (use [`BoardProfile::generic`] when the board is unknown).
    pub fn new(profile: &BoardProfile) -> Self {
        Parser {
            splitter: LineSplitter::new(),
            state: State::new(profile),
        }
    }

    /// Declares that host time 0 is power-on (true of `perfguide boot-loop` captures): the
    /// time from power-on to the first line that opens a stage is then reported as the `rom`
    /// stage (boot ROM and whatever runs before the first console output).
    pub fn power_on_origin(mut self, yes: bool) -> Self {
        self.state.clock.power_on = yes;
        self
    }

    /// Consumes a chunk of console bytes.
    pub fn feed(&mut self, bytes: &[u8]) {
        let Self { splitter, state } = self;
        splitter.feed_into(bytes, state);
    }

    /// Boots completed so far (a later boot began after them); drains them.
    pub fn take_boots(&mut self) -> impl Iterator<Item = Boot> + '_ {
        let mut all = Vec::new();
        while let Some(b) = self.next_boot() {
            all.push(b);
        }
        all.into_iter()
    }

    /// The oldest boot completed so far, if any: [`Parser::take_boots`] one at a time, so each
    /// can be handed back to [`Parser::recycle`] before the next is taken.
    pub fn next_boot(&mut self) -> Option<Boot> {
        self.state.done.take_front()
    }

    /// The oldest boot completed so far, borrowed: with [`Parser::recycle_front`] the
    /// [`Parser::next_boot`] / [`Parser::recycle`] round trip without moving the boot out
    /// and back in, and the boot stays whole where it is for a later boot to be built in.
    pub fn next_boot_mut(&mut self) -> Option<&mut Boot> {
        self.state.done.front_mut()
    }

    /// Drops the oldest completed boot (the one [`Parser::next_boot_mut`] lends), handing it
    /// back: it stays where it is, whole, and a later boot is built in it (its vectors and
    /// strings rewritten, see [`Builder::finish`]).
    pub fn recycle_front(&mut self) {
        self.state.done.skip_front();
    }

    /// Hands back a boot the caller is done with: later boots reuse its vectors and strings
    /// (cleared) instead of allocating their own. Optional; what is kept is bounded.
    pub fn recycle(&mut self, boot: Boot) {
        self.state.bin.recycle(boot);
    }

    /// Ends the input; returns the remaining boots.
    pub fn finish(mut self) -> Vec<Boot> {
        let Self { splitter, state } = &mut self;
        splitter.finish(&mut |n, b, f| state.line(n, b, f));
        state.end_boot();
        self.state.done.into_boots()
    }
}

/// Parses a whole log.
pub fn parse_bytes(bytes: &[u8], profile: &BoardProfile) -> Vec<Boot> {
    let mut p = Parser::new(profile);
    p.feed(bytes);
    p.finish()
}

/// Parses a capture whose host clock starts at power-on (a `cycle-NNNN.log` of a boot loop):
/// see [`Parser::power_on_origin`].
pub fn parse_power_on_capture(bytes: &[u8], profile: &BoardProfile) -> Vec<Boot> {
    let mut p = Parser::new(profile).power_on_origin(true);
    p.feed(bytes);
    p.finish()
}
