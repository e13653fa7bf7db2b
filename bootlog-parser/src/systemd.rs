//! systemd grammar: `Startup finished in ...`, `... reached after ...`, `[  OK  ]` / `[FAILED]`
//! status lines, and `systemd-analyze blame` / `critical-chain` output.

use crate::declaration::{lead, Gate};
use crate::{ascii, needles};
use memchr::memmem::Finder;
use nom::{
    branch::alt,
    bytes::complete::tag,
    character::complete::{char, digit1},
    combinator::{opt, recognize},
    multi::fold_many1,
    sequence::{terminated, tuple},
    IResult,
};
use std::sync::OnceLock;

/// Nanoseconds per systemd time unit.
fn unit_ns(unit: &str) -> u128 {
    match unit {
        "min" => 60_000_000_000,
        "ms" => 1_000_000,
        "us" | "µs" => 1_000,
        "h" => 3_600_000_000_000,
        "d" => 86_400_000_000_000,
        _ => 1_000_000_000,
    }
}

/// Whole nanoseconds under 2^53 as seconds, rounded once: a span's value when every part is
/// a whole number of nanoseconds (what systemd prints). Summing float parts rounds at each
/// step: `1min 33.629s` came out as 93.62899999999999, `26ms` as 0.026000000000000002.
fn ns_secs(ns: u64) -> f64 {
    debug_assert!(ns < 1 << 53);
    ns as f64 / 1e9
}

/// One `<number><unit>` part of a systemd time span: its value in seconds (a float product)
/// and its exact nanoseconds when it is a whole number of them.
fn span_part(i: &str) -> IResult<&str, (f64, Option<u128>)> {
    let (i, n) = recognize(tuple((digit1, opt(tuple((char('.'), digit1))))))(i)?;
    let (i, unit) = alt((
        tag("min"),
        tag("ms"),
        tag("us"),
        tag("µs"),
        tag("s"),
        tag("h"),
        tag("d"),
    ))(i)?;
    let v: f64 = n.parse().unwrap_or(0.0);
    let mul = match unit {
        "min" => 60.0,
        "ms" => 1e-3,
        "us" | "µs" => 1e-6,
        "h" => 3600.0,
        "d" => 86400.0,
        _ => 1.0,
    };
    // Exact only under 16 digits in all (longer parts, which systemd never prints, are left
    // to the float sum).
    let (int, frac) = n.split_once('.').unwrap_or((n, ""));
    let exact = format!("{int}{frac}")
        .parse::<u128>()
        .ok()
        .filter(|_| int.len() + frac.len() < 16)
        .and_then(|m| m.checked_mul(unit_ns(unit)))
        .and_then(|x| {
            let d = 10u128.checked_pow(frac.len() as u32)?;
            (x % d == 0).then(|| x / d)
        });
    Ok((i, (v * mul, exact)))
}

/// A systemd time span: `1min 33.629s`, `481ms`, `4.865s` -> seconds (see [`ns_secs`]).
pub fn span(i: &str) -> IResult<&str, f64> {
    // Summed as it goes (no Vec): the same left-to-right sum as collecting and summing.
    let (i, (sum, exact)) = fold_many1(
        terminated(span_part, opt(char(' '))),
        || (0.0, Some(0u128)),
        |(a, e): (f64, Option<u128>), (v, x)| (a + v, e.zip(x).and_then(|(e, x)| e.checked_add(x))),
    )(i)?;
    // The exact sum when it is under 2^53 nanoseconds, else the float one.
    let v = match exact {
        Some(ns) if ns < 1 << 53 => ns_secs(ns as u64),
        _ => sum,
    };
    Ok((i, v))
}

/// [`span`] by hand: the same language and value (a proptest compares them), as blame and
/// critical-chain rows each hold one or two. `None` where `span` fails. Sums whole
/// nanoseconds only; a span that is not a whole number of them under 2^53 in all (systemd
/// never prints one) goes to the grammar, whose float sum is then the value.
fn span_fast(i: &str) -> Option<(&str, f64)> {
    let mut rest = i;
    let mut total = 0u64;
    let mut any = false;
    while let Some((r, x)) = span_part_fast(rest) {
        any = true;
        match x.and_then(|x| total.checked_add(x)) {
            Some(t) => total = t,
            None => return span_slow(i),
        }
        rest = r.strip_prefix(' ').unwrap_or(r);
    }
    if !any {
        return None;
    }
    if total >= 1 << 53 {
        return span_slow(i);
    }
    Some((rest, ns_secs(total)))
}

/// The `Nms` or `I.Fs` part of a span whose integer digits, `b[from..e]`, read `m`: its
/// nanoseconds and the index after its `s`, or `None` past 9 digits of milliseconds, 6 of
/// seconds or 9 places (values then stay under 10^15 ns, exact in an `f64`). Shared by
/// [`blame_span_fixed`] and [`chain_span_fixed`].
#[inline(always)]
fn ms_or_seconds(b: &[u8], from: usize, e: usize, m: u64) -> Option<(u64, usize)> {
    let int = e - from;
    match b.get(e)? {
        b'm' if int != 0 && int <= 9 && b.get(e + 1) == Some(&b's') => Some((m * 1_000_000, e + 2)),
        b'.' if int != 0 && int <= 6 => {
            let (m, k) = ascii::fold_digits(b, e + 1, m);
            let places = k - (e + 1);
            if places == 0 || places > 9 || b.get(k) != Some(&b's') {
                return None;
            }
            Some((m * crate::linux::POW10_U64[9 - places], k + 1))
        }
        _ => None,
    }
}

