//! Trusted Firmware-A (and OpenSBI, its RISC-V counterpart) grammar.

use crate::declaration::Gate;

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

/// What an OpenSBI banner starts with, with a log level or bare.
const OPENSBI: &str = "OpenSBI ";

/// The lines [`opensbi`] may take (see [`crate::gate`]).
pub const OPENSBI_GATE: Gate = Gate {
    prefixes: &[OPENSBI],
    other: None,
    words: 0,
};

/// Classifies a line (leading blanks removed): a log level of [`GATE`], then a BL stage's
/// version, an OpenSBI banner, or another message.
#[inline]
pub fn line(t: &str) -> Option<TfaLine<'_>> {
    let rest = GATE
        .prefixes
        .iter()
        .find_map(|p| t.strip_prefix(p))
        .map(crate::ascii::trim_start_ws)?;
    if let Some(r) = rest.strip_prefix(OPENSBI) {
        return Some(TfaLine::OpenSbi(crate::ascii::trim_ws(r)));
    }
    let (bl, r) = rest.split_once(':')?;
    Some(stage_line(bl, r))
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

/// `OpenSBI v1.2` as printed bare (without a log level): the version.
pub fn opensbi(t: &str) -> Option<&str> {
    t.strip_prefix(OPENSBI)
        .and_then(|r| r.split_whitespace().next())
        .filter(|v| v.starts_with('v'))
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// BL31's banner as TF-A's `bl31_main()` prints it at NOTICE level (its version string,
    /// then its build message), the level's prefix padded to two blanks (one in some ports'
    /// logs); a version at INFO level is read the same.
    #[test]
    fn bl31_banner_at_notice_and_info_level() {
        for (l, v) in [
            (
                "NOTICE:  BL31: v2.12.0(release):v2.12.0",
                "v2.12.0(release):v2.12.0",
            ),
            (
                "NOTICE:  BL31: v2.10.0(release):v2.10.0-367-g00f1ec6b87-dirty",
                "v2.10.0(release):v2.10.0-367-g00f1ec6b87-dirty",
            ),
            (
                "NOTICE: BL31: v2.9(release):v2.9.0-614-gd7a7135d32-dirty",
                "v2.9(release):v2.9.0-614-gd7a7135d32-dirty",
            ),
            (
                "INFO:    BL31: v2.12.0(debug):v2.12.0",
                "v2.12.0(debug):v2.12.0",
            ),
        ] {
            assert_eq!(line(l), Some(TfaLine::Version("BL31", v)), "{l}");
        }
        for l in [
            "NOTICE:  BL31: Built : 10:11:12, Jan 20 2025",
            "INFO:    BL31: Initializing runtime services",
            "INFO:    BL31: Preparing for EL3 exit to normal world",
        ] {
            assert_eq!(line(l), Some(TfaLine::Other), "{l}");
        }
    }
}
