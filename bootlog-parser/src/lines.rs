//! Line hygiene: raw console bytes into numbered text lines.
//!
//! Serial consoles end lines with LF, CRLF, LF+CR or a lone CR, mix in ANSI escapes, backspaces,
//! NULs and bytes that are not UTF-8. [`LineSplitter`] cuts lines (streaming, any chunking) and
//! [`clean`] turns one line into text: escapes removed, backspaces applied, other control bytes
//! dropped, tabs kept, invalid UTF-8 kept as `\xNN` so nothing is lost silently.

use crate::needles;
use std::borrow::Cow;

/// Lines longer than this are handed out cut to their first `MAX_LINE` bytes (flagged
/// [`Flags::cut`]; the timeline warns once): a long line is still one line, numbered as in
/// the file, and its bytes past this are dropped, so the buffer of a line in progress never
/// holds more.
pub const MAX_LINE: usize = 64 * 1024;

/// The bytes whose flagged positions [`LineSplitter::feed_with`] gathers before walking them
/// (a multiple of 64: windows start on the block grid).
const FLAT_WINDOW: usize = 16 * 1024;
/// How far ahead of the block it scans [`LineSplitter::feed_with`]'s pass 1 prefetches into
/// L1: its window is in L2 by then (pass 2 of the window before fetched it), and 1 KiB (16
/// blocks) ahead the loads of each block no longer wait on L2.
const L1_AHEAD: usize = 1024;

/// What [`LineSplitter`] knows of a line it hands out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flags {
    /// The line was longer than [`MAX_LINE`]: these are its first `MAX_LINE` bytes.
    pub cut: bool,
    /// The bytes are known to be plain text (only 0x09 and 0x20..=0x7e, see [`is_plain`]),
    /// found while looking for line breaks; `false` means not plain or not known.
    pub plain: bool,
    /// The words of [`crate::needles`] the line may hold (a bit is clear only when its word
    /// is certainly absent from the bytes), found in the same block pass: grammars skip their
    /// searches on clear bits.
    pub hints: u8,
}

/// What [`LineSplitter::feed_into`] hands each line to: `line(line_no, bytes, flags)`, as
/// [`LineSplitter::feed`]'s closure is called. A type of its own can mark its `line`
/// `#[inline(always)]`, which a closure cannot: the timeline's per-line dispatch then stays
/// in the splitter's loop however large it grows.
pub(crate) trait LineSink {
    /// One line (see [`LineSplitter::feed`]).
    fn line(&mut self, line_no: u64, bytes: &[u8], flags: Flags);

    /// A whole plain line (flags: not cut, plain, `hints`): `rest[..len]`, followed in `rest`
    /// by its break and whatever else of the chunk comes after it. The splitter's common
    /// case: a sink may read past the line's end (its first byte, or the break for an empty
    /// line, with no length test; 16 bytes at once where `rest` has them) instead of testing
    /// the line's length first. The default hands the line to [`LineSink::line`].
    ///
    /// # Safety
    /// `len < rest.len()`, `rest[len]` is `\n` or `\r`, and `rest[..len]` is plain
    /// ([`is_plain`]).
    #[inline(always)]
    unsafe fn plain_line(&mut self, line_no: u64, rest: &[u8], len: usize, hints: u8) {
        debug_assert!(len < rest.len() && is_plain(&rest[..len]));
        // SAFETY: `len < rest.len()` (this function's contract).
        let bytes = unsafe { rest.get_unchecked(..len) };
        self.line(
            line_no,
            bytes,
            Flags {
                cut: false,
                plain: true,
                hints,
            },
        );
    }
}

impl<F: FnMut(u64, &[u8], Flags)> LineSink for F {
    #[inline(always)]
    fn line(&mut self, line_no: u64, bytes: &[u8], flags: Flags) {
        self(line_no, bytes, flags)
    }
}

/// Splits a byte stream into lines; feed it chunks of any size.
#[derive(Debug, Default)]
pub struct LineSplitter {
    buf: Vec<u8>,
    line_no: u64,
    /// The last byte consumed ended a line; its partner (CR after LF, LF after CR) is swallowed.
    after: Option<u8>,
    /// How many lines were longer than [`MAX_LINE`] (each handed out cut).
    pub cut_lines: u64,
    /// The line being buffered is longer than [`MAX_LINE`]: the buffer holds its first
    /// `MAX_LINE` bytes, and its bytes up to the next break are dropped.
    cutting: bool,
    /// [`Self::feed_with`]'s positions of one window's flagged bytes (reused, so a feed
    /// allocates nothing once it has grown).
    marks: Vec<u32>,
}

impl LineSplitter {
    /// A splitter whose first line is line 1.
    pub fn new() -> Self {
        Self::default()
    }

    /// Consumes a chunk and calls `out(line_no, bytes, flags)` for every complete line in it
    /// (see [`Flags`]).
    pub fn feed(&mut self, chunk: &[u8], out: &mut impl FnMut(u64, &[u8], Flags)) {
        self.feed_into(chunk, out);
    }

    /// [`Self::feed`] with the lines handed to a [`LineSink`].
    #[inline]
    pub(crate) fn feed_into(&mut self, chunk: &[u8], out: &mut impl LineSink) {
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::avx2_bmi1_popcnt() {
            // SAFETY: the CPU has AVX2, BMI1 and POPCNT (just checked).
            unsafe { self.feed_avx2(chunk, out) };
            return;
        }
        self.feed_with(chunk, out, scan);
    }

    /// [`Self::feed`] with AVX2, BMI1 and POPCNT: the block scan ([`scan_avx2`]) inlined into
    /// the line loop, and the loop's bit operations single instructions (`blsr`, `andn`, and
    /// `popcnt` for each block's count of positions).
    ///
    /// # Safety
    /// The CPU must have AVX2, BMI1 and POPCNT.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,popcnt")]
    unsafe fn feed_avx2(&mut self, chunk: &[u8], out: &mut impl LineSink) {
        // SAFETY: the CPU has AVX2 (this function's contract).
        self.feed_with(chunk, out, |b| unsafe { scan_avx2(b) });
    }

