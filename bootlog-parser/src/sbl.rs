//! TI SBL grammar: PDK `SBL_printProfileLog` tables and MCU+ SDK `[BOOTLOADER_PROFILE]` /
//! `[BOOTLOADER PROFILE]` / `[KPI]` lines, the SBL revision and hand-off lines.

use crate::ascii;
use crate::declaration::{lead, Gate};
use nom::{
    bytes::complete::{tag, take_till1},
    character::complete::{digit1, space0},
    combinator::opt,
    sequence::tuple,
    IResult,
};

/// An SBL line the timeline cares about.
#[derive(Debug, Clone, PartialEq)]
pub enum SblLine<'a> {
    /// `SBL Revision: 01.00.10.01 (Nov 20 2024 - 13:19:45)`.
    Revision(&'a str),
    /// PDK `MCU @ 1000000000Hz.`.
    McuHz(u64),
    /// PDK `cycles per usec  = 1000`.
    CyclesPerUsec(u64),
    /// PDK `Detected overflow, some profile entries might be lost.`.
    Overflow,
    /// A PDK profile entry.
    PdkEntry {
        /// `**` marker: the cycle counter wrapped before this entry.
        wrapped: bool,
        /// Function name.
        fxn: &'a str,
        /// Source line.
        line: u32,
        /// Cycle counter.
        cycle: u64,
        /// Microseconds since the PMU reset.
        timestamp_us: u64,
    },
    /// An MCU+ header (`Boot Media : FLASH`).
    Info(&'a str, &'a str),
    /// An MCU+ `Cores present :` header; the core names follow on unprefixed lines.
    CoresPresent,
    /// An MCU+ profile point: name and duration.
    Point(&'a str, u64),
    /// `SBL Total Time Taken : 61628us`.
    Total(u64),
    /// `Image loading done, switching to application ...`.
    Handoff,
    /// `Starting linux and RTOS/Baremetal applications`, `Starting MCU-m4f and 2nd stage bootloader`.
    Starting(&'a str),
}

const KPI_DATA: &str = "KPI_DATA:";
const REVISION: &str = "SBL Revision:";
const STARTING_LINUX: &str = "Starting linux";
const MCU: &str = "MCU @ ";
const CYCLES: &str = "cycles per usec";
const OVERFLOW: &str = "Detected overflow";
const HANDOFF: &str = "Image loading done";

/// The lines [`line`] may take (see [`crate::gate`]): its prefixes, and the `S` lines that
/// hold `2nd stage bootloader`.
pub const GATE: Gate = Gate {
    prefixes: &[
        KPI_DATA,
        "[BOOTLOADER",
        "[KPI]",
        "fxn:",
        "** ",
        "**\t",
        "**f",
        MCU,
        CYCLES,
        OVERFLOW,
        HANDOFF,
        REVISION,
        STARTING_LINUX,
    ],
    other: Some((b"S", has_2nd_stage)),
    words: 0,
};

fn pdk_entry(t: &str) -> IResult<&str, SblLine<'_>> {
    let (t, mark) = opt(tag("**"))(t)?;
    let (t, _) = space0(t)?;
    let (t, (_, _, fxn, _, _, _, line, _, _, _, cycle, _, _, _, ts, _)) = tuple((
        tag("fxn:"),
        space0,
        take_till1(|c: char| c.is_whitespace()),
        space0,
        tag("line:"),
        space0,
        digit1,
        space0,
        tag("cycle:"),
        space0,
        digit1,
        space0,
        tag("timestamp:"),
        space0,
        digit1,
        tag("us"),
    ))(t)?;
    Ok((
        t,
        SblLine::PdkEntry {
            wrapped: mark.is_some(),
            fxn,
            line: line.parse().unwrap_or(0),
            cycle: cycle.parse().unwrap_or(0),
            timestamp_us: ts.parse().unwrap_or(0),
        },
    ))
}

/// `t.split_once(" :").or_else(|| t.split_once(':'))`, untrimmed, by a one-byte search for
/// `:` ([`ascii::find_byte`], inlined).
#[inline(always)]
fn kv_raw(t: &str) -> Option<(&str, &str)> {
    let b = t.as_bytes();
    let mut first = None;
    let mut spaced = None;
    let mut from = 0;
    while let Some(k) = ascii::find_byte(&b[from..], b':') {
        let i = from + k;
        first = first.or(Some(i));
        if i > 0 && b[i - 1] == b' ' {
            spaced = Some(i);
            break;
        }
        from = i + 1;
    }
    match (spaced, first) {
        (Some(i), _) => Some((&t[..i - 1], &t[i + 1..])),
        (None, Some(i)) => Some((&t[..i], &t[i + 1..])),
        (None, None) => None,
    }
}

/// The text after an MCU+ `[...]` tag (`header`: the `[BOOTLOADER_PROFILE]` spelling, whose
/// values may be sizes): a total, the cores header, a point or an info line.
#[inline(always)]
fn profile(rest: &str, header: bool) -> Option<SblLine<'_>> {
    let (k, v) = kv_raw(rest)?;
    let k = ascii::trim_ws(k);
    // The value's leading blanks (a column of spaces in KPI tables) go a word at a time by
    // `trim_start` (ASCII) first: what is left to `trim_ws` is the same trim (here
    // `trim_ws_graphic_ends`, which is `trim_ws` with no end scan where none is needed).
    let v = ascii::trim_ws_graphic_ends(ascii::trim_start(v));
    if k == "SBL Total Time Taken" {
        return us(v).map(SblLine::Total);
    }
    if k == "Cores present" {
        return Some(SblLine::CoresPresent);
    }
    match us(v) {
        Some(d) if !header || !v.contains(' ') || v.ends_with("us") => Some(SblLine::Point(k, d)),
        _ => Some(SblLine::Info(k, v)),
    }
}