/// [`span_fast`] of a blame row's span as systemd-analyze prints most, `Nms ` (up to 9
/// digits) or `I.Fs ` (up to 6 and 9 digits), followed by no digit: read in one pass with no
/// loop over parts; `None` for any other text, which `span_fast` then reads (a proptest
/// checks that they agree where this answers). Values stay under 10^15 ns, so exact.
#[inline(always)]
fn blame_span_fixed(i: &str) -> Option<(&str, f64)> {
    let b = i.as_bytes();
    let (m, int) = ascii::fold_digits(b, 0, 0);
    let (ns, end) = ms_or_seconds(b, 0, int, m)?;
    // One blank, then no digit (a digit would start another part of the span).
    if b.get(end) != Some(&b' ') || b.get(end + 1).map_or(true, u8::is_ascii_digit) {
        return None;
    }
    Some((&i[end + 1..], ns as f64 / 1e9))
}

/// [`span_fast`] of a critical-chain span as systemd-analyze prints most (`1min 33.614s`,
/// `234ms`, `1.234s`, after the `@` or `+`): an optional `Nmin ` (1 to 3 digits) and one
/// `Nms` (up to 9 digits) or `I.Fs` (up to 6 and 9 digits) part, followed by the end, or by
/// a blank and no digit. Read in one pass with no loop over parts; `None` for any other
/// text, which `span_fast` then reads (a proptest checks that they agree where this
/// answers). Values stay under 10^15 ns, so exact.
#[inline(always)]
fn chain_span_fixed(i: &str) -> Option<(&str, f64)> {
    let b = i.as_bytes();
    let (mins, k) = ascii::fold_digits(b, 0, 0);
    let (min_ns, from) = if k != 0 && k <= 3 && b.get(k..k + 4) == Some(b"min ") {
        (mins * 60_000_000_000, k + 4)
    } else {
        (0, 0)
    };
    let (m, e) = ascii::fold_digits(b, from, 0);
    let (ns, end) = ms_or_seconds(b, from, e, m)?;
    let v = (min_ns + ns) as f64 / 1e9;
    match b.get(end) {
        None => Some(("", v)),
        // One blank, then no digit (a digit would start another part of the span).
        Some(b' ') if b.get(end + 1).is_some_and(|c| !c.is_ascii_digit()) => {
            Some((&i[end + 1..], v))
        }
        _ => None,
    }
}

/// [`span`] for the spans [`span_fast`] does not sum itself (out of line: they do not occur).
#[cold]
#[inline(never)]
fn span_slow(i: &str) -> Option<(&str, f64)> {
    span(i).ok()
}

/// [`span_part`] by hand: the rest after the part and its exact nanoseconds (`None` when it
/// is not a whole number of them below 2^64, or has 16 digits or more).
fn span_part_fast(i: &str) -> Option<(&str, Option<u64>)> {
    let b = i.as_bytes();
    // The digits (either side of a `.`) as one integer, read as they are counted; wrapping,
    // as it is used only when under 16 digits (no overflow then).
    let (mut m, mut k) = ascii::fold_digits(b, 0, 0);
    let int = k;
    if int == 0 {
        return None;
    }
    if b.get(int) == Some(&b'.') {
        (m, k) = ascii::fold_digits(b, k + 1, m);
    }
    let places = k.saturating_sub(int + 1);
    let n = if places > 0 { int + 1 + places } else { int };
    // The unit by its first byte (the `starts_with` chain in the grammar's order: `min`
    // before `ms`, and no two others share a first byte), with its nanoseconds as
    // `c * 10^z`.
    let at = |j: usize| b.get(n + j).copied();
    let (c, z, unit) = match at(0) {
        Some(b'm') if at(1) == Some(b'i') && at(2) == Some(b'n') => (6, 10, 3),
        Some(b'm') if at(1) == Some(b's') => (1, 6, 2),
        Some(b'u') if at(1) == Some(b's') => (1, 3, 2),
        // `µ` is 0xC2 0xB5 in UTF-8.
        Some(0xC2) if at(1) == Some(0xB5) && at(2) == Some(b's') => (1, 3, "µs".len()),
        Some(b's') => (1, 9, 1),
        Some(b'h') => (36, 11, 1),
        Some(b'd') => (864, 11, 1),
        _ => return None,
    };
    // After the ASCII digits (and `.`) and the unit: char boundaries.
    let r = &i[n..];
    // `m * c * 10^z / 10^places` in whole nanoseconds, with the powers of ten cancelled
    // first (under 16 digits `m` is exact; longer parts are left to the grammar):
    // `m / 10^(places - z) * c` (under 10^15 * 864) when it divides.
    use crate::linux::POW10_U64;
    let exact = if int + places >= 16 {
        None
    } else if places <= z {
        m.checked_mul(c * POW10_U64[z - places])
    } else {
        let d = POW10_U64[places - z];
        (m % d == 0).then(|| m / d * c)
    };
    Some((&r[unit..], exact))
}

