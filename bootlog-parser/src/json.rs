//! A [`Boot`] written as `perfguide/boot-log/v1` JSON straight into a byte buffer.
//!
//! The bytes are exactly those of `serde_json::to_writer(out, boot)` (same key order, same
//! omitted fields, same number and string forms; tests compare the two on every corpus boot and
//! on a boot with every field set). It exists for speed: `perfguide parse --format json` on a
//! large multi-boot log spent a fifth of its time in serde's per-field machinery, and this
//! writer does the same job in a fraction of it. The serde derive stays the definition of the
//! format (and what reads it back).

use crate::ascii::eq_mask;
use crate::model::*;
use serde_json::ser::{CompactFormatter, Formatter};

/// Appends `b` as one JSON object.
pub fn write_boot(out: &mut Vec<u8>, b: &Boot) {
    write_boot_object(out, b, None);
}

/// Appends `b` as one JSON object with a last key `"source"` (the input it came from), as
/// `perfguide parse --format json` lists boots.
pub fn write_sourced_boot(out: &mut Vec<u8>, b: &Boot, source: &str) {
    write_boot_object(out, b, Some(source));
}

/// `,"k":`, the bytes before a key that is never the first of its object, as one literal
/// (keys are plain ASCII names: no escaping needed).
macro_rules! key {
    ($k:literal) => {
        concat!(",\"", $k, "\":").as_bytes()
    };
}

fn write_boot_object(out: &mut Vec<u8>, b: &Boot, source: Option<&str>) {
    out.extend_from_slice(b"{\"index\":");
    u64(out, b.index as u64);
    out.extend_from_slice(if b.complete {
        b",\"complete\":true,\"lines\":[" as &[u8]
    } else {
        b",\"complete\":false,\"lines\":["
    });
    u64(out, b.lines.0);
    out.push(b',');
    u64(out, b.lines.1);
    out.extend_from_slice(b"],\"stages\":");
    list(out, &b.stages, stage);
    out.extend_from_slice(key!("components"));
    out.push(b'{');
    for (i, (k, v)) in b.components.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        string(out, k);
        out.push(b':');
        string(out, v);
    }
    out.push(b'}');
    if !b.sbl_profile.is_empty() {
        out.extend_from_slice(key!("sbl_profile"));
        list(out, &b.sbl_profile, |out, p| {
            out.extend_from_slice(b"{\"run\":");
            u64(out, u64::from(p.run));
            out.extend_from_slice(key!("name"));
            string(out, &p.name);
            opt_u64(out, key!("duration_us"), p.duration_us);
            opt_u64(out, key!("timestamp_us"), p.timestamp_us);
            opt_u64(out, key!("src_line"), p.src_line.map(u64::from));
            opt_u64(out, key!("cycle"), p.cycle);
            out.push(b'}');
        });
    }
    if !b.sbl_total_us.is_empty() {
        out.extend_from_slice(key!("sbl_total_us"));
        list(out, &b.sbl_total_us, |out, v| u64(out, *v));
    }
    if !b.bootstage.is_empty() {
        out.extend_from_slice(key!("bootstage"));
        list(out, &b.bootstage, bootstage_record);
    }
    if !b.bootstage_accumulated.is_empty() {
        out.extend_from_slice(key!("bootstage_accumulated"));
        list(out, &b.bootstage_accumulated, |out, a| {
            out.extend_from_slice(b"{\"name\":");
            string(out, &a.name);
            out.extend_from_slice(key!("us"));
            u64(out, a.us);
            out.push(b'}');
        });
    }
    if !b.bootstage_reports.is_empty() {
        out.extend_from_slice(key!("bootstage_reports"));
        list(out, &b.bootstage_reports, |out, rep| {
            list(out, rep, bootstage_record);
        });
    }
    if !b.initcalls.is_empty() {
        out.extend_from_slice(key!("initcalls"));
        list(out, &b.initcalls, |out, c| {
            out.extend_from_slice(b"{\"name\":");
            string(out, &c.name);
            out.extend_from_slice(key!("duration_us"));
            u64(out, c.duration_us);
            out.extend_from_slice(key!("ret"));
            i64(out, c.ret);
            opt_f64(out, key!("ts_s"), c.ts_s);
            out.push(b'}');
        });
    }
    if let Some(k) = &b.kernel {
        out.extend_from_slice(key!("kernel"));
        let mut o = Obj::new(out);
        o.opt_str(key!("version"), k.version.as_deref());
        o.opt_f64(key!("first_ts_s"), k.first_ts_s);
        o.opt_f64(key!("init_ts_s"), k.init_ts_s);
        o.opt_f64(key!("last_ts_s"), k.last_ts_s);
        o.opt_str(key!("cmdline"), k.cmdline.as_deref());
        o.opt_str(key!("machine"), k.machine.as_deref());
        out.push(b'}');
    }
    if let Some(s) = &b.systemd {
        out.extend_from_slice(key!("systemd"));
        systemd(out, s);
    }
    opt_str(out, key!("login_prompt"), b.login_prompt.as_deref());
    if !b.marks.is_empty() {
        out.extend_from_slice(key!("marks"));
        list(out, &b.marks, |out, m| {
            out.extend_from_slice(b"{\"kind\":");
            string(out, &m.kind);
            out.extend_from_slice(key!("line"));
            u64(out, m.line);
            opt_f64(out, key!("host_s"), m.host_s);
            opt_f64(out, key!("target_s"), m.target_s);
            out.push(b'}');
        });
    }
    if !b.errors.is_empty() {
        out.extend_from_slice(key!("errors"));
        list(out, &b.errors, |out, e| string(out, e));
    }
    opt_f64(out, key!("printk_offset_s"), b.printk_offset_s);
    out.extend_from_slice(key!("warnings"));
    list(out, &b.warnings, |out, e| string(out, e));
    opt_str(out, key!("source"), source);
    out.push(b'}');
}

