//! Which grammars can match a line, from its first bytes and its [`crate::needles`] hints.
//!
//! The timeline tries the grammars in a fixed order and the first match wins. Most lines match
//! none, and trying all of them costs more than the rest of a line's handling. Each grammar
//! declares, in its own file, what the lines it takes start with and which anywhere-words let
//! a line in whatever its start (a [`Gate`]: `uboot::GATE`, `sbl::GATE`, ...); [`GRAMMARS`]
//! lists them with their bits, and every table here is built from those declarations at
//! compile time:
//!
//! - [`grammars`]: the grammars a line's first byte and hints let in (the timeline's chain);
//! - [`may_match`]: whether any grammar (or user space's opening) may take a line, from its
//!   first two bytes;
//! - [`word_grammars`]: the grammars whose declared prefixes (first 16 bytes) start a text.
//!
//! A test checks that a line outside a grammar's declaration never matches it.

pub use crate::declaration::{Gate, LineTest};

use crate::{linux, needles, optee, rpi, sbl, sysfw, systemd, tfa, uboot};

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

/// Every grammar's bit and declaration: the one list a new grammar is added to.
pub const GRAMMARS: [(u16, &Gate); 9] = [
    (UBOOT, &uboot::GATE),
    (SBL, &sbl::GATE),
    (OPTEE, &optee::GATE),
    (SYSFW, &sysfw::GATE),
    (TFA, &tfa::GATE),
    (OPENSBI, &tfa::OPENSBI_GATE),
    (RPI, &rpi::GATE),
    (LINUX, &linux::GATE),
    (SYSTEMD, &systemd::GATE),
];

/// The starts of the texts that open user space (the timeline's test, after the grammars):
/// [`may_match`] lets them in too.
pub const USERSPACE_OPENINGS: [&str; 4] = [
    "init started: BusyBox",
    "INIT: version",
    "Starting ",
    "Welcome to ",
];

/// For every first byte, the grammars a declared prefix or `other` first byte lets in.
const fn first_table() -> [u16; 256] {
    let words = words();
    let mut t = OTHER_FIRSTS;
    let mut n = 0;
    while n < WORD_COUNT {
        let w = words.words[n];
        t[(w.value[0] & 0xff) as usize] |= w.bit;
        n += 1;
    }
    t
}

static TABLE: [u16; 256] = first_table();

/// For every first byte, the grammars whose `other` lines start with it.
const OTHER_FIRSTS: [u16; 256] = other_table();

/// [`OTHER_FIRSTS`], built.
const fn other_table() -> [u16; 256] {
    let mut t = [0u16; 256];
    let mut i = 0;
    while i < GRAMMARS.len() {
        let (bit, gate) = GRAMMARS[i];
        if let Some((firsts, _)) = gate.other {
            let mut k = 0;
            while k < firsts.len() {
                t[firsts[k] as usize] |= bit;
                k += 1;
            }
        }
        i += 1;
    }
    t
}

static OTHER: [u16; 256] = OTHER_FIRSTS;

/// The grammars the words in `hints` let in, for every `u8` (see [`hint_grammars`]).
const fn hint_table() -> [u16; 256] {
    let mut t = [0u16; 256];
    let mut h = 0;
    while h < 256 {
        t[h] = hint_grammars(h as u8);
        h += 1;
    }
    t
}

