//! Which grammars can match a line, from its first byte and its [`crate::needles`] hints.
//!
//! The timeline tries the grammars in a fixed order and the first match wins. Most lines match
//! none, and trying all of them costs more than the rest of a line's handling. Each grammar
//! starts with fixed prefixes (or needs an anywhere-word), so a table of the first bytes each
//! one can accept rules most of them out at once. The sets are supersets taken from each
//! grammar's code; a test checks that a line outside a grammar's set never matches it.

use crate::needles;

/// U-Boot ([`crate::uboot::line`]).
pub const UBOOT: u16 = 1 << 0;
/// TI SBL ([`crate::sbl::line`]).
pub const SBL: u16 = 1 << 1;
/// OP-TEE ([`crate::optee::line`]).
pub const OPTEE: u16 = 1 << 2;
/// SYSFW / TIFS ([`crate::sysfw::line`]).
pub const SYSFW: u16 = 1 << 3;
/// TF-A log levels ([`crate::tfa::line`]).
pub const TFA: u16 = 1 << 4;
/// A bare `OpenSBI v...` ([`crate::tfa::opensbi`]).
pub const OPENSBI: u16 = 1 << 5;
/// Raspberry Pi firmware ([`crate::rpi::line`]).
pub const RPI: u16 = 1 << 6;
/// Linux messages without a printk stamp ([`crate::linux::line`]).
pub const LINUX: u16 = 1 << 7;
/// systemd ([`crate::systemd::line`]).
pub const SYSTEMD: u16 = 1 << 8;

const fn table() -> [u16; 256] {
    let mut t = [0u16; 256];
    let sets: [(u16, &[u8]); 9] = [
        (UBOOT, b"UTSMA#"),
        (SBL, b"K[f*SMcDI"),
        (OPTEE, b"IDEFW"),
        (SYSFW, b"STD"),
        (TFA, b"NIWEV"),
        (OPENSBI, b"O"),
        (RPI, b"RFSL"),
        (LINUX, b"BULKMFRci"),
        (SYSTEMD, b"s[SW0123456789"),
    ];
    let mut i = 0;
    while i < sets.len() {
        let (bit, bytes) = sets[i];
        let mut j = 0;
        while j < bytes.len() {
            t[bytes[j] as usize] |= bit;
            j += 1;
        }
        i += 1;
    }
    t
}

static TABLE: [u16; 256] = table();

/// The grammars the words in `hints` let in whatever the first byte, for every `u8`: the
/// three bit tests of `grammars_by_tests` (in the tests) as one load (a test checks they agree).
const fn hint_table() -> [u16; 256] {
    let mut t = [0u16; 256];
    let mut h = 0;
    while h < 256 {
        t[h] = hint_grammars(h as u8);
        h += 1;
    }
    t
}

/// The grammars the words in `hints` let in: `autoboot` U-Boot's prompt, `oard` SYSFW's
/// board-configuration lines, ` reached after ` and `@` systemd's analyze rows.
const fn hint_grammars(hints: u8) -> u16 {
    let mut g = 0;
    if hints & needles::AUTOBOOT != 0 {
        g |= UBOOT;
    }
    if hints & needles::OARD != 0 {
        g |= SYSFW;
    }
    if hints & (needles::REACHED | needles::AT) != 0 {
        g |= SYSTEMD;
    }
    g
}

static HINT_TABLE: [u16; 256] = hint_table();

/// The grammars a line starting with `first` and holding the words in `hints` may match.
/// Two table loads: every line that is not printk output asks.
#[inline]
pub fn grammars(first: u8, hints: u8) -> u16 {
    TABLE[usize::from(first)] | HINT_TABLE[usize::from(hints)]
}