fn stage(out: &mut Vec<u8>, s: &Stage) {
    // Stage ids and clock names are plain ASCII: written as they are.
    out.extend_from_slice(b"{\"id\":\"");
    out.extend_from_slice(s.id.as_str().as_bytes());
    out.push(b'"');
    opt_f64(out, key!("start_s"), s.start_s);
    opt_f64(out, key!("end_s"), s.end_s);
    opt_f64(out, key!("duration_s"), s.duration_s);
    out.extend_from_slice(match s.clock {
        Clock::Host => b",\"clock\":\"host\"" as &[u8],
        Clock::Target => b",\"clock\":\"target\"",
        Clock::Derived => b",\"clock\":\"derived\"",
    });
    opt_u64(out, key!("line"), s.line);
    opt_u64(out, key!("console_bytes"), s.console_bytes);
    out.push(b'}');
}

fn bootstage_record(out: &mut Vec<u8>, r: &BootstageRecord) {
    out.extend_from_slice(b"{\"name\":");
    string(out, &r.name);
    out.extend_from_slice(key!("mark_us"));
    u64(out, r.mark_us);
    out.extend_from_slice(key!("elapsed_us"));
    u64(out, r.elapsed_us);
    out.push(b'}');
}

fn systemd(out: &mut Vec<u8>, s: &SystemdInfo) {
    let unit = |out: &mut Vec<u8>, u: &SystemdUnit| {
        out.extend_from_slice(b"{\"name\":");
        string(out, &u.name);
        opt_f64(out, key!("duration_s"), u.duration_s);
        opt_f64(out, key!("at_s"), u.at_s);
        out.push(b'}');
    };
    let mut o = Obj::new(out);
    o.opt_f64(key!("firmware_s"), s.firmware_s);
    o.opt_f64(key!("loader_s"), s.loader_s);
    o.opt_f64(key!("kernel_s"), s.kernel_s);
    o.opt_f64(key!("initrd_s"), s.initrd_s);
    o.opt_f64(key!("userspace_s"), s.userspace_s);
    o.opt_f64(key!("total_s"), s.total_s);
    if let Some((name, v)) = &s.target_reached {
        o.key(key!("target_reached"));
        o.out.push(b'[');
        string(o.out, name);
        o.out.push(b',');
        f64_value(o.out, *v);
        o.out.push(b']');
    }
    if !s.blame.is_empty() {
        o.key(key!("blame"));
        list(o.out, &s.blame, unit);
    }
    if !s.critical_chain.is_empty() {
        o.key(key!("critical_chain"));
        list(o.out, &s.critical_chain, unit);
    }
    if !s.failed.is_empty() {
        o.key(key!("failed"));
        list(o.out, &s.failed, |out, f| string(out, f));
    }
    o.key(key!("ok_lines"));
    u64(o.out, s.ok_lines);
    out.push(b'}');
}

