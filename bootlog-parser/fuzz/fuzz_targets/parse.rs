//! Arbitrary bytes through the streaming `Parser`, fed in arbitrary chunk splits, and through
//! `parse_bytes`: no panic, every boot serialises with serde_json (and `json::write_boot` gives
//! the same bytes), and the streamed boots equal the one-shot ones (line hygiene and boot
//! splitting must not depend on how reads chunk input). The streamed boots are handed back
//! with `Parser::recycle` as `perfguide parse` does, so a recycled boot's vectors and strings
//! must never leak into a later boot.
//!
//! Input layout: byte 0 picks a board profile, byte 1 seeds the chunk sizes, the rest is the log.
#![no_main]

use bootlog_parser::board::BUILTIN;
use bootlog_parser::{parse_bytes, BoardProfile, Boot, Parser};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

/// The built-in profiles and the generic one, loaded once (TOML and regex checks are not what
/// is being fuzzed).
fn profiles() -> &'static [BoardProfile] {
    static P: OnceLock<Vec<BoardProfile>> = OnceLock::new();
    P.get_or_init(|| {
        let mut v: Vec<BoardProfile> = BUILTIN
            .iter()
            .map(|(name, _)| BoardProfile::builtin(name).expect("built-in profile"))
            .collect();
        v.push(BoardProfile::generic());
        v
    })
}

/// Each boot as serde_json writes it; the fast writer `perfguide parse` uses must give the
/// same bytes.
fn json(boots: &[Boot]) -> Vec<String> {
    boots
        .iter()
        .map(|b| {
            let s = serde_json::to_string(b).expect("a Boot serialises");
            let mut fast = Vec::new();
            bootlog_parser::json::write_boot(&mut fast, b);
            assert_eq!(fast, s.as_bytes(), "json::write_boot differs from serde_json");
            s
        })
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let (pick, seed, log) = match data {
        [p, s, rest @ ..] => (*p, *s, rest),
        _ => (0, 0, data),
    };
    let all = profiles();
    let profile = &all[pick as usize % all.len()];

    let whole = parse_bytes(log, profile);
    let whole_json = json(&whole);

    // Chunk sizes from a small xorshift seeded by `seed`: 0-byte feeds, 1-byte feeds (a CR
    // and its LF in separate reads) and larger reads all occur.
    let mut p = Parser::new(profile);
    let mut streamed_json = Vec::new();
    let mut x = u32::from(seed) | 0x100;
    let mut rest = log;
    while !rest.is_empty() {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        let n = match x % 4 {
            0 => 0,
            1 => 1,
            2 => (x >> 8) as usize % 16,
            _ => (x >> 8) as usize % 4096,
        }
        .min(rest.len());
        let (chunk, tail) = rest.split_at(n);
        p.feed(chunk);
        let done: Vec<Boot> = p.take_boots().collect();
        for b in done {
            streamed_json.extend(json(std::slice::from_ref(&b)));
            p.recycle(b);
        }
        rest = tail;
    }
    streamed_json.extend(json(&p.finish()));

    assert_eq!(whole_json, streamed_json, "chunking changed the result");
});
