//! Assembles classified console lines into boots: stage boundaries, components, sub-timelines,
//! and the split of a log that holds several boots.
//!
//! Stages open at the line that announces them (a banner, `Starting kernel ...`, `Run /init`).
//! A stage that opens while a later stage is already running means the board was reset, so a
//! new boot begins; so does a printk clock that goes back. Figures are taken on the host clock
//! when the capture stamped lines, otherwise from the target's own clocks (SBL profile,
//! bootstage, printk, systemd), and are absent when neither tells.

use crate::board::BoardProfile;
use crate::hoststamp::{self, HostScale, Layer};
use crate::lines::{clean, clean_known, plain_text, Flags, LineSplitter, MAX_LINE};
use crate::model::*;
use crate::needles;
use crate::stats::same_bytes;
use crate::{ascii, gate, linux, optee, rpi, sbl, sysfw, systemd, tfa, uboot};
use regex::Regex;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The ready pattern used when a profile gives none: a login prompt.
pub use crate::console::DEFAULT_READY;

/// A streaming boot-log parser: feed bytes, take completed boots; memory stays bounded by one
/// boot's facts whatever the input size.
pub struct Parser {
    splitter: LineSplitter,
    state: State,
}

struct State {
    first_spl: StageId,
    ready: Option<Regex>,
    markers: Vec<(StageId, Regex)>,
    cur: Builder,
    done: Done,
    next_index: usize,
    /// Host clock continuity across grabserial `-m` base resets.
    host_offset: f64,
    last_host_raw: Option<f64>,
    /// Where the host clock restarted (a new capture), used as the next boot's origin.
    pending_origin: Option<f64>,
    last_scale: HostScale,
    /// The capture's host clock starts at power-on (perfguide's own captures).
    power_on: bool,
    /// The words the current line may hold (see [`needles`]), as the splitter found them.
    hints: u8,
    /// The profile has markers or a ready pattern of its own, which every text must be tried
    /// with: `!markers.is_empty() || ready.is_some()`, fixed when the parser is made, so that
    /// the fast paths that skip them ([`State::takes_no_grammar`], [`State::record_line`])
    /// test one byte, not a vector's length and an option.
    profile_hooks: bool,
    /// [`linux::StampMemo`] of the last printk stamp `bracket_line` read.
    stamp_memo: linux::StampMemo,
    /// The number of the line after the last usual printk line ([`State::usual_printk_done`];
    /// `u64::MAX`: none yet, a number no line reaches): see [`State::printk_usual`].
    usual_next: u64,
    /// Vectors and strings of boots handed back by [`Parser::recycle`], for the next boots.
    bin: Bin,
}

struct OpenStage {
    id: StageId,
    line: u64,
    host: Option<f64>,
    bytes: u64,
}

#[derive(Default)]
struct Builder {
    boot: Boot,
    started: bool,
    stages: Vec<OpenStage>,
    scale: Option<HostScale>,
    origin: Option<f64>,
    last_host: Option<f64>,
    ready_host: Option<f64>,
    /// The bootstage report or SBL cores list being read (lines that continue it are read
    /// as its rows, see [`State::bootstage_row`]): one test on every line for both.
    bootstage: Option<BootstageMode>,
    sbl_run: u32,
    sbl_run_has_data: bool,
    /// The last `calling` initcall not yet returned (`calling_open`); the buffer is reused,
    /// as initcall_debug prints thousands of them.
    calling: String,
    calling_open: bool,
    printk_offset: Option<f64>,
    seen_tfa: bool,
    /// Latest Raspberry Pi firmware stamp (`MESS:`), seconds since the VideoCore started.
    fw_s: Option<f64>,
    /// The firmware stamp when the kernel stage opened: the firmware's share of the boot.
    fw_at_kernel: Option<f64>,
    lines: (u64, u64),
    /// Console bytes of the lines touched since the last stage opened, not yet added to its
    /// `bytes`: one add a line instead of a look-up of the last stage
    /// ([`Builder::flush_bytes`] adds them when a stage opens and when the boot ends).
    tail_bytes: u64,
    /// systemd blame rows, critical-chain units and failed units of this boot, kept here (not
    /// in `boot.systemd`) so their capacity outlives the boot; [`Builder::finish`] moves them.
    sd_blame: Slots<SystemdUnit>,
    sd_chain: Slots<SystemdUnit>,
    sd_failed: Slots<String>,
    /// This boot's warnings and errors, kept here (not in `boot`) for their slots' strings;
    /// [`Builder::finish`] moves them. [`Builder::reset`] keeps the warnings (those of a boot
    /// that never started go to the next).
    warnings: Slots<String>,
    errors: Slots<String>,
    /// The rows of the bootstage report being read, reused from report to report.
    bootstage_buf: Slots<BootstageRecord>,
    /// This boot's SBL profile points and initcalls, kept here (not in `boot`) so that their
    /// slots keep the strings of earlier boots to rewrite; [`Builder::finish`] moves them.
    sbl_points: Slots<SblPoint>,
    initcalls: Slots<Initcall>,
    /// This boot's components (`components_len` of them, first value kept, in the order
    /// seen); the strings of the slots past them are left from earlier boots, rewritten in
    /// place. [`Builder::finish`] puts them in the boot's map, a recycled one when it can.
    components: Vec<(String, String)>,
    components_len: usize,
    /// [`keys_sig`] of this boot's component keys, to find a recycled map with the same.
    components_sig: u64,
}

/// The bootstage report being read, or an SBL cores list (never both: each begins on a line
/// that the grammars read, which only happens once the other has ended). `repr(u8)`: an
/// explicit tag byte, so that `Option<BootstageMode>::is_some`, tested on every line, is one
/// byte compare (not a test of a niche in a vector's capacity).
#[derive(PartialEq)]
#[repr(u8)]
enum BootstageMode {
    Records {
        expected: u32,
        got: Slots<BootstageRecord>,
    },
    Accumulated,
    /// After SBL's `cores present` line: the core names that follow (one word, no `[`).
    Cores,
}

impl Parser {
    /// A parser for a board (use [`BoardProfile::generic`] when the board is unknown).
    pub fn new(profile: &BoardProfile) -> Self {
        let ready = match profile.ready.as_deref() {
            None | Some(DEFAULT_READY) => None,
            Some(p) => Regex::new(p).ok(),
        };
        let markers: Vec<_> = profile
            .markers
            .iter()
            .filter_map(|m| Regex::new(&m.pattern).ok().map(|r| (m.stage, r)))
            .collect();
        let profile_hooks = !markers.is_empty() || ready.is_some();
        Parser {
            splitter: LineSplitter::new(),
            state: State {
                first_spl: profile.first_spl,
                ready,
                markers,
                cur: Builder::default(),
                done: Done::default(),
                next_index: 0,
                host_offset: 0.0,
                last_host_raw: None,
                pending_origin: None,
                last_scale: HostScale::Relative,
                power_on: false,
                hints: needles::ALL,
                profile_hooks,
                stamp_memo: linux::StampMemo::default(),
                usual_next: u64::MAX,
                bin: Bin::default(),
            },
        }
    }

    /// Declares that host time 0 is power-on (true of `perfguide boot-loop` captures): the
    /// time from power-on to the first line that opens a stage is then reported as the `rom`
    /// stage (boot ROM and whatever runs before the first console output).
    pub fn power_on_origin(mut self, yes: bool) -> Self {
        self.state.power_on = yes;
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

/// The first bytes of a text that may carry a prefix `record` strips: a Raspberry Pi firmware
/// stamp (`MESS:`, `NNNNNN.NNN:`), a syslog `<n>`, or line noise (`\xNN` escapes, U+FFFD).
/// Most lines start with none, and skip the strippers ([`may_have_prefix`] looks further).
static PREFIX_START: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = matches!(b, b'M' | b'0'..=b'9' | b'<' | b'\\') || b >= 0x80;
        c += 1;
    }
    t
};

/// The first bytes (of a line's text after its blanks) that [`State::line_text`] does not
/// hand straight to `record_text`: those of [`PREFIX_START`] and the capture layers' `[`
/// and `-` (see [`hoststamp::may_start`]).
static SPECIAL_START: [bool; 256] = {
    let mut t = PREFIX_START;
    t[b'[' as usize] = true;
    t[b'-' as usize] = true;
    t
};

/// Whether a text `lead` that starts with no blank may carry a prefix `record` strips: a
/// Raspberry Pi firmware stamp (`MESS:`, or `NNNNNN.NNN:`, whose `.` and `:` are tested as
/// `hoststamp::strip_rpi` first tests them), a syslog `<n>`, or line noise (`\xNN`, U+FFFD,
/// whose first byte is 0xEF). Exact where [`PREFIX_START`] only looks at the first byte:
/// most texts it lets through (bootstage rows, `M...` words, numbers) are ruled out here,
/// inline, with no call. `strip_prefixes_is_every_stripper` checks it.
#[inline(always)]
fn may_have_prefix(lead: &[u8]) -> bool {
    match lead.first() {
        Some(b'<' | b'\\' | 0xEF) => true,
        Some(b'M') => lead.starts_with(b"MESS:"),
        Some(b'0'..=b'9') => lead.len() > 11 && lead[6] == b'.' && lead[10] == b':',
        _ => false,
    }
}

/// The Raspberry Pi firmware stamp (if any) and the text after every prefix `record` strips,
/// of a text `lead` that starts with no blank.
#[inline(always)]
fn strip_prefixes(lead: &str) -> (Option<f64>, &str) {
    if !may_have_prefix(lead.as_bytes()) {
        // What the strippers would return: the text itself.
        return (None, lead);
    }
    strip_prefixes_slow(lead)
}

/// [`strip_prefixes`] of a text whose first byte may start a prefix (out of line: rare).
#[inline(never)]
fn strip_prefixes_slow(lead: &str) -> (Option<f64>, &str) {
    let (fw, text) = match hoststamp::strip_rpi(lead) {
        Some((fw, rest)) => (Some(fw), rest),
        // Without a firmware stamp only a syslog `<`, a `\xNN` escape or a U+FFFD (0xEF
        // first) can start a prefix; the text starts with no blank, so the other strippers
        // would return it whole (most of these lines: bootstage rows, `M...` words).
        None if !matches!(lead.as_bytes().first(), Some(b'<' | b'\\' | 0xEF)) => {
            return (None, lead)
        }
        None => (None, lead),
    };
    let t = strip_junk(ascii::trim_start(hoststamp::strip_syslog(
        ascii::trim_start(text),
    )));
    (fw, t)
}

/// Whether `b` starts with `[`, spaces, digits and `]` (iperf's `[  5]`, `[0]crclist`): a
/// text that has neither a printk stamp (a `.` after its digits) nor a host stamp (a `.`, a
/// blank, `-` or `:` after them, see `hoststamp::bracket`), so the `[`-line paths record it
/// with no stamp read (`bracketed_number_is_no_stamp` checks it).
#[inline(always)]
fn bracketed_number(b: &[u8]) -> bool {
    let mut k = 1;
    while b.get(k) == Some(&b' ') {
        k += 1;
    }
    let d = k;
    while b.get(k).is_some_and(u8::is_ascii_digit) {
        k += 1;
    }
    b.first() == Some(&b'[') && k > d && b.get(k) == Some(&b']')
}

/// [`strip_prefixes_slow`] of a text in the Raspberry Pi firmware's usual `MESS:` layout
/// (`hoststamp::mess_usual`, most prefixed lines) whose text after the stamp starts with no
/// byte a later stripper looks at (a blank, `<`, `\`, 0xEF): that text as it is, with no
/// call; `None` for any other text (`strip_prefixes_slow` then strips it).
#[inline(always)]
fn strip_mess_usual(lead: &str) -> Option<(f64, &str)> {
    let (fw, rest) = hoststamp::mess_usual(lead)?;
    match rest.as_bytes().first() {
        Some(c) if c.is_ascii_whitespace() || matches!(c, b'<' | b'\\' | 0xEF) => None,
        _ => Some((fw, rest)),
    }
}

/// Drops line noise before the text: bytes that were not UTF-8 (kept as `\xNN` escapes by
/// the cleaner) and replacement characters, as a serial line prints at power-on.
fn strip_junk(mut t: &str) -> &str {
    loop {
        let b = t.as_bytes();
        if b.len() >= 4
            && b[0] == b'\\'
            && b[1] == b'x'
            && b[2].is_ascii_hexdigit()
            && b[3].is_ascii_hexdigit()
        {
            t = &t[4..];
        } else if let Some(r) = t.strip_prefix('\u{fffd}') {
            t = r;
        } else {
            return ascii::trim_start(t);
        }
    }
}

/// `r.is_match(t)`, kept out of the per-line path (a profile's own ready regex is rare).
#[inline(never)]
fn is_match_out_of_line(r: &Regex, t: &str) -> bool {
    r.is_match(t)
}

/// Whether a line is a bootstage report's `Mark Elapsed Stage` header, as [`uboot::line`]
/// tells. Only a line starting `Mark` can be (the grammar's own first test for it): the
/// others, such as the line that ends a report, skip the grammar and its `autoboot` search.
fn is_columns_line(t: &str) -> bool {
    t.starts_with("Mark") && matches!(uboot::line(t), Some(uboot::UbootLine::BootstageColumns))
}

/// Whether `t` matches [`DEFAULT_READY`] (a `login:` prompt, blanks after it allowed).
/// Inlined: most lines end in neither `:` nor a blank, and are ruled out with no trim and
/// no call.
#[inline(always)]
fn is_default_ready(t: &str) -> bool {
    may_be_default_ready(t.as_bytes()) && is_default_ready_tail(t)
}

/// Whether a text `b` ends in `:` or a blank, as every match of [`DEFAULT_READY`] does: the
/// inlined first test of [`is_default_ready`].
#[inline(always)]
fn may_be_default_ready(b: &[u8]) -> bool {
    match b.last() {
        Some(b':') => true,
        Some(c) => c.is_ascii_whitespace(),
        None => false,
    }
}

/// Whether a text `b` may match [`DEFAULT_READY`] by its last two bytes: it ends in `:`, or
/// in a blank after a `:` or a blank. [`may_be_default_ready`] with one more byte looked
/// at: a text ending in one blank after another byte (`foo `: 12 k of the 13.8 k texts
/// that were sent to [`State::ready_if_login`] on the 10 MB bench log) is ruled out with no
/// call, as [`login_tail`] would rule it out (the byte before the blank ends the text it
/// looks at, and must be the `:`). -75 k instructions there; a slice pattern for the two
/// bytes, with its length tests on every text, cost +19 k. `may_end_login_is_needed_by_login`
/// checks it.
#[inline(always)]
fn may_end_login(b: &[u8]) -> bool {
    // The last byte first, as `may_be_default_ready` tests it (most texts end in neither):
    // the byte before it is read only for a text that ends in a blank.
    match b.last() {
        Some(b':') => true,
        Some(c) if c.is_ascii_whitespace() => match b.len().checked_sub(2) {
            Some(i) => b[i] == b':' || b[i].is_ascii_whitespace(),
            None => false,
        },
        _ => false,
    }
}

/// [`is_default_ready`] of a text that ends in `:` or a blank (out of line). The text's end
/// before its trailing blanks is found with no trim when it ends in `:` or in one blank after
/// a non-blank (most of these lines), and `login:` is compared a word at a time (letters
/// folded by setting bit 5, exact for them). The reference, `is_default_ready_tail_ref`, is
/// in the tests, with a proptest that they agree.
#[inline(never)]
fn is_default_ready_tail(t: &str) -> bool {
    login_tail(t)
}

/// The body of [`is_default_ready_tail`], inlined into [`State::ready_if_login`] too (which
/// then calls nothing on most lines, and needs no frame).
#[inline(always)]
fn login_tail(t: &str) -> bool {
    let b = t.as_bytes();
    let n = b.len();
    let end = if n >= 2 && b[n - 1] != b':' && !b[n - 2].is_ascii_whitespace() {
        // One blank (the caller saw a `:` or a blank last), after a byte that is no blank.
        n - 1
    } else if b.last() == Some(&b':') {
        n
    } else {
        ascii::trim_end(t).len()
    };
    if end < 6 || b[end - 1] != b':' {
        return false;
    }
    let w = &b[end - 6..end - 1];
    let logi = u32::from_le_bytes([w[0], w[1], w[2], w[3]]) | 0x2020_2020;
    if logi != u32::from_le_bytes(*b"logi") || w[4] | 0x20 != b'n' {
        return false;
    }
    // `\b` before `login`.
    end == 6 || !b[end - 7].is_ascii_alphanumeric() && b[end - 7] != b'_'
}

/// The splitter's lines go straight to [`State::line`] and [`State::plain_line`], inlined
/// into its loop (a closure's body, which cannot be marked `always`, became a call there when
/// the dispatch grew).
impl crate::lines::LineSink for State {
    #[inline(always)]
    fn line(&mut self, n: u64, bytes: &[u8], flags: Flags) {
        State::line(self, n, bytes, flags);
    }

    #[inline(always)]
    unsafe fn plain_line(&mut self, n: u64, rest: &[u8], len: usize, hints: u8) {
        // SAFETY: the splitter keeps `plain_line`'s contract, which is this one's.
        unsafe { State::plain_line(self, n, rest, len, hints) };
    }
}

impl State {
    /// One line from the splitter: its text to [`State::line_text`], the common case (a
    /// whole plain line) inlined into the splitter's loop.
    #[inline(always)]
    fn line(&mut self, n: u64, bytes: &[u8], flags: Flags) {
        // The common case (a whole plain line) stays in this short function; the rest is
        // out of line so that it does not weigh on every line's entry and exit.
        if !flags.plain || flags.cut {
            self.line_slow(n, bytes, flags);
            return;
        }
        // The text of a plain line is its raw bytes, so the raw bytes' words hold for it.
        self.hints = flags.hints;
        // SAFETY: the splitter flagged the line plain.
        self.line_text(n, unsafe { plain_text(bytes) });
    }

    /// [`State::line`] of a whole plain line, `rest[..len]`, as the splitter hands most lines
    /// out: followed in `rest` by its break (see [`crate::lines::LineSink::plain_line`]).
    /// What [`State::line_text`] does, with two shortcuts that the bytes after the line allow:
    ///
    /// - The first byte is read with no length test: an empty line's is its break, which is
    ///   no byte above a blank, as the first byte of a text its lead starts at is.
    /// - A text that starts with a blank finds its lead by one 16-byte compare (where `rest`
    ///   holds 16 bytes): the first byte above a blank. In a plain text every byte up to a
    ///   blank is a space or a tab, so when that byte is in the line the bytes before it are
    ///   what `ascii::trim_start` drops, and it starts the lead. When that byte is past the
    ///   line's end the line is blank or empty ([`State::blank_line`] at once); when none of
    ///   the 16 bytes is above a blank (16 blanks or more) the line takes `line_text`'s way.
    ///   (About 18 instructions less for each of the 64 k lines starting with a blank on the
    ///   10 MB bench log.)
    ///
    /// `lines_fast_path_is_line_text` holds it to [`State::line`].
    ///
    /// # Safety
    /// As [`crate::lines::LineSink::plain_line`]: `len < rest.len()`, `rest[len]` is a break
    /// and `rest[..len]` is plain.
    #[inline(always)]
    unsafe fn plain_line(&mut self, n: u64, rest: &[u8], len: usize, hints: u8) {
        // The text of a plain line is its raw bytes, so the raw bytes' words hold for it.
        self.hints = hints;
        // SAFETY: `len < rest.len()` and `rest[..len]` is plain (this function's contract).
        let (c, text) = unsafe {
            (
                *rest.get_unchecked(0),
                plain_text(rest.get_unchecked(..len)),
            )
        };
        if c > b' ' {
            // Not the break (`\n` or `\r`): the text's first byte, and its lead's.
            // SAFETY: `text` is followed by its break in memory (`rest[len]`).
            return unsafe { self.lead_dispatch::<true>(n, text, text, c) };
        }
        #[cfg(target_arch = "x86_64")]
        if rest.len() >= 16 {
            use std::arch::x86_64::*;
            // SAFETY: SSE2 is part of the x86_64 baseline; `rest` holds 16 bytes, which the
            // unaligned load reads.
            let above = unsafe {
                let v = _mm_loadu_si128(rest.as_ptr() as *const __m128i);
                // Signed `byte > 0x20`: 0x21..=0x7f (no plain byte is 0x80 or more).
                _mm_movemask_epi8(_mm_cmpgt_epi8(v, _mm_set1_epi8(0x20))) as u32
            };
            let i = above.trailing_zeros() as usize;
            if above != 0 {
                if i < len {
                    // SAFETY: `i < len`, so `text[i]` exists; it is ASCII, a char boundary.
                    let (c, lead) = unsafe { (*rest.get_unchecked(i), text.get_unchecked(i..)) };
                    debug_assert_eq!(lead, ascii::trim_start(text));
                    // SAFETY: `lead` ends where `text` does, followed by its break
                    // (`rest[len]`).
                    return unsafe { self.lead_dispatch::<true>(n, text, lead, c) };
                }
                // No byte of the line is above a blank: a plain text's bytes up to 0x20 are
                // spaces and tabs, so it is empty or all blanks, and its lead is empty.
                debug_assert!(ascii::trim_start(text).is_empty());
                return self.blank_line(n);
            }
        }
        self.line_text(n, text);
    }

    /// [`State::line`] of a cut piece or of a line that is not (known to be) plain.
    #[inline(never)]
    fn line_slow(&mut self, n: u64, bytes: &[u8], flags: Flags) {
        if flags.cut {
            let w = self.cur.warnings.next_text(&mut self.bin.strings, 64);
            let _ = w.write_fmt(format_args!(
                "line {n} is longer than {MAX_LINE} bytes: cut into pieces"
            ));
        }
        let text = clean_known(bytes, flags.plain);
        // The cleaned text of a plain line is its raw bytes, so the raw bytes' words hold for
        // it; a cleaned copy may join words (escapes removed), so it gets every hint.
        self.hints = match &text {
            std::borrow::Cow::Borrowed(_) => flags.hints,
            std::borrow::Cow::Owned(_) => needles::ALL,
        };
        self.line_text(n, &text);
    }

    /// A line's cleaned text, `self.hints` set for it.
    ///
    /// Every branch ends in a call that is the last thing done (or in no call), and every
    /// such call takes its arguments in registers, so LLVM makes them jumps and this needs
    /// no frame of its own: a line pays for one function entry and exit, the record's.
    #[inline(always)]
    fn line_text(&mut self, n: u64, text: &str) {
        // Most texts start with no blank, and are their own `lead` (no trim, which tests the
        // slices and re-reads the byte); each way has its own copy of the dispatch (one
        // shared copy cost every line the register copies of the merged `lead`).
        match text.as_bytes().first() {
            // SAFETY: `FOLLOWED` is false.
            Some(&c) if c > b' ' => unsafe { self.lead_dispatch::<false>(n, text, text, c) },
            _ => {
                let lead = ascii::trim_start(text);
                match lead.bytes().next() {
                    // SAFETY: `FOLLOWED` is false.
                    Some(c) => unsafe { self.lead_dispatch::<false>(n, text, lead, c) },
                    None => self.blank_line(n),
                }
            }
        }
    }

    /// [`State::line_text`] of a blank line (empty, or blanks only): what `record` then
    /// `record_text` do with an empty text. [`State::plain_line`] comes here at once from its
    /// 16-byte lead search, which finds no byte of the line above a blank (12 instructions
    /// less for each of the 14.8 k empty lines of the 10 MB bench log than `line_text`'s trim).
    #[inline(always)]
    fn blank_line(&mut self, n: u64) {
        if self.cur.started {
            self.cur.lines.1 = n;
        }
    }

