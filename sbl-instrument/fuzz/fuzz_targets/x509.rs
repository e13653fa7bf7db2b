//! TI X.509 ROM images, walked without detection.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sbl_instrument::{inspect_as, Format};

fuzz_target!(|data: &[u8]| {
    let _ = inspect_as(Format::TiX509, "tiboot3.bin", data);
});
