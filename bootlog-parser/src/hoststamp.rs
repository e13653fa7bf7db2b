//! Host timestamp layers that capture tools put in front of console lines.
//!
//! Recognised, outermost first: LAVA `log.yaml` lines, grabserial `-t` (`[abs delta] `, also the
//! project's raw capture format) and `-T` (`[HH:MM:SS.ffffff] `), minicom / picocom / tio wall
//! clocks (`[YYYY-MM-DD HH:MM:SS.mmm] `), syslog `<n>` levels, and the Raspberry Pi firmware's
//! own stamps (`MESS:hh:mm:ss.us:N:`, `NNNNNN.NNN:`), which are a target clock.

use nom::{bytes::complete::take_while_m_n, character::complete::char, sequence::tuple, IResult};
use std::borrow::Cow;

/// Which host clock a stamp is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostScale {
    /// Seconds since capture start or power-on (grabserial `-t`, raw capture).
    Relative,
    /// Wall clock, seconds since 1970 (minicom, LAVA) or since midnight (grabserial `-T`).
    Wall,
}

/// One console record: a line, or a part of one when a capture glued two records together.
#[derive(Debug, Clone, PartialEq)]
pub struct Record<'a> {
    /// 1-based input line.
    pub line: u64,
    /// Host time of the record, if the capture stamped it.
    pub host_s: Option<f64>,
    /// The scale of `host_s`.
    pub scale: HostScale,
    /// A firmware stamp (Raspberry Pi `MESS:`), target clock, seconds.
    pub fw_s: Option<f64>,
    /// The console text with every stamp layer removed.
    pub text: Cow<'a, str>,
}

/// What [`strip`] found in front of a line.
#[derive(Debug, Clone, PartialEq)]
pub enum Layer<'a> {
    /// No host layer; the text as given.
    None(&'a str),
    /// A host stamp and the rest of the text.
    Host(f64, HostScale, &'a str),
    /// A LAVA line: its stamp and its message (already unescaped), or `None` for LAVA's own
    /// (non-console) messages.
    Lava(Option<f64>, Option<String>),
    /// A LAVA `input` line: its stamp and what LAVA typed on the console (already unescaped).
    LavaInput(Option<f64>, String),
}

fn num(s: &str) -> f64 {
    s.parse().unwrap_or(0.0)
}

/// `[abs delta]` (grabserial -t, raw capture): the hand-written twin of `reference::grabserial_nom`
/// (same language and value, compared by a proptest), as it runs on every stamped line.
/// The usual layout ([`grabserial_six`]) is always inlined into the callers, which save the
/// registers anyway (a call of its own saved six more); other texts go to
/// [`grabserial_other`].
#[inline(always)]
fn grabserial_t(i: &str) -> IResult<&str, f64> {
    let b = i.as_bytes();
    if b.first() == Some(&b'[') {
        if let Some((end, v)) = grabserial_six(b) {
            return Ok((&i[end..], v));
        }
    }
    grabserial_other(i)
}

/// [`grabserial_t`] of a text [`grabserial_six`] did not read, in a call of its own so that
/// the word and byte readers do not swell the callers.
#[inline(never)]
fn grabserial_other(i: &str) -> IResult<&str, f64> {
    let err = || nom::Err::Error(nom::error::Error::new(i, nom::error::ErrorKind::Char));
    let b = i.as_bytes();
    if b.first() != Some(&b'[') {
        return Err(err());
    }
    if let Some(decided) = grabserial_words(b) {
        return decided.map(|(end, v)| (&i[end..], v)).ok_or_else(err);
    }
    let blanks = |mut k: usize| {
        while k < b.len() && (b[k] == b' ' || b[k] == b'\t') {
            k += 1;
        }
        k
    };
    // `digits(.digits)?` from k: (end, integer digits, fraction digits).
    let number = |k: usize| -> Option<(usize, &[u8], &[u8])> {
        let mut e = k;
        while e < b.len() && b[e].is_ascii_digit() {
            e += 1;
        }
        if e == k {
            return None;
        }
        let int = &b[k..e];
        if b.get(e) == Some(&b'.') {
            let mut f = e + 1;
            while f < b.len() && b[f].is_ascii_digit() {
                f += 1;
            }
            if f > e + 1 {
                return Some((f, int, &b[e + 1..f]));
            }
        }
        Some((e, int, &[]))
    };
    let k0 = blanks(1);
    let (e, int, frac) = number(k0).ok_or_else(err)?;
    let k = blanks(e);
    if k == e {
        return Err(err());
    }
    let (e2, _, _) = number(k).ok_or_else(err)?;
    if b.get(e2) != Some(&b']') {
        return Err(err());
    }
    // `int.frac` as one integer over 10^frac places, when short enough to be exact.
    let v = (int.len() + frac.len() < 16)
        .then(|| {
            let n = int
                .iter()
                .chain(frac)
                .fold(0u64, |a, &c| a * 10 + u64::from(c - b'0'));
            crate::linux::decimal(n, frac.len())
        })
        .flatten()
        .unwrap_or_else(|| num(&i[k0..e]));
    Ok((&i[e2 + 1..], v))
}

/// [`grabserial_t`] of a `[`-text in the capture's usual shape, `[I.FFFFFF D.FFFFFF]` (1 to 7
/// digits before each `.`, six after, one blank between): the end of the stamp and its value,
/// from four 8-byte words and no loop; `None` for any other text, which the general readers
/// decide. Where it answers, it answers what they do: `IFFFFFF` over 10^6, one exact division.
#[inline(always)]
fn grabserial_six(b: &[u8]) -> Option<(usize, f64)> {
    use crate::ascii::word_at;
    use crate::linux::{decimal, digit_run, digits_value, dot_six};
    let w = word_at(b, 1)?;
    // One digit then `.` (the capture's first ten seconds) is told by two byte tests; other
    // runs are measured. Both give what `digit_run` and `digits_value` give.
    let (n, whole) = match one_digit(w) {
        Some(v) => (1, v),
        None => {
            let n = digit_run(w);
            // The `.` after the digits (which `dot_six` below tests first) tested before
            // their value is read: the `[`-lines with a digit after the `[` that are in
            // no grabserial layout (wall clocks' `[2024-`, `[0]crclist`) leave here, with
            // no reading.
            if n == 0 || n == 8 || (w >> (8 * n)) as u8 != b'.' {
                return None;
            }
            (n, digits_value(w, n))
        }
    };
    // `.FFFFFF ` from the `.`, then the delta's digits from the byte after the blank.
    let frac = dot_six(word_at(b, 1 + n)?, b' ')?;
    let d = n + 9;
    let wd = word_at(b, d)?;
    let m = match one_digit(wd) {
        Some(_) => 1,
        None => digit_run(wd),
    };
    if m == 0 || m == 8 {
        return None;
    }
    dot_six(word_at(b, d + m)?, b']')?;
    // Under 8 whole digits: the integer is under 10^13, exact, and `decimal` divides it once.
    let v = decimal(whole * 1_000_000 + frac, 6)?;
    Some((d + m + 8, v))
}

/// The digit's value when the word `w` (first byte lowest) starts with one digit then `.`:
/// a grabserial number under ten seconds, whose `digit_run` is 1.
#[inline(always)]
fn one_digit(w: u64) -> Option<u64> {
    let d = (w as u8).wrapping_sub(b'0');
    ((w >> 8) as u8 == b'.' && d < 10).then_some(u64::from(d))
}

/// A number [`grabserial_words`] read: the words holding its whole and fraction digits and
/// how many each holds, and where the number ends.
type WordNumber = (u64, usize, u64, usize, usize);

/// [`grabserial_t`] of a `[`-text whose numbers have under 8 digits on each side of their
/// `.`, read 8 bytes a word: `Some` with the answer (the end of the stamp and the value, or
/// `None` for no stamp) when it could decide, `None` to leave it to the byte reader (a blank
/// after `[`, longer runs of digits, fewer than 8 bytes left to load). The same value: the
/// digits as one integer over 10^places, as the byte reader computes it.
#[inline]
fn grabserial_words(b: &[u8]) -> Option<Option<(usize, f64)>> {
    use crate::ascii::word_at;
    use crate::linux::{decimal, digit_run, digits_value};
    // `digits(.digits)?` at `k`: the digit words and counts, and the end; `None` undecided,
    // `Some(None)` no number.
    let number = |k: usize| -> Option<Option<WordNumber>> {
        let w = word_at(b, k)?;
        let n = digit_run(w);
        if n == 8 {
            return None;
        }
        if n == 0 {
            return Some(None);
        }
        let e = k + n;
        if b[e] != b'.' {
            return Some(Some((w, n, 0, 0, e)));
        }
        let f = word_at(b, e + 1)?;
        let nf = digit_run(f);
        if nf == 8 {
            return None;
        }
        // `.` without digits is not part of the number.
        let end = if nf == 0 { e } else { e + 1 + nf };
        Some(Some((w, n, f, nf, end)))
    };
    if matches!(b.get(1), Some(b' ' | b'\t')) {
        return None;
    }
    let Some((w, n, f, nf, e)) = number(1)? else {
        return Some(None);
    };
    // At least one blank, then the delta.
    let mut k = e;
    while matches!(b.get(k), Some(b' ' | b'\t')) {
        k += 1;
    }
    if k == e {
        return Some(None);
    }
    let Some((_, _, _, _, e2)) = number(k)? else {
        return Some(None);
    };
    if b.get(e2) != Some(&b']') {
        return Some(None);
    }
    // Under 8 digits a side: 10^nf * int + frac is exact and `decimal` divides it exactly.
    let int = digits_value(w, n);
    let frac = if nf == 0 { 0 } else { digits_value(f, nf) };
    const SCALE: [u64; 8] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000];
    let v = decimal(int * SCALE[nf] + frac, nf)?;
    Some(Some((e2 + 1, v)))
}

