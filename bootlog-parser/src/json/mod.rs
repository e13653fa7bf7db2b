//! A [`Boot`] written as `perfguide/boot-log/v1` JSON straight into a byte buffer.
//!
//! The bytes are exactly those of `serde_json::to_writer(out, boot)` (same key order, same
//! omitted fields, same number and string forms; tests compare the two on every corpus boot and
//! on a boot with every field set). It exists for speed: `perfguide parse --format json` on a
//! large multi-boot log spent a fifth of its time in serde's per-field machinery, and this
//! writer does the same job in a fraction of it. The serde derive stays the definition of the
//! format (and what reads it back).
//!
//! Bytes go through a [`W`] cursor into the vector's spare capacity: one room check per run
//! of fields (an initcall, a mark, a stage) instead of a capacity check, a length store and
//! often a `memcpy` call per piece, and strings and numbers copied as whole words.

use crate::model::*;
use crate::stats::{BootStats, Summary};
use serde_json::ser::{CompactFormatter, Formatter};
use std::collections::BTreeMap;

/// `Some(k)` when `a` is the double nearest `k / 10^6` (a whole number of microseconds, as
/// host and printk times are); `None` otherwise. Such a double lies within half an ulp (under
/// 4.8e-7) of `k / 10^6`, which is what lets the JSON writer print `k`'s digits instead of
/// formatting the double.
///
/// # Safety
/// `0 <= a < 2^33`.
#[inline(always)]
unsafe fn nearest_micros_in_range(a: f64) -> Option<u64> {
    // Truncating a + half: any error is caught by the exact check below. Signed, as x86-64
    // converts i64 to and from f64 in one instruction and u64 in several.
    // SAFETY: 0 <= a < 2^33, so a * 1e6 + 0.5 is finite, non-negative and below 2^63: a
    // value i64 holds after truncation.
    let k: i64 = (a * 1e6 + 0.5).to_int_unchecked();
    // k < 2^53 is exact and the division rounds correctly: equal iff a is k/10^6's double.
    (k as f64 / 1e6 == a).then_some(k as u64)
}

/// Appends `b` as one JSON object.
pub fn write_boot(out: &mut Vec<u8>, b: &Boot) {
    write_boot_object(out, b, b"}");
}

/// Appends `b` as one JSON object with a last key `"source"` (the input it came from), as
/// `perfguide parse --format json` lists boots.
pub fn write_sourced_boot(out: &mut Vec<u8>, b: &Boot, source: &str) {
    write_tailed_boot(out, b, &SourceTail::new(source));
}

/// The closing bytes of every boot object of one input, `,"source":"<input>"}`, escaped once
/// for all of them: [`write_tailed_boot`] copies them instead of checking the name for escapes
/// boot after boot.
#[derive(Debug, Clone)]
pub struct SourceTail(Vec<u8>);

impl SourceTail {
    /// The tail naming `source`.
    pub fn new(source: &str) -> Self {
        let mut v = Vec::new();
        let mut w = W::new(&mut v);
        w.source_tail(source);
        w.finish();
        SourceTail(v)
    }
}

/// [`write_sourced_boot`] with the source's tail rendered beforehand (see [`SourceTail`]).
pub fn write_tailed_boot(out: &mut Vec<u8>, b: &Boot, tail: &SourceTail) {
    write_boot_object(out, b, &tail.0);
}

/// Appends `s` as JSON, the bytes of `serde_json::to_writer(out, s)`: the statistics closing
/// `perfguide parse --format json`, a thousand figures or so whose serde path cost more than
/// a tenth of all the boots' writing.
pub fn write_stats(out: &mut Vec<u8>, s: &BootStats) {
    let mut w = W::new(out);
    w.stats(s);
    w.finish();
}

/// The boot writer: [`write_boot_object_avx2`] where the CPU has AVX2, BMI1, BMI2 and LZCNT
/// (told once, then a load and a test a boot), else [`write_boot_object_plain`]; the same
/// code and the same bytes either way.
#[inline]
fn write_boot_object(out: &mut Vec<u8>, b: &Boot, tail: &[u8]) {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::avx2_bmi_lzcnt() {
        // SAFETY: the CPU has the features the function is compiled for, just checked.
        unsafe { write_boot_object_avx2(out, b, tail) };
        return;
    }
    write_boot_object_plain(out, b, tail);
}

/// The writer's body, inlined into each compiled copy: its cursor is a local whose address
/// never leaves the function (every method inlines, slow paths take the vector), so it lives
/// in registers.
#[inline(always)]
fn boot_object_body(out: &mut Vec<u8>, b: &Boot, tail: &[u8]) {
    let mut w = W::new(out);
    w.boot_object(b, tail);
    w.finish();
}

/// [`boot_object_body`] for the x86-64 baseline (SSE2).
#[inline(never)]
fn write_boot_object_plain(out: &mut Vec<u8>, b: &Boot, tail: &[u8]) {
    boot_object_body(out, b, tail);
}

/// [`boot_object_body`] compiled for AVX2, BMI1, BMI2 and LZCNT: the same source, but the
/// escape tests' SSE2 code gets VEX's three-operand forms (no register copy before each
/// destructive `pminub`/`pcmpeqb`), digit counts take one `lzcnt`/`tzcnt` instead of
/// `bsr`/`bsf` and their fix-ups, and shifts by a count need no `cl` shuffle (`shrx`).
///
/// # Safety
/// The CPU has AVX2, BMI1, BMI2 and LZCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt")]
unsafe fn write_boot_object_avx2(out: &mut Vec<u8>, b: &Boot, tail: &[u8]) {
    boot_object_body(out, b, tail);
}

/// `,"k":`, the bytes before a key that is never the first of its object, as one literal
/// (keys are plain ASCII names: no escaping needed).
macro_rules! key {
    ($k:literal) => {
        concat!(",\"", $k, "\":").as_bytes()
    };
}

/// `open` (which ends in `[`), the items, `]`: every item writes itself and a trailing comma
/// (`|w, item| body`, `item` a reference to it), and the last comma is then turned into the
/// `]`, so the loop has no first-item branch. A macro, not a method taking a closure: the
/// writer is one large function, and at its size the inliner's choices are fragile, a small
/// change elsewhere leaving a list's closure out of line (a call and a spilled cursor an
/// item).
macro_rules! list {
    ($w:expr, $open:expr, $items:expr, |$iw:ident, $it:pat_param| $body:expr $(,)?) => {{
        let w: &mut W = $w;
        let (open, items): (&[u8], &[_]) = ($open, $items);
        debug_assert!(open.ends_with(b"["));
        w.lit(open);
        for $it in items {
            let $iw = &mut *w;
            $body;
        }
        w.close_list(!items.is_empty());
    }};
}