    /// [`Self::feed`] with `block_controls` giving [`controls`] of each 64-byte block (the
    /// array also holds the two bytes after it, zero past the chunk) together with its
    /// [`needles::candidates`], in two passes over each window of [`FLAT_WINDOW`] bytes:
    ///
    /// 1. the block scan writes the positions of the window's flagged bytes (control bytes,
    ///    most of them breaks, and candidates) to [`Self::marks`], four stores a block
    ///    whatever its count and a loop only past four;
    /// 2. one loop walks the positions, its state in locals: an ordinary line costs a byte
    ///    compare or two for its break, one for a partner byte and one for its length;
    ///    carried, long and not plain lines go out of line. A line is plain when no control
    ///    byte but tabs came before its break. A candidate (a printable flagged byte) is
    ///    confirmed at once ([`needles::hint_at`]) and its word's bit goes to the line's
    ///    hints. Each line also prefetches (into L2) the byte one window past its break, so
    ///    the next window is in the cache when pass 1 reaches it (pass 1 does not wait on
    ///    memory at each window).
    ///
    /// Two passes, not a bit loop inside each block's: such a loop ends after a count that
    /// varies from block to block (0 to 3 lines in most), which the branch predictor misses
    /// about once a block, where the walk in pass 2 runs on through the window: more
    /// instructions, fewer missed branches, less time.
    ///
    /// Whole plain lines of at most [`MAX_LINE`] bytes (nearly all) go to
    /// [`LineSink::plain_line`], the others to [`Self::line_long`]: the one length compare
    /// tells them apart, as a byte that is not plain drops the limit it compares with to 0
    /// (no plain flag kept and tested a line).
    #[inline(always)]
    fn feed_with(
        &mut self,
        chunk: &[u8],
        out: &mut impl LineSink,
        block_controls: impl Fn(&[u8; 66]) -> u64,
    ) {
        let mut start = 0;
        if let Some(prev) = self.after.take() {
            if let Some(&b) = chunk.first() {
                if (prev == b'\n' && b == b'\r') || (prev == b'\r' && b == b'\n') {
                    start = 1;
                }
            } else {
                self.after = Some(prev);
                return;
            }
        }
        let mut line_no = self.line_no;
        // A line of fewer bytes than this goes out at once, as a plain line
        // ([`LineSink::plain_line`]). 0 sends the line in progress to `line_long`: when it
        // continues a buffered (or cut) one (the chunk's first line; after it the buffer is
        // empty and nothing is being cut), or when a byte before the byte looked at is not
        // plain.
        const NO_LIMIT: usize = MAX_LINE + 1;
        let mut limit = if self.buf.is_empty() && !self.cutting {
            NO_LIMIT
        } else {
            0
        };
        // The words the line in progress may hold, from the candidates before the byte
        // looked at.
        let mut hints = 0u8;
        // The loops walk pointers, not offsets: fewer values to keep across `out`'s call.
        let range = chunk.as_ptr_range();
        let end = range.end;
        // Where the line in progress starts (`start <= len`, see above).
        let mut from = range.start.wrapping_add(start);
        // The positions go to the buffer's spare room through `mp` (its length stays 0).
        let mut marks = std::mem::take(&mut self.marks);
        marks.reserve(FLAT_WINDOW + 8);
        let mp = marks.as_mut_ptr();
        let mut window = from;
        while window < end {
            let wend = if end as usize - window as usize > FLAT_WINDOW {
                window.wrapping_add(FLAT_WINDOW)
            } else {
                end
            };
            // Pass 1: the positions (from `window`) of the flagged bytes of its blocks.
            // SAFETY: `marks` holds room for FLAT_WINDOW + 8 positions, and the window
            // `window..wend` (at most FLAT_WINDOW bytes) lies in the chunk, ending at `end`
            // or before it.
            let n = unsafe { flag_positions(chunk, window, wend, mp, &block_controls) };
            // Pass 2: the lines.
            for k in 0..n {
                // SAFETY: `k < n`: written above.
                let pos = window.wrapping_add(unsafe { *mp.add(k) } as usize);
                if pos < from {
                    // The partner of the break before, consumed with it (a control byte, so
                    // flagged: the position after the break's).
                    continue;
                }
                // SAFETY: a position is a flagged byte of a block, and the padding's bits
                // were dropped, so it lies in the chunk (`pos < end`).
                let term = unsafe { *pos };
                match term {
                    b'\n' | b'\r' => {}
                    _ => {
                        // Not a break: a needle candidate (printable), a tab (plain) or a byte
                        // that is not plain, in the line.
                        if term.wrapping_sub(0x20) < 0x5f {
                            // A printable flagged byte is a candidate (`@`, or the `a` or `o`
                            // of a piece of a word, see `needles::candidates`).
                            let q = pos as usize - range.start as usize;
                            hints |= needles::hint_at(chunk, q, term);
                        } else if term != b'\t' {
                            // Not plain: the line goes to `line_long`. (A 0 LLVM cannot
                            // see: a conditional move of a plain 0 kept a register zeroed
                            // after every line's call, for this rare branch.)
                            limit = std::hint::black_box(0);
                        }
                        continue;
                    }
                }
                line_no += 1;
                // The next window's bytes, a line ahead of pass 1 reaching them: fetched into
                // the cache while this pass works, instead of pass 1 waiting for memory.
                #[cfg(target_arch = "x86_64")]
                // SAFETY: a prefetch reads nothing and never faults, whatever the address.
                unsafe {
                    use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T1};
                    _mm_prefetch::<_MM_HINT_T1>(pos.wrapping_add(FLAT_WINDOW) as *const i8);
                }
                debug_assert!(from <= pos);
                let n = pos as usize - from as usize;
                // SAFETY: `from..pos` lies in the chunk: `pos < end`, and `from <= pos`, as
                // `from` is the chunk's start (or one past it when its first byte is the
                // partner of the previous chunk's last break), or one past an earlier break,
                // or two past it when the byte one past was its partner, whose position the
                // test above skips.
                let body = unsafe { std::slice::from_raw_parts(from, n) };
                from = pos.wrapping_add(1);
                if from < end {
                    // SAFETY: `from < end`.
                    let b = unsafe { *from };
                    // `\n\r` and `\r\n` are one break; `\n\n` and `\r\r` two. `term` is `\n` or
                    // `\r`, so its partner is `term ^ 7` (0x0a ^ 0x0d = 0x07): one compare, and
                    // no branch.
                    from = from.wrapping_add(usize::from(b == term ^ 7));
                } else {
                    self.after = Some(term);
                }
                if n < limit {
                    // SAFETY: `body` is plain (`limit` is not 0) and lies in the chunk from
                    // `body`'s start, whose byte `n` is the break `term` (`pos < end`).
                    unsafe {
                        let rest = std::slice::from_raw_parts(
                            body.as_ptr(),
                            end as usize - body.as_ptr() as usize,
                        );
                        out.plain_line(line_no, rest, n, hints);
                    }
                } else {
                    line_no = self.line_long(line_no, body, hints, out);
                    // Only this way resets the limit: `n < limit` above means `limit` is
                    // not 0, so it is already `NO_LIMIT` there.
                    limit = NO_LIMIT;
                }
                hints = 0;
            }
            window = wend;
        }
        self.marks = marks;
        self.line_no = line_no;
        let start = from as usize - range.start as usize;
        self.carry_tail(&chunk[start..]);
    }

    /// Keeps `tail`, the start of a line whose break is in a later chunk: up to [`MAX_LINE`]
    /// bytes of the line in the buffer, the rest dropped (the line is then `cutting`).
    fn carry_tail(&mut self, tail: &[u8]) {
        if self.cutting {
            return;
        }
        // The buffer never holds more than `MAX_LINE` bytes.
        let room = MAX_LINE - self.buf.len();
        if tail.len() > room {
            self.buf.extend_from_slice(&tail[..room]);
            self.cutting = true;
        } else {
            self.buf.extend_from_slice(tail);
        }
    }

    /// The line numbered `line_no` ending in this chunk that [`Self::feed_with`] does not
    /// hand out at once: one that continues a buffered or cut line (a carry: the buffer holds
    /// bytes or a cut is under way, which only the chunk's first line finds), one longer than
    /// [`MAX_LINE`], or one that is not plain. Returns the last line number used (one a
    /// line, however long). `hints` are those of `body`; a line joined to buffered bytes gets
    /// [`needles::ALL`]. Its plain flag is [`is_plain`] of `body`, what the block pass found
    /// (no control byte but tabs in it).
    #[cold]
    #[inline(never)]
    fn line_long(&mut self, line_no: u64, body: &[u8], hints: u8, out: &mut impl LineSink) -> u64 {
        self.line_no = line_no;
        let plain = is_plain(body);
        let carry = !self.buf.is_empty() || self.cutting;
        if !carry {
            let flags = Flags {
                cut: false,
                plain,
                hints,
            };
            self.emit(body, flags, out);
        } else {
            // The buffered start of the line, and of `body` what fits after it (one byte
            // more than fits tells `emit` the line is too long); a line already `cutting`
            // drops `body`.
            let cut = std::mem::take(&mut self.cutting);
            if !cut {
                let room = (MAX_LINE + 1).saturating_sub(self.buf.len());
                self.buf.extend_from_slice(&body[..body.len().min(room)]);
            }
            let buf = std::mem::take(&mut self.buf);
            let flags = Flags {
                cut,
                plain: false,
                hints: needles::ALL,
            };
            self.emit(&buf, flags, out);
            self.buf = buf;
            self.buf.clear();
        }
        self.line_no
    }

    /// Flushes the last line if the input did not end with a line break.
    pub fn finish(&mut self, out: &mut impl FnMut(u64, &[u8], Flags)) {
        if !self.buf.is_empty() {
            self.line_no += 1;
            let buf = std::mem::take(&mut self.buf);
            let cut = std::mem::take(&mut self.cutting);
            let flags = Flags {
                cut,
                plain: false,
                hints: needles::ALL,
            };
            self.emit(&buf, flags, out);
        }
        self.after = None;
    }

    /// Number of lines emitted so far.
    pub fn lines(&self) -> u64 {
        self.line_no
    }

    /// Hands out the line numbered `self.line_no`: `body`, or its first [`MAX_LINE`] bytes
    /// (flagged cut) when it is longer. (A part of a plain line is plain.)
    fn emit(&mut self, body: &[u8], flags: Flags, out: &mut impl LineSink) {
        if body.len() <= MAX_LINE {
            if flags.cut {
                self.cut_lines += 1;
            }
            out.line(self.line_no, body, flags);
            return;
        }
        self.cut_lines += 1;
        out.line(
            self.line_no,
            &body[..MAX_LINE],
            Flags { cut: true, ..flags },
        );
    }
}