fn two(i: &str) -> IResult<&str, u32> {
    let (i, d) = take_while_m_n(2, 2, |c: char| c.is_ascii_digit())(i)?;
    Ok((i, d.parse().unwrap_or(0)))
}

/// `HH:MM:SS(.frac)` -> seconds since midnight. By hand (every Raspberry Pi firmware line
/// has one); `reference::clock_time_nom` is the reference a proptest compares it with.
fn clock_time(i: &str) -> IResult<&str, f64> {
    let b = i.as_bytes();
    if let Some(r) = clock_time_words(b) {
        return Ok((&i[r.1..], r.0));
    }
    let d = |k: usize| {
        b.get(k)
            .filter(|c| c.is_ascii_digit())
            .map(|c| u32::from(c - b'0'))
    };
    let two = |k: usize| Some(d(k)? * 10 + d(k + 1)?);
    let parsed = (|| {
        let h = two(0)?;
        (b.get(2) == Some(&b':')).then_some(())?;
        let m = two(3)?;
        (b.get(5) == Some(&b':')).then_some(())?;
        let s = two(6)?;
        Some((h * 3600 + m * 60 + s) as f64)
    })();
    let Some(whole) = parsed else {
        return Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Char,
        )));
    };
    if b.get(8) == Some(&b'.') {
        let mut f = 9;
        while f < b.len() && b[f].is_ascii_digit() {
            f += 1;
        }
        if f > 9 {
            return Ok((&i[f..], whole + crate::linux::fraction(&i[9..f])));
        }
    }
    Ok((&i[8..], whole))
}

/// [`clock_time`] of the common shape, `HH:MM:SS.f` with 1 to 7 fraction digits and 8
/// bytes to read after the `.`, by 8-byte words: the seconds and the length; `None` for
/// anything else (the byte reader decides those). The same value: `fraction` of under 8
/// digits is `decimal` of their integer.
#[inline]
fn clock_time_words(b: &[u8]) -> Option<(f64, usize)> {
    use crate::linux::{decimal, digit_run, digits_value};
    let whole = hh_mm_ss(b)?;
    if b.get(8) != Some(&b'.') {
        return None;
    }
    let f = crate::ascii::word_at(b, 9)?;
    let n = digit_run(f);
    if n == 0 || n == 8 {
        return None;
    }
    Some((whole + decimal(digits_value(f, n), n)?, 9 + n))
}

/// The seconds of the `HH:MM:SS` that `b` starts with, from one 8-byte word; `None` when
/// `b` starts otherwise (or is shorter).
#[inline(always)]
fn hh_mm_ss(b: &[u8]) -> Option<f64> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = LO << 7;
    // `HH:MM:SS` xor its layout: the colons zero, the digits their values (each at most 9:
    // `+ 0x76` sets the high bit of a byte past 9, and bytes of 0x80 or more have it).
    let x = crate::ascii::word_at(b, 0)? ^ u64::from_le_bytes(*b"00:00:00");
    if ((x.wrapping_add(LO * 0x76) | x) & HI) | (x & 0x0000_FF00_00FF_0000) != 0 {
        return None;
    }
    let byte = |k: u32| (x >> (8 * k)) as u32 & 0xFF;
    let two = |k: u32| byte(k) * 10 + byte(k + 1);
    Some((two(0) * 3600 + two(3) * 60 + two(6)) as f64)
}

