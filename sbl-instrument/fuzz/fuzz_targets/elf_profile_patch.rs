//! ELF-based commands: profile-map, extract (ELF + dump), patch planning.
//! Input: u32 LE length of the ELF part, the ELF, then the dump.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sbl_instrument::patch::{plan, Assignment, Value};
use sbl_instrument::profile::{extract, profile_map};

fuzz_target!(|data: &[u8]| {
    if data.len() < 4 {
        return;
    }
    let n = u32::from_le_bytes([data[0], data[1], data[2], data[3]]) as usize;
    let rest = &data[4..];
    let (elf, dump) = rest.split_at(n.min(rest.len()));
    let _ = profile_map(elf);
    let _ = extract(elf, dump, 0x41c0_0000, Some(1000.0));
    let _ = extract(elf, dump, 0, None);
    let sets = [
        Assignment { symbol: "sbl_log_level".into(), value: Value::Int(3) },
        Assignment { symbol: "sblProfileLogIndx".into(), value: Value::Int(-1) },
        Assignment { symbol: "gProfileObj".into(), value: Value::Str("x".into()) },
    ];
    let _ = plan(elf, &sets);
});