    /// [`State::line_text`] of a text whose `lead` (after its blanks) starts with the byte
    /// `c`: its record by that byte. `FOLLOWED`: the splitter's plain lines, whose lead is
    /// followed in memory by a byte (the line's break), go to [`State::record_line`].
    ///
    /// # Safety
    /// With `FOLLOWED`, the byte after `lead` must be readable.
    #[inline(always)]
    unsafe fn lead_dispatch<const FOLLOWED: bool>(
        &mut self,
        n: u64,
        text: &str,
        lead: &str,
        c: u8,
    ) {
        match c {
            // `[` first (printk lines, a third of a boot log): one compare, where the table
            // load and the compares of `-` and `[` after it cost the `[` lines 5 instructions
            // more than the 2 the others now pay (-0.26 M on the 10 MB bench log).
            b'[' => self.bracket_line(n, text, lead),
            // Most lines: no capture layer, no prefix (what `strip_prefixes` returns then).
            // (Not `[`: no printk stamp, so past `record_text`'s stamp test.)
            c if !SPECIAL_START[usize::from(c)] => {
                if FOLLOWED {
                    // SAFETY: `lead` starts with `c`, and the byte after it is readable (this
                    // function's contract).
                    unsafe { self.record_line(n, lead) }
                } else {
                    self.record_unstamped(n, None, None, lead)
                }
            }
            c if !hoststamp::may_start(c) => self.prefixed_line(n, lead),
            _ => self.layered_line(n, text),
        }
    }

    /// [`State::line_text`] of a line whose text `lead` (after its blanks) starts with `[`:
    /// a printk stamp in the kernel's `[%5lu.%06lu]` layout read at once, its line recorded
    /// here when [`State::plain_printk`] can (most printk lines), else by
    /// [`State::printk_line`]; any other `[`-text by [`State::bracket_other`] (by
    /// [`State::digit_bracket_line`] at once when a digit follows the `[`). (A text with
    /// a printk stamp has no host stamp, see `host_and_printk_stamps_exclude`, so reading the
    /// printk stamp first changes no answer.)
    ///
    /// Every way out is a jump to another function (the stamp's first steps only load and
    /// compare), so this needs no frame: a call in it (the memo's miss) made every `[`-line
    /// save and restore six registers.
    ///
    /// A `lead` under 17 bytes (a stamp and at most two bytes more) skips the memo and the
    /// printk paths for [`State::bracket_unstamped`]: `printk_usual` turns such a line away
    /// anyway (its message must have two bytes after one blank), and the general readers it
    /// goes to then record a printk stamp as `printk_line` does (what the proptest
    /// `printk_paths_are_bracket_other` holds the fast paths to). One length test at the
    /// entry then stands for the memo's (14 bytes) and `printk_usual`'s (17): two
    /// instructions fewer a printk line.
    #[inline(never)]
    fn bracket_line(&mut self, n: u64, text: &str, lead: &str) {
        if lead.len() < 17 {
            return self.bracket_unstamped(n, text, lead);
        }
        match self.stamp_memo.same_second_word(lead.as_bytes()) {
            Some((true, t)) => self.printk_same_second(n, lead, t),
            Some((false, _)) => self.bracket_new_second(n, text, lead),
            None => self.bracket_unstamped(n, text, lead),
        }
    }

    /// [`State::bracket_line`] of a printk line whose stamp's seconds field is the memo's
    /// (most printk lines), `t` the word the memo checked: its stamp read from the memo, its
    /// record made. Inlined: it needs no frame either (every call in it is a jump), and
    /// reads the fraction from `t` with no jump to it, no second load and no second xor.
    #[inline(always)]
    fn printk_same_second(&mut self, n: u64, lead: &str, t: u64) {
        let ts = self.stamp_memo.read_same_word(t);
        self.printk_stamped(n, lead, ts);
    }

    /// [`State::bracket_line`] of a `lead` whose seconds field is not the memo's: the whole
    /// stamp read (and remembered), else (no stamp in the kernel's layout) the other readers.
    #[inline(never)]
    fn bracket_new_second(&mut self, n: u64, text: &str, lead: &str) {
        match self.stamp_memo.read(lead.as_bytes()) {
            Some(ts) => self.printk_stamped(n, lead, ts),
            None => self.bracket_unstamped(n, text, lead),
        }
    }

    /// [`State::bracket_line`] of a printk line `lead` stamped `ts` in the kernel's layout:
    /// recorded here when [`State::printk_usual`] (most), else by [`State::printk_line`].
    #[inline(always)]
    fn printk_stamped(&mut self, n: u64, lead: &str, ts: f64) {
        if !self.printk_usual(n, lead, ts) {
            return self.printk_line(n, lead, ts);
        }
        // `printk_usual` holds: the kernel and its last printk time are there, and every way
        // below stores this one first (one store, no test of either).
        self.usual_last_ts(ts);
        let b = lead.as_bytes();
        if linux::may_be_marker(b[15], b[16]) {
            return self.marker_printk(n, lead, ts);
        }
        self.usual_printk_done(n, lead);
    }

    /// [`State::bracket_line`] of a `lead` with no printk stamp in the kernel's layout.
    #[inline(always)]
    fn bracket_unstamped(&mut self, n: u64, text: &str, lead: &str) {
        // A digit right after the `[` (grabserial's `[abs delta]`): where `bracket_other`
        // sends it, with no frame of its own on the way.
        if lead.as_bytes().get(1).is_some_and(u8::is_ascii_digit) {
            return self.digit_bracket_line(n, lead);
        }
        self.bracket_other(n, text, lead)
    }

    /// Whether a printk line `lead` stamped `ts` (14 bytes), numbered `n`, is of the usual
    /// kind, whose record [`State::printk_line`] would make with none of its rare steps: its
    /// message starts after one blank and has two bytes, the default ready test rules the
    /// line out by its last byte, no bootstage report runs, the boot has started, no
    /// profile's ready pattern is there, and the kernel stage (or a later one) is open with a
    /// printk time that this one does not go back from.
    ///
    /// The state's part of it ([`State::printk_state_usual`]) is not read again for a line
    /// that comes right after a usual printk line (most of them): that line's record
    /// ([`State::usual_printk_done`] and the `calling` / `initcall` stores after it) changed
    /// nothing it reads but the kernel's last printk time, which is read here either way, and
    /// no line came between (the splitter numbers lines one more each, the pieces of a cut
    /// line too, and hands each number out once), so the answer it gave then holds.
    /// About 10 instructions fewer for such a line.
    #[inline(always)]
    fn printk_usual(&self, n: u64, lead: &str, ts: f64) -> bool {
        let b = lead.as_bytes();
        if b.len() < 17
            || b[14] != b' '
            || b[b.len() - 1] == b':'
            || b[b.len() - 1].is_ascii_whitespace()
            || !(self.usual_next == n || self.printk_state_usual())
        {
            return false;
        }
        match self.cur.boot.kernel.as_ref() {
            Some(k) => match k.last_ts_s {
                Some(last) => ts + 1e-3 >= last,
                None => false,
            },
            None => false,
        }
    }

    /// The state's part of [`State::printk_usual`] (but the kernel's last printk time): no
    /// bootstage report runs, the boot has started, no profile's ready pattern, the kernel
    /// stage (or a later one) open, and the kernel's first printk time there.
    #[inline(always)]
    fn printk_state_usual(&self) -> bool {
        let c = &self.cur;
        c.bootstage.is_none()
            && c.started
            && self.ready.is_none()
            && c.stages.last().is_some_and(|s| s.id >= StageId::Kernel)
            && c.boot
                .kernel
                .as_ref()
                .is_some_and(|k| k.first_ts_s.is_some())
    }

    /// The kernel's last printk time, `ts`, of a [`State::printk_usual`] line, stored first
    /// on every way [`State::printk_stamped`] takes with it (as `printk` does): `Some(ts)`
    /// where `printk_usual` saw `Some` (a kernel with a last time), so the value alone is
    /// written, with no test the compiler does not know the answer of.
    #[inline(always)]
    fn usual_last_ts(&mut self, ts: f64) {
        if let Some(last) = self
            .cur
            .boot
            .kernel
            .as_mut()
            .and_then(|k| k.last_ts_s.as_mut())
        {
            *last = ts;
        }
    }

    /// The other store [`State::printk_line`] makes for a [`State::printk_usual`] line whose
    /// message no kernel or systemd grammar reads (after [`State::usual_last_ts`]): the line,
    /// as `touch` counts it in a boot that has started (`printk_usual` holds that).
    #[inline(always)]
    fn usual_printk_done(&mut self, n: u64, lead: &str) {
        let c = &mut self.cur;
        c.lines.1 = n;
        c.tail_bytes += lead.len() as u64 + 2;
        // What this line's record leaves changed (and a `calling` / `initcall` store after
        // this) is none of what `printk_usual` reads but the last printk time.
        self.usual_next = n.wrapping_add(1);
    }

    /// [`State::printk_line`] of a [`State::printk_usual`] line whose message may be a
    /// kernel or systemd marker (initcall_debug's `calling` and `initcall` lines, thousands a
    /// boot): the same steps, without the tests that cannot fire on such a line. Each kind
    /// has its own function, reached by a jump: the `calling` line's is smaller than the
    /// `initcall` line's, and saves fewer registers.
    ///
    /// They are handed the message, `lead[15..]`, cut here with no check: each checked the
    /// char boundary again, and the check's panic (a call) made `calling_printk` align its
    /// stack.
    #[inline(always)]
    fn marker_printk(&mut self, n: u64, lead: &str, ts: f64) {
        debug_assert!(lead.len() >= 17 && lead.as_bytes()[14] == b' ');
        // SAFETY: the only caller, `printk_stamped`, comes here only when `printk_usual`
        // holds, which tests `lead.len() >= 17` and `lead[14] == b' '`: 15 is within `lead`,
        // and follows an ASCII byte, so it is a char boundary.
        let m = unsafe { lead.get_unchecked(15..) };
        // initcall_debug's two lines read and stored apart; `line` reads a `c` or `i`
        // message as nothing else, and no `systemd` message starts with either.
        // An initcall_debug line is counted here, before its store (which touches neither
        // the line count nor the boot's bytes, so the order changes nothing): its function
        // needs no line number then. Another marker is counted after its grammars, which may
        // start a new boot.
        match m.as_bytes()[0] {
            b'c' => {
                self.usual_printk_done(n, lead);
                self.calling_printk(m)
            }
            b'i' => {
                self.usual_printk_done(n, lead);
                self.initcall_printk(m, ts)
            }
            _ => self.other_marker_printk(n, m, ts),
        }
    }

    /// [`State::marker_printk`] of a message starting `c` (initcall_debug's `calling`),
    /// the line counted and its printk time stored: a name that does not fit the inline copy
    /// is stored by a jump to [`State::calling_out`]: with no call left in it, this needs no
    /// frame.
    #[inline(never)]
    fn calling_printk(&mut self, m: &str) {
        if let Some(f) = linux::calling_name_quick(m) {
            if ascii::try_replace_text(&mut self.cur.calling, f) {
                self.cur.calling_open = true;
                return;
            }
        }
        self.calling_out(m);
    }

    /// [`State::calling_printk`]'s message `m` read and stored out of line, for the lines
    /// its inline steps do not take (another layout, a name shorter than 8 bytes, longer
    /// than 32, or more than the room): what it did before, by [`linux::calling_name`].
    #[inline(never)]
    fn calling_out(&mut self, m: &str) {
        if let Some(f) = linux::calling_name(m) {
            self.calling(f);
        }
    }

    /// [`State::marker_printk`] of a message starting `i` (initcall_debug's `initcall`),
    /// the line counted and its printk time stored. The kernel's layout is read by
    /// [`linux::initcall_parts_quick`] and stored in the next reused slot by
    /// [`ascii::try_replace_text`]'s inline copy, what [`State::initcall`] does there (the
    /// same fields, the name's bytes the same whether compared first or not). Any other line
    /// (another layout, a name under 8 bytes or longer than 32, no slot or room) jumps to
    /// [`State::initcall_out`] or [`State::initcall_store`], the old steps, so no call is
    /// left in it (the general reader's loops are not set up).
    #[inline(never)]
    fn initcall_printk(&mut self, m: &str, ts: f64) {
        let Some((name, ret, usecs)) = linux::initcall_parts_quick(m) else {
            return self.initcall_out(m, ts);
        };
        let c = &mut self.cur;
        if c.initcalls.try_reuse_initcall(name, usecs, ret, Some(ts)) {
            c.calling_open = false;
            return;
        }
        self.initcall_store(name, ret, usecs, ts)
    }

    /// [`State::initcall_printk`]'s message `m` read by [`linux::initcall_parts`] and stored,
    /// out of line: the lines [`linux::initcall_parts_quick`] does not take.
    #[inline(never)]
    fn initcall_out(&mut self, m: &str, ts: f64) {
        if let Some((name, ret, usecs)) = linux::initcall_parts(m) {
            self.initcall(name, ret, usecs, Some(ts));
        }
    }

    /// [`State::initcall`] of a line [`State::initcall_printk`] read but could not store in
    /// line (no slot to reuse, a name under 8 bytes or longer than 32, or more than the room).
    #[inline(never)]
    fn initcall_store(&mut self, name: &str, ret: i64, usecs: u64, ts: f64) {
        self.initcall(name, ret, usecs, Some(ts));
    }

    /// [`State::marker_printk`] of another message.
    #[inline(never)]
    fn other_marker_printk(&mut self, n: u64, m: &str, ts: f64) {
        // Its printk time was stored by `printk_stamped`.
        self.marker_other(n, m, ts);
        self.touch(n, m.len() + 15);
    }

    /// [`State::marker_printk`] of a message that is no initcall_debug line: the kernel and
    /// systemd grammars as [`State::printk`] asks them.
    #[inline(never)]
    fn marker_other(&mut self, n: u64, msg: &str, ts: f64) {
        if let Some(l) = linux::line(msg) {
            self.kernel(n, None, Some(ts), l);
        } else if let Some(l) = msg
            .starts_with("systemd")
            .then(|| systemd::line_hinted(msg, self.hints()))
            .flatten()
        {
            self.systemd(n, None, l);
        }
    }

    /// [`State::bracket_line`] of a printk line `lead` whose 14-byte stamp reads `ts`, that
    /// [`State::plain_printk`] did not take: the full printk record.
    #[inline(never)]
    fn printk_line(&mut self, n: u64, lead: &str, ts: f64) {
        let p = linux::printk_after(lead, ts, 14);
        self.record_printk_inline(n, None, None, lead, p);
    }

    /// [`State::bracket_line`] of a `lead` with no printk stamp in the kernel's own layout:
    /// a printk stamp laid out otherwise (no capture layer or prefix then, see
    /// `hoststamp::strip`, so the stamp, read once here, goes straight to `record_printk`),
    /// else perhaps a host stamp.
    #[inline(never)]
    fn bracket_other(&mut self, n: u64, text: &str, lead: &str) {
        // `[` then neither a digit nor a blank (`[KPI]`, `[BOOTLOADER_PROFILE]`): no host
        // stamp (it has a digit right after `[` and its blanks, see `hoststamp::bracket`), so
        // what `layered` does with no layer, `record_text` of `lead` (`[` starts no prefix);
        // and no printk stamp either (its seconds field, right after the `[`, is blanks then
        // digits), so it goes past `record_text`'s stamp test: no stamp read at all.
        if !matches!(
            lead.as_bytes().get(1),
            Some(b'0'..=b'9' | b' ' | b'\t'..=b'\r')
        ) {
            return self.record_unstamped(n, None, None, lead);
        }
        // systemd's `[  OK  ]`, the commonest `[`-text with a blank after its `[` that is no
        // stamp: no digit after the `[` and its blanks, so neither a printk stamp nor a host
        // stamp (see `ok_status_has_no_stamp`), and it is recorded as above.
        if lead.as_bytes().starts_with(b"[  OK  ]") {
            return self.record_ok(n, lead);
        }
        // A digit right after the `[`: most such lines are host-stamped (grabserial's
        // `[abs delta]`, `[2024-03-29 ...`), which the host reader takes first, so the failed
        // printk read is not paid; a text both readers take cannot exist (a printk stamp's
        // number ends in `]`, a host stamp's in a blank, `-` or `:`; see
        // `host_and_printk_stamps_exclude`), so the order changes no answer.
        if lead.as_bytes()[1].is_ascii_digit() {
            return self.digit_bracket_line(n, lead);
        }
        self.bracket_blank(n, text, lead)
    }

    /// [`State::bracket_other`] of a `lead` with a blank right after its `[` that is no
    /// `[  OK  ]`: its stamp readers, out of line, so that `bracket_other`'s own ways out are
    /// all jumps and it needs no frame (`[KPI]`-like and `[  OK  ]` lines, most of those it
    /// sees, saved and restored six registers for these readers' sake).
    #[inline(never)]
    fn bracket_blank(&mut self, n: u64, text: &str, lead: &str) {
        // iperf's `[  5]   0.00-1.00 sec`: no stamp of either kind (see
        // [`bracketed_number`]), recorded as above.
        if bracketed_number(lead.as_bytes()) {
            return self.record_unstamped(n, None, None, lead);
        }
        match linux::stamp_len(lead.as_bytes()) {
            Some((ts, len)) => {
                let p = linux::printk_after(lead, ts, len);
                self.record_printk_inline(n, None, None, lead, p);
            }
            None => match hoststamp::bracket(text, lead) {
                // No layer (`text` itself): what `layered` does with it, with no frame of its own
                // (and no second stamp read: `lead` has none).
                Layer::None(_) => self.record_unstamped(n, None, None, lead),
                layer => self.layered(n, layer),
            },
        }
    }

    /// [`State::bracket_line`] of a `lead` with a digit right after its `[`: the host stamp
    /// read first, then (none found) the printk stamp, then neither.
    ///
    /// It takes no `text` (the line before its blanks): no way on needs it (see
    /// [`State::digit_bracket_other`]), and two registers fewer are held for the way out.
    /// Every way out is a jump ([`State::host_line`]'s trim and layered record too) and no
    /// panic is left in it, so it no longer aligns its stack for a call; it still saves the
    /// registers the two numbers' readers need.
    #[inline(never)]
    fn digit_bracket_line(&mut self, n: u64, lead: &str) {
        // grabserial's usual layout: what `hoststamp::bracket` answers, without its call.
        if let Some((abs, rest)) = hoststamp::grabserial_usual(lead) {
            return self.host_line(n, abs, HostScale::Relative, rest);
        }
        self.digit_bracket_other(n, lead)
    }

    /// What [`State::layered`] does with `Layer::Host(abs, scale, rest)`, a line's host stamp
    /// and the text after it, done here for the usual line: no `[` in the text (so no glued
    /// record, see `hoststamp::split_glued`, and no printk stamp), no prefix, and a host clock
    /// that does not go back. Its record then is [`State::host`]'s bookkeeping and a tail call
    /// of `record_unstamped`, with no frame of `layered`'s and no `split_glued` call on the
    /// way; any other line goes to `layered` (by a jump to [`State::host_layered`]).
    #[inline(always)]
    fn host_line(&mut self, n: u64, abs: f64, scale: HostScale, rest: &str) {
        // `rest` seldom starts with a blank (the stamp's one is gone): the trim only then, in
        // a function of its own reached by a jump (a call here needed a frame).
        match rest.as_bytes().first() {
            Some(c) if c.is_ascii_whitespace() => self.host_line_blank(n, abs, scale, rest),
            _ => self.host_text(n, abs, scale, rest, rest),
        }
    }

    /// [`State::host_line`] of a `rest` that starts with a blank: its text after the blanks.
    #[inline(never)]
    fn host_line_blank(&mut self, n: u64, abs: f64, scale: HostScale, rest: &str) {
        self.host_text(n, abs, scale, rest, ascii::trim_start(rest))
    }

    /// [`State::host_line`] of the text `t`, `rest` after its blanks.
    #[inline(always)]
    fn host_text(&mut self, n: u64, abs: f64, scale: HostScale, rest: &str, t: &str) {
        // `host`'s restart test, made before anything is stored.
        let goes_back = self.last_host_raw.is_some_and(|last| abs + 1e-6 < last);
        if goes_back
            || may_have_prefix(t.as_bytes())
            || ascii::find_byte(rest.as_bytes(), b'[').is_some()
        {
            return self.host_layered(n, abs, scale, rest);
        }
        // `host` without its restart (ruled out above).
        self.last_host_raw = Some(abs);
        let host = abs + self.host_offset;
        self.note_host(host, scale);
        // `record_text` of a text with no `[`: no printk stamp.
        self.record_unstamped(n, Some(host), None, t)
    }

    /// `layered` of `Layer::Host(abs, scale, rest)`, out of line: its callers pass the parts
    /// in registers and jump here (the `Layer` itself goes by memory, so a call of `layered`
    /// needed a frame in them).
    #[inline(never)]
    fn host_layered(&mut self, n: u64, abs: f64, scale: HostScale, rest: &str) {
        self.layered(n, Layer::Host(abs, scale, rest));
    }

    /// [`State::digit_bracket_line`] of a `lead` not in grabserial's usual layout.
    #[inline(never)]
    fn digit_bracket_other(&mut self, n: u64, lead: &str) {
        // A minicom / picocom / tio wall clock in its usual layout: what `hoststamp::bracket`
        // answers, without its call.
        if let Some((wall, rest)) = hoststamp::wall_usual(lead) {
            return self.host_line(n, wall, HostScale::Wall, rest);
        }
        // `[0]crclist ...`: no stamp of either kind (see [`bracketed_number`]).
        if bracketed_number(lead.as_bytes()) {
            return self.record_unstamped(n, None, None, lead);
        }
        // `lead` as the whole text too: `bracket` hands its `text` back only as
        // `Layer::None`'s, which is not looked at here (a host layer's text is cut from `lead`).
        match hoststamp::bracket(lead, lead) {
            Layer::None(_) => match linux::stamp_len(lead.as_bytes()) {
                Some((ts, len)) => {
                    let p = linux::printk_after(lead, ts, len);
                    self.record_printk_inline(n, None, None, lead, p);
                }
                None => self.record_unstamped(n, None, None, lead),
            },
            layer => self.layered(n, layer),
        }
    }

    /// [`State::line_text`] of a line whose text `lead` (after its blanks) may start with a
    /// prefix `record` strips (see [`PREFIX_START`]).
    #[inline(never)]
    fn prefixed_line(&mut self, n: u64, lead: &str) {
        // Most of these (bootstage and blame rows, `M...` words) carry no prefix: a jump to
        // `record_text`, with no frame here; the strippers in a function of their own.
        // (`lead` starts with no `[`: no printk stamp.)
        let b = lead.as_bytes();
        if !may_have_prefix(b) {
            // A number line (most of these, bootstage rows and numbers) that is no blame row by
            // its last byte: no grammar takes it (see `gate::number_may_match`), told here where
            // the two-byte gate would let it in.
            if let [b'0'..=b'9', .., last] = *b {
                if !gate::number_may_match(last, self.hints)
                    && self.cur.bootstage.is_none()
                    && self.markers.is_empty()
                    && self.ready.is_none()
                {
                    return self.record_ungrammatical(n, None, lead);
                }
            }
            return self.record_unstamped(n, None, None, lead);
        }
        self.stripped_line(n, lead);
    }

    /// [`State::prefixed_line`] of a text that may carry a prefix: stripped, then recorded.
    #[inline(never)]
    fn stripped_line(&mut self, n: u64, lead: &str) {
        // The firmware's usual `MESS:` stamp read here: with no `[` first in the text after it,
        // no printk stamp either, so `record_text` of it is a jump to `record_unstamped` (and
        // this, with only tail calls, needs no frame). The strippers for the rest.
        match strip_mess_usual(lead) {
            Some((fw, t)) if t.as_bytes().first() != Some(&b'[') => {
                self.record_unstamped(n, None, Some(fw), t)
            }
            _ => self.stripped_line_slow(n, lead),
        }
    }

