//! Which grammars can match a line, from its first byte and its [`crate::needles`] hints.
//!
//! The timeline tries the grammars in a fixed order and the first match wins. Most lines match
//! none, and trying all of them costs more than the rest of a line's handling. Each grammar
//! starts with fixed prefixes (or needs an anywhere-word), so a table of the first bytes each
//! one can accept rules most of them out at once. The sets are supersets taken from each
//! grammar's code; a test checks that a line outside a grammar's set never matches it.
//! [`may_match`] looks at the first two bytes, for the lines that no grammar takes at all.

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

/// The first two bytes of every line a grammar (or [`crate::timeline`]'s user-space opening,
/// `in`/`IN`/`St`/`We`) may take when the hints announce none of their words, taken from each
/// grammar's own two-byte (or longer) check: U-Boot, SBL (but its `S` lines), OP-TEE, SYSFW,
/// TF-A, OpenSBI, Raspberry Pi, Linux, systemd (but its number lines), user space.
const PAIRS: [&[u8; 2]; 49] = [
    b"St", b"U-", b"Tr", b"Ti", b"SP", b"Ma", b"Ac", b"##", //
    b"KP", b"[B", b"[K", b"fx", b"**", b"MC", b"cy", b"De", b"Im", //
    b"I/", b"D/", b"E/", b"F/", b"W/", //
    b"SY", b"TI", b"DM", //
    b"NO", b"IN", b"WA", b"ER", b"VE", //
    b"Op", //
    b"RP", b"Fi", b"Lo", //
    b"Bo", b"Un", b"Li", b"Ke", b"Fr", b"Ru", b"ca", b"in", //
    b"[ ", b"[F", b"We", b"sy", //
    b"St", b"in", b"IN",
];

/// The first bytes after which a grammar may take a line whatever its second byte (or a line of
/// one byte): SBL's `S` lines (`SBL Revision:`, `Starting linux`, `2nd stage bootloader`
/// anywhere) and systemd's blame rows (a number first).
const ANY_SECOND: &[u8] = b"S0123456789";

/// The class of every byte as a second byte: its bit in [`first_rows`]' masks (bit 0 for the
/// bytes no pair of [`PAIRS`] has second).
const fn second_bits() -> [u64; 256] {
    let mut t = [1u64; 256];
    let mut next = 1;
    let mut i = 0;
    while i < PAIRS.len() {
        let b = PAIRS[i][1] as usize;
        if t[b] == 1 {
            assert!(next < 64, "more second bytes than bits");
            t[b] = 1 << next;
            next += 1;
        }
        i += 1;
    }
    t
}

/// For every first byte, the [`second_bits`] classes of the second bytes that may follow it in a
/// line some grammar takes (every class for an [`ANY_SECOND`] byte).
const fn first_rows() -> [u64; 256] {
    let bits = second_bits();
    let mut t = [0u64; 256];
    let mut i = 0;
    while i < PAIRS.len() {
        let p = PAIRS[i];
        t[p[0] as usize] |= bits[p[1] as usize];
        i += 1;
    }
    let mut j = 0;
    while j < ANY_SECOND.len() {
        t[ANY_SECOND[j] as usize] = u64::MAX;
        j += 1;
    }
    t
}

/// [`first_rows`] then [`second_bits`], as [`may_match`] looks them up: one static, so that
/// one address (not two, each read from the GOT) reaches both.
static PAIR_TABLES: [[u64; 256]; 2] = [first_rows(), second_bits()];

/// Whether some grammar may take a non-empty text starting with `first` then `second` and
/// holding the words in `hints`: [`grammars`] tells which, once this says yes. Exact on the two
/// bytes where [`grammars`] only looks at the first, so many lines that no grammar takes (a
/// third of those the first byte lets in, on the bench log) are told so by two loads, and skip
/// the grammars' chain and the frame it needs. For a text of one byte, `second` may be any
/// byte: no grammar takes such a text but after an [`ANY_SECOND`] byte, which passes whatever
/// follows (`one_byte_texts_need_any_second` checks it).
#[inline(always)]
pub fn may_match(first: u8, second: u8, hints: u8) -> bool {
    hints & needles::ALL != 0
        || PAIR_TABLES[0][usize::from(first)] & PAIR_TABLES[1][usize::from(second)] != 0
}

