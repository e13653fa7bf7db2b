//! TI SBL grammar: PDK `SBL_printProfileLog` tables and MCU+ SDK `[BOOTLOADER_PROFILE]` /
//! `[BOOTLOADER PROFILE]` / `[KPI]` lines, the SBL revision and hand-off lines.

use crate::ascii;
use crate::gate::declaration::Gate;
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

/// The lines [`line`] may take (see [`crate::gate`]): its prefixes, and the `S` lines that
/// hold `2nd stage bootloader`.
pub const GATE: Gate = Gate {
    prefixes: &[
        "KPI_DATA:",
        "[BOOTLOADER",
        "[KPI]",
        "fxn:",
        "** ",
        "**\t",
        "**f",
        "MCU @ ",
        "cycles per usec",
        "Detected overflow",
        "Image loading done",
        "SBL Revision:",
        "Starting linux",
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

/// `<name> : <value>` after an MCU+ prefix: [`kv_raw`] with both sides trimmed.
#[cfg(test)]
fn kv(t: &str) -> Option<(&str, &str)> {
    let (k, v) = kv_raw(t)?;
    // The value's leading blanks (a column of spaces in KPI tables) go a word at a time by
    // `trim_start` (ASCII) first: what is left to `trim_ws` is the same trim.
    Some((ascii::trim_ws(k), ascii::trim_ws(ascii::trim_start(v))))
}

/// `t.split_once(" :").or_else(|| t.split_once(':'))`, untrimmed, by a one-byte search for
/// `:` ([`ascii::find_byte`]: inlined, where a `memchr` call paid about 60 instructions).
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

/// A profile value as KPI tables print most: spaces, 1 to 19 digits and `us`, nothing
/// after. The number, read in one pass; `None` for any other text (which the general trims
/// and [`us`] then read: where this answers they give the same number, the trimmed value
/// holding no blank and ending in `us`).
#[inline(always)]
fn padded_us(v: &str) -> Option<u64> {
    const SPACES: u64 = u64::from_le_bytes(*b"        ");
    let b = v.as_bytes();
    // The spaces 8 a word (the first non-space of a word by its lowest set byte once xored
    // with spaces), the last few a byte at a time; any other blank is left to the general path.
    let mut s = 0;
    while let Some(w) = ascii::word_at(b, s) {
        let x = w ^ SPACES;
        if x != 0 {
            s += (x.trailing_zeros() / 8) as usize;
            break;
        }
        s += 8;
    }
    while b.get(s) == Some(&b' ') {
        s += 1;
    }
    // A value that fills the rest of the line but its `us`, with 1 to 8 digits and 10 bytes
    // or more in the line (padded tables: nearly all): its digits are the top bytes of the
    // word that ends before `us`, read at once (a digit-by-digit fold costs ~5 a digit).
    let n = b.len().wrapping_sub(s + 2);
    if (1..=8).contains(&n) && b.len() >= 10 && b.ends_with(b"us") {
        if let Some(w) = ascii::word_at(b, b.len() - 10) {
            // The digits moved to the bottom, zeros above: a run of `n` only if all are digits.
            let w = if n == 8 { w } else { w >> (8 * (8 - n)) };
            if crate::linux::digit_run(w) == n {
                return Some(crate::linux::digits_value(w, n));
            }
        }
    }
    let (x, e) = ascii::fold_digits(b, s, 0);
    (e != s && e - s <= 19 && b.len() == e + 2 && b[e] == b'u' && b[e + 1] == b's').then_some(x)
}

/// The text after an MCU+ `[...]` tag (`header`: the `[BOOTLOADER_PROFILE]` spelling, whose
/// values may be sizes): a total, the cores header, a point or an info line.
#[inline(always)]
fn profile(rest: &str, header: bool) -> Option<SblLine<'_>> {
    let (k, v) = kv_raw(rest)?;
    let k = ascii::trim_ws(k);
    if let Some(d) = padded_us(v) {
        // What the general path below gives for such a value.
        return Some(if k == "SBL Total Time Taken" {
            SblLine::Total(d)
        } else if k == "Cores present" {
            SblLine::CoresPresent
        } else {
            SblLine::Point(k, d)
        });
    }
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

/// The nom grammar `us` stands in for.
#[cfg(test)]
fn us_nom(v: &str) -> Option<u64> {
    let (_, (d, _, _)) = tuple((
        digit1::<&str, ()>,
        space0,
        nom::character::complete::char('u'),
    ))(v)
    .ok()?;
    d.parse().ok()
}

/// `2nd stage bootloader`, the word [`has_2nd_stage`] looks for.
const STAGE2: &[u8] = b"2nd stage bootloader";

/// For each pair of bytes (`first << 8 | second`), 1 + the offset in [`STAGE2`] where it
/// starts, or 0 where the word holds no such pair (its 19 pairs are all different).
const fn stage2_pairs() -> [u8; 65536] {
    let mut t = [0u8; 65536];
    let mut j = 0;
    while j + 1 < STAGE2.len() {
        let p = (STAGE2[j] as usize) << 8 | STAGE2[j + 1] as usize;
        t[p] = j as u8 + 1;
        j += 1;
    }
    t
}

static STAGE2_PAIRS: [u8; 65536] = stage2_pairs();

/// Whether `t` holds `2nd stage bootloader`, looking at every 19th byte pair only, from the
/// one at 18: a match at `s` spans the pairs starting at `s..=s + 18`, 19 in a row, so one
/// of them starts at `18 + 19 * k` (that run holds every remainder mod 19, and its end
/// `s + 18` is at least 18), and that pair is one of the word's. Only where the pair is the
/// word's is the word compared, at the one offset it holds that pair. Most `S` lines hold
/// none (a 60-byte line costs 2 probes; under 20 bytes, none); the `2`-a-word scan before
/// cost more, a `memchr` call more still.
#[inline(never)]
fn has_2nd_stage(t: &str) -> bool {
    has_2nd_stage_inline(t)
}

/// [`has_2nd_stage`] inlined, for the gate's word test (`gate::word_grammars`), where a call
/// would cost its caller a frame.
#[inline(always)]
pub(crate) fn has_2nd_stage_inline(t: &str) -> bool {
    let b = t.as_bytes();
    let mut p = STAGE2.len() - 2;
    while p + 1 < b.len() {
        let pair = usize::from(b[p]) << 8 | usize::from(b[p + 1]);
        let j = STAGE2_PAIRS[pair];
        // Most probes find no pair of the word: one test, the word compared only after it.
        if j != 0 {
            // `j - 1` is where the word would start before `p`.
            let j = usize::from(j);
            if p + 1 >= j && b[p + 1 - j..].starts_with(STAGE2) {
                return true;
            }
        }
        p += STAGE2.len() - 1;
    }
    false
}

/// [`has_2nd_stage`] as it was, probing every 16th pair from the first: the reference the
/// 19-byte stride is checked against.
#[cfg(test)]
fn has_2nd_stage_16(t: &str) -> bool {
    let b = t.as_bytes();
    let mut p = 0;
    while p + 1 < b.len() {
        let pair = usize::from(b[p]) << 8 | usize::from(b[p + 1]);
        let j = usize::from(STAGE2_PAIRS[pair]);
        if j != 0 && p + 1 >= j && b[p + 1 - j..].starts_with(STAGE2) {
            return true;
        }
        p += 16;
    }
    false
}

/// The `memchr` search [`has_2nd_stage`] stands in for.
#[cfg(test)]
fn has_2nd_stage_memchr(t: &str) -> bool {
    const W: &[u8] = b"2nd stage bootloader";
    let b = t.as_bytes();
    memchr::memchr_iter(b'2', b).any(|i| b[i..].starts_with(W))
}

/// Classifies a line (leading blanks already removed).
#[inline]
pub fn line(t: &str) -> Option<SblLine<'_>> {
    // `S` lines (many: `Starting ...`) match only with `SBL Revision:`, `Starting linux` or
    // `2nd stage bootloader` anywhere: checked here, so the rest go without a call to
    // `line_full`. Other lines: the first two bytes of every prefix below.
    if t.as_bytes().first() == Some(&b'S') {
        if !(t.starts_with("SBL Revision:") || t.starts_with("Starting linux") || has_2nd_stage(t))
        {
            return None;
        }
    } else if matches!(t.as_bytes().get(..2), Some([b'[', b'B' | b'K'])) {
        // The MCU+ tag lines (thousands in a log with SBL profiles): their own small frame,
        // not `line_full`'s (which `pdk_entry`'s nom tuple makes large).
        return tag_line(t);
    } else if !matches!(
        t.as_bytes().get(..2),
        Some(
            [b'K', b'P']
                | [b'f', b'x']
                | [b'*', b'*']
                | [b'M', b'C']
                | [b'c', b'y']
                | [b'D', b'e']
                | [b'I', b'm']
        )
    ) {
        return None;
    }
    line_full(t)
}

/// [`line`] without the two-byte check.
fn line_full(t: &str) -> Option<SblLine<'_>> {
    let t = t
        .strip_prefix("KPI_DATA:")
        .map(str::trim_start)
        .unwrap_or(t);
    let b = t.as_bytes();
    match b.first()? {
        b'[' => tag_line(t),
        b'f' | b'*' if t.starts_with("fxn:") || t.starts_with("**") => {
            pdk_entry(t).ok().map(|(_, l)| l)
        }
        b'S' => {
            if let Some(r) = t.strip_prefix("SBL Revision:") {
                Some(SblLine::Revision(r.trim()))
            } else if t.starts_with("Starting linux") || has_2nd_stage(t) {
                Some(SblLine::Starting(t.trim_end()))
            } else {
                None
            }
        }
        b'M' => {
            let r = t.strip_prefix("MCU @ ")?;
            let d: String = r.chars().take_while(char::is_ascii_digit).collect();
            d.parse().ok().map(SblLine::McuHz)
        }
        b'c' => {
            let r = t.strip_prefix("cycles per usec")?;
            r.trim_start()
                .strip_prefix('=')?
                .trim()
                .parse()
                .ok()
                .map(SblLine::CyclesPerUsec)
        }
        b'D' if t.starts_with("Detected overflow") => Some(SblLine::Overflow),
        b'I' if t.starts_with("Image loading done") => Some(SblLine::Handoff),
        _ => None,
    }
}

