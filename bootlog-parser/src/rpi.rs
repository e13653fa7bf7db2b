//! Raspberry Pi grammar: the EEPROM bootloader and the VideoCore firmware (start4.elf).

use crate::declaration::Gate;

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

/// The prefixes of the firmware's lines.
const BOOTLOADER: &str = "RPi: BOOTLOADER";
const FIRMWARE: &str = "Firmware: ";
const STARTING: &str = "Starting ";
const LOADED: &str = "Loaded '";

/// The lines [`line`] may take (see [`crate::gate`]): its prefixes, and the `Starting ` lines
/// whose firmware name follows blanks ([`may_start_firmware`]).
pub const GATE: Gate = Gate {
    prefixes: &[BOOTLOADER, FIRMWARE, LOADED, "Starting s"],
    other: Some((b"S", may_start_firmware)),
    words: 0,
};

/// Whether `t` may be a `Starting ` line [`line`] takes: `Starting ` then the `s` of
/// `start*.elf`, a byte that is no ASCII graphic (a blank before the name), or nothing.
fn may_start_firmware(t: &str) -> bool {
    t.starts_with(STARTING)
        && t.as_bytes()
            .get(STARTING.len())
            .map_or(true, |&c| c == b's' || !c.is_ascii_graphic())
}

/// The first word after the first `key` in `s`.
fn word_after<'a>(s: &'a str, key: &str) -> Option<&'a str> {
    let i = s.find(key)? + key.len();
    s[i..].split_whitespace().next()
}

/// Classifies a line (leading blanks and firmware stamps removed).
pub fn line(t: &str) -> Option<RpiLine<'_>> {
    if let Some(r) = t.strip_prefix(BOOTLOADER) {
        return Some(RpiLine::Bootloader(
            word_after(r, "VERSION:")?,
            word_after(r, "DATE:"),
        ));
    }
    if let Some(r) = t.strip_prefix(FIRMWARE) {
        return Some(RpiLine::Firmware(r.trim()));
    }
    if may_start_firmware(t) {
        let w = crate::ascii::first_word(&t[STARTING.len()..])?;
        if w.starts_with("start") && w.ends_with(".elf") {
            return Some(RpiLine::StartingFirmware(w));
        }
    }
    if let Some(r) = t.strip_prefix(LOADED) {
        let name = r.split('\'').next()?;
        if name.starts_with("kernel") || name.ends_with(".img") {
            return Some(RpiLine::LoadedKernel(name));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(
            line("Starting \u{a0}start4.elf"),
            Some(RpiLine::StartingFirmware("start4.elf"))
        );
        assert_eq!(line("Starting foo.service"), None);
        assert_eq!(
            line("Firmware: 82f3750a "),
            Some(RpiLine::Firmware("82f3750a"))
        );
    }
}
