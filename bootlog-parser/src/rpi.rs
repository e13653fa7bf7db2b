//! Raspberry Pi grammar: the EEPROM bootloader and the VideoCore firmware (start4.elf).

use crate::gate::declaration::Gate;

/// A Raspberry Pi firmware line the timeline cares about.
#[derive(Debug, Clone, PartialEq)]
pub enum RpiLine<'a> {
    /// `RPi: BOOTLOADER release VERSION:8ba17717 DATE: 2023/01/11 ...`: version and date.
    Bootloader(&'a str, Option<&'a str>),
    /// `Firmware: 82f3750a... Mar 17 2023 10:50:39`.
    Firmware(&'a str),
    /// `Starting start4.elf @ 0xfec00200 partition 0`.
    StartingFirmware(&'a str),
    /// `Loaded 'kernel8.img' to 0x80000 size 0x7d6bd0`.
    LoadedKernel(&'a str),
}

/// The lines [`line`] may take (see [`crate::gate`]): its prefixes, and the `Starting ` lines
/// whose firmware name follows blanks ([`may_start_firmware`]).
pub const GATE: Gate = Gate {
    prefixes: &["RPi: BOOTLOADER", "Firmware: ", "Loaded '", "Starting s"],
    other: Some((b"S", may_start_firmware)),
    words: 0,
};

/// Whether `t` may be a `Starting ` line [`line`] takes: `Starting ` then the `s` of
/// `start*.elf`, a byte that is no ASCII graphic (a blank before the name), or nothing.
fn may_start_firmware(t: &str) -> bool {
    t.starts_with("Starting ")
        && t.as_bytes()
            .get(9)
            .map_or(true, |&c| c == b's' || !c.is_ascii_graphic())
}

/// The first word after the first `key` in `s`: the key found by a `memchr` for its first
/// byte and a compare (std's `find` built a two-way searcher for each of the two keys a line).
/// `key` is ASCII and not empty.
fn word_after<'a>(s: &'a str, key: &str) -> Option<&'a str> {
    let (b, k) = (s.as_bytes(), key.as_bytes());
    let i = memchr::memchr_iter(k[0], b).find(|&i| b[i..].starts_with(k))? + k.len();
    // After the ASCII key: a char boundary.
    crate::ascii::first_word(&s[i..])
}

/// Classifies a line (leading blanks and firmware stamps removed). `always`: left to itself
/// the compiler kept the two-byte check below out of line, a call on each gated line.
#[inline(always)]
pub fn line(t: &str) -> Option<RpiLine<'_>> {
    // The prefixes' first two bytes: other lines are turned away without a call.
    if !matches!(
        t.as_bytes().get(..2),
        Some([b'R', b'P'] | [b'F', b'i'] | [b'S', b't'] | [b'L', b'o'])
    ) {
        return None;
    }
    // Most `Starting ...` lines: no match, said without a call.
    if t.as_bytes()[0] == b'S' && !may_start_firmware(t) {
        return None;
    }
    line_full(t)
}