    /// [`State::stripped_line`] of a text it did not take at once: stripped, then recorded.
    #[inline(never)]
    fn stripped_line_slow(&mut self, n: u64, lead: &str) {
        let (fw, t) = match strip_mess_usual(lead) {
            Some((fw, t)) => (Some(fw), t),
            None => strip_prefixes_slow(lead),
        };
        self.record_text(n, None, fw, t);
    }

    /// [`State::line_text`] of a line that may carry a LAVA layer (starts with `-`).
    #[inline(never)]
    fn layered_line(&mut self, n: u64, text: &str) {
        self.layered(n, hoststamp::strip(text));
    }

    /// A line whose capture layer (if any) was found: its records (out of line, as most
    /// lines have no layer).
    #[inline(never)]
    fn layered(&mut self, n: u64, layer: Layer) {
        match layer {
            Layer::None(t) => self.record_plain(n, ascii::trim_start(t)),
            Layer::Host(h, scale, rest) => {
                let mut h = h;
                let mut rest = rest;
                // grabserial can glue records: `text[abs delta] more`.
                while let Some((before, h2, after)) = hoststamp::split_glued(rest) {
                    self.record(n, Some(h), scale, before);
                    h = h2;
                    rest = after;
                }
                self.record(n, Some(h), scale, rest)
            }
            Layer::Lava(dt, Some(msg)) => {
                // JSON escapes in the message can spell any word.
                self.hints = needles::ALL;
                for part in msg.split(['\n', '\r']) {
                    let c = clean(part.as_bytes()).into_owned();
                    self.record(n, dt, HostScale::Wall, &c);
                }
            }
            Layer::Lava(_, None) => {}
        }
    }

    /// The words the current line may hold (see [`needles`]).
    #[inline]
    fn hints(&mut self) -> u8 {
        self.hints
    }

    /// Makes the host clock continuous across capture restarts; returns the absolute value.
    /// Inlined (into `layered`, once a grabserial record): a restart, rare, out of line.
    #[inline(always)]
    fn host(&mut self, n: u64, raw: Option<f64>, scale: HostScale) -> Option<f64> {
        let raw = raw?;
        if let Some(last) = self.last_host_raw {
            if raw + 1e-6 < last {
                self.host_restart(n, last, raw);
            }
        }
        self.last_host_raw = Some(raw);
        let abs = raw + self.host_offset;
        self.note_host(abs, scale);
        Some(abs)
    }

    /// [`State::host`] of a raw host time `raw` below the last one, `last`, on line `n`: the
    /// offset that continues the clock, the next boot's origin, and a warning.
    #[inline(never)]
    fn host_restart(&mut self, n: u64, last: f64, raw: f64) {
        // grabserial -m restarts its base at the matching line: continue from there.
        self.host_offset += last;
        self.pending_origin = Some(self.host_offset);
        // Written by hand, not `format!`: a log of many captures has one per capture.
        let w = self.cur.warnings.next_text(&mut self.bin.strings, 160);
        w.push_str("line ");
        ascii::push_decimal(w, n);
        w.push_str(": host clock went back from ");
        let from = w.len();
        push_fixed6(w, last);
        let last_text = from..w.len();
        w.push_str(" to ");
        push_fixed6(w, raw);
        w.push_str("; continued from ");
        // `last` again: the bytes just written for it, copied (`String::extend_from_within`
        // is newer than the MSRV).
        // SAFETY: `last_text` spans what `push_fixed6` appended, a whole `str` that starts and
        // ends on char boundaries of `w`, so the bytes copied to the end are valid UTF-8.
        unsafe { w.as_mut_vec().extend_from_within(last_text) };
        w.push_str(" (grabserial -m base reset or a new capture?)");
    }

