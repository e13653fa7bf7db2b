//! Whole-file inspection: detection plus every walker reachable from it.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = sbl_instrument::inspect_bytes("fuzz.bin", data);
    let _ = sbl_instrument::inspect_bytes("board-cfg.bin", data);
});