/// [`controls`] of a 64-byte block with AVX2: two 32-byte steps, and a byte is a control
/// byte, DEL or not ASCII when `byte + 1`, as a signed byte, is below `0x21` (one compare).
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(all(test, target_arch = "x86_64"))]
#[target_feature(enable = "avx2")]
unsafe fn controls_avx2(block: &[u8; 64]) -> u64 {
    use std::arch::x86_64::*;
    let one = _mm256_set1_epi8(1);
    let lim = _mm256_set1_epi8(0x21);
    let mut m = 0u64;
    for k in 0..2 {
        // SAFETY (of the load): `block[32k..32k + 32]` exists; the load is unaligned.
        let v = _mm256_loadu_si256(block.as_ptr().add(32 * k) as *const __m256i);
        // 0x7f + 1 and 0x80..=0xff + 1 wrap to negative or zero; 0x00..=0x1f + 1 are <= 0x20.
        let c = _mm256_cmpgt_epi8(lim, _mm256_add_epi8(v, one));
        m |= u64::from(_mm256_movemask_epi8(c) as u32) << (32 * k);
    }
    m
}

/// [`controls_avx2`] of the block's first 64 bytes with its [`needles::candidates`] (the
/// candidate vectors of [`needles::candidates_avx2`] joined to the control ones before the
/// movemask, so a block pays one movemask a half for both).
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn scan_avx2(block: &[u8; 66]) -> u64 {
    use std::arch::x86_64::*;
    let lim = _mm256_set1_epi8(0x20);
    // SAFETY: the CPU has AVX2 and `block[0..66]` is readable. DEL comes flagged with the
    // candidates (the `@` lookup finds it too).
    let cand = needles::candidates_avx2::<true>(block.as_ptr());
    let mut m = 0u64;
    for (k, cand) in [cand.0, cand.1].into_iter().enumerate() {
        // SAFETY (of the load): `block[32k..32k + 32]` exists; the load is unaligned.
        let v = _mm256_loadu_si256(block.as_ptr().add(32 * k) as *const __m256i);
        // The control bytes and those not ASCII, DEL aside: the sign of the saturating
        // `byte - 0x20`, signed (0x80..=0xff stay negative), one instruction; a compare
        // or'ed with the candidates' compares made LLVM shift each byte's low bit up
        // (`vpsllw $7`) before the movemask, two instructions a block.
        let c = _mm256_subs_epi8(v, lim);
        let c = _mm256_or_si256(c, cand);
        m |= u64::from(_mm256_movemask_epi8(c) as u32) << (32 * k);
    }
    m
}

/// [`controls`] of the block's first 64 bytes with its [`needles::candidates`]: the block
/// scan of [`LineSplitter::feed`] without AVX2.
#[inline]
fn scan(block: &[u8; 66]) -> u64 {
    let (head, _) = block.split_at(64);
    // A 64-byte prefix of a 66-byte array: the conversion cannot fail.
    controls(head.try_into().unwrap()) | needles::candidates(block)
}

/// For a 64-byte block: bit i set where `block[i]` is a control byte (below 0x20: the breaks,
/// tab and those that are not plain), DEL or not ASCII, that is every byte but 0x20..=0x7e.
#[inline]
fn controls(block: &[u8; 64]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of the x86_64 baseline, and the four unaligned 16-byte loads
        // read `block[0..64]`, which exists.
        unsafe {
            let one = _mm_set1_epi8(1);
            let lim = _mm_set1_epi8(0x21);
            let mut m = 0u64;
            for k in 0..4 {
                let v = _mm_loadu_si128(block.as_ptr().add(16 * k) as *const __m128i);
                // As in `controls_avx2`: `byte + 1`, signed, below 0x21.
                let c = _mm_cmplt_epi8(_mm_add_epi8(v, one), lim);
                m |= u64::from(_mm_movemask_epi8(c) as u16) << (16 * k);
            }
            m
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        block.iter().enumerate().fold(0u64, |m, (i, &b)| {
            m | (u64::from(!(0x20..0x7f).contains(&b)) << i)
        })
    }
}

/// Whether a line is plain printable text that needs no cleaning: only bytes 0x09 and
/// 0x20..=0x7e.
#[inline]
pub fn is_plain(bytes: &[u8]) -> bool {
    !crate::ascii::any_special(bytes, b'\t', [0x7f, 0x7f])
}

/// [`clean`] for a line whose plainness the splitter already found ([`Flags::plain`]).
/// Crate-private: it trusts `plain` without checking (a caller outside could pass `true` for
/// bytes that are not UTF-8); callers outside the crate use [`clean`].
pub(crate) fn clean_known(bytes: &[u8], plain: bool) -> Cow<'_, str> {
    if plain {
        // SAFETY: the splitter flags plain only lines that are (see `plain_text`).
        return Cow::Borrowed(unsafe { plain_text(bytes) });
    }
    clean(bytes)
}

/// The text of a line the splitter found plain ([`Flags::plain`]): its bytes, unchecked
/// (the check was the splitter's).
///
/// # Safety
/// `bytes` must be plain ([`is_plain`]), as a line [`LineSplitter`] flags plain is.
#[inline]
pub(crate) unsafe fn plain_text(bytes: &[u8]) -> &str {
    debug_assert!(is_plain(bytes));
    // SAFETY: plain lines hold only bytes 0x09 and 0x20..=0x7e (ASCII, so UTF-8).
    unsafe { std::str::from_utf8_unchecked(bytes) }
}