/// The firmware's own `MESS:` layout after the `MESS:`, `HH:MM:SS.ffffff:N:` (18 bytes, a
/// one-digit core field): its seconds and length from two words, `None` for any other text
/// (the general readers decide those). The same value as [`clock_time_words`]: the clock's
/// seconds plus `decimal` of the six fraction digits.
#[inline(always)]
fn mess_fixed(b: &[u8]) -> Option<(f64, usize)> {
    let whole = hh_mm_ss(b)?;
    let frac = crate::linux::dot_six(crate::ascii::word_at(b, 8)?, b':')?;
    if !(b.get(16)?.is_ascii_digit() && b.get(17) == Some(&b':')) {
        return None;
    }
    Some((whole + crate::linux::decimal(frac, 6)?, 18))
}

/// `YYYY-MM-DD` -> days since 1970-01-01.
fn date(i: &str) -> IResult<&str, i64> {
    let (i, (y, _, m, _, d)) = tuple((
        take_while_m_n(4, 4, |c: char| c.is_ascii_digit()),
        char('-'),
        two,
        char('-'),
        two,
    ))(i)?;
    Ok((i, days_from_civil(y.parse().unwrap_or(1970), m, d)))
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
pub fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let m = m as i64;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

/// `YYYY-MM-DD[ T]HH:MM:SS(.frac)` -> seconds since 1970 (time zone ignored: only differences
/// matter).
pub fn wall_time(i: &str) -> IResult<&str, f64> {
    let (i, (d, _, t)) = tuple((date, nom::branch::alt((char(' '), char('T'))), clock_time))(i)?;
    Ok((i, d as f64 * 86400.0 + t))
}

/// `[YYYY-MM-DD HH:MM:SS.mmm]` (minicom, picocom, tio) or `[HH:MM:SS.ffffff( delta)]`
/// (grabserial -T): `reference::wall_bracket` by hand (same language and value, compared by a
/// proptest), as every `[`-line with a digit that is no other stamp gets here.
fn wall_bracket_fast(i: &str) -> Option<(&str, f64)> {
    let r = i.strip_prefix('[')?;
    let b = r.as_bytes();
    let digits = |from: usize, n: usize| {
        b.get(from..from + n)
            .filter(|d| d.iter().all(u8::is_ascii_digit))
            .map(|d| d.iter().fold(0u32, |a, &c| a * 10 + u32::from(c - b'0')))
    };
    // `wall_time`, else `clock_time` from the same place (nom's `alt`).
    let wall = (|| {
        let y = digits(0, 4)?;
        (b.get(4) == Some(&b'-')).then_some(())?;
        let m = digits(5, 2)?;
        (b.get(7) == Some(&b'-')).then_some(())?;
        let d = digits(8, 2)?;
        matches!(b.get(10), Some(b' ' | b'T')).then_some(())?;
        // The word reader straight away (what `clock_time` tries first), without the
        // `IResult` plumbing; `clock_time` for the other shapes.
        let c = &r[11..];
        let (rest, t) = match clock_time_words(c.as_bytes()) {
            // `n` follows an ASCII digit: a char boundary.
            Some((t, n)) => (&c[n..], t),
            None => clock_time(c).ok()?,
        };
        Some((
            rest,
            days_from_civil(i64::from(y), m, d) as f64 * 86400.0 + t,
        ))
    })();
    let (rest, t) = match wall {
        Some(w) => w,
        None => clock_time(r).ok()?,
    };
    // `opt(tuple((space1, frac)))`: blanks and a number, or nothing.
    let rb = rest.as_bytes();
    let sp = rb.iter().take_while(|&&c| c == b' ' || c == b'\t').count();
    let int = rb[sp..].iter().take_while(|c| c.is_ascii_digit()).count();
    let rest = if sp > 0 && int > 0 {
        let e = sp + int;
        let f = rb
            .get(e + 1..)
            .map_or(0, |d| d.iter().take_while(|c| c.is_ascii_digit()).count());
        if rb.get(e) == Some(&b'.') && f > 0 {
            &rest[e + 1 + f..]
        } else {
            &rest[e..]
        }
    } else {
        rest
    };
    Some((rest.strip_prefix(']')?, t))
}

/// Whether a line whose first non-blank byte is `first` may carry a host layer: every stamp
/// starts with `[`, a LAVA line with `-`. [`strip`] returns any other line as it is.
pub fn may_start(first: u8) -> bool {
    first == b'[' || first == b'-'
}

/// Strips one host layer from the front of a line (after leading blanks).
pub fn strip(text: &str) -> Layer<'_> {
    let t = crate::ascii::trim_start(text);
    let Some(&first) = t.as_bytes().first() else {
        return Layer::None(text);
    };
    if !may_start(first) {
        return Layer::None(text);
    }
    if first == b'[' {
        // A printk stamp `[ *d+.d+]` is neither a grabserial `[abs delta]` nor a wall clock
        // (those need a second number or `-`/`:` inside the brackets): most `[` lines are
        // printk lines, so rule them out with the cheap scanner before the nom grammars.
        if crate::linux::stamp_len(t.as_bytes()).is_some() {
            return Layer::None(text);
        }
        return bracket(text, t);
    } else if first == b'-' && t.starts_with("- {") {
        if let Some(l) = lava(t) {
            return l;
        }
    }
    Layer::None(text)
}

/// The host stamp of a line whose first non-blank byte `t` starts with is `[` and which is not
/// printk-stamped (the caller checked [`crate::linux::stamp_len`]); `text` is the whole line.
pub(crate) fn bracket<'a>(text: &'a str, t: &'a str) -> Layer<'a> {
    // Both host stamps have a digit right after `[` and its blanks (`[  OK  ]` has not), and
    // a `.` or a blank (grabserial), a `-` or a `:` (wall clocks, which have no blanks after
    // the `[`) right after its digits: `[  5]   0.00-1.00 sec` (iperf) and `[0]crclist` are
    // turned away before the readers.
    // The capture's usual layout first (a digit right after the `[`): what the reader
    // chosen below answers for it, read with no look at the blanks and digits.
    if let Some((abs, rest)) = grabserial_usual(t) {
        return Layer::Host(abs, HostScale::Relative, rest);
    }
    let after = crate::ascii::trim_start_bytes(&t.as_bytes()[1..]);
    if !after.first().is_some_and(u8::is_ascii_digit) {
        return Layer::None(text);
    }
    // That byte also says which reader may match: the other is not asked.
    let digits = after.iter().take_while(|c| c.is_ascii_digit()).count();
    match after.get(digits) {
        Some(b'.' | b' ' | b'\t') => {
            if let Ok((rest, abs)) = grabserial_t(t) {
                return Layer::Host(
                    abs,
                    HostScale::Relative,
                    rest.strip_prefix(' ').unwrap_or(rest),
                );
            }
        }
        Some(b'-' | b':') => {
            if let Some((rest, w)) = wall_bracket_fast(t) {
                return Layer::Host(w, HostScale::Wall, rest.strip_prefix(' ').unwrap_or(rest));
            }
        }
        _ => {}
    }
    Layer::None(text)
}

