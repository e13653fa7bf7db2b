//! SYSFW / TIFS grammar: firmware version and ABI lines, board-configuration messages.

use crate::gate::declaration::Gate;
use crate::{ascii, needles};
#[cfg(test)]
use memchr::memmem::Finder;
#[cfg(test)]
use std::sync::OnceLock;

/// A SYSFW line the timeline cares about.
#[derive(Debug, Clone, PartialEq)]
pub enum SysfwLine<'a> {
    /// `SYSFW ABI: 3.1 (firmware rev 0x0008 '8.5.3--v08.05.03 (Chill Capybar')`: ABI and the
    /// firmware version string (cut at 32 characters by the firmware).
    Abi(&'a str, Option<&'a str>),
    /// `SYSFW Version 9.0.5--v09.00.05 (Kool Koala)` (MCU+ SBL) or `TIFS ver: ...` (PDK SBL).
    Version(&'a str),
    /// `DMSC ABI revision 3.1`.
    DmscAbi(&'a str),
    /// A board-configuration message (`Sciclient_setBoardConfig... PASSED`, ...).
    BoardConfig(&'a str),
}

/// The lines [`line`] may take (see [`crate::gate`]): its prefixes, and `oard` anywhere (the
/// board-configuration lines).
pub const GATE: Gate = Gate {
    prefixes: &[
        "SYSFW ABI:",
        "SYSFW Version",
        "TIFS ver:",
        "DMSC ABI revision",
    ],
    other: None,
    words: needles::OARD,
};

/// Classifies a line (leading blanks and an `I/TC: ` prefix already removed).
pub fn line(t: &str) -> Option<SysfwLine<'_>> {
    line_hinted(t, needles::ALL)
}

/// [`line`] for the timeline: `hints` (see [`crate::needles`]) says whether the line may hold
/// `oard`, so most lines skip that search.
#[inline]
pub(crate) fn line_hinted(t: &str, hints: u8) -> Option<SysfwLine<'_>> {
    // Every fixed prefix starts `SY`, `TI` or `DM`: other lines can only be board-config
    // lines, which the `oard` hint announces. Inlined, so most lines pay no call.
    if hints & needles::OARD == 0
        && !matches!(
            t.as_bytes().get(..2),
            Some([b'S', b'Y'] | [b'T', b'I'] | [b'D', b'M'])
        )
    {
        return None;
    }
    line_full(t, hints)
}

/// The text between the first `'` of `r` and its last one (to the end when there is one
/// `'`): the first by the inlined [`ascii::find_byte`], the last by a byte loop from the end,
/// where `split_once` and `rsplit_once` ([`quoted_split`], the test reference) paid std's
/// char searchers.
fn quoted(r: &str) -> Option<&str> {
    let i = ascii::find_byte(r.as_bytes(), b'\'')?;
    // After the ASCII `'`: a char boundary, and so is the last `'`.
    let v = &r[i + 1..];
    Some(match v.as_bytes().iter().rposition(|&c| c == b'\'') {
        Some(j) => &v[..j],
        None => v,
    })
}

/// The `split_once` and `rsplit_once` version of [`quoted`].
#[cfg(test)]
fn quoted_split(r: &str) -> Option<&str> {
    r.split_once('\'')
        .and_then(|(_, v)| v.rsplit_once('\'').map(|(v, _)| v).or(Some(v)))
}

/// [`line_hinted`] without the two-byte check.
fn line_full(t: &str, hints: u8) -> Option<SysfwLine<'_>> {
    if let Some(r) = t.strip_prefix("SYSFW ABI:") {
        let r = ascii::trim_ws_graphic_ends(r);
        let abi = ascii::first_word(r)?;
        return Some(SysfwLine::Abi(
            abi,
            quoted(r).map(ascii::trim_ws_graphic_ends),
        ));
    }
    if let Some(r) = t.strip_prefix("SYSFW Version") {
        return Some(SysfwLine::Version(ascii::trim_end_ws(
            r.trim_start_matches([':', ' ']),
        )));
    }
    if let Some(r) = t.strip_prefix("TIFS ver:") {
        return Some(SysfwLine::Version(ascii::trim_ws_graphic_ends(r)));
    }
    if let Some(r) = t.strip_prefix("DMSC ABI revision") {
        return Some(SysfwLine::DmscAbi(ascii::trim_ws_graphic_ends(r)));
    }
    // All three spellings contain `oard`: one prebuilt SIMD search rules out most lines.
    if hints & needles::OARD != 0 && has_board_config(t) {
        return Some(SysfwLine::BoardConfig(ascii::trim_end_ws(t)));
    }
    None
}

/// Whether `t` holds `Board Configuration`, `BoardConfig` or `board config`: each has `oa` as
/// its second and third bytes, so only where `t` holds that pair (found by
/// [`ascii::find_pair`]) is there anything to compare. Lines asked hold `oard` (the hint) and
/// many `o`s, where the `o`-by-`o` search ([`has_board_config_by_o`], kept as a test
/// reference) paid a search and a compare for each.
fn has_board_config(t: &str) -> bool {
    let b = t.as_bytes();
    let mut i = 0;
    while let Some(k) = ascii::find_pair(&b[i..], b'o', b'a') {
        if board_config_at(b, i + k) {
            return true;
        }
        i += k + 1;
    }
    false
}

