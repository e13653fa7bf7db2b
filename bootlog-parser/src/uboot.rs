//! U-Boot grammar: TPL / SPL / proper banners, boot-device and autoboot lines, the hand-off to
//! the kernel, and the bootstage report (`Timer summary in microseconds`, `Accumulated time:`).

use crate::declaration::{lead, Gate};
use crate::{ascii, needles};

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
    /// `U-Boot SPL 2021.01-gb248392d (Jan 04 2023 - 19:38:45 +0000)`; also a whole line of
    /// `U-Boot SPL`, `U-Boot TPL`, `U-Boot VPL` or `U-Boot` with no version (blanks after it
    /// allowed, or a build date in parentheses alone).
    Banner {
        /// TPL, SPL or proper.
        phase: Phase,
        /// `2021.01-gb248392d`; empty for a banner with no version.
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

const BANNER: &str = "U-Boot ";
/// What every banner starts with, the version-less `U-Boot` alone on its line too.
const BANNER_WORD: &str = "U-Boot";
const TRYING: &str = "Trying to boot from ";
const TIMER_SUMMARY: &str = "Timer summary in microseconds (";
const SPL_FAILED: &str = "SPL: failed to boot";
const MARK: &str = "Mark";
const ACCUMULATED: &str = "Accumulated time:";
const ERROR: &str = "### ERROR ###";
const STARTING_KERNEL: &str = "Starting kernel";
const STARTING_ATF: &str = "Starting ATF";

/// The lines [`line`] may take (see [`crate::gate`]): its prefixes, and `autoboot` anywhere.
pub const GATE: Gate = Gate {
    prefixes: &[
        BANNER_WORD,
        TRYING,
        TIMER_SUMMARY,
        SPL_FAILED,
        MARK,
        ACCUMULATED,
        ERROR,
        STARTING_KERNEL,
        STARTING_ATF,
    ],
    other: None,
    words: needles::AUTOBOOT,
};

/// `U-Boot [SPL |TPL |VPL ]<version>[ (<build>)]` by hand, or a banner with no version
/// ([`bare_banner`]), as the nom `reference::banner` reads them (a proptest holds them
/// equal): every boot prints one or more.
fn banner_fast(t: &str) -> Option<UbootLine<'_>> {
    versioned_banner(t).or_else(|| bare_banner(t))
}

/// A banner with no version, the whole line: `U-Boot`, then ` SPL`, ` TPL` or ` VPL` or
/// nothing, then blanks (spaces, tabs) or nothing, or blanks and a build date in
/// parentheses that ends the line. Lines that merely start with `U-Boot` (a `U-Boot> `
/// prompt, `U-Boot SPL board init`) are none.
fn bare_banner(t: &str) -> Option<UbootLine<'_>> {
    let r = t.strip_prefix(BANNER_WORD)?;
    let r = r.trim_end_matches([' ', '\t']);
    let (phase, r) = match r.as_bytes().get(..4) {
        Some(b" SPL") => (Phase::Spl, &r[4..]),
        Some(b" TPL" | b" VPL") => (Phase::Tpl, &r[4..]),
        _ => (Phase::Proper, r),
    };
    let rest = r.trim_start_matches([' ', '\t']);
    let build = if rest.is_empty() {
        None
    } else if rest.len() < r.len() && rest.starts_with('(') && rest.ends_with(')') {
        let inner = &rest[1..];
        Some(&inner[..ascii::find_byte(inner.as_bytes(), b')')?])
    } else {
        return None;
    };
    Some(UbootLine::Banner {
        phase,
        version: "",
        build,
    })
}