/// `,"k":[`, a [`key!`] with the opening of its list.
macro_rules! key_list {
    ($k:literal) => {
        concat!(",\"", $k, "\":[").as_bytes()
    };
}

/// Writes a run of fields after one room check that covers them all: the room is summed by
/// [`field_room!`] from the very list [`field_put!`] then writes, so the two cannot differ.
/// Kinds: `lit(bytes)`, `padded(&(word, len))` (a [`Padded`] literal), `str(&str)`,
/// `u64(v)`, `key_u64(key, v)`, `key_i64(key, v)`, `key_f64(key, v)`, and `opt_u64`,
/// `opt_f64`, `opt_str` (a key and an optional value, nothing when absent). A string is
/// counted without escapes ([`str_room`]); one that has some makes their room itself, for
/// which it is told the room the fields after it take.
macro_rules! fields {
    ($w:expr; $($kind:ident($($arg:expr),*)),* $(,)?) => {{
        let w: &mut W = $w;
        let need = 0usize $(.saturating_add(field_room!($kind($($arg),*))))*;
        w.room(need);
        #[cfg(test)]
        let (start, escaped) = (w.len(), w.escaped);
        // SAFETY: `need` bytes of room were just made, and it counts each field below at
        // its most (`field_room!` on the same arguments) but for a string's escapes, which
        // make their own room; nothing else writes in between.
        unsafe {
            fields_put!(w; $($kind($($arg),*)),*);
        }
        #[cfg(test)]
        assert!(w.len() - start <= need + (w.escaped - escaped) && w.p <= w.end);
    }};
}

/// The most bytes a [`fields!`] field writes.
macro_rules! field_room {
    (lit($s:expr)) => {
        $s.len()
    };
    (padded($s:expr)) => {
        PAD
    };
    (str($s:expr)) => {
        str_room($s)
    };
    (u64($v:expr)) => {
        INT_ROOM
    };
    (key_u64($k:expr, $v:expr)) => {
        $k.len() + INT_ROOM
    };
    (key_i64($k:expr, $v:expr)) => {
        $k.len() + 1 + INT_ROOM
    };
    (key_f64($k:expr, $v:expr)) => {
        $k.len() + F64_ROOM
    };
    (opt_u64($k:expr, $v:expr)) => {
        $k.len() + INT_ROOM
    };
    (opt_f64($k:expr, $v:expr)) => {
        $k.len() + F64_ROOM
    };
    (opt_str($k:expr, $v:expr)) => {
        $k.len().saturating_add($v.map_or(0, str_room))
    };
}

/// Writes the fields of a [`fields!`] run one by one, each told the room the fields after it
/// take (an expression only a string's escapes evaluate).
macro_rules! fields_put {
    ($w:ident; ) => {};
    ($w:ident; $kind:ident($($arg:expr),*) $(, $rk:ident($($ra:expr),*))*) => {
        field_put!($w, 0usize $(.saturating_add(field_room!($rk($($ra),*))))*, $kind($($arg),*));
        fields_put!($w; $($rk($($ra),*)),*);
    };
}

/// Writes one [`fields!`] field (room made by the caller), given the room of the fields after
/// it in the run.
macro_rules! field_put {
    ($w:ident, $rest:expr, lit($s:expr)) => {
        $w.put($s)
    };
    ($w:ident, $rest:expr, padded($s:expr)) => {
        $w.put_padded($s)
    };
    ($w:ident, $rest:expr, str($s:expr)) => {
        $w.put_str($s, || $rest)
    };
    ($w:ident, $rest:expr, u64($v:expr)) => {
        $w.put_u64($v)
    };
    ($w:ident, $rest:expr, key_u64($k:expr, $v:expr)) => {{
        $w.put($k);
        $w.put_u64($v);
    }};
    ($w:ident, $rest:expr, key_i64($k:expr, $v:expr)) => {{
        $w.put($k);
        $w.put_i64($v);
    }};
    ($w:ident, $rest:expr, key_f64($k:expr, $v:expr)) => {{
        $w.put($k);
        $w.put_f64($v);
    }};
    ($w:ident, $rest:expr, opt_u64($k:expr, $v:expr)) => {
        if let Some(v) = $v {
            $w.put($k);
            $w.put_u64(v);
        }
    };
    ($w:ident, $rest:expr, opt_f64($k:expr, $v:expr)) => {
        if let Some(v) = $v {
            $w.put($k);
            $w.put_f64(v);
        }
    };
    ($w:ident, $rest:expr, opt_str($k:expr, $v:expr)) => {
        if let Some(v) = $v {
            $w.put($k);
            $w.put_str(v, || $rest);
        }
    };
}

/// Room an f64 needs: serde_json's (zmij's) longest form is 24 bytes; [`W::micros`] stores
/// at most 33 (a sign, the integer part's [`INT_ROOM`], a whole 8-byte word).
const F64_ROOM: usize = 40;
/// Room [`put_digits`] stores into: up to 20 digits, written as whole 8-byte words (see
/// [`put_long`]).
const INT_ROOM: usize = 24;
/// Length of a [`Padded`] literal's buffer.
const PAD: usize = 24;

/// A short literal of varying length (a stage's opening, a clock) padded to [`PAD`] bytes, so
/// it is copied as a fixed-size block (no `memcpy` call) and the cursor moves by its length.
type Padded = ([u8; PAD], usize);

/// `s` as a [`Padded`] literal (at compile time).
const fn padded(s: &[u8]) -> Padded {
    let mut a = [0u8; PAD];
    let mut i = 0;
    while i < s.len() {
        a[i] = s[i];
        i += 1;
    }
    (a, s.len())
}

/// `{"id":"<stage>"` by `StageId as usize` (the order of [`StageId::ALL`]).
const STAGE_OPEN: [Padded; StageId::ALL.len()] = [
    padded(b"{\"id\":\"power\""),
    padded(b"{\"id\":\"rom\""),
    padded(b"{\"id\":\"sbl\""),
    padded(b"{\"id\":\"sysfw\""),
    padded(b"{\"id\":\"r5-spl\""),
    padded(b"{\"id\":\"tfa\""),
    padded(b"{\"id\":\"optee\""),
    padded(b"{\"id\":\"a-spl\""),
    padded(b"{\"id\":\"uboot\""),
    padded(b"{\"id\":\"kernel\""),
    padded(b"{\"id\":\"userspace\""),
];

