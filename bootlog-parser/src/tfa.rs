//! Trusted Firmware-A (and OpenSBI, its RISC-V counterpart) grammar.

use crate::gate::declaration::Gate;

/// A TF-A line the timeline cares about.
#[derive(Debug, Clone, PartialEq)]
pub enum TfaLine<'a> {
    /// `NOTICE:  BL31: v2.7(release):v2.7.0-519-gc19116dd6`: which BL image and its version.
    Version(&'a str, &'a str),
    /// Another TF-A line (`NOTICE:  BL31: Built : ...`, `INFO:    BL31: ...`).
    Other,
    /// `OpenSBI v1.2`.
    OpenSbi(&'a str),
}

/// The lines [`line`] may take (see [`crate::gate`]): the log levels.
pub const GATE: Gate = Gate {
    prefixes: &["NOTICE:", "INFO:", "WARNING:", "ERROR:", "VERBOSE:"],
    other: None,
    words: 0,
};

/// The lines [`opensbi`] may take (see [`crate::gate`]).
pub const OPENSBI_GATE: Gate = Gate {
    prefixes: &["OpenSBI "],
    other: None,
    words: 0,
};

/// Classifies a line (leading blanks removed).
#[inline]
pub fn line(t: &str) -> Option<TfaLine<'_>> {
    // The log levels' first two bytes: other lines are turned away without a call.
    if !matches!(
        t.as_bytes().get(..2),
        Some([b'N', b'O'] | [b'I', b'N'] | [b'W', b'A'] | [b'E', b'R'] | [b'V', b'E'])
    ) {
        return None;
    }
    line_full(t)
}

/// [`line`] without the two-byte check: [`line_full_ref`] with the level picked by its first
/// byte (the five start with five different bytes) and the first `:` found by the inlined
/// [`crate::ascii::find_byte`] (`split_once(':')` paid std's char searcher, about half of the
/// ~200 instructions a line).
fn line_full(t: &str) -> Option<TfaLine<'_>> {
    let level = match t.as_bytes().first()? {
        b'N' => "NOTICE:",
        b'I' => "INFO:",
        b'W' => "WARNING:",
        b'E' => "ERROR:",
        b'V' => "VERBOSE:",
        _ => return None,
    };
    let rest = crate::ascii::trim_start_ws(t.strip_prefix(level)?);
    if let Some(r) = rest.strip_prefix("OpenSBI ") {
        return Some(TfaLine::OpenSbi(crate::ascii::trim_ws(r)));
    }
    let colon = crate::ascii::find_byte(rest.as_bytes(), b':')?;
    // The ASCII `:` is a char boundary on both sides.
    Some(stage_line(&rest[..colon], &rest[colon + 1..]))
}

/// A level line's text split at its first `:` into `bl` and `r`: a BL stage's version
/// (`BL31: v2.10.0`) or another message.
#[inline(always)]
fn stage_line<'a>(bl: &'a str, r: &'a str) -> TfaLine<'a> {
    if !(bl.starts_with("BL") && bl.len() <= 4) {
        return TfaLine::Other;
    }
    let r = crate::ascii::trim_ws_graphic_ends(r);
    if r.starts_with('v') && r.as_bytes().get(1).is_some_and(u8::is_ascii_digit) {
        TfaLine::Version(bl, r)
    } else {
        TfaLine::Other
    }
}

/// The `find_map` and `split_once` version [`line_full`] stands in for (its test reference).
#[cfg(test)]
fn line_full_ref(t: &str) -> Option<TfaLine<'_>> {
    let rest = ["NOTICE:", "INFO:", "WARNING:", "ERROR:", "VERBOSE:"]
        .iter()
        .find_map(|p| t.strip_prefix(p))
        .map(crate::ascii::trim_start_ws)?;
    if let Some(r) = rest.strip_prefix("OpenSBI ") {
        return Some(TfaLine::OpenSbi(crate::ascii::trim_ws(r)));
    }
    let (bl, r) = rest.split_once(':')?;
    Some(stage_line(bl, r))
}

/// `OpenSBI v1.2` as printed bare (without a log level): the version.
pub fn opensbi(t: &str) -> Option<&str> {
    t.strip_prefix("OpenSBI ")
        .and_then(|r| r.split_whitespace().next())
        .filter(|v| v.starts_with('v'))
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The two-byte check turns away no line the grammar matches.
        #[test]
        fn two_byte_check_keeps_every_match(
            a in proptest::sample::select(b"NOIWAERVx ".to_vec()),
            b in proptest::sample::select(b"NOIWAERVx ".to_vec()),
            rest in proptest::sample::select(vec![
                "TICE:  BL31: v2.8", "FO:    BL2: x", "RNING: y", "ROR:", "RBOSE: z", "", "x",
            ]),
        ) {
            let t = format!("{}{}{rest}", a as char, b as char);
            proptest::prop_assert_eq!(line(&t), line_full(&t), "{:?}", t);
        }
    }

    proptest::proptest! {
        /// The first-byte level and the inlined `:` search are the `find_map` and
        /// `split_once` chain, on texts glued from the grammar's words.
        #[test]
        fn fast_line_is_the_chain(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "NOTICE:", "INFO:", "WARNING:", "ERROR:", "VERBOSE:", "NOTICE", "N", "BL31", "BL2",
                "BL", ":", " ", "  ", "\t", "v2.8", "v", "2", "OpenSBI ", "x", "\u{e9}", "\u{a0}",
                "(release):v2.8-226", "BL31x",
            ]), 0..8),
        ) {
            let t = parts.concat();
            proptest::prop_assert_eq!(line_full(&t), line_full_ref(&t), "{:?}", t);
        }
    }

    #[test]
    fn bl31() {
        assert_eq!(
            line("NOTICE:  BL31: v2.8(release):v2.8-226-g2fcd408bb3-dirty"),
            Some(TfaLine::Version(
                "BL31",
                "v2.8(release):v2.8-226-g2fcd408bb3-dirty"
            ))
        );
        assert_eq!(
            line("NOTICE:  BL31: Built : 00:42:57, Jan 13 2023"),
            Some(TfaLine::Other)
        );
        assert_eq!(line("U-Boot"), None);
        assert_eq!(opensbi("OpenSBI v1.2"), Some("v1.2"));
    }
}
