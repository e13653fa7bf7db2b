//! What a boot loop watches for on a live console, as patterns: the line that says the board
//! is ready, the kernel's panic line, and the banners that open a boot stage once per boot (a
//! banner seen more often means the board reset). [`match_text`] gives the text these
//! patterns are matched against: a console line cleaned as the parser cleans it.

use crate::model::StageId;
use std::borrow::Cow;

/// The ready pattern used when a profile gives none: a login prompt.
pub const DEFAULT_READY: &str = r"(?i)\blogin:\s*$";

/// The kernel's panic line.
pub const PANIC_PATTERN: &str = r"Kernel panic - not syncing";

/// Lines that open a boot stage and appear once per stage in a normal boot: `(pattern, the
/// stages whose start prints it)`. R5 SPL and A-core SPL print the same banner.
pub const BANNERS: &[(&str, &[StageId])] = &[
    (r"^RPi: BOOTLOADER release", &[StageId::Rom]),
    (r"^SBL Revision:", &[StageId::Sbl]),
    (
        r"^U-Boot SPL \d{4}\.\d{2}",
        &[StageId::R5Spl, StageId::ASpl],
    ),
    (r"^U-Boot \d{4}\.\d{2}", &[StageId::Uboot]),
    (r"Booting Linux on physical CPU 0x0*0\b", &[StageId::Kernel]),
];

/// A banner of one board: its pattern and how often one boot may print it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Banner {
    /// A regex matched against [`match_text`].
    pub pattern: String,
    /// Occurrences allowed in one boot.
    pub allowed: usize,
}

/// The ready pattern of a profile whose `ready` is `ready`: it, or [`DEFAULT_READY`].
pub fn ready_pattern(ready: Option<&str>) -> &str {
    ready.unwrap_or(DEFAULT_READY)
}

/// The banners of a board with `stages` (in boot order) and `markers` (`(stage, pattern)`,
/// a profile's own stage openers): the [`BANNERS`] of the stages it has (allowed once per
/// such stage), then the markers of its first stage after power (allowed once).
pub fn banners<'a>(
    stages: &[StageId],
    markers: impl IntoIterator<Item = (StageId, &'a str)>,
) -> Vec<Banner> {
    let mut out: Vec<Banner> = BANNERS
        .iter()
        .filter_map(|(pattern, opened)| {
            let allowed = opened.iter().filter(|s| stages.contains(s)).count();
            (allowed > 0).then(|| Banner {
                pattern: pattern.to_string(),
                allowed,
            })
        })
        .collect();
    if let Some(first) = stages.iter().find(|s| **s != StageId::Power) {
        out.extend(
            markers
                .into_iter()
                .filter(|(stage, _)| stage == first)
                .map(|(_, pattern)| Banner {
                    pattern: pattern.to_string(),
                    allowed: 1,
                }),
        );
    }
    out
}

/// Console bytes of one line as the text patterns are matched against: cleaned as the parser
/// cleans a line ([`crate::lines::clean`]: escape sequences and control bytes other than tab
/// removed, backspaces applied, bytes that are not UTF-8 as `\xNN`), leading blanks trimmed.
pub fn match_text(bytes: &[u8]) -> Cow<'_, str> {
    match crate::lines::clean(bytes) {
        Cow::Borrowed(s) => Cow::Borrowed(s.trim_start()),
        Cow::Owned(s) => match s.trim_start() {
            t if t.len() == s.len() => Cow::Owned(s),
            t => Cow::Owned(t.to_string()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn match_text_is_the_cleaned_line() {
        assert_eq!(
            match_text(b"\x1b[0;32m  OK  \x1b[0m] Started"),
            "OK  ] Started"
        );
        assert_eq!(match_text(b"  boot: 2\x08 1"), "boot:  1");
        assert_eq!(match_text(b"\xffqemu login: "), "\\xffqemu login: ");
        assert_eq!(match_text(b"\t plain"), "plain");
    }

    #[test]
    fn patterns_compile() {
        for p in [DEFAULT_READY, PANIC_PATTERN]
            .into_iter()
            .chain(BANNERS.iter().map(|(p, _)| *p))
        {
            regex::Regex::new(p).unwrap();
        }
    }

    #[test]
    fn banners_follow_the_stages() {
        use StageId::*;
        let allowed = |stages: &[StageId], line: &str| {
            banners(stages, [(Rom, "^BL1 v")])
                .into_iter()
                .find(|b| regex::Regex::new(&b.pattern).unwrap().is_match(line))
                .map(|b| b.allowed)
        };
        let qemu = [Rom, Uboot, Kernel, Userspace];
        assert_eq!(
            allowed(&qemu, "U-Boot 2024.01+dfsg-1 (Jan 1 2024)"),
            Some(1)
        );
        assert_eq!(allowed(&qemu, "U-Boot SPL 2024.01"), None);
        assert_eq!(allowed(&qemu, "BL1 v1.2"), Some(1));
        let k3 = [Power, Rom, R5Spl, Tfa, ASpl, Uboot, Kernel];
        assert_eq!(allowed(&k3, "U-Boot SPL 2023.04-g1 (Jan 1)"), Some(2));
        assert!(regex::Regex::new(ready_pattern(None))
            .unwrap()
            .is_match("j721e-evm login: "));
        assert_eq!(ready_pattern(Some("# $")), "# $");
    }
}