/// The `"clock"` key and value of a stage.
const fn clock_key(c: Clock) -> &'static Padded {
    const HOST: Padded = padded(b",\"clock\":\"host\"");
    const TARGET: Padded = padded(b",\"clock\":\"target\"");
    const DERIVED: Padded = padded(b",\"clock\":\"derived\"");
    match c {
        Clock::Host => &HOST,
        Clock::Target => &TARGET,
        Clock::Derived => &DERIVED,
    }
}

/// Room a JSON string of `s` is given in a [`fields!`] run: its bytes and quotes, as most
/// strings need no escape (one add, no overflow-checked multiply, per string). A string
/// that needs escapes makes the room for them itself (see [`put_escaped_growing`]).
#[inline(always)]
fn str_room(s: &str) -> usize {
    // A `str` holds at most `isize::MAX` bytes: no overflow.
    s.len() + 2
}

/// A write cursor into a vector's spare capacity. Invariant: `out`'s buffer runs from
/// `out.as_ptr()` to `end` (its capacity), `out.len() <= p - out.as_ptr() <= capacity`, and
/// every byte from `out.len()` up to `p` has been written; [`W::finish`] makes `p` the
/// vector's length. Writes go through [`fields!`] (or [`W::lit`], [`W::byte`]), which make
/// room for all they write first, so no write goes past `end`.
struct W<'a> {
    out: &'a mut Vec<u8>,
    p: *mut u8,
    end: *mut u8,
    /// Bytes escaped strings wrote beyond their [`str_room`] (what [`fields!`] checks).
    #[cfg(test)]
    escaped: usize,
}

impl<'a> W<'a> {
    /// A cursor at the end of `out`.
    #[inline(always)]
    fn new(out: &'a mut Vec<u8>) -> Self {
        let (p, end) = bounds(out);
        W {
            out,
            p,
            end,
            #[cfg(test)]
            escaped: 0,
        }
    }

    /// Hands the bytes written to the vector (sets its length).
    #[inline(always)]
    fn finish(self) {
        let len = self.len();
        // SAFETY: by the invariant, `len <= capacity` and the bytes up to it are written.
        unsafe { self.out.set_len(len) }
    }

    /// Bytes from the start of the vector to the cursor.
    #[inline(always)]
    fn len(&self) -> usize {
        self.p as usize - self.out.as_ptr() as usize
    }

    /// Makes sure `n` bytes can be written at the cursor, growing the vector if not.
    #[inline(always)]
    fn room(&mut self, n: usize) {
        if (self.end as usize - self.p as usize) < n {
            // SAFETY: `self.p` is this cursor, with its invariant.
            (self.p, self.end) = unsafe { grow(self.out, self.p, n) };
        }
    }

    /// Writes literal bytes.
    #[inline(always)]
    fn lit(&mut self, s: &[u8]) {
        fields!(self; lit(s));
    }

    /// Writes one byte.
    #[inline(always)]
    fn byte(&mut self, c: u8) {
        fields!(self; lit(&[c]));
    }

    /// Copies `s` to the cursor.
    ///
    /// # Safety
    /// Room for `s.len()` bytes.
    #[inline(always)]
    unsafe fn put(&mut self, s: &[u8]) {
        std::ptr::copy_nonoverlapping(s.as_ptr(), self.p, s.len());
        self.p = self.p.add(s.len());
    }

    /// Copies a [`Padded`] literal as its whole buffer and moves past its length.
    ///
    /// # Safety
    /// Room for [`PAD`] bytes.
    #[inline(always)]
    unsafe fn put_padded(&mut self, s: &Padded) {
        std::ptr::copy_nonoverlapping(s.0.as_ptr(), self.p, PAD);
        self.p = self.p.add(s.1.min(PAD));
    }

    /// Writes `v`'s decimal digits, as serde_json (itoa) does.
    ///
    /// # Safety
    /// Room for [`INT_ROOM`] bytes.
    #[inline(always)]
    unsafe fn put_u64(&mut self, v: u64) {
        self.p = put_digits(self.p, v);
    }

    /// Writes `v` in decimal.
    ///
    /// # Safety
    /// Room for 1 + [`INT_ROOM`] bytes.
    #[inline(always)]
    unsafe fn put_i64(&mut self, v: i64) {
        if v < 0 {
            self.put(b"-");
        }
        self.put_u64(v.unsigned_abs());
    }

    /// `v` as serde_json writes an f64: shortest round-trip form, `null` when not finite.
    ///
    /// # Safety
    /// Room for [`F64_ROOM`] bytes.
    #[inline(always)]
    unsafe fn put_f64(&mut self, v: f64) {
        if !self.micros(v) {
            if v.to_bits() == 0 {
                // +0.0 (absent figures read as zero, a first timestamp): serde's `0.0`.
                self.put(b"0.0");
            } else {
                self.p = put_f64_slow(self.p, v);
            }
        }
    }

    /// A JSON string with serde_json's escaping: `"` and `\` backslashed, control bytes as
    /// `\b`, `\t`, `\n`, `\f`, `\r` or `\u00XX`, everything else (DEL, non-ASCII) as is.
    ///
    /// # Safety
    /// Room for [`str_room`] bytes and `rest()` more; a string with escapes makes the room
    /// they take itself, keeping `rest()` bytes of room after it.
    #[inline(always)]
    unsafe fn put_str(&mut self, s: &str, rest: impl FnOnce() -> usize) {
        let b = s.as_bytes();
        if !self.put_plain(b) {
            #[cfg(test)]
            let at = self.len();
            (self.p, self.end) = put_escaped_growing(self.out, self.p, self.end, b, rest());
            #[cfg(test)]
            {
                self.escaped += self.len() - at - str_room(s);
            }
        }
    }

    /// `s` as a JSON string and a comma: a list item.
    #[inline(always)]
    fn str_item(&mut self, s: &str) {
        fields!(self; str(s), lit(b","));
    }

    /// Ends a list begun by [`list!`]: its last comma turned into the `]` when it has items
    /// (`any`), else a `]` after the `[`.
    #[inline(always)]
    fn close_list(&mut self, any: bool) {
        if any {
            // SAFETY: `open` is not empty and was written through this cursor, which has
            // only moved on since, so the byte before it lies inside the buffer and was
            // written (the last item's comma).
            unsafe { *self.p.sub(1) = b']' };
        } else {
            self.byte(b']');
        }
    }