/// [`span_str`] by [`chain_span_fixed`] first (the usual `1min 33.629s`, `481ms`,
/// `17.576s`), [`span_fast`] where it does not answer: a critical-chain row's `+` span and
/// the parts of a `Startup finished` line.
fn quick_span_str(s: &str) -> Option<f64> {
    let s = ascii::trim_ws_graphic_ends(s);
    let (rest, v) = match chain_span_fixed(s) {
        Some(x) => x,
        None => span_fast(s)?,
    };
    ascii::trim_ws(rest).is_empty().then_some(v)
}

/// Parses a whole string as a span.
pub fn span_str(s: &str) -> Option<f64> {
    let (rest, v) = span_fast(ascii::trim_ws(s))?;
    ascii::trim_ws(rest).is_empty().then_some(v)
}

/// A systemd line the timeline cares about.
#[derive(Debug, Clone, PartialEq)]
pub enum SystemdLine<'a> {
    /// `Startup finished in A (kernel) + B (userspace) = C`: the `(label, seconds)` parts and
    /// the total.
    Startup(Vec<(&'a str, f64)>, Option<f64>),
    /// `graphical.target reached after 1min 33.614s in userspace`.
    Reached(&'a str, f64),
    /// `[  OK  ] ...`.
    Ok,
    /// `[FAILED] Failed to start X.`: the unit description.
    Failed(&'a str),
    /// `Welcome to Debian GNU/Linux 11 (bullseye)!`.
    Welcome,
    /// A blame row: `3.006s plymouth-quit-wait.service`.
    Blame(&'a str, f64),
    /// A critical-chain row: unit, `@` time, optional `+` time.
    Chain(&'a str, f64, Option<f64>),
}

const OK: &str = "[  OK  ]";
const FAILED: &str = "[FAILED]";
const STARTUP: &str = "Startup finished in ";
const WELCOME: &str = "Welcome to ";

/// The lines [`line`] may take (see [`crate::gate`]): its prefixes, the number lines that may
/// be blame rows, and ` reached after ` or `@` anywhere (analyze's summary and chain rows).
pub const GATE: Gate = Gate {
    prefixes: &[OK, FAILED, STARTUP, WELCOME, "systemd["],
    other: Some((b"0123456789", may_be_blame_row)),
    words: needles::REACHED | needles::AT,
};

/// Whether a text starting with a digit may be a blame row, by its last byte
/// ([`may_end_blame_row`]).
fn may_be_blame_row(t: &str) -> bool {
    t.as_bytes().last().is_some_and(|&c| may_end_blame_row(c))
}

/// Whether the text after the last `.` of `s` is a unit suffix (`.service`, ...). Each suffix
/// holds one `.`, its first byte, so this is `s` ending with one: the last byte picks the
/// few to compare (`reference::has_unit_suffix_scan` is the scan it stands for). `always`:
/// inlined into `blame_row`, which has looked at the last byte already.
#[inline(always)]
fn has_unit_suffix(s: &str) -> bool {
    match s.as_bytes().last() {
        Some(b'e') => {
            s.ends_with(".service")
                || s.ends_with(".device")
                || s.ends_with(".slice")
                || s.ends_with(".scope")
        }
        Some(b't') => {
            s.ends_with(".target")
                || s.ends_with(".mount")
                || s.ends_with(".socket")
                || s.ends_with(".automount")
        }
        Some(b'r') => s.ends_with(".timer"),
        Some(b'p') => s.ends_with(".swap"),
        Some(b'h') => s.ends_with(".path"),
        _ => false,
    }
}

/// Whether `s` holds no `' '` ([`ascii::find_byte`], inlined: units run to 20 and more
/// bytes).
#[inline]
fn no_space(s: &str) -> bool {
    ascii::find_byte(s.as_bytes(), b' ').is_none()
}

/// Whether `s` is a unit name: a unit suffix at its end and no `' '` (as
/// `reference::is_unit_chain` says, by the byte-level tests).
fn is_unit(s: &str) -> bool {
    has_unit_suffix(s) && no_space(s)
}

/// `s.rsplit_once(pat)` for a short ASCII `pat`, by a byte loop from the end (std builds a
/// two-way searcher on each call). Always inlined, so the pattern is a constant; the loop
/// tests the pattern's second byte first (`=`, `(`: rarer than the blank both start with).
/// `pat` holds two bytes or more.
#[inline(always)]
fn rsplit_once_ascii<'a>(s: &'a str, pat: &str) -> Option<(&'a str, &'a str)> {
    let (b, p) = (s.as_bytes(), pat.as_bytes());
    debug_assert!(p.len() >= 2);
    let mut i = b.len().checked_sub(p.len())?;
    // The last `i` where `pat` starts, as `rsplit_once` finds it.
    while !(b[i + 1] == p[1] && b[i..i + p.len()] == *p) {
        if i == 0 {
            return None;
        }
        i -= 1;
    }
    // `pat` is ASCII: the match starts and ends on char boundaries.
    Some((&s[..i], &s[i + p.len()..]))
}

/// A `Startup finished in` line's parts and total. The spans by [`quick_span_str`], which is
/// [`span_str`] with the fixed reader of `1min 33.629s`, `481ms` and `17.576s` first (a
/// proptest holds them equal).
fn startup(r: &str) -> Option<SystemdLine<'_>> {
    let (main, total) = match rsplit_once_ascii(r, " = ") {
        Some((m, t)) => (m, quick_span_str(t)),
        None => (r, None),
    };
    let mut parts = Vec::new();
    // `main.split(" + ")` by [`split_plus_once`], without std's two-way searcher.
    let mut rest = Some(main);
    while let Some(m) = rest {
        let (p, r) = split_plus_once(m);
        rest = r;
        let (v, label) = rsplit_once_ascii(ascii::trim_ws(p), " (")?;
        parts.push((label.trim_end_matches(')'), quick_span_str(v)?));
    }
    Some(SystemdLine::Startup(parts, total))
}

/// The text of `s` before its first ` + ` and, if there is one, the text after it: one step of
/// `s.split(" + ")` (which goes on from the text after, and ends with the text left where
/// none is found, as the caller's loop does; a proptest holds them equal). The first ` + `
/// has the first `+` with a blank either side: found by the inlined [`ascii::find_byte`].
#[inline(always)]
fn split_plus_once(s: &str) -> (&str, Option<&str>) {
    let b = s.as_bytes();
    let mut from = 0;
    while let Some(k) = ascii::find_byte(&b[from..], b'+') {
        let i = from + k;
        if i > 0 && b[i - 1] == b' ' && b.get(i + 1) == Some(&b' ') {
            // The ASCII blanks either side: char boundaries.
            return (&s[..i - 1], Some(&s[i + 2..]));
        }
        from = i + 1;
    }
    (s, None)
}

/// The tree glyphs and blanks `strip_tree` drops from the start of a row.
const TREE_GLYPHS: [char; 8] = [' ', '└', '─', '├', '│', '|', '`', '-'];

/// `s.trim_start_matches(TREE_GLYPHS)`, a byte at a time over the ASCII glyphs.
fn trim_tree_glyphs(s: &str) -> &str {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b' ' | b'|' | b'`' | b'-' => i += 1,
            // After ASCII bytes: a char boundary.
            c if c >= 0x80 => return s[i..].trim_start_matches(TREE_GLYPHS),
            _ => break,
        }
    }
    &s[i..]
}

/// Strips tree glyphs (also as HTML entities, `&#9492;&#9472;`) from a critical-chain row.
/// The usual pair, `└─` as entities, goes by one compare, as the two rounds of the `;` search
/// it stands for strip it (each strips one entity, and nothing lies between them for the
/// glyph trim to take).
fn strip_tree(mut s: &str) -> &str {
    loop {
        let t = trim_tree_glyphs(s);
        if let Some(r) = t.strip_prefix("&#") {
            if let Some(r) = r.strip_prefix("9492;&#9472;") {
                s = r;
                continue;
            }
            // `find(';')` by a byte loop: the `;` is a few bytes on, past std's set-up.
            if let Some(end) = r.bytes().position(|c| c == b';') {
                s = &r[end + 1..];
                continue;
            }
        }
        return t;
    }
}

/// Where the `@` of the first ` @` of `b` is: a one-byte search ([`ascii::find_byte`],
/// inlined; `reference::spaced_at_memchr` is the search it stands for), then a look back.
#[inline]
fn spaced_at(b: &[u8]) -> Option<usize> {
    let mut from = 0;
    loop {
        let i = from + ascii::find_byte(&b[from..], b'@')?;
        if i > 0 && b[i - 1] == b' ' {
            return Some(i);
        }
        from = i + 1;
    }
}

/// Classifies a line (leading blanks removed; a `systemd[1]: ` prefix is allowed).
pub fn line(t: &str) -> Option<SystemdLine<'_>> {
    line_hinted(t, needles::ALL)
}

