//! Linux grammar: printk timestamps, the boot banner, `Run /init`, initcall_debug lines, panics.

use crate::ascii::{eq_mask, word_at};
use crate::declaration::Gate;

/// A printk line: its timestamp (seconds) and message.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Printk<'a> {
    /// `[    1.962102]` in seconds.
    pub ts: f64,
    /// The message after the stamp (and an optional `[    T1]` caller id).
    pub msg: &'a str,
}

/// `0.<digits>` as an f64, exactly as `format!("0.{digits}").parse()` (0.0 when that fails),
/// without allocating for the usual short fractions: this runs once per printk line.
pub(crate) fn fraction(digits: &str) -> f64 {
    let d = digits.as_bytes();
    if d.len() < POW10.len() && d.iter().all(u8::is_ascii_digit) {
        let n = d.iter().fold(0u64, |a, &c| a * 10 + u64::from(c - b'0'));
        if let Some(v) = decimal(n, d.len()) {
            return v;
        }
    }
    let mut buf = [0u8; 40];
    let n = digits.len() + 2;
    if n > buf.len() {
        return format!("0.{digits}").parse().unwrap_or(0.0);
    }
    buf[..2].copy_from_slice(b"0.");
    buf[2..n].copy_from_slice(digits.as_bytes());
    std::str::from_utf8(&buf[..n])
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0.0)
}

/// `n / 10^places` when that is exact to compute (`places` <= 15 and `n` < 10^15, so both are
/// exact doubles and the one division rounds once, to the value parsing the decimal gives);
/// `None` otherwise. Every stamp scanner turns its digits into seconds through this.
pub(crate) fn decimal(n: u64, places: usize) -> Option<f64> {
    (places < POW10.len() && n < 1_000_000_000_000_000).then(|| n as f64 / POW10[places])
}

/// The powers of ten up to 10^15 as integers, to scale a whole part by its fraction's places.
pub(crate) const POW10_U64: [u64; 16] = {
    let mut t = [1u64; 16];
    let mut i = 1;
    while i < 16 {
        t[i] = t[i - 1] * 10;
        i += 1;
    }
    t
};

/// Exact powers of ten up to 10^15, for fractions short enough to divide exactly.
const POW10: [f64; 16] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

/// A printk stamp `[ *digits.digits]` at the start of `b`: its seconds and its length in bytes.
///
/// The hand-written twin of the nom `stamp` grammar (same language, same value: whole seconds
/// as a u64, 0 when they overflow, plus `0.<digits>` parsed), because it runs on every
/// `[`-line, in the host-stamp layer too. A fraction of up to 15 digits and 10^n are exact
/// doubles, so one IEEE division gives the correctly rounded value that parsing gives.
#[inline]
pub(crate) fn stamp_len(b: &[u8]) -> Option<(f64, usize)> {
    // Inlined first-byte check: most texts asked are not `[`-lines and pay no call.
    if b.first() != Some(&b'[') {
        return None;
    }
    // A stamp is at least `[0.0]`: a length of 0 is no stamp.
    let (ts, n) = stamp_after_bracket(b);
    (n != 0).then_some((ts, n))
}

/// `(seconds, length)` for a stamp, `(0.0, 0)` for none: the answer of [`stamp_len`]'s
/// out-of-line readers in two registers (an `Option` of the pair went through memory, a store
/// and a load of each part on every `[`-line).
type Found = (f64, usize);

/// [`Found`] of a reader's `Option`.
#[inline(always)]
fn found(s: Option<(f64, usize)>) -> Found {
    s.unwrap_or((0.0, 0))
}

/// [`stamp_len`] of a `b` that starts with `[`: the kernel's own `[%5lu.%06lu]` layout by
/// [`stamp_fixed`], anything else by [`stamp_general`] unless [`first_other`] and
/// [`stamp_after_dot`] rule it out first (each call in tail position, so that the fixed
/// layout's path saves no registers).
#[inline(never)]
fn stamp_after_bracket(b: &[u8]) -> Found {
    match stamp_fixed(b) {
        Some(s) => s,
        // A stamp has a blank or a digit after its `[`: `[BOOTLOADER_PROFILE]`, `[KPI]`,
        // `[FAILED]` and the like are turned away without the general reader, and so are
        // `[  OK  ]`, `[  5]`, `[0]crc`, `[2024-03-29 ...`, whose first byte that is no blank
        // and no digit is no `.` (a stamp's is the `.` of `[ *digits.`).
        None if matches!(b.get(1), Some(b' ' | b'\t' | b'0'..=b'9')) => match first_other(b) {
            Some((_, c)) if c != b'.' => (0.0, 0),
            Some((k, _)) => stamp_after_dot(b, k + 1),
            None => found(stamp_general(b)),
        },
        None => (0.0, 0),
    }
}

/// The first of bytes 1..9 of `b` that is no blank and no digit, and where it is; `None`
/// when all 8 are blanks or digits, or `b` is shorter than 9 bytes.
#[inline(always)]
fn first_other(b: &[u8]) -> Option<(usize, u8)> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = LO << 7;
    let w = word_at(b, 1)?;
    // The high bit of each byte of `x` that is not zero (exact per byte: no carries).
    let nonzero = |x: u64| ((x & !HI).wrapping_add(!HI) | x) & HI;
    // Digits: zero bytes of `digit_run`'s mask, exact up to the first byte that is no digit
    // (a carry only starts at a byte of 0xFA or more, which is flagged itself).
    let digit = ((w & 0xF0F0_F0F0_F0F0_F0F0) ^ (LO * 0x30))
        | ((w.wrapping_add(LO * 0x06) & 0xF0F0_F0F0_F0F0_F0F0) ^ (LO * 0x30));
    let other =
        nonzero(digit) & nonzero(w ^ (LO * u64::from(b' '))) & nonzero(w ^ (LO * u64::from(b'\t')));
    if other == 0 {
        return None;
    }
    let at = other.trailing_zeros() / 8;
    Some((1 + at as usize, (w >> (8 * at)) as u8))
}

/// [`stamp_len`] of a `[`-text whose first byte past its blanks and digits is a `.` at
/// `i - 1`: `None` at once when the 8 bytes from `i` hold a run of digits that is empty or
/// ends in no `]` (grabserial's `[abs delta]` has a blank there), else [`stamp_general`].
#[inline(never)]
fn stamp_after_dot(b: &[u8], i: usize) -> Found {
    if let Some(f) = word_at(b, i) {
        let nf = digit_run(f);
        if nf < 8 && (nf == 0 || (f >> (8 * nf)) as u8 != b']') {
            return (0.0, 0);
        }
    }
    found(stamp_general(b))
}

/// [`stamp_len`] of a `[`-text laid out as printk prints its stamps, `[%5lu.%06lu]` (blanks,
/// then 1 to 5 digits, filling 5 bytes; `.`; 6 digits; `]`), checked with two 8-byte words
/// and no loop; `None` for any other text, which [`stamp_general`] then reads. Where it
/// answers, it answers what `stamp_general` does: the same 11 digits as one exact integer,
/// divided once by 1e6. (Its first byte is not looked at: callers know it is `[`.)
#[inline(always)]
pub(crate) fn stamp_fixed(b: &[u8]) -> Option<(f64, usize)> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = LO << 7;
    // Bytes 6..14, `.ffffff]`, xor their layout: the ends zero, digit values between. One
    // add flags a byte past 9 (digits) or past 0 (ends); a byte of 0x80 or more is flagged
    // by itself, and a carry only leaves a byte already flagged.
    let t = word_at(b, 6)? ^ u64::from_le_bytes(*b".000000]");
    if (t.wrapping_add(0x7F76_7676_7676_767F) | t) & HI != 0 {
        return None;
    }
    // Bytes 1..6, the seconds field, xor `0`: digits become their values, blanks 0x10.
    let h = (word_at(b, 0)? ^ (LO * u64::from(b'0'))) & 0x0000_FFFF_FFFF_FF00;
    // Bit 4 of bytes 1..5 (byte 5, the last, must be a digit): the blanks, if valid; `m`
    // their bytes all ones, which must be a run from byte 1 (no blank after a digit).
    let d = h & 0x0000_0010_1010_1000;
    let m = (d >> 4).wrapping_mul(0xFF);
    let z = h ^ d;
    // Blanks' bytes must now be 0 (+ 0x7F flags any other), digits' at most 9 (+ 0x76).
    let add = 0x0000_7676_7676_7600 + (m & 0x0000_0009_0909_0900);
    if m & m.wrapping_add(0x100) != 0 || (z.wrapping_add(add) | z) & 0x0000_8080_8080_8000 != 0 {
        return None;
    }
    // The 11 digits as two 8-digit words (first byte most significant): `000` then the
    // seconds' first three digits, and their last two then the six of the fraction.
    let whole = eight_digits(z << 32) * 100_000_000 + eight_digits((t << 8) | (z >> 32));
    // One exact integer, divided once: the decimal the stamp spells, rounded once (a sum of
    // the whole and the fraction could round twice: 1.133506 as 1.1335060000000001).
    Some((whole as f64 / POW10[6], 14))
}

