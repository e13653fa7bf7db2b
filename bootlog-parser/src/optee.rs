//! OP-TEE OS grammar (`I/TC:` lines, also those other cores print during later stages).

use crate::declaration::{lead, Gate};

/// An OP-TEE line.
#[derive(Debug, Clone, PartialEq)]
pub enum OpteeLine<'a> {
    /// `I/TC: OP-TEE version: 3.19.0-rc1 (gcc ...)`: the version token.
    Version(&'a str),
    /// `I/TC: Primary CPU switching to normal world boot`: OP-TEE is done.
    NormalWorld,
    /// `I/TC: Secondary CPU 1 initializing` and friends: another core, not a stage change.
    Secondary,
    /// Any other OP-TEE line; the text after the prefix.
    Other(&'a str),
}

/// The lines [`line`] takes (see [`crate::gate`]): a level, then `/TC:` or `/TA:`.
pub const GATE: Gate = Gate {
    prefixes: &[
        "I/TC:", "D/TC:", "E/TC:", "F/TC:", "W/TC:", "I/TA:", "D/TA:", "E/TA:", "F/TA:", "W/TA:",
    ],
    other: None,
    words: 0,
};

/// The first five bytes of [`GATE`]'s prefixes (all of each), for [`line`]'s test.
static LEADS: [u64; GATE.prefixes.len()] = GATE.leads(5);

/// Classifies a line (leading blanks removed).
#[inline]
pub fn line(t: &str) -> Option<OpteeLine<'_>> {
    if !lead(t.as_bytes(), 5).is_some_and(|w| LEADS.contains(&w)) {
        return None;
    }
    // After the five ASCII bytes of a prefix: a char boundary.
    let r = crate::ascii::trim_start_ws(&t[5..]);
    if let Some(v) = r.strip_prefix("OP-TEE version:") {
        return Some(OpteeLine::Version(
            v.split_whitespace().next().unwrap_or(""),
        ));
    }
    if r.starts_with("Primary CPU switching to normal world") {
        return Some(OpteeLine::NormalWorld);
    }
    if r.starts_with("Secondary CPU") {
        return Some(OpteeLine::Secondary);
    }
    Some(OpteeLine::Other(r))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn optee_lines() {
        assert_eq!(
            line("I/TC: OP-TEE version: 3.19.0-rc1 (gcc version 10.2.1) #1"),
            Some(OpteeLine::Version("3.19.0-rc1"))
        );
        assert_eq!(
            line("I/TC: Secondary CPU 1 initializing"),
            Some(OpteeLine::Secondary)
        );
        assert_eq!(line("I/TC:"), Some(OpteeLine::Other("")));
        assert_eq!(line("I/O error"), None);
        assert_eq!(line("W/TA: x"), Some(OpteeLine::Other("x")));
        assert_eq!(line("I/TC"), None);
    }

    /// OP-TEE 4.x's banner at info level (`IMSG("OP-TEE version: %s", core_v_str)`, its
    /// `I/TC: ` prefix), the empty info line before it, and the primary CPU's hand-over.
    #[test]
    fn optee_4_banner() {
        assert_eq!(
            line("I/TC: OP-TEE version: 4.4.0 (gcc version 13.3.0 (GCC)) #1 Mon Jan 20 10:11:12 UTC 2025 aarch64"),
            Some(OpteeLine::Version("4.4.0"))
        );
        assert_eq!(
            line("I/TC: OP-TEE version: 4.0.0-dev (gcc version 11.4.0 (Ubuntu 11.4.0-1ubuntu1~22.04)) #1 aarch64"),
            Some(OpteeLine::Version("4.0.0-dev"))
        );
        assert_eq!(line("I/TC: "), Some(OpteeLine::Other("")));
        assert_eq!(
            line("I/TC: Primary CPU switching to normal world boot"),
            Some(OpteeLine::NormalWorld)
        );
    }
}