/// Whether some grammar may take a text that starts with a digit, ends in `last` and holds the
/// words in `hints`: [`may_match`] lets every such text in (systemd's blame rows, `1.234s
/// a.service`, start with any digit then any byte), but without a hint only a blame row can
/// match, and every unit suffix ends in one of `ehprt`, perhaps followed by blanks (ASCII or,
/// after a byte of 0x80 or more, not), as systemd's own last-byte test has it.
#[inline(always)]
pub fn number_may_match(last: u8, hints: u8) -> bool {
    hints & needles::ALL != 0
        || last >= 0x80
        || matches!(
            last,
            b'e' | b'h' | b'p' | b'r' | b't' | b' ' | b'\t'..=b'\r'
        )
}

/// The grammars that may take a text `b` with no hint, by the fixed words each one's own code
/// starts with (the first 16 bytes at most, a superset where a word is longer), narrower than
/// [`grammars`]' first byte: most texts the first byte (and [`may_match`]'s pair) lets in,
/// `Starting foo.service`, `Boot HART ...`, `SYSFW revision`, `*** Warning`, are told here to
/// be no grammar's before its chain is tried. Words: U-Boot's banner, `Trying to boot`, timer
/// summary, `SPL: failed`, `Mark`, `Accumulated`, `### ERROR` and hand-off `Starting`s; SBL's
/// `KPI_DATA:`, profile tags, `fxn:`/`**`, `MCU @ `, `cycles per usec`, `Detected overflow`,
/// `Image loading`, `SBL Revision:`, `Starting linux` (and `2nd stage bootloader` anywhere in
/// an `S` text); OP-TEE's `X/TC:`/`X/TA:`; SYSFW's `SYSFW ABI`/`Version`, `TIFS ver`,
/// `DMSC ABI`; TF-A's levels; `OpenSBI `; the Raspberry Pi's four prefixes; the Linux
/// messages of `linux::line`; systemd's `[  OK  ]`, `[FAILED]`, `Startup `, `Welcome `,
/// `systemd[` and blame rows (a number line ending as [`number_may_match`] lets in). User
/// space's opening is none of these: the timeline tests it after the grammars, as before.
#[inline(always)]
pub fn word_grammars(t: &str) -> u16 {
    let b = t.as_bytes();
    let p = |w: &[u8]| b.starts_with(w);
    // OP-TEE's levels, then `/TC:` or `/TA:` (`I`, `D`, `E`, `F`, `W` texts).
    let optee = || matches!(b.get(1..5), Some(b"/TC:" | b"/TA:"));
    // The first byte picks the arm (a jump table); its words are then compared as prefixes.
    let Some(&first) = b.first() else {
        return 0;
    };
    match first {
        b'S' => {
            // `Starting ` then a byte that begins `kernel`, `ATF` (U-Boot), `linux` (SBL) or
            // (after any blanks) `start*.elf` (Raspberry Pi), or nothing.
            let g = if p(b"Starting ") {
                match b.get(9) {
                    Some(&c) if c.is_ascii_graphic() && !matches!(c, b'k' | b'A' | b'l' | b's') => {
                        0
                    }
                    _ => UBOOT | SBL | RPI,
                }
            } else if p(b"Startup ") {
                SYSTEMD
            } else if p(b"SPL: fai") {
                UBOOT
            } else if p(b"SBL Revi") {
                SBL
            } else if p(b"SYSFW AB") || p(b"SYSFW Ve") {
                SYSFW
            } else {
                0
            };
            // SBL takes an `S` text holding `2nd stage bootloader` anywhere, first in the
            // chain after U-Boot: let it try whenever another word let the text in, else scan.
            if g != 0 {
                g | SBL
            } else if crate::sbl::has_2nd_stage_inline(t) {
                SBL
            } else {
                0
            }
        }
        b'0'..=b'9' if number_may_match(b[b.len() - 1], 0) => SYSTEMD,
        b'[' => {
            if p(b"[  OK  ]") || p(b"[FAILED]") {
                SYSTEMD
            } else if p(b"[BOOTLOA") || p(b"[KPI]") {
                SBL
            } else {
                0
            }
        }
        b'U' => {
            if p(b"U-Boot ") {
                UBOOT
            } else if p(b"Uncompressing Li") {
                LINUX
            } else {
                0
            }
        }
        b'T' => {
            if p(b"Trying to boot f") || p(b"Timer summary in") {
                UBOOT
            } else if p(b"TIFS ver:") {
                SYSFW
            } else {
                0
            }
        }
        b'M' => {
            if p(b"Mark") {
                UBOOT
            } else if p(b"MCU @ ") {
                SBL
            } else if p(b"Machine model: ") {
                LINUX
            } else {
                0
            }
        }
        b'A' if p(b"Accumulated time") => UBOOT,
        b'#' if p(b"### ERROR ###") => UBOOT,
        b'K' => {
            if p(b"KPI_DATA:") {
                SBL
            } else if p(b"Kernel command l") || p(b"Kernel panic - n") {
                LINUX
            } else {
                0
            }
        }
        b'f' if p(b"fxn:") => SBL,
        // `**`, blanks, `fxn:`.
        b'*' if matches!(b.get(1..3), Some([b'*', b' ' | b'\t' | b'f'])) => SBL,
        b'c' => {
            if p(b"cycles per usec") {
                SBL
            } else if p(b"calling ") {
                LINUX
            } else {
                0
            }
        }
        b'D' => {
            if optee() {
                OPTEE
            } else if p(b"Detected overflow") {
                SBL
            } else if p(b"DMSC ABI revision") {
                SYSFW
            } else {
                0
            }
        }
        b'I' => {
            if optee() {
                OPTEE
            } else if p(b"INFO:") {
                TFA
            } else if p(b"Image loading do") {
                SBL
            } else {
                0
            }
        }
        b'E' => {
            if optee() {
                OPTEE
            } else if p(b"ERROR:") {
                TFA
            } else {
                0
            }
        }
        b'W' => {
            if optee() {
                OPTEE
            } else if p(b"WARNING:") {
                TFA
            } else if p(b"Welcome to ") {
                SYSTEMD
            } else {
                0
            }
        }
        b'F' => {
            if optee() {
                OPTEE
            } else if p(b"Firmware: ") {
                RPI
            } else if p(b"Freeing unused k") {
                LINUX
            } else {
                0
            }
        }
        b'N' if p(b"NOTICE:") => TFA,
        b'V' if p(b"VERBOSE:") => TFA,
        b'O' if p(b"OpenSBI ") => OPENSBI,
        b'R' => {
            if p(b"RPi: BOOTLOADER") {
                RPI
            } else if p(b"Run ") {
                LINUX
            } else {
                0
            }
        }
        b'L' => {
            if p(b"Loaded '") {
                RPI
            } else if p(b"Linux version ") {
                LINUX
            } else {
                0
            }
        }
        b'B' if p(b"Booting Linux") => LINUX,
        b'i' if p(b"initcall ") => LINUX,
        b's' if p(b"systemd[") => SYSTEMD,
        _ => 0,
    }
}