/// The seconds field of the last `[%5lu.%06lu]` stamp read (bytes 0..6 of its text) and its
/// value in microseconds: consecutive printk lines mostly share their second, whose field
/// then needs neither a check (it equals one [`stamp_fixed`] checked) nor a reading.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct StampMemo {
    /// Bytes 0..6 of the last stamp, as a little-endian word (0: none yet, as a stamp's
    /// first byte is `[`).
    head: u64,
    /// Its seconds, in microseconds.
    micros: u64,
}

impl StampMemo {
    /// [`stamp_fixed`]'s seconds for `b` (which starts with `[`), the seconds field taken
    /// from the memo when it is the last one's.
    #[inline(always)]
    pub(crate) fn read(&mut self, b: &[u8]) -> Option<f64> {
        let t = word_at(b, 6)? ^ u64::from_le_bytes(*b".000000]");
        if (t.wrapping_add(0x7F76_7676_7676_767F) | t) & (0x0101_0101_0101_0101u64 << 7) != 0 {
            return None;
        }
        let frac = eight_digits(t << 8);
        let head = word_at(b, 0)? & 0x0000_FFFF_FFFF_FFFF;
        if head != self.head {
            let (v, _) = stamp_fixed(b)?;
            // v is the integer below over 10^6, rounded once: times 10^6 it rounds back.
            let all = (v * POW10[6]).round() as u64;
            self.head = head;
            self.micros = all - frac;
        }
        Some((self.micros + frac) as f64 / POW10[6])
    }

    /// [`Self::read`]'s first steps, for a caller that splits its work by their answer:
    /// `None` when `read` answers `None` at once (no `.dddddd]` at bytes 6..14), else
    /// whether the seconds field is the memo's (then `read` is [`Self::read_same`]; else it
    /// reads the whole stamp). Only loads, compares and adds: a caller that hands each case
    /// to another function (a jump) needs no frame for it.
    #[inline(always)]
    #[cfg(test)]
    pub(crate) fn same_second(&self, b: &[u8]) -> Option<bool> {
        self.same_second_word(b).map(|(same, _)| same)
    }

    /// [`Self::same_second`] with the word it checked (bytes 6..14 of `b` xor their layout),
    /// which [`Self::read_same_word`] reads the fraction from with no second load.
    #[inline(always)]
    pub(crate) fn same_second_word(&self, b: &[u8]) -> Option<(bool, u64)> {
        let t = word_at(b, 6)? ^ u64::from_le_bytes(*b".000000]");
        if (t.wrapping_add(0x7F76_7676_7676_767F) | t) & (0x0101_0101_0101_0101u64 << 7) != 0 {
            return None;
        }
        let head = word_at(b, 0)? & 0x0000_FFFF_FFFF_FFFF;
        Some((head == self.head, t))
    }

    /// [`Self::read`] of a `b` for which [`Self::same_second`] is `Some(true)`: the memo's
    /// seconds and the six fraction digits.
    #[inline(always)]
    #[cfg(test)]
    pub(crate) fn read_same(&self, b: &[u8]) -> f64 {
        let (same, t) = self.same_second_word(b).unwrap_or((false, 0));
        debug_assert!(same);
        self.read_same_word(t)
    }

    /// [`Self::read_same`] of the word `t` that [`Self::same_second_word`] answered with
    /// (`Some((true, t))`): the memo's seconds and the six fraction digits.
    #[inline(always)]
    pub(crate) fn read_same_word(&self, t: u64) -> f64 {
        // `same_second_word` checked the word's layout: bytes 1..7 of `t` are the digits.
        let frac = eight_digits(t << 8);
        // As a signed integer (below 10^11 either way, so the same value): one conversion
        // instruction, where an unsigned one took five without AVX-512.
        (self.micros + frac) as i64 as f64 / POW10[6]
    }
}

/// The number whose eight decimal digits are the bytes of `v` (each 0..=9, first byte the
/// most significant): pairs, then quads, then the whole, by multiplies (Lemire's reading of
/// eight digits).
#[inline(always)]
fn eight_digits(v: u64) -> u64 {
    let v = v.wrapping_mul(10).wrapping_add(v >> 8);
    const MASK: u64 = 0x0000_00FF_0000_00FF;
    (((v & MASK).wrapping_mul(100 + (1_000_000 << 32)))
        .wrapping_add(((v >> 16) & MASK).wrapping_mul(1 + (10_000 << 32))))
        >> 32
}

/// The value of the six digits of a word laid out `.dddddd` then `end` (first byte lowest),
/// `None` for a word laid out otherwise: the fraction of a printk stamp (`end` is `]`) or of a
/// grabserial number (`end` is the blank before the next one), checked in one go.
#[inline(always)]
pub(crate) fn dot_six(w: u64, end: u8) -> Option<u64> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = LO << 7;
    // The word xor its layout: zeros at the ends, digit values between. (`+ 0x76` sets a
    // byte's high bit when it is past 9; a byte of 0x80 or more has it already, and the carry
    // it may send up only flags more: either way it is out.)
    let x = w ^ (u64::from_le_bytes(*b".000000\0") | u64::from(end) << 56);
    const ENDS: u64 = 0xFF00_0000_0000_00FF;
    if ((x.wrapping_add(LO * 0x76) | x) & HI) | (x & ENDS) != 0 {
        return None;
    }
    Some(six_digits(x >> 8))
}

/// The number whose six decimal digits are the values of bytes 0..6 of `v` (each 0..=9,
/// first byte the most significant; bytes 6 and 7 zero).
#[inline(always)]
pub(crate) fn six_digits(v: u64) -> u64 {
    // Byte pairs: 10 * a digit + the next, in bytes 0, 2, 4 (no byte passes 99).
    let p = (v.wrapping_mul(10) + (v >> 8)) & 0x0000_00FF_00FF_00FF;
    (p & 0xFF) * 10_000 + ((p >> 16) & 0xFF) * 100 + (p >> 32)
}

/// [`stamp_len`] of a `b` that starts with `[`, any layout.
#[inline(never)]
fn stamp_general(b: &[u8]) -> Option<(f64, usize)> {
    let mut i = 1;
    // The blanks that pad the seconds, a word at a time, then any rest (tabs) by bytes.
    if let Some(w) = word_at(b, 1) {
        i += first_nonzero_byte(w ^ u64::from_le_bytes(*b"        "));
    }
    while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
        i += 1;
    }
    match stamp_words(b, i) {
        Some(decided) => decided,
        None => stamp_digits(b, i),
    }
}