    /// Records a host time in the current boot, fixing the boot's origin on first use.
    fn note_host(&mut self, abs: f64, scale: HostScale) {
        self.last_scale = scale;
        let first_boot = self.next_index == 0;
        let b = &mut self.cur;
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

    /// One record of a line with a capture layer: its prefixes stripped, the host clock
    /// noted, then [`State::record_text`]. Inlined into [`State::layered`], its one hot
    /// caller (grabserial lines), to spare a call and a frame a record.
    #[inline(always)]
    fn record(&mut self, n: u64, host_raw: Option<f64>, scale: HostScale, text: &str) {
        let (fw, t) = strip_prefixes(ascii::trim_start(text));
        let host = self.host(n, host_raw, scale);
        self.record_text(n, host, fw, t);
    }

    /// [`State::record`] of a text without a host stamp that starts with no blank: most
    /// lines, spared the host clock's bookkeeping (which does nothing without a stamp).
    #[inline(always)]
    fn record_plain(&mut self, n: u64, lead: &str) {
        let (fw, t) = strip_prefixes(lead);
        self.record_text(n, None, fw, t);
    }

    /// One record's text, every capture layer and prefix removed (`t` starts with no blank).
    /// A printk-stamped one goes to [`State::record_printk`], any other to
    /// [`State::record_unstamped`]. Inlined: the callers that know their text has no stamp
    /// call `record_unstamped` themselves.
    #[inline(always)]
    fn record_text(&mut self, n: u64, host: Option<f64>, fw: Option<f64>, t: &str) {
        if let Some((ts, len)) = linux::stamp_len(t.as_bytes()) {
            let p = linux::printk_after(t, ts, len);
            self.record_printk(n, host, fw, t, p);
            return;
        }
        self.record_unstamped(n, host, fw, t);
    }

    /// [`State::record_text`] of a text with no printk stamp: the bootstage and cores lists,
    /// the grammars, and the line's bytes and ready test.
    ///
    /// Most such texts are taken by no grammar, outside a bootstage report and with the default
    /// ready test: those are told by [`gate::may_match`] on their first two bytes and only
    /// touch the boot here. Every other path is a call that is the last thing done, so this
    /// needs no frame (no callee-saved register saved and restored a line).
    #[inline(never)]
    fn record_unstamped(&mut self, n: u64, host: Option<f64>, fw: Option<f64>, t: &str) {
        if self.takes_no_grammar(t) {
            // A firmware stamp (Raspberry Pi `MESS:` lines, which no grammar takes) is all the
            // slow path would add: `classify` notes it before anything else reads it.
            if fw.is_some() {
                self.cur.fw_s = fw;
            }
            return self.record_ungrammatical(n, host, t);
        }
        self.record_unstamped_slow(n, host, fw, t);
    }

    /// [`State::record_unstamped`] of a text with no host or firmware stamp that the
    /// splitter's fast path hands over (most texts that take no grammar come this way): its
    /// second byte read with no length test (the byte after a text of one byte, which
    /// [`gate::may_match`] allows any value for), and no stamps to pass and test. (About 9
    /// instructions less a line for 82 k lines on the 10 MB bench log.)
    ///
    /// # Safety
    /// `t` is not empty, and the byte after it is readable.
    #[inline(never)]
    unsafe fn record_line(&mut self, n: u64, t: &str) {
        let b = t.as_bytes();
        debug_assert!(!b.is_empty());
        // SAFETY: `t` holds a first byte, and the byte after it is readable, so `b[1]` is
        // either (this function's contract).
        let (first, second) = unsafe { (*b.get_unchecked(0), *b.as_ptr().add(1)) };
        if self.gate_turns_away(first, second) {
            return self.record_ungrammatical(n, None, t);
        }
        self.record_line_slow(n, t);
    }

    /// [`State::record_unstamped_slow`] of a [`State::record_line`] text (no stamps), with
    /// `t` where `record_line` takes it: every way out of `record_line` then passes `t` in
    /// the registers it came in ([`State::ready_if_login`] takes it before `host` too), where
    /// `record_unstamped_slow`'s order (`t` after the stamps) made `record_line` copy it to
    /// other registers on entry, for all its texts (2 instructions each of 81 k).
    #[inline(never)]
    fn record_line_slow(&mut self, n: u64, t: &str) {
        self.unstamped_slow_steps(n, None, None, t);
    }

    /// Whether a text is one that [`State::record_unstamped_slow`] would only note the
    /// firmware stamp of (if any), touch the boot with and test for the ready prompt: not
    /// empty, outside a bootstage report, with no markers or profile ready pattern to try, and
    /// turned away by [`gate::may_match`] (so no grammar, nor user space's opening, can take it).
    #[inline(always)]
    fn takes_no_grammar(&self, t: &str) -> bool {
        let b = t.as_bytes();
        match *b {
            [first, ..] => {
                // A text of one byte has no second: its first stands in (no grammar takes a
                // text of one byte but after the bytes `gate::may_match` takes whatever follows).
                // SAFETY: `b` holds `first`, so its length is at least 1 and the index, 1 for a
                // longer text and 0 for a text of one byte, is below it.
                let second = unsafe { *b.get_unchecked(usize::from(b.len() > 1)) };
                self.gate_turns_away(first, second)
            }
            [] => false,
        }
    }

    /// [`State::takes_no_grammar`] of a text starting with the bytes `first` and `second`
    /// (for a text of one byte, `second` may be any byte): turned away by [`gate::may_match`],
    /// outside a bootstage report, with no profile hooks. The gate first: the texts it lets in
    /// (which go on to the grammars) are told so soonest.
    #[inline(always)]
    fn gate_turns_away(&self, first: u8, second: u8) -> bool {
        !gate::may_match(first, second, self.hints)
            && self.cur.bootstage.is_none()
            && !self.profile_hooks
    }

    /// [`State::record_unstamped_slow`] of a text [`State::takes_no_grammar`] said yes to:
    /// `touch` and the default ready test, the prompt's last-two-bytes test
    /// ([`may_end_login`]) inlined.
    #[inline(always)]
    fn record_ungrammatical(&mut self, n: u64, host: Option<f64>, t: &str) {
        self.touch(n, t.len());
        if may_end_login(t.as_bytes()) {
            self.ready_if_login(n, t, host);
        }
    }

    /// [`State::record_unstamped`] of a text [`gate::may_match`] lets in, or read in a
    /// bootstage report, or empty, or with markers or a profile's ready pattern. Most texts the
    /// gate lets in without a hint start with no grammar's fixed words
    /// ([`gate::word_grammars`]: `Starting foo.service`, `Boot HART ...`) and open no user
    /// space: those take the fast path's steps here, the rest
    /// [`State::record_unstamped_classified`]. Every path is a call that is the last thing
    /// done. The word test, whose code needs callee-saved registers (a frame LLVM set up on
    /// entry, for every text), is [`State::record_unstamped_words`]': the texts a report, a
    /// hint or the profile sends on skip it.
    #[inline(never)]
    fn record_unstamped_slow(&mut self, n: u64, host: Option<f64>, fw: Option<f64>, t: &str) {
        self.unstamped_slow_steps(n, host, fw, t);
    }

    /// The body of [`State::record_unstamped_slow`], inlined into [`State::record_line_slow`]
    /// too (which then needs no jump to it).
    #[inline(always)]
    fn unstamped_slow_steps(&mut self, n: u64, host: Option<f64>, fw: Option<f64>, t: &str) {
        if self.cur.bootstage.is_some() && !t.is_empty() {
            return self.record_in_bootstage(n, host, fw, t);
        }
        if !t.is_empty() && self.hints & needles::ALL == 0 && !self.profile_hooks {
            return self.record_unstamped_words(n, host, fw, t);
        }
        self.record_unstamped_classified(n, host, fw, t);
    }

    /// [`State::record_unstamped_slow`] of a text (not empty, outside a report, with no hint
    /// nor profile hooks): the fast path's steps when no grammar's fixed words start it
    /// ([`gate::word_grammars`]) and it opens no user space, else the grammars.
    #[inline(never)]
    fn record_unstamped_words(&mut self, n: u64, host: Option<f64>, fw: Option<f64>, t: &str) {
        // (No report is open: `record_unstamped_slow` sent a non-empty text in one to
        // `record_in_bootstage`.)
        debug_assert!(self.cur.bootstage.is_none());
        debug_assert!(!t.is_empty() && self.hints & needles::ALL == 0 && !self.profile_hooks);
        if gate::word_grammars(t) == 0 && !self.may_open_userspace(t) {
            if fw.is_some() {
                self.cur.fw_s = fw;
            }
            return self.record_ungrammatical(n, host, t);
        }
        self.record_unstamped_classified(n, host, fw, t);
    }

    /// [`State::record_unstamped_slow`] of a text (not empty) read while a bootstage report or
    /// SBL cores list is open: a row is taken here, spared the frame of
    /// [`State::record_unstamped_classified`] (thousands of report rows a bench log); any other
    /// text has closed the report ([`State::bootstage_row`] leaves `bootstage` empty when it
    /// says no) and goes back to [`State::record_unstamped_slow`], as any text outside one.
    #[inline(never)]
    fn record_in_bootstage(&mut self, n: u64, host: Option<f64>, fw: Option<f64>, t: &str) {
        if self.bootstage_row_inline(n, t) {
            return;
        }
        debug_assert!(self.cur.bootstage.is_none());
        self.record_unstamped_slow(n, host, fw, t);
    }

    /// [`State::record_unstamped_slow`] of a text some grammar may take (or empty, or read in
    /// a bootstage report, or with markers or a profile's ready pattern): the grammars.
    #[inline(never)]
    fn record_unstamped_classified(&mut self, n: u64, host: Option<f64>, fw: Option<f64>, t: &str) {
        if t.is_empty() {
            if self.cur.started {
                self.cur.lines.1 = n;
            }
            return;
        }

        // Bootstage report rows (and SBL core names), which continue their list until a line
        // that is not one, were taken by `record_in_bootstage`: no list is open here.
        debug_assert!(self.cur.bootstage.is_none());
        let no_prompt = self.classify(n, host, fw, t);
        self.touch(n, t.len());
        // The default test is skipped where `classify` says it cannot match (a profile's
        // pattern is tried on every text).
        if !(no_prompt && self.ready.is_none()) && self.is_ready(t) {
            self.ready(n, host, t);
        }
    }

    /// [`State::record_unstamped`] of a text `t` that starts with systemd's `[  OK  ]` and has
    /// no capture layer, firmware stamp or prefix (thousands a boot log with systemd): what the
    /// grammar chain would do, without it. Outside a bootstage report, with no profile markers
    /// and no `autoboot` or `oard` in the line (which would let U-Boot's and SYSFW's grammars
    /// try it first), `classify` lets in only SBL (which turns a `[ ` text away) and systemd
    /// (whose answer to `[  OK  ]` is [`systemd::SystemdLine::Ok`]), and `[` opens no user
    /// space; anything else takes the general path. A test holds it to `record_unstamped`.
    #[inline(never)]
    fn record_ok(&mut self, n: u64, t: &str) {
        if self.cur.bootstage.is_some()
            || !self.markers.is_empty()
            || self.hints & (needles::AUTOBOOT | needles::OARD) != 0
        {
            return self.record_unstamped(n, None, None, t);
        }
        self.systemd_ok(n, None);
        self.touch(n, t.len());
        if self.is_ready(t) {
            self.ready(n, None, t);
        }
    }

    /// [`State::ready`] if `t` (which ends in `:` or a blank) is a login prompt
    /// ([`is_default_ready_tail`], inlined here: this is out of line for it). `t` before
    /// `host`, as [`State::record_line`] holds them (see there).
    #[inline(never)]
    fn ready_if_login(&mut self, n: u64, t: &str, host: Option<f64>) {
        if login_tail(t) {
            self.ready(n, host, t);
        }
    }

    /// [`State::record_printk_inline`] out of line, for the printk-stamped texts that had a
    /// capture layer or a prefix (few).
    #[inline(never)]
    fn record_printk(
        &mut self,
        n: u64,
        host: Option<f64>,
        fw: Option<f64>,
        t: &str,
        p: linux::Printk<'_>,
    ) {
        self.record_printk_inline(n, host, fw, t, p);
    }

    /// [`State::record_text`] of a printk-stamped text `t` (its stamp read as `p`): most of a
    /// boot log, spared the grammar gate. Inlined into [`State::bracket_line`], where most
    /// printk lines come from, so they pay for one frame.
    #[inline(always)]
    fn record_printk_inline(
        &mut self,
        n: u64,
        host: Option<f64>,
        fw: Option<f64>,
        t: &str,
        p: linux::Printk<'_>,
    ) {
        // Bootstage report rows continue a report until a line that is not one (a `[`-text
        // also ends an SBL cores list).
        if self.cur.bootstage.is_some() && self.bootstage_row(n, t) {
            return;
        }
        if fw.is_some() {
            self.cur.fw_s = fw;
        }
        self.printk(n, host, p);
        self.touch(n, t.len());
        if self.is_ready(t) {
            self.ready(n, host, t);
        }
    }

    fn touch(&mut self, n: u64, len: usize) {
        let b = &mut self.cur;
        if !b.started {
            b.started = true;
            b.lines.0 = n;
        }
        b.lines.1 = n;
        // The running stage's, added to it by `flush_bytes` (lost if no stage runs).
        b.tail_bytes += len as u64 + 2;
    }

    /// Whether `t` is the profile's ready marker (by default a login prompt). Inlined with
    /// the default's last-byte test; what follows it, and a profile's regex, out of line.
    #[inline(always)]
    fn is_ready(&self, t: &str) -> bool {
        match &self.ready {
            None => is_default_ready(t),
            Some(r) => is_match_out_of_line(r, t),
        }
    }

    /// Whether `t` may open user space in [`State::classify`] (after no grammar took it):
    /// the first byte first, then the running stage, then the four openings.
    #[inline(always)]
    fn may_open_userspace(&self, t: &str) -> bool {
        matches!(t.as_bytes().first(), Some(b'i' | b'I' | b'S' | b'W'))
            && self.current() == Some(StageId::Kernel)
            && (t.starts_with("init started: BusyBox")
                || t.starts_with("INIT: version")
                || t.starts_with("Starting ")
                || t.starts_with("Welcome to "))
    }

    /// The grammars' reading of a text that has no printk stamp, and what it opens or marks.
    /// True when the text is one the default ready test ([`is_default_ready`]) turns away,
    /// so the caller need not ask it: a systemd blame row, as told below.
    fn classify(&mut self, n: u64, host: Option<f64>, fw: Option<f64>, t: &str) -> bool {
        if fw.is_some() {
            self.cur.fw_s = fw;
        }
        // Only the grammars the first byte and the line's words allow (see `gate`), in order.
        // (This also fixes `self.hints` for the handlers below that read it.)
        let hints = self.hints();
        let g = gate::grammars(t.as_bytes().first().copied().unwrap_or(0), hints);
        // Most lines may match no grammar at all: one test skips the whole chain.
        if g != 0 {
            // The grammars in two groups of four, each skipped by one test when the gate lets
            // none of them in (most lines it lets in are for one or two grammars).
            if g & (gate::UBOOT | gate::SBL | gate::OPTEE | gate::SYSFW) != 0 {
                if g & gate::UBOOT != 0 {
                    if let Some(l) = uboot::line_hinted(t, hints) {
                        self.uboot(n, host, l);
                        return false;
                    }
                }
                if g & gate::SBL != 0 {
                    if let Some(l) = sbl::line(t) {
                        self.sbl(n, host, l);
                        return false;
                    }
                }
                if g & gate::OPTEE != 0 {
                    if let Some(l) = optee::line(t) {
                        self.optee(n, host, l);
                        return false;
                    }
                }
                if g & gate::SYSFW != 0 {
                    if let Some(l) = sysfw::line_hinted(t, hints) {
                        self.sysfw(n, host, l);
                        return false;
                    }
                }
            }
            if g & (gate::TFA | gate::OPENSBI | gate::RPI | gate::LINUX) != 0 {
                if g & gate::TFA != 0 {
                    if let Some(l) = tfa::line(t) {
                        self.tfa(n, host, l);
                        return false;
                    }
                }
                if g & gate::OPENSBI != 0 {
                    if let Some(v) = tfa::opensbi(t) {
                        self.open(StageId::Tfa, n, host, None, "opensbi");
                        self.component("opensbi", v);
                        return false;
                    }
                }
                if g & gate::RPI != 0 {
                    if let Some(l) = rpi::line(t) {
                        self.rpi(n, host, l);
                        return false;
                    }
                }
                if g & gate::LINUX != 0 {
                    if let Some(l) = linux::line(t) {
                        self.kernel(n, host, None, l);
                        return false;
                    }
                }
            }
            if g & gate::SYSTEMD != 0 {
                if let Some(l) = systemd::line_hinted(t, hints) {
                    // A blame row's text ends in its unit's suffix (a letter), then blanks:
                    // its ASCII trim (the login test's) ends there or, where a Unicode blank
                    // is left, on a byte of that blank; no `:`, so no `login:` prompt. Most
                    // rows end in a padding of blanks, so the test would trim and compare
                    // (a call of ~50 instructions, 5,100 rows on the bench log).
                    let no_prompt = matches!(l, systemd::SystemdLine::Blame(..));
                    self.systemd(n, host, l);
                    return no_prompt;
                }
            }
        }
        // The first byte first: most lines are ruled out by it alone.
        if self.may_open_userspace(t) {
            self.open(StageId::Userspace, n, host, None, "init");
        }
        // A profile's markers are rare: one length test here, the loop out of line (its set-up
        // cost every line ~8 instructions even with no marker).
        if !self.markers.is_empty() {
            self.match_markers(n, host, t);
        }
        false
    }

    /// Opens the stage of the first of the profile's markers that matches `t`, if any (out of
    /// line: see [`State::classify`]).
    #[inline(never)]
    fn match_markers(&mut self, n: u64, host: Option<f64>, t: &str) {
        for i in 0..self.markers.len() {
            if self.markers[i].1.is_match(t) {
                let stage = self.markers[i].0;
                self.open(stage, n, host, None, "marker");
                break;
            }
        }
    }

    fn current(&self) -> Option<StageId> {
        self.cur.stages.last().map(|s| s.id)
    }

    fn seen(&self, id: StageId) -> bool {
        self.cur.stages.iter().any(|s| s.id == id)
    }

    fn mark(&mut self, kind: &'static str, n: u64, host: Option<f64>, target: Option<f64>) {
        self.mark_text(Cow::Borrowed(kind), n, host, target);
    }

    /// [`State::mark`] with a kind that may have been made (formatted).
    fn mark_text(
        &mut self,
        kind: Cow<'static, str>,
        n: u64,
        host: Option<f64>,
        target: Option<f64>,
    ) {
        let host_s = host.and_then(|h| self.cur.rel(h));
        self.cur.boot.marks.push(Mark {
            kind,
            line: n,
            host_s,
            target_s: target,
        });
    }

    fn component(&mut self, key: &str, v: &str) {
        // The first value stays.
        let b = &mut self.cur;
        if b.has_component(key) {
            return;
        }
        match b.components.get_mut(b.components_len) {
            Some((k, val)) => {
                put_text(k, key);
                put_text(val, v);
            }
            None => {
                let pool = &mut self.bin.strings;
                b.components.push((pool.take(key), pool.take(v)));
            }
        }
        b.components_len += 1;
        b.components_sig = b.components_sig.wrapping_add(key_sig(key));
    }

    /// Opens a stage; a stage earlier than the running one (or any after the ready marker)
    /// means a reset, so the current boot ends and a new one begins.
    fn open(
        &mut self,
        id: StageId,
        n: u64,
        host: Option<f64>,
        target: Option<f64>,
        kind: &'static str,
    ) {
        // A stage seen before in this boot (other than the running one), a boot-loader stage
        // after the kernel started, or anything after the ready marker: the board was reset.
        let reset = match self.current() {
            Some(cur) => {
                (id != cur && self.seen(id))
                    || (cur >= StageId::Kernel && id < StageId::Kernel)
                    || (self.cur.boot.complete && id < StageId::Userspace)
            }
            None => false,
        };
        if reset {
            self.end_boot();
            if let Some(h) = host {
                self.note_host(h, self.last_scale);
            }
            self.start_stage(id, n, host);
        } else if self.current() != Some(id) {
            self.start_stage(id, n, host);
        }
        self.mark(kind, n, host, target);
    }

    fn start_stage(&mut self, id: StageId, n: u64, host: Option<f64>) {
        if id == StageId::Kernel {
            self.cur.fw_at_kernel = self.cur.fw_s;
        }
        self.cur.started = true;
        if self.cur.lines.0 == 0 {
            self.cur.lines.0 = n;
        }
        self.cur.flush_bytes();
        self.cur.stages.push(OpenStage {
            id,
            line: n,
            host,
            bytes: 0,
        });
    }

    fn uboot(&mut self, n: u64, host: Option<f64>, l: uboot::UbootLine) {
        use uboot::{Phase, UbootLine as U};
        match l {
            U::Banner { phase, version, .. } => match phase {
                Phase::Tpl => {
                    self.open(StageId::ASpl, n, host, None, "tpl_banner");
                    self.component("uboot_tpl", version);
                }
                Phase::Spl => {
                    let stage = if self.cur.seen_tfa {
                        StageId::ASpl
                    } else {
                        self.first_spl
                    };
                    // TI K3 flow seen with a profile that did not say so: the SPL that loaded
                    // TF-A ran on the R5, and this one is the A-core SPL.
                    if stage == StageId::ASpl
                        && self.cur.seen_tfa
                        && self.seen(StageId::ASpl)
                        && !self.seen(StageId::R5Spl)
                        && !self.seen(StageId::Uboot)
                        && self
                            .cur
                            .stages
                            .first()
                            .is_some_and(|s| s.id == StageId::ASpl)
                    {
                        self.cur.stages[0].id = StageId::R5Spl;
                    }
                    // K3: a second SPL banner with no TF-A between is a reset, handled by open().
                    self.open(stage, n, host, None, "spl_banner");
                    if stage == StageId::ASpl
                        && self.cur.has_component("uboot_spl")
                        && self.first_spl == StageId::R5Spl
                    {
                        self.component("uboot_spl_a", version);
                    } else {
                        self.component("uboot_spl", version);
                    }
                }
                Phase::Proper => {
                    self.open(StageId::Uboot, n, host, None, "uboot_banner");
                    self.component("uboot", version);
                }
            },
            U::TryingToBoot(_) => self.mark("trying_to_boot", n, host, None),
            U::Autoboot => self.mark("autoboot", n, host, None),
            U::StartingKernel => self.open(StageId::Kernel, n, host, None, "starting_kernel"),
            U::StartingAtf => self.mark("starting_atf", n, host, None),
            U::BootstageHeader(k) => {
                let mut got = std::mem::take(&mut self.cur.bootstage_buf);
                got.len = 0;
                self.cur.bootstage = Some(BootstageMode::Records { expected: k, got })
            }
            U::BootstageColumns => {}
            U::AccumulatedHeader => {
                self.cur.boot.bootstage_accumulated.clear();
                self.cur.bootstage = Some(BootstageMode::Accumulated)
            }
            U::Error(e) => {
                write_line(
                    self.cur
                        .errors
                        .next_text(&mut self.bin.strings, e.len() + 26),
                    n,
                    e,
                );
                self.mark("error", n, host, None);
            }
        }
    }

    /// Handles a line (number `n`) while a bootstage report or SBL cores list is open; false
    /// ends it. Out of line: few lines are in one, and the others should not pay for it in
    /// `record_text`.
    #[inline(never)]
    fn bootstage_row(&mut self, n: u64, t: &str) -> bool {
        self.bootstage_row_inline(n, t)
    }

    /// [`State::bootstage_row`] inlined, into [`State::record_in_bootstage`], where most rows
    /// come from: one frame a row, not two.
    #[inline(always)]
    fn bootstage_row_inline(&mut self, n: u64, t: &str) -> bool {
        let mode = self.cur.bootstage.as_mut().expect("checked by caller");
        match mode {
            BootstageMode::Cores => {
                // A core name: one word, no `[`; it counts as console output of the boot.
                // (The `' '` by the inlined `ascii::find_byte`, not `contains`' `memchr` call.)
                if !t.starts_with('[') && ascii::find_byte(t.as_bytes(), b' ').is_none() {
                    self.touch(n, t.len());
                    return true;
                }
            }
            BootstageMode::Records { got, .. } => {
                if let Some((mark_us, elapsed_us, name)) = uboot::record_row(t) {
                    got.push(name, &mut self.bin.strings, |name| BootstageRecord {
                        name,
                        mark_us,
                        elapsed_us,
                    });
                    return true;
                }
                if is_columns_line(t) {
                    return true;
                }
            }
            BootstageMode::Accumulated => {
                if let Some((us, name)) = uboot::accumulated_row(t) {
                    self.cur.boot.bootstage_accumulated.push(BootstageAccum {
                        name: self.bin.strings.take(name),
                        us,
                    });
                    return true;
                }
            }
        }
        self.close_bootstage();
        false
    }

    fn close_bootstage(&mut self) {
        if let Some(BootstageMode::Records { expected, mut got }) = self.cur.bootstage.take() {
            // U-Boot counts records it does not print (zero marks), so fewer rows are normal.
            if got.len as u32 > expected || got.len == 0 {
                let w = self.cur.warnings.next_text(&mut self.bin.strings, 64);
                let _ = w.write_fmt(format_args!(
                    "bootstage report announced {expected} records but {} were read",
                    got.len
                ));
            }
            // `boot.bootstage` (the last report) is copied from the reports once, in `finish`.
            let bin = &mut self.bin;
            let report = got.hand_out(&mut bin.records, &mut bin.held, &mut bin.strings);
            self.cur.boot.bootstage_reports.push(report);
            self.cur.bootstage_buf = got;
        }
    }

    fn sbl(&mut self, n: u64, host: Option<f64>, l: sbl::SblLine) {
        use sbl::SblLine as S;
        let b = &mut self.cur;
        // A profile line after a total begins the next SBL run of a multistage boot.
        let point = matches!(
            l,
            S::Point(..) | S::PdkEntry { .. } | S::Info(..) | S::McuHz(_)
        );
        if point && b.sbl_run_has_data && b.boot.sbl_total_us.len() as u32 > b.sbl_run {
            b.sbl_run += 1;
        }
        if !self.seen(StageId::Sbl) || self.current() < Some(StageId::Sbl) {
            self.open(StageId::Sbl, n, host, None, "sbl");
        }
        let b = &mut self.cur;
        let run = b.sbl_run;
        match l {
            S::Revision(r) => {
                self.component("sbl", r.split_whitespace().next().unwrap_or(r));
            }
            S::McuHz(hz) => {
                let kind = self
                    .bin
                    .strings
                    .take_fmt(32, format_args!("sbl_mcu_hz={hz}"));
                self.mark_text(Cow::Owned(kind), n, host, None)
            }
            S::CyclesPerUsec(_) | S::Info(..) => {}
            S::Overflow => {
                let w = self.cur.warnings.next_text(&mut self.bin.strings, 64);
                let _ = w.write_fmt(format_args!(
                    "line {n}: SBL profile log overflowed; entries may be missing"
                ));
            }
            // (No bootstage report is open: the grammars read this line.)
            S::CoresPresent => self.cur.bootstage = Some(BootstageMode::Cores),
            S::PdkEntry {
                wrapped,
                fxn,
                line,
                cycle,
                timestamp_us,
            } => {
                b.sbl_run_has_data = true;
                if wrapped {
                    let w = b.warnings.next_text(&mut self.bin.strings, 64);
                    let _ = w.write_fmt(format_args!(
                        "line {n}: SBL cycle counter wrapped before {fxn}"
                    ));
                }
                b.sbl_points
                    .push(fxn, &mut self.bin.strings, |name| SblPoint {
                        run,
                        name,
                        duration_us: None,
                        timestamp_us: Some(timestamp_us),
                        src_line: Some(line),
                        cycle: Some(cycle),
                    });
            }
            S::Point(name, us) => {
                b.sbl_run_has_data = true;
                b.sbl_points
                    .push(name, &mut self.bin.strings, |name| SblPoint {
                        run,
                        name,
                        duration_us: Some(us),
                        timestamp_us: None,
                        src_line: None,
                        cycle: None,
                    });
            }
            S::Total(us) => {
                b.sbl_run_has_data = true;
                if b.boot.sbl_total_us.len() as u32 > run {
                    b.sbl_run += 1;
                }
                b.boot.sbl_total_us.push(us);
                self.mark("sbl_total", n, host, None);
            }
            S::Handoff => self.mark("sbl_handoff", n, host, None),
            S::Starting(_) => self.mark("sbl_starting", n, host, None),
        }
    }

    fn sysfw(&mut self, n: u64, host: Option<f64>, l: sysfw::SysfwLine) {
        use sysfw::SysfwLine as F;
        match l {
            F::Abi(abi, fw) => {
                self.component("sysfw_abi", abi);
                if let Some(fw) = fw {
                    self.component("sysfw", fw);
                }
            }
            F::Version(v) => {
                if !self.seen(StageId::Sbl) && !self.seen(StageId::R5Spl) {
                    self.open(StageId::Sbl, n, host, None, "sbl");
                }
                self.component("sysfw", v)
            }
            F::DmscAbi(v) => self.component("sysfw_abi", v),
            F::BoardConfig(_) => self.mark("sysfw_board_config", n, host, None),
        }
    }

    fn tfa(&mut self, n: u64, host: Option<f64>, l: tfa::TfaLine) {
        match l {
            tfa::TfaLine::Version(bl, v) => {
                if bl == "BL31" {
                    self.cur.seen_tfa = true;
                    self.open(StageId::Tfa, n, host, None, "bl31");
                    self.component("tfa", v);
                } else {
                    self.component(&format!("tfa_{}", bl.to_ascii_lowercase()), v);
                }
            }
            tfa::TfaLine::OpenSbi(v) => {
                self.open(StageId::Tfa, n, host, None, "opensbi");
                self.component("opensbi", v);
            }
            tfa::TfaLine::Other => {}
        }
    }

    fn optee(&mut self, n: u64, host: Option<f64>, l: optee::OpteeLine) {
        match l {
            optee::OpteeLine::Version(v) => {
                self.cur.seen_tfa = true;
                self.open(StageId::Optee, n, host, None, "optee");
                self.component("optee", v);
            }
            optee::OpteeLine::NormalWorld => self.mark("optee_done", n, host, None),
            optee::OpteeLine::Secondary => {}
            optee::OpteeLine::Other(rest) => {
                if let Some(l) = sysfw::line_hinted(rest, self.hints) {
                    self.sysfw(n, host, l);
                }
            }
        }
    }

    #[inline(never)]
    fn rpi(&mut self, n: u64, host: Option<f64>, l: rpi::RpiLine) {
        match l {
            rpi::RpiLine::Bootloader(v, date) => {
                self.open(StageId::Rom, n, host, None, "rpi_bootloader");
                // `{v} ({d})` by hand: `format!` cost ~1,275 instructions a boot.
                match date {
                    Some(d) => {
                        let mut s = String::with_capacity(v.len() + d.len() + 3);
                        s.push_str(v);
                        s.push_str(" (");
                        s.push_str(d);
                        s.push(')');
                        self.component("rpi_bootloader", &s);
                    }
                    None => self.component("rpi_bootloader", v),
                }
            }
            rpi::RpiLine::Firmware(v) => self.component("rpi_firmware", v),
            rpi::RpiLine::StartingFirmware(f) => {
                if self.current().is_none() {
                    self.open(StageId::Rom, n, host, None, "rpi_firmware");
                }
                let kind = self
                    .bin
                    .strings
                    .take_fmt(32, format_args!("starting_{}", f.trim_end_matches(".elf")));
                self.mark_text(Cow::Owned(kind), n, host, None)
            }
            rpi::RpiLine::LoadedKernel(_) => self.mark("kernel_loaded", n, host, None),
        }
    }

    /// A printk-stamped record: clock checks, the kernel stage, its message's grammars.
    /// Inlined into `record_printk_inline` (so into `bracket_line`): one frame a printk line.
    #[inline(always)]
    fn printk(&mut self, n: u64, host: Option<f64>, p: linux::Printk) {
        let b = &mut self.cur;
        // The last printk time of this boot is its kernel's `last_ts_s` (kept there alone).
        if let Some(last) = b.boot.kernel.as_ref().and_then(|k| k.last_ts_s) {
            if p.ts + 1e-3 < last {
                // By hand, not `format!` (one per reset in a log of many boots).
                let w = b.warnings.next_text(&mut self.bin.strings, 128);
                w.push_str("line ");
                ascii::push_decimal(w, n);
                w.push_str(": printk time went back from ");
                push_fixed6(w, last);
                w.push_str(" to ");
                push_fixed6(w, p.ts);
                w.push_str(": the board was reset");
                self.end_boot();
                if let Some(h) = host {
                    self.note_host(h, self.last_scale);
                }
            }
        }
        let b = &mut self.cur;
        let k = b.boot.kernel.get_or_insert_with(KernelInfo::default);
        if k.first_ts_s.is_none() {
            k.first_ts_s = Some(p.ts);
        }
        k.last_ts_s = Some(p.ts);
        if let Some(h) = host {
            let d = h - p.ts;
            if b.printk_offset.map_or(true, |o| d < o) {
                b.printk_offset = Some(d);
            }
        }
        if self.current().map_or(true, |c| c < StageId::Kernel) {
            self.open(StageId::Kernel, n, host, Some(p.ts), "kernel_first_line");
        }
        if let Some(l) = linux::line(p.msg) {
            self.kernel(n, host, Some(p.ts), l);
        } else if let Some(l) = p
            .msg
            .starts_with("systemd")
            .then(|| systemd::line_hinted(p.msg, self.hints()))
            .flatten()
        {
            self.systemd(n, host, l);
        }
    }

    fn kernel(&mut self, n: u64, host: Option<f64>, ts: Option<f64>, l: linux::KernelLine) {
        use linux::KernelLine as K;
        match l {
            K::Booting => self.open(StageId::Kernel, n, host, ts, "linux_booting"),
            K::Uncompressing => self.open(StageId::Kernel, n, host, ts, "linux_uncompressing"),
            K::Version(v) => {
                self.open(StageId::Kernel, n, host, ts, "linux_version");
                self.component("kernel", v);
                self.cur
                    .boot
                    .kernel
                    .get_or_insert_with(KernelInfo::default)
                    .version = Some(self.bin.strings.take(v));
            }
            K::CmdLine(c) => {
                self.cur
                    .boot
                    .kernel
                    .get_or_insert_with(KernelInfo::default)
                    .cmdline = Some(self.bin.strings.take(c))
            }
            K::Machine(m) => {
                self.cur
                    .boot
                    .kernel
                    .get_or_insert_with(KernelInfo::default)
                    .machine = Some(self.bin.strings.take(m))
            }
            K::FreeingUnused | K::RunInit(_) => {
                if self.current() == Some(StageId::Kernel) {
                    let k = self.cur.boot.kernel.get_or_insert_with(KernelInfo::default);
                    if k.init_ts_s.is_none() {
                        k.init_ts_s = ts;
                    }
                    let kind = if matches!(l, K::RunInit(_)) {
                        "run_init"
                    } else {
                        "freeing_unused"
                    };
                    self.open(StageId::Userspace, n, host, ts, kind);
                } else if matches!(l, K::RunInit(_)) {
                    self.mark("run_init", n, host, ts);
                    let k = self.cur.boot.kernel.get_or_insert_with(KernelInfo::default);
                    if k.init_ts_s.is_none() {
                        k.init_ts_s = ts;
                    }
                }
            }
            K::Calling(f) => self.calling(f),
            K::Initcall { name, ret, usecs } => self.initcall(name, ret, usecs, ts),
            K::Panic(why) => {
                let e = self.cur.errors.next_text(&mut self.bin.strings, 128);
                let _ = e.write_fmt(format_args!("line {n}: Kernel panic - not syncing: {why}"));
                self.mark("panic", n, host, ts);
            }
        }
    }

    /// A `calling` line's function (initcall_debug): the initcall now running.
    #[inline(always)]
    fn calling(&mut self, f: &str) {
        ascii::replace_text(&mut self.cur.calling, f);
        self.cur.calling_open = true;
    }

    /// An `initcall ... returned` line's parts (initcall_debug), stamped `ts`: one more
    /// initcall of the boot, and none running.
    #[inline(always)]
    fn initcall(&mut self, name: &str, ret: i64, usecs: u64, ts: Option<f64>) {
        self.cur.calling_open = false;
        let pool = &mut self.bin.strings;
        self.cur.initcalls.push_initcall(name, pool, usecs, ret, ts)
    }

    fn systemd(&mut self, n: u64, host: Option<f64>, l: systemd::SystemdLine) {
        use systemd::SystemdLine as D;
        if let D::Ok = l {
            return self.systemd_ok(n, host);
        }
        let opens = matches!(l, D::Failed(_) | D::Welcome);
        if opens && self.current().is_some_and(|c| c == StageId::Kernel) {
            self.open(StageId::Userspace, n, host, None, "systemd");
        }
        let b = &mut self.cur;
        let pool = &mut self.bin.strings;
        let sd = b.boot.systemd.get_or_insert_with(SystemdInfo::default);
        match l {
            D::Startup(parts, total) => {
                for (label, v) in parts {
                    let slot = match label {
                        "firmware" => &mut sd.firmware_s,
                        "loader" => &mut sd.loader_s,
                        "kernel" => &mut sd.kernel_s,
                        "initrd" => &mut sd.initrd_s,
                        "userspace" => &mut sd.userspace_s,
                        _ => continue,
                    };
                    *slot = Some(v);
                }
                sd.total_s = total;
            }
            D::Reached(unit, v) => sd.target_reached = Some((pool.take(unit), v)),
            // Counted by `systemd_ok`, which took it above.
            D::Ok => {}
            D::Failed(u) => b.sd_failed.push(u, pool, |s| s),
            D::Welcome => {}
            D::Blame(u, d) => b.sd_blame.push(u, pool, |name| SystemdUnit {
                name,
                duration_s: Some(d),
                at_s: None,
            }),
            D::Chain(u, at, plus) => b.sd_chain.push(u, pool, |name| SystemdUnit {
                name,
                duration_s: plus,
                at_s: Some(at),
            }),
        }
    }

    /// [`State::systemd`] of a `[  OK  ]` line: it opens user space when the kernel runs,
    /// and is counted.
    #[inline(always)]
    fn systemd_ok(&mut self, n: u64, host: Option<f64>) {
        if self.current() == Some(StageId::Kernel) {
            self.open(StageId::Userspace, n, host, None, "systemd");
        }
        let sd = self
            .cur
            .boot
            .systemd
            .get_or_insert_with(SystemdInfo::default);
        sd.ok_lines += 1;
    }

    fn ready(&mut self, n: u64, host: Option<f64>, t: &str) {
        if self.cur.boot.complete {
            return;
        }
        if !self.seen(StageId::Userspace) {
            // Where userspace began is unknown: the last stage seen runs to the ready marker.
            let msg = "ready marker seen but no line told where userspace began; the last stage seen runs to it";
            write_line(
                self.cur
                    .warnings
                    .next_text(&mut self.bin.strings, msg.len() + 26),
                n,
                msg,
            );
        }
        self.cur.boot.complete = true;
        self.cur.ready_host = host;
        self.cur.boot.login_prompt = Some(self.bin.strings.take(t.trim()));
        self.mark("ready", n, host, None);
    }

    fn end_boot(&mut self) {
        if self.cur.bootstage.is_some() {
            self.close_bootstage();
        }
        if self.cur.started {
            if self.power_on && self.next_index == 0 {
                self.cur.add_pre_console_stage();
            }
            self.cur
                .finish(self.next_index, &mut self.bin, &mut self.done);
            self.next_index += 1;
        }
        // A boot that never started hands its warnings on to the next.
        self.cur.reset();
    }
}

impl Builder {
    /// Back to an empty builder for the next boot, keeping the buffers' capacity (and the
    /// warnings [`Builder::finish`] left, those of a boot that never started).
    fn reset(&mut self) {
        // Field by field in place: taking the whole builder (`std::mem::take`) and moving the
        // buffers back copies the large structs twice. Every field is named, so a new one
        // cannot be forgotten; each ends as `Builder::default()` has it, buffers cleared.
        let Builder {
            boot,
            started,
            stages,
            scale,
            origin,
            last_host,
            ready_host,
            bootstage,
            sbl_run,
            sbl_run_has_data,
            calling,
            calling_open,
            printk_offset,
            seen_tfa,
            fw_s,
            fw_at_kernel,
            lines,
            tail_bytes,
            sd_blame,
            sd_chain,
            sd_failed,
            bootstage_buf,
            sbl_points,
            initcalls: builder_initcalls,
            warnings: _,
            errors: builder_errors,
            components: _,
            components_len,
            components_sig,
        } = self;
        let Boot {
            index,
            complete,
            lines: boot_lines,
            stages: boot_stages,
            components,
            sbl_profile,
            sbl_total_us,
            bootstage: boot_bootstage,
            bootstage_accumulated,
            bootstage_reports,
            initcalls,
            kernel,
            systemd,
            login_prompt,
            marks,
            errors,
            printk_offset_s,
            warnings: boot_warnings,
        } = boot;
        *index = 0;
        *complete = false;
        *boot_lines = (0, 0);
        // Not filled by the builder (see `finish`): empty unless a boot never started.
        if !boot_stages.is_empty() {
            *boot_stages = Vec::new();
        }
        if !components.is_empty() {
            *components = Default::default();
        }
        if !boot_bootstage.is_empty() {
            *boot_bootstage = Vec::new();
        }
        sbl_profile.clear();
        sbl_total_us.clear();
        bootstage_accumulated.clear();
        bootstage_reports.clear();
        initcalls.clear();
        // Mostly moved out already by `finish`: dropped only when there (the drop of a
        // `SystemdInfo` is a call, made each boot when unguarded).
        if kernel.is_some() {
            *kernel = None;
        }
        if systemd.is_some() {
            *systemd = None;
        }
        if login_prompt.is_some() {
            *login_prompt = None;
        }
        marks.clear();
        errors.clear();
        // Gathered in the builder's own `warnings` (kept), never here.
        boot_warnings.clear();
        *printk_offset_s = None;
        *started = false;
        stages.clear();
        *scale = None;
        *origin = None;
        *last_host = None;
        *ready_host = None;
        *bootstage = None;
        *sbl_run = 0;
        *sbl_run_has_data = false;
        calling.clear();
        *calling_open = false;
        *printk_offset = None;
        *seen_tfa = false;
        *fw_s = None;
        *fw_at_kernel = None;
        *lines = (0, 0);
        *tail_bytes = 0;
        // The slots keep their items: their strings are rewritten by the next boot.
        sd_blame.len = 0;
        sd_chain.len = 0;
        sd_failed.len = 0;
        builder_errors.len = 0;
        bootstage_buf.len = 0;
        sbl_points.len = 0;
        builder_initcalls.len = 0;
        *components_len = 0;
        *components_sig = 0;
    }

    /// Adds [`Builder::tail_bytes`] to the running stage (none: they belong to no stage).
    fn flush_bytes(&mut self) {
        if let Some(s) = self.stages.last_mut() {
            s.bytes += self.tail_bytes;
        }
        self.tail_bytes = 0;
    }

    /// Whether this boot has a component `key`.
    fn has_component(&self, key: &str) -> bool {
        self.components[..self.components_len]
            .iter()
            .any(|(k, _)| k == key)
    }

    /// This boot's components as a map: a recycled map with the same keys, its values
    /// rewritten in place (no allocation, the common case of a log of like boots), else a
    /// new one.
    fn components_map(&self, bin: &mut Bin) -> BTreeMap<String, String> {
        let have = &self.components[..self.components_len];
        if have.is_empty() {
            return BTreeMap::new();
        }
        // The newest candidate first. Keys are distinct on both sides: as many, each found,
        // means the same keys. A mismatch found midway (signatures can collide) leaves some
        // values rewritten, which is harmless: a map is only used once all are rewritten.
        let sig = self.components_sig;
        for i in (0..bin.maps.len()).rev() {
            let (s, m) = &mut bin.maps[i];
            if *s != sig || m.len() != have.len() {
                continue;
            }
            if rewrite_same_keys(m, have) {
                return bin.maps.swap_remove(i).1;
            }
        }
        have.iter()
            .map(|(k, v)| (bin.strings.take(k), bin.strings.take(v)))
            .collect()
    }