/// `<digits><blanks>u...` -> the number: the nom `us_nom` by hand.
fn us(v: &str) -> Option<u64> {
    let b = v.as_bytes();
    // The digits and their value in one pass (the value of the first 19: never overflows).
    let mut n = 0;
    let mut x = 0u64;
    while let Some(&c) = b.get(n) {
        if !c.is_ascii_digit() {
            break;
        }
        if n < 19 {
            x = x * 10 + u64::from(c - b'0');
        }
        n += 1;
    }
    let mut k = n;
    while matches!(b.get(k), Some(b' ' | b'\t')) {
        k += 1;
    }
    if n == 0 || b.get(k) != Some(&b'u') {
        return None;
    }
    if n <= 19 {
        // What `parse` gives.
        return Some(x);
    }
    v[..n].parse().ok()
}

/// `2nd stage bootloader`, which an `S` line may hold anywhere.
const STAGE2: &[u8] = b"2nd stage bootloader";

/// Whether `t` holds [`STAGE2`]: each `2` found by the inlined [`ascii::find_byte`] (the
/// gate asks this of every `S` line no prefix takes, most of them short), then a compare.
fn has_2nd_stage(t: &str) -> bool {
    let b = t.as_bytes();
    let mut i = 0;
    while let Some(k) = ascii::find_byte(&b[i..], b'2') {
        if b[i + k..].starts_with(STAGE2) {
            return true;
        }
        i += k + 1;
    }
    false
}

/// Classifies a line (leading blanks already removed).
#[inline]
pub fn line(t: &str) -> Option<SblLine<'_>> {
    // `S` lines (many: `Starting ...`) match only with `SBL Revision:`, `Starting linux` or
    // `2nd stage bootloader` anywhere: checked here, so the rest go without a call to
    // `line_full`. Other lines: the first two bytes of [`GATE`]'s prefixes.
    if t.as_bytes().first() == Some(&b'S') {
        if !(t.starts_with(REVISION) || t.starts_with(STARTING_LINUX) || has_2nd_stage(t)) {
            return None;
        }
    } else if matches!(t.as_bytes().get(..2), Some([b'[', b'B' | b'K'])) {
        // The MCU+ tag lines (thousands in a log with SBL profiles): their own small frame,
        // not `line_full`'s (which `pdk_entry`'s nom tuple makes large).
        return tag_line(t);
    } else if !lead(t.as_bytes(), 2).is_some_and(|w| LEADS.contains(&w)) {
        return None;
    }
    line_full(t)
}