/// Turns one line of console bytes into text (see the module doc).
pub fn clean(bytes: &[u8]) -> Cow<'_, str> {
    if is_plain(bytes) {
        // SAFETY: `is_plain` admits only bytes 0x09 and 0x20..=0x7e, which are ASCII, and ASCII
        // is valid UTF-8. This skips a second validation pass over every line.
        return Cow::Borrowed(unsafe { std::str::from_utf8_unchecked(bytes) });
    }
    // A line with control bytes (escapes, CR, backspaces: a colored console) is cleaned
    // at once; one without is its own text when it is valid UTF-8.
    if !has_controls(bytes) {
        if let Ok(s) = std::str::from_utf8(bytes) {
            return Cow::Borrowed(s);
        }
    }
    Cow::Owned(clean_slow(bytes))
}

/// Whether `bytes` holds a control byte other than tab (below 0x20) or DEL: what [`clean`]
/// drops or applies. 16 bytes a step (the lines asked about are not plain: most hold
/// UTF-8 text), instead of a byte at a time.
fn has_controls(bytes: &[u8]) -> bool {
    #[cfg(target_arch = "x86_64")]
    if bytes.len() >= 16 {
        use std::arch::x86_64::*;
        let step = |at: usize| {
            // SAFETY: SSE2 is part of the x86_64 baseline; callers pass `at + 16 <= len`, so
            // the unaligned load reads inside `bytes`.
            unsafe {
                let v = _mm_loadu_si128(bytes.as_ptr().add(at) as *const __m128i);
                // Unsigned `v <= 0x1f`: the minimum with 0x1f is `v` itself.
                let low = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v);
                let tab = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\t' as i8));
                let del = _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f));
                _mm_movemask_epi8(_mm_or_si128(_mm_andnot_si128(tab, low), del)) != 0
            }
        };
        let mut at = 0;
        while at + 16 <= bytes.len() {
            if step(at) {
                return true;
            }
            at += 16;
        }
        // The last 1 to 15 bytes, in the 16 that end the line.
        return at < bytes.len() && step(bytes.len() - 16);
    }
    bytes.iter().any(|&b| (b < 0x20 && b != b'\t') || b == 0x7f)
}

fn clean_slow(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if (0x20..=0x7e).contains(&bytes[i]) {
            // The whole run of printable ASCII at once (most of an unclean line is text
            // between a few escapes), not a `push` per byte.
            let j = printable_run(bytes, i + 1);
            // SAFETY: `bytes[i..j]` holds only bytes 0x20..=0x7e: ASCII, valid UTF-8.
            out.push_str(unsafe { std::str::from_utf8_unchecked(&bytes[i..j]) });
            i = j;
        } else {
            i = clean_other(bytes, i, &mut out);
        }
    }
    out
}

/// [`clean_slow`]'s step on a byte that is not printable ASCII at `bytes[i]`: an escape
/// sequence skipped, a backspace or DEL applied, a tab kept, another control byte dropped,
/// a UTF-8 character kept, an invalid byte kept as `\xNN`. Returns where the next step starts.
fn clean_other(bytes: &[u8], i: usize, out: &mut String) -> usize {
    let b = bytes[i];
    match b {
        0x1b => skip_escape(bytes, i),
        0x9b => skip_csi(bytes, i + 1),
        0x08 | 0x7f => {
            out.pop();
            i + 1
        }
        b'\t' => {
            out.push('\t');
            i + 1
        }
        0..=0x1f => i + 1,
        _ => {
            let len = utf8_len(b);
            match bytes
                .get(i..i + len)
                .and_then(|s| std::str::from_utf8(s).ok())
            {
                Some(s) if len > 1 => {
                    out.push_str(s);
                    i + len
                }
                _ => {
                    out.push_str(&format!("\\x{b:02x}"));
                    i + 1
                }
            }
        }
    }
}

/// Where the run of printable ASCII (0x20..=0x7e) starting at `j` ends: 8 bytes a step.
fn printable_run(b: &[u8], mut j: usize) -> usize {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    while let Some(w) = crate::ascii::word_at(b, j) {
        // A byte below 0x20 (exact up to the first one: a borrow only spills above a hit),
        // or 0x7f and up (exact per byte: `(b & 0x7f) + 1` carries out of no byte).
        let below = w.wrapping_sub(0x20 * LO) & !w & HI;
        let above = (((w & !HI) + LO) | w) & HI;
        let m = below | above;
        if m != 0 {
            return j + (m.trailing_zeros() / 8) as usize;
        }
        j += 8;
    }
    while j < b.len() && (0x20..=0x7e).contains(&b[j]) {
        j += 1;
    }
    j
}

fn utf8_len(b: u8) -> usize {
    match b {
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => 1,
    }
}

/// Skips an escape sequence starting at `bytes[i] == ESC`; returns the index after it.
fn skip_escape(bytes: &[u8], i: usize) -> usize {
    match bytes.get(i + 1) {
        Some(b'[') => skip_csi(bytes, i + 2),
        Some(b']') | Some(b'P') | Some(b'_') | Some(b'^') => {
            // OSC / DCS / APC / PM: up to BEL or ST (ESC \).
            let mut j = i + 2;
            while j < bytes.len() {
                if bytes[j] == 0x07 {
                    return j + 1;
                }
                if bytes[j] == 0x1b && bytes.get(j + 1) == Some(&b'\\') {
                    return j + 2;
                }
                j += 1;
            }
            j
        }
        Some(b'(') | Some(b')') | Some(b'#') => (i + 3).min(bytes.len()),
        Some(_) => i + 2,
        None => i + 1,
    }
}

fn skip_csi(bytes: &[u8], mut j: usize) -> usize {
    while j < bytes.len() {
        if (0x40..=0x7e).contains(&bytes[j]) {
            return j + 1;
        }
        j += 1;
    }
    j
}

