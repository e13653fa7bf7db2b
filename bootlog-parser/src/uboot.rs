//! U-Boot grammar: TPL / SPL / proper banners, boot-device and autoboot lines, the hand-off to
//! the kernel, and the bootstage report (`Timer summary in microseconds`, `Accumulated time:`).

use crate::{ascii, needles};
#[cfg(test)]
use memchr::memmem::Finder;
#[cfg(test)]
use nom::{
    branch::alt,
    bytes::complete::{tag, take_till1},
    character::complete::{digit1, space0},
    combinator::{map, opt, recognize},
    sequence::pair,
    IResult,
};
#[cfg(test)]
use std::sync::OnceLock;

/// Which U-Boot phase printed a banner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// `U-Boot TPL`.
    Tpl,
    /// `U-Boot SPL`.
    Spl,
    /// U-Boot proper.
    Proper,
}

/// A U-Boot line the timeline cares about.
#[derive(Debug, Clone, PartialEq)]
pub enum UbootLine<'a> {
    /// `U-Boot SPL 2021.01-gb248392d (Jan 04 2023 - 19:38:45 +0000)`.
    Banner {
        /// TPL, SPL or proper.
        phase: Phase,
        /// `2021.01-gb248392d`.
        version: &'a str,
        /// The build date in parentheses, if printed.
        build: Option<&'a str>,
    },
    /// `Trying to boot from MMC1`.
    TryingToBoot(&'a str),
    /// `Hit any key to stop autoboot:`, `Press SPACE to abort autoboot in 2 seconds`, ...
    Autoboot,
    /// `Starting kernel ...` (U-Boot hands over to Linux).
    StartingKernel,
    /// `Starting ATF on ARM64 core...` (K3 R5 SPL hands over to TF-A).
    StartingAtf,
    /// `Timer summary in microseconds (N records):`.
    BootstageHeader(u32),
    /// `Mark    Elapsed  Stage`.
    BootstageColumns,
    /// `Accumulated time:`.
    AccumulatedHeader,
    /// A fatal boot error (`### ERROR ### Please RESET the board ###`, `SPL: failed to boot`).
    Error(&'a str),
}

/// The nom `version` of [`banner`], the test reference of [`banner_fast`].
#[cfg(test)]
fn version(i: &str) -> IResult<&str, &str> {
    recognize(pair(digit1, take_till1(|c: char| c.is_whitespace())))(i)
}

/// The nom banner grammar, the test reference of [`banner_fast`].
#[cfg(test)]
fn banner(i: &str) -> IResult<&str, UbootLine<'_>> {
    let (i, _) = tag("U-Boot ")(i)?;
    let (i, phase) = opt(alt((
        map(tag("SPL "), |_| Phase::Spl),
        map(tag("TPL "), |_| Phase::Tpl),
        map(tag("VPL "), |_| Phase::Tpl),
    )))(i)?;
    let (i, version) = version(i)?;
    let (i, _) = space0(i)?;
    let build = i
        .strip_prefix('(')
        .and_then(|r| r.find(')').map(|e| &r[..e]));
    Ok((
        "",
        UbootLine::Banner {
            phase: phase.unwrap_or(Phase::Proper),
            version,
            build,
        },
    ))
}