/// A text starting with `[` (after `KPI_DATA:`, if any), as [`line_full`] reads it: an MCU+
/// `[KPI]` or `[BOOTLOADER_PROFILE]` / `[BOOTLOADER PROFILE]` line. Out of line with its own
/// frame, which [`line`] calls directly for `[B` and `[K` texts: `line_full`'s frame (six
/// registers saved and 360 bytes of stack, for `pdk_entry`) cost those ~35 instructions.
#[inline(never)]
fn tag_line(t: &str) -> Option<SblLine<'_>> {
    let b = t.as_bytes();
    // The tag by its second byte: `[KPI]`, else one of the two 20-byte spellings.
    match b.get(1) {
        Some(b'K') if t.starts_with("[KPI]") => profile(&t["[KPI]".len()..], false),
        // The 20 bytes as three words (`[BOOTLOA`, `DER_` or `DER `, `PROFILE]`): the
        // 12-byte match compiled to eleven byte compares (3,100 lines on the bench log).
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

#[cfg(test)]
mod tests {
    use super::*;

    /// [`padded_us`] as it was before the word read of a value that fills the line: the
    /// reference it is checked against (the spaces skipped the same way, the digits folded).
    fn padded_us_fold(v: &str) -> Option<u64> {
        let b = v.as_bytes();
        let mut s = 0;
        while b.get(s) == Some(&b' ') {
            s += 1;
        }
        let (x, e) = ascii::fold_digits(b, s, 0);
        (e != s && e - s <= 19 && b.len() == e + 2 && b[e] == b'u' && b[e + 1] == b's').then_some(x)
    }

    proptest::proptest! {
        /// The word read of [`padded_us`] agrees with the fold on padded values of 0 to 11
        /// digits, with stray bytes among the digits and other endings.
        #[test]
        fn padded_us_is_the_fold(
            pad in "[ ]{0,12}",
            lead in "[\\t/:a]{0,1}",
            digits in "[0-9]{0,11}",
            mid in "[ /:a\u{e9}]{0,1}",
            more in "[0-9]{0,3}",
            end in proptest::sample::select(vec!["us", "u", "us ", "s", "", "uS", "xs"]),
        ) {
            let v = format!("{pad}{lead}{digits}{mid}{more}{end}");
            proptest::prop_assert_eq!(padded_us(&v), padded_us_fold(&v), "{:?}", v);
        }
    }

    /// [`line_full`] as it was before the tag and the `<digits>us` value were read by fixed
    /// positions ([`profile`], [`padded_us`]): the reference they are checked against (its
    /// `[` lines; the rest it leaves to `line_full`).
    fn line_full_ref(whole: &str) -> Option<SblLine<'_>> {
        let t = whole
            .strip_prefix("KPI_DATA:")
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
        /// The hand-written scans are the nom grammar and str-method chains they replaced.
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
                proptest::prop_assert_eq!(has_2nd_stage(&t), has_2nd_stage_memchr(&t));
                let slow = t.split_once(" :").or_else(|| t.split_once(':')).map(|(k, v)| (k.trim(), v.trim()));
                proptest::prop_assert_eq!(kv(&t), slow, "{:?}", t);
            }
        }

        /// The every-16th-pair search finds the word at every offset, among its own bytes.
        #[test]
        fn stage2_found_at_any_offset(
            pre in "[2nd stagebotler\u{e9}x]{0,40}",
            post in "[2nd stagebotler\u{e9}x]{0,20}",
            cut in 0usize..21,
        ) {
            let word = std::str::from_utf8(STAGE2).unwrap();
            for t in [format!("{pre}{word}{post}"), format!("{pre}{}{post}", &word[..cut]), format!("{pre}{post}")] {
                proptest::prop_assert_eq!(has_2nd_stage(&t), has_2nd_stage_memchr(&t), "{:?}", t);
                proptest::prop_assert_eq!(has_2nd_stage(&t), has_2nd_stage_16(&t), "{:?}", t);
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