    /// An object whose keys are all optional: each key is written with its comma, and the
    /// comma of the first is then turned into the `{` (`{}` when there is none). Returns the
    /// offset [`W::close_obj`] takes.
    #[inline(always)]
    fn open_obj(&self) -> usize {
        self.len()
    }

    /// Ends an object begun by [`W::open_obj`] at offset `at`.
    #[inline(always)]
    fn close_obj(&mut self, at: usize) {
        if self.len() > at {
            // SAFETY: `at` is below the cursor, so inside the buffer, a byte written through
            // this cursor (`as_mut_ptr` makes no reference that would retire `self.p`).
            unsafe { *self.out.as_mut_ptr().add(at) = b'{' };
            self.byte(b'}');
        } else {
            self.lit(b"{}");
        }
    }

    /// Writes `"b"` and answers true when `b` has nothing to escape; else writes nothing the
    /// cursor covers and answers false. Short strings are checked and copied as one or two
    /// words, long ones 16 bytes a step.
    ///
    /// # Safety
    /// Room for `b.len() + 2` bytes.
    #[inline(always)]
    unsafe fn put_plain(&mut self, b: &[u8]) -> bool {
        let n = b.len();
        let (s, p) = (b.as_ptr(), self.p);
        if n >= 8 {
            if n > 16 {
                if !copy_plain_long(b, p.add(1)) {
                    return false;
                }
            } else {
                // Two overlapping words cover 8 to 16 bytes, both inside `b`.
                let w0 = std::ptr::read_unaligned(s as *const u64);
                let w1 = std::ptr::read_unaligned(s.add(n - 8) as *const u64);
                if words_need_escape(w0, w1) {
                    return false;
                }
                std::ptr::write_unaligned(p.add(1) as *mut u64, w0);
                std::ptr::write_unaligned(p.add(n - 7) as *mut u64, w1);
            }
        } else if n >= 4 {
            // Two overlapping 4-byte words, checked as one.
            let w0 = std::ptr::read_unaligned(s as *const u32);
            let w1 = std::ptr::read_unaligned(s.add(n - 4) as *const u32);
            if words_need_escape(u64::from(w0) | u64::from(w1) << 32, SPACES) {
                return false;
            }
            std::ptr::write_unaligned(p.add(1) as *mut u32, w0);
            std::ptr::write_unaligned(p.add(n - 3) as *mut u32, w1);
        } else if n > 0 {
            // First, middle and last byte cover 1 to 3 bytes; spaces above need no escape.
            let (a, m, z) = (*s, *s.add(n / 2), *s.add(n - 1));
            let w = u64::from(a) | u64::from(m) << 8 | u64::from(z) << 16 | SPACES << 24;
            if words_need_escape(w, SPACES) {
                return false;
            }
            *p.add(1) = a;
            *p.add(1 + n / 2) = m;
            *p.add(n) = z;
        }
        *p = b'"';
        *p.add(n + 1) = b'"';
        self.p = p.add(n + 2);
        true
    }

    /// Writes `v` as serde_json would when it is the double nearest k/10^6 for an integer k
    /// and 1e-5 <= |v| < 2^33 (most figures are seconds rounded to microseconds), else
    /// writes nothing and answers false. Cheaper than the general shortest-digits search.
    ///
    /// Why the digits of k are serde_json's (zmij's) shortest round-trip form: below 2^33 a
    /// double's spacing is at most 2^-20 < 10^-6, so k/10^6 is the only multiple of 10^-6
    /// that rounds to `v`; a decimal with fewer significant digits but a digit past the sixth
    /// place would have to start a place lower, i.e. lie at least 0.9 * 10^-5 below
    /// v >= 10^-5, too far to round to it. And from 10^-5 up to 10^16 zmij writes fixed
    /// notation, `12.0` for integers.
    ///
    /// # Safety
    /// Room for [`F64_ROOM`] bytes.
    #[inline(always)]
    unsafe fn micros(&mut self, v: f64) -> bool {
        // 1e-5 <= |v| < 2^33 as two float compares, both false for NaN.
        let bits = v.to_bits();
        let a = v.abs();
        if !(1e-5..8_589_934_592.0).contains(&a) {
            return false;
        }
        // SAFETY: 1e-5 <= |v| < 2^33, by the check above.
        let Some(k) = nearest_micros_in_range(a) else {
            return false;
        };
        // The sign: a '-' the cursor moves past only for a negative value.
        let mut p = self.p;
        *p = b'-';
        p = p.add((bits >> 63) as usize);
        let int = k / 1_000_000;
        let frac = (k % 1_000_000) as u32;
        // ".dddddd" in the low seven bytes of a word, in pairs from a table as itoa does.
        let (hi, lo) = (frac / 10_000, frac % 10_000);
        let w = u64::from(b'.') | pair(hi) << 8 | pair(lo / 100) << 24 | pair(lo % 100) << 40;
        // Digits kept: up to the last one that is not '0', at least one ("12.0").
        let nonzero = ((w >> 8) ^ 0x3030_3030_3030) & 0xffff_ffff_ffff;
        let len = 1 + ((71 - nonzero.leading_zeros() as usize) / 8).max(1);
        // Whole words written and the tail left beyond the cursor: no variable-length copy.
        if int < 10 {
            let w = (w << 8) | (b'0' as u64 + int);
            std::ptr::write_unaligned(p as *mut u64, w.to_le());
            p = p.add(1 + len);
        } else {
            p = put_digits(p, int);
            std::ptr::write_unaligned(p as *mut u64, w.to_le());
            p = p.add(len);
        }
        self.p = p;
        true
    }
}