/// The grammars that declared one of the words in `hints`.
const fn hint_grammars(hints: u8) -> u16 {
    let mut g = 0;
    let mut i = 0;
    while i < GRAMMARS.len() {
        let (bit, gate) = GRAMMARS[i];
        if hints & gate.words != 0 {
            g |= bit;
        }
        i += 1;
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

/// The `i`-th list of prefixes the pair tables are built from (`i <= GRAMMARS.len()`): each
/// grammar's, then user space's openings.
const fn pair_prefixes(i: usize) -> &'static [&'static str] {
    if i < GRAMMARS.len() {
        GRAMMARS[i].1.prefixes
    } else {
        &USERSPACE_OPENINGS
    }
}

/// The class of every byte as a second byte: its bit in [`first_rows`]' masks (bit 0 for the
/// bytes that are no prefix's second).
const fn second_bits() -> [u64; 256] {
    let mut t = [1u64; 256];
    let mut next = 1;
    let mut i = 0;
    while i <= GRAMMARS.len() {
        let prefixes = pair_prefixes(i);
        let mut j = 0;
        while j < prefixes.len() {
            let b = prefixes[j].as_bytes()[1] as usize;
            if t[b] == 1 {
                assert!(next < 64, "more second bytes than bits");
                t[b] = 1 << next;
                next += 1;
            }
            j += 1;
        }
        i += 1;
    }
    t
}

/// For every first byte, the [`second_bits`] classes of the second bytes that may follow it in
/// a line some grammar (or user space's opening) takes: every class after an `other` first
/// byte, which the grammar's test decides whatever follows.
const fn first_rows() -> [u64; 256] {
    let bits = second_bits();
    let mut t = [0u64; 256];
    let mut i = 0;
    while i <= GRAMMARS.len() {
        let prefixes = pair_prefixes(i);
        let mut j = 0;
        while j < prefixes.len() {
            let p = prefixes[j].as_bytes();
            t[p[0] as usize] |= bits[p[1] as usize];
            j += 1;
        }
        i += 1;
    }
    let mut b = 0;
    while b < 256 {
        if OTHER_FIRSTS[b] != 0 {
            t[b] = u64::MAX;
        }
        b += 1;
    }
    t
}

/// [`first_rows`] then [`second_bits`], as [`may_match`] looks them up: one static, so that
/// one address (not two, each read from the GOT) reaches both.
static PAIR_TABLES: [[u64; 256]; 2] = [first_rows(), second_bits()];

/// Whether some grammar may take a non-empty text starting with `first` then `second` and
/// holding the words in `hints`: [`grammars`] tells which, once this says yes. Exact on the two
/// bytes where [`grammars`] only looks at the first, so most lines that no grammar takes are
/// told so by two loads, and skip the grammars' chain and the frame it needs. For a text of
/// one byte, `second` may be any byte: no grammar takes such a text but after an `other` first
/// byte, which passes whatever follows (`one_byte_texts_need_other` checks it).
#[inline(always)]
pub fn may_match(first: u8, second: u8, hints: u8) -> bool {
    hints & needles::ALL != 0
        || PAIR_TABLES[0][usize::from(first)] & PAIR_TABLES[1][usize::from(second)] != 0
}

/// Whether some grammar may take a text that starts with a digit, ends in `last` and holds the
/// words in `hints`: [`may_match`] lets every such text in, but without a hint only a systemd
/// blame row can match, and its last byte tells most others (see
/// [`crate::systemd::may_end_blame_row`]).
#[inline(always)]
pub fn number_may_match(last: u8, hints: u8) -> bool {
    hints & needles::ALL != 0 || systemd::may_end_blame_row(last)
}

/// A declared prefix as [`word_grammars`] compares it: its first 16 bytes and their mask,
/// little-endian, as two halves (most prefixes differ from a text in their first 8 bytes),
/// and the grammar's bit.
#[derive(Clone, Copy)]
struct Word {
    value: [u64; 2],
    mask: [u64; 2],
    bit: u16,
}

/// How many prefixes the grammars declare.
const fn word_count() -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < GRAMMARS.len() {
        n += GRAMMARS[i].1.prefixes.len();
        i += 1;
    }
    n
}

const WORD_COUNT: usize = word_count();
const _: () = assert!(WORD_COUNT < 256, "more prefixes than a u8 counts");

/// Every declared prefix as a [`Word`], sorted by first byte, and for every first byte `b`
/// the range `starts[b]..starts[b + 1]` of the words that start with it.
struct Words {
    words: [Word; WORD_COUNT],
    starts: [u8; 257],
}