/// How many of the bytes of `w` (first byte lowest) are ASCII digits before the first one
/// that is not (8 when all are). A borrow or carry between bytes only reaches bytes after a
/// non-digit, so the first flagged byte is exact.
#[inline]
pub(crate) fn digit_run(w: u64) -> usize {
    const HI_NIBBLES: u64 = 0xF0F0_F0F0_F0F0_F0F0;
    const THREES: u64 = 0x3030_3030_3030_3030;
    // Non-zero bytes: a high nibble other than 3, or 3 with a low nibble past 9.
    let m = ((w & HI_NIBBLES) ^ THREES)
        | ((w.wrapping_add(0x0606_0606_0606_0606) & HI_NIBBLES) ^ THREES);
    first_nonzero_byte(m)
}

/// The index of the first non-zero byte of `m` (first byte lowest), 8 when all are zero.
#[inline]
fn first_nonzero_byte(m: u64) -> usize {
    let flags = ((m & 0x7F7F_7F7F_7F7F_7F7F).wrapping_add(0x7F7F_7F7F_7F7F_7F7F) | m)
        & 0x8080_8080_8080_8080;
    (flags.trailing_zeros() / 8) as usize
}

/// The value of the first `n` (1..=8) bytes of `w`, all ASCII digits, first byte the most
/// significant: the digits shifted to the top (zeros before them), then summed in pairs.
#[inline]
pub(crate) fn digits_value(w: u64, n: usize) -> u64 {
    let keep = if n == 8 { !0 } else { (1u64 << (8 * n)) - 1 };
    let mut v = (w.wrapping_sub(0x3030_3030_3030_3030) & keep) << (8 * (8 - n));
    v = (v & 0x0F0F_0F0F_0F0F_0F0F).wrapping_mul(2561) >> 8;
    v = (v & 0x00FF_00FF_00FF_00FF).wrapping_mul(6_553_601) >> 16;
    (v & 0x0000_FFFF_0000_FFFF).wrapping_mul(42_949_672_960_001) >> 32
}

/// [`stamp_len`] for stamps with under 8 digits on either side of the `.`, read a word at a
/// time: `Some` with the answer when it could decide, `None` to leave it to [`stamp_digits`]
/// (longer runs of digits, or too few bytes left to load a word).
#[inline]
fn stamp_words(b: &[u8], ws: usize) -> Option<Option<(f64, usize)>> {
    let w = word_at(b, ws)?;
    let nw = digit_run(w);
    if nw == 8 {
        return None;
    }
    if nw == 0 || b[ws + nw] != b'.' {
        return Some(None);
    }
    let fs = ws + nw + 1;
    let f = word_at(b, fs)?;
    let nf = digit_run(f);
    if nf == 8 {
        return None;
    }
    if nf == 0 || b[fs + nf] != b']' {
        return Some(None);
    }
    // Under 8 digits a side: 10^nf * whole + frac is below 10^15, so `decimal` gives the
    // stamp's decimal rounded once, as `stamp_digits` does.
    let n = digits_value(w, nw) * POW10_U64[nf] + digits_value(f, nf);
    Some(Some((decimal(n, nf)?, fs + nf + 1)))
}

/// [`stamp_len`] after the `[` and blanks (from `i`), a byte at a time: any length of digits.
fn stamp_digits(b: &[u8], mut i: usize) -> Option<(f64, usize)> {
    // Digits folded with wrapping arithmetic; runs too long to be exact are redone below.
    let digits = |i: &mut usize| {
        let start = *i;
        let (v, end) = crate::ascii::fold_digits(b, start, 0);
        *i = end;
        (v, end - start)
    };
    let ws = i;
    let (whole, nw) = digits(&mut i);
    if nw == 0 || b.get(i) != Some(&b'.') {
        return None;
    }
    i += 1;
    let (frac, nf) = digits(&mut i);
    if nf == 0 || b.get(i) != Some(&b']') {
        return None;
    }
    // The decimal the stamp spells, rounded once: one exact integer divided once when the
    // digits number under 16 (below 10^15 then), else parsed (ASCII digits and a `.`).
    let v = if nw + nf < 16 {
        decimal(whole * POW10_U64[nf] + frac, nf)
    } else {
        None
    };
    let v = v.unwrap_or_else(|| {
        std::str::from_utf8(&b[ws..i])
            .ok()
            .and_then(|d| d.parse().ok())
            .unwrap_or(0.0)
    });
    Some((v, i + 1))
}

/// The length of a `[ *T123]` / `[ *C1]` caller id at the start of `b`, if there is one.
fn caller_len(b: &[u8]) -> Option<usize> {
    if b.first() != Some(&b'[') {
        return None;
    }
    let mut i = 1;
    while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
        i += 1;
    }
    if !matches!(b.get(i), Some(b'T' | b'C')) {
        return None;
    }
    i += 1;
    let start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    (i > start && b.get(i) == Some(&b']')).then_some(i + 1)
}

/// Parses `[    1.962102] msg` (also with a `[    T1]` caller id).
pub fn printk(t: &str) -> Option<Printk<'_>> {
    let (ts, n) = stamp_len(t.as_bytes())?;
    Some(printk_after(t, ts, n))
}

/// The [`Printk`] of `t` whose stamp [`stamp_len`] already read as `(ts, n)`. Always
/// inlined (plain `#[inline]` did not take in the timeline's big callers): it runs on every
/// printk line, and its call cost about as much as its few byte tests.
#[inline(always)]
pub(crate) fn printk_after(t: &str, ts: f64, n: usize) -> Printk<'_> {
    let b = t.as_bytes();
    let mut i = n;
    // A caller id starts with `[`: other messages pay one byte test.
    if b.get(i) == Some(&b'[') {
        if let Some(c) = caller_len(&b[i..]) {
            i += c;
        }
    }
    if b.get(i) == Some(&b' ') {
        i += 1;
    }
    // Both scanners stop on ASCII bytes, so the cut is on a char boundary.
    Printk { ts, msg: &t[i..] }
}

