//! Reading a cycle record (`boots.jsonl` line) in the tests that check figures against the
//! board's own clocks (`labgrid_farm.rs`, `qemu_compare.rs`).

use serde_json::Value;

/// The bootstage mark `name` of cycle record `r`, µs on U-Boot's timer; panics naming the
/// record when it has none.
pub fn bootstage_mark_us(r: &Value, name: &str) -> f64 {
    r["bootstage"]
        .as_array()
        .unwrap_or_else(|| panic!("no bootstage records: {r}"))
        .iter()
        .find(|m| m["name"] == name)
        .and_then(|m| m["mark_us"].as_f64())
        .unwrap_or_else(|| panic!("no bootstage {name}: {r}"))
}