/// `U-Boot [SPL |TPL |VPL ]<version>[ (<build>)]` by hand, as the nom [`banner`] reads it:
/// every boot prints one or more, and nom paid about 800 instructions for each (the version
/// char by char, the `)` by a char searcher).
fn banner_fast(t: &str) -> Option<UbootLine<'_>> {
    let r = t.strip_prefix("U-Boot ")?;
    let (phase, r) = match r.as_bytes().get(..4) {
        Some(b"SPL ") => (Phase::Spl, &r[4..]),
        Some(b"TPL " | b"VPL ") => (Phase::Tpl, &r[4..]),
        _ => (Phase::Proper, r),
    };
    let b = r.as_bytes();
    // `digit1`, then `take_till1(char::is_whitespace)`: the version runs to the first
    // whitespace char, and must hold more than its leading digits.
    // (An index loop: the `take_while` count paid ~10 instructions a digit.)
    let mut digits = 0;
    while b.get(digits).is_some_and(u8::is_ascii_digit) {
        digits += 1;
    }
    if digits == 0 {
        return None;
    }
    // `find(char::is_whitespace)` after the digits (ASCII: a char boundary), 8 bytes a word
    // while they are ASCII (versions run to 30 bytes and more: a byte loop paid ~8 a byte).
    let end = digits + ascii::word_end(&r[digits..]);
    if end == digits {
        return None;
    }
    let version = &r[..end];
    // `space0`: ASCII blanks only.
    let mut k = end;
    while matches!(b.get(k), Some(b' ' | b'\t')) {
        k += 1;
    }
    // The `)` by the inlined [`ascii::find_byte`]: a `memchr` call paid about 57 instructions
    // for the 30-odd bytes of a build stamp.
    let build = r[k..]
        .strip_prefix('(')
        .and_then(|r| ascii::find_byte(r.as_bytes(), b')').map(|e| &r[..e]));
    Some(UbootLine::Banner {
        phase,
        version,
        build,
    })
}

/// Classifies a line (leading blanks already removed).
pub fn line(t: &str) -> Option<UbootLine<'_>> {
    line_hinted(t, needles::ALL)
}

/// [`line`] for the timeline: `hints` (see [`crate::needles`]) says whether the line may hold
/// `autoboot`, so most lines skip that search.
#[inline]
pub(crate) fn line_hinted(t: &str, hints: u8) -> Option<UbootLine<'_>> {
    // Without `autoboot` in the line, only the fixed prefixes below can match: their first
    // four bytes (two for `St`, answered next) turn other lines away without a call
    // (`SPL initial ...`, `## Booting ...`, `Times for ...` and the like included).
    if hints & needles::AUTOBOOT == 0
        && t.as_bytes().get(..2) != Some(b"St")
        && !matches!(
            t.as_bytes().get(..4),
            Some(b"U-Bo" | b"Tryi" | b"Time" | b"SPL:" | b"Mark" | b"Accu" | b"### ")
        )
    {
        return None;
    }
    // `St` lines (many `Starting ...`) are answered here without a call: only the two
    // hand-off lines match.
    if t.as_bytes().get(..2) == Some(b"St") {
        return if t.starts_with("Starting kernel") {
            Some(UbootLine::StartingKernel)
        } else if t.starts_with("Starting ATF") {
            Some(UbootLine::StartingAtf)
        } else {
            None
        };
    }
    line_full(t, hints)
}

/// [`line_hinted`] without the two-byte check.
fn line_full(t: &str, hints: u8) -> Option<UbootLine<'_>> {
    let has_autoboot = |t: &str| hints & needles::AUTOBOOT != 0 && has_autoboot(t);
    match t.as_bytes().first()? {
        // A banner's fixed prefix first, before any nom parsing (and no other branch for `U`).
        b'U' => banner_fast(t),
        b'T' => {
            if let Some(r) = t.strip_prefix("Trying to boot from ") {
                Some(UbootLine::TryingToBoot(ascii::trim_end_ws(r)))
            } else if let Some(r) = t.strip_prefix("Timer summary in microseconds (") {
                Some(UbootLine::BootstageHeader(header_count(r)?))
            } else {
                None
            }
        }
        b'S' => {
            if t.starts_with("Starting kernel") {
                Some(UbootLine::StartingKernel)
            } else if t.starts_with("Starting ATF") {
                Some(UbootLine::StartingAtf)
            } else if t.starts_with("SPL: failed to boot") {
                Some(UbootLine::Error(t.trim_end()))
            } else {
                None
            }
        }
        b'H' | b'P' if has_autoboot(t) => Some(UbootLine::Autoboot),
        // `Mark` and `Accumulated time:` checked as prefixes before splitting or trimming.
        b'M' if t.starts_with("Mark") && is_columns(t) => Some(UbootLine::BootstageColumns),
        b'A' if t.starts_with("Accumulated time:") && t.trim_end() == "Accumulated time:" => {
            Some(UbootLine::AccumulatedHeader)
        }
        b'#' if t.starts_with("### ERROR ###") => Some(UbootLine::Error(t.trim_end())),
        _ => {
            if has_autoboot(t)
                && (t.contains("to stop autoboot") || t.contains("to abort autoboot"))
            {
                Some(UbootLine::Autoboot)
            } else {
                None
            }
        }
    }
}