/// The banner with a version (see [`banner_fast`]).
fn versioned_banner(t: &str) -> Option<UbootLine<'_>> {
    let r = t.strip_prefix(BANNER)?;
    let (phase, r) = match r.as_bytes().get(..4) {
        Some(b"SPL ") => (Phase::Spl, &r[4..]),
        Some(b"TPL " | b"VPL ") => (Phase::Tpl, &r[4..]),
        _ => (Phase::Proper, r),
    };
    let b = r.as_bytes();
    // `digit1`, then `take_till1(char::is_whitespace)`: the version runs to the first
    // whitespace char, and must hold more than its leading digits.
    let mut digits = 0;
    while b.get(digits).is_some_and(u8::is_ascii_digit) {
        digits += 1;
    }
    if digits == 0 {
        return None;
    }
    // `find(char::is_whitespace)` after the digits (ASCII: a char boundary), 8 bytes a word
    // while they are ASCII (versions run to 30 bytes and more).
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
    // The `)` by the inlined [`ascii::find_byte`] (a build stamp is 30-odd bytes).
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

/// The first four bytes of [`GATE`]'s prefixes, for [`line_hinted`]'s quick test.
static LEADS: [u64; GATE.prefixes.len()] = GATE.leads(4);

/// [`line`] for the timeline: `hints` (see [`crate::needles`]) says whether the line may hold
/// `autoboot`, so most lines skip that search.
#[inline]
pub(crate) fn line_hinted(t: &str, hints: u8) -> Option<UbootLine<'_>> {
    // Without `autoboot` in the line, only [`GATE`]'s prefixes can match: their first four
    // bytes turn other lines away without a call.
    if hints & needles::AUTOBOOT == 0 && !lead(t.as_bytes(), 4).is_some_and(|w| LEADS.contains(&w))
    {
        return None;
    }
    // `St` lines (many `Starting ...`) are answered here without a call: only the two
    // hand-off lines match.
    if t.as_bytes().get(..2) == Some(b"St") {
        return starting(t);
    }
    line_full(t, hints)
}

/// A `St` line: one of the two hand-off lines, or nothing.
#[inline(always)]
fn starting(t: &str) -> Option<UbootLine<'_>> {
    if t.starts_with(STARTING_KERNEL) {
        Some(UbootLine::StartingKernel)
    } else if t.starts_with(STARTING_ATF) {
        Some(UbootLine::StartingAtf)
    } else {
        None
    }
}