const fn words() -> Words {
    let mut w = Words {
        words: [Word {
            value: [0; 2],
            mask: [0; 2],
            bit: 0,
        }; WORD_COUNT],
        starts: [0; 257],
    };
    let mut n = 0;
    let mut first = 0;
    while first < 256 {
        w.starts[first] = n as u8;
        let mut i = 0;
        while i < GRAMMARS.len() {
            let (bit, gate) = GRAMMARS[i];
            let mut j = 0;
            while j < gate.prefixes.len() {
                let p = gate.prefixes[j].as_bytes();
                assert!(p.len() >= 2, "a prefix has 2 bytes or more");
                if p[0] as usize == first {
                    let (mut value, mut mask) = ([0u64; 2], [0u64; 2]);
                    let mut k = 0;
                    while k < p.len() && k < 16 {
                        value[k / 8] |= (p[k] as u64) << (8 * (k % 8));
                        mask[k / 8] |= 0xff << (8 * (k % 8));
                        k += 1;
                    }
                    w.words[n] = Word { value, mask, bit };
                    n += 1;
                }
                j += 1;
            }
            i += 1;
        }
        first += 1;
    }
    w.starts[256] = n as u8;
    w
}

static WORDS: Words = words();

/// The first 16 bytes of `b`, little-endian, zero past its end (no prefix holds a zero byte):
/// one load, or two overlapping 8-byte ones, or (under 8 bytes) a byte at a time.
#[inline(always)]
fn head(b: &[u8]) -> u128 {
    let word = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap());
    let n = b.len();
    if n >= 16 {
        return u128::from_le_bytes(b[..16].try_into().unwrap());
    }
    if n >= 8 {
        // The last 8 bytes, shifted so that `b[8..n]` comes out at the bottom.
        let hi = word(n - 8).checked_shr(8 * (16 - n as u32)).unwrap_or(0);
        return u128::from(word(0)) | u128::from(hi) << 64;
    }
    b.iter()
        .enumerate()
        .fold(0, |h, (i, &c)| h | u128::from(c) << (8 * i))
}

/// The grammars that may take a text `t` with no hint: those with a declared prefix that
/// starts `t` (its first 16 bytes), and those with `other` lines starting with `t`'s first
/// byte whose test lets `t` in (all of them, untested, once a prefix matched: the chain runs
/// anyway). Narrower than [`grammars`]' first byte: most texts the first byte (and
/// [`may_match`]'s pair) lets in, `Starting foo.service`, `Boot HART ...`, `SYSFW revision`,
/// are told here to be no grammar's before the chain is tried.
#[inline(always)]
pub fn word_grammars(t: &str) -> u16 {
    let b = t.as_bytes();
    let Some(&first) = b.first() else {
        return 0;
    };
    let f = usize::from(first);
    let h = head(b);
    let (lo, hi) = (h as u64, (h >> 64) as u64);
    let mut g = 0;
    let range = usize::from(WORDS.starts[f])..usize::from(WORDS.starts[f + 1]);
    for w in &WORDS.words[range] {
        if lo & w.mask[0] == w.value[0] && hi & w.mask[1] == w.value[1] {
            g |= w.bit;
        }
    }
    let other = OTHER[f];
    if g != 0 || other == 0 {
        return g | other;
    }
    other_grammars(t, other)
}

/// How many grammars declare `other` lines.
const OTHER_COUNT: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < GRAMMARS.len() {
        if GRAMMARS[i].1.other.is_some() {
            n += 1;
        }
        i += 1;
    }
    n
};

/// The bit and `other` test of every grammar that declares `other` lines.
static OTHER_TESTS: [(u16, LineTest); OTHER_COUNT] = {
    fn none(_: &str) -> bool {
        false
    }
    let mut t: [(u16, LineTest); OTHER_COUNT] = [(0, none); OTHER_COUNT];
    let mut n = 0;
    let mut i = 0;
    while i < GRAMMARS.len() {
        if let Some((_, test)) = GRAMMARS[i].1.other {
            t[n] = (GRAMMARS[i].0, test);
            n += 1;
        }
        i += 1;
    }
    t
};