/// [`bracket`]'s answer for a `t` in grabserial's usual layout (see [`grabserial_six`]), a
/// digit right after its `[`: the host time and the text after the stamp and one blank;
/// `None` for any other `t` (which `bracket` then reads). The timeline's path for `[`-lines
/// with a digit after the `[` asks it first, sparing `bracket`'s call.
#[inline(always)]
pub(crate) fn grabserial_usual(t: &str) -> Option<(f64, &str)> {
    if !(t.as_bytes().get(1).is_some_and(u8::is_ascii_digit) && t.starts_with('[')) {
        return None;
    }
    let (end, abs) = grabserial_six(t.as_bytes())?;
    // `end` follows the stamp's ASCII `]`, a char boundary: `get` always answers, and has
    // no panic (a call) to make its callers align their stack.
    let rest = t.get(end..)?;
    Some((abs, rest.strip_prefix(' ').unwrap_or(rest)))
}

/// [`bracket`]'s answer for a `t` with a minicom / picocom / tio wall clock in its usual
/// layout, `[YYYY-MM-DD HH:MM:SS.f]` (a blank or `T` between date and clock, 1 to 7 fraction
/// digits right before the `]`): the wall time and the text after the stamp and one blank,
/// from three 8-byte words and no loop; `None` for any other `t` (which `bracket` reads). The
/// same value as [`wall_bracket_fast`]: the same days, clock seconds and `decimal` fraction.
#[inline(always)]
pub(crate) fn wall_usual(t: &str) -> Option<(f64, &str)> {
    use crate::ascii::word_at;
    use crate::linux::{decimal, digit_run, digits_value};
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = LO << 7;
    let b = t.as_bytes();
    // `YYYY-MM-` xor its layout: the dashes zero, the digits their values (each at most 9,
    // as `hh_mm_ss` tells them).
    let x = word_at(b, 1)? ^ u64::from_le_bytes(*b"0000-00-");
    if b[0] != b'[' || ((x.wrapping_add(LO * 0x76) | x) & HI) | (x & 0xFF00_00FF_0000_0000) != 0 {
        return None;
    }
    let byte = |k: u32| (x >> (8 * k)) as u32 & 0xFF;
    let y = ((byte(0) * 10 + byte(1)) * 10 + byte(2)) * 10 + byte(3);
    let m = byte(5) * 10 + byte(6);
    let &[d0, d1, sep] = b.get(9..12)? else {
        return None;
    };
    if !(d0.is_ascii_digit() && d1.is_ascii_digit() && matches!(sep, b' ' | b'T')) {
        return None;
    }
    let d = u32::from(d0 - b'0') * 10 + u32::from(d1 - b'0');
    let whole = hh_mm_ss(&b[12..])?;
    if b.get(20) != Some(&b'.') {
        return None;
    }
    // The fraction's digits: a word from 21, or (a stamp that ends the line, fewer than 8
    // bytes left) its bytes; either way under 8 of them and their value.
    let (frac, nf) = match word_at(b, 21) {
        Some(f) => {
            let nf = digit_run(f);
            (digits_value(f, nf.max(1)), nf)
        }
        None => {
            let tail = &b[21..];
            let nf = tail.iter().take_while(|c| c.is_ascii_digit()).count();
            let v = tail[..nf]
                .iter()
                .fold(0u64, |a, &c| a * 10 + u64::from(c - b'0'));
            (v, nf)
        }
    };
    if nf == 0 || nf == 8 || b.get(21 + nf) != Some(&b']') {
        return None;
    }
    let clock = whole + decimal(frac, nf)?;
    let v = days_from_civil(i64::from(y), m, d) as f64 * 86400.0 + clock;
    // `22 + nf` follows the ASCII `]`: a char boundary.
    let rest = &t[22 + nf..];
    Some((v, rest.strip_prefix(' ').unwrap_or(rest)))
}

/// A LAVA `log.yaml` line (see [`crate::lava`]): its `dt` and, for console levels, its message.
fn lava(t: &str) -> Option<Layer<'static>> {
    let l = crate::lava::read_line(t)?;
    let dt =
        l.dt.as_deref()
            .and_then(|d| wall_time(d).ok())
            .map(|(_, s)| s);
    Some(match l.lvl.as_deref() {
        Some(crate::lava::INPUT_LEVEL) => Layer::LavaInput(dt, l.msg.unwrap_or_default()),
        _ => Layer::Lava(dt, l.console()),
    })
}

/// A syslog priority `<n>` in front of a kernel line.
#[inline]
pub fn strip_syslog(text: &str) -> &str {
    let b = text.as_bytes();
    if b.first() == Some(&b'<') {
        if let Some(end) = b.iter().take(5).position(|&c| c == b'>') {
            if end > 1 && b[1..end].iter().all(u8::is_ascii_digit) {
                return &text[end + 1..];
            }
        }
    }
    text
}

/// Raspberry Pi firmware stamps: `MESS:hh:mm:ss.us:N:` (start4.elf) or `NNNNNN.NNN: `
/// (bootcode / EEPROM debug). Returns the firmware time and the rest.
#[inline]
pub fn strip_rpi(text: &str) -> Option<(f64, &str)> {
    // Inlined: `MESS:`, or the `.` and `:` of `NNNNNN.NNN:`, else no firmware stamp.
    let b = text.as_bytes();
    if !(b.starts_with(b"MESS:") || (b.len() > 11 && b[6] == b'.' && b[10] == b':')) {
        return None;
    }
    strip_rpi_stamp(text)
}