/// A bootstage header's record count, the text of `r` before its first `' '` read as a `u32`:
/// `r.split(' ').next()?.parse().ok()` ([`header_count_ref`], the test reference, with a
/// proptest that they agree) by the digit fold, where the splitter and `parse` cost ~100
/// instructions a header (600 on the bench log). `parse` takes one leading `+`; a run of over
/// 19 digits (which the wrapping fold may not hold) goes to it.
fn header_count(r: &str) -> Option<u32> {
    let b = r.as_bytes();
    let s = usize::from(b.first() == Some(&b'+'));
    let (v, e) = ascii::fold_digits(b, s, 0);
    // The word is the digits alone: they run to its end, a `' '` or the end of `r`.
    if e == s || b.get(e).is_some_and(|&c| c != b' ') {
        return None;
    }
    if e - s > 19 {
        // `r[..e]` is ASCII (a `+` and digits): its end is a char boundary.
        return r[..e].parse().ok();
    }
    u32::try_from(v).ok()
}

/// The splitter and `parse` [`header_count`] stands in for.
#[cfg(test)]
fn header_count_ref(r: &str) -> Option<u32> {
    r.split(' ').next()?.parse().ok()
}

/// Whether a line mentions `autoboot`: only where the line holds the pair `au` (found by
/// [`ascii::find_pair`], inlined) is the word compared; the prebuilt `memmem` searcher this
/// replaced ([`has_autoboot_memmem`], its test reference) paid a call and its set-up a line.
fn has_autoboot(t: &str) -> bool {
    let b = t.as_bytes();
    let mut i = 0;
    while let Some(k) = ascii::find_pair(&b[i..], b'a', b'u') {
        if b[i + k..].starts_with(b"autoboot") {
            return true;
        }
        i += k + 1;
    }
    false
}

/// The `memmem` search [`has_autoboot`] stands in for.
#[cfg(test)]
fn has_autoboot_memmem(t: &str) -> bool {
    static F: OnceLock<Finder<'static>> = OnceLock::new();
    F.get_or_init(|| Finder::new("autoboot"))
        .find(t.as_bytes())
        .is_some()
}

/// Whether `t`'s first three words (split at Unicode whitespace) are `Mark Elapsed Stage`, as
/// [`is_columns_split`] says, without its iterator (about 500 instructions a header): each
/// word a prefix, then whitespace (trimmed by the ASCII-first trim) or the end.
fn is_columns(t: &str) -> bool {
    // A word and the whitespace after it (some, unless the text ends with the word).
    fn word<'a>(t: &'a str, w: &str) -> Option<&'a str> {
        let r = t.strip_prefix(w)?;
        let after = ascii::trim_start_ws(r);
        (after.len() < r.len() || r.is_empty()).then_some(after)
    }
    let Some(r) = word(ascii::trim_start_ws(t), "Mark").and_then(|r| word(r, "Elapsed")) else {
        return false;
    };
    r.strip_prefix("Stage")
        .is_some_and(|r| r.chars().next().map_or(true, char::is_whitespace))
}

/// The `split_whitespace` test [`is_columns`] stands in for.
#[cfg(test)]
fn is_columns_split(t: &str) -> bool {
    let mut w = t.split_whitespace();
    w.next() == Some("Mark") && w.next() == Some("Elapsed") && w.next() == Some("Stage")
}