/// Whether one of the board-config words starts a byte before `b[k]` (its `o`).
#[inline(always)]
fn board_config_at(b: &[u8], k: usize) -> bool {
    k >= 1 && {
        let s = &b[k - 1..];
        s.starts_with(b"Board Configuration")
            || s.starts_with(b"BoardConfig")
            || s.starts_with(b"board config")
    }
}

/// The `o`-by-`o` search [`has_board_config`] stands in for.
#[cfg(test)]
fn has_board_config_by_o(t: &str) -> bool {
    let b = t.as_bytes();
    let mut i = 0;
    while let Some(k) = ascii::find_byte(&b[i..], b'o') {
        if board_config_at(b, i + k) {
            return true;
        }
        i += k + 1;
    }
    false
}

/// The `memmem` search for `oard` [`has_board_config`] stands in for (`oard` cannot overlap
/// itself, so the non-overlapping matches are all of them).
#[cfg(test)]
fn has_board_config_memmem(t: &str) -> bool {
    static OARD: OnceLock<Finder<'static>> = OnceLock::new();
    let b = t.as_bytes();
    OARD.get_or_init(|| Finder::new("oard"))
        .find_iter(b)
        .any(|i| board_config_at(b, i))
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The two-byte check turns away no line the grammar matches.
        #[test]
        fn two_byte_check_keeps_every_match(
            a in proptest::sample::select(b"SYTIDMsyx ".to_vec()),
            b in proptest::sample::select(b"SYTIDMsyx ".to_vec()),
            rest in proptest::sample::select(vec![
                "SFW ABI: 3.1 (x 'v')", "SFW Version 1", "FS ver: 10", "SC ABI revision 3.1",
                "", "x Board Configuration", "BoardConfig", " board config",
            ]),
            hints in proptest::sample::select(vec![0u8, needles::OARD]),
        ) {
            let t = format!("{}{}{rest}", a as char, b as char);
            proptest::prop_assert_eq!(line_hinted(&t, hints), line_full(&t, hints), "{:?}", t);
        }
    }

    proptest::proptest! {
        /// The one-search board-config test is the `oard` search and three `contains`.
        #[test]
        fn board_config_is_the_contains_chain(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "Board Configuration", "BoardConfig", "board config", "oard", "Board", "b", "B",
                " Configuration", "Config", " config", "x", " ", "oardoard", "o", "oo", "12345678",
                "oa", "a", "1234567",
            ]), 0..8),
        ) {
            let t = parts.concat();
            let slow = t.contains("oard")
                && (t.contains("Board Configuration") || t.contains("BoardConfig") || t.contains("board config"));
            proptest::prop_assert_eq!(has_board_config(&t), slow, "{:?}", t);
            proptest::prop_assert_eq!(has_board_config_memmem(&t), slow, "{:?}", t);
            proptest::prop_assert_eq!(has_board_config_by_o(&t), slow, "{:?}", t);
        }
    }

    proptest::proptest! {
        /// The byte searches for the quotes are `split_once` and `rsplit_once`.
        #[test]
        fn quoted_is_the_split(s in "['a \u{e9}(]{0,40}", pad in 0usize..20) {
            let t = format!("{}{s}", "x".repeat(pad));
            proptest::prop_assert_eq!(quoted(&t), quoted_split(&t), "{:?}", t);
        }
    }

    #[test]
    fn abi_with_cut_name() {
        assert_eq!(
            line("SYSFW ABI: 3.1 (firmware rev 0x0008 '8.5.3--v08.05.03 (Chill Capybar')"),
            Some(SysfwLine::Abi(
                "3.1",
                Some("8.5.3--v08.05.03 (Chill Capybar")
            ))
        );
        assert_eq!(
            line("SYSFW ABI: 3.1 (firmware rev 0x0009 '9.0.5--v09.00.05 (Kool Koala)')"),
            Some(SysfwLine::Abi("3.1", Some("9.0.5--v09.00.05 (Kool Koala)")))
        );
    }

    #[test]
    fn versions() {
        assert_eq!(
            line("SYSFW Version 9.0.5--v09.00.05 (Kool Koala)"),
            Some(SysfwLine::Version("9.0.5--v09.00.05 (Kool Koala)"))
        );
        assert_eq!(
            line("TIFS ver: 10.0.8--v10.00.08 (Fiery Fox)"),
            Some(SysfwLine::Version("10.0.8--v10.00.08 (Fiery Fox)"))
        );
        assert_eq!(
            line("DMSC ABI revision 3.1"),
            Some(SysfwLine::DmscAbi("3.1"))
        );
        assert!(matches!(
            line("Sciclient_setBoardConfigHeader... PASSED"),
            Some(SysfwLine::BoardConfig(_))
        ));
    }
}