/// [`may_match`] by a search of [`PAIRS`] and [`ANY_SECOND`]: the reference its tables stand
/// in for.
#[cfg(test)]
fn may_match_by_search(first: u8, second: u8, hints: u8) -> bool {
    hints & needles::ALL != 0
        || ANY_SECOND.contains(&first)
        || PAIRS.iter().any(|p| **p == [first, second])
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
    use proptest::strategy::Strategy;

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
    fn pair_tables_are_the_search() {
        for first in 0..=255u8 {
            for second in 0..=255u8 {
                for hints in [
                    0,
                    0x10,
                    0x80,
                    needles::AUTOBOOT,
                    needles::OARD,
                    needles::REACHED,
                    needles::AT,
                ] {
                    assert_eq!(
                        may_match(first, second, hints),
                        may_match_by_search(first, second, hints),
                        "{first:#x} {second:#x} {hints:#x}"
                    );
                }
            }
        }
    }

    /// Whether a text starts as one the timeline's user-space test takes (see
    /// `State::classify`), which the pair gate must let through too.
    fn opens_userspace(t: &str) -> bool {
        [
            "init started: BusyBox",
            "INIT: version",
            "Starting ",
            "Welcome to ",
        ]
        .iter()
        .any(|p| t.starts_with(p))
    }

    /// The texts of one byte that a grammar (or user space's opening) takes start with an
    /// [`ANY_SECOND`] byte, so [`may_match`] lets them in whatever byte stands for the second.
    #[test]
    fn one_byte_texts_need_any_second() {
        for c in 0..=127u8 {
            let t = char::from(c).to_string();
            let taken = [UBOOT, SBL, OPTEE, SYSFW, TFA, OPENSBI, RPI, LINUX, SYSTEMD]
                .into_iter()
                .any(|bit| matches(bit, &t))
                || opens_userspace(&t);
            assert!(!taken || ANY_SECOND.contains(&c), "{t:?}");
        }
        for &c in ANY_SECOND {
            assert!((0..=255u8).all(|second| may_match(c, second, 0)));
        }
    }

    #[test]
    fn samples_pass_their_pair_gate() {
        for (_, t) in SAMPLES {
            let b = t.as_bytes();
            assert!(may_match(b[0], b[1], 0), "{t:?}");
        }
        for t in [
            "init started: BusyBox",
            "INIT: version 2.88",
            "Starting foo",
            "Welcome to X",
        ] {
            assert!(opens_userspace(t) && may_match(t.as_bytes()[0], t.as_bytes()[1], 0));
        }
        // Lines no grammar takes, turned away by their second byte (their first lets them in).
        for t in [
            "Some words",
            "Mounting /",
            "DRAM: 2 GiB",
            "In: serial",
            "cpu0: ok",
        ] {
            let b = t.as_bytes();
            assert!(
                grammars(b[0], 0) != 0 && (b[0] == b'S' || !may_match(b[0], b[1], 0)),
                "{t:?}"
            );
        }
        assert!(!may_match(b'M', b'o', 0) && may_match(b'M', b'o', needles::AT));
    }

    #[test]
    fn samples_pass_their_gate() {
        for (bit, t) in SAMPLES {
            assert!(matches(bit, t), "{t:?}");
            assert!(grammars(t.as_bytes()[0], 0) & bit != 0, "{t:?}");
        }
    }

    /// The words the grammars' prefixes are made of, for the proptests.
    const WORDS: &[&str] = &[
        "U-Boot ",
        "SPL ",
        "Trying to boot from ",
        "Timer summary in microseconds (",
        "Starting kernel",
        "KPI_DATA:",
        "[BOOTLOADER_PROFILE]",
        "[KPI]",
        "fxn:",
        "**",
        "SBL Revision:",
        "MCU @ ",
        "cycles per usec",
        "/TC:",
        "SYSFW ABI:",
        "TIFS ver:",
        "DMSC ABI revision",
        "NOTICE:",
        "INFO:",
        "BL31: v2",
        "OpenSBI v1",
        "RPi: BOOTLOADER",
        "Firmware: ",
        "Loaded 'kernel8.img'",
        "Linux version ",
        "Run /init as init process",
        "initcall f returned 0 after 5 usecs",
        "calling  f+0x0/0x1 @ 1",
        "systemd[1]: ",
        "[  OK  ]",
        "Startup finished in 1s (kernel) + 2s (userspace) = 3s",
        "Welcome to ",
        "1.234s a.service",
        " @1.2s",
        " reached after ",
        "autoboot",
        "Board Configuration",
        "2nd stage bootloader",
        "init started: BusyBox",
        "INIT: version",
        " ",
        "x",
        "0",
        ":",
        "=",
        "us",
        "\t",
        "Mark Elapsed Stage",
        "Accumulated time:",
        "### ERROR ###",
        "SPL: failed to boot",
        "Starting ATF",
        "Starting linux",
        "Starting start4.elf",
        "Uncompressing Linux",
        "Booting Linux",
        "Kernel command line: x",
        "Kernel panic - not syncing",
        "Machine model: x",
        "Freeing unused kernel",
        "Detected overflow",
        "Image loading done",
        "[FAILED]",
        "[BOOTLOADER PROFILE]",
        "KPI_DATA: ",
        "W/TA:",
        // Lines the first byte lets in that no grammar takes, and near misses of the words.
        "Starting foo.service...",
        "Starting ",
        "Starting  start4.elf",
        "Starting\tlinux",
        "Startup ",
        "Stopping x",
        "SYSFW revision",
        "SYSFW Version 9.0",
        "SPL initial stack",
        "STM32MP> boot",
        "Boot HART ISA",
        "Booting using the fdt",
        "Booting Linux",
        "*** Warning - bad CRC",
        "** fxn:",
        "**\tfxn:",
        "root@OK527:/# ",
        "systemd-analyze",
        "systemd[1]: ",
        "Loaded environment",
        "Loading Device Tree",
        "Image Name:",
        "Run /sbin/init as init process",
        "Runtime SBI",
        "MMC:   mmc@0",
        "WARNING: Cache",
        "WARNING -- x",
        "In:    serial",
        "Kernel relocated",
        "Model: x",
        "[  5]   0.00-1.00 sec",
        "[ ID] Interval",
        "2nd stage bootloader",
        "Welcome to x",
        "calling  f+0x0/0x1 @ 1",
        "initcall",
        "I/TC: x",
        "D/TA:",
        "E/TC:",
        "F/TC:",
        "Firmware: x",
        "Freeing unused kernel memory",
        "Uncompressing Linux... done",
        "Linux version 6.1",
        "Kernel command line: x",
        "Machine model: x",
        "MCU @ 1000Hz",
        "TIFS ver: 9",
        "DMSC ABI revision 3.1",
        "Trying to boot from MMC1",
        "Timer summary in microseconds (2 records):",
        "Accumulated time:",
        "### ERROR ### Please RESET the board ###",
        "U-Boot 2024.01 (x)",
        "SPL: failed to boot from all boot devices",
        "Detected overflow, x",
        "Image loading done, switching to application",
        "cycles per usec  = 1000",
        "[FAILED] Failed to start x.",
        "RPi: BOOTLOADER release VERSION:1 DATE: 2",
        "OpenSBI v1.2",
        "Loaded 'kernel8.img' to 0x80000",
        "VERBOSE: x",
        "ERROR:   x",
        "INFO:    BL31: v2.8",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]
        /// A text whose first two bytes the pair gate turns away (no hint set) matches no
        /// grammar and opens no user space, whatever follows: the text is the grammars' words
        /// (the first one perhaps cut short), after none, one or two bytes picked among the
        /// prefixes' own first bytes or any char.
        #[test]
        fn no_grammar_matches_outside_the_pairs(
            lead in proptest::collection::vec(proptest::prop_oneof![
                proptest::sample::select(b"UTSMA#K[f*cDIEFWNVORLBis0123456789xm-rPyeYpu /".to_vec())
                    .prop_map(char::from),
                proptest::prelude::any::<char>(),
            ], 0..3),
            head in proptest::sample::select(WORDS.to_vec()),
            cut in 0usize..4,
            rest in proptest::collection::vec(proptest::sample::select(WORDS.to_vec()), 0..5),
        ) {
            let head = head.get(cut.min(head.len())..).unwrap_or("");
            let lead: String = lead.into_iter().collect();
            let t = format!("{lead}{head}{}", rest.concat());
            let b = t.as_bytes();
            if let Some(&first) = b.first() {
                // As the timeline asks: a text of one byte passes its first byte as second.
                if !may_match(first, b[usize::from(b.len() > 1)], 0) {
                    for bit in [UBOOT, SBL, OPTEE, SYSFW, TFA, OPENSBI, RPI, LINUX, SYSTEMD] {
                        proptest::prop_assert!(!matches(bit, &t), "{:?} matched grammar {:#x}", t, bit);
                    }
                    proptest::prop_assert!(!opens_userspace(&t), "{:?}", t);
                }
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]
        /// A text that starts with a digit and ends in a byte [`number_may_match`] turns away
        /// (no hint set) matches no grammar: the text is shaped as a blame row (a digit, a span,
        /// blanks, a unit name, a unit suffix whole or but its last byte, or the grammars'
        /// words in their place), then a last char picked among the suffixes' last bytes,
        /// others and any char, perhaps blanks after.
        #[test]
        fn no_grammar_matches_a_number_line_outside_its_ends(
            digit in proptest::sample::select(b"0123456789".to_vec()),
            span in proptest::sample::select(vec!["", ".234s", "s", "ms", "min", "3.4ms", "1", "."]),
            sep in proptest::sample::select(vec!["", " ", "  ", "\t"]),
            unit in proptest::sample::select([WORDS, &["a", "foo-bar", "x y"]].concat()),
            suffix in proptest::sample::select(vec![
                "", ".service", ".servic", ".target", ".targe", ".mount", ".moun", ".device",
                ".devic", ".socket", ".socke", ".timer", ".time", ".path", ".pat", ".slice",
                ".slic", ".scope", ".scop", ".swap", ".swa", ".automount", ".automoun",
            ]),
            last in proptest::prop_oneof![
                proptest::sample::select(b"ehprtsxmdyk0 \t.:".to_vec()).prop_map(char::from),
                proptest::prelude::any::<char>(),
            ],
            end in proptest::option::of(proptest::sample::select(vec![" ", "\t", "  ", "\u{a0}"])),
        ) {
            let t = format!(
                "{}{span}{sep}{unit}{suffix}{last}{}",
                char::from(digit),
                end.unwrap_or("")
            );
            if !number_may_match(*t.as_bytes().last().unwrap(), 0) {
                for bit in [UBOOT, SBL, OPTEE, SYSFW, TFA, OPENSBI, RPI, LINUX, SYSTEMD] {
                    proptest::prop_assert!(!matches(bit, &t), "{:?} matched grammar {:#x}", t, bit);
                }
                proptest::prop_assert!(!opens_userspace(&t), "{:?}", t);
            }
        }
    }

    #[test]
    fn samples_pass_their_word_gate() {
        for (bit, t) in SAMPLES {
            assert!(word_grammars(t) & bit != 0, "{t:?}");
        }
        // Lines the first byte (and the pair) lets in that no grammar takes, turned away by
        // their words.
        for t in [
            "Starting foo.service...",
            "Boot HART ISA Extensions  : none",
            "SYSFW revision 0x9",
            "*** Warning - bad CRC, using default environment",
            "Booting using the fdt blob at 0x1",
            "[  5]   0.00-1.00 sec",
            "systemd-analyze blame",
            "1.234 x",
        ] {
            let b = t.as_bytes();
            assert!(may_match(b[0], b[1], 0), "{t:?}");
            assert_eq!(word_grammars(t), 0, "{t:?}");
        }
        // `2nd stage bootloader` anywhere in an `S` text lets SBL in.
        assert_eq!(word_grammars("Some 2nd stage bootloader"), SBL);
        assert_eq!(word_grammars("Starting x and 2nd stage bootloader"), SBL);
        assert_eq!(word_grammars(""), 0);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]
        /// A text without a hint never matches a grammar [`word_grammars`] leaves out: the
        /// text is the grammars' words and the lines' words (the first one perhaps cut
        /// short), after none, one or two bytes picked among the words' first bytes or any
        /// char. (Whether the grammars, fed such texts, match at all is `samples_*`' part.)
        #[test]
        fn no_grammar_matches_outside_its_words(
            lead in proptest::collection::vec(proptest::prop_oneof![
                proptest::sample::select(b"UTSMA#K[f*cDIEFWNVORLBis0123456789xm-rPyeYpu /".to_vec())
                    .prop_map(char::from),
                proptest::prelude::any::<char>(),
            ], 0..3),
            head in proptest::sample::select(WORDS.to_vec()),
            cut in 0usize..4,
            rest in proptest::collection::vec(proptest::sample::select(WORDS.to_vec()), 0..5),
        ) {
            let head = head.get(cut.min(head.len())..).unwrap_or("");
            let lead: String = lead.into_iter().collect();
            let t = format!("{lead}{head}{}", rest.concat());
            let g = word_grammars(&t);
            for bit in [UBOOT, SBL, OPTEE, SYSFW, TFA, OPENSBI, RPI, LINUX, SYSTEMD] {
                if g & bit == 0 {
                    proptest::prop_assert!(!matches(bit, &t), "{:?} matched grammar {:#x}", t, bit);
                }
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// A line whose first byte is outside a grammar's set never matches that grammar,
        /// whatever follows: the rest is built from the grammars' own prefixes and words.
        #[test]
        fn no_grammar_matches_outside_its_set(
            first in proptest::prelude::any::<char>(),
            rest in proptest::collection::vec(proptest::sample::select(WORDS.to_vec()), 0..6),
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