/// [`grammars`] with the hint bits tested one by one ([`hint_grammars`] called, not looked
/// up): the reference the hint table stands in for.
#[cfg(test)]
fn grammars_by_tests(first: u8, hints: u8) -> u16 {
    TABLE[usize::from(first)] | hint_grammars(hints)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{linux, optee, rpi, sbl, sysfw, systemd, tfa, uboot};

    /// Each grammar with the hints it gets in the timeline: none, so only its first-byte set
    /// can let a line through.
    fn matches(bit: u16, t: &str) -> bool {
        match bit {
            UBOOT => uboot::line_hinted(t, 0).is_some(),
            SBL => sbl::line(t).is_some(),
            OPTEE => optee::line(t).is_some(),
            SYSFW => sysfw::line_hinted(t, 0).is_some(),
            TFA => tfa::line(t).is_some(),
            OPENSBI => tfa::opensbi(t).is_some(),
            RPI => rpi::line(t).is_some(),
            LINUX => linux::line(t).is_some(),
            SYSTEMD => systemd::line_hinted(t, 0).is_some(),
            _ => unreachable!(),
        }
    }

    /// Lines every grammar matches, to show the sets are not empty by mistake.
    const SAMPLES: [(u16, &str); 9] = [
        (UBOOT, "U-Boot SPL 2023.04 (Jan 1 2023 - 00:00:00 +0000)"),
        (SBL, "[BOOTLOADER_PROFILE] SBL Total Time Taken : 61628us"),
        (OPTEE, "I/TC: OP-TEE version: 3.19.0"),
        (
            SYSFW,
            "SYSFW ABI: 3.1 (firmware rev 0x0015 '21.9.1--v2021.09a (Terrific Lla')",
        ),
        (TFA, "NOTICE:  BL31: v2.8(release)"),
        (OPENSBI, "OpenSBI v1.2"),
        (RPI, "Firmware: 2021-11-22"),
        (LINUX, "Booting Linux on physical CPU 0x0"),
        (SYSTEMD, "[  OK  ] Started foo."),
    ];

    #[test]
    fn hint_table_is_the_bit_tests() {
        for first in 0..=255u8 {
            for hints in 0..=255u8 {
                assert_eq!(grammars(first, hints), grammars_by_tests(first, hints));
            }
        }
    }

    #[test]
    fn samples_pass_their_gate() {
        for (bit, t) in SAMPLES {
            assert!(matches(bit, t), "{t:?}");
            assert!(grammars(t.as_bytes()[0], 0) & bit != 0, "{t:?}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// A line whose first byte is outside a grammar's set never matches that grammar,
        /// whatever follows: the rest is built from the grammars' own prefixes and words.
        #[test]
        fn no_grammar_matches_outside_its_set(
            first in proptest::prelude::any::<char>(),
            rest in proptest::collection::vec(proptest::sample::select(vec![
                "U-Boot ", "SPL ", "Trying to boot from ", "Timer summary in microseconds (",
                "Starting kernel", "KPI_DATA:", "[BOOTLOADER_PROFILE]", "[KPI]", "fxn:", "**",
                "SBL Revision:", "MCU @ ", "cycles per usec", "/TC:", "SYSFW ABI:", "TIFS ver:",
                "DMSC ABI revision", "NOTICE:", "INFO:", "BL31: v2", "OpenSBI v1", "RPi: BOOTLOADER",
                "Firmware: ", "Loaded 'kernel8.img'", "Linux version ", "Run /init as init process",
                "initcall f returned 0 after 5 usecs", "calling  f+0x0/0x1 @ 1", "systemd[1]: ",
                "[  OK  ]", "Startup finished in 1s (kernel) + 2s (userspace) = 3s", "Welcome to ",
                "1.234s a.service", " @1.2s", " reached after ", "autoboot", "Board Configuration",
                " ", "x", "0", ":", "=", "us", "\t",
            ]), 0..6),
        ) {
            let t = format!("{first}{}", rest.concat());
            let g = grammars(t.as_bytes()[0], 0);
            for bit in [UBOOT, SBL, OPTEE, SYSFW, TFA, OPENSBI, RPI, LINUX, SYSTEMD] {
                if g & bit == 0 {
                    proptest::prop_assert!(!matches(bit, &t), "{:?} matched grammar {:#x}", t, bit);
                }
            }
        }
    }
}