/// [`strip_rpi`] of a text in the firmware's usual layout, `MESS:HH:MM:SS.ffffff:N:` (see
/// [`mess_fixed`]): the same answer, from three word tests with no call; `None` for any other
/// text (which `strip_rpi` then reads). The timeline's path for prefixed lines asks it first.
#[inline(always)]
pub(crate) fn mess_usual(text: &str) -> Option<(f64, &str)> {
    let b = text.as_bytes();
    // The layout's 23 bytes (`MESS:`, then the 18 `mess_fixed` reads) tested at once: the
    // readers' own length tests below are then known to pass, and go.
    if b.len() < 23 {
        return None;
    }
    // `MESS:` as the low five bytes of the first word.
    let w = crate::ascii::word_at(b, 0)?;
    if w & 0xFF_FFFF_FFFF != u64::from_le_bytes(*b"MESS:\0\0\0") {
        return None;
    }
    let (t, end) = mess_fixed(&b[5..])?;
    // `5 + end` follows the ASCII `:`: a char boundary.
    let rest = &text[5 + end..];
    Some((t, rest.strip_prefix(' ').unwrap_or(rest)))
}

/// [`strip_rpi`] past its inlined check.
fn strip_rpi_stamp(text: &str) -> Option<(f64, &str)> {
    if let Some(rest) = text.strip_prefix("MESS:") {
        if let Some((t, end)) = mess_fixed(rest.as_bytes()) {
            // `end` follows the ASCII `:`: a char boundary.
            let rest = &rest[end..];
            return Some((t, rest.strip_prefix(' ').unwrap_or(rest)));
        }
        // The word reader straight away (what `clock_time` tries first), without the
        // `IResult` plumbing; `clock_time` for the other shapes.
        let (t, end) = match clock_time_words(rest.as_bytes()) {
            Some(r) => (r.0, r.1),
            None => {
                let (r, t) = clock_time(rest).ok()?;
                (t, rest.len() - r.len())
            }
        };
        // `:N:` (nom's `char(':'), digit1, char(':')`, by hand): one digit, the firmware's
        // core field, checked at once, else the digit run.
        let b = &rest.as_bytes()[end..];
        let n = if b.len() >= 3 && b[0] == b':' && b[1].is_ascii_digit() && b[2] == b':' {
            1
        } else {
            let n = b.iter().skip(1).take_while(|c| c.is_ascii_digit()).count();
            if b.first() != Some(&b':') || n == 0 || b.get(n + 1) != Some(&b':') {
                return None;
            }
            n
        };
        let rest = &rest[end + n + 2..];
        return Some((t, rest.strip_prefix(' ').unwrap_or(rest)));
    }
    // `NNNNNN.NNN:` by hand (this test runs on every line that starts with a digit).
    let b = text.as_bytes();
    if b.len() > 11
        && b[..6].iter().all(u8::is_ascii_digit)
        && b[6] == b'.'
        && b[7..10].iter().all(u8::is_ascii_digit)
        && b[10] == b':'
    {
        let ms = b[..6]
            .iter()
            .chain(&b[7..10])
            .fold(0u64, |a, d| a * 10 + u64::from(d - b'0'));
        // Nine digits, three of them places: always exact (the value `NNNNNN.NNN` parses to).
        let secs = crate::linux::decimal(ms, 3)?;
        let rest = &text[11..];
        return Some((secs, rest.strip_prefix(' ').unwrap_or(rest)));
    }
    None
}

/// Splits a grabserial `-t` line that holds several glued records
/// (`Trying to boot from MMC1[0.262093 0.038996] Expected ...`) into its parts.
/// Returns `(text_before, Some((abs, rest)))` when a stamp is found inside the text.
pub fn split_glued(text: &str) -> Option<(&str, f64, &str)> {
    let b = text.as_bytes();
    // Most texts have no `[`: turned away before the loop's set-up.
    let mut at = crate::ascii::find_byte(b, b'[')?;
    loop {
        // `grabserial_t` takes a digit, a blank or a tab after the `[` (its `space0` then
        // digits); of those after a blank, a printk `[    0.090111]` (grabserial lines of
        // kernel output) is told by its cheaper reader: it has no delta, so it never matches.
        let tried = match b.get(at + 1) {
            Some(b'0'..=b'9' | b'\t') => true,
            Some(b' ') => crate::linux::stamp_len(&b[at..]).is_none(),
            _ => false,
        };
        if tried {
            if let Ok((rest, abs)) = grabserial_t(&text[at..]) {
                return Some((&text[..at], abs, rest.strip_prefix(' ').unwrap_or(rest)));
            }
        }
        at += 1 + crate::ascii::find_byte(&b[at + 1..], b'[')?;
    }
}

/// The nom grammars and plain versions the hand-written readers stand in for: the differential tests' references.
#[cfg(test)]
mod reference {
    use super::*;
    // The nom references of the hand-written stamp readers (tests only).
    use nom::{
        character::complete::{digit1, space1},
        combinator::{opt, recognize},
    };

    pub(super) fn frac(i: &str) -> IResult<&str, &str> {
        recognize(tuple((digit1, opt(tuple((char('.'), digit1))))))(i)
    }

    /// The nom grammar [`grabserial_t`] stands in for.
    pub(super) fn grabserial_nom(i: &str) -> IResult<&str, f64> {
        let (i, (_, _, abs, _, _delta, _)) = tuple((
            char('['),
            nom::character::complete::space0,
            frac,
            space1,
            frac,
            char(']'),
        ))(i)?;
        Ok((i, num(abs)))
    }

    /// The nom grammar [`clock_time`] stands in for.
    pub(super) fn clock_time_nom(i: &str) -> IResult<&str, f64> {
        let (i, (h, _, m, _, s, f)) = tuple((
            two,
            char(':'),
            two,
            char(':'),
            two,
            opt(tuple((char('.'), digit1))),
        ))(i)?;
        let fr = f.map(|(_, d)| crate::linux::fraction(d)).unwrap_or(0.0);
        Ok((i, (h * 3600 + m * 60 + s) as f64 + fr))
    }

    /// The nom grammar [`wall_bracket_fast`] stands in for.
    pub(super) fn wall_bracket(i: &str) -> IResult<&str, f64> {
        let (i, _) = char('[')(i)?;
        let (i, t) = nom::branch::alt((wall_time, clock_time))(i)?;
        let (i, _) = opt(tuple((space1, frac)))(i)?;
        let (i, _) = char(']')(i)?;
        Ok((i, t))
    }