/// [`line`] without the two-byte check.
fn line_full(t: &str) -> Option<RpiLine<'_>> {
    // The four prefixes start with four different bytes: one look picks the only one that
    // may match. (The chain of `strip_prefix` it replaced is kept as `line_full_ref`.)
    match t.as_bytes().first()? {
        b'R' => {
            let r = t.strip_prefix("RPi: BOOTLOADER")?;
            Some(RpiLine::Bootloader(
                word_after(r, "VERSION:")?,
                word_after(r, "DATE:"),
            ))
        }
        b'F' => t
            .strip_prefix("Firmware: ")
            .map(|r| RpiLine::Firmware(crate::ascii::trim_ws(r))),
        b'S' => {
            // `start*.elf` as the first word: most `Starting ...` lines are turned away by
            // its first five bytes before the word's end is looked for.
            let r = crate::ascii::trim_start_ws(t.strip_prefix("Starting ")?);
            if !r.starts_with("start") {
                return None;
            }
            let w = crate::ascii::first_word(r)?;
            w.ends_with(".elf").then_some(RpiLine::StartingFirmware(w))
        }
        b'L' => {
            let r = t.strip_prefix("Loaded '")?;
            let name = r.split('\'').next()?;
            (name.starts_with("kernel") || name.ends_with(".img"))
                .then_some(RpiLine::LoadedKernel(name))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `find` and `split_whitespace` search [`word_after`] stands in for.
    fn word_after_find<'a>(s: &'a str, key: &str) -> Option<&'a str> {
        let i = s.find(key)? + key.len();
        s[i..].split_whitespace().next()
    }

    /// The `strip_prefix` chain [`line_full`] stands in for (with the std searches).
    fn line_full_ref(t: &str) -> Option<RpiLine<'_>> {
        if let Some(r) = t.strip_prefix("RPi: BOOTLOADER") {
            return Some(RpiLine::Bootloader(
                word_after_find(r, "VERSION:")?,
                word_after_find(r, "DATE:"),
            ));
        }
        if let Some(r) = t.strip_prefix("Firmware: ") {
            return Some(RpiLine::Firmware(r.trim()));
        }
        if let Some(r) = t.strip_prefix("Starting ") {
            let w = crate::ascii::first_word(r)?;
            if w.starts_with("start") && w.ends_with(".elf") {
                return Some(RpiLine::StartingFirmware(w));
            }
        }
        if let Some(r) = t.strip_prefix("Loaded '") {
            let name = r.split('\'').next()?;
            if name.starts_with("kernel") || name.ends_with(".img") {
                return Some(RpiLine::LoadedKernel(name));
            }
        }
        None
    }

    proptest::proptest! {
        /// The two-byte check turns away no line the grammar matches.
        #[test]
        fn two_byte_check_keeps_every_match(
            a in proptest::sample::select(b"RPFiStLox ".to_vec()),
            b in proptest::sample::select(b"RPFiStLox ".to_vec()),
            rest in proptest::sample::select(vec![
                "i: BOOTLOADER VERSION:1 DATE: 2", "rmware: x", "arting start4.elf", "aded 'kernel8.img'", "", "x",
            ]),
        ) {
            let t = format!("{}{}{rest}", a as char, b as char);
            proptest::prop_assert_eq!(line(&t), line_full(&t), "{:?}", t);
            proptest::prop_assert_eq!(line_full(&t), line_full_ref(&t), "{:?}", t);
        }
    }

    proptest::proptest! {
        /// The first-byte dispatch is the `strip_prefix` chain on lines made of the grammar's
        /// own words and blanks (Unicode ones too).
        #[test]
        fn dispatch_is_the_prefix_chain(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "Starting ", "start", "start4.elf", ".elf", "elf", " ", "\t", "\u{a0}", "Disk", "Loaded '",
                "kernel", ".img", "'", "Firmware: ", "RPi: BOOTLOADER", "VERSION:", "DATE:", "x", "S",
                "V", "D", "VERSION", "DATE: 2023/01/11",
            ]), 0..8),
        ) {
            let t = parts.concat();
            proptest::prop_assert_eq!(line(&t), line_full_ref(&t), "{:?}", t);
        }
    }

    #[test]
    fn eeprom_and_firmware() {
        assert_eq!(
            line("RPi: BOOTLOADER release VERSION:8ba17717 DATE: 2023/01/11 TIME: 17:40:52"),
            Some(RpiLine::Bootloader("8ba17717", Some("2023/01/11")))
        );
        assert_eq!(
            line("Starting start4.elf @ 0xfec00200 partition 0"),
            Some(RpiLine::StartingFirmware("start4.elf"))
        );
        assert_eq!(
            line("Loaded 'kernel8.img' to 0x80000 size 0x7d6bd0"),
            Some(RpiLine::LoadedKernel("kernel8.img"))
        );
    }
}