impl W<'_> {
    /// The boot's fields in the model's order (see the serde derive).
    #[inline(always)]
    fn boot_object(&mut self, b: &Boot, tail: &[u8]) {
        const COMPLETE: [Padded; 2] = [
            padded(b",\"complete\":false"),
            padded(b",\"complete\":true"),
        ];
        fields!(self;
            key_u64(b"{\"index\":", b.index as u64),
            padded(&COMPLETE[usize::from(b.complete)]),
            lit(key_list!("lines")),
            u64(b.lines.0),
            key_u64(b",", b.lines.1),
        );
        list!(self, b"],\"stages\":[", &b.stages, |w, s| {
            fields!(w;
                padded(&STAGE_OPEN[s.id as usize]),
                opt_f64(key!("start_s"), s.start_s),
                opt_f64(key!("end_s"), s.end_s),
                opt_f64(key!("duration_s"), s.duration_s),
                padded(clock_key(s.clock)),
                opt_u64(key!("line"), s.line),
                opt_u64(key!("console_bytes"), s.console_bytes),
                lit(b"},"),
            );
        });
        self.lit(b",\"components\":");
        let at = self.open_obj();
        for (k, v) in &b.components {
            fields!(self; lit(b","), str(k), lit(b":"), str(v));
        }
        self.close_obj(at);
        if !b.sbl_profile.is_empty() {
            list!(self, key_list!("sbl_profile"), &b.sbl_profile, |w, p| {
                fields!(w;
                    key_u64(b"{\"run\":", u64::from(p.run)),
                    lit(key!("name")),
                    str(&p.name),
                    opt_u64(key!("duration_us"), p.duration_us),
                    opt_u64(key!("timestamp_us"), p.timestamp_us),
                    opt_u64(key!("src_line"), p.src_line.map(u64::from)),
                    opt_u64(key!("cycle"), p.cycle),
                    lit(b"},"),
                );
            });
        }
        if !b.sbl_total_us.is_empty() {
            list!(self, key_list!("sbl_total_us"), &b.sbl_total_us, |w, v| {
                fields!(w; u64(*v), lit(b","));
            });
        }
        if !b.bootstage.is_empty() {
            list!(self, key_list!("bootstage"), &b.bootstage, |w, r| {
                w.bootstage_record(r)
            });
        }
        if !b.bootstage_accumulated.is_empty() {
            list!(
                self,
                key_list!("bootstage_accumulated"),
                &b.bootstage_accumulated,
                |w, a| w.accumulated(a),
            );
        }
        if !b.bootstage_reports.is_empty() {
            list!(
                self,
                key_list!("bootstage_reports"),
                &b.bootstage_reports,
                |w, rep| {
                    list!(w, b"[", rep, |w, r| w.bootstage_record(r));
                    w.byte(b',');
                },
            );
        }
        if !b.spl_bootstage.is_empty() {
            list!(
                self,
                key_list!("spl_bootstage"),
                &b.spl_bootstage,
                |w, r| { w.spl_bootstage(r) }
            );
        }
        if !b.initcalls.is_empty() {
            list!(self, key_list!("initcalls"), &b.initcalls, |w, c| {
                fields!(w;
                    lit(b"{\"name\":"),
                    str(&c.name),
                    key_u64(key!("duration_us"), c.duration_us),
                    key_i64(key!("ret"), c.ret),
                    opt_f64(key!("ts_s"), c.ts_s),
                    lit(b"},"),
                );
            });
        }
        if !b.probes.is_empty() {
            list!(self, key_list!("probes"), &b.probes, |w, p| {
                fields!(w;
                    lit(b"{\"device\":"),
                    str(&p.device),
                    key_u64(key!("duration_us"), p.duration_us),
                    key_i64(key!("ret"), p.ret),
                    opt_f64(key!("ts_s"), p.ts_s),
                    lit(b"},"),
                );
            });
        }
        if let Some(k) = &b.kernel {
            self.kernel(k);
        }
        if let Some(s) = &b.systemd {
            self.lit(b",\"systemd\":");
            self.systemd(s);
        }
        fields!(self; opt_str(key!("login_prompt"), b.login_prompt.as_deref()));
        if !b.marks.is_empty() {
            list!(self, key_list!("marks"), &b.marks, |w, m| {
                fields!(w;
                    lit(b"{\"kind\":"),
                    str(&m.kind),
                    key_u64(key!("line"), m.line),
                    opt_f64(key!("host_s"), m.host_s),
                    opt_f64(key!("target_s"), m.target_s),
                    lit(b"},"),
                );
            });
        }
        if !b.errors.is_empty() {
            list!(self, key_list!("errors"), &b.errors, |w, e| w.str_item(e));
        }
        fields!(self; opt_f64(key!("printk_offset_s"), b.printk_offset_s));
        if let Some(s) = &b.system {
            self.system(s);
        }
        list!(self, key_list!("warnings"), &b.warnings, |w, e| w
            .str_item(e));
        self.lit(tail);
    }

    /// The `kernel` key and object.
    fn kernel(&mut self, k: &KernelInfo) {
        self.lit(b",\"kernel\":");
        let at = self.open_obj();
        fields!(self;
            opt_str(key!("version"), k.version.as_deref()),
            opt_f64(key!("first_ts_s"), k.first_ts_s),
            opt_f64(key!("init_ts_s"), k.init_ts_s),
            opt_f64(key!("last_ts_s"), k.last_ts_s),
            opt_str(key!("cmdline"), k.cmdline.as_deref()),
            opt_str(key!("machine"), k.machine.as_deref()),
        );
        self.close_obj(at);
    }

    /// The `system` key and object.
    fn system(&mut self, s: &SystemInfo) {
        self.lit(b",\"system\":{\"source\":");
        fields!(self;
            str(&s.source),
            opt_str(key!("lab"), s.lab.as_deref()),
            opt_str(key!("machine"), s.machine.as_deref()),
            opt_str(key!("taken"), s.taken.as_deref()),
            opt_u64(key!("cpus"), s.cpus.map(u64::from)),
            opt_f64(key!("bogomips"), s.bogomips),
        );
        self.lit(b",\"config\":");
        let at = self.open_obj();
        for (k, v) in &s.config {
            fields!(self; lit(b","), str(k), lit(b":"), str(v));
        }
        self.close_obj(at);
        self.byte(b'}');
    }

    /// The statistics' fields in their order (see the serde derive of [`BootStats`]).
    fn stats(&mut self, s: &BootStats) {
        fields!(self;
            key_u64(b"{\"boots\":", s.boots as u64),
            key_u64(key!("complete"), s.complete as u64),
        );
        self.per_stage(key_list!("stages"), &s.stages);
        self.per_stage(key_list!("console_bytes"), &s.console_bytes);
        self.lit(key!("total_s"));
        match &s.total_s {
            Some(t) => self.summary(t),
            None => self.lit(b"null"),
        }
        self.by_name(key!("bootstage_mark_us"), &s.bootstage_mark_us);
        self.by_name(key!("sbl_us"), &s.sbl_us);
        self.by_name(key!("initcall_us"), &s.initcall_us);
        self.byte(b'}');
    }

    /// `(stage, summary)` pairs as a list of two-item lists.
    fn per_stage(&mut self, open: &[u8], v: &[(StageId, Summary)]) {
        list!(self, open, v, |w, (id, sum)| {
            fields!(w; lit(b"[\""), lit(id.as_str().as_bytes()), lit(b"\","));
            w.summary(sum);
            w.lit(b"],");
        });
    }

    /// Summaries by name as an object.
    fn by_name(&mut self, key: &[u8], m: &BTreeMap<String, Summary>) {
        self.lit(key);
        let at = self.open_obj();
        for (name, sum) in m {
            fields!(self; lit(b","), str(name), lit(b":"));
            self.summary(sum);
        }
        self.close_obj(at);
    }

    /// One summary object.
    #[inline(always)]
    fn summary(&mut self, s: &Summary) {
        fields!(self;
            key_u64(b"{\"n\":", s.n as u64),
            key_f64(key!("mean"), s.mean),
            key_f64(key!("min"), s.min),
            key_f64(key!("max"), s.max),
            key_f64(key!("median"), s.median),
            key_f64(key!("p95"), s.p95),
            key_f64(key!("stddev"), s.stddev),
            lit(b"}"),
        );
    }

    /// `,"source":"<source>"}`.
    fn source_tail(&mut self, source: &str) {
        fields!(self; lit(key!("source")), str(source), lit(b"}"));
    }

    /// One bootstage record and its comma.
    #[inline(always)]
    fn bootstage_record(&mut self, r: &BootstageRecord) {
        fields!(self;
            lit(b"{\"name\":"),
            str(&r.name),
            key_u64(key!("mark_us"), r.mark_us),
            key_u64(key!("elapsed_us"), r.elapsed_us),
            lit(b"},"),
        );
    }

    /// One accumulated time and its comma.
    #[inline(always)]
    fn accumulated(&mut self, a: &BootstageAccum) {
        fields!(self;
            lit(b"{\"name\":"),
            str(&a.name),
            key_u64(key!("us"), a.us),
            lit(b"},"),
        );
    }

    /// An SPL's own bootstage report and its comma.
    fn spl_bootstage(&mut self, r: &SplBootstage) {
        fields!(self;
            lit(b"{\"stage\":\""),
            lit(r.stage.as_str().as_bytes()),
            key_u64(b"\",\"line\":", r.line),
            opt_f64(key!("host_s"), r.host_s),
        );
        list!(self, key_list!("records"), &r.records, |w, x| w
            .bootstage_record(x));
        if !r.accumulated.is_empty() {
            list!(self, key_list!("accumulated"), &r.accumulated, |w, a| w
                .accumulated(a));
        }
        self.lit(b"},");
    }

    /// One systemd unit and its comma.
    #[inline(always)]
    fn unit(&mut self, u: &SystemdUnit) {
        fields!(self;
            lit(b"{\"name\":"),
            str(&u.name),
            opt_f64(key!("duration_s"), u.duration_s),
            opt_f64(key!("at_s"), u.at_s),
            lit(b"},"),
        );
    }

    /// The systemd facts.
    #[inline(always)]
    fn systemd(&mut self, s: &SystemdInfo) {
        let at = self.open_obj();
        fields!(self;
            opt_f64(key!("firmware_s"), s.firmware_s),
            opt_f64(key!("loader_s"), s.loader_s),
            opt_f64(key!("kernel_s"), s.kernel_s),
            opt_f64(key!("initrd_s"), s.initrd_s),
            opt_f64(key!("userspace_s"), s.userspace_s),
            opt_f64(key!("total_s"), s.total_s),
        );
        if let Some((name, v)) = &s.target_reached {
            fields!(self;
                lit(b",\"target_reached\":["),
                str(name),
                key_f64(b",", *v),
                lit(b"]"),
            );
        }
        if !s.blame.is_empty() {
            list!(self, key_list!("blame"), &s.blame, |w, u| w.unit(u));
        }
        if !s.critical_chain.is_empty() {
            list!(
                self,
                key_list!("critical_chain"),
                &s.critical_chain,
                |w, u| { w.unit(u) }
            );
        }
        if !s.failed.is_empty() {
            list!(self, key_list!("failed"), &s.failed, |w, f| w.str_item(f));
        }
        fields!(self; key_u64(key!("ok_lines"), s.ok_lines));
        self.close_obj(at);
    }
}