/// [`line_hinted`] without the two-byte check.
fn line_full(t: &str, hints: u8) -> Option<UbootLine<'_>> {
    let has_autoboot = |t: &str| hints & needles::AUTOBOOT != 0 && has_autoboot(t);
    match t.as_bytes().first()? {
        // A banner's fixed prefix first, before any nom parsing (and no other branch for `U`).
        b'U' => banner_fast(t),
        b'T' => {
            if let Some(r) = t.strip_prefix(TRYING) {
                Some(UbootLine::TryingToBoot(ascii::trim_end_ws(r)))
            } else if let Some(r) = t.strip_prefix(TIMER_SUMMARY) {
                Some(UbootLine::BootstageHeader(header_count(r)?))
            } else {
                None
            }
        }
        b'S' => {
            if t.starts_with(SPL_FAILED) {
                Some(UbootLine::Error(t.trim_end()))
            } else {
                starting(t)
            }
        }
        b'H' | b'P' if has_autoboot(t) => Some(UbootLine::Autoboot),
        // `Mark` and `Accumulated time:` checked as prefixes before splitting or trimming.
        b'M' if t.starts_with(MARK) && is_columns(t) => Some(UbootLine::BootstageColumns),
        b'A' if t.starts_with(ACCUMULATED) && t.trim_end() == ACCUMULATED => {
            Some(UbootLine::AccumulatedHeader)
        }
        b'#' if t.starts_with(ERROR) => Some(UbootLine::Error(t.trim_end())),
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

/// A bootstage header's record count: the text of `r` before its first `' '`.
fn header_count(r: &str) -> Option<u32> {
    r.split(' ').next()?.parse().ok()
}

/// Whether a line mentions `autoboot`.
fn has_autoboot(t: &str) -> bool {
    t.contains(needles::AUTOBOOT_WORD)
}

/// Whether `t`'s first three words are `Mark Elapsed Stage`.
fn is_columns(t: &str) -> bool {
    let mut w = t.split_whitespace();
    w.next() == Some("Mark") && w.next() == Some("Elapsed") && w.next() == Some("Stage")
}

/// `reference::grouped` by hand: the number and its length in bytes.
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
/// blanks after it end (with `or_end`, the end of `b` may stand for the blanks). One pass
/// folding the digits as they come (wrapping); a number of over 19 digits, which may not
/// fit, is read again by the checked [`grouped_fast`].
#[inline(always)]
fn grouped_blanks_at(b: &[u8], mut i: usize, or_end: bool) -> Option<(u64, usize)> {
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
    (j > e || (or_end && j == b.len())).then_some((v, j))
}

/// A report row: `  2,348,898  1,765,608  board_init_r` -> (mark, elapsed, name). Names may
/// hold blanks (`end SPL`), and may be empty (a record marked with an empty name prints its
/// two numbers alone): the name is then `""`. By hand (every row of a report), as
/// `reference::record_row_nom` says. `always`: inlined into the timeline's report reader, a
/// row pays for no call of its own.
#[inline(always)]
pub fn record_row(t: &str) -> Option<(u64, u64, &str)> {
    let b = t.as_bytes();
    let (mark, i) = grouped_blanks_at(b, 0, false)?;
    // The second number follows the blanks directly (`space0` of the helper finds none).
    if !b.get(i).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    let (elapsed, j) = grouped_blanks_at(b, i, true)?;
    // `j` follows an ASCII blank or ends the text: a char boundary.
    let name = ascii::trim_ws_graphic_ends(&t[j..]);
    Some((mark, elapsed, name))
}

/// An accumulated row: `   41,696  dm_r` -> (µs, name). By hand, as `reference::accumulated_row_nom`.
/// `always`, as [`record_row`] is: no call of its own a row.
#[inline(always)]
pub fn accumulated_row(t: &str) -> Option<(u64, &str)> {
    let (us, j) = grouped_blanks_at(t.as_bytes(), 0, false)?;
    // `j` follows an ASCII blank: a char boundary.
    let name = ascii::trim_ws_graphic_ends(&t[j..]);
    (!name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit())).then_some((us, name))
}

/// The nom grammars and plain versions the hand-written readers stand in for: the
/// differential tests' references.
#[cfg(test)]
mod reference {
    use super::*;
    use nom::{
        branch::alt,
        bytes::complete::{tag, take_till1},
        character::complete::{digit1, space0},
        combinator::{map, opt, recognize},
        sequence::pair,
        IResult,
    };

    /// The nom `version` of [`banner`](banner), the test reference of [`banner_fast`].
    pub(super) fn version(i: &str) -> IResult<&str, &str> {
        recognize(pair(digit1, take_till1(|c: char| c.is_whitespace())))(i)
    }