/// [`line`] for the timeline: `hints` (see [`crate::needles`]) says whether the line may hold
/// ` reached after ` or `@`, so most lines skip those searches. Inlined: a line without either
/// word must start with one of the fixed prefixes (or be a number line ending as a blame row
/// can), which its first 8 bytes tell, so most lines are turned away without a call (hence
/// `always`: the compiler left it out of line in `record_text`, paying two calls).
#[inline(always)]
pub(crate) fn line_hinted(t: &str, hints: u8) -> Option<SystemdLine<'_>> {
    // The most frequent match, answered here as `line_full` answers it whatever the hints.
    if t.starts_with(OK) {
        return Some(SystemdLine::Ok);
    }
    // Without ` reached after `, a line the first bytes turn away can only be a critical-chain
    // row (`line_full`'s last arm, also where an `S` or `W` guard fails), which needs a ` @`
    // (`spaced_at` finds one in a suffix of the line): a line with the `@` hint but no ` @`
    // (`root@host`, `serial@2800000`) is turned away here, spared `line_full`'s frame and
    // tree strip for one pair search.
    if hints & needles::REACHED == 0
        && !may_match_unhinted(t.as_bytes())
        && (hints & needles::AT == 0 || ascii::find_pair(t.as_bytes(), b' ', b'@').is_none())
    {
        return None;
    }
    // A number line can only be a blame row (`line_full` sends it to `blame_row` too): most
    // of the lines let in, spared `line_full`'s frame.
    if t.as_bytes().first().is_some_and(u8::is_ascii_digit) {
        return blame_row(t);
    }
    line_full(t, hints)
}