    /// Writes this boot's components into `map`, the slot's map (that of a boot handed back
    /// in place, or none): rewritten there when it has the same keys, the common case of a
    /// log of like boots (no signature to sum, no map to look for), else kept in the bin
    /// and replaced by [`Builder::components_map`]'s.
    fn components_into(&self, bin: &mut Bin, map: &mut BTreeMap<String, String>, sig: &mut u64) {
        let have = &self.components[..self.components_len];
        if *sig == self.components_sig
            && !map.is_empty()
            && map.len() == have.len()
            && rewrite_same_keys(map, have)
        {
            return;
        }
        bin.keep_map_signed(*sig, std::mem::take(map));
        *map = self.components_map(bin);
        *sig = self.components_sig;
    }

    /// Adds `rom` from power-on (host 0) to the first stage, when the host clock tells.
    fn add_pre_console_stage(&mut self) {
        let Some(first) = self.stages.first() else {
            return;
        };
        let first_host = first.host;
        if first.id <= StageId::Rom
            || self.scale != Some(HostScale::Relative)
            || self.origin != Some(0.0)
            || first_host.map_or(true, |h| h <= 0.0)
        {
            return;
        }
        self.stages.insert(
            0,
            OpenStage {
                id: StageId::Rom,
                line: 0,
                host: Some(0.0),
                bytes: 0,
            },
        );
        self.boot.marks.insert(
            0,
            Mark {
                kind: "power_on".into(),
                line: 0,
                host_s: Some(0.0),
                target_s: None,
            },
        );
    }

    /// A host time relative to this boot's origin.
    fn rel(&self, abs: f64) -> Option<f64> {
        Some(round6(abs - self.origin?))
    }

    /// The finished boot. Its vectors are the builder's buffers when [`Parser::recycle`] left
    /// spares to put in their place (no allocation), else exact-size copies (one allocation
    /// each); the builder's own keep their capacity for the next boot (see [`Builder::reset`]).
    /// Queued at the back of `done` and completed there: returned, the boot was copied out
    /// of this frame's copy (a `memcpy` of the whole boot, each boot).
    fn finish(&mut self, index: usize, bin: &mut Bin, done: &mut Done) {
        self.flush_bytes();
        let hosted = self.scale.is_some() && self.stages.iter().any(|s| s.host.is_some());
        // The closing warnings, appended before the warnings are copied out.
        // Warnings and errors are gathered in the builder's slots, never in `boot`.
        debug_assert!(self.boot.warnings.is_empty() && self.boot.errors.is_empty());
        let w = &mut self.warnings;
        let pool = &mut bin.strings;
        if !hosted {
            w.push("no host timestamps: stage times come from the target's own clocks where it prints them", pool, |s| s);
        }
        if !self.boot.complete {
            w.push(
                "the log ends before the ready marker (login prompt)",
                pool,
                |s| s,
            );
        }
        if self.calling_open {
            let _ = w.next_text(pool, 128).write_fmt(format_args!(
                "initcall {} was called but never returned in this log",
                self.calling
            ));
        }
        let (boot, sig) = done.next_slot();
        // What the slot held before (a boot handed back in place, or nothing): the parts
        // rebuilt from the bin go back to it, the lists rewritten below stay.
        bin.clear_rare(boot);
        self.components_into(bin, &mut boot.components, sig);
        let b = &mut self.boot;
        let held = &mut bin.held;
        // Moved only when there is one (most boots have none): `clear_rare` left `None`.
        if b.systemd.is_some() {
            boot.systemd = b.systemd.take();
        }
        if let Some(sd) = &mut boot.systemd {
            sd.blame = self
                .sd_blame
                .hand_out(&mut bin.blames, held, &mut bin.strings);
            sd.critical_chain = self
                .sd_chain
                .hand_out(&mut bin.chains, held, &mut bin.strings);
            sd.failed = self
                .sd_failed
                .hand_out(&mut bin.failed, held, &mut bin.strings);
        }
        // The last report (see `close_bootstage`), copied into a spare whose strings are
        // rewritten in place.
        boot.bootstage = match b.bootstage_reports.last() {
            Some(last) => {
                let v =
                    spare(&mut bin.records, held).unwrap_or_else(|| Vec::with_capacity(last.len()));
                let mut copy = Slots { v, len: 0 };
                for r in last {
                    copy.push(&r.name, &mut bin.strings, |name| BootstageRecord {
                        name,
                        mark_us: r.mark_us,
                        elapsed_us: r.elapsed_us,
                    });
                }
                copy.cut(&mut bin.strings);
                copy.v
            }
            None => Vec::new(),
        };
        boot.index = index;
        boot.complete = b.complete;
        boot.lines = self.lines;
        boot.bootstage_accumulated =
            hand_out(&mut b.bootstage_accumulated, &mut bin.accumulated, held);
        boot.bootstage_reports = hand_out(&mut b.bootstage_reports, &mut bin.reports, held);
        // Moved only when there (`clear_rare` left `None`s): a move of the large
        // `Option<KernelInfo>` and a drop test of the old one, for nothing, in most boots.
        if b.kernel.is_some() {
            boot.kernel = b.kernel.take();
        }
        if b.login_prompt.is_some() {
            boot.login_prompt = b.login_prompt.take();
        }
        boot.printk_offset_s = None;
        // The lists most boots have: swapped with the slot's own (its items the builder's
        // stale slots to rewrite), or taken from the bin's spares when the slot is new.
        let pool = &mut bin.strings;
        self.sbl_points
            .swap_out(&mut boot.sbl_profile, &mut bin.sbl_points, held, pool);
        self.initcalls
            .swap_out(&mut boot.initcalls, &mut bin.initcalls, held, pool);
        self.errors
            .swap_out(&mut boot.errors, &mut bin.errors, held, pool);
        self.warnings
            .swap_out(&mut boot.warnings, &mut bin.warnings, held, pool);
        boot.sbl_total_us.clear();
        swap_list(
            &mut b.sbl_total_us,
            &mut boot.sbl_total_us,
            &mut bin.numbers,
            held,
        );
        clear_marks(&mut boot.marks, pool);
        swap_list(&mut b.marks, &mut boot.marks, &mut bin.marks, held);
        boot.stages.clear();
        if boot.stages.capacity() == 0 && !self.stages.is_empty() {
            boot.stages = spare(&mut bin.stages, held)
                .unwrap_or_else(|| Vec::with_capacity(self.stages.len()));
        }
        let end_host = if boot.complete {
            self.ready_host
        } else {
            self.last_host
        };
        let n = self.stages.len();
        for i in 0..n {
            let s = &self.stages[i];
            let mut st = Stage {
                id: s.id,
                start_s: None,
                end_s: None,
                duration_s: None,
                clock: Clock::Host,
                line: (s.line > 0).then_some(s.line),
                console_bytes: Some(s.bytes),
            };
            if hosted {
                st.start_s = s.host.and_then(|h| self.rel(h));
                st.end_s = if i + 1 < n {
                    self.stages[i + 1].host
                } else {
                    end_host
                }
                .and_then(|h| self.rel(h));
                if let (Some(a), Some(b)) = (st.start_s, st.end_s) {
                    st.duration_s = Some(round6(b - a));
                }
            } else {
                self.target_figures(boot, &mut st);
            }
            boot.stages.push(st);
        }
        if let Some(o) = self.printk_offset {
            boot.printk_offset_s = Some(round6(o - self.origin.unwrap_or(0.0)));
        }
    }

    /// Stage figures from target clocks, when the log has no host stamps.
    fn target_figures(&self, boot: &Boot, st: &mut Stage) {
        st.clock = Clock::Target;
        match st.id {
            StageId::Rom if self.fw_at_kernel.is_some() => {
                // Raspberry Pi: the firmware stamps time since it started.
                st.start_s = Some(0.0);
                st.end_s = self.fw_at_kernel;
                st.duration_s = self.fw_at_kernel.map(round6);
            }
            StageId::Sbl if !boot.sbl_total_us.is_empty() => {
                st.duration_s = Some(round6(boot.sbl_total_us.iter().sum::<u64>() as f64 / 1e6));
            }
            StageId::Uboot if !boot.bootstage.is_empty() => {
                let start = boot
                    .bootstage
                    .iter()
                    .find(|r| r.name == "board_init_f")
                    .map(|r| r.mark_us);
                let end = boot.bootstage.iter().map(|r| r.mark_us).max();
                if let (Some(a), Some(b)) = (start, end) {
                    st.start_s = Some(a as f64 / 1e6);
                    st.end_s = Some(b as f64 / 1e6);
                    st.duration_s = Some(round6((b - a.min(b)) as f64 / 1e6));
                }
            }
            StageId::Kernel => {
                if let Some(k) = &boot.kernel {
                    // printk time 0 is the kernel's own origin; init is where it hands over.
                    st.start_s = k.init_ts_s.map(|_| 0.0);
                    st.end_s = k.init_ts_s;
                    if let (Some(a), Some(b)) = (st.start_s, st.end_s) {
                        st.duration_s = Some(round6(b - a));
                    }
                }
                if st.duration_s.is_none() {
                    if let Some(v) = boot.systemd.as_ref().and_then(|s| s.kernel_s) {
                        st.duration_s = Some(v);
                    }
                }
            }
            StageId::Userspace => {
                if let Some(v) = boot.systemd.as_ref().and_then(|s| s.userspace_s) {
                    st.duration_s = Some(v);
                }
            }
            _ => {}
        }
    }
}

/// Moves a buffer's items into a vector of exactly their number (one allocation, none when
/// empty), leaving the buffer empty with its capacity for the next boot.
fn exact<T>(buf: &mut Vec<T>) -> Vec<T> {
    let mut v = Vec::with_capacity(buf.len());
    v.append(buf);
    v
}

/// A buffer's items as a vector for a boot: the buffer itself when a spare can take its place
/// (no allocation, no copy), else an [`exact`] copy. None when empty.
fn hand_out<T>(buf: &mut Vec<T>, spares: &mut Vec<Vec<T>>, held: &mut usize) -> Vec<T> {
    if buf.is_empty() {
        return Vec::new();
    }
    match spare(spares, held) {
        Some(s) => std::mem::replace(buf, s),
        None => exact(buf),
    }
}

/// Moves a builder buffer's items into `dst`, a boot's emptied list, by swapping the two:
/// the builder keeps `dst`'s capacity (or a spare's, when `dst` has none) for the next boot.
/// Nothing moves when the buffer is empty.
fn swap_list<T>(src: &mut Vec<T>, dst: &mut Vec<T>, spares: &mut Vec<Vec<T>>, held: &mut usize) {
    debug_assert!(dst.is_empty());
    if src.is_empty() {
        return;
    }
    if dst.capacity() == 0 {
        if let Some(s) = spare(spares, held) {
            *dst = s;
        }
    }
    std::mem::swap(src, dst);
}

/// Empties a boot's marks, their made kinds to the pool.
fn clear_marks(v: &mut Vec<Mark>, pool: &mut StringPool) {
    for m in v.drain(..) {
        if let Cow::Owned(k) = m.kind {
            pool.put(k);
        }
    }
}

/// Bounds a list kept whole for its items' strings to be rewritten (see [`Slots`]) as the
/// pool is bounded: a vector too big is freed, and so is a string too long for the pool.
fn bound_whole<T: Named>(v: &mut Vec<T>) {
    if vec_bytes(v) > Bin::MAX_VEC_BYTES {
        *v = Vec::new();
        return;
    }
    for it in v.iter_mut() {
        let name = it.name_mut();
        if name.capacity() >= MIN_CAP << STRING_CLASSES {
            *name = String::new();
        }
    }
}

/// Bytes of a vector's buffer.
fn vec_bytes<T>(v: &Vec<T>) -> usize {
    v.capacity() * std::mem::size_of::<T>()
}

/// A cleared vector from the spares, if any.
fn spare<T>(spares: &mut Vec<Vec<T>>, held: &mut usize) -> Option<Vec<T>> {
    let v = spares.pop()?;
    *held -= vec_bytes(&v);
    Some(v)
}

/// Keeps an emptied vector as a spare, unless it holds nothing, is huge, or the bin is full.
fn keep<T>(spares: &mut Vec<Vec<T>>, held: &mut usize, v: Vec<T>) {
    debug_assert!(v.is_empty());
    let bytes = vec_bytes(&v);
    if bytes == 0 || bytes > Bin::MAX_VEC_BYTES || *held + bytes > Bin::VEC_BUDGET {
        return;
    }
    *held += bytes;
    spares.push(v);
}

/// Keeps a vector as a spare with its items, whose strings a later boot rewrites in place
/// (see [`Slots`]), unless it holds nothing, is huge, or the bin is full. A string too long
/// for the pool is freed first, so a spare's strings stay bounded like the pool's.
fn keep_whole<T: Named>(spares: &mut Vec<Vec<T>>, held: &mut usize, mut v: Vec<T>) {
    let bytes = vec_bytes(&v);
    if bytes == 0 || bytes > Bin::MAX_VEC_BYTES || *held + bytes > Bin::VEC_BUDGET {
        return;
    }
    bound_whole(&mut v);
    *held += bytes;
    spares.push(v);
}

/// An item with a string the builder may rewrite in place (see [`Slots`]).
trait Named {
    /// The item's string.
    fn name_mut(&mut self) -> &mut String;
}

impl Named for Initcall {
    fn name_mut(&mut self) -> &mut String {
        &mut self.name
    }
}

impl Named for BootstageRecord {
    fn name_mut(&mut self) -> &mut String {
        &mut self.name
    }
}

impl Named for SblPoint {
    fn name_mut(&mut self) -> &mut String {
        &mut self.name
    }
}

impl Named for String {
    fn name_mut(&mut self) -> &mut String {
        self
    }
}

impl Named for SystemdUnit {
    fn name_mut(&mut self) -> &mut String {
        &mut self.name
    }
}

/// A builder list of `len` items whose slots past them hold items of earlier boots (spares
/// kept whole by [`keep_whole`]): a new item rewrites the next slot's string in place (clear,
/// push) instead of taking a string from the pool, and the old one's going back to it.
#[derive(PartialEq, Debug)]
struct Slots<T> {
    v: Vec<T>,
    len: usize,
}

impl<T> Default for Slots<T> {
    fn default() -> Self {
        Slots {
            v: Vec::new(),
            len: 0,
        }
    }
}

impl<T: Named> Slots<T> {
    /// Appends the item `make` builds around a string holding `text`.
    #[inline]
    fn push(&mut self, text: &str, pool: &mut StringPool, make: impl FnOnce(String) -> T) {
        match self.v.get_mut(self.len) {
            Some(old) => {
                let mut s = std::mem::take(old.name_mut());
                set_text(&mut s, text);
                *old = make(s);
            }
            None => self.v.push(make(pool.take(text))),
        }
        self.len += 1;
    }

    /// Drops the slots past `len`, their strings to the pool. The test is in line and the
    /// work out of line ([`Slots::cut_past_len`]): most boots fill as many slots as the
    /// boot before left (the same warnings, the same initcalls), and a call that found
    /// nothing to cut cost some 36 instructions for its frame (37k on the bench log).
    #[inline(always)]
    fn cut(&mut self, pool: &mut StringPool) {
        if self.v.len() > self.len {
            self.cut_past_len(pool);
        }
    }

    /// [`Slots::cut`] when there are slots past `len`.
    #[inline(never)]
    fn cut_past_len(&mut self, pool: &mut StringPool) {
        for mut it in self.v.drain(self.len..) {
            pool.put(std::mem::take(it.name_mut()));
        }
    }

    /// The items as a vector for a boot (see [`hand_out`]); the slots start over, with the
    /// spare's items (if one took their place) to rewrite.
    fn hand_out(
        &mut self,
        spares: &mut Vec<Vec<T>>,
        held: &mut usize,
        pool: &mut StringPool,
    ) -> Vec<T> {
        if self.len == 0 {
            // Nothing this boot: the slots stay for the next.
            return Vec::new();
        }
        self.cut(pool);
        self.len = 0;
        hand_out(&mut self.v, spares, held)
    }
}

impl<T: Named> Slots<T> {
    /// Moves the items into `dst`, a boot's list holding only stale items (those of a boot
    /// handed back in place) or none: the two vectors are swapped, the builder taking `dst`'s
    /// items (bounded, see [`bound_whole`]) as its slots to rewrite, or a spare's when `dst`
    /// has no buffer. With no items this boot, the slots stay and `dst` goes to the spares
    /// whole (its strings for a later boot to rewrite, not to the pool one by one).
    ///
    /// Nothing to do (no items, `dst` without a buffer: most boots' errors) is told in line,
    /// the rest is done out of line ([`Slots::swap_out_some`]): such calls paid a frame for
    /// nothing.
    #[inline(always)]
    fn swap_out(
        &mut self,
        dst: &mut Vec<T>,
        spares: &mut Vec<Vec<T>>,
        held: &mut usize,
        pool: &mut StringPool,
    ) {
        if self.len != 0 || dst.capacity() != 0 {
            self.swap_out_some(dst, spares, held, pool);
        }
    }

    /// [`Slots::swap_out`] with items or a `dst` with a buffer.
    #[inline(never)]
    fn swap_out_some(
        &mut self,
        dst: &mut Vec<T>,
        spares: &mut Vec<Vec<T>>,
        held: &mut usize,
        pool: &mut StringPool,
    ) {
        if self.len == 0 {
            if dst.capacity() != 0 {
                keep_whole(spares, held, std::mem::take(dst));
            }
            return;
        }
        self.cut(pool);
        self.len = 0;
        if dst.capacity() == 0 {
            if let Some(s) = spare(spares, held) {
                *dst = s;
            }
        }
        bound_whole(dst);
        std::mem::swap(&mut self.v, dst);
    }
}

impl Slots<Initcall> {
    /// [`Slots::push`] of an initcall (thousands a boot): a reused slot's fields written in
    /// place, with no name taken out, item built and old item dropped around it.
    #[inline(always)]
    fn push_initcall(
        &mut self,
        name: &str,
        pool: &mut StringPool,
        duration_us: u64,
        ret: i64,
        ts_s: Option<f64>,
    ) {
        match self.v.get_mut(self.len) {
            Some(old) => {
                set_text(&mut old.name, name);
                old.duration_us = duration_us;
                old.ret = ret;
                old.ts_s = ts_s;
            }
            None => self.v.push(Initcall {
                name: pool.take(name),
                duration_us,
                ret,
                ts_s,
            }),
        }
        self.len += 1;
    }