/// The cursor and the end of the capacity of `out`.
#[inline(always)]
fn bounds(out: &mut Vec<u8>) -> (*mut u8, *mut u8) {
    let base = out.as_mut_ptr();
    // SAFETY: the length and the capacity are offsets inside the allocation or one past it.
    unsafe { (base.add(out.len()), base.add(out.capacity())) }
}

/// Hands the bytes up to the cursor `p` to `out`, grows it to hold `n` more bytes and
/// answers the new cursor and end.
///
/// # Safety
/// `p` is a cursor on `out` with [`W`]'s invariant.
#[cold]
#[inline(never)]
unsafe fn grow(out: &mut Vec<u8>, p: *mut u8, n: usize) -> (*mut u8, *mut u8) {
    out.set_len(p as usize - out.as_ptr() as usize);
    out.reserve(n);
    bounds(out)
}

/// An f64 [`W::micros`] declined, through serde_json's formatter (into a stack buffer: at
/// most 24 bytes, and a longer form would be refused, not overflow it).
///
/// # Safety
/// `p` valid for 32 bytes of writes.
#[cold]
#[inline(never)]
unsafe fn put_f64_slow(p: *mut u8, v: f64) -> *mut u8 {
    let mut buf = [0u8; 32];
    let n = if v.is_finite() {
        let mut rest = &mut buf[..];
        CompactFormatter.write_f64(&mut rest, v).unwrap_or(());
        32 - rest.len()
    } else {
        buf[..4].copy_from_slice(b"null");
        4
    };
    std::ptr::copy_nonoverlapping(buf.as_ptr(), p, n);
    p.add(n)
}

/// A JSON string that needs escapes (the rare slow path of [`W::put_str`]) at the cursor
/// `p` of `out` whose capacity ends at `end`: makes room for its longest escaped form and
/// the `rest` bytes the fields after it in its run take, writes it, and answers the new
/// cursor and end.
///
/// # Safety
/// `p` and `end` are a cursor on `out` with [`W`]'s invariant.
#[cold]
#[inline(never)]
unsafe fn put_escaped_growing(
    out: &mut Vec<u8>,
    mut p: *mut u8,
    mut end: *mut u8,
    b: &[u8],
    rest: usize,
) -> (*mut u8, *mut u8) {
    let want = b
        .len()
        .saturating_mul(6)
        .saturating_add(2)
        .saturating_add(rest);
    if (end as usize - p as usize) < want {
        (p, end) = grow(out, p, want);
    }
    // SAFETY: `end - p >= 6 * len + 2`, the most `put_escaped` writes.
    (put_escaped(p, b), end)
}