/// Whether a line holding neither ` reached after ` nor `@` may match [`line_full`]: the
/// first 8 bytes of each fixed prefix it tests (`systemd[1]: `, `[  OK  ]`, `[FAILED]`,
/// `Startup finished in `, `Welcome to `), or a blame row's first and last bytes. `always`:
/// left to itself the compiler made it a call on every line the gate lets in.
#[inline(always)]
fn may_match_unhinted(b: &[u8]) -> bool {
    match b.first() {
        Some(b'0'..=b'9') => may_end_blame_row(b[b.len() - 1]),
        _ => lead(b, 8).is_some_and(|w| LEADS.contains(&w)),
    }
}

/// The first eight bytes of [`GATE`]'s prefixes, for [`may_match_unhinted`].
static LEADS: [u64; GATE.prefixes.len()] = GATE.leads(8);

/// Whether a line ending in `last` may be a blame row: every unit suffix ends in one of
/// `ehprt`, and blanks may follow it; any other ASCII byte rules the line out (most number
/// lines) without a trim. Non-ASCII bytes may be Unicode blanks: those lines are checked.
#[inline]
pub(crate) fn may_end_blame_row(last: u8) -> bool {
    last >= 0x80
        || matches!(
            last,
            b'e' | b'h' | b'p' | b'r' | b't' | b' ' | b'\t'..=b'\r'
        )
}

/// A line starting with a digit, as a blame row (`3.006s plymouth-quit-wait.service`), if it
/// is one. Its own small frame, out of line: [`line_hinted`] calls it for number lines
/// directly, sparing them `line_full`'s large one.
#[inline(never)]
fn blame_row(t: &str) -> Option<SystemdLine<'_>> {
    let b = t.as_bytes();
    // A blame row ends with its unit: rule out other number lines (benchmark output)
    // before parsing the span.
    // (Each suffix holds one `.`, its first byte: ending with one is having it after
    // the last `.`.)
    // Every unit suffix ends in one of `ehprt`: a line ending in another ASCII byte
    // that is not a blank (most number lines) needs no trim to be ruled out.
    if !may_end_blame_row(*b.last()?) {
        return None;
    }
    // Trimmed once: the span never reaches the trimmed blanks (no span part ends in
    // a unit suffix), so reading it from `e` leaves the same unit, `e`'s suffix
    // included (a span's `.` is followed by a digit): only its blanks are left to check.
    let e = ascii::trim_end_ws(t);
    if !has_unit_suffix(e) {
        return None;
    }
    let (rest, d) = match blame_span_fixed(e) {
        Some(x) => x,
        None => span_fast(e)?,
    };
    let unit = ascii::trim_start_ws(rest);
    no_space(unit).then_some(SystemdLine::Blame(unit, d))
}

/// [`line_hinted`] without the first-bytes check.
fn line_full(t: &str, hints: u8) -> Option<SystemdLine<'_>> {
    let t = t.strip_prefix("systemd[1]: ").unwrap_or(t);
    let b = t.as_bytes();
    match b.first()? {
        b'[' => {
            if t.starts_with(OK) {
                return Some(SystemdLine::Ok);
            }
            if let Some(r) = t.strip_prefix(FAILED) {
                let r = ascii::trim_ws(r);
                let r = r.strip_prefix("Failed to start ").unwrap_or(r);
                return Some(SystemdLine::Failed(r.trim_end_matches('.')));
            }
            None
        }
        b'S' if t.starts_with(STARTUP) => startup(&t[STARTUP.len()..]),
        b'W' if t.starts_with(WELCOME) => Some(SystemdLine::Welcome),
        b'0'..=b'9' => blame_row(t),
        _ => {
            // Most lines reaching here are ordinary kernel messages: find the needles with
            // prebuilt SIMD searchers (first match, as `split_once`), and skip the tree
            // stripping when the line holds no `@` at all (`s` below is a suffix of `t`).
            const REACHED: &str = needles::REACHED_WORD;
            static REACHED_FINDER: OnceLock<Finder<'static>> = OnceLock::new();
            let reached = REACHED_FINDER.get_or_init(|| Finder::new(REACHED));
            let found = if hints & needles::REACHED != 0 {
                reached.find(t.as_bytes())
            } else {
                None
            };
            if let Some(i) = found {
                let (unit, r) = (&t[..i], &t[i + REACHED.len()..]);
                let unit = ascii::trim_ws(unit);
                if is_unit(unit) {
                    let (_, v) = span_fast(r)?;
                    return Some(SystemdLine::Reached(unit, v));
                }
            }
            if hints & needles::AT == 0 {
                return None;
            }
            // No separate look for an `@` in `t` first: the hint says there is one, and `s`
            // is a suffix of `t`, so a line without any finds no ` @` below either.
            let s = strip_tree(t);
            // `split_once(" @")`: the first " @".
            let at = spaced_at(s.as_bytes())?;
            let (unit, r) = (&s[..at - 1], &s[at + 1..]);
            if !is_unit(unit) {
                return None;
            }
            let (r, at) = match chain_span_fixed(r) {
                Some(x) => x,
                None => span_fast(r)?,
            };
            let plus = ascii::trim_ws_graphic_ends(r)
                .strip_prefix('+')
                .and_then(quick_span_str);
            Some(SystemdLine::Chain(unit, at, plus))
        }
    }
}