    /// [`Self::push_initcall`] into the next slot when there is one whose name takes `name`
    /// by [`ascii::try_replace_text`]'s inline copy (8 to 32 bytes, within its room): `true`
    /// when done, `false` with nothing changed (the caller then pushes by the general way).
    /// The inline copy makes no call, so a caller that jumps away on `false` needs no frame.
    #[inline(always)]
    fn try_reuse_initcall(
        &mut self,
        name: &str,
        duration_us: u64,
        ret: i64,
        ts_s: Option<f64>,
    ) -> bool {
        let Some(old) = self.v.get_mut(self.len) else {
            return false;
        };
        if !ascii::try_replace_text(&mut old.name, name) {
            return false;
        }
        old.duration_us = duration_us;
        old.ret = ret;
        old.ts_s = ts_s;
        self.len += 1;
        true
    }
}

impl Slots<String> {
    /// A cleared string as the next item, to write into: the next slot's, else the pool's
    /// with room for `room` bytes.
    fn next_text(&mut self, pool: &mut StringPool, room: usize) -> &mut String {
        if self.len < self.v.len() {
            self.v[self.len].clear();
        } else {
            self.v.push(pool.empty(room));
        }
        self.len += 1;
        &mut self.v[self.len - 1]
    }
}

/// Rewrites the values of `m` from `have` when every key of `m` is in `have` (as many keys
/// on both sides, each distinct, means the same keys); stops at the first key missing,
/// leaving some values rewritten (harmless: a map is only used once all are).
fn rewrite_same_keys(m: &mut BTreeMap<String, String>, have: &[(String, String)]) -> bool {
    m.iter_mut().all(|(mk, mv)| {
        match have
            .iter()
            .find(|(k, _)| same_bytes(k.as_bytes(), mk.as_bytes()))
        {
            Some((_, v)) => {
                set_text(mv, v);
                true
            }
            None => false,
        }
    })
}

/// Makes `s` hold `text`, leaving it as it is when it already does: a slot rewritten boot
/// after boot mostly gets the same text again (a boot loop prints the same versions,
/// initcalls and units), and an inline compare is cheaper than a copy through `memcpy`.
/// Always inlined: as a call from [`Slots::push`] it cost more than the copies it saves.
#[inline(always)]
fn set_text(s: &mut String, text: &str) {
    if !same_bytes(s.as_bytes(), text.as_bytes()) {
        put_text(s, text);
    }
}

/// Makes `s` hold `text` (what `clear` then `push_str` do), a text of 4 to 32 bytes (component
/// keys, most versions) copied as two overlapping words in line instead of through a `memcpy`
/// call, which costs more than the copy itself at these lengths.
#[inline(always)]
fn put_text(s: &mut String, text: &str) {
    let n = text.len();
    if !(4..=32).contains(&n) {
        s.clear();
        s.push_str(text);
        return;
    }
    s.clear();
    s.reserve(n);
    let src = text.as_ptr();
    // SAFETY: `s` was cleared and has room for `n` bytes (the reserve), so every store below,
    // at offsets up to `n`, lies in its buffer; every load lies in `text` (the two words of
    // each case, at 0 and ending at `n`, are no longer than `n`). The bytes copied are `text`'s,
    // valid UTF-8, so `s` holds exactly `text` once its length is set to `n`.
    unsafe {
        let v = s.as_mut_vec();
        let dst = v.as_mut_ptr();
        if n > 16 {
            let a = std::ptr::read_unaligned(src as *const u128);
            let b = std::ptr::read_unaligned(src.add(n - 16) as *const u128);
            std::ptr::write_unaligned(dst as *mut u128, a);
            std::ptr::write_unaligned(dst.add(n - 16) as *mut u128, b);
        } else if n >= 8 {
            let a = std::ptr::read_unaligned(src as *const u64);
            let b = std::ptr::read_unaligned(src.add(n - 8) as *const u64);
            std::ptr::write_unaligned(dst as *mut u64, a);
            std::ptr::write_unaligned(dst.add(n - 8) as *mut u64, b);
        } else {
            let a = std::ptr::read_unaligned(src as *const u32);
            let b = std::ptr::read_unaligned(src.add(n - 4) as *const u32);
            std::ptr::write_unaligned(dst as *mut u32, a);
            std::ptr::write_unaligned(dst.add(n - 4) as *mut u32, b);
        }
        v.set_len(n);
    }
}

/// A key's share of the signature of a set of keys (their wrapping sum, so the order does not
/// matter): equal sets have equal signatures; unequal ones mostly not (a match is checked).
fn key_sig(k: &str) -> u64 {
    let b = k.as_bytes();
    let x = b.len() as u64
        | u64::from(b.first().copied().unwrap_or(0)) << 16
        | u64::from(b.last().copied().unwrap_or(0)) << 24
        | u64::from(b.get(b.len() / 2).copied().unwrap_or(0)) << 32;
    x.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The completed boots, oldest first, in `boots[head..len]`. The other slots hold boots
/// handed out already: lent ones ([`Parser::next_boot_mut`], [`Parser::recycle_front`]) stay
/// whole for a later boot to be built in ([`Builder::finish`] rewrites their lists and
/// strings in place: no taking apart, no moving a boot in and out of a queue), taken ones
/// ([`Parser::next_boot`]) are left empty. There are as many slots as boots were ever
/// waiting at once.
#[derive(Default)]
struct Done {
    boots: Vec<Boot>,
    /// By slot, the [`key_sig`] sum of its boot's component keys as built (a hint: a lent
    /// boot may have been changed; a match is checked key by key).
    sigs: Vec<u64>,
    head: usize,
    len: usize,
}

impl Done {
    /// The oldest completed boot.
    fn front_mut(&mut self) -> Option<&mut Boot> {
        self.boots[self.head..self.len].first_mut()
    }

    /// Hands out the oldest completed boot, leaving it in its slot; once none waits, every
    /// slot is free again.
    fn skip_front(&mut self) {
        if self.head < self.len {
            self.head += 1;
            if self.head == self.len {
                self.head = 0;
                self.len = 0;
            }
        }
    }

    /// Takes the oldest completed boot out of its slot.
    fn take_front(&mut self) -> Option<Boot> {
        let b = std::mem::take(self.front_mut()?);
        self.skip_front();
        Some(b)
    }

    /// The slot for the next completed boot: a free one, holding what a boot handed out left
    /// there, or a new empty one.
    fn next_slot(&mut self) -> (&mut Boot, &mut u64) {
        if self.len == self.boots.len() {
            self.boots.push(Boot::default());
            self.sigs.push(0);
        }
        self.len += 1;
        (&mut self.boots[self.len - 1], &mut self.sigs[self.len - 1])
    }

    /// The completed boots.
    fn into_boots(mut self) -> Vec<Boot> {
        self.boots.truncate(self.len);
        self.boots.drain(..self.head);
        self.boots
    }
}

/// Vectors and strings of boots handed back by [`Parser::recycle`], cleared, for the boots
/// still to be built: each reuse saves a malloc and a free, which mostly miss glibc's thread
/// cache as a whole boot is freed at once. Bounded (see the constants), so memory stays flat.
#[derive(Default)]
struct Bin {
    strings: StringPool,
    /// Bytes of the spare vectors below.
    held: usize,
    stages: Vec<Vec<Stage>>,
    sbl_points: Vec<Vec<SblPoint>>,
    numbers: Vec<Vec<u64>>,
    /// Bootstage reports (and copies of the last one).
    records: Vec<Vec<BootstageRecord>>,
    accumulated: Vec<Vec<BootstageAccum>>,
    reports: Vec<Vec<Vec<BootstageRecord>>>,
    initcalls: Vec<Vec<Initcall>>,
    /// systemd blame rows and critical chains, apart: each list gets a spare of its own kind,
    /// with about as many items to rewrite (a chain is shorter than a blame).
    blames: Vec<Vec<SystemdUnit>>,
    chains: Vec<Vec<SystemdUnit>>,
    marks: Vec<Vec<Mark>>,
    /// Warnings, errors and failed units, each of its own kind (see `blames`).
    warnings: Vec<Vec<String>>,
    errors: Vec<Vec<String>>,
    failed: Vec<Vec<String>>,
    /// Components maps, whole, with the [`keys_sig`] of their keys, roughly oldest first (see
    /// [`Builder::components_map`]).
    maps: Vec<(u64, BTreeMap<String, String>)>,
}

impl Bin {
    /// A vector bigger than this is freed rather than kept.
    const MAX_VEC_BYTES: usize = 256 << 10;
    /// At most this many bytes of spare vectors are kept.
    const VEC_BUDGET: usize = 4 << 20;
    /// At most this many components maps are kept (a log of many boards' boots has a few
    /// sets of components; the bench log 12).
    const MAX_MAPS: usize = 16;

    /// Takes a boot apart: its strings to the pool, its vectors (emptied) to the spares, but
    /// for the vectors of named items, kept whole for [`Slots`] to rewrite (see [`keep_whole`]).
    fn recycle(&mut self, mut boot: Boot) {
        self.clear_rare(&mut boot);
        let Boot {
            mut stages,
            components,
            sbl_profile,
            mut sbl_total_us,
            initcalls,
            mut marks,
            errors,
            warnings,
            ..
        } = boot;
        self.keep_map(components);
        let pool = &mut self.strings;
        let held = &mut self.held;
        stages.clear();
        keep(&mut self.stages, held, stages);
        keep_whole(&mut self.sbl_points, held, sbl_profile);
        sbl_total_us.clear();
        keep(&mut self.numbers, held, sbl_total_us);
        keep_whole(&mut self.initcalls, held, initcalls);
        clear_marks(&mut marks, pool);
        keep(&mut self.marks, held, marks);
        keep_whole(&mut self.errors, held, errors);
        keep_whole(&mut self.warnings, held, warnings);
    }

    /// Empties the parts of a boot that [`Builder::finish`] builds from the bin (not in place):
    /// their strings to the pool, their vectors to the spares. The rest is left as it is.
    fn clear_rare(&mut self, boot: &mut Boot) {
        if boot.bootstage.capacity() != 0 {
            let v = std::mem::take(&mut boot.bootstage);
            self.keep_records(v);
        }
        if boot.bootstage_accumulated.capacity() != 0 {
            let mut v = std::mem::take(&mut boot.bootstage_accumulated);
            v.drain(..).for_each(|a| self.strings.put(a.name));
            keep(&mut self.accumulated, &mut self.held, v);
        }
        if boot.bootstage_reports.capacity() != 0 {
            let mut v = std::mem::take(&mut boot.bootstage_reports);
            for r in v.drain(..) {
                self.keep_records(r);
            }
            keep(&mut self.reports, &mut self.held, v);
        }
        let pool = &mut self.strings;
        if let Some(k) = &mut boot.kernel {
            for s in [&mut k.version, &mut k.cmdline, &mut k.machine] {
                if let Some(s) = s.take() {
                    pool.put(s);
                }
            }
            boot.kernel = None;
        }
        if let Some(sd) = boot.systemd.take() {
            if let Some((unit, _)) = sd.target_reached {
                pool.put(unit);
            }
            let held = &mut self.held;
            keep_whole(&mut self.blames, held, sd.blame);
            keep_whole(&mut self.chains, held, sd.critical_chain);
            keep_whole(&mut self.failed, held, sd.failed);
        }
        if let Some(l) = boot.login_prompt.take() {
            pool.put(l);
        }
    }

    /// Keeps a boot's components map whole, its strings in it: a later boot with the same
    /// components rewrites its values (see [`Builder::components_map`]).
    fn keep_map(&mut self, components: BTreeMap<String, String>) {
        let sig = components
            .keys()
            .fold(0u64, |a, k| a.wrapping_add(key_sig(k)));
        self.keep_map_signed(sig, components);
    }

    /// [`Bin::keep_map`] told the map's [`key_sig`] sum (a hint: maps are told apart key by
    /// key when reused).
    fn keep_map_signed(&mut self, sig: u64, components: BTreeMap<String, String>) {
        if components.is_empty() {
            return;
        }
        if self.maps.len() == Bin::MAX_MAPS {
            self.strings.put_map(self.maps.remove(0).1);
        }
        self.maps.push((sig, components));
    }

    fn keep_records(&mut self, v: Vec<BootstageRecord>) {
        keep_whole(&mut self.records, &mut self.held, v);
    }
}

/// Cleared strings for reuse, by capacity: `classes[k]` holds strings of capacity at least
/// `MIN_CAP << k`, so any of them fits a text of up to that many bytes without growing.
#[derive(Default)]
struct StringPool {
    classes: [Vec<String>; STRING_CLASSES],
}

/// Capacity of the smallest class of pooled strings (smaller strings are freed).
const MIN_CAP: usize = 16;
/// Classes of pooled strings: capacities 16 to 4095 (longer strings are freed).
const STRING_CLASSES: usize = 8;

impl StringPool {
    /// Strings kept per class: 8192 of 16 bytes down to 64 of 2048. A class's strings are
    /// under twice its capacity each, so the pool holds under 2 MiB (half that in practice,
    /// as strings are made with their class's capacity, see [`StringPool::empty`]).
    const fn limit(class: usize) -> usize {
        8192 >> class
    }

    /// The class whose strings all fit a text of `len` bytes.
    #[inline]
    fn class_for(len: usize) -> usize {
        if len <= MIN_CAP {
            0
        } else {
            (usize::BITS - ((len - 1) / MIN_CAP).leading_zeros()) as usize
        }
    }

    /// An empty string with room for `len` bytes: a pooled one of the class that fits, else
    /// a new one with the class's capacity (not just `len`), so that once pooled it fits any
    /// text of its class: a class whose strings only fitted shorter texts would fill up
    /// with strings that no take can use.
    #[inline]
    fn empty(&mut self, len: usize) -> String {
        let k = Self::class_for(len);
        if k >= STRING_CLASSES {
            return String::with_capacity(len);
        }
        // A string of the class, or of the next (at most four times the room needed).
        if let Some(s) = self.classes[k].pop() {
            return s;
        }
        if let Some(s) = self.classes.get_mut(k + 1).and_then(Vec::pop) {
            return s;
        }
        String::with_capacity(MIN_CAP << k)
    }

    /// A string holding `text`, reusing a pooled one if one fits.
    #[inline]
    fn take(&mut self, text: &str) -> String {
        let mut s = self.empty(text.len());
        put_text(&mut s, text);
        s
    }

    /// A string holding formatted text (`format!` into a pooled string of room for `hint`).
    fn take_fmt(&mut self, hint: usize, args: std::fmt::Arguments<'_>) -> String {
        let mut s = self.empty(hint);
        // Writing to a String does not fail.
        let _ = s.write_fmt(args);
        s
    }

    /// Keeps the strings of a map for reuse (the map itself is freed).
    fn put_map(&mut self, m: BTreeMap<String, String>) {
        for (k, v) in m {
            self.put(k);
            self.put(v);
        }
    }

    /// Keeps a string (cleared) for reuse, unless it is tiny or huge or its class is full.
    #[inline]
    fn put(&mut self, mut s: String) {
        let cap = s.capacity();
        if cap < MIN_CAP {
            return;
        }
        let k = (usize::BITS - 1 - (cap / MIN_CAP).leading_zeros()) as usize;
        if k >= STRING_CLASSES || self.classes[k].len() >= Self::limit(k) {
            return;
        }
        s.clear();
        self.classes[k].push(s);
    }
}

/// Writes `line {n}: {msg}`, the form of most warnings and errors, without `format!`.
fn write_line(s: &mut String, n: u64, msg: &str) {
    s.push_str("line ");
    ascii::push_decimal(s, n);
    s.push_str(": ");
    s.push_str(msg);
}

/// Appends `v` as `{v:.6}` writes it. Host and printk times are the doubles nearest a
/// whole number of microseconds `k` ([`crate::json::nearest_micros`]): rounding such a value
/// to six places gives `k`, whose digits are the answer. Any other value goes through
/// `format!`.
fn push_fixed6(s: &mut String, v: f64) {
    // (-0.0 prints as `-0.000000`: left to `format!`.)
    if v.is_sign_positive() {
        if let Some(k) = crate::json::nearest_micros(v) {
            ascii::push_decimal(s, k / 1_000_000);
            s.push('.');
            let f = k % 1_000_000;
            let mut d = [b'0'; 6];
            let mut x = f;
            for c in d.iter_mut().rev() {
                *c = b'0' + (x % 10) as u8;
                x /= 10;
            }
            // SAFETY: `d` holds only the ASCII digits written above, which are UTF-8 (the
            // checked `from_utf8` cost about 90 instructions a call, three a warning).
            s.push_str(unsafe { std::str::from_utf8_unchecked(&d) });
            return;
        }
    }
    let _ = write!(s, "{v:.6}");
}

fn round6(v: f64) -> f64 {
    (v * 1e6).round() / 1e6
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Vec<Boot> {
        parse_bytes(s.as_bytes(), &BoardProfile::generic())
    }

    #[test]
    fn stages_on_the_host_clock() {
        let log = "[0.100000 0.100000] U-Boot SPL 2024.01 (x)\n[0.500000 0.400000] U-Boot 2024.01 (x)\n[2.000000 1.5] Starting kernel ...\n[2.500000 0.5] [    0.000000] Booting Linux on physical CPU 0x0\n[4.000000 1.5] [    1.400000] Run /init as init process\n[5.000000 1.0] qemu login: \n";
        let b = parse(log);
        assert_eq!(b.len(), 1);
        let b = &b[0];
        assert!(b.complete);
        let ids: Vec<_> = b.stages.iter().map(|s| s.id).collect();
        assert_eq!(
            ids,
            [
                StageId::ASpl,
                StageId::Uboot,
                StageId::Kernel,
                StageId::Userspace
            ]
        );
        let u = b.stage(StageId::Uboot).unwrap();
        assert_eq!(
            (u.start_s, u.end_s, u.duration_s),
            (Some(0.5), Some(2.0), Some(1.5))
        );
        assert_eq!(b.stage(StageId::Userspace).unwrap().duration_s, Some(1.0));
        assert_eq!(b.printk_offset_s, Some(2.5));
        assert_eq!(b.kernel.as_ref().unwrap().init_ts_s, Some(1.4));
    }

    /// After SBL's `Cores present` header, one-word lines are core names: counted as the
    /// boot's console output but read by no grammar (not even the ready test), until a line
    /// with a blank or a `[` ends the list.
    #[test]
    fn sbl_cores_list_lines_are_not_read() {
        let log = "[BOOTLOADER_PROFILE] Cores present    :\nlogin:\nr5f0-0\nU-Boot SPL 2024.01 (x)\nlogin:\n";
        let b = &parse(log)[0];
        assert_eq!(b.lines, (1, 5));
        assert_eq!(b.mark("ready").map(|m| m.line), Some(5));
        let ids: Vec<_> = b.stages.iter().map(|s| s.id).collect();
        assert_eq!(ids, [StageId::Sbl, StageId::ASpl]);
        // The header and both core names are the SBL stage's bytes (each text and CR LF).
        let header = "[BOOTLOADER_PROFILE] Cores present    :".len() as u64;
        assert_eq!(b.stages[0].console_bytes, Some(header + 2 + 8 + 8));
        // A printk-stamped line ends the list too.
        let log = "[BOOTLOADER_PROFILE] Cores present    :\n[    0.000000] Booting Linux\nlogin:\n";
        assert_eq!(parse(log)[0].mark("ready").map(|m| m.line), Some(3));
    }

    /// A profile's marker opens its stage (the first that matches), and only on a line that
    /// no grammar took.
    /// A profile's own ready pattern is tried on texts no grammar takes, whichever way the
    /// line came (the splitter's fast path, with or without blanks first, a line that is not
    /// plain, the last line without a break): `State::profile_hooks` keeps them off the fast
    /// paths that skip it.
    #[test]
    fn profile_ready_pattern_is_tried_on_every_path() {
        let mut profile = BoardProfile::generic();
        profile.ready = Some("^READY".into());
        let head = "U-Boot 2024.01 (x)\nStarting kernel ...\n[    0.000000] Booting Linux\n";
        for last in [
            "READY\n",
            "READY",
            "    READY now\n",
            "\tREADY\r\n",
            "\x1b[0mREADY\n",
            "READY:\n",
        ] {
            let log = format!("{head}{last}");
            let b = &parse_bytes(log.as_bytes(), &profile)[0];
            assert!(b.complete, "{last:?}");
            assert_eq!(
                b.login_prompt.as_deref().map(|p| p.starts_with("READY")),
                Some(true)
            );
            // Without the profile's pattern, no login prompt: not ready.
            assert!(!parse(&log)[0].complete, "{last:?}");
        }
    }

    #[test]
    fn profile_markers_open_their_stage() {
        let mut profile = BoardProfile::generic();
        profile.markers = vec![
            crate::board::Marker {
                stage: StageId::Sysfw,
                pattern: "^SYSFW up".into(),
            },
            crate::board::Marker {
                stage: StageId::Tfa,
                pattern: "up".into(),
            },
        ];
        let log = "U-Boot SPL 2024.01 (x)\nSYSFW up here\nwoke up\nU-Boot 2024.01 (x)\n";
        let b = &parse_bytes(log.as_bytes(), &profile)[0];
        let ids: Vec<_> = b.stages.iter().map(|s| (s.id, s.line)).collect();
        assert_eq!(
            ids,
            [
                (StageId::ASpl, Some(1)),
                (StageId::Sysfw, Some(2)),
                (StageId::Tfa, Some(3)),
                (StageId::Uboot, Some(4))
            ]
        );
        assert_eq!(b.mark("marker").map(|m| m.line), Some(2));
        // Without markers the same lines open nothing.
        let b = &parse(log)[0];
        assert!(b.stage(StageId::Sysfw).is_none() && b.stage(StageId::Tfa).is_none());
    }

    #[test]
    fn power_on_captures_report_the_pre_console_time_as_rom() {
        let log = "[0.000000 0.000000] \n[0.300000 0.300000] U-Boot 2024.01 (x)\n[1.000000 0.7] Starting kernel ...\n";
        let b = &parse_power_on_capture(log.as_bytes(), &BoardProfile::generic())[0];
        let rom = b.stage(StageId::Rom).unwrap();
        assert_eq!(
            (rom.start_s, rom.end_s, rom.duration_s, rom.line),
            (Some(0.0), Some(0.3), Some(0.3), None)
        );
        // Without the declaration the origin is unknown: no rom stage.
        assert!(parse(log).first().unwrap().stage(StageId::Rom).is_none());
    }

    #[test]
    fn banner_again_splits_boots() {
        let log = "U-Boot 2024.01 (x)\nStarting kernel ...\n[    0.0] Booting Linux\nx login:\nU-Boot 2024.01 (x)\nStarting kernel ...\n";
        let b = parse(log);
        assert_eq!(b.len(), 2);
        assert!(b[0].complete && !b[1].complete);
        assert_eq!(b[1].lines.0, 5);
    }

    #[test]
    fn printk_going_back_splits_boots() {
        let log = "[    0.000000] Booting Linux\n[    5.000000] late\n[    0.000000] Booting Linux\n[    0.100000] x\n";
        let b = parse(log);
        assert_eq!(b.len(), 2);
        assert_eq!(b[0].kernel.as_ref().unwrap().last_ts_s, Some(5.0));
        assert_eq!(b[1].kernel.as_ref().unwrap().last_ts_s, Some(0.1));
    }

    #[test]
    fn no_host_clock_means_absent_not_zero() {
        let b = &parse("U-Boot 2024.01 (x)\nStarting kernel ...\n")[0];
        let u = b.stage(StageId::Uboot).unwrap();
        assert_eq!(
            (u.start_s, u.duration_s, u.clock),
            (None, None, Clock::Target)
        );
    }

    #[test]
    fn streaming_gives_the_same_boots_as_whole_input() {
        let log = "U-Boot 2024.01 (x)\r\nStarting kernel ...\r\n[    0.0] Booting Linux\r\nx login:\r\nU-Boot 2024.01 (x)\r\n";
        let whole = parse(log);
        let mut p = Parser::new(&BoardProfile::generic());
        let mut got = Vec::new();
        for b in log.as_bytes().chunks(3) {
            p.feed(b);
            got.extend(p.take_boots());
        }
        got.extend(p.finish());
        assert_eq!(got, whole);
    }

    /// Every `.log` under `dir`, sorted.
    fn logs(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).expect("corpus dir").flatten() {
            let p = e.path();
            if p.is_dir() {
                logs(&p, out);
            } else if p.extension().is_some_and(|x| x == "log") {
                out.push(p);
            }
        }
        out.sort();
    }

    /// The texts of the corpus logs (`tests/corpus`, sorted by path), at least 11 of them.
    fn corpus_texts() -> Vec<Vec<u8>> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/corpus");
        let mut files = Vec::new();
        logs(&dir, &mut files);
        assert!(files.len() > 10, "corpus logs under {}", dir.display());
        files.iter().map(|f| std::fs::read(f).unwrap()).collect()
    }