/// The first two bytes of [`GATE`]'s prefixes, for [`line`]'s quick test.
static LEADS: [u64; GATE.prefixes.len()] = GATE.leads(2);

/// [`line`] without the two-byte check.
fn line_full(t: &str) -> Option<SblLine<'_>> {
    let t = t.strip_prefix(KPI_DATA).map(str::trim_start).unwrap_or(t);
    let b = t.as_bytes();
    match b.first()? {
        b'[' => tag_line(t),
        b'f' | b'*' if t.starts_with("fxn:") || t.starts_with("**") => {
            pdk_entry(t).ok().map(|(_, l)| l)
        }
        b'S' => {
            if let Some(r) = t.strip_prefix(REVISION) {
                Some(SblLine::Revision(r.trim()))
            } else if t.starts_with(STARTING_LINUX) || has_2nd_stage(t) {
                Some(SblLine::Starting(t.trim_end()))
            } else {
                None
            }
        }
        b'M' => {
            let r = t.strip_prefix(MCU)?;
            let d: String = r.chars().take_while(char::is_ascii_digit).collect();
            d.parse().ok().map(SblLine::McuHz)
        }
        b'c' => {
            let r = t.strip_prefix(CYCLES)?;
            r.trim_start()
                .strip_prefix('=')?
                .trim()
                .parse()
                .ok()
                .map(SblLine::CyclesPerUsec)
        }
        b'D' if t.starts_with(OVERFLOW) => Some(SblLine::Overflow),
        b'I' if t.starts_with(HANDOFF) => Some(SblLine::Handoff),
        _ => None,
    }
}