/// The std searches and scans the hand-written readers stand in for: the differential tests' references.
#[cfg(test)]
mod reference {

    /// The unit suffixes: [`has_unit_suffix`] compares them by the last byte, and the tests check
    /// it against this list.
    pub(super) const UNIT_SUFFIXES: [&str; 11] = [
        ".service",
        ".target",
        ".mount",
        ".device",
        ".socket",
        ".timer",
        ".swap",
        ".path",
        ".slice",
        ".scope",
        ".automount",
    ];

    /// The last-`.` scan [`has_unit_suffix`] stands in for.
    pub(super) fn has_unit_suffix_scan(s: &str) -> bool {
        let b = s.as_bytes();
        let tail = &b[b.len().saturating_sub(MAX_SUFFIX)..];
        // The last `.` of `s`, if it lies in the tail (one further back leaves too long a suffix).
        match tail.iter().rposition(|&c| c == b'.') {
            Some(d) => UNIT_SUFFIXES.iter().any(|u| u.as_bytes() == &tail[d..]),
            None => false,
        }
    }

    /// The length of the longest of [`UNIT_SUFFIXES`].
    pub(super) const MAX_SUFFIX: usize = ".automount".len();

    /// The `ends_with` and `contains` chain [`is_unit`] stands in for.
    pub(super) fn is_unit_chain(s: &str) -> bool {
        UNIT_SUFFIXES.iter().any(|u| s.ends_with(u)) && !s.contains(' ')
    }

    /// The `memchr` search [`spaced_at`] stands in for.
    pub(super) fn spaced_at_memchr(b: &[u8]) -> Option<usize> {
        memchr::memchr_iter(b'@', b).find(|&i| i > 0 && b[i - 1] == b' ')
    }
}

#[cfg(test)]
mod tests {
    use super::reference::*;
    use super::*;

    proptest::proptest! {
        /// Where the fixed blame-span reader answers, it answers as `span_fast` does.
        #[test]
        fn blame_span_fixed_is_span_fast(
            int in "[0-9]{0,11}",
            frac in "(\\.[0-9]{0,11})?",
            unit in "(ms|s|min|us|m|)",
            sep in "( |  |x|)",
            tail in "([0-9]|a\\.service|\u{a0}x|)",
        ) {
            let t = format!("{int}{frac}{unit}{sep}{tail}");
            if let Some((rest, v)) = blame_span_fixed(&t) {
                let (want_rest, want) = span_fast(&t).expect("span_fast reads it too");
                proptest::prop_assert_eq!(rest, want_rest, "{:?}", t);
                proptest::prop_assert_eq!(v.to_bits(), want.to_bits(), "{:?}", t);
            }
        }
    }

    proptest::proptest! {
        /// Where the fixed chain-span reader answers, it answers as `span_fast` does; the `+`
        /// span reader is `span_str` wherever.
        #[test]
        fn chain_span_fixed_is_span_fast(
            min in "([0-9]{0,4}min ?|[0-9]min|)",
            int in "[0-9]{0,11}",
            frac in "(\\.[0-9]{0,11})?",
            unit in "(ms|s|min|us|m|)",
            sep in "( |  |x|)",
            tail in "([0-9]|\\+1.5s|\\+2ms|a\\.service|\u{a0}x|)",
        ) {
            let t = format!("{min}{int}{frac}{unit}{sep}{tail}");
            if let Some((rest, v)) = chain_span_fixed(&t) {
                let (want_rest, want) = span_fast(&t).expect("span_fast reads it too");
                proptest::prop_assert_eq!(rest, want_rest, "{:?}", t);
                proptest::prop_assert_eq!(v.to_bits(), want.to_bits(), "{:?}", t);
            }
            proptest::prop_assert_eq!(
                quick_span_str(&t).map(f64::to_bits),
                span_str(&t).map(f64::to_bits),
                "{:?}", t
            );
        }
    }

