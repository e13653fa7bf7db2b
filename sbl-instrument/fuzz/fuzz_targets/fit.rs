//! FIT images and plain DTBs (the hand-written FDT reader).
#![no_main]
use libfuzzer_sys::fuzz_target;
use sbl_instrument::{inspect_as, Format};

fuzz_target!(|data: &[u8]| {
    let _ = inspect_as(Format::Fit, "tispl.bin", data);
    let _ = inspect_as(Format::Dtb, "x.dtb", data);
});