    /// The texts given, each followed by a line break, as one log.
    fn joined<'a>(texts: impl IntoIterator<Item = &'a Vec<u8>>) -> Vec<u8> {
        let mut log = Vec::new();
        for t in texts {
            log.extend_from_slice(t);
            log.push(b'\n');
        }
        log
    }

    #[test]
    fn recycled_boots_leak_nothing_into_later_boots() {
        // The corpus logs, then again in reverse order and once more: each boot is built
        // from the vectors and strings of different boots before it.
        let texts = corpus_texts();
        let log = joined(texts.iter().chain(texts.iter().rev()).chain(&texts));
        let profile = BoardProfile::generic();
        let whole = parse_bytes(&log, &profile);
        assert!(whole.len() > 30, "{} boots", whole.len());
        // Boots handed back one by one as they come, or a few at a time (several spares).
        for (chunk, hold) in [(4096, 0), (64 << 10, 3), (1 << 20, 1000)] {
            let mut p = Parser::new(&profile);
            let mut got = 0;
            let mut held = Vec::new();
            for c in log.chunks(chunk) {
                p.feed(c);
                while let Some(b) = p.next_boot() {
                    assert_eq!(b, whole[got], "boot {got} (chunk {chunk}, hold {hold})");
                    got += 1;
                    held.push(b);
                    if held.len() > hold {
                        held.drain(..).for_each(|b| p.recycle(b));
                    }
                }
            }
            held.drain(..).for_each(|b| p.recycle(b));
            assert!(p.state.bin.strings.classes.iter().any(|c| !c.is_empty()));
            assert!(!p.state.bin.marks.is_empty());
            for b in p.finish() {
                assert_eq!(b, whole[got], "boot {got} (chunk {chunk}, hold {hold})");
                got += 1;
            }
            assert_eq!(got, whole.len());
        }
        // Boots lent in place and handed back as they come (the `perfguide parse` way).
        let mut p = Parser::new(&profile);
        let mut got = 0;
        for c in log.chunks(4096) {
            p.feed(c);
            while let Some(b) = p.next_boot_mut() {
                assert_eq!(*b, whole[got], "boot {got} (lent)");
                got += 1;
                p.recycle_front();
            }
        }
        // Lent boots stay in their slots, to be built in again: a few slots serve them all.
        let slots = p.state.done.boots.len();
        assert!((1..=8).contains(&slots), "{slots} slots");
        for b in p.finish() {
            assert_eq!(b, whole[got], "boot {got} (lent)");
            got += 1;
        }
        assert_eq!(got, whole.len());
    }

    /// The boots of `log` with every line handed to [`State::line`] (a closure as the sink,
    /// so the splitter's plain lines take `LineSink::plain_line`'s default: `line`), not to
    /// the fast path ([`State::plain_line`]) [`Parser::feed`] takes.
    fn parse_by_line(log: &[u8], chunk: usize) -> Vec<Boot> {
        let mut p = Parser::new(&BoardProfile::generic());
        for c in log.chunks(chunk.max(1)) {
            let Parser { splitter, state } = &mut p;
            splitter.feed(c, &mut |n, b, f| state.line(n, b, f));
        }
        p.finish()
    }

    /// The fast path of whole plain lines ([`State::plain_line`]: its first byte read with no
    /// length test, its lead after blanks found by a 16-byte compare) gives the corpus the
    /// boots [`State::line`] gives.
    #[test]
    fn lines_fast_path_is_line_text_on_the_corpus() {
        let log = joined(&corpus_texts());
        let profile = BoardProfile::generic();
        for chunk in [log.len(), 4096, 61] {
            let mut p = Parser::new(&profile);
            for c in log.chunks(chunk) {
                p.feed(c);
            }
            assert_eq!(p.finish(), parse_by_line(&log, chunk), "chunk {chunk}");
        }
    }

    proptest::proptest! {
        /// The fast path of whole plain lines ([`State::plain_line`]) gives the boots
        /// [`State::line`] gives, on lines of blanks (up to 16 and more, tabs among them),
        /// empty lines, words the records and grammars look at, and bytes that are not plain,
        /// however chunked (lines near a chunk's end have fewer than 16 bytes after them).
        #[test]
        fn lines_fast_path_is_line_text(
            lines in proptest::collection::vec((
                proptest::sample::select(vec!["", " ", "  ", "\t", " \t ", "        ", "               ", "                ", "                 ", "                                "]),
                proptest::collection::vec(proptest::sample::select(vec![
                    "", "x", " ", "\t", "U-Boot 2024.01 (x)", "Starting kernel ...", "[    0.000000] Booting Linux",
                    "[    1.5] Run /init", "login:", "x login: ", "-", "- x", "MESS:00:00:01.000000: x", "<6>x",
                    "0.001 x", "Mark", "[  OK  ] Started x.", "Welcome to x!", "\x1b[0m", "\u{e9}", "@",
                    "[2024-01-01 00:00:00.000] x", "autoboot", "NOTICE:  BL31: v2.8", "1",
                ]), 0..4),
                proptest::sample::select(vec!["\n", "\r\n", "\r", "\n\r"]),
            ), 0..40),
            chunk in 1usize..300,
        ) {
            let mut log = String::new();
            for (blanks, words, brk) in &lines {
                log.push_str(blanks);
                log.push_str(&words.concat());
                log.push_str(brk);
            }
            let mut p = Parser::new(&BoardProfile::generic());
            for c in log.as_bytes().chunks(chunk) {
                p.feed(c);
            }
            proptest::prop_assert_eq!(p.finish(), parse_by_line(log.as_bytes(), chunk));
        }
    }

    /// Boots lent in place, taken out and handed back, and taken out and kept, in turn: slots
    /// rebuilt in place, emptied by a take, and filled from the bin's spares all give the
    /// boots a whole parse gives.
    #[test]
    fn lent_taken_and_kept_boots_mix() {
        let texts = corpus_texts();
        let log = joined(texts.iter().chain(texts.iter().rev()));
        let profile = BoardProfile::generic();
        let whole = parse_bytes(&log, &profile);
        assert!(whole.len() > 30, "{} boots", whole.len());
        for chunk in [512, 4096, 64 << 10] {
            let mut p = Parser::new(&profile);
            let mut got = 0;
            let mut kept = Vec::new();
            for c in log.chunks(chunk) {
                p.feed(c);
                loop {
                    match got % 3 {
                        0 => {
                            let Some(b) = p.next_boot_mut() else { break };
                            assert_eq!(*b, whole[got], "boot {got} (chunk {chunk}, lent)");
                            // A lent boot changed by its borrower is still rebuilt right.
                            b.components.insert("borrower".into(), "was here".into());
                            b.marks.push(Mark {
                                kind: Cow::Owned("borrowed".into()),
                                line: 0,
                                host_s: None,
                                target_s: None,
                            });
                            p.recycle_front();
                        }
                        1 => {
                            let Some(b) = p.next_boot() else { break };
                            assert_eq!(b, whole[got], "boot {got} (chunk {chunk}, recycled)");
                            p.recycle(b);
                        }
                        _ => {
                            let Some(b) = p.next_boot() else { break };
                            assert_eq!(b, whole[got], "boot {got} (chunk {chunk}, kept)");
                            kept.push(b);
                        }
                    }
                    got += 1;
                }
            }
            for b in p.finish() {
                assert_eq!(b, whole[got], "boot {got} (chunk {chunk}, last)");
                got += 1;
            }
            assert_eq!(got, whole.len());
            assert!(kept.iter().all(|b| whole[b.index] == *b));
        }
    }

    #[test]
    fn recycled_slots_keep_no_stale_items_and_whole_texts() {
        // A boot of three initcalls and bootstage records with short names, then one of one
        // each with names longer than any recycled string, then the first again: built from
        // each other's recycled items, each is as parsed alone.
        let one = concat!(
            "U-Boot SPL 2021.01 (Jan 01 2021 - 00:00:00 +0000)\n",
            "U-Boot 2021.01 (Jan 01 2021 - 00:00:00 +0000)\n",
            "Timer summary in microseconds (3 records):\n",
            "       Mark    Elapsed  Stage\n",
            "          0          0  reset\n",
            "      1,000      1,000  board_init_f_with_a_long_enough_name\n",
            "      2,000      1,000  board_init_r\n",
            "Starting kernel ...\n",
            "[    0.000000] Booting Linux on physical CPU 0x0\n",
            "[    0.100000] initcall aaa+0x0/0x90 returned 0 after 5 usecs\n",
            "[    0.200000] initcall bbb+0x0/0x90 returned 0 after 6 usecs\n",
            "[    0.300000] initcall ccc+0x0/0x90 returned 0 after 7 usecs\n",
            "U-Boot SPL 2021.01 (Jan 01 2021 - 00:00:00 +0000)\n",
            "U-Boot 2021.01 (Jan 01 2021 - 00:00:00 +0000)\n",
            "Timer summary in microseconds (0 records):\n",
            "       Mark    Elapsed  Stage\n",
            "          0          0  a_reset_record_named_well_past_the_thirty_two_bytes_of_its_slot\n",
            "Starting kernel ...\n",
            "[    0.000000] Booting Linux on physical CPU 0x0\n",
            "[    0.100000] initcall an_initcall_named_well_past_the_sixteen_bytes_of_the_first+0x0/0x90 returned 0 after 5 usecs\n",
        );
        let log = one.repeat(3);
        let profile = BoardProfile::generic();
        let whole = parse_bytes(log.as_bytes(), &profile);
        assert_eq!(whole.len(), 6);
        let mut p = Parser::new(&profile);
        let mut got = Vec::new();
        for l in log.split_inclusive('\n') {
            p.feed(l.as_bytes());
            while let Some(b) = p.next_boot() {
                got.push(b.clone());
                p.recycle(b);
            }
        }
        got.extend(p.finish());
        assert_eq!(got, whole);
        let short = &got[3];
        assert_eq!(short.initcalls.len(), 1);
        assert_eq!(
            short.initcalls[0].name,
            "an_initcall_named_well_past_the_sixteen_bytes_of_the_first"
        );
        let long_record = "a_reset_record_named_well_past_the_thirty_two_bytes_of_its_slot";
        assert_eq!(short.bootstage.len(), 1);
        assert_eq!(short.bootstage[0].name, long_record);
        assert_eq!(short.bootstage_reports.len(), 1);
        // The warnings written in the builder's slots reach the boot.
        let w = "bootstage report announced 0 records but 1 were read";
        assert!(
            short.warnings.iter().any(|x| x == w),
            "{:?}",
            short.warnings
        );
        assert_eq!(short.bootstage_reports[0], short.bootstage);
        let names: Vec<&str> = got[4].initcalls.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["aaa", "bbb", "ccc"]);
        assert_eq!(got[4].bootstage.len(), 3);
    }

    #[test]
    fn slots_rewrite_in_place_and_cut_the_rest() {
        let mut pool = StringPool::default();
        let unit = |name: String| SystemdUnit {
            name,
            duration_s: Some(1.0),
            at_s: None,
        };
        let mut s = Slots::default();
        for t in ["a", "b", "c"] {
            s.push(t, &mut pool, unit);
        }
        let v = s.hand_out(&mut Vec::new(), &mut 0, &mut pool);
        assert_eq!(v.len(), 3);
        // The spare (with its items) takes the slots' place; fewer and longer items follow.
        let mut s = Slots { v, len: 0 };
        let long = "x".repeat(100);
        s.push(&long, &mut pool, unit);
        assert_eq!(s.v.len(), 3);
        let v = s.hand_out(&mut Vec::new(), &mut 0, &mut pool);
        assert_eq!(v, [unit(long)]);
        // A boot with none hands out nothing and keeps the slots.
        assert!(s.hand_out(&mut Vec::new(), &mut 0, &mut pool).is_empty());
    }

    proptest::proptest! {
        /// [`Slots::push_initcall`] leaves the slots (and the pool) as [`Slots::push`] does,
        /// over boots of initcalls handed out and rewritten in place.
        #[test]
        fn push_initcall_is_push(boots in proptest::collection::vec(proptest::collection::vec(
            (proptest::sample::select(vec!["", "a", "pci_init", "initcall_name_longer_than_the_smallest_class_of_strings"]),
             proptest::num::u64::ANY, proptest::num::i64::ANY, proptest::option::of(proptest::num::f64::NORMAL)),
            0..6), 0..5)) {
            let (mut pa, mut pb) = (StringPool::default(), StringPool::default());
            let (mut a, mut b) = (Slots::default(), Slots::<Initcall>::default());
            for calls in &boots {
                for &(name, duration_us, ret, ts_s) in calls {
                    a.push(name, &mut pa, |name| Initcall { name, duration_us, ret, ts_s });
                    b.push_initcall(name, &mut pb, duration_us, ret, ts_s);
                }
                proptest::prop_assert_eq!(a.len, b.len);
                proptest::prop_assert_eq!(&a.v[..a.len], &b.v[..b.len]);
                let va = a.hand_out(&mut Vec::new(), &mut 0, &mut pa);
                let vb = b.hand_out(&mut Vec::new(), &mut 0, &mut pb);
                proptest::prop_assert_eq!(&va, &vb);
                a = Slots { v: va, len: 0 };
                b = Slots { v: vb, len: 0 };
            }
            let caps = |p: &StringPool| -> Vec<Vec<usize>> {
                p.classes.iter().map(|c| c.iter().map(String::capacity).collect()).collect()
            };
            proptest::prop_assert_eq!(caps(&pa), caps(&pb));
        }
    }

    /// [`strip_prefixes_slow`] as it was before its shortcut: every stripper in turn.
    fn strip_prefixes_reference(lead: &str) -> (Option<f64>, &str) {
        let (fw, text) = match hoststamp::strip_rpi(lead) {
            Some((fw, rest)) => (Some(fw), rest),
            None => (None, lead),
        };
        let t = strip_junk(ascii::trim_start(hoststamp::strip_syslog(
            ascii::trim_start(text),
        )));
        (fw, t)
    }

    proptest::proptest! {
        /// The columns line is told as [`uboot::line`] alone tells it.
        #[test]
        fn columns_line_needs_no_hints(parts in proptest::collection::vec(proptest::sample::select(vec![
            "Mark", "Elapsed", "Stage", " ", "\t", "Marks", "Hit any key to stop autoboot", "autoboot",
            "Press SPACE to abort autoboot", "H", "P", "x", "Accumulated time:", "U-Boot 2024.01",
        ]), 0..7)) {
            let t = parts.concat();
            let want = matches!(uboot::line(&t), Some(uboot::UbootLine::BootstageColumns));
            proptest::prop_assert_eq!(is_columns_line(&t), want);
        }
    }

    /// [`is_default_ready_tail`] as it was first written: the reference for its fast twin.
    fn is_default_ready_tail_ref(t: &str) -> bool {
        let t = ascii::trim_end(t);
        let n = t.len();
        if n < 6 || !t.is_char_boundary(n - 6) || !t[n - 6..].eq_ignore_ascii_case("login:") {
            return false;
        }
        // `\b` before `login`.
        n == 6 || !t.as_bytes()[n - 7].is_ascii_alphanumeric() && t.as_bytes()[n - 7] != b'_'
    }

    proptest::proptest! {
        /// [`is_default_ready_tail`] agrees with its reference on texts glued from the prompt,
        /// its near misses (case, bit-5 twins of its bytes), word bytes and blanks, ending in
        /// `:` or a blank as its caller makes sure.
        #[test]
        fn default_ready_tail_is_the_reference(parts in proptest::collection::vec(proptest::sample::select(vec![
            "login:", "LOGIN:", "LoGiN:", "login", "ogin:", "l", "L", "o", "g", "i", "n", ":",
            "\x0c", "\x1a", "\x0e", ",", "N", "\u{e9}", "\u{2003}", "_", "x", "7", "-", " ",
            "   ", "        ", "\t", "\r", "\x0b", "login: ", "lOgin:\t ",
        ]), 0..8), last in proptest::sample::select(vec![":", " ", "\t", "\r", "\n", "\x0c"])) {
            let t = parts.concat() + last;
            proptest::prop_assert_eq!(is_default_ready_tail(&t), is_default_ready_tail_ref(&t), "{:?}", t);
        }
    }

    proptest::proptest! {
        /// [`may_end_login`] turns away no login prompt: every text the reference takes for
        /// one passes it (texts glued from the prompt, its near misses and blanks, ending
        /// in anything).
        #[test]
        fn may_end_login_is_needed_by_login(parts in proptest::collection::vec(proptest::sample::select(vec![
            "login:", "LOGIN:", "login", "ogin:", "n", ":", "x", "_", "-", " ", "   ", "\t",
            "\r", "\x0b", "\x0c", "\u{2003}", "\u{e9}", "login: ", "login:\t ", "login :",
        ]), 0..8)) {
            let t = parts.concat();
            // The reference, and the test `record_ungrammatical` made before.
            let before = may_be_default_ready(t.as_bytes()) && is_default_ready_tail(&t);
            if is_default_ready_tail_ref(&t) || before {
                proptest::prop_assert!(may_end_login(t.as_bytes()), "{:?}", t);
            }
            // What `record_ungrammatical` asks `login_tail` about ends as its callers make sure.
            if may_end_login(t.as_bytes()) {
                proptest::prop_assert!(may_be_default_ready(t.as_bytes()), "{:?}", t);
            }
        }
    }

    proptest::proptest! {
        /// A text systemd's grammar reads as a blame row is never a login prompt, as
        /// `State::classify` tells its caller (which then skips the default ready test): rows
        /// ending in units (or in `login:`-like words, which are no units) and all sorts of
        /// blanks, Unicode ones included, whatever the hints.
        #[test]
        fn blame_rows_are_no_login_prompt(
            span in proptest::sample::select(vec!["16ms", "1.823s", "1min 2.5s", "7", "3us"]),
            sep in proptest::sample::select(vec![" ", "  ", "\t", "\u{a0}"]),
            unit in proptest::sample::select(vec![
                "a.service", "login:.service", "x.target", "login:", "b login:", "y.mount",
                "z.timer", "p.path", "s.swap", "d.device", "\u{e9}.slice",
            ]),
            end in proptest::collection::vec(proptest::sample::select(vec![
                " ", "\t", "\r", "\x0b", "\x0c", "\u{a0}", "\u{2003}", ":", "login:",
            ]), 0..4),
            hints in proptest::sample::select(vec![0u8, needles::ALL]),
        ) {
            // (Padded rows are read as blame rows: the test is not vacuous.)
            let padded = systemd::line_hinted("16ms a.service   ", hints);
            proptest::prop_assert!(matches!(padded, Some(systemd::SystemdLine::Blame(..))));
            let t = format!("{span}{sep}{unit}{}", end.concat());
            if let Some(systemd::SystemdLine::Blame(..)) = systemd::line_hinted(&t, hints) {
                proptest::prop_assert!(!is_default_ready(&t), "{:?}", t);
            }
        }
    }

    proptest::proptest! {
        /// The shortcut of [`State::bracket_line`]: a `[` followed by neither a digit nor a
        /// blank carries no host stamp, so it goes to `record_text` as `layered` would take it.
        #[test]
        fn bracket_without_digit_or_blank_has_no_host_layer(
            blanks in proptest::sample::select(vec!["", " ", "\t ", "   "]),
            second in proptest::sample::select(vec!["K", "B", "]", "[", "-", "+", ".", "\u{e9}", "x", "", "\x0b"]),
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "1", "12.5", ".", "0.000123", " ", "] ", "2026-11-30 13:00:00.123", "KPI", "]", "[", ":",
                " 1.000000]", "OK",
            ]), 0..6),
        ) {
            let lead = format!("[{second}{}", parts.concat());
            let text = format!("{blanks}{lead}");
            let skips = !matches!(lead.as_bytes().get(1), Some(b'0'..=b'9' | b' ' | b'\t'..=b'\r'));
            proptest::prop_assume!(skips);
            // No printk stamp either: `record_unstamped` may take it.
            proptest::prop_assert!(linux::stamp_len(lead.as_bytes()).is_none());
            proptest::prop_assert!(matches!(hoststamp::bracket(&text, &lead), Layer::None(t) if ascii::trim_start(t) == lead));
        }
    }

    /// The boots of `lines` fed to a parser's state one by one: each line's hints set by
    /// `hints`, then the line handed to `feed` (state, line number, text, text after blanks).
    fn boots_fed(
        lines: &[String],
        hints: impl Fn(&str) -> u8,
        feed: impl Fn(&mut State, u64, &str, &str),
    ) -> Vec<Boot> {
        let mut p = Parser::new(&BoardProfile::generic());
        for (i, l) in lines.iter().enumerate() {
            p.state.hints = hints(l);
            feed(&mut p.state, i as u64 + 1, l, ascii::trim_start(l));
        }
        p.finish()
    }

    /// The boots of `lines` fed to a parser's state one by one (every hint set), each
    /// `[`-line by [`State::bracket_line`] (`fast`) or by [`State::bracket_other`] alone,
    /// which is what `bracket_line` was before its printk paths (`plain`, `marker_printk`).
    fn boots_by_bracket_path(lines: &[String], fast: bool) -> Vec<Boot> {
        boots_fed(
            lines,
            |_| needles::ALL,
            |s, n, l, lead| match lead.as_bytes().first() {
                Some(b'[') if fast => s.bracket_line(n, l, lead),
                Some(b'[') => s.bracket_other(n, l, lead),
                _ => s.line_text(n, l),
            },
        )
    }

    proptest::proptest! {
        /// [`State::bracket_line`]'s printk paths (the usual line, the marker line) record
        /// what [`State::bracket_other`] records, on logs glued from printk lines (stamps in
        /// and out of the fixed layout, times going back, caller ids, markers, ready
        /// prompts, trailing blanks) and the lines that open stages and reports around them.
        #[test]
        fn printk_paths_are_bracket_other(
            lines in proptest::collection::vec((
                proptest::sample::select(vec![
                    "[    0.000000]", "[    1.000100]", "[    2.500000]", "[    2.500999]",
                    "[    2.498000]", "[12345.000001]", "[    1.5]", "[   10.000000]", "",
                    "[0.100000 0.100000]", " [    3.000000]",
                ]),
                proptest::sample::select(vec![" ", "", "  ", "[    T1] ", "\t"]),
                proptest::sample::select(vec![
                    "usb 1-1: new device", "calling  pci_init+0x0/0x90 @ 1",
                    "initcall pci_init+0x0/0x90 returned 0 after 61 usecs",
                    "initcall f returned -19 after 0 usecs", "calling", "in", "ca", "c", "",
                    "systemd[1]: Started x.service", "systemd", "sy", "Booting Linux on physical CPU 0x0",
                    "Linux version 6.1.0 (x)", "Run /init as init process", "Freeing unused kernel memory: 1K",
                    "Kernel panic - not syncing: x", "Machine model: X", "Kernel command line: a=b",
                    "qemu login:", "x login: ", "U-Boot 2024.01 (x)", "Starting kernel ...",
                    "Mark    Elapsed  Stage", "  0  0  reset", "Accumulated time:", "[  OK  ] Started x",
                    "NOTICE:  BL31: v2.10.0", "x:", "x \t",
                ]),
            ), 0..24),
        ) {
            let lines: Vec<String> = lines.iter().map(|(a, b, c)| format!("{a}{b}{c}")).collect();
            proptest::prop_assert_eq!(
                boots_by_bracket_path(&lines, true),
                boots_by_bracket_path(&lines, false),
                "{:?}", lines
            );
        }
    }

    proptest::proptest! {
        /// [`State::digit_bracket_line`]'s shortcuts (grabserial's and the wall clocks' usual
        /// layouts, `State::host_line`, `[0]crclist` rows) record what the general path,
        /// [`State::layered_line`] (`hoststamp::strip`, then `layered`), records, on logs
        /// glued from host stamps (in and out of the usual layouts, times going back),
        /// printk stamps and texts with glued records, prefixes, blanks and grammar words.
        #[test]
        fn digit_bracket_paths_are_layered(
            lines in proptest::collection::vec((
                proptest::sample::select(vec![
                    "[0.216735 0.208341]", "[1.000100 0.000001]", "[12.500000 0.100000]",
                    "[2.400000 0.000001]", "[1234567.000001 1.000000]", "[0.5 0.1]",
                    "[ 3.000000 0.000001]", "[2024-03-29 11:52:40.318]", "[2024-03-29 11:52:39.9]",
                    "[2024-03-29T11:52:41.318 0.5]", "[12:00:01.500000]", "[0]crclist : 0x1",
                    "[    1.000000]", "[5.000000]", "[9.000000 0.000001", "",
                ]),
                proptest::sample::select(vec![" ", "", "  ", "\t", " \r"]),
                proptest::sample::select(vec![
                    "U-Boot SPL 2017.09", "Trying to boot from MMC1[0.262093 0.038996] Expected",
                    "x[0.300000 0.000001]", "a [b] c", "[    0.500000] Booting Linux on physical CPU 0x0",
                    "MESS:00:00:05.163105:0: brfs: File read: 1 bytes", "<6>[    1.000000] x",
                    "\\x1f\u{fffd}U-Boot 2024.01 (x)", "Starting kernel ...", "x login:", "",
                    "123456.789: boot mode", "NOTICE:  BL31: v2.10.0", "Hit any key to stop autoboot",
                    "Mark    Elapsed  Stage", "  0  0  reset", "Accumulated time:", "\u{e9}t\u{e9}",
                ]),
            ), 0..24),
        ) {
            let lines: Vec<String> = lines.iter().map(|(a, b, c)| format!("{a}{b}{c}")).collect();
            let by = |fast: bool| boots_fed(&lines, |_| needles::ALL, |s, n, l, lead| {
                match lead.as_bytes() {
                    [b'[', b'0'..=b'9', ..] if fast => s.digit_bracket_line(n, lead),
                    [b'[', b'0'..=b'9', ..] => s.layered_line(n, l),
                    _ => s.line_text(n, l),
                }
            });
            proptest::prop_assert_eq!(by(true), by(false), "{:?}", lines);
        }
    }

    proptest::proptest! {
        /// [`bracketed_number`]'s texts carry no stamp of either kind: no printk stamp, no
        /// host layer (and it tells them exactly).
        #[test]
        fn bracketed_number_is_no_stamp(
            blanks in "[ \t]{0,3}",
            digits in "[0-9]{0,4}",
            close in proptest::sample::select(vec!["]", "", ".", " ", "-", ":"]),
            tail in "[0-9 .:\\-\\]x]{0,24}",
        ) {
            let t = format!("[{blanks}{digits}{close}{tail}");
            // `[`, spaces, digits, `]`, by `str`'s own searches.
            let r = t[1..].trim_start_matches(' ');
            let nd = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
            let want = nd > 0 && r[nd..].starts_with(']');
            proptest::prop_assert_eq!(bracketed_number(t.as_bytes()), want, "{:?}", t);
            if want {
                proptest::prop_assert_eq!(linux::stamp_len(t.as_bytes()), None);
                proptest::prop_assert!(matches!(hoststamp::bracket(&t, &t), Layer::None(x) if x == t));
                proptest::prop_assert!(matches!(hoststamp::strip(&t), Layer::None(x) if x == t));
            }
        }
    }

    proptest::proptest! {
        /// [`State::prefixed_line`]'s paths (the number-line gate, `stripped_line` and its
        /// `MESS:` shortcut) record what the general path, `layered` of no layer (every
        /// stripper, then `record_text`), records, on logs glued from firmware stamps (in and
        /// out of the usual layout), numbers, syslog levels, line noise, printk stamps and the
        /// texts after them.
        #[test]
        fn prefixed_paths_are_layered(
            lines in proptest::collection::vec((
                proptest::sample::select(vec![
                    "MESS:00:00:05.163105:0:", "MESS:00:00:05.163105:12:", "MESS:00:00:05.16310:0:",
                    "MESS:00:00:04.000001:0:", "123456.789:", "<6>", "\\x1f", "\u{fffd}", "12", "",
                    "Mark", "MESS", " ",
                ]),
                proptest::sample::select(vec![" ", "", "  ", "\t", " \r"]),
                proptest::sample::select(vec![
                    "brfs: File read: 1 bytes", "[    0.500000] Booting Linux on physical CPU 0x0",
                    "<6>[    1.000000] x", "\\x1fU-Boot 2024.01 (x)", "Starting kernel ...", "",
                    "x login:", "  0  0  reset", "Mark    Elapsed  Stage", "Accumulated time:",
                    "[0.100000 0.000001] x", "123456.789: boot mode", "\u{e9}t\u{e9}", "1.5 s",
                    "U-Boot SPL 2017.09", "Hit any key to stop autoboot",
                    "RPi: BOOTLOADER release VERSION:8ba17717 DATE: 2023/01/11",
                    "Starting start4.elf @ 0xfec00200 partition 0", "Firmware: 82f3750a Mar 17 2023",
                    "Loaded 'kernel8.img' to 0x80000 size 0x7d6bd0", "Booting Linux on physical CPU 0x0",
                ]),
            ), 0..24),
        ) {
            let lines: Vec<String> = lines.iter().map(|(a, b, c)| format!("{a}{b}{c}")).collect();
            let by = |fast: bool| boots_fed(&lines, |_| needles::ALL, |s, n, l, lead| {
                match lead.as_bytes().first() {
                    Some(&c) if PREFIX_START[usize::from(c)] && !fast => s.layered(n, Layer::None(l)),
                    _ => s.line_text(n, l),
                }
            });
            proptest::prop_assert_eq!(by(true), by(false), "{:?}", lines);
        }
    }

    /// The boots of `lines` fed to a parser's state one by one, each line's hints its words
    /// (see [`needles`]), each `[  OK  ]` text by [`State::record_ok`] (`fast`) or by
    /// [`State::record_unstamped`], the general path it stands for.
    fn boots_by_ok_path(lines: &[String], fast: bool) -> Vec<Boot> {
        let words = [
            ("autoboot", needles::AUTOBOOT),
            ("oard", needles::OARD),
            (" reached after ", needles::REACHED),
            ("@", needles::AT),
        ];
        let hints = |l: &str| {
            words
                .iter()
                .filter(|(w, _)| l.contains(w))
                .fold(0, |h, (_, bit)| h | bit)
        };
        boots_fed(lines, hints, |s, n, l, lead| {
            if !lead.starts_with("[  OK  ]") {
                s.line_text(n, l);
            } else if fast {
                s.record_ok(n, lead);
            } else {
                s.record_unstamped(n, None, None, lead);
            }
        })
    }

    proptest::proptest! {
        /// [`State::record_ok`] records what the general path does with a `[  OK  ]` line, on
        /// logs glued from such lines (with the words that let U-Boot's and SYSFW's grammars
        /// try them, login prompts) and the lines that open stages, reports and user space.
        #[test]
        fn ok_path_is_record_unstamped(
            lines in proptest::collection::vec((
                proptest::sample::select(vec!["[  OK  ] ", "", " [  OK  ] "]),
                proptest::sample::select(vec![
                    "Started x.service.", "Reached target board config.", "autoboot in 3", "",
                    "x login:", "Stop autoboot: ", "Found device /dev/ttyS0.", "@ 1", "x ",
                    "[    1.000000] Booting Linux on physical CPU 0x0", "U-Boot 2024.01 (x)",
                    "Starting kernel ...", "Timer summary in microseconds (2 records):",
                    "       Mark    Elapsed  Stage", "         0          0  reset",
                    "Accumulated time:", "SYSFW ABI: 3.1 (firmware version 0x0008)",
                    "[    2.000000] Run /init as init process", "Welcome to Debian!",
                    "qemu login: ",
                ]),
            ), 0..24),
        ) {
            let lines: Vec<String> = lines.iter().map(|(a, b)| format!("{a}{b}")).collect();
            proptest::prop_assert_eq!(
                boots_by_ok_path(&lines, true),
                boots_by_ok_path(&lines, false),
                "{:?}", lines
            );
        }
    }

    /// The boots of texts with no printk stamp (each with its firmware stamp, if any) fed to
    /// a parser's state one by one, each line's hints its words (see [`needles`]), by
    /// [`State::record_unstamped`] (`fast`: its pair and word gates) or by
    /// [`State::bootstage_row`] and [`State::record_unstamped_classified`], the grammar path
    /// they stand in front of.
    fn boots_by_unstamped_path(lines: &[(Option<f64>, String)], fast: bool) -> Vec<Boot> {
        let words = [
            ("autoboot", needles::AUTOBOOT),
            ("oard", needles::OARD),
            (" reached after ", needles::REACHED),
            ("@", needles::AT),
        ];
        let mut p = Parser::new(&BoardProfile::generic());
        for (i, (fw, l)) in lines.iter().enumerate() {
            p.state.hints = words
                .iter()
                .filter(|(w, _)| l.contains(w))
                .fold(0, |h, (_, bit)| h | bit);
            let n = i as u64 + 1;
            if fast {
                p.state.record_unstamped(n, None, *fw, l);
            } else {
                // The grammar path as it was: a report's rows first (a text that is none
                // closes it), then the grammars.
                let s = &mut p.state;
                if !l.is_empty() && s.cur.bootstage.is_some() && s.bootstage_row(n, l) {
                    continue;
                }
                s.record_unstamped_classified(n, None, *fw, l);
            }
        }
        p.finish()
    }

    proptest::proptest! {
        /// [`State::record_unstamped`]'s gates (the first two bytes, then the grammars' words)
        /// record what the grammar path does, on logs glued from the lines no grammar takes
        /// (`Starting foo.service` before and after the kernel, `Boot HART`, `SYSFW revision`,
        /// `2nd stage bootloader` anywhere), the lines that open stages, reports and user
        /// space, near misses of the words, login prompts and empty texts, some with a
        /// firmware stamp.
        #[test]
        fn unstamped_gates_are_the_grammar_path(
            lines in proptest::collection::vec((
                proptest::option::of(proptest::sample::select(vec![0.5f64, 1.25, 3.0])),
                proptest::sample::select(vec![
                    "Starting foo.service...", "Starting kernel ...", "Starting ATF",
                    "Starting linux and RTOS", "Starting start4.elf @ 0x1 partition 0",
                    "Starting  start4.elf", "Starting", "Starting x and 2nd stage bootloader",
                    "Some 2nd stage bootloader", "Startup finished in 1.0s (kernel) + 2.0s (userspace) = 3.0s",
                    "Boot HART ISA Extensions  : none", "Booting Linux on physical CPU 0x0",
                    "Booting using the fdt", "SYSFW revision 0x9", "SYSFW ABI: 3.1 (firmware rev 0x9 '9.0')",
                    "SBL Revision: 01.00", "SPL initial stack usage", "U-Boot SPL 2024.01 (x)",
                    "U-Boot 2024.01 (x)", "Timer summary in microseconds (2 records):",
                    "       Mark    Elapsed  Stage", "         0          0  reset",
                    "Accumulated time:", "*** Warning - bad CRC", "** fxn:x line:1 cycle:2 timestamp:3us",
                    "[  5]   0.00-1.00 sec", "[  OK  ] Started x.service.", "[KPI] x : 12us",
                    "root@board:~# ", "x login: ", "board login:", "Welcome to Debian!",
                    "init started: BusyBox v1", "INIT: version 2.88", "initcall f+0x0/0x1 returned 0 after 5 usecs",
                    "Linux version 6.1.0 (x)", "Run /init as init process", "NOTICE:  BL31: v2.8",
                    "WARNING: Cache x", "I/TC: OP-TEE version: 3.19", "I/TC: Primary CPU switching to normal world boot",
                    "OpenSBI v1.2", "Firmware: 2021-11-22", "RPi: BOOTLOADER release VERSION:1 DATE: 2",
                    "Loaded 'kernel8.img' to 0x80000", "Loaded environment", "systemd[1]: Started x",
                    "systemd-analyze blame", "1.234s a.service", "1.234 x", "7", "Board Configuration done",
                    "Hit any key to stop autoboot:  0", "a.service @1.2s +3ms", "a.target reached after 1.5s",
                    "", "x", "S", "St",
                ]),
            ), 0..32),
        ) {
            let lines: Vec<(Option<f64>, String)> =
                lines.into_iter().map(|(fw, l)| (fw, l.to_string())).collect();
            proptest::prop_assert_eq!(
                boots_by_unstamped_path(&lines, true),
                boots_by_unstamped_path(&lines, false),
                "{:?}", lines
            );
        }
    }

    proptest::proptest! {
        /// The `[  OK  ]` shortcut of [`State::bracket_line`]: such a text has no printk
        /// stamp and no host layer, whatever follows.
        #[test]
        fn ok_status_has_no_stamp(
            blanks in proptest::sample::select(vec!["", " ", "\t "]),
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "1", "12.5", ".", "0.000123]", " ", "] ", "2026-11-30 13:00:00.123]", "OK", "]", "[",
                ":", " 1.000000]", "  ", "Started x.service", "\u{e9}",
            ]), 0..6),
        ) {
            let lead = format!("[  OK  ]{}", parts.concat());
            let text = format!("{blanks}{lead}");
            proptest::prop_assert!(linux::stamp_len(lead.as_bytes()).is_none());
            proptest::prop_assert!(matches!(hoststamp::bracket(&text, &lead), Layer::None(t) if t == text));
        }
    }

    proptest::proptest! {
        /// What [`State::bracket_line`] relies on to skip `layered`: a `[`-line without a
        /// host layer comes back whole, so `record_plain` would take `lead` itself.
        #[test]
        fn bracket_without_layer_gives_the_text_back(
            blanks in proptest::sample::select(vec!["", " ", "\t "]),
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "1", "12.5", ".", "0.000123", " ", "] ", "2026-11-30 13:00:00.123", "OK", "]", "[",
                ":", " 1.000000]", "  ", "-", "\u{e9}",
            ]), 0..7),
        ) {
            let lead = format!("[{}", parts.concat());
            let text = format!("{blanks}{lead}");
            if let Layer::None(t) = hoststamp::bracket(&text, &lead) {
                proptest::prop_assert_eq!(t, text.as_str());
                proptest::prop_assert_eq!(ascii::trim_start(t), lead.as_str());
            }
        }
    }

    proptest::proptest! {
        /// What [`State::digit_bracket_line`] relies on to read the host stamp first: no
        /// `[`-text with a digit after its `[` has both a host stamp and a printk stamp.
        #[test]
        fn host_and_printk_stamps_exclude(
            blanks in proptest::sample::select(vec!["", " ", "\t "]),
            first in proptest::sample::select(vec!["0", "1", "12", "12345", "2024", "9"]),
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "1", "12.5", ".", "0.000123", ".000460", " ", "\t", "] ", "]", "[", ":", "-",
                " 1.000000]", " 0.000460]", "0.217195", "-03-29 11:52:40.318]", ":00:01.500000]",
                "  ", "x", "\u{e9}",
            ]), 0..8),
        ) {
            let lead = format!("[{first}{}", parts.concat());
            let text = format!("{blanks}{lead}");
            let host = !matches!(hoststamp::bracket(&text, &lead), Layer::None(_));
            let printk = linux::stamp_len(lead.as_bytes()).is_some();
            proptest::prop_assert!(!(host && printk), "{:?}", lead);
        }
    }

    #[test]
    fn host_and_printk_stamp_cases() {
        for lead in [
            "[0.217195 0.000460] U-Boot",
            "[2024-03-29 11:52:40.318] x",
            "[12:00:01.500000] x",
        ] {
            assert!(
                !matches!(hoststamp::bracket(lead, lead), Layer::None(_)),
                "{lead}"
            );
            assert!(linux::stamp_len(lead.as_bytes()).is_none(), "{lead}");
        }
        for lead in ["[0.217195] x", "[12345.000001] x", "[1.5]"] {
            assert!(
                matches!(hoststamp::bracket(lead, lead), Layer::None(_)),
                "{lead}"
            );
            assert!(linux::stamp_len(lead.as_bytes()).is_some(), "{lead}");
        }
    }

    #[test]
    fn default_ready_tail_cases() {
        for (t, want) in [
            ("login:", true),
            ("am62xx-evm login: ", true),
            ("x LOGIN:\t  \r", true),
            ("xlogin:", false),
            ("_login: ", false),
            ("-login:", true),
            ("\u{e9}login:", true),
            ("login; ", false),
            ("l\x0cgin:", false),
            ("ogin:", false),
            (" : ", false),
        ] {
            assert_eq!(is_default_ready_tail(t), want, "{t:?}");
            assert_eq!(is_default_ready_tail_ref(t), want, "{t:?}");
        }
    }

    proptest::proptest! {
        /// The shortcut of [`strip_prefixes_slow`] gives what every stripper in turn gives, on
        /// texts glued from prefixes, their near misses and blanks (starting with no blank).
        #[test]
        fn strip_prefixes_is_every_stripper(parts in proptest::collection::vec(proptest::sample::select(vec![
            "MESS:00:00:05.163105:0: ", "MESS:00:00:05:0:", "MESS:", "M", "Mark", "123456.789: ",
            "MESS:00:00:05.163105:0:", "MESS:00:00:05.163105:12:", "MESS:00:00:05.16310:0: ",
            "MESS:00:00:05.163105;0: ", "[    0.000000] ", "\r", "\x0c", "\x0b",
            "123456.789:", "12345.6789: ", "1", "<6>", "<", "<12345>", ">", "\\x1f", "\\xg1", "\\x",
            "\u{fffd}", "\u{e9}", "\u{20ac}", " ", "\t", "x", "U-Boot", "0x80", "MESS", "MES:",
            "Mxxxxx.xxx: ", "<23456.789: ", "a23456.789: ", "12345a.789: ", "123456.78a: ",
            "123456.789:x", "\u{fffd}123456.789: ",
        ]), 0..6)) {
            let text = parts.concat();
            let lead = ascii::trim_start(&text);
            if let Some((fw, t)) = strip_mess_usual(lead) {
                proptest::prop_assert_eq!((Some(fw), t), strip_prefixes_reference(lead));
            }
            proptest::prop_assert_eq!(strip_prefixes(lead), strip_prefixes_reference(lead));
            proptest::prop_assert_eq!(strip_prefixes_slow(lead), strip_prefixes_reference(lead));
        }
    }

    proptest::proptest! {
        /// The hand-written `{:.6}` and `{}` give `format!`'s bytes, on whole microseconds
        /// (the fast path), on their neighbours and on any double (the fallback).
        #[test]
        fn fixed6_is_format(k in 0u64..20_000_000_000_000_000, bits in proptest::prelude::any::<u64>(), n in proptest::prelude::any::<u64>()) {
            let near = k as f64 / 1e6;
            for v in [near, f64::from_bits(near.to_bits() + 1), f64::from_bits(near.to_bits().saturating_sub(1)), f64::from_bits(bits), -near] {
                let mut s = String::new();
                push_fixed6(&mut s, v);
                proptest::prop_assert_eq!(s, format!("{v:.6}"));
            }
            let mut s = String::new();
            ascii::push_decimal(&mut s, n);
            proptest::prop_assert_eq!(s, n.to_string());
        }
    }

    #[test]
    fn fixed6_edges() {
        for v in [
            0.0,
            -0.0,
            1e-7,
            0.0000005,
            0.0000015,
            8.0e9,
            8.0e9 - 1e-6,
            1e300,
            f64::NAN,
            f64::INFINITY,
            12.345678,
            0.1,
            0.2 + 0.1,
        ] {
            let mut s = String::new();
            push_fixed6(&mut s, v);
            assert_eq!(s, format!("{v:.6}"), "{v:e}");
        }
    }

    /// Whether a builder is as `Builder::default()` has it, but for its warnings.
    fn is_fresh(b: &Builder) -> bool {
        b.boot == Boot::default()
            && !b.started
            && b.stages.is_empty()
            && b.scale.is_none()
            && b.origin.is_none()
            && b.last_host.is_none()
            && b.ready_host.is_none()
            && b.bootstage.is_none()
            && b.sbl_run == 0
            && !b.sbl_run_has_data
            && b.calling.is_empty()
            && !b.calling_open
            && b.printk_offset.is_none()
            && !b.seen_tfa
            && b.fw_s.is_none()
            && b.fw_at_kernel.is_none()
            && b.lines == (0, 0)
            && b.tail_bytes == 0
            && b.sd_blame.len == 0
            && b.sd_chain.len == 0
            && b.sd_failed.len == 0
            && b.errors.len == 0
            && b.bootstage_buf.len == 0
            && b.sbl_points.len == 0
            && b.initcalls.len == 0
            && b.components_len == 0
            && b.components_sig == 0
    }

    #[test]
    fn reset_gives_a_fresh_builder_keeping_warnings_and_buffers() {
        assert!(is_fresh(&Builder::default()));
        let s = |t: &str| t.to_string();
        let unit = SystemdUnit {
            name: s("u"),
            duration_s: Some(1.0),
            at_s: None,
        };
        let record = BootstageRecord {
            name: s("r"),
            mark_us: 1,
            elapsed_us: 2,
        };
        let mut b = Builder {
            boot: Boot {
                index: 3,
                complete: true,
                lines: (1, 2),
                stages: vec![Stage {
                    id: StageId::Uboot,
                    start_s: None,
                    end_s: None,
                    duration_s: None,
                    clock: Clock::Host,
                    line: None,
                    console_bytes: None,
                }],
                components: [(s("k"), s("v"))].into(),
                sbl_profile: vec![SblPoint {
                    run: 0,
                    name: s("p"),
                    duration_us: None,
                    timestamp_us: None,
                    src_line: None,
                    cycle: None,
                }],
                sbl_total_us: vec![1],
                bootstage: vec![record.clone()],
                bootstage_accumulated: vec![BootstageAccum {
                    name: s("a"),
                    us: 1,
                }],
                bootstage_reports: vec![vec![record.clone()]],
                initcalls: vec![Initcall {
                    name: s("i"),
                    duration_us: 1,
                    ret: 0,
                    ts_s: None,
                }],
                kernel: Some(KernelInfo::default()),
                systemd: Some(SystemdInfo::default()),
                login_prompt: Some(s("login:")),
                marks: vec![Mark {
                    kind: "m".into(),
                    line: 1,
                    host_s: None,
                    target_s: None,
                }],
                errors: vec![s("e")],
                printk_offset_s: Some(1.0),
                warnings: vec![s("x")],
            },
            started: true,
            stages: vec![OpenStage {
                id: StageId::Kernel,
                line: 1,
                host: None,
                bytes: 2,
            }],
            scale: Some(HostScale::Wall),
            origin: Some(1.0),
            last_host: Some(1.0),
            ready_host: Some(1.0),
            bootstage: Some(BootstageMode::Accumulated),
            sbl_run: 2,
            sbl_run_has_data: true,
            calling: s("f"),
            calling_open: true,
            printk_offset: Some(1.0),
            seen_tfa: true,
            fw_s: Some(1.0),
            fw_at_kernel: Some(1.0),
            lines: (1, 2),
            tail_bytes: 3,
            sd_blame: Slots {
                v: vec![unit.clone()],
                len: 1,
            },
            sd_chain: Slots {
                v: vec![unit],
                len: 1,
            },
            sd_failed: Slots {
                v: vec![s("f")],
                len: 1,
            },
            warnings: Slots {
                v: vec![s("w")],
                len: 1,
            },
            errors: Slots {
                v: vec![s("e")],
                len: 1,
            },
            bootstage_buf: Slots {
                v: vec![record],
                len: 1,
            },
            sbl_points: Slots {
                v: vec![SblPoint {
                    run: 0,
                    name: s("q"),
                    duration_us: None,
                    timestamp_us: None,
                    src_line: None,
                    cycle: None,
                }],
                len: 1,
            },
            initcalls: Slots {
                v: vec![Initcall {
                    name: s("j"),
                    duration_us: 1,
                    ret: 0,
                    ts_s: None,
                }],
                len: 1,
            },
            components: vec![(s("k"), s("v"))],
            components_len: 1,
            components_sig: key_sig("k"),
        };
        assert!(!is_fresh(&b));
        b.reset();
        assert!(is_fresh(&b));
        assert_eq!(
            b.warnings,
            Slots {
                v: vec![s("w")],
                len: 1
            }
        );
        assert!(b.boot.initcalls.capacity() > 0 && b.sd_blame.v.capacity() > 0);
        // The slots keep their items (strings to rewrite), none of them live.
        assert_eq!(b.initcalls.v.len(), 1);
    }

    #[test]
    fn components_maps_are_reused_only_for_the_same_keys() {
        // Keys whose signatures collide (the second byte is not in it): told apart anyway.
        assert_eq!(key_sig("abcde"), key_sig("axcde"));
        let mut p = Parser::new(&BoardProfile::generic());
        let boot = |p: &mut Parser, comps: &[(&str, &str)]| {
            let st = &mut p.state;
            st.cur.started = true;
            for (k, v) in comps {
                st.component(k, v);
            }
            let maps = st.bin.maps.len();
            st.end_boot();
            let b = p.next_boot().expect("a boot");
            let want: BTreeMap<String, String> = comps
                .iter()
                .rev()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            assert_eq!(b.components, want);
            let reused = p.state.bin.maps.len() < maps;
            p.recycle(b);
            reused
        };
        // The first value of a key stays (`rev` above keeps the first).
        assert!(!boot(&mut p, &[("k", "v1"), ("abcde", "1"), ("k", "v0")]));
        assert!(!boot(&mut p, &[("axcde", "2"), ("k", "v2")]));
        assert!(boot(&mut p, &[("abcde", "3"), ("k", "v3")]));
        assert!(boot(&mut p, &[("k", "v4"), ("axcde", "4")]));
        assert!(!boot(&mut p, &[("k", "v5")]));
        assert!(!boot(&mut p, &[]));
        assert!(boot(&mut p, &[("k", "v6")]));
        // Bounded: the oldest maps go.
        for i in 0..2 * Bin::MAX_MAPS {
            boot(&mut p, &[(&format!("key{i}"), "v")]);
        }
        assert_eq!(p.state.bin.maps.len(), Bin::MAX_MAPS);
    }

    #[test]
    fn string_pool_classes() {
        assert_eq!(StringPool::class_for(0), 0);
        assert_eq!(StringPool::class_for(16), 0);
        assert_eq!(StringPool::class_for(17), 1);
        assert_eq!(StringPool::class_for(32), 1);
        assert_eq!(StringPool::class_for(33), 2);
        let mut pool = StringPool::default();
        let s = pool.take("a text of twenty-four b");
        assert_eq!((s.as_str(), s.capacity()), ("a text of twenty-four b", 32));
        pool.put(s);
        // A pooled string comes back cleared, and is reused.
        let t = pool.take("short");
        assert_eq!((t.as_str(), t.capacity()), ("short", 32));
        // Tiny and huge strings are not kept.
        pool.put(String::with_capacity(4));
        pool.put(String::with_capacity(1 << 20));
        assert!(pool.classes.iter().all(|c| c.is_empty()));
    }

    /// [`put_text`]'s reference: what it stands for.
    fn put_text_ref(s: &mut String, text: &str) {
        s.clear();
        s.push_str(text);
    }

    proptest::proptest! {
        /// [`put_text`] leaves the string as its reference does, whatever it held and had room
        /// for before, on texts of every length around its word copies (multi-byte
        /// characters included), and [`set_text`] too.
        #[test]
        fn put_text_is_clear_and_push(
            before in "[a-zé😀]{0,40}",
            room in 0usize..64,
            text in "[a-z0-9._ é😀-]{0,40}",
        ) {
            let mut a = String::with_capacity(room);
            a.push_str(&before);
            let mut b = a.clone();
            let mut c = a.clone();
            put_text(&mut a, &text);
            put_text_ref(&mut b, &text);
            set_text(&mut c, &text);
            proptest::prop_assert_eq!(&a, &b);
            proptest::prop_assert_eq!(&c, &b);
            proptest::prop_assert_eq!(a.len(), text.len());
        }
    }
}