    /// Spans are their exact nanoseconds rounded once: a float sum gave 93.62899999999999 for
    /// `1min 33.629s` and 0.026000000000000002 for `26ms`.
    #[test]
    fn spans_are_exact_decimals() {
        for (t, want) in [
            ("1min 33.629s", 93.629f64),
            ("26ms", 0.026),
            ("13ms", 0.013),
            ("346ms", 0.346),
            ("1min 56.552s", 116.552),
            ("1min 30.433s", 90.433),
            ("4.865s", 4.865),
            ("1h 2min 3.5s", 3723.5),
            ("2d 1h", 176_400.0),
            ("850us", 0.00085),
            ("1.5µs", 0.0000015),
        ] {
            let v = span_str(t).unwrap();
            assert_eq!(v.to_bits(), want.to_bits(), "{t}: {v}");
            assert_eq!(span(t).unwrap().1.to_bits(), want.to_bits(), "nom {t}");
        }
        // Not a whole number of nanoseconds: no exact sum, the grammar's float sum stays.
        assert_eq!(span_str("0.0005us").unwrap(), 0.0005 * 1e-6);
        assert_eq!(span_str("1s 0.0005us").unwrap(), 1.0 + 0.0005 * 1e-6);
    }

    proptest::proptest! {
        /// The inlined ` @` search is the `memchr` one, at every length.
        #[test]
        fn spaced_at_is_the_memchr_search(s in "[@ x\u{e9}]{0,60}", pad in 0usize..20) {
            let t = format!("{}{s}", "y".repeat(pad));
            proptest::prop_assert_eq!(spaced_at(t.as_bytes()), spaced_at_memchr(t.as_bytes()), "{:?}", t);
        }
    }

    proptest::proptest! {
        /// The hand-written span reader is the nom grammar.
        #[test]
        fn fast_span_is_the_nom_grammar(
            parts in proptest::collection::vec(
                ("[0-9]{0,18}", "(\\.[0-9]{0,17})?", proptest::sample::select(vec!["min", "ms", "us", "µs", "s", "h", "d", "m", "µ", "", "x"]), "( |  |)"),
                0..4,
            ),
            tail in "[ a-z.+0-9]{0,6}",
        ) {
            let t: String = parts.iter().map(|(a, b, c, d)| format!("{a}{b}{c}{d}")).collect::<String>() + &tail;
            let slow = span(&t).ok().map(|(r, v)| (r, v.to_bits()));
            proptest::prop_assert_eq!(span_fast(&t).map(|(r, v)| (r, v.to_bits())), slow, "{:?}", t);
        }
    }

    proptest::proptest! {
        /// The byte-level scans are the str-method chains.
        #[test]
        fn fast_scans_are_the_str_chains(
            s in "[ 0-9a-z.|`\\-\u{2514}\u{2500}\u{251c}\u{2502}\u{a0}]{0,16}",
            u in proptest::sample::select(UNIT_SUFFIXES.to_vec()),
            pre in "[ a-z.]{0,4}",
        ) {
            for t in [s.clone(), format!("{s}{u}"), format!("{s}{u}{pre}"), format!("{pre}{u}")] {
                let suffix = t.rfind('.').map_or("", |d| &t[d..]);
                proptest::prop_assert_eq!(has_unit_suffix(&t), UNIT_SUFFIXES.contains(&suffix), "{:?}", t);
                proptest::prop_assert_eq!(has_unit_suffix_scan(&t), UNIT_SUFFIXES.contains(&suffix), "{:?}", t);
                proptest::prop_assert_eq!(no_space(&t), !t.contains(' '), "{:?}", t);
                proptest::prop_assert_eq!(is_unit(&t), is_unit_chain(&t), "{:?}", t);
                proptest::prop_assert_eq!(trim_tree_glyphs(&t), t.trim_start_matches(TREE_GLYPHS));
            }
        }
    }