/// A text starting with `[` (after `KPI_DATA:`, if any), as [`line_full`] reads it: an MCU+
/// `[KPI]` or `[BOOTLOADER_PROFILE]` / `[BOOTLOADER PROFILE]` line. Out of line with its own
/// small frame, which [`line`] calls directly for `[B` and `[K` texts (`line_full`'s frame
/// is large, for `pdk_entry`).
#[inline(never)]
fn tag_line(t: &str) -> Option<SblLine<'_>> {
    let b = t.as_bytes();
    // The tag by its second byte: `[KPI]`, else one of the two 20-byte spellings.
    match b.get(1) {
        Some(b'K') if t.starts_with("[KPI]") => profile(&t["[KPI]".len()..], false),
        // The 20 bytes as three words (`[BOOTLOA`, `DER_` or `DER `, `PROFILE]`).
        Some(b'B') if t.len() >= 20 && b[12..20] == *b"PROFILE]" && b[..8] == *b"[BOOTLOA" => {
            match u32::from_le_bytes([b[8], b[9], b[10], b[11]]) {
                w if w == u32::from_le_bytes(*b"DER_") => profile(&t[20..], true),
                w if w == u32::from_le_bytes(*b"DER ") => profile(&t[20..], false),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The nom grammar and std versions the hand-written readers stand in for: the differential
/// tests' references.
#[cfg(test)]
mod reference {
    use super::*;
    use nom::{character::complete::space0, sequence::tuple};

    /// `<name> : <value>` after an MCU+ prefix: [`kv_raw`] with both sides trimmed.
    pub(super) fn kv(t: &str) -> Option<(&str, &str)> {
        let (k, v) = kv_raw(t)?;
        // The value's leading blanks (a column of spaces in KPI tables) go a word at a time by
        // `trim_start` (ASCII) first: what is left to `trim_ws` is the same trim.
        Some((ascii::trim_ws(k), ascii::trim_ws(ascii::trim_start(v))))
    }

    /// The nom grammar `us` stands in for.
    pub(super) fn us_nom(v: &str) -> Option<u64> {
        let (_, (d, _, _)) = tuple((
            digit1::<&str, ()>,
            space0,
            nom::character::complete::char('u'),
        ))(v)
        .ok()?;
        d.parse().ok()
    }

    /// [`line_full`] with the tag read by `strip_prefix` and the pair split by std: the reference
    /// of [`profile`] and [`kv_raw`] (its `[` lines; the rest it leaves to `line_full`).
    pub(super) fn line_full_ref(whole: &str) -> Option<SblLine<'_>> {
        let t = whole
            .strip_prefix(KPI_DATA)
            .map(str::trim_start)
            .unwrap_or(whole);
        let b = t.as_bytes();
        match b.first()? {
            b'[' => {
                let (header, rest) = if let Some(r) = t.strip_prefix("[BOOTLOADER_PROFILE]") {
                    (true, r)
                } else if let Some(r) = t.strip_prefix("[BOOTLOADER PROFILE]") {
                    (false, r)
                } else if let Some(r) = t.strip_prefix("[KPI]") {
                    (false, r)
                } else {
                    return None;
                };
                let (k, v) = kv(rest)?;
                if k == "SBL Total Time Taken" {
                    return us(v).map(SblLine::Total);
                }
                if k == "Cores present" {
                    return Some(SblLine::CoresPresent);
                }
                match us(v) {
                    Some(d) if !header || !v.contains(' ') || v.ends_with("us") => {
                        Some(SblLine::Point(k, d))
                    }
                    _ => Some(SblLine::Info(k, v)),
                }
            }
            // The other lines are read as `line_full` reads them (unchanged by the rework).
            _ => line_full(whole),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::reference::*;
    use super::*;

    proptest::proptest! {
        /// The fixed-position tag and value reading is the reference grammar, on MCU+ lines
        /// built from the tags, keys, separators and values (and near misses of each).
        #[test]
        fn profile_lines_are_the_reference(
            tag in proptest::sample::select(vec![
                "[KPI]", "[BOOTLOADER_PROFILE]", "[BOOTLOADER PROFILE]", "[BOOTLOADER-PROFILE]",
                "[BOOTLOADER_PROFILEX", "[KPX]", "[K", "[BOOTLOADER", "KPI_DATA: [KPI]", "[",
            ]),
            key in proptest::sample::select(vec![
                " System_init        ", " SBL Total Time Taken ", " Cores present    ", "", " a:b",
                " Boot Media ", "\u{a0}x ", " x\t",
            ]),
            sep in proptest::sample::select(vec![" :", ":", " : ", "::", " ", ""]),
            val in proptest::sample::select(vec![
                "       6411us", " 1us", "1us", " 184 KB", " FLASH", " 12 us", " 12us ", " 12u",
                " us", " 99999999999999999999us", " 9999999999999999999us", "\t5us", " 5usx",
                " 5us\u{a0}", "", " \u{2003}7us", " 0us", " 1 2us",
            ]),
        ) {
            let t = format!("{tag}{key}{sep}{val}");
            proptest::prop_assert_eq!(line_full(&t), line_full_ref(&t), "{:?}", t);
        }
    }

    proptest::proptest! {
        /// The two-byte check turns away no line the grammar matches.
        #[test]
        fn two_byte_check_keeps_every_match(
            a in proptest::sample::select(b"KP[BfxS*MCcyDeImx ".to_vec()),
            b in proptest::sample::select(b"KP[BfxS*MCcyDeImx ".to_vec()),
            rest in proptest::sample::select(vec![
                "I_DATA: [KPI] SBL Total Time Taken : 5us", "OOTLOADER_PROFILE] A : 5us", "PI] B : 1us",
                "n: main line: 1 cycle: 2 timestamp: 3us", "fxn: f line: 1 cycle: 2 timestamp: 3us",
                "L Revision: 1", "arting linux", " and 2nd stage bootloader", "U @ 100Hz.",
                "cles per usec = 1000", "tected overflow", "age loading done", "", "x",
            ]),
        ) {
            let t = format!("{}{}{rest}", a as char, b as char);
            proptest::prop_assert_eq!(line(&t), line_full(&t), "{:?}", t);
        }
    }

    proptest::proptest! {
        /// The hand-written scans are the nom grammar and str-method chains.
        #[test]
        fn fast_scans_are_the_old_ones(
            v in "[0-9 \tuxs:2ndtagebol\u{a0}]{0,24}",
            long in "[0-9]{17,22}u",
            w in proptest::sample::select(vec!["2nd stage bootloader", "2nd stage", " : ", "12 us", "22nd stage bootloader"]),
        ) {
            // Also a KPI-table shape: a padded key and a column of blanks before the value.
            let padded = format!("a b{} :{}{v}", " ".repeat(v.len()), " ".repeat(30usize.saturating_sub(v.len())));
            for t in [v.clone(), format!("{v}{w}"), format!("{w}{v}"), long.clone(), padded] {
                proptest::prop_assert_eq!(us(&t), us_nom(&t), "{:?}", t);
                proptest::prop_assert_eq!(has_2nd_stage(&t), t.contains("2nd stage bootloader"));
                let slow = t.split_once(" :").or_else(|| t.split_once(':')).map(|(k, v)| (k.trim(), v.trim()));
                proptest::prop_assert_eq!(kv(&t), slow, "{:?}", t);
            }
        }

        /// The search finds the word at every offset, among its own bytes.
        #[test]
        fn stage2_found_at_any_offset(
            pre in "[2nd stagebotler\u{e9}x]{0,40}",
            post in "[2nd stagebotler\u{e9}x]{0,20}",
            cut in 0usize..21,
        ) {
            let word = std::str::from_utf8(STAGE2).unwrap();
            for t in [format!("{pre}{word}{post}"), format!("{pre}{}{post}", &word[..cut]), format!("{pre}{post}")] {
                proptest::prop_assert_eq!(has_2nd_stage(&t), t.contains("2nd stage bootloader"), "{:?}", t);
            }
        }
    }

    #[test]
    fn mcu_plus_both_spellings_and_kpi() {
        assert_eq!(
            line("[BOOTLOADER PROFILE] System_init                      :       6411us"),
            Some(SblLine::Point("System_init", 6411))
        );
        assert_eq!(
            line("[BOOTLOADER_PROFILE] SBL Total Time Taken             :      61628us"),
            Some(SblLine::Total(61628))
        );
        assert_eq!(
            line("[KPI] Sciclient Get Version            :       9895us"),
            Some(SblLine::Point("Sciclient Get Version", 9895))
        );
        assert_eq!(
            line("KPI_DATA: [KPI] SBL Total Time Taken : 157040us"),
            Some(SblLine::Total(157040))
        );
        assert_eq!(
            line("[BOOTLOADER_PROFILE] Boot Media       : FLASH"),
            Some(SblLine::Info("Boot Media", "FLASH"))
        );
        assert_eq!(
            line("[BOOTLOADER_PROFILE] Boot Image Size  : 184 KB"),
            Some(SblLine::Info("Boot Image Size", "184 KB"))
        );
        assert_eq!(
            line("[BOOTLOADER_PROFILE] Cores present    :"),
            Some(SblLine::CoresPresent)
        );
    }

    #[test]
    fn pdk_table() {
        assert_eq!(
            line("MCU @ 1000000000Hz."),
            Some(SblLine::McuHz(1_000_000_000))
        );
        assert_eq!(
            line("cycles per usec  = 1000"),
            Some(SblLine::CyclesPerUsec(1000))
        );
        assert_eq!(
            line("fxn:main                            \tline:  77\tcycle:      1234\ttimestamp:         1us"),
            Some(SblLine::PdkEntry { wrapped: false, fxn: "main", line: 77, cycle: 1234, timestamp_us: 1 })
        );
        assert_eq!(
            line("**fxn:                SBL_SlaveCoreBoot\tline: 520\tcycle:     99999\ttimestamp:     61628us"),
            Some(SblLine::PdkEntry { wrapped: true, fxn: "SBL_SlaveCoreBoot", line: 520, cycle: 99999, timestamp_us: 61628 })
        );
        assert_eq!(line("fxn: broken"), None);
    }

    #[test]
    fn revision_and_handoff() {
        assert_eq!(
            line("SBL Revision: 01.00.10.01 (Nov 20 2024 - 13:19:45)"),
            Some(SblLine::Revision("01.00.10.01 (Nov 20 2024 - 13:19:45)"))
        );
        assert_eq!(
            line("Image loading done, switching to application ..."),
            Some(SblLine::Handoff)
        );
        assert!(matches!(
            line("Starting MCU-m4f and 2nd stage bootloader"),
            Some(SblLine::Starting(_))
        ));
    }
}