    /// [`bracket`] without its look past the first digits (its test reference).
    pub(super) fn bracket_ref<'a>(text: &'a str, t: &'a str) -> Layer<'a> {
        let after = crate::ascii::trim_start_bytes(&t.as_bytes()[1..]);
        if !after.first().is_some_and(u8::is_ascii_digit) {
            return Layer::None(text);
        }
        if let Ok((rest, abs)) = grabserial_t(t) {
            return Layer::Host(
                abs,
                HostScale::Relative,
                rest.strip_prefix(' ').unwrap_or(rest),
            );
        }
        if let Some((rest, w)) = wall_bracket_fast(t) {
            return Layer::Host(w, HostScale::Wall, rest.strip_prefix(' ').unwrap_or(rest));
        }
        Layer::None(text)
    }

    /// [`split_glued`] trying the grabserial reader at every `[` (its test reference).
    pub(super) fn split_glued_ref(text: &str) -> Option<(&str, f64, &str)> {
        let mut at = 0;
        loop {
            at += text[at..].find('[')?;
            if let Ok((rest, abs)) = grabserial_t(&text[at..]) {
                return Some((&text[..at], abs, rest.strip_prefix(' ').unwrap_or(rest)));
            }
            at += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::reference::*;
    use super::*;
    use nom::character::complete::digit1;

    proptest::proptest! {
        #[test]
        fn fast_clock_time_is_the_nom_grammar(
            noise in "[0-9:.x]{0,14}",
            shaped in "[0-9]{1,3}:[0-9]{2}:[0-9]{1,3}(\\.[0-9]{0,20})?[.x]?",
        ) {
            for t in [noise, shaped] {
            let fast = clock_time(&t).ok().map(|(r, v)| (r, v.to_bits()));
            let slow = clock_time_nom(&t).ok().map(|(r, v)| (r, v.to_bits()));
            proptest::prop_assert_eq!(fast, slow, "{:?}", t);
            }
        }

        /// The word reader's shape (`HH:MM:SS.f`, 8 bytes after the `.`) and its near misses.
        #[test]
        fn word_clock_time_is_the_nom_grammar(
            clock in "[0-9]{2}:[0-9]{2}:[0-9]{2}",
            frac in "[0-9]{0,9}",
            tail in "[:x .0-9a]{0,9}",
            edit in proptest::option::of((0usize..20, proptest::sample::select(b"0:9./ \xfa".to_vec()))),
        ) {
            let mut b = format!("{clock}.{frac}{tail}").into_bytes();
            if let Some((at, c)) = edit {
                if at < b.len() && c < 0x80 {
                    b[at] = c;
                }
            }
            let t = String::from_utf8(b).unwrap();
            let fast = clock_time(&t).ok().map(|(r, v)| (r, v.to_bits()));
            let slow = clock_time_nom(&t).ok().map(|(r, v)| (r, v.to_bits()));
            proptest::prop_assert_eq!(fast, slow, "{:?}", t);
        }

        /// The word reader's shapes (8 bytes to read past each number) and near misses.
        #[test]
        fn word_grabserial_is_the_nom_grammar(
            a in "[0-9]{0,9}(\\.[0-9]{0,9})?",
            gap in "[ \t]{0,2}",
            d in "[0-9]{0,9}(\\.[0-9]{0,9})?",
            tail in "(\\]|)[ a-z\\].]{0,10}",
            edit in proptest::option::of((0usize..24, proptest::sample::select(b"0 9.]\t:x".to_vec()))),
        ) {
            let mut b = format!("[{a}{gap}{d}{tail}").into_bytes();
            if let Some((at, c)) = edit {
                if at < b.len() {
                    b[at] = c;
                }
            }
            let t = String::from_utf8(b).unwrap();
            let fast = grabserial_t(&t).ok().map(|(r, v)| (r, v.to_bits()));
            let slow = grabserial_nom(&t).ok().map(|(r, v)| (r, v.to_bits()));
            proptest::prop_assert_eq!(fast, slow, "{:?}", t);
        }

        /// The fixed-shape reader (`[I.FFFFFF D.FFFFFF]`) answers what the nom grammar does
        /// wherever it answers, on that shape and its near misses (other digit counts, blanks,
        /// bytes that border the digit range or carry when added to).
        #[test]
        fn six_grabserial_is_the_nom_grammar(
            a in "[0-9]{1,8}",
            af in "[0-9]{7}",
            af_len in proptest::sample::select(vec![6usize, 6, 6, 5, 7]),
            gap in proptest::sample::select(vec![" ", " ", " ", "  ", "\t"]),
            d in "[0-9]{0,8}",
            df in "[0-9]{7}",
            df_len in proptest::sample::select(vec![6usize, 6, 6, 5, 7]),
            tail in proptest::sample::select(vec!["]", "] x", "]]", "", ".", " ] U-Boot"]),
            edit in proptest::option::of((0usize..24, proptest::sample::select(b"0 9.]\t:/x".to_vec()))),
        ) {
            let (af, df) = (&af[..af_len], &df[..df_len]);
            let mut b = format!("[{a}.{af}{gap}{d}.{df}{tail}").into_bytes();
            if let Some((at, c)) = edit {
                if at < b.len() {
                    b[at] = c;
                }
            }
            let t = String::from_utf8(b).unwrap();
            let slow = grabserial_nom(&t).ok().map(|(r, v)| (r, v.to_bits()));
            // Its callers checked the `[`.
            let six = grabserial_six(t.as_bytes()).filter(|_| t.starts_with('['));
            if let Some((end, v)) = six {
                proptest::prop_assert_eq!(Some((&t[end..], v.to_bits())), slow, "{:?}", t);
            }
            let fast = grabserial_t(&t).ok().map(|(r, v)| (r, v.to_bits()));
            proptest::prop_assert_eq!(fast, slow, "{:?}", t);
        }

        #[test]
        fn fast_grabserial_is_the_nom_grammar(
            a in "[ \t]{0,2}[0-9]{0,18}(\\.[0-9]{0,18})?",
            gap in "[ \t]{0,2}",
            d in "[0-9]{0,4}(\\.[0-9]{0,4})?",
            tail in "[\\] x.0-9]{0,3}",
        ) {
            let t = format!("[{a}{gap}{d}{tail}");
            let fast = grabserial_t(&t).ok().map(|(r, v)| (r, v.to_bits()));
            let slow = grabserial_nom(&t).ok().map(|(r, v)| (r, v.to_bits()));
            proptest::prop_assert_eq!(fast, slow, "{:?}", t);
        }
    }

    proptest::proptest! {
        /// The hand-written wall-clock stamp is the nom grammar.
        #[test]
        fn fast_wall_bracket_is_the_nom_grammar(
            date in "([0-9]{3,5}-[0-9]{1,3}-[0-9]{2}[ T]|)",
            clock in "[0-9]{2}:[0-9]{2}:[0-9]{1,2}(\\.[0-9]{0,7})?",
            delta in "([ \t]{1,2}[0-9]{0,3}(\\.[0-9]{0,3})?|)",
            tail in "[\\] x.0-9:-]{0,3}",
        ) {
            let t = format!("[{date}{clock}{delta}{tail}");
            let fast = wall_bracket_fast(&t).map(|(r, v)| (r, v.to_bits()));
            let slow = wall_bracket(&t).ok().map(|(r, v)| (r, v.to_bits()));
            proptest::prop_assert_eq!(fast, slow, "{:?}", t);
        }
    }

    proptest::proptest! {
        /// The look past the first digits turns away no stamp: `bracket` is the readers'
        /// answer on texts glued from stamp pieces.
        #[test]
        fn bracket_rejects_no_stamp(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "0", "12", "2024", "5", ".", "262093", " ", "  ", "\t", "\r", "-", "03", ":", "]", "[",
                "0.262093 0.038996]", "2024-03-29 12:00:00.123]", "12:00:00.123456]", "x", "\u{e9}",
            ]), 0..9),
        ) {
            let t = format!("[{}", parts.concat());
            proptest::prop_assert_eq!(bracket(&t, &t), bracket_ref(&t, &t), "{:?}", t);
        }
    }

    proptest::proptest! {
        /// The fixed wall-clock reader (`[YYYY-MM-DD HH:MM:SS.f]`) answers what `bracket`
        /// (and so the nom grammar) does wherever it answers, on that shape and its near
        /// misses (other digit counts, separators, a byte overwritten).
        #[test]
        fn wall_usual_is_bracket(
            date in "[0-9]{4}-[0-9]{2}-[0-9]{2}",
            sep in proptest::sample::select(vec![" ", "T", "  ", "t"]),
            clock in "[0-9]{2}:[0-9]{2}:[0-9]{2}",
            frac in "(\\.[0-9]{0,9})?",
            delta in proptest::sample::select(vec!["", "", " 0.5", " 12"]),
            tail in proptest::sample::select(vec!["]", "] x", "]  NOTICE:  BL31", "", " ]", "]]"]),
            edit in proptest::option::of((0usize..34, proptest::sample::select(b"0 9.-:]/T\xfa".to_vec()))),
        ) {
            let mut b = format!("[{date}{sep}{clock}{frac}{delta}{tail}").into_bytes();
            if let Some((at, c)) = edit {
                if at < b.len() && c < 0x80 {
                    b[at] = c;
                }
            }
            let t = String::from_utf8(b).unwrap();
            if let Some((v, rest)) = wall_usual(&t) {
                match bracket(&t, &t) {
                    Layer::Host(w, HostScale::Wall, r) => {
                        proptest::prop_assert_eq!((v.to_bits(), rest), (w.to_bits(), r), "{:?}", t);
                    }
                    other => proptest::prop_assert!(false, "{:?}: {:?}", t, other),
                }
                let (r, w) = wall_bracket(&t).unwrap();
                proptest::prop_assert_eq!(v.to_bits(), w.to_bits(), "{:?}", t);
                proptest::prop_assert_eq!(rest, r.strip_prefix(' ').unwrap_or(r), "{:?}", t);
            }
        }
    }

    #[test]
    fn wall_usual_shapes() {
        let (v, rest) = wall_usual("[2024-03-29 11:52:40.318] NOTICE:  BL31").unwrap();
        let day = days_from_civil(2024, 3, 29) as f64 * 86400.0;
        assert_eq!(
            v,
            day + (11.0 * 3600.0 + 52.0 * 60.0 + 40.0 + 318.0 / 1000.0)
        );
        assert_eq!(rest, "NOTICE:  BL31");
        assert_eq!(wall_usual("[2024-03-29 11:52:40.318]"), Some((v, "")));
        assert_eq!(wall_usual("[2024-03-29 11:52:40.318] "), Some((v, "")));
        for t in [
            "[2024-03-29 11:52:40.318 0.5] x",
            "[2024-03-29 11:52:40] x",
            "[2024-03-29 11:52:40.]",
            "[2024-03-29 11:52:40.31",
            "[2024-03-29 11:52:40.318x",
            "[2024-03-29 11:52:40.12345678] x",
            "[2024-3-29 11:52:40.318] x",
            "[12:00:01.500000] x",
        ] {
            assert_eq!(wall_usual(t), None, "{t}");
        }
    }

    #[test]
    fn six_grabserial_shapes() {
        for (t, end, v) in [
            ("[0.216735 0.208341]", 19, 0.216735),
            ("[0.001344 0.001342] U-Boot", 19, 0.001344),
            ("[1234567.000001 12.5000001]", 0, 0.0),
            ("[1234567.000001 12.500000] x", 26, 1234567.000001),
        ] {
            let got = grabserial_six(t.as_bytes());
            let want = (end > 0).then_some((end, v));
            assert_eq!(got, want, "{t}");
        }
        for t in [
            "[0.216735  0.208341]",
            "[0.21673 0.208341]",
            "[12345678.000001 1.000000]",
            "[0.216735 0.208341",
        ] {
            assert_eq!(grabserial_six(t.as_bytes()), None, "{t}");
        }
    }

    #[test]
    fn grabserial_t_and_raw_capture() {
        assert_eq!(
            strip("[0.217195 0.000460] U-Boot SPL 2017.09"),
            Layer::Host(0.217195, HostScale::Relative, "U-Boot SPL 2017.09")
        );
        assert_eq!(
            strip("        [0.000002 0.000002]"),
            Layer::Host(0.000002, HostScale::Relative, "")
        );
    }

    #[test]
    fn printk_is_not_a_host_stamp() {
        assert_eq!(
            strip("[    0.090111] dmi: x"),
            Layer::None("[    0.090111] dmi: x")
        );
    }

    #[test]
    fn minicom_wall_clock() {
        match strip("[2024-03-29 11:52:40.318] NOTICE:  BL31: v2.10.0") {
            Layer::Host(t, HostScale::Wall, rest) => {
                assert_eq!(rest, "NOTICE:  BL31: v2.10.0");
                let day = days_from_civil(2024, 3, 29) as f64 * 86400.0;
                assert!((t - day - (11.0 * 3600.0 + 52.0 * 60.0 + 40.318)).abs() < 1e-6);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11017);
    }

    #[test]
    fn grabserial_systime() {
        match strip("[12:00:01.500000] x") {
            Layer::Host(t, HostScale::Wall, "x") => assert!((t - 43201.5).abs() < 1e-9),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn lava_lines() {
        let l = r#"- {"dt": "2024-01-02T03:04:05.250000", "lvl": "target", "msg": "U-Boot 2024.01 (x)"}"#;
        match strip(l) {
            Layer::Lava(Some(_), Some(m)) => assert_eq!(m, "U-Boot 2024.01 (x)"),
            other => panic!("{other:?}"),
        }
        let info = r#"- {"dt": "2024-01-02T03:04:05.250000", "lvl": "info", "msg": "start: 1 x"}"#;
        assert!(matches!(strip(info), Layer::Lava(Some(_), None)));
        let input = r#"- {"dt": "2024-01-02T03:04:05.250000", "lvl": "input", "msg": "root\n"}"#;
        match strip(input) {
            Layer::LavaInput(Some(_), m) => assert_eq!(m, "root\n"),
            other => panic!("{other:?}"),
        }
    }

    /// The `MESS:` stamp as nom reads it, the clock by `clock`: the reference of the
    /// hand-written `strip_rpi` paths.
    fn mess_nom(t: &str, clock: fn(&str) -> IResult<&str, f64>) -> Option<(f64, &str)> {
        let rest = t.strip_prefix("MESS:")?;
        let (rest, v) = clock(rest).ok()?;
        let (rest, _) = tuple((char(':'), digit1::<&str, ()>, char(':')))(rest).ok()?;
        Some((v, rest.strip_prefix(' ').unwrap_or(rest)))
    }

    proptest::proptest! {
        /// The `MESS:` core field read by hand is the nom sequence.
        #[test]
        fn rpi_core_field_is_the_nom_grammar(r in "[:0-9 a\u{e9}]{0,8}") {
            let t = format!("MESS:00:00:08.746506{r}");
            let slow = mess_nom(&t, clock_time);
            proptest::prop_assert_eq!(strip_rpi(&t), slow, "{:?}", t);
        }
    }

    proptest::proptest! {
        /// The `MESS:` stamp read by the word reader and the one-digit core check is the nom
        /// sequence, over clocks of every length of fraction and core fields of any shape.
        #[test]
        fn rpi_mess_stamp_is_the_nom_grammar(
            clock in "[0-9]{2}:[0-9]{1,2}:[0-9]{2}(\\.[0-9]{0,9})?",
            r in "[:0-9 a\u{e9}]{0,8}",
        ) {
            let t = format!("MESS:{clock}{r}");
            let slow = mess_nom(&t, clock_time_nom);
            proptest::prop_assert_eq!(strip_rpi(&t), slow, "{:?}", t);
        }
    }

    proptest::proptest! {
        /// The fixed `MESS:` reader (`HH:MM:SS.ffffff:N:`) is the nom sequence, on that shape
        /// and its near misses (a byte of it overwritten).
        #[test]
        fn rpi_mess_fixed_is_the_nom_grammar(
            clock in "[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{6}:[0-9]:",
            r in "[:0-9 a\u{e9}]{0,4}",
            edit in proptest::option::of((0usize..18, proptest::sample::select(b"0 9.:/x".to_vec()))),
        ) {
            let mut b = clock.into_bytes();
            if let Some((at, c)) = edit {
                b[at] = c;
            }
            let t = format!("MESS:{}{r}", String::from_utf8(b).unwrap());
            let slow = mess_nom(&t, clock_time_nom);
            proptest::prop_assert_eq!(strip_rpi(&t), slow, "{:?}", t);
        }
    }

    proptest::proptest! {
        /// The inlined check turns away no line with a firmware stamp.
        #[test]
        fn rpi_check_keeps_every_stamp(
            a in "(MESS:|MESS|000123|12345|)",
            b in "(00:00:08.746506:0: x|.456: boot|\\.45:|:|)",
            c in "[0-9.: a]{0,6}",
        ) {
            let t = format!("{a}{b}{c}");
            proptest::prop_assert_eq!(strip_rpi(&t), strip_rpi_stamp(&t), "{:?}", t);
        }
    }

    #[test]
    fn syslog_and_rpi() {
        assert_eq!(strip_syslog("<6>[    1.0] x"), "[    1.0] x");
        assert_eq!(strip_syslog("<abc>"), "<abc>");
        let (t, rest) = strip_rpi("MESS:00:00:08.746506:0:[    0.000000] Booting Linux").unwrap();
        assert!((t - 8.746506).abs() < 1e-9);
        assert_eq!(rest, "[    0.000000] Booting Linux");
        let (t, rest) = strip_rpi("000123.456: boot mode").unwrap();
        assert!((t - 123.456).abs() < 1e-9);
        assert_eq!(rest, "boot mode");
        assert!(strip_rpi("2021.01 x").is_none());
    }

    proptest::proptest! {
        /// [`split_glued`]'s look at the byte after each `[` turns away no glued record: it
        /// answers what trying the reader at every `[` answers, on texts glued from stamps of
        /// both kinds, their pieces and words.
        #[test]
        fn split_glued_is_every_bracket_tried(parts in proptest::collection::vec(proptest::sample::select(vec![
            "[    0.090111]", "[0.262093 0.038996]", "[ 0.5 0.25]", "[\t1.5 2.5]", "[  1.0  2.0]",
            "[    0.5", "[", "[ ", "[b]", " ", "x", "0.5", "]", "Trying to boot from MMC1",
            "[  5]", "[\u{e9}", "[    1.000000 0.5]", "[    1.000000]x 0.5]",
        ]), 0..6)) {
            let t = parts.concat();
            let fast = split_glued(&t).map(|(a, v, r)| (a, v.to_bits(), r));
            let slow = split_glued_ref(&t).map(|(a, v, r)| (a, v.to_bits(), r));
            proptest::prop_assert_eq!(fast, slow, "{:?}", t);
        }
    }

    #[test]
    fn glued_records() {
        let (a, t, b) =
            split_glued("Trying to boot from MMC1[0.262093 0.038996] Expected Linux image")
                .unwrap();
        assert_eq!((a, b), ("Trying to boot from MMC1", "Expected Linux image"));
        assert!((t - 0.262093).abs() < 1e-9);
        assert!(split_glued("[    0.090111] dmi: x").is_none());
    }
}