/// A bootstage number: `2,348,898` or `2348898`. The nom reference of [`grouped_fast`].
#[cfg(test)]
fn grouped(i: &str) -> IResult<&str, u64> {
    use nom::{character::complete::char, multi::many0_count};
    let (i, s) = recognize(pair(digit1, many0_count(pair(char(','), digit1))))(i)?;
    let v = s.bytes().filter(u8::is_ascii_digit).try_fold(0u64, |a, d| {
        a.checked_mul(10)
            .and_then(|a| a.checked_add((d - b'0') as u64))
    });
    match v {
        Some(v) => Ok((i, v)),
        None => Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::TooLarge,
        ))),
    }
}

/// The number of blanks (spaces, tabs: nom's `space0`) at the start of `b`.
#[cfg(test)]
fn blanks(b: &[u8]) -> usize {
    b.iter().take_while(|&&c| c == b' ' || c == b'\t').count()
}

/// [`grouped`] by hand: the number and its length in bytes.
fn grouped_fast(b: &[u8]) -> Option<(u64, usize)> {
    let mut i = 0;
    let mut v = 0u64;
    loop {
        let start = i;
        while let Some(&c) = b.get(i).filter(|c| c.is_ascii_digit()) {
            v = v.checked_mul(10)?.checked_add(u64::from(c - b'0'))?;
            i += 1;
        }
        if i == start {
            // No digits: none at all is no number; none after a `,` leaves the `,` out.
            return (start > 0).then(|| (v, start - 1));
        }
        if b.get(i) != Some(&b',') {
            return Some((v, i));
        }
        i += 1;
    }
}