    proptest::proptest! {
        /// The first-bytes check turns away no line [`line_full`] matches, whatever the hints.
        #[test]
        fn first_bytes_check_keeps_every_match(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "systemd[1]: ", "systemd[", "systemd", "[  OK  ]", "[  OK ", "[FAILED]", "[FAIL",
                "[ ", "Startup finished in ", "Startup ", "Start", "Welcome to ", "Welcome",
                "Wel", "1.5s", "3ms", "12", " ", "\t", "\u{a0}", " a.service", "b.target",
                " reached after ", " @1.2s", " +5ms", "&#9492;", "x", "e", "(kernel)", " = ",
                " + ", "Failed to start ", ".", "@", "root@", "a@1s", " @", "@ ",
            ]), 0..6),
            hints in proptest::sample::select(vec![
                0u8, needles::REACHED, needles::AT, needles::AUTOBOOT, needles::ALL,
                needles::AT | needles::OARD,
            ]),
        ) {
            let t = parts.concat();
            proptest::prop_assert_eq!(line_hinted(&t, hints), line_full(&t, hints), "{:?}", t);
        }
    }

    proptest::proptest! {
        /// The byte-loop `rsplit_once` is std's, for the two patterns it is given.
        #[test]
        fn ascii_rsplit_is_std(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                " (", " = ", "(", "=", " ", "  ", "x", "é", "1.5s", ")", " + ",
            ]), 0..8),
            pat in proptest::sample::select(vec![" (", " = "]),
        ) {
            let t = parts.concat();
            proptest::prop_assert_eq!(rsplit_once_ascii(&t, pat), t.rsplit_once(pat), "{:?}", t);
        }
    }

    /// `strip_tree` with std's `find(';')`.
    fn strip_tree_find(mut s: &str) -> &str {
        loop {
            let t = s.trim_start_matches(TREE_GLYPHS);
            if let Some(r) = t.strip_prefix("&#") {
                if let Some(end) = r.find(';') {
                    s = &r[end + 1..];
                    continue;
                }
            }
            return t;
        }
    }

    proptest::proptest! {
        /// [`split_plus_once`] step by step gives the pieces of `split(" + ")`.
        #[test]
        fn split_plus_once_is_split(parts in proptest::collection::vec(proptest::sample::select(vec![
            " + ", " ", "+", "++", "a", "4.865s (kernel)", "\u{e9}", "\t",
        ]), 0..8)) {
            let t = parts.concat();
            let mut got = Vec::new();
            let mut rest = Some(t.as_str());
            while let Some(m) = rest {
                let (p, r) = split_plus_once(m);
                got.push(p);
                rest = r;
            }
            proptest::prop_assert_eq!(got, t.split(" + ").collect::<Vec<_>>(), "{:?}", t);
        }
    }

    proptest::proptest! {
        /// Tree rows lose the same glyphs and entities as with std's trims and `find`.
        #[test]
        fn strip_tree_is_the_std_chain(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "&#9492;", "&#9472;", "&#", ";", " ", "\u{2514}", "\u{2500}", "|", "`", "-", "a.service",
                " @1.2s", "x", "é",
            ]), 0..7),
        ) {
            let t = parts.concat();
            proptest::prop_assert_eq!(strip_tree(&t), strip_tree_find(&t), "{:?}", t);
        }
    }

    #[test]
    fn unit_suffixes_end_in_the_letters_blame_rows_are_checked_for() {
        for u in UNIT_SUFFIXES {
            assert!(b"ehprt".contains(&u.as_bytes()[u.len() - 1]), "{u}");
        }
    }

    proptest::proptest! {
        /// Number lines: `line` finds the blame rows the full check finds (suffix after the
        /// trimmed end, then span and unit), whatever the line ends with.
        #[test]
        fn blame_rows_after_the_last_byte_check(
            n in "[0-9]{1,3}(\\.[0-9]{1,3})?(ms|s|min)",
            sp in "[ \t]{1,2}",
            unit in "[a-z-]{1,8}",
            suffix in proptest::sample::select(vec![".service", ".target", ".mount", ".slice", ".automount", ".swap", ".path", ".timer", ".x", "", ")"]),
            end in "[ \t\u{a0}\u{3000}\x0b.)a-z0-9]{0,3}",
        ) {
            let t = format!("{n}{sp}{unit}{suffix}{end}");
            let slow = {
                let e = t.trim_end();
                let sfx = e.rfind('.').map_or("", |d| &e[d..]);
                if UNIT_SUFFIXES.contains(&sfx) {
                    span(&t).ok().and_then(|(rest, d)| {
                        let unit = rest.trim();
                        is_unit(unit).then_some(SystemdLine::Blame(unit, d))
                    })
                } else {
                    None
                }
            };
            proptest::prop_assert_eq!(line_hinted(&t, 0), slow, "{:?}", t);
        }
    }

    #[test]
    fn spans() {
        assert_eq!(
            span_str("1min 33.629s").map(|v| (v * 1000.0).round()),
            Some(93629.0)
        );
        assert_eq!(span_str("481ms"), Some(0.481));
        assert_eq!(span_str("4.865s"), Some(4.865));
        assert_eq!(span_str("bogus"), None);
    }

    #[test]
    fn startup_finished() {
        let l = line("Startup finished in 17.576s (firmware) + 481ms (loader) + 4.865s (kernel) + 1min 33.629s (userspace) = 1min 56.552s ");
        match l {
            Some(SystemdLine::Startup(p, Some(total))) => {
                assert_eq!(p.len(), 4);
                assert_eq!(p[2], ("kernel", 4.865));
                assert!((p[3].1 - 93.629).abs() < 1e-9);
                assert!((total - 116.552).abs() < 1e-9);
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            line("systemd[1]: Startup finished in 2.584s (kernel) + 19.176s (initrd) + 47.847s (userspace) = 1min 9.608s."),
            Some(SystemdLine::Startup(p, _)) if p[1] == ("initrd", 19.176)
        ));
    }

    #[test]
    fn status_blame_chain() {
        assert_eq!(
            line("[  OK  ] Finished Set console font and keymap."),
            Some(SystemdLine::Ok)
        );
        assert_eq!(
            line("[FAILED] Failed to start Light Display Manager."),
            Some(SystemdLine::Failed("Light Display Manager"))
        );
        assert_eq!(
            line("3.006s plymouth-quit-wait.service"),
            Some(SystemdLine::Blame("plymouth-quit-wait.service", 3.006))
        );
        assert_eq!(line("1.2 is not a unit"), None);
        match line("&#9492;&#9472;plymouth-quit-wait.service @1min 30.607s +3.006s") {
            Some(SystemdLine::Chain(u, at, Some(p))) => {
                assert_eq!(u, "plymouth-quit-wait.service");
                assert!((at - 90.607).abs() < 1e-9 && (p - 3.006).abs() < 1e-9);
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            line("graphical.target reached after 1min 33.614s in userspace"),
            Some(SystemdLine::Reached("graphical.target", _))
        ));
    }
}
