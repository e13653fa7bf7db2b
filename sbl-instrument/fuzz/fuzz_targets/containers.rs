//! Board configs, appimage/RPRC, uImage, kernel headers, MLO: the first byte picks the walker.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sbl_instrument::{inspect_as, Format};

const FORMATS: &[Format] = &[
    Format::BoardcfgCombined,
    Format::Boardcfg,
    Format::Appimage,
    Format::Rprc,
    Format::UImage,
    Format::Arm64Image,
    Format::ZImage,
    Format::OmapImage,
    Format::GpImage,
    Format::Elf,
];

fuzz_target!(|data: &[u8]| {
    if let Some((&sel, rest)) = data.split_first() {
        let fmt = FORMATS[usize::from(sel) % FORMATS.len()];
        let _ = inspect_as(fmt, "fuzz.bin", rest);
    }
});