/// Writes `b` as a JSON string with escapes (see [`put_escaped_growing`]): runs of plain
/// bytes are copied 16 at a time (systemd unit names, the commonest strings with escapes, are
/// long runs between `\\x2d`s), the rest a byte at a time by [`put_escaped_byte`].
///
/// # Safety
/// `p` valid for six bytes a byte of `b` and the quotes (its longest escaped form).
#[cold]
#[inline(never)]
unsafe fn put_escaped(mut p: *mut u8, b: &[u8]) -> *mut u8 {
    *p = b'"';
    p = p.add(1);
    let (s, n) = (b.as_ptr(), b.len());
    let mut i = 0;
    while i < n {
        #[cfg(target_arch = "x86_64")]
        while i + 16 <= n {
            use std::arch::x86_64::*;
            // SAFETY (of the load and the store): i + 16 <= n, so the 16 bytes read lie in
            // `b`; every byte of `b` before `i` wrote at least one byte, so at most
            // 1 + 6 * i bytes are written and at least 6 * (n - i) + 1 >= 97 remain at `p`.
            let v = _mm_loadu_si128(s.add(i) as *const __m128i);
            _mm_storeu_si128(p as *mut __m128i, v);
            let m = escape_bits(v) as u32;
            // The plain bytes before the first that needs an escape are kept (all 16 if
            // none); the bytes stored past them are overwritten next.
            let k = if m == 0 {
                16
            } else {
                m.trailing_zeros() as usize
            };
            p = p.add(k);
            i += k;
            if k < 16 {
                break;
            }
        }
        if i < n {
            p = put_escaped_byte(p, *s.add(i));
            i += 1;
        }
    }
    *p = b'"';
    p.add(1)
}

/// Writes one byte of a JSON string as serde_json does: `"` and `\\` backslashed, control
/// bytes as `\\b`, `\\t`, `\\n`, `\\f`, `\\r` or `\\u00XX`, any other byte as is.
///
/// # Safety
/// `p` valid for six bytes of writes.
#[inline(always)]
unsafe fn put_escaped_byte(p: *mut u8, c: u8) -> *mut u8 {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let put = |s: &[u8]| {
        std::ptr::copy_nonoverlapping(s.as_ptr(), p, s.len());
        p.add(s.len())
    };
    match c {
        b'"' => put(b"\\\""),
        b'\\' => put(b"\\\\"),
        0x08 => put(b"\\b"),
        b'\t' => put(b"\\t"),
        b'\n' => put(b"\\n"),
        0x0c => put(b"\\f"),
        b'\r' => put(b"\\r"),
        0..=0x1f => put(&[
            b'\\',
            b'u',
            b'0',
            b'0',
            HEX[usize::from(c >> 4)],
            HEX[usize::from(c & 0xf)],
        ]),
        _ => {
            *p = c;
            p.add(1)
        }
    }
}

/// Eight ASCII zeros, added to eight digit values to make them text.
const ZEROS: u64 = u64::from_le_bytes(*b"00000000");

/// The eight decimal digits of `v` < 10^8 (leading zeros included) as byte values 0 to 9,
/// the first digit in the lowest byte: split into two 4-digit halves in 32-bit lanes, each
/// halved again into 2-digit 16-bit lanes, then into digits, by multiplying with scaled
/// reciprocals (x * 10486 >> 20 is x / 100 for x < 10^4, x * 103 >> 10 is x / 10 for x < 100;
/// no lane's product reaches the next lane).
#[inline(always)]
fn eight_digits(v: u32) -> u64 {
    let v = u64::from(v);
    let abcd_efgh = (v / 10_000) | ((v % 10_000) << 32);
    let ab_ef = ((abcd_efgh * 10486) >> 20) & 0x0000_007f_0000_007f;
    let ab_cd_ef_gh = ab_ef | ((abcd_efgh - ab_ef * 100) << 16);
    let a_c_e_g = ((ab_cd_ef_gh * 103) >> 10) & 0x000f_000f_000f_000f;
    a_c_e_g | ((ab_cd_ef_gh - a_c_e_g * 10) << 8)
}

/// Writes the digits of `v` < 10^8 without leading zeros (one digit for 0) as one 8-byte
/// store; returns their end.
///
/// # Safety
/// `p` valid for 8 bytes of writes.
#[inline(always)]
unsafe fn put_up_to_eight(p: *mut u8, v: u32) -> *mut u8 {
    let d = eight_digits(v);
    // Leading zero digits are the low zero bytes; the last digit always counts.
    let lead = ((d | 1 << 56).trailing_zeros() / 8) as usize;
    std::ptr::write_unaligned(p as *mut u64, ((d + ZEROS) >> (8 * lead)).to_le());
    p.add(8 - lead)
}

/// Two ASCII digits of `v` < 100 from [`PAIRS`], the first in the low byte.
#[inline(always)]
fn pair(v: u32) -> u64 {
    let i = 2 * v as usize;
    u64::from(u16::from_le_bytes([PAIRS[i], PAIRS[i + 1]]))
}

/// Writes the decimal digits of `v` (serde_json's (itoa's) text for it) and returns their
/// end.
///
/// # Safety
/// `p` valid for [`INT_ROOM`] bytes of writes.
#[inline(always)]
unsafe fn put_digits(p: *mut u8, v: u64) -> *mut u8 {
    if v < 10 {
        // Zero counts and short durations: one byte.
        *p = b'0' + v as u8;
        p.add(1)
    } else if v < 10_000 {
        // Two pairs from the table in one 4-byte store, leading zeros shifted out.
        let v = v as u32;
        let d = pair(v / 100) | pair(v % 100) << 16;
        let lead = usize::from(v < 1000) + usize::from(v < 100);
        std::ptr::write_unaligned(p as *mut u32, ((d >> (8 * lead)) as u32).to_le());
        p.add(4 - lead)
    } else if v < 1_000_000 {
        // Line numbers, microseconds: three pairs in one 8-byte store.
        let v = v as u32;
        let (hi, lo) = (v / 10_000, v % 10_000);
        let d = pair(hi) | pair(lo / 100) << 16 | pair(lo % 100) << 32;
        let lead = usize::from(v < 100_000);
        std::ptr::write_unaligned(p as *mut u64, (d >> (8 * lead)).to_le());
        p.add(6 - lead)
    } else if v < 100_000_000 {
        put_up_to_eight(p, v as u32)
    } else {
        put_long(p, v)
    }
}