/// The grammars among `other` whose `other` test lets `t` in.
#[inline(never)]
fn other_grammars(t: &str, other: u16) -> u16 {
    let mut g = 0;
    for &(bit, test) in &OTHER_TESTS {
        if other & bit != 0 && test(t) {
            g |= bit;
        }
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::Strategy;

    /// [`may_match`] by a search of the declarations: the reference its tables stand in for.
    fn may_match_by_search(first: u8, second: u8, hints: u8) -> bool {
        hints & needles::ALL != 0
            || GRAMMARS
                .iter()
                .any(|(_, g)| g.other.is_some_and(|(f, _)| f.contains(&first)))
            || GRAMMARS
                .iter()
                .flat_map(|(_, g)| g.prefixes.iter())
                .chain(USERSPACE_OPENINGS.iter())
                .any(|p| p.as_bytes()[..2] == [first, second])
    }

    /// [`grammars`] with the hint bits tested one by one ([`hint_grammars`] called, not
    /// looked up): the reference the hint table stands in for.
    fn grammars_by_tests(first: u8, hints: u8) -> u16 {
        TABLE[usize::from(first)] | hint_grammars(hints)
    }

    /// [`word_grammars`] by a search of the declarations (every `other` test asked).
    fn word_grammars_by_search(t: &str) -> u16 {
        let mut g = 0;
        for (bit, gate) in GRAMMARS {
            let starts = |p: &&str| t.as_bytes().starts_with(&p.as_bytes()[..p.len().min(16)]);
            if gate.prefixes.iter().any(starts) {
                g |= bit;
            }
        }
        let by_prefix = g;
        for (bit, gate) in GRAMMARS {
            if let Some((firsts, test)) = gate.other {
                let first = t.as_bytes().first().is_some_and(|c| firsts.contains(c));
                if first && (by_prefix != 0 || test(t)) {
                    g |= bit;
                }
            }
        }
        g
    }

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

    /// The word reads of [`head`] are the zero-padded copy of the first 16 bytes, at every
    /// length.
    #[test]
    fn head_is_the_padded_copy() {
        let bytes: Vec<u8> = (1..=20).collect();
        for n in 0..=20 {
            let b = &bytes[..n];
            let mut h = [0u8; 16];
            h[..n.min(16)].copy_from_slice(&b[..n.min(16)]);
            assert_eq!(head(b), u128::from_le_bytes(h), "{n}");
        }
    }

    /// Whether a text starts as one the timeline's user-space test takes (see
    /// `State::classify`), which the pair gate must let through too.
    fn opens_userspace(t: &str) -> bool {
        USERSPACE_OPENINGS.iter().any(|p| t.starts_with(p))
    }

    /// The texts of one byte that a grammar (or user space's opening) takes start with an
    /// `other` first byte, so [`may_match`] lets them in whatever byte stands for the second.
    #[test]
    fn one_byte_texts_need_other() {
        for c in 0..=127u8 {
            let t = char::from(c).to_string();
            let taken = GRAMMARS.iter().any(|&(bit, _)| matches(bit, &t)) || opens_userspace(&t);
            assert!(!taken || OTHER[usize::from(c)] != 0, "{t:?}");
        }
        for c in (0..=255u8).filter(|&c| OTHER[usize::from(c)] != 0) {
            assert!((0..=255u8).all(|second| may_match(c, second, 0)));
        }
    }

    proptest::proptest! {
        /// The word table is the search of the declarations, on texts of the grammars' words.
        #[test]
        fn word_table_is_the_search(
            head in proptest::sample::select(WORDS.to_vec()),
            cut in 0usize..3,
            rest in proptest::collection::vec(proptest::sample::select(WORDS.to_vec()), 0..3),
        ) {
            let head = head.get(cut.min(head.len())..).unwrap_or("");
            let t = format!("{head}{}", rest.concat());
            proptest::prop_assert_eq!(word_grammars(&t), word_grammars_by_search(&t), "{:?}", t);
        }
    }

    #[test]
    fn samples_pass_their_pair_gate() {
        for (_, t) in SAMPLES {
            let b = t.as_bytes();
            assert!(may_match(b[0], b[1], 0), "{t:?}");
        }
        for t in USERSPACE_OPENINGS {
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
                    for (bit, _) in GRAMMARS {
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
                for (bit, _) in GRAMMARS {
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
            for (bit, _) in GRAMMARS {
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
            for (bit, _) in GRAMMARS {
                if g & bit == 0 {
                    proptest::prop_assert!(!matches(bit, &t), "{:?} matched grammar {:#x}", t, bit);
                }
            }
        }
    }
}