/// Pass 1 of `LineSplitter::feed_with` over one window `window..wend` of `chunk`: the
/// positions (from `window`) of the flagged bytes of its 64-byte blocks, written at `mp`;
/// their count.
///
/// # Safety
/// `window..wend` lies in `chunk` (`wend` at most its end) and holds at most FLAT_WINDOW
/// bytes; `mp` points to room for FLAT_WINDOW + 8 positions.
#[inline(always)]
unsafe fn flag_positions(
    chunk: &[u8],
    window: *const u8,
    wend: *const u8,
    mp: *mut u32,
    block_controls: &impl Fn(&[u8; 66]) -> u64,
) -> usize {
    let end = chunk.as_ptr_range().end;
    let mut n = 0usize;
    let mut block = window;
    while block < wend {
        let mask = if end as usize - block as usize >= 66 {
            // SAFETY: the 66 bytes at `block` lie in the chunk, and an array of bytes
            // needs no alignment.
            block_controls(unsafe { &*(block as *const [u8; 66]) })
        } else {
            // The last 1 to 65 bytes (the test above), 64 at a time, from a
            // zero-padded copy holding the two bytes after the block where the chunk
            // has them; the padding's bits dropped.
            let rest = end as usize - block as usize;
            let mut pad = [0u8; 66];
            pad[..rest].copy_from_slice(&chunk[chunk.len() - rest..]);
            block_controls(&pad) & (u64::MAX >> (64 - rest.min(64)))
        };
        // The block 1 KiB on, from L2 into L1 (see `L1_AHEAD`).
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch reads nothing and never faults, whatever the address.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(block.wrapping_add(L1_AHEAD) as *const i8);
        }
        let off = (block as usize - window as usize) as u32;
        let count = mask.count_ones() as usize;
        let mut m = mask;
        // SAFETY: `marks` holds room for FLAT_WINDOW + 8 positions and a window has
        // at most FLAT_WINDOW bytes, so `n + count <= FLAT_WINDOW` and the four
        // unconditional stores past `n` stay within `n + 4 <= FLAT_WINDOW + 8`.
        unsafe {
            for j in 0..4 {
                *mp.add(n + j) = off + m.trailing_zeros();
                m &= m.wrapping_sub(1);
            }
            let mut j = 4;
            while j < count {
                *mp.add(n + j) = off + m.trailing_zeros();
                m &= m.wrapping_sub(1);
                j += 1;
            }
        }
        n += count;
        block = block.wrapping_add(64);
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::needles::NeedleIndex;
    use proptest::strategy::Strategy;

    /// [`masks`] of a full 64-byte block with AVX2 (the splitter's block scan before it looked
    /// at the control bytes only, see [`controls_avx2`]): two 32-byte steps instead of four
    /// 16-byte ones, and a byte is not plain when `byte + 1`, as a signed byte, is below `0x21` (that
    /// folds DEL, the controls and the non-ASCII bytes into one compare). That compare also
    /// takes in the breaks, dropped with the break mask, and the tabs, which are rare: they are
    /// looked for only when a block has such a byte left ([`drop_tabs`]).
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn masks_avx2(block: &[u8; 64]) -> (u64, u64) {
        use std::arch::x86_64::*;
        // `\n` and `\r` at their low nibbles (0xa, 0xd), 0x80 elsewhere: a byte below 0x80 equals
        // its nibble's entry only if it is a break, and the shuffle gives 0 for the bytes from
        // 0x80 (none of which is 0).
        let mut table = [0x80u8; 16];
        table[usize::from(b'\n')] = b'\n';
        table[usize::from(b'\r')] = b'\r';
        // SAFETY (of the load): `table` holds 16 bytes; the load is unaligned.
        let breaks = _mm256_broadcastsi128_si256(_mm_loadu_si128(table.as_ptr() as *const __m128i));
        let one = _mm256_set1_epi8(1);
        let lim = _mm256_set1_epi8(0x21);
        let (mut m, mut low) = (0u64, 0u64);
        for k in 0..2 {
            // SAFETY (of the load): `block[32k..32k + 32]` exists; the load is unaligned.
            let v = _mm256_loadu_si256(block.as_ptr().add(32 * k) as *const __m256i);
            let brk = _mm256_cmpeq_epi8(_mm256_shuffle_epi8(breaks, v), v);
            // 0x7f + 1 and 0x80..=0xff + 1 wrap to negative or zero; 0x00..=0x1f + 1 are <= 0x20.
            let l = _mm256_cmpgt_epi8(lim, _mm256_add_epi8(v, one));
            m |= u64::from(_mm256_movemask_epi8(brk) as u32) << (32 * k);
            low |= u64::from(_mm256_movemask_epi8(l) as u32) << (32 * k);
        }
        // The breaks are below 0x20 too: what is left of `low` are the bytes not plain, and tabs.
        let bad = low & !m;
        if bad == 0 {
            return (m, 0);
        }
        (m, drop_tabs(block, bad))
    }

    /// `bad` without the bits of the tabs in `block` (bit i stands for `block[i]`): for
    /// [`masks_avx2`], whose compare takes them in, on the few blocks with such a byte.
    #[cfg(target_arch = "x86_64")]
    #[cold]
    #[inline(never)]
    fn drop_tabs(block: &[u8; 64], bad: u64) -> u64 {
        let mut rest = bad;
        let mut out = bad;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if block[i] == b'\t' {
                out &= !(1 << i);
            }
        }
        out
    }

    /// For `block` (at most 64 bytes): bit i of the first mask set where `block[i]` is `\n` or
    /// `\r`, of the second where it is not plain text (a control byte other than tab and the
    /// breaks, DEL, or not ASCII).
    #[inline]
    fn masks(block: &[u8]) -> (u64, u64) {
        #[cfg(target_arch = "x86_64")]
        if block.len() == 64 {
            use std::arch::x86_64::*;
            // SAFETY: SSE2 is part of the x86_64 baseline, and the four unaligned 16-byte loads
            // read `block[0..64]`, which exists.
            unsafe {
                let nl = _mm_set1_epi8(b'\n' as i8);
                let cr = _mm_set1_epi8(b'\r' as i8);
                let (mut m, mut bad) = (0u64, 0u64);
                for k in 0..4 {
                    let v = _mm_loadu_si128(block.as_ptr().add(16 * k) as *const __m128i);
                    let brk = _mm_or_si128(_mm_cmpeq_epi8(v, nl), _mm_cmpeq_epi8(v, cr));
                    // Signed: bytes >= 0x80 are negative, so `< 0x20` catches them too.
                    let low = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));
                    let ok_low = _mm_or_si128(brk, _mm_cmpeq_epi8(v, _mm_set1_epi8(0x09)));
                    let del = _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f));
                    let b = _mm_or_si128(_mm_andnot_si128(ok_low, low), del);
                    m |= u64::from(_mm_movemask_epi8(brk) as u16) << (16 * k);
                    bad |= u64::from(_mm_movemask_epi8(b) as u16) << (16 * k);
                }
                return (m, bad);
            }
        }
        block
            .iter()
            .enumerate()
            .fold((0u64, 0u64), |(m, bad), (i, &b)| {
                let brk = b == b'\n' || b == b'\r';
                let plain = (0x20..0x7f).contains(&b) || b == b'\t';
                (
                    m | (u64::from(brk) << i),
                    bad | (u64::from(!brk && !plain) << i),
                )
            })
    }

    /// The positions of `\n` and `\r` in a buffer, in order. One pass over the whole chunk, 64
    /// bytes per step, instead of a search call per line (which costs more than the line's bytes
    /// on short console lines).
    struct Breaks<'a> {
        hay: &'a [u8],
        /// Offset of the next block to scan.
        at: usize,
        /// Offset of the block `mask` describes.
        base: usize,
        /// Bit i: `hay[base + i]` is a line break not yet returned.
        mask: u64,
        /// Bit i: `hay[base + i]` is not plain text (see [`is_plain`]; breaks excluded).
        bad: u64,
        /// The last byte before `base` that is not plain text.
        bad_before: Option<usize>,
        /// The CPU has AVX2: full blocks are scanned 32 bytes a step.
        avx2: bool,
    }

    impl<'a> Breaks<'a> {
        fn new(hay: &'a [u8]) -> Self {
            Breaks {
                hay,
                at: 0,
                base: 0,
                mask: 0,
                bad: 0,
                bad_before: None,
                avx2: crate::cpu::avx2(),
            }
        }

        /// Whether `hay[start..end]` is plain text, for a line ending at the break just returned
        /// (`end`, in the current block).
        fn plain(&self, start: usize, end: usize) -> bool {
            if self.bad_before.is_some_and(|b| b >= start) {
                return false;
            }
            // Most blocks are all plain: no need to mask the line's bits.
            if self.bad == 0 {
                return true;
            }
            // Bits of the current block from max(start, base) up to end (exclusive).
            let lo = start.saturating_sub(self.base).min(64);
            let hi = end - self.base;
            let upto = if hi >= 64 { u64::MAX } else { (1u64 << hi) - 1 };
            let from = if lo >= 64 { 0 } else { !((1u64 << lo) - 1) };
            self.bad & upto & from == 0
        }
    }

    impl Iterator for Breaks<'_> {
        type Item = usize;

        #[inline]
        fn next(&mut self) -> Option<usize> {
            while self.mask == 0 {
                if self.at >= self.hay.len() {
                    return None;
                }
                let end = (self.at + 64).min(self.hay.len());
                if self.bad != 0 {
                    self.bad_before = Some(self.base + 63 - self.bad.leading_zeros() as usize);
                }
                let block = &self.hay[self.at..end];
                (self.mask, self.bad) = match block.try_into() {
                    #[cfg(target_arch = "x86_64")]
                    // SAFETY: `avx2` is only set when the CPU has AVX2.
                    Ok(b) if self.avx2 => unsafe { masks_avx2(b) },
                    _ => masks(block),
                };
                self.base = self.at;
                self.at = end;
            }
            let i = self.mask.trailing_zeros() as usize;
            self.mask &= self.mask - 1;
            Some(self.base + i)
        }
    }

    /// The splitter's `feed` as it was before its line loop was fused with the block scan
    /// (a [`Breaks`] iterator, a `plain` query per line), each line's hints from the
    /// chunk's [`NeedleIndex`] as the timeline asked them before the splitter found them
    /// (every word for a line joined to buffered bytes): the reference.
    fn feed_ref(s: &mut LineSplitter, chunk: &[u8], out: &mut impl FnMut(u64, &[u8], Flags)) {
        let mut ix = NeedleIndex::default();
        ix.index(chunk);
        let mut start = 0;
        if let Some(prev) = s.after.take() {
            if let Some(&b) = chunk.first() {
                if (prev == b'\n' && b == b'\r') || (prev == b'\r' && b == b'\n') {
                    start = 1;
                }
            } else {
                s.after = Some(prev);
                return;
            }
        }
        let mut breaks = Breaks::new(chunk);
        let mut carry = !s.buf.is_empty() || s.cutting;
        while let Some(pos) = breaks.next() {
            if pos < start {
                continue;
            }
            let term = chunk[pos];
            let body = &chunk[start..pos];
            s.line_no += 1;
            if !carry {
                let plain = breaks.plain(start, pos);
                let hints = ix.hints(body);
                let flags = Flags {
                    cut: false,
                    plain,
                    hints,
                };
                s.emit(body, flags, out);
            } else {
                carry = false;
                // A line already cut keeps its buffered start alone.
                let cut = std::mem::take(&mut s.cutting);
                if !cut {
                    s.buf.extend_from_slice(body);
                }
                let buf = std::mem::take(&mut s.buf);
                let flags = Flags {
                    cut,
                    plain: false,
                    hints: needles::ALL,
                };
                s.emit(&buf, flags, out);
                s.buf = buf;
                s.buf.clear();
            }
            let mut next = pos + 1;
            match chunk.get(next) {
                Some(&b) if b != b'\r' && b != b'\n' => {}
                Some(&b) => next += usize::from(b != term),
                None => s.after = Some(term),
            }
            start = next;
        }
        if !s.cutting {
            s.buf.extend_from_slice(&chunk[start.min(chunk.len())..]);
            if s.buf.len() > MAX_LINE {
                s.buf.truncate(MAX_LINE);
                s.cutting = true;
            }
        }
    }

    /// `clean_slow` as it was before it copied runs of text at once (a `push` per printable
    /// byte): the reference.
    fn clean_slow_ref(bytes: &[u8]) -> String {
        let mut out = String::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            if (0x20..=0x7e).contains(&bytes[i]) {
                out.push(bytes[i] as char);
                i += 1;
            } else {
                i = clean_other(bytes, i, &mut out);
            }
        }
        out
    }

    proptest::proptest! {
        /// Copying runs of text at once cleans every line as the byte-at-a-time loop did.
        #[test]
        fn clean_slow_is_the_byte_loop(bytes in proptest::collection::vec(
            proptest::prop_oneof![
                8 => proptest::sample::select(vec![b'a', b' ', b'~', b'[', b'm', b'0', b';']),
                2 => proptest::sample::select(vec![0x1bu8, 0x9b, 0x08, 0x7f, 0x09, 0x00, 0x0d, 0x07, b'\\', b']', b'(']),
                1 => 0x80u8..=0xff,
            ],
            0..120,
        )) {
            proptest::prop_assert_eq!(clean_slow(&bytes), clean_slow_ref(&bytes));
        }
    }

    proptest::proptest! {
        /// The 16-byte control search finds what the byte loop it stands for did.
        #[test]
        fn has_controls_is_the_byte_loop(bytes in proptest::collection::vec(
            proptest::prop_oneof![
                8 => proptest::sample::select(vec![b'a', b' ', b'~', 0x09u8, 0xc3, 0xa9, 0xe2, 0x80, 0xa6]),
                1 => proptest::sample::select(vec![0x00u8, 0x08, 0x0a, 0x0d, 0x1b, 0x1f, 0x20, 0x7e, 0x7f, 0x80, 0x9b, 0xff]),
            ],
            0..80,
        )) {
            let want = bytes.iter().any(|&b| (b < 0x20 && b != b'\t') || b == 0x7f);
            proptest::prop_assert_eq!(has_controls(&bytes), want);
        }

        /// The splitter's block scans (AVX2 where the CPU has it, SSE2, and the byte fold of
        /// other targets) flag exactly the bytes outside 0x20..=0x7e.
        #[test]
        fn controls_are_the_byte_rule(block in proptest::collection::vec(
            proptest::prop_oneof![0u8..=255, proptest::sample::select(vec![0x00u8, 0x09, 0x0a, 0x0d, 0x1f, 0x20, 0x7e, 0x7f, 0x80, 0xff])],
            64,
        )) {
            let b: &[u8; 64] = block.as_slice().try_into().unwrap();
            let want = block
                .iter()
                .enumerate()
                .fold(0u64, |m, (i, &c)| m | u64::from(!(0x20..=0x7e).contains(&c)) << i);
            proptest::prop_assert_eq!(controls(b), want);
            #[cfg(target_arch = "x86_64")]
            if crate::cpu::avx2() {
                // SAFETY: the CPU has AVX2.
                proptest::prop_assert_eq!(unsafe { controls_avx2(b) }, want);
            }
        }

        /// The splitter's block scans (AVX2 where the CPU has it, and the portable one) flag
        /// the control bytes of the block's first 64 and its needle candidates, by the byte
        /// rules.
        #[test]
        fn scans_are_controls_and_candidates(block in proptest::collection::vec(
            proptest::prop_oneof![
                1 => 0u8..=255,
                3 => proptest::sample::select(vec![b'@', b'a', b'o', b'h', b'r', b'\n', b'\t', 0x7f, 0x80]),
            ],
            66,
        )) {
            let b: &[u8; 66] = block.as_slice().try_into().unwrap();
            let ctl = block[..64]
                .iter()
                .enumerate()
                .fold(0u64, |m, (i, &c)| m | u64::from(!(0x20..=0x7e).contains(&c)) << i);
            let want = ctl | needles::candidates_ref(b);
            proptest::prop_assert_eq!(scan(b), want);
            #[cfg(target_arch = "x86_64")]
            if crate::cpu::avx2() {
                // SAFETY: the CPU has AVX2.
                proptest::prop_assert_eq!(unsafe { scan_avx2(b) }, want);
            }
        }

        /// The AVX2 block scan gives the portable scan's masks (where the CPU has AVX2).
        #[test]
        fn avx2_masks_are_the_byte_rule(block in proptest::collection::vec(
            proptest::prop_oneof![0u8..=255, proptest::sample::select(vec![0x09u8, 0x0a, 0x0d, 0x1f, 0x20, 0x7e, 0x7f, 0x80, 0xff])],
            64,
        )) {
            #[cfg(target_arch = "x86_64")]
            if crate::cpu::avx2() {
                let b: &[u8; 64] = block.as_slice().try_into().unwrap();
                // SAFETY: the CPU has AVX2.
                let got = unsafe { masks_avx2(b) };
                // The portable fold (a 63-byte prefix skips the SSE2 path), then the last byte.
                let (m, bad) = masks(&block[..63]);
                let (m1, bad1) = masks(&block[63..]);
                proptest::prop_assert_eq!(got, (m | m1 << 63, bad | bad1 << 63));
            }
        }

        #[test]
        fn breaks_are_every_cr_and_lf(bytes in proptest::collection::vec(
            proptest::sample::select(vec![b'a', b'\n', b'\r', b' ', 0x8d, 0x0a ^ 0x80]),
            0..300,
        )) {
            let want: Vec<usize> = bytes
                .iter()
                .enumerate()
                .filter(|(_, &b)| b == b'\n' || b == b'\r')
                .map(|(i, _)| i)
                .collect();
            let got: Vec<usize> = Breaks::new(&bytes).collect();
            proptest::prop_assert_eq!(got, want);
        }

        /// Any chunking of mostly plain text (so whole 64-byte blocks are plain, as in real
        /// logs) gives the lines of the byte rule: `\n` or `\r` ends a line, `\r\n` and
        /// `\n\r` end one; and the plain flag, when set, is right.
        #[test]
        fn chunked_lines_are_the_byte_rule(
            bytes in proptest::collection::vec(
                proptest::prop_oneof![
                    20 => proptest::sample::select(vec![b'a', b' ', b'\t', b'z']),
                    4 => proptest::sample::select(vec![b'\n', b'\r']),
                    1 => proptest::sample::select(vec![0x1bu8, 0x7f, 0x80, 0x00]),
                ],
                0..600,
            ),
            cuts in proptest::collection::vec(0usize..600, 0..6),
        ) {
            let mut want = Vec::new();
            let (mut i, mut start) = (0, 0);
            while i < bytes.len() {
                let b = bytes[i];
                if b == b'\n' || b == b'\r' {
                    want.push(bytes[start..i].to_vec());
                    if bytes.get(i + 1).is_some_and(|&c| c != b && (c == b'\n' || c == b'\r')) {
                        i += 1;
                    }
                    start = i + 1;
                }
                i += 1;
            }
            if start < bytes.len() {
                want.push(bytes[start..].to_vec());
            }
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(bytes.len())).collect();
            cuts.push(0);
            cuts.push(bytes.len());
            cuts.sort_unstable();
            let mut s = LineSplitter::new();
            let mut got = Vec::new();
            let mut out = |_, b: &[u8], f: Flags| {
                assert!(!f.plain || is_plain(b), "{b:?}");
                got.push(b.to_vec());
            };
            for w in cuts.windows(2) {
                s.feed(&bytes[w[0]..w[1]], &mut out);
            }
            s.finish(&mut out);
            proptest::prop_assert_eq!(got, want);
        }

        /// The fused line loop (with AVX2 where the CPU has it, and with the portable block
        /// scan) hands out what the reference `feed_ref` did: the same lines, numbers and
        /// flags (the hints equal to what the chunk's old needle index gave) and the same count
        /// of cut lines, however the input is chunked (breaks and partners across block and
        /// chunk edges, words across block edges, carried and overlong lines included).
        #[test]
        fn fused_feed_is_the_reference(
            parts in proptest::collection::vec(
                proptest::prop_oneof![
                    30 => proptest::sample::select(vec![
                        "a", " ", "\t", "\n", "\r", "\r\n", "\n\r", "\n\n", "\r\r",
                        "\x1b[0m", "\x7f", "\u{e9}", "abcdefghijklmnopqrstuvwxyz0123456789",
                        "autoboot", "oard", " reached after ", "@", "o", "r", "h", "aoh",
                    ])
                    .prop_map(|w| w.as_bytes().to_vec()),
                    1 => (MAX_LINE - 70..MAX_LINE + 140).prop_map(|n| vec![b'x'; n]),
                ],
                0..120,
            ),
            cuts in proptest::collection::vec(0usize..200_000, 0..8),
        ) {
            let bytes = parts.concat();
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(bytes.len())).collect();
            cuts.push(0);
            cuts.push(bytes.len());
            cuts.sort_unstable();
            type Feed = fn(&mut LineSplitter, &[u8], &mut dyn FnMut(u64, &[u8], Flags));
            let run = |feed: Feed| {
                let mut s = LineSplitter::new();
                let mut got = Vec::new();
                let mut out = |n, b: &[u8], f: Flags| got.push((n, b.to_vec(), f));
                for w in cuts.windows(2) {
                    feed(&mut s, &bytes[w[0]..w[1]], &mut out);
                }
                s.finish(&mut out);
                (got, s.cut_lines, s.lines())
            };
            let want = run(|s, c, out| feed_ref(s, c, &mut |n, b, f| out(n, b, f)));
            let fast = run(|s, c, out| s.feed(c, &mut |n, b, f| out(n, b, f)));
            let portable = run(|s, c, out| {
                s.feed_with(c, &mut |n, b: &[u8], f| out(n, b, f), scan)
            });
            proptest::prop_assert!(fast == want);
            proptest::prop_assert!(portable == want);
        }

        #[test]
        fn plain_flag_is_exact_within_a_chunk(bytes in proptest::collection::vec(
            proptest::sample::select(vec![b'a', b'\n', b'\r', b' ', b'\t', 0x1b, 0x7f, 0x80, 0xc3, 0x08, 0x00]),
            0..400,
        )) {
            let mut s = LineSplitter::new();
            let mut seen = Vec::new();
            s.feed(&bytes, &mut |_, b, f| seen.push((b.to_vec(), f.plain)));
            for (b, plain) in seen {
                proptest::prop_assert_eq!(plain, is_plain(&b), "{:?}", b);
            }
        }

        #[test]
        fn swar_plain_is_the_byte_rule(bytes in proptest::collection::vec(
            proptest::prop_oneof![0u8..=255, proptest::sample::select(vec![0x08u8, 0x09, 0x1f, 0x20, 0x7e, 0x7f, 0x80])],
            0..40,
        )) {
            let want = bytes.iter().all(|&b| (0x20..0x7f).contains(&b) || b == b'\t');
            proptest::prop_assert_eq!(is_plain(&bytes), want);
        }
    }

    fn split(chunks: &[&[u8]]) -> Vec<(u64, String)> {
        let mut s = LineSplitter::new();
        let mut v = Vec::new();
        for c in chunks {
            s.feed(c, &mut |n, b, f| {
                assert!(!f.plain || is_plain(b), "{b:?} flagged plain");
                v.push((n, String::from_utf8_lossy(b).into_owned()))
            });
        }
        s.finish(&mut |n, b, _| v.push((n, String::from_utf8_lossy(b).into_owned())));
        v
    }

    #[test]
    fn line_endings() {
        let want = vec![
            (1, "a".into()),
            (2, "b".into()),
            (3, "c".into()),
            (4, "d".into()),
        ];
        assert_eq!(split(&[b"a\nb\nc\nd"]), want);
        assert_eq!(split(&[b"a\r\nb\r\nc\r\nd\r\n"]), want);
        assert_eq!(split(&[b"a\n\rb\n\rc\n\rd\n\r"]), want);
        assert_eq!(split(&[b"a\rb\rc\rd\r"]), want);
    }

    /// Two-byte breaks whose partner is the first byte of the next block (the block then
    /// starts one byte later, so the next blocks are unaligned) and a second such break
    /// about a block later, in one chunk and cut at each break: `feed` is `feed_ref`.
    #[test]
    fn partners_at_block_edges_are_the_reference() {
        for pair in [&b"\r\n"[..], b"\n\r", b"\r\r", b"\n\n"] {
            for p1 in 58..70 {
                for gap in 60..68 {
                    let mut bytes = vec![b'x'; p1];
                    bytes.extend_from_slice(pair);
                    bytes.extend(std::iter::repeat(b'y').take(gap));
                    bytes.extend_from_slice(pair);
                    bytes.extend(std::iter::repeat(b'z').take(70));
                    let p2 = p1 + 2 + gap;
                    for cuts in [vec![], vec![p1 + 1], vec![p2 + 1], vec![p1 + 2, p2 + 1]] {
                        let run = |fast: bool| {
                            let mut s = LineSplitter::new();
                            let mut got = Vec::new();
                            let mut out = |n, b: &[u8], f: Flags| got.push((n, b.to_vec(), f));
                            let mut at = 0;
                            for &c in cuts.iter().chain([bytes.len()].iter()) {
                                if fast {
                                    s.feed(&bytes[at..c], &mut out);
                                } else {
                                    feed_ref(&mut s, &bytes[at..c], &mut out);
                                }
                                at = c;
                            }
                            s.finish(&mut out);
                            got
                        };
                        assert_eq!(run(true), run(false), "{pair:?} {p1} {gap} {cuts:?}");
                    }
                }
            }
        }
    }

    /// Breaks, partners, candidates and bytes that are not plain on either side of the
    /// two-pass splitter's window edges (`FLAT_WINDOW` from the scan's start, which is one
    /// past the chunk's start when its first byte is a partner), against the byte-rule
    /// reference.
    #[test]
    fn window_edges_are_the_reference() {
        let tails: [&[u8]; 6] = [b"\r\n", b"\n\r", b"\n", b"\x1b[0m\n", b"oard\n", b"@\t\r"];
        for lead in [0usize, 1] {
            for tail in tails {
                for at in FLAT_WINDOW - 6..FLAT_WINDOW + 3 {
                    // A first line ending just before, on or after the window's edge, a few
                    // lines across the next edge too, and a partner to skip at the start.
                    let mut bytes = if lead == 1 {
                        b"\n".to_vec()
                    } else {
                        Vec::new()
                    };
                    bytes.extend(std::iter::repeat(b'x').take(at));
                    bytes.extend_from_slice(tail);
                    while bytes.len() < 2 * FLAT_WINDOW + 200 {
                        bytes.extend_from_slice(b"[    1.000000] board ok\r\n");
                    }
                    let run = |fast: bool| {
                        let mut s = LineSplitter::new();
                        s.after = (lead == 1).then_some(b'\r');
                        let mut got = Vec::new();
                        let mut out = |n, b: &[u8], f: Flags| got.push((n, b.to_vec(), f));
                        if fast {
                            s.feed(&bytes, &mut out);
                        } else {
                            feed_ref(&mut s, &bytes, &mut out);
                        }
                        s.finish(&mut out);
                        got
                    };
                    assert_eq!(run(true), run(false), "{lead} {tail:?} {at}");
                }
            }
        }
    }

    #[test]
    fn line_endings_split_across_chunks() {
        let want = vec![
            (1, "a".into()),
            (2, "b".into()),
            (3, "".into()),
            (4, "c".into()),
        ];
        assert_eq!(split(&[b"a\r", b"\nb\n", b"\r", b"\nc"]), want);
        assert_eq!(split(&[b"a\n", b"\r", b"b\n\n", b"c"]), want);
    }

    #[test]
    fn blank_lines_are_counted() {
        assert_eq!(split(&[b"\n\nx\n"]).last().unwrap(), &(3, "x".to_string()));
    }

    /// A line longer than [`MAX_LINE`] is one line, handed out cut to its first `MAX_LINE`
    /// bytes, however it is chunked: the lines after it keep the file's numbers.
    #[test]
    fn long_lines_are_one_line_cut() {
        for len in [MAX_LINE, MAX_LINE + 1, MAX_LINE * 2 + 10, 1 << 20] {
            let mut bytes = b"first\n".to_vec();
            bytes.extend(std::iter::repeat(b'x').take(len));
            bytes.extend_from_slice(b"\nnext\n");
            for chunk in [7, 1000, FLAT_WINDOW + 3, MAX_LINE, bytes.len()] {
                let mut s = LineSplitter::new();
                let mut got = Vec::new();
                let mut out = |n, b: &[u8], f: Flags| got.push((n, b.len(), f.cut));
                for c in bytes.chunks(chunk) {
                    s.feed(c, &mut out);
                }
                s.finish(&mut out);
                let cut = len > MAX_LINE;
                assert_eq!(
                    got,
                    [(1, 5, false), (2, len.min(MAX_LINE), cut), (3, 4, false)],
                    "{len} {chunk}"
                );
                assert_eq!(s.cut_lines, u64::from(cut));
                assert_eq!(s.lines(), 3);
            }
        }
        // One with no break after it: flushed by `finish`, still cut.
        let mut s = LineSplitter::new();
        let mut got = Vec::new();
        let mut out = |n, b: &[u8], f: Flags| got.push((n, b.len(), f.cut));
        s.feed(&vec![b'y'; MAX_LINE + 5], &mut out);
        s.finish(&mut out);
        assert_eq!(got, [(1, MAX_LINE, true)]);
    }

    #[test]
    fn ansi_escapes_are_removed() {
        assert_eq!(clean(b"\x1b[1;32mOK\x1b[0m done"), "OK done");
        assert_eq!(clean(b"\x1b]0;title\x07text"), "text");
        assert_eq!(clean(b"\x1b(Bplain"), "plain");
    }

    #[test]
    fn backspaces_are_applied() {
        assert_eq!(
            clean(b"Hit any key to stop autoboot:  3\x08\x08\x08 2"),
            "Hit any key to stop autoboot: 2"
        );
    }

    #[test]
    fn nul_and_control_bytes_are_dropped_tabs_kept() {
        assert_eq!(clean(b"\x00\x00U-Boot\x07 x\ty"), "U-Boot x\ty");
    }

    #[test]
    fn invalid_utf8_is_escaped() {
        assert_eq!(clean(b"ab\xffcd\xc3"), "ab\\xffcd\\xc3");
        assert_eq!(clean("unit…".as_bytes()), "unit…");
    }
}