/// A kernel message the timeline cares about.
#[derive(Debug, Clone, PartialEq)]
pub enum KernelLine<'a> {
    /// `Booting Linux on physical CPU ...`.
    Booting,
    /// `Uncompressing Linux... done, booting the kernel.` (zImage decompressor).
    Uncompressing,
    /// `Linux version 6.1.21-v8+ (...)`: the release.
    Version(&'a str),
    /// `Kernel command line: ...`.
    CmdLine(&'a str),
    /// `Machine model: ...`.
    Machine(&'a str),
    /// `Freeing unused kernel memory` / `image`: init is about to run.
    FreeingUnused,
    /// `Run /init as init process`, any path (`/sbin/init`, `/bin/sh`, an `init=`): user
    /// space begins.
    RunInit(&'a str),
    /// `calling  foo+0x0/0x90 @ 1`.
    Calling(&'a str),
    /// `initcall foo+0x0/0x90 returned 0 after 61000 usecs`.
    Initcall {
        /// Function name without offset.
        name: &'a str,
        /// Return value.
        ret: i64,
        /// Duration.
        usecs: u64,
    },
    /// `Kernel panic - not syncing: ...`.
    Panic(&'a str),
    /// `probe of fe340000.mmc returned 0 after 5120 usecs` (initcall_debug, drivers/base/dd.c).
    Probe {
        /// The device's name.
        device: &'a str,
        /// Return value (-517: deferred).
        ret: i64,
        /// Duration.
        usecs: u64,
    },
}

/// The lines [`line`] may take (see [`crate::gate`]).
pub const GATE: Gate = Gate {
    prefixes: &[
        "Booting Linux",
        "Uncompressing Linux",
        "Linux version ",
        "Kernel command line: ",
        "Kernel panic - not syncing",
        "Machine model: ",
        "Freeing unused kernel",
        "Run ",
        "calling ",
        "initcall ",
        "probe of ",
    ],
    other: None,
    words: 0,
};

fn func_name(s: &str) -> &str {
    // A word at a time (names are short: less than a memchr call costs).
    let b = s.as_bytes();
    let mut i = 0;
    while let Some(w) = word_at(b, i) {
        let z = eq_mask(w, b'+');
        if z != 0 {
            return &s[..i + (z.trailing_zeros() / 8) as usize];
        }
        i += 8;
    }
    b[i..]
        .iter()
        .position(|&c| c == b'+')
        .map_or(s, |k| &s[..i + k])
}

/// Where the first `+`, byte below 0x21 or byte of 0x80 or more of `b` is (`b.len()` when
/// none), 16 bytes a step by SSE2 while 16 are left, then 8: where a function name may end. initcall_debug lines name a
/// function in every `calling` and `initcall` line.
fn name_stop(b: &[u8]) -> usize {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = LO << 7;
    let mut i = 0;
    // 16 bytes a step first (names are mostly shorter), then words, then bytes.
    while let Some(m) = crate::ascii::below_0x21_or_high(b, i, b'+') {
        if m != 0 {
            return i + m.trailing_zeros() as usize;
        }
        i += 16;
    }
    while let Some(x) = word_at(b, i) {
        // Each flag is exact up to its first byte, so the lowest of them is exact.
        let m = eq_mask(x, b'+') | (x.wrapping_sub(LO * 0x21) & !x & HI) | (x & HI);
        if m != 0 {
            return i + (m.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    i + b[i..]
        .iter()
        .position(|&c| c == b'+' || !(0x21..0x80).contains(&c))
        .unwrap_or(b.len() - i)
}

/// `(func_name(w).len(), w.len())` for `w` the first word of `s` (`&s[..word_end(s)]`),
/// from one [`name_stop`] scan. Inlined into [`line_full`], which saves the registers its
/// loops need anyway (a call of its own saved six more).
#[inline(always)]
fn name_and_word_end(s: &str) -> (usize, usize) {
    let b = s.as_bytes();
    let stop = name_stop(b);
    if b.get(stop) == Some(&b'+') {
        return (stop, crate::ascii::word_end_from(s, stop));
    }
    // `s[..stop]` is ASCII without blanks or `+`: `stop` is a char boundary.
    let word = stop + crate::ascii::word_end(&s[stop..]);
    (stop + func_name(&s[stop..word]).len(), word)
}

/// `func_name(w)` for `w` the first word of `s` (which starts with no blank): the name ends
/// at a `+` or an ASCII blank, which [`name_stop`] finds without looking for the word's end.
/// Inlined into [`line_full`], as [`name_and_word_end`] is.
#[inline(always)]
fn name_of_first_word(s: &str) -> &str {
    let stop = name_stop(s.as_bytes());
    match s.as_bytes().get(stop) {
        None | Some(b'+' | b' ' | b'\t'..=b'\r') => &s[..stop],
        _ => &s[..name_and_word_end(s).0],
    }
}

/// The `initcall` grammar by hand (initcall_debug prints one per initcall: thousands per
/// boot); the same language and values as the nom `reference::initcall`, which a proptest compares.
fn initcall_fast(m: &str) -> Option<KernelLine<'_>> {
    initcall_parts(m).map(|(name, ret, usecs)| KernelLine::Initcall { name, ret, usecs })
}

/// [`initcall_fast`]'s answer as its parts `(name, ret, usecs)`, for the timeline's path for
/// initcall_debug lines, which stores them with no [`KernelLine`] in between.
#[inline(always)]
pub(crate) fn initcall_parts(m: &str) -> Option<(&str, i64, u64)> {
    let r = m.strip_prefix("initcall ")?;
    let (name_len, f_len) = name_and_word_end(r);
    if f_len == 0 {
        return None;
    }
    // The rest by byte index: ` returned `, blanks, `-`?, digits, ` after `, blanks, digits,
    // ` usecs`. Each digit run is folded as it is read (wrapping: runs over 18 digits, which
    // may not fit, are parsed from their text below).
    let b = r.as_bytes();
    let blanks = |mut i: usize| {
        while matches!(b.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        i
    };
    if let Some((ret, usecs)) = initcall_tail_fixed(b, f_len) {
        return Some((&r[..name_len], ret, usecs));
    }
    let digits = |i: usize| crate::ascii::fold_digits(b, i, 0);
    if !b[f_len..].starts_with(b" returned ") {
        return None;
    }
    let sign = blanks(f_len + " returned ".len());
    let neg = b.get(sign) == Some(&b'-');
    let ds = sign + usize::from(neg);
    let (ret, de) = digits(ds);
    if de == ds || !b[de..].starts_with(b" after ") {
        return None;
    }
    let us_start = blanks(de + " after ".len());
    let (usecs, ue) = digits(us_start);
    if ue == us_start || !b[ue..].starts_with(b" usecs") {
        return None;
    }
    // Up to 18 digits fit both types; longer runs parse (0 on overflow).
    let ret = if de - ds <= 18 {
        let v = ret as i64;
        if neg {
            -v
        } else {
            v
        }
    } else {
        r[sign..de].parse().unwrap_or(0)
    };
    let usecs = if ue - us_start <= 18 {
        usecs
    } else {
        r[us_start..ue].parse().unwrap_or(0)
    };
    Some((&r[..name_len], ret, usecs))
}

/// [`initcall_parts`] of the `initcall` line as initcall_debug prints it (`initcall
/// name+0x0/0x90 returned 0 after 61 usecs`: a name of ASCII graphic bytes ended by a `+` or
/// a blank, an offset word of them ended by a blank, then the tail [`initcall_tail_fixed`]
/// reads), by 16-byte SSE2 steps only and with no call: `None` for any other text (and where
/// fewer than 16 bytes are left to a step), which [`initcall_parts`] then reads. Where it
/// answers, it answers what `initcall_parts` does: the name ends at `name_stop`'s first stop
/// (the same bytes flagged); the word ends at a blank found after ASCII graphic bytes only,
/// which is where `word_end_from` ends it (a flagged byte that is no blank fails the tail's
/// test for its ` returne`). The proptest `initcall_parts_quick_is_initcall_parts` holds it
/// to [`initcall_parts`].
#[inline(always)]
pub(crate) fn initcall_parts_quick(m: &str) -> Option<(&str, i64, u64)> {
    let r = m.strip_prefix("initcall ")?;
    let b = r.as_bytes();
    if !matches!(b.first(), Some(0x21..=0x7F)) {
        return None;
    }
    let stop = stop_by_16(b, 0, b'+')?;
    let f_len = if b.get(stop) == Some(&b'+') {
        stop_by_16(b, stop, 0)?
    } else {
        stop
    };
    let (ret, usecs) = match initcall_tail_fixed(b, f_len) {
        Some(t) => t,
        None => initcall_tail_neg2(b, f_len)?,
    };
    // SAFETY: `stop_by_16` answers the index of a flagged byte inside `b` (its 16-byte step
    // lies in `b`), so `stop < r.len()`; every byte before it is unflagged, ASCII (below
    // 0x80), so `stop` follows an ASCII byte (or is 0): a char boundary.
    Some((unsafe { r.get_unchecked(..stop) }, ret, usecs))
}

/// The first byte of `b` from `i` on that is below 0x21, not ASCII, or `also`, found by
/// 16-byte steps ([`crate::ascii::below_0x21_or_high`]); `None` where fewer than 16 bytes are
/// left before one is found.
#[inline(always)]
fn stop_by_16(b: &[u8], mut i: usize, also: u8) -> Option<usize> {
    loop {
        match crate::ascii::below_0x21_or_high(b, i, also)? {
            0 => i += 16,
            m => return Some(i + m.trailing_zeros() as usize),
        }
    }
}

/// [`initcall_tail_fixed`] of a tail with a negative two-digit return value, ` returned -DD
/// after N usecs` (an errno, `-19` for `-ENODEV`: the kernel's other common initcall line),
/// checked with three 8-byte words; `None` for any other tail. Where it answers, it answers
/// what [`initcall_parts`]'s byte reader does: the same bytes, the two digits negated, and
/// the usecs folded up to the blank of ` usecs` (at most 18 digits, as that reader folds
/// them without parsing). The proptest `initcall_parts_quick_is_initcall_parts` holds it to
/// [`initcall_parts`].
#[inline(always)]
fn initcall_tail_neg2(b: &[u8], at: usize) -> Option<(i64, u64)> {
    const LO: u64 = 0x0101_0101_0101_0101;
    // ` returne`, `d -DD af`, `ter N...`: the digits' bytes (3 and 4 of the middle word) xor
    // `0` are their values, at most 9 (`+ 0x76` sets the high bit of a byte past 9).
    let w0 = word_at(b, at)?;
    let w1 = word_at(b, at + 8)? ^ u64::from_le_bytes(*b"d -00 af");
    let w2 = word_at(b, at + 16)?;
    let us0 = ((w2 >> 32) as u8).wrapping_sub(b'0');
    if w0 != u64::from_le_bytes(*b" returne")
        || w1 & !0x00FF_FF00_0000 != 0
        || (w1.wrapping_add(LO * 0x76) | w1) & 0x0080_8000_0000 != 0
        || w2 & 0xFFFF_FFFF != u64::from(u32::from_le_bytes(*b"ter "))
        || us0 > 9
    {
        return None;
    }
    let ret = ((w1 >> 24) & 0xFF) * 10 + ((w1 >> 32) & 0xFF);
    let (usecs, ue) = crate::ascii::fold_digits(b, at + 21, u64::from(us0));
    match b.get(ue..ue + 6) {
        Some(t) if t == b" usecs" && ue - (at + 20) <= 18 => Some((-(ret as i64), usecs)),
        _ => None,
    }
}

/// `(ret, usecs)` of the tail from `at` of an initcall line laid out as the kernel prints
/// most of them, ` returned D after N usecs` (a one-digit return value, single blanks, up to
/// 18 digits of usecs), checked with three 8-byte words instead of byte by byte; `None` for
/// any other tail, which [`initcall_fast`]'s byte reader then reads (it answers the same here).
#[inline(always)]
fn initcall_tail_fixed(b: &[u8], at: usize) -> Option<(i64, u64)> {
    const THIRD: u64 = 0xFF << 16;
    let w0 = word_at(b, at)?;
    let w1 = word_at(b, at + 8)?;
    let w2 = word_at(b, at + 16)?;
    let ret = ((w1 >> 16) as u8).wrapping_sub(b'0');
    let us0 = ((w2 >> 16) as u8).wrapping_sub(b'0');
    if w0 != u64::from_le_bytes(*b" returne")
        || w1 & !THIRD != u64::from_le_bytes(*b"d \0 afte")
        || w2 & 0xFFFF != u64::from(u16::from_le_bytes(*b"r "))
        || ret > 9
        || us0 > 9
    {
        return None;
    }
    let (usecs, ue) = crate::ascii::fold_digits(b, at + 19, u64::from(us0));
    match b.get(ue..ue + 6) {
        Some(t) if t == b" usecs" && ue - (at + 18) <= 18 => Some((i64::from(ret), usecs)),
        _ => None,
    }
}

/// Classifies a kernel message (the text after the printk stamp, or a whole line).
#[inline]
pub fn line(m: &str) -> Option<KernelLine<'_>> {
    // The first two bytes of every message below (no two share a first byte, so one table
    // lookup by the first byte tests both): others are turned away without a call.
    match m.as_bytes() {
        [a, b, ..] if SECOND[usize::from(*a)] == *b => {}
        _ => return None,
    }
    line_full(m)
}

/// The second byte of the [`GATE`] prefixes that start with each first byte (0 for none),
/// for [`line`]'s two-byte check in one lookup (no two prefixes share a first byte but with
/// the same second). A text that passes but matches nothing (a NUL second byte) only costs
/// the full grammar's answer, `None`.
static SECOND: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut k = 0;
    while k < GATE.prefixes.len() {
        let p = GATE.prefixes[k].as_bytes();
        assert!(t[p[0] as usize] == 0 || t[p[0] as usize] == p[1]);
        t[p[0] as usize] = p[1];
        k += 1;
    }
    t
};

/// Whether a printk message whose first two bytes are `a`, `b` may be read by [`line`] or
/// start `systemd` (the timeline's two grammars for printk messages): `false` rules both out
/// in one lookup, so the timeline's fast path for plain printk lines takes the rest.
#[inline(always)]
pub(crate) fn may_be_marker(a: u8, b: u8) -> bool {
    MARKER_SECOND[usize::from(a)] == b
}

/// [`SECOND`] and `sy` (`systemd`), for [`may_be_marker`].
static MARKER_SECOND: [u8; 256] = {
    let mut t = SECOND;
    t[b's' as usize] = b'y';
    t
};

/// The function a `calling  name+0x0/0x90 @ 1` line (initcall_debug) names, as [`line`]
/// reads it (`KernelLine::Calling`); `None` for a text that is no `calling` line.
#[inline(always)]
pub(crate) fn calling_name(m: &str) -> Option<&str> {
    let r = m.strip_prefix("calling ")?;
    // initcall_debug prints `calling  name`: one more blank before an ASCII graphic byte is
    // all the blanks there are, and that byte a char boundary.
    let w = match r.as_bytes() {
        [b' ', 0x21..=0x7F, ..] => &r[1..],
        _ => crate::ascii::trim_start_ws(r),
    };
    if w.is_empty() {
        return None;
    }
    Some(name_of_first_word(w))
}

/// [`calling_name`] of the `calling` line as initcall_debug prints it (`calling  name+0x0/0x90
/// @ 1`: two blanks, a name that ends at a `+` or a blank found by a 16-byte step): `None`
/// for any other text, which [`calling_name`] then reads. No call in it, so its caller needs no frame;
/// the proptest `calling_name_quick_is_calling_name` holds it to [`calling_name`].
#[inline(always)]
pub(crate) fn calling_name_quick(m: &str) -> Option<&str> {
    let r = m.strip_prefix("calling  ")?;
    let b = r.as_bytes();
    if !matches!(b.first(), Some(0x21..=0x7F)) {
        return None;
    }
    // [`name_stop`]'s 16-byte steps alone (its word loop's constants made this need a
    // frame); where fewer than 16 bytes are left, one step on the last 16, whose bytes before
    // `i` are known to be no stop (so its first flag is the first stop from `i` on).
    let mut i = 0;
    let stop = loop {
        match crate::ascii::below_0x21_or_high(b, i, b'+') {
            Some(0) => i += 16,
            Some(m) => break i + m.trailing_zeros() as usize,
            None => {
                let at = b.len().checked_sub(16)?;
                break match crate::ascii::below_0x21_or_high(b, at, b'+')? {
                    0 => b.len(),
                    m => at + m.trailing_zeros() as usize,
                };
            }
        }
    };
    match b.get(stop) {
        None | Some(b'+' | b' ' | b'\t'..=b'\r') => r.get(..stop),
        _ => None,
    }
}

/// [`line`] without the two-byte check.
fn line_full(m: &str) -> Option<KernelLine<'_>> {
    match m.as_bytes().first()? {
        b'B' if m.starts_with("Booting Linux") => Some(KernelLine::Booting),
        b'U' if m.starts_with("Uncompressing Linux") => Some(KernelLine::Uncompressing),
        b'L' => {
            let r = m.strip_prefix("Linux version ")?;
            Some(KernelLine::Version(r.split_whitespace().next()?))
        }
        b'K' => {
            if let Some(r) = m.strip_prefix("Kernel command line: ") {
                Some(KernelLine::CmdLine(r.trim_end()))
            } else {
                m.strip_prefix("Kernel panic - not syncing")
                    .map(|r| KernelLine::Panic(r.trim_start_matches([':', ' ']).trim_end()))
            }
        }
        b'M' => m
            .strip_prefix("Machine model: ")
            .map(|r| KernelLine::Machine(r.trim_end())),
        b'F' if m.starts_with("Freeing unused kernel") => Some(KernelLine::FreeingUnused),
        b'R' => {
            // `Run %s as init process` (init/main.c): any path, blanks in it too.
            let r = m.strip_prefix("Run ")?;
            let path = &r[..r.find(" as init process")?];
            (!path.is_empty()).then_some(KernelLine::RunInit(path))
        }
        b'c' => calling_name(m).map(KernelLine::Calling),
        b'i' => initcall_fast(m),
        b'p' => probe(m),
        _ => None,
    }
}

/// `probe of %s returned %d after %lld usecs` (`really_probe_debug`, drivers/base/dd.c).
fn probe(m: &str) -> Option<KernelLine<'_>> {
    let r = m.strip_prefix("probe of ")?;
    let (device, r) = r.split_once(" returned ")?;
    let (ret, r) = r.split_once(" after ")?;
    let usecs = r.trim_end().strip_suffix(" usecs")?;
    if device.is_empty() || device.contains(' ') {
        return None;
    }
    Some(KernelLine::Probe {
        device,
        ret: ret.parse().ok()?,
        usecs: usecs.parse().ok()?,
    })
}

/// The nom grammars and plain versions the hand-written readers stand in for: the differential tests' references.
#[cfg(test)]
mod reference {
    use super::*;
    use nom::{
        bytes::complete::take_while1,
        character::complete::{char, digit1, space0},
        combinator::opt,
        sequence::tuple,
        IResult,
    };

    pub(super) fn stamp(i: &str) -> IResult<&str, f64> {
        let (i, (_, _, s, _, us, _)) =
            tuple((char('['), space0, digit1, char('.'), digit1, char(']')))(i)?;
        // The decimal the stamp spells, rounded once (as every stamp reader gives it).
        Ok((i, format!("{s}.{us}").parse().unwrap_or(0.0)))
    }

    pub(super) fn caller(i: &str) -> IResult<&str, ()> {
        let (i, _) = tuple((
            char('['),
            space0,
            nom::branch::alt((char('T'), char('C'))),
            digit1,
            char(']'),
        ))(i)?;
        Ok((i, ()))
    }

    pub(super) fn initcall(i: &str) -> IResult<&str, KernelLine<'_>> {
        let (i, (_, f, _, _, ret, _, _, us, _)) = tuple((
            nom::bytes::complete::tag("initcall "),
            take_while1(|c: char| !c.is_whitespace()),
            nom::bytes::complete::tag(" returned "),
            space0,
            nom::combinator::recognize(tuple((opt(char('-')), digit1))),
            nom::bytes::complete::tag(" after "),
            space0,
            digit1,
            nom::bytes::complete::tag(" usecs"),
        ))(i)?;
        Ok((
            i,
            KernelLine::Initcall {
                name: func_name(f),
                ret: ret.parse().unwrap_or(0),
                usecs: us.parse().unwrap_or(0),
            },
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::reference::*;
    use super::*;
    use nom::combinator::opt;

    /// A stamp's value is the decimal it spells rounded once, whichever reader takes it (the
    /// fixed layout, words, bytes): the whole plus the fraction rounded twice, 1.133506 as
    /// 1.1335060000000001 in the JSON.
    #[test]
    fn stamps_are_their_decimals_rounded_once() {
        for (line, want) in [
            ("[    1.133506] x", 1.133506f64),
            ("[    1.101217] x", 1.101217),
            ("[    1.087557] x", 1.087557),
            ("[1.133506] x", 1.133506),
            ("[ 12345678.133506] x", 12_345_678.133506),
            ("[1.1335060000000000001] x", 1.133506),
            ("[00000000000000000001.133506] x", 1.133506),
        ] {
            let (v, _) = stamp_len(line.as_bytes()).unwrap();
            assert_eq!(v.to_bits(), want.to_bits(), "{line}: {v}");
        }
    }

    proptest::proptest! {
        /// Any stamp reads as its text parsed as a float (rounded once), every digit count.
        #[test]
        fn stamp_value_is_the_parsed_decimal(
            int in "[0-9]{1,22}", frac in "[0-9]{1,22}", pad in 0usize..6
        ) {
            let line = format!("[{}{int}.{frac}] m", " ".repeat(pad));
            let want: f64 = format!("{int}.{frac}").parse().unwrap();
            let (v, _) = stamp_len(line.as_bytes()).unwrap();
            proptest::prop_assert_eq!(v.to_bits(), want.to_bits(), "{}", line);
        }
    }

    #[test]
    fn fraction_matches_format_and_parse() {
        let long = "1".repeat(60);
        for d in [
            "0",
            "000000",
            "962102",
            "5",
            "123456789012345678901234567",
            &long,
            "",
        ] {
            let want: f64 = format!("0.{d}").parse().unwrap_or(0.0);
            assert_eq!(fraction(d).to_bits(), want.to_bits(), "{d:?}");
        }
    }

    /// The nom grammar the fast scanners stand in for.
    fn printk_nom(t: &str) -> Option<Printk<'_>> {
        let (rest, ts) = stamp(t).ok()?;
        let (rest, _) = opt(caller)(rest).ok()?;
        Some(Printk {
            ts,
            msg: rest.strip_prefix(' ').unwrap_or(rest),
        })
    }

    proptest::proptest! {
        #[test]
        fn fast_printk_is_the_nom_grammar(
            pre in "[\\[ \\t0-9.\\]TCx]{0,30}",
            digits in "[0-9]{0,40}",
            tail in "[\\] \\[T0-9a-z]{0,12}",
        ) {
            for t in [format!("{pre}{tail}"), format!("[ {digits}.{digits}]{tail}"), format!("[{digits}.5]{pre}")] {
                let fast = printk(&t);
                let slow = printk_nom(&t);
                proptest::prop_assert_eq!(fast.map(|p| (p.ts.to_bits(), p.msg)), slow.map(|p| (p.ts.to_bits(), p.msg)), "{:?}", t);
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn fast_initcall_is_the_nom_grammar(
            f in "[a-z_+/0-9x\u{a0} ]{0,12}",
            sp in "[ \t]{0,2}",
            ret in "-?[0-9]{0,22}",
            us in "[0-9]{0,22}",
            tail in "( usecs| usec|usecs|)",
        ) {
            let m = format!("initcall {f} returned {sp}{ret} after {sp}{us}{tail}");
            let slow = initcall(&m).ok().map(|(_, l)| l);
            proptest::prop_assert_eq!(initcall_fast(&m), slow, "{:?}", m);
        }
    }

    proptest::proptest! {
        /// Lines at and near the layout [`initcall_tail_fixed`] reads (one-digit return value,
        /// single blanks), which the general generator above seldom builds, against the grammar.
        #[test]
        fn fixed_initcall_tail_is_the_nom_grammar(
            f in "[a-z_+/0-9x]{1,12}",
            sp in "( |\t|)",
            ret in "(-?[0-9]{1,2}|x|)",
            mid in "( after | after|  after | afte |after )",
            us in "[0-9]{0,20}",
            tail in "( usecs| usec|usecs| usecs x| usecs\n|)",
        ) {
            let m = format!("initcall {f} returned {sp}{ret}{mid}{us}{tail}");
            let slow = initcall(&m).ok().map(|(_, l)| l);
            proptest::prop_assert_eq!(initcall_fast(&m), slow, "{:?}", m);
        }
    }

    proptest::proptest! {
        /// The quick `initcall` reader answers what [`initcall_parts`] does, or nothing, and
        /// answers on the kernel's own layout.
        #[test]
        fn initcall_parts_quick_is_initcall_parts(
            name in "[a-z_+\x01\x7f\u{a0}\u{3000}é \t]{0,40}",
            off in "(\\+0x0/0x[0-9a-f]{1,3}|\\+0x0\u{a0}/0x9|\\+0x0\x01/0x9|\\+)?",
            sp in "( |\t|  |)",
            ret in "(-?[0-9]{1,2}|x|)",
            us in "[0-9]{0,20}",
            tail in "( usecs| usec|usecs| usecs x|)",
        ) {
            let m = format!("initcall {name}{off}{sp}returned {ret} after {us}{tail}");
            if let Some(q) = initcall_parts_quick(&m) {
                proptest::prop_assert_eq!(Some(q), initcall_parts(&m), "{:?}", m);
            }
            let plain = name.replace(['+', ' ', '\t', '\x01', '\u{a0}', '\u{3000}', 'é'], "_");
            let d = if us.is_empty() { "7" } else { us.get(..us.len().min(18)).unwrap_or("7") };
            for r in ["0", "-19", "-5", "-110", "-0"] {
                let k = format!("initcall {plain}+0x0/0x90 returned {r} after {d} usecs");
                if let Some(q) = initcall_parts_quick(&k) {
                    proptest::prop_assert_eq!(Some(q), initcall_parts(&k), "{:?}", k);
                }
                if !plain.is_empty() && matches!(r, "0" | "-19") {
                    proptest::prop_assert!(initcall_parts_quick(&k).is_some(), "{:?}", k);
                }
            }
        }
    }

    proptest::proptest! {
        /// The two-byte check turns away no line the grammar matches.
        #[test]
        fn two_byte_check_keeps_every_match(
            a in proptest::sample::select(b"BoUnLiKeMaFrRucinx \0".to_vec()),
            b in proptest::sample::select(b"BoUnLiKeMaFrRucinx \0".to_vec()),
            rest in proptest::sample::select(vec![
                "oting Linux", "compressing Linux", "nux version 6.1 x", "rnel command line: a",
                "rnel panic - not syncing: x", "chine model: y", "eeing unused kernel", "n /init as init process",
                "lling  f+0x0/0x1 @ 1", "itcall f+0x0/0x1 returned 0 after 5 usecs", "", "x",
            ]),
        ) {
            let t = format!("{}{}{rest}", a as char, b as char);
            proptest::prop_assert_eq!(line(&t), line_full(&t), "{:?}", t);
        }
    }

    proptest::proptest! {
        /// The one-pass name and word end are `func_name` of `word_end`'s word.
        #[test]
        fn name_and_word_end_is_func_name_of_the_word(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "pci_subsys_init", "+0x0/0x90", "+", " ", "\t", "\x01", "\u{a0}", "\u{3000}", "é", "x", "returned",
                "abcdefgh", "_", "0x1f",
            ]), 0..7),
        ) {
            let s = parts.concat();
            let word = crate::ascii::word_end(&s);
            proptest::prop_assert_eq!(name_and_word_end(&s), (func_name(&s[..word]).len(), word), "{:?}", s);
            let w = crate::ascii::trim_start_ws(&s);
            proptest::prop_assert_eq!(name_of_first_word(w), func_name(&w[..crate::ascii::word_end(w)]), "{:?}", s);
        }
    }

    proptest::proptest! {
        /// The word-at-a-time `func_name` is `memchr` for the first `+`.
        #[test]
        fn func_name_is_up_to_the_first_plus(s in "[a-z_+\x2a\x2c\u{2b0}\u{ab}0-9]{0,30}") {
            let want = memchr::memchr(b'+', s.as_bytes()).map_or(s.as_str(), |i| &s[..i]);
            proptest::prop_assert_eq!(func_name(&s), want);
        }
    }

    proptest::proptest! {
        /// The quick `calling` reader answers what [`calling_name`] does, or nothing, and
        /// answers on the kernel's own layout.
        #[test]
        fn calling_name_quick_is_calling_name(
            blanks in "[ \t]{0,3}",
            name in "[a-z_+\x01\x7f\u{a0}\u{3000}é ]{0,20}",
            tail in "(\\+0x0/0x90 @ 1)?[ \t\r]?",
        ) {
            let m = format!("calling{blanks}{name}{tail}");
            if let Some(q) = calling_name_quick(&m) {
                proptest::prop_assert_eq!(Some(q), calling_name(&m), "{:?}", m);
            }
            let plain = name.replace(['+', ' '], "_");
            let k = format!("calling  {plain}+0x0/0x90 @ 1");
            // The kernel's layout with a name of graphic ASCII and 16 bytes from it: taken.
            let ok = k.len() - 9 >= 16 && plain.bytes().all(|c| (0x21..=0x7F).contains(&c));
            if ok {
                proptest::prop_assert_eq!(calling_name_quick(&k), Some(plain.as_str()), "{:?}", k);
            }
        }
    }

    proptest::proptest! {
        /// `calling` lines read by bytes give what the str-method chain gave.
        #[test]
        fn fast_calling_is_the_str_chain(r in "[ \t\u{a0}\u{3000}a-z_+/0-9x@é]{0,16}") {
            let m = format!("calling {r}");
            let slow = m
                .strip_prefix("calling ")
                .map(str::trim_start)
                .and_then(|r| r.split_whitespace().next())
                .map(|w| KernelLine::Calling(memchr::memchr(b'+', w.as_bytes()).map_or(w, |i| &w[..i])));
            proptest::prop_assert_eq!(line(&m), slow, "{:?}", m);
        }
    }

    proptest::proptest! {
        /// The word-at-a-time stamp reader is the byte loop, on digits next to the bytes that
        /// border the digit range (`/`, `:`) and bytes that carry when added to (`\xfa`..).
        #[test]
        fn stamp_words_are_the_byte_loop(
            pre in "[ \t]{0,10}",
            w in proptest::collection::vec(proptest::sample::select(b"0123456789/:.]. \xfa\xff\xb9".to_vec()), 0..12),
            f in proptest::collection::vec(proptest::sample::select(b"0123456789/:]] \xfa\xff\xb9".to_vec()), 0..12),
            tail in "[\\] 0-9a-z]{0,10}",
        ) {
            let mut b = format!("[{pre}").into_bytes();
            b.extend_from_slice(&w);
            b.push(b'.');
            b.extend_from_slice(&f);
            b.extend_from_slice(tail.as_bytes());
            // The old reader: `[`, blanks, then the byte loop.
            let i = 1 + b[1..].iter().take_while(|&&c| c == b' ' || c == b'\t').count();
            proptest::prop_assert_eq!(
                stamp_len(&b).map(|(v, n)| (v.to_bits(), n)),
                stamp_digits(&b, i).map(|(v, n)| (v.to_bits(), n)),
                "{:?}", String::from_utf8_lossy(&b)
            );
        }
    }

    proptest::proptest! {
        /// The fixed-layout stamp reader answers what the general one does wherever it
        /// answers, and `stamp_len` stays the byte loop, on texts shaped like printk stamps
        /// (5-byte seconds fields, 6 fraction digits) and their near misses.
        #[test]
        fn fixed_stamp_is_the_general_reader(
            pad in 0usize..6,
            digits in "[0-9]{8}",
            frac in "[0-9]{6}",
            tail in "[ a-z\\]]{0,3}",
            edits in proptest::collection::vec(
                (1usize..16, proptest::sample::select(b"0 9/:.]\t\xfa\xff*%\x10\x30\x1a".to_vec())),
                0..3,
            ),
        ) {
            // `[%5lu.%06lu]` with `pad` blanks, then bytes overwritten here and there.
            let field = format!("{}{}", " ".repeat(pad), &digits[..5usize.saturating_sub(pad)]);
            let mut b = format!("[{field}.{frac}]{tail}").into_bytes();
            for (at, c) in edits {
                if at < b.len() {
                    b[at] = c;
                }
            }
            if let Some(fast) = stamp_fixed(&b) {
                let general = stamp_general(&b);
                proptest::prop_assert_eq!(Some((fast.0.to_bits(), fast.1)), general.map(|(v, n)| (v.to_bits(), n)));
            }
            let i = 1 + b[1..].iter().take_while(|&&c| c == b' ' || c == b'\t').count();
            proptest::prop_assert_eq!(
                stamp_len(&b).map(|(v, n)| (v.to_bits(), n)),
                stamp_digits(&b, i).map(|(v, n)| (v.to_bits(), n)),
                "{:?}", String::from_utf8_lossy(&b)
            );
        }
    }

    proptest::proptest! {
        /// [`StampMemo::read`] over a run of stamps (most sharing their seconds field, as
        /// consecutive printk lines do; some near misses) answers what [`stamp_fixed`] does
        /// for each, whatever the memo held before.
        #[test]
        fn stamp_memo_is_the_fixed_reader(
            stamps in proptest::collection::vec(
                (
                    0usize..3,
                    "[0-9]{3}",
                    "[0-9]{6}",
                    proptest::option::of((1usize..15, proptest::sample::select(b"0 9/.]\t\xff".to_vec()))),
                ),
                1..24,
            ),
        ) {
            let mut memo = StampMemo::default();
            for (pad, secs, frac, edit) in stamps {
                // Few distinct seconds fields, so that the memo is hit and missed.
                let field = format!("{}{}", " ".repeat(pad + 2), &secs[..3 - pad]);
                let mut b = format!("[{field}.{frac}] msg").into_bytes();
                if let Some((at, c)) = edit {
                    b[at] = c;
                }
                let want = stamp_fixed(&b).map(|(v, _)| v.to_bits());
                // `same_second` and `read_same` tell what `read` answers, before it does.
                let split = match memo.same_second(&b) {
                    None => Some(None),
                    Some(true) => Some(Some(memo.read_same(&b).to_bits())),
                    Some(false) => None,
                };
                let got = memo.read(&b).map(f64::to_bits);
                proptest::prop_assert_eq!(got, want, "{:?}", String::from_utf8_lossy(&b));
                if let Some(split) = split {
                    proptest::prop_assert_eq!(split, got, "{:?}", String::from_utf8_lossy(&b));
                }
            }
        }
    }

    /// Whether `stamp_after_bracket` turns `b` away before `stamp_general`, by
    /// `first_other` or the check of `stamp_after_dot`.
    fn no_stamp(b: &[u8]) -> bool {
        match first_other(b) {
            Some((_, c)) if c != b'.' => true,
            Some((k, _)) => word_at(b, k + 1).is_some_and(|f| {
                let nf = digit_run(f);
                nf < 8 && (nf == 0 || (f >> (8 * nf)) as u8 != b']')
            }),
            None => false,
        }
    }

    proptest::proptest! {
        /// `no_stamp` turns away no stamp: wherever it says no, the byte reader says no, on
        /// texts built from blanks, digits, `.`, `]` and the bytes next to them.
        #[test]
        fn no_stamp_keeps_every_stamp(
            body in proptest::collection::vec(
                proptest::sample::select(b"  \t0123456789..]]/:-OKx\xfa\xff\x00".to_vec()),
                0..20,
            ),
        ) {
            let mut b = vec![b'['];
            b.extend_from_slice(&body);
            if no_stamp(&b) {
                let i = 1 + b[1..].iter().take_while(|&&c| c == b' ' || c == b'\t').count();
                proptest::prop_assert_eq!(stamp_digits(&b, i), None, "{:?}", String::from_utf8_lossy(&b));
            }
        }
    }

    #[test]
    fn no_stamp_shapes() {
        for t in [
            "[  OK  ] Started",
            "[  5]   0.00-10.00",
            "[0]crclist  ",
            "[2024-03-29 11:52:40.318]",
            "[ ID] Interval",
            "[0.000002 0.000002]",
            "[ 1.x]       ",
            "[0.000002 0.000002",
        ] {
            assert!(no_stamp(t.as_bytes()), "{t}");
        }
        for t in [
            "[ 1.5]      ",
            "[1.123456789]",
            "[ 1.5]",
            "[       1.500000]",
            "[\t1.5]",
            "[1.5]",
            "[12345678.5]",
        ] {
            assert!(!no_stamp(t.as_bytes()), "{t}");
        }
    }

    #[test]
    fn fixed_stamps() {
        for (t, v) in [
            ("[    0.000000]", 0.0),
            ("[    1.962102] x", 1.962102),
            ("[12345.000001]", 12345.000001),
            ("[  123.456789]]", 123.456789),
            ("[99999.999999]", 99999.999999),
            ("[ 1234.500000]", 1234.5),
            ("[   12.000010]", 12.00001),
            ("[00001.000001]", 1.000001),
        ] {
            assert_eq!(stamp_fixed(t.as_bytes()), Some((v, 14)), "{t}");
        }
        for t in [
            "[     .000000]",
            "[ 1 23.456789]",
            "[\t   1.000000]",
            "[    1.00000]",
            "[    1.000000",
            "[ 123456.000001]",
            "[1    .000000]",
            "[  1  .000000]",
            "[ *  1.000000]",
            "[%   1.000000]",
            "[\x10   1.000000]",
            "[   :1.000000]",
            "[    1.00000:]",
            "[    1.000000[",
            "[    1:000000]",
        ] {
            assert_eq!(stamp_fixed(t.as_bytes()), None, "{t}");
        }
    }

    #[test]
    fn digit_words() {
        for (s, n, v) in [
            (b"12345678", 8, 12345678),
            (b"1.234567", 1, 1),
            (b"0000013:", 7, 13),
            (b"99999/99", 5, 99999),
        ] {
            let w = u64::from_le_bytes(*s);
            assert_eq!(digit_run(w), n);
            assert_eq!(digits_value(w, n), v);
        }
    }

    #[test]
    fn printk_stamps() {
        assert_eq!(
            printk("[    1.962102] am65-cpsw"),
            Some(Printk {
                ts: 1.962102,
                msg: "am65-cpsw"
            })
        );
        assert_eq!(
            printk("[   13.795336] k3"),
            Some(Printk {
                ts: 13.795336,
                msg: "k3"
            })
        );
        assert_eq!(
            printk("[    0.000000][    T0] Linux version 6.8"),
            Some(Printk {
                ts: 0.0,
                msg: "Linux version 6.8"
            })
        );
        assert_eq!(printk("[  OK  ] Finished x"), None);
        assert_eq!(printk("[0.1 0.1] x"), None);
    }

    #[test]
    fn kernel_lines() {
        assert_eq!(
            line("Linux version 6.1.21-v8+ (dom@buildbot) (gcc)"),
            Some(KernelLine::Version("6.1.21-v8+"))
        );
        assert_eq!(
            line("Run /init as init process"),
            Some(KernelLine::RunInit("/init"))
        );
        for path in [
            "/sbin/init",
            "/etc/init",
            "/bin/init",
            "/bin/sh",
            "/usr/lib/my init",
        ] {
            assert_eq!(
                line(&format!("Run {path} as init process")),
                Some(KernelLine::RunInit(path))
            );
        }
        assert_eq!(line("Run  as init process"), None);
        assert_eq!(line("Run /init"), None);
        assert_eq!(line("Running /init"), None);
        assert_eq!(
            line("calling  proto_init+0x0/0x10 @ 1"),
            Some(KernelLine::Calling("proto_init"))
        );
        assert_eq!(
            line("initcall pci_subsys_init+0x0/0x90 returned 0 after 61000 usecs"),
            Some(KernelLine::Initcall {
                name: "pci_subsys_init",
                ret: 0,
                usecs: 61000
            })
        );
        assert_eq!(
            line("initcall rapl_pmu_init+0x0/0x5f0 returned -19 after 0 usecs"),
            Some(KernelLine::Initcall {
                name: "rapl_pmu_init",
                ret: -19,
                usecs: 0
            })
        );
        assert_eq!(
            line("Kernel panic - not syncing: VFS: Unable to mount root fs"),
            Some(KernelLine::Panic("VFS: Unable to mount root fs"))
        );
        assert_eq!(
            line("Freeing unused kernel memory: 1024K"),
            Some(KernelLine::FreeingUnused)
        );
        assert_eq!(
            line("probe of fe340000.mmc returned 0 after 5120 usecs"),
            Some(KernelLine::Probe {
                device: "fe340000.mmc",
                ret: 0,
                usecs: 5120
            })
        );
        assert_eq!(
            line("probe of 2-0050 returned -517 after 41 usecs"),
            Some(KernelLine::Probe {
                device: "2-0050",
                ret: -517,
                usecs: 41
            })
        );
        assert_eq!(line("probe of x returned 0 after 5 msecs"), None);
        assert_eq!(line("probe of  returned 0 after 5 usecs"), None);
        assert_eq!(line("probe of x returned zero after 5 usecs"), None);
    }
}