/// [`put_digits`] from 10^8 up: the leading part, then the last eight digits in full.
///
/// # Safety
/// `p` valid for [`INT_ROOM`] bytes of writes: each part is one 8-byte store at a cursor that
/// moved at most 8 per part before it, so all lie in p..p + 24.
#[inline(never)]
unsafe fn put_long(p: *mut u8, v: u64) -> *mut u8 {
    const E8: u64 = 100_000_000;
    let (hi, lo) = (v / E8, (v % E8) as u32);
    let mut p = if hi < E8 {
        put_up_to_eight(p, hi as u32)
    } else {
        let q = put_up_to_eight(p, (hi / E8) as u32);
        std::ptr::write_unaligned(
            q as *mut u64,
            (eight_digits((hi % E8) as u32) + ZEROS).to_le(),
        );
        q.add(8)
    };
    std::ptr::write_unaligned(p as *mut u64, (eight_digits(lo) + ZEROS).to_le());
    p = p.add(8);
    p
}

/// Whether a byte of the words `w0` or `w1` needs an escape (below 0x20, `"` or `\\`): with
/// SSE2 as one 16-byte test, else by [`escape_mask`].
#[inline(always)]
fn words_need_escape(w0: u64, w1: u64) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of the x86_64 baseline; no memory is touched.
        unsafe { escape_bits(_mm_set_epi64x(w1 as i64, w0 as i64)) != 0 }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        escape_mask(w0) | escape_mask(w1) != 0
    }
}

/// A bit per byte of `v` that needs an escape (below 0x20, `"` or `\\`).
///
/// # Safety
/// SSE2 (the x86_64 baseline).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn escape_bits(v: std::arch::x86_64::__m128i) -> i32 {
    std::arch::x86_64::_mm_movemask_epi8(escape_lanes(v))
}

/// 0xff in each byte lane of `v` that needs an escape (below 0x20, `"` or `\\`), 0 elsewhere:
/// [`escape_bits`] before the mask is taken, so two blocks' lanes can be or-ed and tested once.
///
/// # Safety
/// SSE2 (the x86_64 baseline).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn escape_lanes(v: std::arch::x86_64::__m128i) -> std::arch::x86_64::__m128i {
    use std::arch::x86_64::*;
    // Flipping bit 1 maps the control bytes 0x00..=0x1f onto themselves and `"` (0x22) onto
    // 0x20, and no other byte into 0x00..=0x20 (their preimages are exactly those 33), so
    // one unsigned `min(x, 0x20) == x` tests both: a compare and an or fewer than testing
    // `v < 0x20` and `v == '"'` apart.
    let x = _mm_xor_si128(v, _mm_set1_epi8(2));
    let ctl_or_quote = _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(0x20)), x);
    let bs = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8));
    _mm_or_si128(ctl_or_quote, bs)
}

/// Eight spaces: padding of partial words, as a space needs no escape.
const SPACES: u64 = u64::from_le_bytes(*b"        ");

/// Nonzero when a byte of `w` is below 0x20, a `"` or a `\\` (SWAR: a byte's borrow only
/// spills into the bytes above a hit, so "any" is exact): the twin of `escape_bits` where
/// SSE2 is not at hand (on x86_64 only the tests use it).
#[cfg_attr(all(target_arch = "x86_64", not(test)), allow(dead_code))]
#[inline(always)]
fn escape_mask(w: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let below = w.wrapping_sub(ONES * 0x20) & !w & HIGH;
    below | crate::ascii::eq_mask(w, b'"') | crate::ascii::eq_mask(w, b'\\')
}

/// Copies `b` (over 16 bytes) to `dst` and answers true when no byte needs an escape (control
/// byte, `"`, `\`); answers false at the first step holding one (what was copied so far is
/// then to be overwritten). Up to 32 bytes are two overlapping 16-byte blocks tested as one;
/// longer strings go 32 bytes a step (two blocks, one test), the last step overlapping the
/// one before.
///
/// # Safety
/// `b.len() > 16` and `dst` valid for `b.len()` bytes of writes.
#[cfg(target_arch = "x86_64")]
#[inline]
unsafe fn copy_plain_long(b: &[u8], dst: *mut u8) -> bool {
    use std::arch::x86_64::*;
    let (s, n) = (b.as_ptr(), b.len());
    // SSE2 is part of the x86_64 baseline. Every load below reads 16 bytes at an offset
    // `at` with at + 16 <= n (so inside `b`) and its store writes them at dst + at (inside
    // the n bytes `dst` is valid for).
    let load = |at: usize| _mm_loadu_si128(s.add(at) as *const __m128i);
    let store = |at: usize, v: __m128i| _mm_storeu_si128(dst.add(at) as *mut __m128i, v);
    // Two blocks at `a` and `c` (both + 16 <= n), tested as one, then copied.
    let pair = |a: usize, c: usize| {
        let (v, w) = (load(a), load(c));
        if _mm_movemask_epi8(_mm_or_si128(escape_lanes(v), escape_lanes(w))) != 0 {
            return false;
        }
        store(a, v);
        store(c, w);
        true
    };
    if n <= 32 {
        // 16 < n <= 32: the first and the last 16 bytes cover all.
        return pair(0, n - 16);
    }
    let mut at = 0;
    while at + 32 <= n {
        if !pair(at, at + 16) {
            return false;
        }
        at += 32;
    }
    // n > 32: the last 32 bytes start at n - 32 >= 0.
    at >= n || pair(n - 32, n - 16)
}

/// [`copy_plain_long`] a byte at a time, where SSE2 is not at hand.
///
/// # Safety
/// `dst` valid for `b.len()` bytes of writes.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
unsafe fn copy_plain_long(b: &[u8], dst: *mut u8) -> bool {
    if b.iter().any(|&c| c < 0x20 || c == b'"' || c == b'\\') {
        return false;
    }
    std::ptr::copy_nonoverlapping(b.as_ptr(), dst, b.len());
    true
}

/// "00" to "99": two digits at a time, as itoa writes them.
const PAIRS: &[u8; 200] = b"\
0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

#[cfg(test)]
mod tests;