/// An object whose first key may be absent (kernel and systemd facts are all optional):
/// tracks whether the next key is the first, which goes without its comma.
struct Obj<'a> {
    out: &'a mut Vec<u8>,
    first: bool,
}

impl<'a> Obj<'a> {
    fn new(out: &'a mut Vec<u8>) -> Self {
        out.push(b'{');
        Obj { out, first: true }
    }

    /// Writes a [`key!`] literal, without its comma when it is the first key.
    fn key(&mut self, k: &[u8]) {
        let k = if std::mem::take(&mut self.first) {
            &k[1..]
        } else {
            k
        };
        self.out.extend_from_slice(k);
    }

    fn opt_f64(&mut self, k: &[u8], v: Option<f64>) {
        if let Some(v) = v {
            self.key(k);
            f64_value(self.out, v);
        }
    }

    fn opt_str(&mut self, k: &[u8], v: Option<&str>) {
        if let Some(v) = v {
            self.key(k);
            string(self.out, v);
        }
    }
}

/// Writes `v` as serde_json does (itoa).
#[inline]
fn u64(out: &mut Vec<u8>, v: u64) {
    // One digit (a zero figure, a short duration) without a call into itoa.
    if v < 10 {
        out.push(b'0' + v as u8);
    } else {
        CompactFormatter.write_u64(out, v).unwrap_or(());
    }
}

/// Writes `v` as serde_json does (itoa); mostly 0 (initcall return codes).
#[inline]
fn i64(out: &mut Vec<u8>, v: i64) {
    if (0..10).contains(&v) {
        out.push(b'0' + v as u8);
    } else {
        CompactFormatter.write_i64(out, v).unwrap_or(());
    }
}

/// A [`key!`] and its value when there is one.
#[inline]
fn opt_u64(out: &mut Vec<u8>, k: &[u8], v: Option<u64>) {
    if let Some(v) = v {
        out.extend_from_slice(k);
        u64(out, v);
    }
}

/// A [`key!`] and its value when there is one.
#[inline]
fn opt_f64(out: &mut Vec<u8>, k: &[u8], v: Option<f64>) {
    if let Some(v) = v {
        out.extend_from_slice(k);
        f64_value(out, v);
    }
}

/// A [`key!`] and its value when there is one.
#[inline]
fn opt_str(out: &mut Vec<u8>, k: &[u8], v: Option<&str>) {
    if let Some(v) = v {
        out.extend_from_slice(k);
        string(out, v);
    }
}

/// `[a,b,...]`: every item followed by a comma, the last comma then turned into the `]`, so
/// `each` has one call site (and inlines) and the loop no first-item branch.
fn list<T>(out: &mut Vec<u8>, items: &[T], mut each: impl FnMut(&mut Vec<u8>, &T)) {
    out.push(b'[');
    for it in items {
        each(out, it);
        out.push(b',');
    }
    match out.last_mut() {
        Some(last) if !items.is_empty() => *last = b']',
        _ => out.push(b']'),
    }
}

/// A number as serde_json writes an f64: shortest round-trip form, `null` when not finite.
fn f64_value(out: &mut Vec<u8>, v: f64) {
    if micros(out, v) {
        return;
    }
    if v.is_finite() {
        CompactFormatter.write_f64(out, v).unwrap_or(());
    } else {
        out.extend_from_slice(b"null");
    }
}