    /// The nom banner grammar, the test reference of [`banner_fast`]: a versioned banner,
    /// else a version-less one.
    pub(super) fn banner(i: &str) -> IResult<&str, UbootLine<'_>> {
        versioned(i).or_else(|e| bare(i).map(|l| ("", l)).ok_or(e))
    }

    /// The plain reading of a version-less banner line, the reference of [`bare_banner`].
    fn bare(i: &str) -> Option<UbootLine<'_>> {
        let t = i.trim_end_matches([' ', '\t']);
        let r = t.strip_prefix("U-Boot")?;
        let (phase, r) = [
            (" SPL", Phase::Spl),
            (" TPL", Phase::Tpl),
            (" VPL", Phase::Tpl),
        ]
        .iter()
        .find_map(|(p, ph)| r.strip_prefix(p).map(|r| (*ph, r)))
        .unwrap_or((Phase::Proper, r));
        let rest = r.trim_start_matches([' ', '\t']);
        let build = if rest.is_empty() {
            None
        } else if rest != r && rest.starts_with('(') && rest.ends_with(')') {
            Some(rest[1..].split(')').next()?)
        } else {
            return None;
        };
        Some(UbootLine::Banner {
            phase,
            version: "",
            build,
        })
    }

    fn versioned(i: &str) -> IResult<&str, UbootLine<'_>> {
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

    /// A bootstage number: `2,348,898` or `2348898`. The nom reference of [`grouped_fast`].
    pub(super) fn grouped(i: &str) -> IResult<&str, u64> {
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

    /// The nom grammar [`record_row`] stands in for.
    pub(super) fn record_row_nom(t: &str) -> Option<(u64, u64, &str)> {
        use nom::{character::complete::space1, combinator::eof, sequence::tuple};
        let (rest, (_, mark, _, elapsed, _)) =
            tuple((space0, grouped, space1, grouped, alt((space1, eof))))(t).ok()?;
        Some((mark, elapsed, rest.trim()))
    }

    /// The nom grammar [`accumulated_row`] stands in for.
    pub(super) fn accumulated_row_nom(t: &str) -> Option<(u64, &str)> {
        use nom::{character::complete::space1, sequence::tuple};
        let (rest, (_, us, _)) = tuple((space0, grouped, space1))(t).ok()?;
        let name = rest.trim();
        (!name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit())).then_some((us, name))
    }
}

#[cfg(test)]
mod tests {
    use super::reference::*;
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
            proptest::prop_assert_eq!(record_row(&t), record_row_nom(&t), "{:?}", t);
            proptest::prop_assert_eq!(accumulated_row(&t), accumulated_row_nom(&t), "{:?}", t);
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

        /// The same, for lines that start `U-Boot` with no blank after it or a phase alone:
        /// the version-less banners and the lines that are none.
        #[test]
        fn fast_bare_banner_is_the_nom_grammar(
            head in proptest::sample::select(vec!["U-Boot", "U-Boot ", "U-Boot SPL", "U-Boot TPL ", "U-Boot VPL", "U-Boot>"]),
            parts in proptest::collection::vec(proptest::sample::select(vec![
                " ", "  ", "\t", "(", ")", "Jan 1 2023", "\u{a0}", "x", ">", "SPL", "2023.04",
            ]), 0..5),
        ) {
            let t = format!("{head}{}", parts.concat());
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
    fn banners_with_no_version() {
        for (l, phase) in [
            ("U-Boot SPL ", Phase::Spl),
            ("U-Boot SPL", Phase::Spl),
            ("U-Boot TPL \t", Phase::Tpl),
            ("U-Boot VPL", Phase::Tpl),
            ("U-Boot ", Phase::Proper),
            ("U-Boot", Phase::Proper),
        ] {
            assert_eq!(
                line(l),
                Some(UbootLine::Banner {
                    phase,
                    version: "",
                    build: None
                }),
                "{l:?}"
            );
        }
        assert_eq!(
            line("U-Boot SPL  (Jan 04 2023 - 19:38:45 +0000)"),
            Some(UbootLine::Banner {
                phase: Phase::Spl,
                version: "",
                build: Some("Jan 04 2023 - 19:38:45 +0000")
            })
        );
        for l in [
            "U-Boot> ",
            "U-Boot>",
            "U-Boot SPL board init",
            "U-Boot SPLx",
            "U-Boot(x)",
            "U-Boot (x) y",
            "U-Boot is starting",
            "U-Boot-SPL",
        ] {
            assert_eq!(line(l), None, "{l:?}");
        }
    }

    #[test]
    fn a_u_line_is_only_ever_a_banner() {
        // `U` lines never reach the autoboot search.
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
        // A record with an empty name: its numbers alone, blanks after them or not.
        assert_eq!(
            record_row("  1,029,110    227,403"),
            Some((1029110, 227403, ""))
        );
        assert_eq!(
            record_row("  1,029,110    227,403  \t"),
            Some((1029110, 227403, ""))
        );
        assert_eq!(record_row("1,029,110"), None);
        assert_eq!(record_row("1 2x"), None);
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
