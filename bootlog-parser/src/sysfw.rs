//! SYSFW / TIFS grammar: firmware version and ABI lines, board-configuration messages.

use crate::declaration::Gate;
use crate::{ascii, needles};
use memchr::memmem::Finder;
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

const ABI: &str = "SYSFW ABI:";
const VERSION: &str = "SYSFW Version";
const TIFS: &str = "TIFS ver:";
const DMSC: &str = "DMSC ABI revision";

/// The lines [`line`] may take (see [`crate::gate`]): its prefixes, and `oard` anywhere (the
/// board-configuration lines).
pub const GATE: Gate = Gate {
    prefixes: &[ABI, VERSION, TIFS, DMSC],
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
    if let Some(r) = t.strip_prefix(ABI) {
        let r = ascii::trim_ws_graphic_ends(r);
        let abi = ascii::first_word(r)?;
        return Some(SysfwLine::Abi(
            abi,
            quoted(r).map(ascii::trim_ws_graphic_ends),
        ));
    }
    if let Some(r) = t.strip_prefix(VERSION) {
        return Some(SysfwLine::Version(ascii::trim_end_ws(
            r.trim_start_matches([':', ' ']),
        )));
    }
    if let Some(r) = t.strip_prefix(TIFS) {
        return Some(SysfwLine::Version(ascii::trim_ws_graphic_ends(r)));
    }
    if let Some(r) = t.strip_prefix(DMSC) {
        return Some(SysfwLine::DmscAbi(ascii::trim_ws_graphic_ends(r)));
    }
    if hints & needles::OARD != 0 && has_board_config(t) {
        return Some(SysfwLine::BoardConfig(ascii::trim_end_ws(t)));
    }
    None
}

/// The text between the first `'` of `r` and its last one (to the end when there is one `'`).
fn quoted(r: &str) -> Option<&str> {
    r.split_once('\'')
        .and_then(|(_, v)| v.rsplit_once('\'').map(|(v, _)| v).or(Some(v)))
}

/// Whether `t` holds `Board Configuration`, `BoardConfig` or `board config`: where `t` holds
/// `oard` (one prebuilt SIMD search), whether one of them starts a byte before.
fn has_board_config(t: &str) -> bool {
    static OARD: OnceLock<Finder<'static>> = OnceLock::new();
    let b = t.as_bytes();
    OARD.get_or_init(|| Finder::new(needles::OARD_WORD))
        .find_iter(b)
        .any(|k| {
            k >= 1 && {
                let s = &b[k - 1..];
                s.starts_with(b"Board Configuration")
                    || s.starts_with(b"BoardConfig")
                    || s.starts_with(b"board config")
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The board-config test is three `contains`.
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