/// Writes `v` as serde_json would when it is the double nearest k/10^6 for an integer k and
/// 1e-5 <= |v| < 2^33 (most figures are seconds rounded to microseconds), else writes
/// nothing and answers false. Cheaper than the general shortest-digits search.
///
/// Why the digits of k are serde_json's (zmij's) shortest round-trip form: below 2^33 a
/// double's spacing is at most 2^-20 < 10^-6, so k/10^6 is the only multiple of 10^-6 that
/// rounds to `v`; a decimal with fewer significant digits but a digit past the sixth place
/// would have to start a place lower, i.e. lie at least 0.9 * 10^-5 below v >= 10^-5, too far
/// to round to it. And from 10^-5 up to 10^16 zmij writes fixed notation, `12.0` for integers.
#[inline]
fn micros(out: &mut Vec<u8>, v: f64) -> bool {
    let a = v.abs();
    // Also false for NaN.
    if !(1e-5..8_589_934_592.0).contains(&a) {
        return false;
    }
    // Truncating a + half: any error is caught by the exact check below. Signed, as x86-64
    // converts i64 to and from f64 in one instruction and u64 in several.
    let k = (a * 1e6 + 0.5) as i64;
    // k < 2^53 is exact and the division rounds correctly: equal iff v is k/10^6's double.
    if k as f64 / 1e6 != a {
        return false;
    }
    let k = k as u64;
    if v < 0.0 {
        out.push(b'-');
    }
    let int = k / 1_000_000;
    let frac = (k % 1_000_000) as u32;
    // ".dddddd" in the low seven bytes of a word, in pairs from a table as itoa does.
    let (hi, lo) = (frac / 10_000, frac % 10_000);
    let pair = |p: u32| &PAIRS[2 * p as usize..2 * p as usize + 2];
    let mut b = [b'.', 0, 0, 0, 0, 0, 0, 0];
    b[1..3].copy_from_slice(pair(hi));
    b[3..5].copy_from_slice(pair(lo / 100));
    b[5..7].copy_from_slice(pair(lo % 100));
    let w = u64::from_le_bytes(b);
    // Digits kept: up to the last one that is not '0', at least one ("12.0").
    let nonzero = ((w >> 8) ^ 0x3030_3030_3030) & 0xffff_ffff_ffff;
    let len = 1 + ((71 - nonzero.leading_zeros() as usize) / 8).max(1);
    // Whole words written and the tail cut off: no variable-length copy.
    out.reserve(16);
    if int < 10 {
        out.extend_from_slice(&((w << 8) | (b'0' as u64 + int)).to_le_bytes());
        out.truncate(out.len() - 7 + len);
    } else {
        u64(out, int);
        out.extend_from_slice(&w.to_le_bytes());
        out.truncate(out.len() - 8 + len);
    }
    true
}

/// "00" to "99": two digits at a time, as itoa writes them.
const PAIRS: &[u8; 200] = b"\
0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// A JSON string with serde_json's escaping: `"` and `\` backslashed, control bytes as `\b`,
/// `\t`, `\n`, `\f`, `\r` or `\u00XX`, everything else (DEL, non-ASCII) as is.
#[inline]
fn string(out: &mut Vec<u8>, s: &str) {
    let b = s.as_bytes();
    if needs_escape(b) {
        return escaped(out, b);
    }
    out.reserve(b.len() + 2);
    out.push(b'"');
    out.extend_from_slice(b);
    out.push(b'"');
}

/// [`string`] for text that may need escapes: kept out of line, so the common plain-text path
/// inlines into its callers small.
#[cold]
#[inline(never)]
fn escaped(out: &mut Vec<u8>, b: &[u8]) {
    out.push(b'"');
    let mut from = 0;
    for (i, &c) in b.iter().enumerate() {
        if c >= 0x20 && c != b'"' && c != b'\\' {
            continue;
        }
        out.extend_from_slice(&b[from..i]);
        match c {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            0x08 => out.extend_from_slice(b"\\b"),
            b'\t' => out.extend_from_slice(b"\\t"),
            b'\n' => out.extend_from_slice(b"\\n"),
            0x0c => out.extend_from_slice(b"\\f"),
            b'\r' => out.extend_from_slice(b"\\r"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.extend_from_slice(b"\\u00");
                out.push(HEX[usize::from(c >> 4)]);
                out.push(HEX[usize::from(c & 0xf)]);
            }
        }
        from = i + 1;
    }
    out.extend_from_slice(&b[from..]);
    out.push(b'"');
}

/// Whether `b` may hold a byte [`string`] escapes (a control byte, `"` or `\\`); it answers
/// yes for non-ASCII text too (the slow path then copies it unchanged).
#[inline]
fn needs_escape(b: &[u8]) -> bool {
    let n = b.len();
    if n >= 16 {
        // 0x20 is not below 0x20: no control byte is allowed through.
        return crate::ascii::any_special(b, 0x20, [b'"', b'\\']);
    }
    // Short names (mark kinds, units, initcalls): two overlapping words, tested 8 bytes at
    // a time. Bytes past a short word read as spaces, which need no escape.
    if n >= 8 {
        return word_needs_escape(word(&b[..8], 8)) || word_needs_escape(word(&b[n - 8..], 8));
    }
    if n >= 4 {
        return word_needs_escape(word(&b[..4], 4)) || word_needs_escape(word(&b[n - 4..], 4));
    }
    b.iter().any(|&c| c < 0x20 || c == b'"' || c == b'\\')
}