/// `space0 grouped` and `space1` after it on `b` from `i`, by hand: the number and where the
/// blanks after it end. One pass folding the digits as they come (wrapping); a `,` and three
/// digits (bootstage's thousands groups) are read as one 4-byte word by [`comma_group_at`],
/// and the blanks after the number 8 spaces a word ([`skip_blanks`]); a number of over 19
/// digits, which may not fit, is read again by the checked [`grouped_fast`]. Indices, not
/// `&str`s, and inlined into the row readers: every row of a report pays for two.
#[inline(always)]
fn grouped_blanks_at(b: &[u8], mut i: usize) -> Option<(u64, usize)> {
    while matches!(b.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    let s = i;
    let (mut v, mut i) = crate::ascii::fold_digits(b, s, 0);
    if i == s {
        return None;
    }
    // `b[i]` ends a group of digits.
    let e = loop {
        if b.get(i) != Some(&b',') {
            break i;
        }
        let start = i + 1;
        if let Some(g) = comma_group_at(b, i) {
            // `((v * 10 + d0) * 10 + d1) * 10 + d2`, wrapping as the digit fold does; a longer
            // group goes on by the fold.
            (v, i) = crate::ascii::fold_digits(b, i + 4, v.wrapping_mul(1000).wrapping_add(g));
            continue;
        }
        (v, i) = crate::ascii::fold_digits(b, start, v);
        if i == start {
            // No digits after a `,`: the `,` is left out.
            break start - 1;
        }
    };
    // At most 19 bytes hold at most 19 digits (which fit); longer: count them.
    if e - s > 19 && b[s..e].iter().filter(|c| c.is_ascii_digit()).count() > 19 {
        v = grouped_fast(&b[s..])?.0;
    }
    let j = skip_blanks(b, e);
    (j > e).then_some((v, j))
}

/// The value of the three digits of a `,ddd` at `b[i..i + 4]`, if those bytes are one: one
/// 4-byte load and two mask tests, where the digit fold pays about 11 instructions a digit.
#[inline(always)]
fn comma_group_at(b: &[u8], i: usize) -> Option<u64> {
    let mut q = [0u8; 4];
    q.copy_from_slice(b.get(i..i.checked_add(4)?)?);
    let w = u32::from_le_bytes(q);
    // Byte 0 a `,`, bytes 1..=3 `0x3_`; then `+ 6` leaves each of those in `0x3_` only if its
    // low nibble is at most 9 (no byte carries into the next: they are at most `0x3f`).
    if w & 0xF0F0_F0FF != 0x3030_302C || w.wrapping_add(0x0606_0600) & 0xF0F0_F000 != 0x3030_3000 {
        return None;
    }
    let d = |k: u32| u64::from((w >> k) & 0xF);
    Some(d(8) * 100 + d(16) * 10 + d(24))
}

/// Where the blanks (spaces, tabs) of `b` from `i` end: 8 spaces a word while 8 bytes are
/// left (the first non-space of a word found by its lowest set byte once xored with spaces),
/// then a byte at a time (tabs, the last bytes). Report columns are padded with up to a dozen.
#[inline(always)]
fn skip_blanks(b: &[u8], mut i: usize) -> usize {
    const SPACES: u64 = u64::from_le_bytes(*b"        ");
    while let Some(w) = crate::ascii::word_at(b, i) {
        let x = w ^ SPACES;
        if x != 0 {
            i += (x.trailing_zeros() / 8) as usize;
            break;
        }
        i += 8;
    }
    while matches!(b.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    i
}

/// The digit-at-a-time [`grouped_blanks_at`] (no word reads) it stands in for: its test
/// reference, itself checked against the `&str` version [`grouped_then_blanks`].
#[cfg(test)]
fn grouped_blanks_at_bytes(b: &[u8], mut i: usize) -> Option<(u64, usize)> {
    while matches!(b.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    let s = i;
    let mut v = 0u64;
    let e = loop {
        let start = i;
        (v, i) = crate::ascii::fold_digits(b, i, v);
        if i == start {
            // No digits: none at all is no number; none after a `,` leaves the `,` out.
            if start == s {
                return None;
            }
            break start - 1;
        }
        if b.get(i) != Some(&b',') {
            break i;
        }
        i += 1;
    };
    // At most 19 bytes hold at most 19 digits (which fit); longer: count them.
    if e - s > 19 && b[s..e].iter().filter(|c| c.is_ascii_digit()).count() > 19 {
        v = grouped_fast(&b[s..])?.0;
    }
    let mut j = e;
    while matches!(b.get(j), Some(b' ' | b'\t')) {
        j += 1;
    }
    (j > e).then_some((v, j))
}

/// `space0 grouped` and `space1` after it, by hand: the number and the rest after the blanks.
/// The `&str` version [`grouped_blanks_at`] stands in for (its test reference now).
#[cfg(test)]
fn grouped_then_blanks(t: &str) -> Option<(u64, &str)> {
    let b = t.as_bytes();
    let s = blanks(b);
    let mut i = s;
    let mut v = 0u64;
    let mut digits = 0;
    let e = loop {
        let start = i;
        (v, i) = crate::ascii::fold_digits(b, i, v);
        digits += i - start;
        if i == start {
            // No digits: none at all is no number; none after a `,` leaves the `,` out.
            if start == s {
                return None;
            }
            break start - 1;
        }
        if b.get(i) != Some(&b',') {
            break i;
        }
        i += 1;
    };
    if digits > 19 {
        v = grouped_fast(&b[s..])?.0;
    }
    let sp = blanks(&b[e..]);
    (sp > 0).then(|| (v, &t[e + sp..]))
}

/// A report row: `  2,348,898  1,765,608  board_init_r` -> (mark, elapsed, name). Names may
/// hold blanks (`end SPL`). By hand (every row of a report), as [`record_row_nom`] says.
/// `always`: inlined into the timeline's report reader, a row pays for no call of its own.
#[inline(always)]
pub fn record_row(t: &str) -> Option<(u64, u64, &str)> {
    let b = t.as_bytes();
    let (mark, i) = grouped_blanks_at(b, 0)?;
    // The second number follows the blanks directly (`space0` of the helper finds none).
    if !b.get(i).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    let (elapsed, j) = grouped_blanks_at(b, i)?;
    // `j` follows an ASCII blank: a char boundary.
    let name = ascii::trim_ws_graphic_ends(&t[j..]);
    (!name.is_empty()).then_some((mark, elapsed, name))
}

/// An accumulated row: `   41,696  dm_r` -> (µs, name). By hand, as [`accumulated_row_nom`].
/// `always`, as [`record_row`] is: no call of its own a row.
#[inline(always)]
pub fn accumulated_row(t: &str) -> Option<(u64, &str)> {
    let (us, j) = grouped_blanks_at(t.as_bytes(), 0)?;
    // `j` follows an ASCII blank: a char boundary.
    let name = ascii::trim_ws_graphic_ends(&t[j..]);
    (!name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit())).then_some((us, name))
}

/// The nom grammar [`record_row`] stands in for.
#[cfg(test)]
fn record_row_nom(t: &str) -> Option<(u64, u64, &str)> {
    use nom::{character::complete::space1, sequence::tuple};
    let (rest, (_, mark, _, elapsed, _)) =
        tuple((space0, grouped, space1, grouped, space1))(t).ok()?;
    let name = rest.trim();
    (!name.is_empty()).then_some((mark, elapsed, name))
}

/// The nom grammar [`accumulated_row`] stands in for.
#[cfg(test)]
fn accumulated_row_nom(t: &str) -> Option<(u64, &str)> {
    use nom::{character::complete::space1, sequence::tuple};
    let (rest, (_, us, _)) = tuple((space0, grouped, space1))(t).ok()?;
    let name = rest.trim();
    (!name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit())).then_some((us, name))
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The prefix check turns away no line the grammar matches.
        #[test]
        fn two_byte_check_keeps_every_match(
            a in proptest::sample::select(b"U-TriSPtMaAc#HPx ".to_vec()),
            b in proptest::sample::select(b"U-TriSPtMaAc#HPx ".to_vec()),
            rest in proptest::sample::select(vec![
                "Boot SPL 2023.04 (x)", "ying to boot from MMC1", "mer summary in microseconds (5 records):",
                "arting kernel ...", "arting ATF", "L: failed to boot", "rk    Elapsed  Stage",
                "cumulated time:", "# ERROR ###", "t any key to stop autoboot", "", "x",
                "L initial stack usage", "# Booting kernel", "mes for array", "iad: 1", "#ERROR ###",
                "L:", "mer", "ying", "rk", "cu", "Bo", "# ", "rk Elapsed Stage",
            ]),
            hints in proptest::sample::select(vec![0u8, needles::AUTOBOOT]),
        ) {
            let t = format!("{}{}{rest}", a as char, b as char);
            proptest::prop_assert_eq!(line_hinted(&t, hints), line_full(&t, hints), "{:?}", t);
        }
    }

    proptest::proptest! {
        /// A header's count is read as the splitter and `parse` read it, on texts of digits,
        /// signs, blanks and other bytes (runs of over 19 digits and values past `u32` too).
        #[test]
        fn header_count_is_split_and_parse(parts in proptest::collection::vec(proptest::sample::select(vec![
            "0", "7", "12", "4294967295", "4294967296", "99999999999999999999", "00000000000000000000",
            "+", "-", " ", "  ", "\t", "records):", "(", "\u{e9}", "x",
        ]), 0..6)) {
            let t = parts.concat();
            proptest::prop_assert_eq!(header_count(&t), header_count_ref(&t), "{:?}", t);
        }
    }

    proptest::proptest! {
        /// A row's name without trims where it needs none ([`ascii::trim_ws_graphic_ends`]) is
        /// the trimmed name, at every char boundary of texts of names, blanks (Unicode ones
        /// too) and controls.
        #[test]
        fn row_name_is_the_trim(parts in proptest::collection::vec(proptest::sample::select(vec![
            "a", "board_init_r", "id=64", " ", "  ", "\t", "\r", "\n", "\x0b", "\x0c", "\x1f",
            "\x7f", "\u{a0}", "\u{2003}", "\u{e9}", "~", "!", "0",
        ]), 0..6)) {
            let t = parts.concat();
            for j in (0..=t.len()).filter(|&j| t.is_char_boundary(j)) {
                proptest::prop_assert_eq!(ascii::trim_ws_graphic_ends(&t[j..]), ascii::trim_ws(&t[j..]), "{:?} {}", t, j);
            }
        }
    }

    proptest::proptest! {
        /// The hand-written report rows are the nom grammars.
        #[test]
        fn fast_rows_are_the_nom_grammar(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![
                    " ", "  ", "\t", ",", ",,", "1", "23", "456", "99999999999", "0,000", "x", "end SPL",
                    "\u{a0}", "id=1", "9", ",5",
                ]),
                0..9,
            ),
        ) {
            let t = parts.concat();
            let by_index = grouped_blanks_at(t.as_bytes(), 0).map(|(v, j)| (v, &t[j..]));
            proptest::prop_assert_eq!(by_index, grouped_then_blanks(&t), "{:?}", t);
            proptest::prop_assert_eq!(record_row(&t), record_row_nom(&t), "{:?}", t);
            proptest::prop_assert_eq!(accumulated_row(&t), accumulated_row_nom(&t), "{:?}", t);
        }
    }

    proptest::proptest! {
        /// The word-reading number and blanks reader is the digit-at-a-time one, on report
        /// columns built from thousands groups, near-groups and blank runs of every length.
        #[test]
        fn grouped_words_are_the_byte_loop(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![
                    "1", "23", "456", ",123", ",000", ",999", ",12", ",1234", ",", ",,", ",12x",
                    ",9:9", ",/00", " ", "        ", "         ", "\t", "  \t ", "x", "id=1",
                    "\u{a0}", "99999999999", ",5",
                ]),
                0..12,
            ),
            from in 0usize..4,
        ) {
            let t = parts.concat();
            let b = t.as_bytes();
            let from = from.min(b.len());
            proptest::prop_assert_eq!(
                grouped_blanks_at(b, from),
                grouped_blanks_at_bytes(b, from),
                "{:?} from {}", t, from
            );
            if from == 0 {
                let by_index = grouped_blanks_at_bytes(b, 0).map(|(v, j)| (v, &t[j..]));
                proptest::prop_assert_eq!(by_index, grouped_then_blanks(&t), "{:?}", t);
            }
        }
    }

    proptest::proptest! {
        /// The pair search for `autoboot` is the `memmem` one.
        #[test]
        fn autoboot_search_is_memmem(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "autoboot", "auto", "boot", "a", "au", "u", "to stop ", "Hit any key ", " ", "\u{e9}",
                "autobooT", "aautoboot",
            ]), 0..8),
        ) {
            let t = parts.concat();
            proptest::prop_assert_eq!(has_autoboot(&t), has_autoboot_memmem(&t), "{:?}", t);
            proptest::prop_assert_eq!(has_autoboot(&t), t.contains("autoboot"), "{:?}", t);
        }
    }

    proptest::proptest! {
        /// The prefix-and-trim columns test is the `split_whitespace` one.
        #[test]
        fn columns_test_is_the_split(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "Mark", "Elapsed", "Stage", "Stages", " ", "  ", "\t", "\u{a0}", "\u{3000}", "x",
                "\n", "Mark    Elapsed  Stage",
            ]), 0..7),
        ) {
            for t in [parts.concat(), format!("Mark{}", parts.concat())] {
                proptest::prop_assert_eq!(is_columns(&t), is_columns_split(&t), "{:?}", t);
            }
        }
    }

    proptest::proptest! {
        /// The hand-written banner reader is the nom grammar.
        #[test]
        fn fast_banner_is_the_nom_grammar(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "U-Boot ", "SPL ", "TPL ", "VPL ", "SPL", "2023", ".04", "-rc1", "7", " ", "  ",
                "\t", "(", ")", "Jan 1 2023", "\u{a0}", "\u{85}", "\u{3000}", "\x0b", "\n", "x",
                "é", "-",
            ]), 0..7),
        ) {
            let t = format!("U-Boot {}", parts.concat());
            let slow = banner(&t).ok().map(|(_, l)| l);
            proptest::prop_assert_eq!(banner_fast(&t), slow, "{:?}", t);
        }
    }

    #[test]
    fn banners() {
        assert_eq!(
            line("U-Boot SPL 2021.01-gb248392d (Jan 04 2023 - 19:38:45 +0000)"),
            Some(UbootLine::Banner {
                phase: Phase::Spl,
                version: "2021.01-gb248392d",
                build: Some("Jan 04 2023 - 19:38:45 +0000")
            })
        );
        assert!(matches!(
            line("U-Boot 2013.04-dirty (Jul 10 2013 - 14:02:53)"),
            Some(UbootLine::Banner {
                phase: Phase::Proper,
                version: "2013.04-dirty",
                ..
            })
        ));
        assert!(matches!(
            line("U-Boot TPL 2017.09-rc2-13373-g2cffd0d-dirty (Aug 31 2017 - 20:41:14)"),
            Some(UbootLine::Banner {
                phase: Phase::Tpl,
                ..
            })
        ));
        assert_eq!(line("U-Boot> bootstage report"), None);
        assert_eq!(line("U-Boot SPL board init"), None);
    }

    #[test]
    fn a_u_line_is_only_ever_a_banner() {
        // `U` lines never reach the autoboot search, as before the prefix guard.
        assert_eq!(
            line_hinted("Uh, press a key to stop autoboot", needles::ALL),
            None
        );
        assert_eq!(
            line_hinted("Mark    Elapsed  Stage", 0),
            Some(UbootLine::BootstageColumns)
        );
        assert_eq!(line_hinted("Marks Elapsed Stage", 0), None);
        assert_eq!(
            line_hinted("Accumulated time:  \t", 0),
            Some(UbootLine::AccumulatedHeader)
        );
        assert_eq!(line_hinted("Accumulated time: x", 0), None);
    }

    #[test]
    fn autoboot_variants() {
        for l in [
            "Hit any key to stop autoboot:  0",
            "Press SPACE to abort autoboot in 2 seconds",
            "Autoboot in 1 seconds, press <Space> to stop autoboot",
        ] {
            assert_eq!(line(l), Some(UbootLine::Autoboot), "{l}");
        }
    }

    #[test]
    fn report_rows() {
        assert_eq!(
            line("Timer summary in microseconds (12 records):"),
            Some(UbootLine::BootstageHeader(12))
        );
        assert_eq!(
            line("Mark    Elapsed  Stage"),
            Some(UbootLine::BootstageColumns)
        );
        assert_eq!(
            record_row("  2,348,898  1,765,608  board_init_r"),
            Some((2348898, 1765608, "board_init_r"))
        );
        assert_eq!(record_row("0 0 reset"), Some((0, 0, "reset")));
        assert_eq!(
            record_row("5,563,519  2,858,790  id=175"),
            Some((5563519, 2858790, "id=175"))
        );
        assert_eq!(
            record_row("  837,867    642,254  end SPL"),
            Some((837867, 642254, "end SPL"))
        );
        assert_eq!(record_row("12 x"), None);
        assert_eq!(accumulated_row("    41,696  dm_r"), Some((41696, "dm_r")));
        assert_eq!(record_row("99999999999999999999999 1 x"), None);
    }

    #[test]
    fn errors_and_handoff() {
        assert_eq!(line("Starting kernel ..."), Some(UbootLine::StartingKernel));
        assert!(matches!(
            line("### ERROR ### Please RESET the board ###"),
            Some(UbootLine::Error(_))
        ));
    }
}
