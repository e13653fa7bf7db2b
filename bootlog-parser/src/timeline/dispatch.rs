//! The per-line path: a line from the splitter, by its first bytes, to the reader of its
//! stamps and prefixes and to its record (the printk lines, most of a boot log, recorded
//! here when nothing about them is unusual). The only part of the timeline with SIMD.

use super::assemble::{login_tail, may_end_login, State};
use crate::hoststamp::{self, HostScale, Layer};
use crate::lines::{clean, clean_known, plain_text, Flags, MAX_LINE};
use crate::model::StageId;
use crate::{ascii, gate, linux, needles, systemd};
use std::fmt::Write as _;

/// The first bytes of a text that may carry a prefix `record` strips: a Raspberry Pi firmware
/// stamp (`MESS:`, `NNNNNN.NNN:`), a syslog `<n>`, or line noise (`\xNN` escapes, U+FFFD).
/// Most lines start with none, and skip the strippers ([`may_have_prefix`] looks further).
pub(super) static PREFIX_START: [bool; 256] = {
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
pub(super) static SPECIAL_START: [bool; 256] = {
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
pub(super) fn may_have_prefix(lead: &[u8]) -> bool {
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
pub(super) fn strip_prefixes(lead: &str) -> (Option<f64>, &str) {
    if !may_have_prefix(lead.as_bytes()) {
        // What the strippers would return: the text itself.
        return (None, lead);
    }
    strip_prefixes_slow(lead)
}

/// [`strip_prefixes`] of a text whose first byte may start a prefix (out of line: rare).
#[inline(never)]
pub(super) fn strip_prefixes_slow(lead: &str) -> (Option<f64>, &str) {
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
pub(super) fn bracketed_number(b: &[u8]) -> bool {
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
pub(super) fn strip_mess_usual(lead: &str) -> Option<(f64, &str)> {
    let (fw, rest) = hoststamp::mess_usual(lead)?;
    match rest.as_bytes().first() {
        Some(c) if c.is_ascii_whitespace() || matches!(c, b'<' | b'\\' | 0xEF) => None,
        _ => Some((fw, rest)),
    }
}

/// Drops line noise before the text: bytes that were not UTF-8 (kept as `\xNN` escapes by
/// the cleaner) and replacement characters, as a serial line prints at power-on.
pub(super) fn strip_junk(mut t: &str) -> &str {
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

/// The splitter's lines go straight to [`State::line`] and [`State::plain_line`], inlined
/// into its loop.
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
    pub(super) fn line(&mut self, n: u64, bytes: &[u8], flags: Flags) {
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
    ///
    /// `lines_fast_path_is_line_text` holds it to [`State::line`].
    ///
    /// # Safety
    /// As [`crate::lines::LineSink::plain_line`]: `len < rest.len()`, `rest[len]` is a break
    /// and `rest[..len]` is plain.
    #[inline(always)]
    pub(super) unsafe fn plain_line(&mut self, n: u64, rest: &[u8], len: usize, hints: u8) {
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
            return self.lead_dispatch(n, text, text, c);
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
                    return self.lead_dispatch(n, text, lead, c);
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
    pub(super) fn line_slow(&mut self, n: u64, bytes: &[u8], flags: Flags) {
        if flags.cut {
            let w = self.cur.warnings.next_text(&mut self.bin.strings, 64);
            let _ = w.write_fmt(format_args!(
                "line {n} is longer than {MAX_LINE} bytes: read as its first {MAX_LINE}"
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
    pub(super) fn line_text(&mut self, n: u64, text: &str) {
        // Most texts start with no blank, and are their own `lead` (no trim, which tests the
        // slices and re-reads the byte); each way has its own copy of the dispatch (one
        // shared copy cost every line the register copies of the merged `lead`).
        match text.as_bytes().first() {
            Some(&c) if c > b' ' => self.lead_dispatch(n, text, text, c),
            _ => {
                let lead = ascii::trim_start(text);
                match lead.bytes().next() {
                    Some(c) => self.lead_dispatch(n, text, lead, c),
                    None => self.blank_line(n),
                }
            }
        }
    }

    /// [`State::line_text`] of a blank line (empty, or blanks only): what `record` then
    /// `record_text` do with an empty text. [`State::plain_line`] comes here at once from its
    /// 16-byte lead search, which finds no byte of the line above a blank.
    #[inline(always)]
    pub(super) fn blank_line(&mut self, n: u64) {
        if self.cur.started {
            self.cur.lines.1 = n;
        }
    }

    /// [`State::line_text`] of a text whose `lead` (after its blanks) starts with the byte
    /// `c`: its record by that byte.
    #[inline(always)]
    pub(super) fn lead_dispatch(&mut self, n: u64, text: &str, lead: &str, c: u8) {
        match c {
            // `[` first: printk lines, a third of a boot log.
            b'[' => self.bracket_line(n, text, lead),
            // Most lines: no capture layer, no prefix (what `strip_prefixes` returns then).
            // (Not `[`: no printk stamp, so past `record_text`'s stamp test.)
            c if !SPECIAL_START[usize::from(c)] => self.record_unstamped(n, None, None, lead),
            c if !hoststamp::may_start(c) => self.prefixed_line(n, lead),
            _ => self.layered_line(n, text),
        }
    }

    /// [`State::line_text`] of a line whose text `lead` (after its blanks) starts with `[`:
    /// a printk stamp in the kernel's `[%5lu.%06lu]` layout read at once, its line recorded
    /// here when [`State::printk_usual`] holds (most printk lines), else by
    /// [`State::printk_line`]; any other `[`-text by [`State::bracket_other`] (by
    /// [`State::digit_bracket_line`] at once when a digit follows the `[`). (A text with
    /// a printk stamp has no host stamp, see `host_and_printk_stamps_exclude`, so reading the
    /// printk stamp first changes no answer.)
    ///
    /// Every way out is a jump to another function (the stamp's first steps only load and
    /// compare), so this needs no frame.
    ///
    /// A `lead` under 17 bytes (a stamp and at most two bytes more) skips the memo and the
    /// printk paths for [`State::bracket_unstamped`]: `printk_usual` turns such a line away
    /// anyway (its message must have two bytes after one blank), and the general readers it
    /// goes to then record a printk stamp as `printk_line` does (what the proptest
    /// `printk_paths_are_bracket_other` holds the fast paths to). One length test at the
    /// entry then stands for the memo's (14 bytes) and `printk_usual`'s (17).
    #[inline(never)]
    pub(super) fn bracket_line(&mut self, n: u64, text: &str, lead: &str) {
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
    pub(super) fn printk_same_second(&mut self, n: u64, lead: &str, t: u64) {
        let ts = self.stamp_memo.read_same_word(t);
        self.printk_stamped(n, lead, ts);
    }

    /// [`State::bracket_line`] of a `lead` whose seconds field is not the memo's: the whole
    /// stamp read (and remembered), else (no stamp in the kernel's layout) the other readers.
    #[inline(never)]
    pub(super) fn bracket_new_second(&mut self, n: u64, text: &str, lead: &str) {
        match self.stamp_memo.read(lead.as_bytes()) {
            Some(ts) => self.printk_stamped(n, lead, ts),
            None => self.bracket_unstamped(n, text, lead),
        }
    }

    /// [`State::bracket_line`] of a printk line `lead` stamped `ts` in the kernel's layout:
    /// recorded here when [`State::printk_usual`] (most), else by [`State::printk_line`].
    #[inline(always)]
    pub(super) fn printk_stamped(&mut self, n: u64, lead: &str, ts: f64) {
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
    pub(super) fn bracket_unstamped(&mut self, n: u64, text: &str, lead: &str) {
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
    /// no line came between (the splitter numbers lines one more each, a cut line too, and
    /// hands each number out once), so the answer it gave then holds.
    #[inline(always)]
    pub(super) fn printk_usual(&self, n: u64, lead: &str, ts: f64) -> bool {
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
    pub(super) fn printk_state_usual(&self) -> bool {
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
    pub(super) fn usual_last_ts(&mut self, ts: f64) {
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
    pub(super) fn usual_printk_done(&mut self, n: u64, lead: &str) {
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
    pub(super) fn marker_printk(&mut self, n: u64, lead: &str, ts: f64) {
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
    pub(super) fn calling_printk(&mut self, m: &str) {
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
    /// than 32, or more than the room), by [`linux::calling_name`].
    #[inline(never)]
    pub(super) fn calling_out(&mut self, m: &str) {
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
    /// [`State::initcall_out`] or [`State::initcall_store`], so no call is left in it (the
    /// general reader's loops are not set up).
    #[inline(never)]
    pub(super) fn initcall_printk(&mut self, m: &str, ts: f64) {
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
    pub(super) fn initcall_out(&mut self, m: &str, ts: f64) {
        if let Some((name, ret, usecs)) = linux::initcall_parts(m) {
            self.initcall(name, ret, usecs, Some(ts));
        }
    }

    /// [`State::initcall`] of a line [`State::initcall_printk`] read but could not store in
    /// line (no slot to reuse, a name under 8 bytes or longer than 32, or more than the room).
    #[inline(never)]
    pub(super) fn initcall_store(&mut self, name: &str, ret: i64, usecs: u64, ts: f64) {
        self.initcall(name, ret, usecs, Some(ts));
    }

    /// [`State::marker_printk`] of another message.
    #[inline(never)]
    pub(super) fn other_marker_printk(&mut self, n: u64, m: &str, ts: f64) {
        // Its printk time was stored by `printk_stamped`.
        self.marker_other(n, m, ts);
        self.touch(n, m.len() + 15);
    }

    /// [`State::marker_printk`] of a message that is no initcall_debug line: the kernel and
    /// systemd grammars as [`State::printk`] asks them.
    #[inline(never)]
    pub(super) fn marker_other(&mut self, n: u64, msg: &str, ts: f64) {
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
    /// [`State::printk_usual`] turned away: the full printk record.
    #[inline(never)]
    pub(super) fn printk_line(&mut self, n: u64, lead: &str, ts: f64) {
        let p = linux::printk_after(lead, ts, 14);
        self.record_printk_inline(n, None, None, lead, p);
    }

    /// [`State::bracket_line`] of a `lead` with no printk stamp in the kernel's own layout:
    /// a printk stamp laid out otherwise (no capture layer or prefix then, see
    /// `hoststamp::strip`, so the stamp, read once here, goes straight to `record_printk`),
    /// else perhaps a host stamp.
    #[inline(never)]
    pub(super) fn bracket_other(&mut self, n: u64, text: &str, lead: &str) {
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
    /// all jumps and it needs no frame.
    #[inline(never)]
    pub(super) fn bracket_blank(&mut self, n: u64, text: &str, lead: &str) {
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
    /// [`State::digit_bracket_other`]). Every way out is a jump ([`State::host_line`]'s trim
    /// and layered record too) and no panic is left in it; it saves the
    /// registers the two numbers' readers need.
    #[inline(never)]
    pub(super) fn digit_bracket_line(&mut self, n: u64, lead: &str) {
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
    pub(super) fn host_line(&mut self, n: u64, abs: f64, scale: HostScale, rest: &str) {
        // `rest` seldom starts with a blank (the stamp's one is gone): the trim only then, in
        // a function of its own reached by a jump (a call here needed a frame).
        match rest.as_bytes().first() {
            Some(c) if c.is_ascii_whitespace() => self.host_line_blank(n, abs, scale, rest),
            _ => self.host_text(n, abs, scale, rest, rest),
        }
    }

    /// [`State::host_line`] of a `rest` that starts with a blank: its text after the blanks.
    #[inline(never)]
    pub(super) fn host_line_blank(&mut self, n: u64, abs: f64, scale: HostScale, rest: &str) {
        self.host_text(n, abs, scale, rest, ascii::trim_start(rest))
    }

    /// [`State::host_line`] of the text `t`, `rest` after its blanks.
    #[inline(always)]
    pub(super) fn host_text(&mut self, n: u64, abs: f64, scale: HostScale, rest: &str, t: &str) {
        // `host`'s restart test, made before anything is stored.
        let goes_back = self.clock.goes_back(abs);
        if goes_back
            || may_have_prefix(t.as_bytes())
            || ascii::find_byte(rest.as_bytes(), b'[').is_some()
        {
            return self.host_layered(n, abs, scale, rest);
        }
        // `host` without its restart (ruled out above).
        self.clock.last_raw = Some(abs);
        let host = abs + self.clock.offset;
        self.note_host(host, scale);
        // `record_text` of a text with no `[`: no printk stamp.
        self.record_unstamped(n, Some(host), None, t)
    }

    /// `layered` of `Layer::Host(abs, scale, rest)`, out of line: its callers pass the parts
    /// in registers and jump here (the `Layer` itself goes by memory, so a call of `layered`
    /// needed a frame in them).
    #[inline(never)]
    pub(super) fn host_layered(&mut self, n: u64, abs: f64, scale: HostScale, rest: &str) {
        self.layered(n, Layer::Host(abs, scale, rest));
    }

    /// [`State::digit_bracket_line`] of a `lead` not in grabserial's usual layout.
    #[inline(never)]
    pub(super) fn digit_bracket_other(&mut self, n: u64, lead: &str) {
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
    pub(super) fn prefixed_line(&mut self, n: u64, lead: &str) {
        // Most of these (bootstage and blame rows, `M...` words) carry no prefix: a jump to
        // `record_text`, with no frame here; the strippers in a function of their own.
        // (`lead` starts with no `[`: no printk stamp.)
        let b = lead.as_bytes();
        if !may_have_prefix(b) {
            return self.record_unstamped(n, None, None, lead);
        }
        self.stripped_line(n, lead);
    }

    /// [`State::prefixed_line`] of a text that may carry a prefix: stripped, then recorded.
    #[inline(never)]
    pub(super) fn stripped_line(&mut self, n: u64, lead: &str) {
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
    pub(super) fn stripped_line_slow(&mut self, n: u64, lead: &str) {
        let (fw, t) = match strip_mess_usual(lead) {
            Some((fw, t)) => (Some(fw), t),
            None => strip_prefixes_slow(lead),
        };
        self.record_text(n, None, fw, t);
    }

    /// [`State::line_text`] of a line that may carry a LAVA layer (starts with `-`).
    #[inline(never)]
    pub(super) fn layered_line(&mut self, n: u64, text: &str) {
        self.layered(n, hoststamp::strip(text));
    }

    /// A line whose capture layer (if any) was found: its records (out of line, as most
    /// lines have no layer).
    #[inline(never)]
    pub(super) fn layered(&mut self, n: u64, layer: Layer) {
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
                // YAML escapes in the message can spell any word.
                self.hints = needles::ALL;
                let typed = self.lava_typed.take();
                for (i, part) in msg.split(['\n', '\r']).enumerate() {
                    // The console line LAVA typed into ends with the echo of what it typed
                    // (`box login: root`): the prompt, as it was when LAVA typed.
                    let (part, at) = match &typed {
                        Some((when, t))
                            if i == 0 && !t.is_empty() && part.ends_with(t.as_str()) =>
                        {
                            (&part[..part.len() - t.len()], when.or(dt))
                        }
                        _ => (part, dt),
                    };
                    let c = clean(part.as_bytes()).into_owned();
                    self.record(n, at, HostScale::Wall, &c);
                }
            }
            Layer::LavaInput(dt, typed) => {
                let typed = typed.trim_end_matches(['\n', '\r']).to_string();
                self.lava_typed = Some((dt, typed));
            }
            Layer::Lava(_, None) => {}
        }
    }
}

impl State {
    /// One record of a line with a capture layer: its prefixes stripped, the host clock
    /// noted, then [`State::record_text`]. Inlined into [`State::layered`], its one hot
    /// caller (grabserial lines), to spare a call and a frame a record.
    #[inline(always)]
    pub(super) fn record(&mut self, n: u64, host_raw: Option<f64>, scale: HostScale, text: &str) {
        let (fw, t) = strip_prefixes(ascii::trim_start(text));
        let host = self.host(n, host_raw, scale);
        self.record_text(n, host, fw, t);
    }

    /// [`State::record`] of a text without a host stamp that starts with no blank: most
    /// lines, spared the host clock's bookkeeping (which does nothing without a stamp).
    #[inline(always)]
    pub(super) fn record_plain(&mut self, n: u64, lead: &str) {
        let (fw, t) = strip_prefixes(lead);
        self.record_text(n, None, fw, t);
    }

    /// One record's text, every capture layer and prefix removed (`t` starts with no blank).
    /// A printk-stamped one goes to [`State::record_printk`], any other to
    /// [`State::record_unstamped`]. Inlined: the callers that know their text has no stamp
    /// call `record_unstamped` themselves.
    #[inline(always)]
    pub(super) fn record_text(&mut self, n: u64, host: Option<f64>, fw: Option<f64>, t: &str) {
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
    /// needs no frame.
    #[inline(never)]
    pub(super) fn record_unstamped(&mut self, n: u64, host: Option<f64>, fw: Option<f64>, t: &str) {
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

    /// Whether a text is one that [`State::record_unstamped_slow`] would only note the
    /// firmware stamp of (if any), touch the boot with and test for the ready prompt: not
    /// empty, outside a bootstage report, with no markers or profile ready pattern to try, and
    /// turned away by [`gate::may_match`] (so no grammar, nor user space's opening, can take it).
    #[inline(always)]
    pub(super) fn takes_no_grammar(&self, t: &str) -> bool {
        let b = t.as_bytes();
        match *b {
            [first, ..] => {
                // A text of one byte has no second: its first stands in (no grammar takes a
                // text of one byte but after the bytes `gate::may_match` takes whatever follows).
                // SAFETY: `b` holds `first`, so its length is at least 1 and the index, 1 for a
                // longer text and 0 for a text of one byte, is below it.
                let second = b[usize::from(b.len() > 1)];
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
    pub(super) fn gate_turns_away(&self, first: u8, second: u8) -> bool {
        !gate::may_match(first, second, self.hints)
            && self.cur.bootstage.is_none()
            && !self.profile_hooks
    }

    /// [`State::record_unstamped_slow`] of a text [`State::takes_no_grammar`] said yes to:
    /// `touch` and the default ready test, the prompt's last-two-bytes test
    /// ([`may_end_login`]) inlined.
    #[inline(always)]
    pub(super) fn record_ungrammatical(&mut self, n: u64, host: Option<f64>, t: &str) {
        self.touch(n, t.len());
        if may_end_login(t.as_bytes()) {
            self.ready_if_login(n, t, host);
        }
    }

    /// [`State::record_unstamped`] of a text [`gate::may_match`] lets in, or read in a
    /// bootstage report, or empty, or with markers or a profile's ready pattern: a row of an
    /// open report by [`State::record_in_bootstage`], any other text by the grammars.
    #[inline(never)]
    pub(super) fn record_unstamped_slow(
        &mut self,
        n: u64,
        host: Option<f64>,
        fw: Option<f64>,
        t: &str,
    ) {
        if self.cur.bootstage.is_some() && !t.is_empty() {
            return self.record_in_bootstage(n, host, fw, t);
        }
        self.record_unstamped_classified(n, host, fw, t);
    }

    /// [`State::record_unstamped_slow`] of a text (not empty) read while a bootstage report or
    /// SBL cores list is open: a row is taken here, spared the frame of
    /// [`State::record_unstamped_classified`] (a report has hundreds of rows); any other
    /// text has closed the report ([`State::bootstage_row`] leaves `bootstage` empty when it
    /// says no) and goes back to [`State::record_unstamped_slow`], as any text outside one.
    #[inline(never)]
    pub(super) fn record_in_bootstage(
        &mut self,
        n: u64,
        host: Option<f64>,
        fw: Option<f64>,
        t: &str,
    ) {
        if self.bootstage_row_inline(n, t) {
            return;
        }
        debug_assert!(self.cur.bootstage.is_none());
        self.record_unstamped_slow(n, host, fw, t);
    }

    /// [`State::record_unstamped_slow`] of a text some grammar may take (or empty, or read in
    /// a bootstage report, or with markers or a profile's ready pattern): the grammars.
    #[inline(never)]
    pub(super) fn record_unstamped_classified(
        &mut self,
        n: u64,
        host: Option<f64>,
        fw: Option<f64>,
        t: &str,
    ) {
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
    pub(super) fn record_ok(&mut self, n: u64, t: &str) {
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
    /// ([`super::assemble::is_default_ready_tail`], inlined here: this is out of line for it).
    #[inline(never)]
    pub(super) fn ready_if_login(&mut self, n: u64, t: &str, host: Option<f64>) {
        if login_tail(t) {
            self.ready(n, host, t);
        }
    }

    /// [`State::record_printk_inline`] out of line, for the printk-stamped texts that had a
    /// capture layer or a prefix (few).
    #[inline(never)]
    pub(super) fn record_printk(
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
    pub(super) fn record_printk_inline(
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
}