/// The first `len` (4 or 8) bytes of `b` as a little-endian word, spaces after them.
#[inline]
fn word(b: &[u8], len: usize) -> u64 {
    let mut a = [b' '; 8];
    a[..len].copy_from_slice(&b[..len]);
    u64::from_le_bytes(a)
}

/// Whether a byte of `w` is below 0x20, a `"` or a `\\` (SWAR: a byte's borrow only spills
/// into the bytes above a hit, so "any" is exact).
#[inline]
fn word_needs_escape(w: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let below = w.wrapping_sub(ONES * 0x20) & !w;
    (below & HIGH) | eq_mask(w, b'"') | eq_mask(w, b'\\') != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(b: &Boot) {
        let mut mine = Vec::new();
        write_boot(&mut mine, b);
        let serde = serde_json::to_vec(b).expect("serialise");
        assert_eq!(
            String::from_utf8_lossy(&mine),
            String::from_utf8_lossy(&serde)
        );
    }

    /// serde_json's text for `v`.
    fn serde_f64(v: f64) -> String {
        serde_json::to_string(&v).expect("serialise")
    }

    /// Checks [`micros`] against serde_json for `v`: it must agree or decline.
    fn micros_agrees(v: f64) -> bool {
        let mut mine = Vec::new();
        let took = micros(&mut mine, v);
        if took {
            assert_eq!(String::from_utf8_lossy(&mine), serde_f64(v), "{v:e}");
        }
        took
    }

    #[test]
    fn micros_writes_serde_digits() {
        // Every k/10^6 below 10 (k from 0 to 10^7), and its negation.
        for k in 0..10_000_001u64 {
            let v = k as f64 / 1e6;
            let took = micros_agrees(v);
            assert_eq!(took, k >= 10, "{k}");
            micros_agrees(-v);
        }
        // Random k up to 10^12 and up to the 2^33 limit (a fixed xorshift: no new dependency).
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..2_000_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let k = x % 1_000_000_000_000;
            assert!(micros_agrees(k as f64 / 1e6) || k < 10, "{k}");
            let k = x % 8_589_934_592_000_000;
            micros_agrees(k as f64 / 1e6);
            micros_agrees(f64::from_bits(x));
        }
        // Around the edges of the accepted range, and common values that must not be taken.
        for v in [
            1e-5,
            1e-6,
            1.5e-5,
            8_589_934_591.999999,
            8_589_934_592.0,
            0.1 + 0.2,
            1e300,
        ] {
            micros_agrees(v);
            micros_agrees(-v);
            micros_agrees(f64::from_bits(v.to_bits() + 1));
            micros_agrees(f64::from_bits(v.to_bits() - 1));
        }
        assert!(!micros_agrees(0.1 + 0.2));
        assert!(micros_agrees(12.0) && micros_agrees(0.000_123) && micros_agrees(93.629));
    }

    proptest::proptest! {
        #[test]
        fn micros_agrees_or_declines(v in proptest::num::f64::ANY) {
            micros_agrees(v);
        }

        #[test]
        fn micros_agrees_on_micro_values(k in 0u64..8_589_934_592_000_000, neg: bool) {
            let v = k as f64 / 1e6;
            micros_agrees(if neg { -v } else { v });
        }
    }

    #[test]
    fn short_strings_needing_escapes_are_found() {
        let check = |b: &[u8]| {
            let rule = b.iter().any(|&c| c < 0x20 || c == b'"' || c == b'\\');
            // The long path may also answer yes for non-ASCII text.
            if b.len() < 16 || b.is_ascii() {
                assert_eq!(needs_escape(b), rule, "{b:?}");
            } else if rule {
                assert!(needs_escape(b), "{b:?}");
            }
        };
        for n in 0..20 {
            for filler in [b'a', b' ', 0x7f, 0x80, 0xff, b'!', b'#', b'[', b']'] {
                let plain = vec![filler; n];
                check(&plain);
                for at in 0..n {
                    for c in (0u8..0x21).chain([b'"', b'\\', b'!', b'#', 0x7f, 0x80, 0xdc]) {
                        let mut b = plain.clone();
                        b[at] = c;
                        check(&b);
                    }
                }
            }
        }
    }

    #[test]
    fn every_field_set_gives_serde_bytes() {
        let nasty = "q\"b\\s/\u{1}\u{8}\t\n\u{c}\r\u{1f}\u{7f} é \u{2028}".to_string();
        let unit = |n: &str| SystemdUnit {
            name: n.to_string(),
            duration_s: Some(0.1 + 0.2),
            at_s: Some(1e-7),
        };
        let rec = BootstageRecord {
            name: nasty.clone(),
            mark_us: u64::MAX,
            elapsed_us: 0,
        };
        let mut b = Boot {
            index: 3,
            complete: true,
            lines: (1, 99),
            stages: StageId::ALL
                .iter()
                .map(|&id| Stage {
                    id,
                    start_s: Some(-0.0),
                    end_s: Some(f64::NAN),
                    duration_s: Some(1e300),
                    clock: Clock::Derived,
                    line: Some(7),
                    console_bytes: Some(12345),
                })
                .collect(),
            ..Boot::default()
        };
        b.components.insert(nasty.clone(), "v\u{0}".into());
        b.components.insert("kernel".into(), "6.1".into());
        b.sbl_profile.push(SblPoint {
            run: 2,
            name: nasty.clone(),
            duration_us: Some(5),
            timestamp_us: Some(6),
            src_line: Some(7),
            cycle: Some(8),
        });
        b.sbl_total_us = vec![1, 2];
        b.bootstage = vec![rec.clone()];
        b.bootstage_accumulated = vec![BootstageAccum {
            name: "dm_r".into(),
            us: 3,
        }];
        b.bootstage_reports = vec![vec![rec.clone()], vec![]];
        b.initcalls.push(Initcall {
            name: "f".into(),
            duration_us: 9,
            ret: -19,
            ts_s: Some(f64::INFINITY),
        });
        // Returns on both sides of the one-digit shortcut.
        for ret in [0, 9, 10, -1, i64::MIN, i64::MAX] {
            b.initcalls.push(Initcall {
                name: "g".into(),
                duration_us: 0,
                ret,
                ts_s: Some(0.25),
            });
        }
        b.kernel = Some(KernelInfo {
            version: Some("6.6".into()),
            first_ts_s: Some(0.0),
            init_ts_s: Some(2.5),
            last_ts_s: Some(123456.789012),
            cmdline: Some(nasty.clone()),
            machine: Some("m".into()),
        });
        b.systemd = Some(SystemdInfo {
            firmware_s: Some(1.0),
            loader_s: Some(2.0),
            kernel_s: Some(3.0),
            initrd_s: Some(4.0),
            userspace_s: Some(5.0),
            total_s: Some(15.0),
            target_reached: Some(("graphical.target".into(), 93.629)),
            blame: vec![unit("a.service")],
            critical_chain: vec![unit("b.target")],
            failed: vec![nasty.clone()],
            ok_lines: 42,
        });
        b.login_prompt = Some("login:".into());
        b.marks.push(Mark {
            kind: "ready".into(),
            line: 5,
            host_s: Some(0.000001),
            target_s: Some(f64::NEG_INFINITY),
        });
        b.errors.push(nasty.clone());
        b.printk_offset_s = Some(-1.5e-5);
        b.warnings.push(nasty);
        same(&b);
        // The sourced form is the same object with `"source"` last.
        let mut plain = Vec::new();
        write_boot(&mut plain, &b);
        let mut sourced = Vec::new();
        write_sourced_boot(&mut sourced, &b, "logs/a\"b.log");
        plain.pop();
        plain.extend_from_slice(b",\"source\":\"logs/a\\\"b.log\"}");
        assert_eq!(
            String::from_utf8_lossy(&sourced),
            String::from_utf8_lossy(&plain)
        );
        // And with every optional part absent.
        same(&Boot::default());
        b.systemd = Some(SystemdInfo::default());
        b.kernel = Some(KernelInfo::default());
        same(&b);
    }
}
