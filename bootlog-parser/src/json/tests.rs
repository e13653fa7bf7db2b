//! The JSON writer against serde's bytes, and its byte paths against plain references.

use super::*;

/// The escaping writer through `Vec`, the reference for [`put_escaped`].
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

fn same(b: &Boot) {
    let mut mine = Vec::new();
    write_boot(&mut mine, b);
    let serde = serde_json::to_vec(b).expect("serialise");
    assert_eq!(
        String::from_utf8_lossy(&mine),
        String::from_utf8_lossy(&serde)
    );
    // Both compiled copies of the writer, whichever `write_boot` took.
    let mut plain = Vec::new();
    write_boot_object_plain(&mut plain, b, b"}");
    assert_eq!(plain, serde);
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::avx2_bmi_lzcnt() {
        let mut vex = Vec::new();
        // SAFETY: the CPU has the features, just checked.
        unsafe { write_boot_object_avx2(&mut vex, b, b"}") };
        assert_eq!(vex, serde);
    }
}

/// serde_json's text for `v`.
fn serde_f64(v: f64) -> String {
    serde_json::to_string(&v).expect("serialise")
}

/// What `f` writes through a cursor on a vector holding `pre` (so growth and offsets
/// other than zero are exercised), without `pre`.
fn through_w(pre: &[u8], cap: usize, f: impl FnOnce(&mut W)) -> Vec<u8> {
    let mut v = Vec::with_capacity(cap);
    v.extend_from_slice(pre);
    let mut w = W::new(&mut v);
    f(&mut w);
    w.finish();
    assert_eq!(&v[..pre.len()], pre);
    v.split_off(pre.len())
}

/// Checks [`W::micros`] against serde_json for `v`: it must agree or decline.
fn micros_agrees(v: f64) -> bool {
    let mut took = false;
    let mine = through_w(b"", 0, |w| {
        w.room(F64_ROOM);
        // SAFETY: room for F64_ROOM bytes just made.
        took = unsafe { w.micros(v) };
    });
    if took {
        assert_eq!(String::from_utf8_lossy(&mine), serde_f64(v), "{v:e}");
    } else {
        assert!(mine.is_empty());
    }
    // And the whole f64 writer (zero, slow path and all), after a key.
    let keyed = through_w(b"", 0, |w| fields!(w; key_f64(key!("v"), v)));
    assert_eq!(
        String::from_utf8_lossy(&keyed),
        format!(",\"v\":{}", serde_f64(v))
    );
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

/// [`W::micros`] takes magnitudes from 1e-5 up to below 2^33 and declines the rest.
#[test]
fn micros_bounds() {
    for v in [1e-5, -1e-5, 8_589_934_591.75, -8_589_934_591.5] {
        assert!(micros_agrees(v), "{v:e}");
    }
    let below = f64::from_bits(1e-5f64.to_bits() - 1);
    for v in [
        8_589_934_592.0,
        -8_589_934_592.0,
        1e13,
        below,
        -below,
        0.0,
        -0.0,
        5e-324,
        f64::NAN,
        -f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
    ] {
        assert!(!micros_agrees(v), "{v:e}");
    }
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

/// [`put_escaped`] as it was, a byte at a time: the reference for its 16-byte runs.
///
/// # Safety
/// As [`put_escaped`].
unsafe fn put_escaped_bytewise(mut p: *mut u8, b: &[u8]) -> *mut u8 {
    *p = b'"';
    p = p.add(1);
    for &c in b {
        p = put_escaped_byte(p, c);
    }
    *p = b'"';
    p.add(1)
}

proptest::proptest! {
    /// Strings of plain bytes and bytes that need escapes, across 16-byte runs, written
    /// as the byte-at-a-time writer writes them, into exactly the room promised.
    #[test]
    fn put_escaped_is_bytewise(
        b in proptest::collection::vec(
            proptest::prop_oneof![
                4 => proptest::sample::select(b"abcdefgh-_.x2 ".to_vec()),
                1 => proptest::sample::select(vec![0u8, 0x08, b'\t', b'\n', 0x0c, b'\r', 0x1f, b'"', b'\\', 0x20, 0x7f, 0x80, 0xff]),
            ],
            0..80,
        ),
    ) {
        let room = 6 * b.len() + 2;
        let mut fast = vec![0u8; room];
        let mut slow = vec![0u8; room];
        // SAFETY: both buffers hold the longest escaped form.
        let (nf, ns) = unsafe {
            (
                put_escaped(fast.as_mut_ptr(), &b).offset_from(fast.as_ptr()) as usize,
                put_escaped_bytewise(slow.as_mut_ptr(), &b).offset_from(slow.as_ptr()) as usize,
            )
        };
        proptest::prop_assert_eq!(&fast[..nf], &slow[..ns]);
    }
}

/// The writer this one replaced, kept as a reference: `needs_escape` on the whole string,
/// then a plain copy or [`escaped`].
fn old_string(out: &mut Vec<u8>, s: &str) {
    let b = s.as_bytes();
    if b.iter().any(|&c| c < 0x20 || c == b'"' || c == b'\\') {
        return escaped(out, b);
    }
    out.push(b'"');
    out.extend_from_slice(b);
    out.push(b'"');
}

/// Checks [`W::put_str`] on `s` (alone and after a key) against serde_json and the old
/// writer, at a few starting offsets and capacities.
fn string_agrees(s: &str) {
    let serde = serde_json::to_string(s).expect("serialise");
    let mut old = Vec::new();
    old_string(&mut old, s);
    assert_eq!(String::from_utf8_lossy(&old), serde);
    for (pre, cap) in [
        (&b""[..], 0),
        (b"x", 3),
        (b"[1,2,", 64),
        (b"abcdefghijklmnopq", 17),
    ] {
        let mine = through_w(pre, cap, |w| fields!(w; str(s)));
        assert_eq!(String::from_utf8_lossy(&mine), serde, "{s:?}");
        let keyed = through_w(pre, cap, |w| fields!(w; lit(key!("k")), str(s)));
        assert_eq!(String::from_utf8_lossy(&keyed), format!(",\"k\":{serde}"));
        // Fields after it keep their room when the string's escapes make theirs.
        let tailed = through_w(
            pre,
            cap,
            |w| fields!(w; str(s), str(s), key_u64(key!("n"), u64::MAX), lit(b"}")),
        );
        assert_eq!(
            String::from_utf8_lossy(&tailed),
            format!("{serde}{serde},\"n\":{}}}", u64::MAX)
        );
    }
}

/// [`W::put_plain`] answers yes exactly when no byte needs an escape, and then writes the
/// bytes quoted; every length up to 72 (two 32-byte steps and a tail) with every kind of
/// byte at every place.
#[test]
fn plain_strings_are_found_and_copied() {
    let check = |b: &[u8]| {
        let rule = b.iter().any(|&c| c < 0x20 || c == b'"' || c == b'\\');
        let mut plain = false;
        let mine = through_w(b"", 0, |w| {
            w.room(b.len() + 2);
            // SAFETY: room for the quoted bytes just made.
            plain = unsafe { w.put_plain(b) };
        });
        assert_eq!(plain, !rule, "{b:?}");
        if plain {
            assert_eq!(&mine[1..mine.len() - 1], b);
            assert_eq!((mine[0], mine[mine.len() - 1]), (b'"', b'"'));
        } else {
            assert!(mine.is_empty());
        }
    };
    for n in 0..72 {
        for filler in [
            b'a',
            b' ',
            0x7f,
            0x80,
            0xff,
            b'!',
            b'#',
            b'[',
            b']',
            b'\\' + 1,
        ] {
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

proptest::proptest! {
    #[test]
    fn strings_match_serde(s in "[a-z _.\"\\\\/\u{0}\u{1}\u{8}\t\n\u{c}\r\u{1f}\u{7f}é\u{2028}😀]{0,70}") {
        string_agrees(&s);
    }

    #[test]
    fn plain_strings_match_serde(s in "[ -~]{0,70}") {
        string_agrees(&s);
    }
}

/// The digits of `v` by repeated division, the reference for [`put_digits`].
fn slow_digits(mut v: u64) -> Vec<u8> {
    let mut d = vec![b'0' + (v % 10) as u8];
    while v >= 10 {
        v /= 10;
        d.push(b'0' + (v % 10) as u8);
    }
    d.reverse();
    d
}

/// Checks the integer writers on `v` against itoa (what serde_json uses) and the
/// reference.
fn ints_agree(v: u64) {
    let want = v.to_string();
    assert_eq!(slow_digits(v), want.as_bytes());
    assert_eq!(through_w(b"ab", 2, |w| fields!(w; u64(v))), want.as_bytes());
    let keyed = through_w(b"", 0, |w| fields!(w; key_u64(key!("n"), v)));
    assert_eq!(String::from_utf8_lossy(&keyed), format!(",\"n\":{want}"));
    for i in [v as i64, (v as i64).wrapping_neg()] {
        let keyed = through_w(b"", 0, |w| fields!(w; key_i64(key!("r"), i)));
        assert_eq!(String::from_utf8_lossy(&keyed), format!(",\"r\":{i}"));
    }
}

#[test]
fn ints_at_every_digit_count() {
    for v in 0..100_000 {
        ints_agree(v);
    }
    let mut p = 1u64;
    while let Some(next) = p.checked_mul(10) {
        for d in [p - 1, p, p + 1, next - 1] {
            ints_agree(d);
        }
        p = next;
    }
    for v in [u64::MAX, u64::MAX - 1, i64::MAX as u64, 1 << 63, 1 << 33] {
        ints_agree(v);
    }
    ints_agree(i64::MIN as u64);
}

/// [`eight_digits`] on every value below 10^8 against the division loop.
#[test]
fn eight_digits_everywhere() {
    let mut want = *b"00000000";
    for v in 0..100_000_000u32 {
        let got = (eight_digits(v) + ZEROS).to_le_bytes();
        assert_eq!(got, want, "{v}");
        // The next value's digits, counting up in text.
        let mut i = 7;
        while want[i] == b'9' && i > 0 {
            want[i] = b'0';
            i -= 1;
        }
        want[i] += 1;
    }
}

/// The word escape tests (SSE2 and SWAR) against the byte rule.
fn words_agree(w0: u64, w1: u64) {
    let rule = w0
        .to_le_bytes()
        .iter()
        .chain(&w1.to_le_bytes())
        .any(|&c| c < 0x20 || c == b'"' || c == b'\\');
    assert_eq!(words_need_escape(w0, w1), rule, "{w0:x} {w1:x}");
    assert_eq!(
        escape_mask(w0) | escape_mask(w1) != 0,
        rule,
        "{w0:x} {w1:x}"
    );
}

/// [`escape_bits`] on every byte value in every lane against the byte rule (its
/// bit-flip test for control bytes and `"` at once covers all 256 values here).
#[cfg(target_arch = "x86_64")]
#[test]
fn escape_bits_every_byte_every_lane() {
    use std::arch::x86_64::*;
    for c in 0..=255u8 {
        let rule = c < 0x20 || c == b'"' || c == b'\\';
        for lane in 0..16 {
            let mut b = [b'a'; 16];
            b[lane] = c;
            // SAFETY: SSE2 is the x86_64 baseline; the load reads the 16 bytes of `b`.
            let m = unsafe { escape_bits(_mm_loadu_si128(b.as_ptr() as *const __m128i)) };
            assert_eq!(m, if rule { 1 << lane } else { 0 }, "{c:#x} at {lane}");
        }
    }
}

proptest::proptest! {
    #[test]
    fn word_escape_tests_are_the_rule(
        b in proptest::collection::vec(
            proptest::prop_oneof![
                0u8..=255,
                proptest::sample::select(vec![0u8, 0x1f, 0x20, b'"', b'\\', 0x21, 0x5b, 0x5d, 0x7f, 0x80]),
            ],
            16,
        ),
    ) {
        let w = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap());
        words_agree(w(0), w(8));
        words_agree(w(0), SPACES);
    }

    #[test]
    fn ints_match_itoa(v: u64, bits in 0u32..64) {
        ints_agree(v);
        ints_agree(v >> bits);
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
    b.spl_bootstage = vec![
        SplBootstage {
            stage: StageId::R5Spl,
            line: 12,
            host_s: Some(0.486913),
            records: vec![rec.clone(), rec.clone()],
            accumulated: vec![BootstageAccum {
                name: nasty.clone(),
                us: 23_606,
            }],
        },
        SplBootstage {
            stage: StageId::ASpl,
            line: u64::MAX,
            host_s: None,
            records: vec![],
            accumulated: vec![],
        },
    ];
    b.initcalls.push(Initcall {
        name: "f".into(),
        duration_us: 9,
        ret: -19,
        ts_s: Some(f64::INFINITY),
    });
    b.probes.push(DeviceProbe {
        device: nasty.clone(),
        duration_us: 41,
        ret: -517,
        ts_s: Some(1.5),
    });
    b.probes.push(DeviceProbe {
        device: "fe340000.mmc".into(),
        duration_us: u64::MAX,
        ret: 0,
        ts_s: None,
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
    b.system = Some(crate::model::SystemInfo {
        source: nasty.clone(),
        lab: Some(nasty.clone()),
        machine: Some("m".into()),
        taken: Some("2024-01-01".into()),
        cpus: Some(u32::MAX),
        bogomips: Some(48.0),
        config: [
            (nasty.clone(), "\"q\"".to_string()),
            ("CONFIG_HZ".into(), "250".into()),
        ]
        .into_iter()
        .collect(),
    });
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
    b.system = Some(crate::model::SystemInfo::default());
    same(&b);
}

/// [`write_stats`] against serde_json on `s`, after `pre` bytes in a vector of `spare`
/// bytes' room.
fn stats_agree(s: &BootStats, pre: usize, spare: usize) {
    let mut out = Vec::with_capacity(pre + spare);
    out.resize(pre, b'x');
    write_stats(&mut out, s);
    let serde = serde_json::to_vec(s).expect("serialise");
    assert!(out[..pre].iter().all(|&c| c == b'x'));
    assert_eq!(
        String::from_utf8_lossy(&out[pre..]),
        String::from_utf8_lossy(&serde)
    );
}

#[test]
fn empty_and_summarised_stats_give_serde_bytes() {
    stats_agree(&BootStats::default(), 0, 0);
    let mut b = Boot::default();
    b.stages.push(Stage {
        id: StageId::R5Spl,
        start_s: Some(1.0),
        end_s: Some(2.5),
        duration_s: Some(1.5),
        clock: Clock::Host,
        line: Some(3),
        console_bytes: Some(40),
    });
    b.initcalls.push(Initcall {
        name: "a\"b".into(),
        duration_us: 7,
        ret: 0,
        ts_s: None,
    });
    stats_agree(&crate::stats::summarize(&[b.clone(), b]), 3, 10);
}

proptest::proptest! {
    /// Statistics with generated names and figures (any double, non-finite too), with and
    /// without a total.
    #[test]
    fn stats_match_serde(
        names in proptest::collection::vec("[a-z_ :.\"\\\\\n\u{1}é]{0,24}", 0..6),
        figures in proptest::collection::vec(any_f64(), 7),
        ns in proptest::collection::vec(proptest::num::usize::ANY, 3),
        stages in proptest::collection::vec(0usize..StageId::ALL.len(), 0..5),
        total: bool,
        pre in 0usize..40,
        spare in 0usize..300,
    ) {
        let sum = |i: usize| Summary {
            n: ns[i % ns.len()] >> (i % 60),
            mean: figures[i % 7],
            min: figures[(i + 1) % 7],
            max: figures[(i + 2) % 7],
            median: figures[(i + 3) % 7],
            p95: figures[(i + 4) % 7],
            stddev: figures[(i + 5) % 7],
        };
        let by_name = |k: usize| -> BTreeMap<String, Summary> {
            names.iter().enumerate().map(|(i, n)| (n.clone(), sum(i + k))).collect()
        };
        let s = BootStats {
            boots: ns[0],
            complete: ns[1],
            stages: stages.iter().map(|&i| (StageId::ALL[i], sum(i))).collect(),
            console_bytes: stages.iter().rev().map(|&i| (StageId::ALL[i], sum(i + 1))).collect(),
            total_s: total.then(|| sum(2)),
            bootstage_mark_us: by_name(0),
            sbl_us: by_name(1),
            initcall_us: by_name(2),
        };
        stats_agree(&s, pre, spare);
    }
}

/// A value serde_json writes as `v`: micro-rounded or any double.
fn any_f64() -> impl proptest::strategy::Strategy<Value = f64> {
    use proptest::prelude::*;
    prop_oneof![
        (0u64..20_000_000_000).prop_map(|k| k as f64 / 1e6),
        proptest::num::f64::ANY,
    ]
}

proptest::proptest! {
    /// Whole boots with generated text and figures, written after `pre` bytes into a
    /// vector of `spare` bytes' room (so the cursor grows it at any point), as serde_json
    /// writes them.
    #[test]
    fn boots_match_serde(
        names in proptest::collection::vec("[a-z_ .\"\\\\\n\t\u{1}é]{0,40}", 1..8),
        ints in proptest::collection::vec(proptest::num::u64::ANY, 6),
        figures in proptest::collection::vec(any_f64(), 6),
        pre in 0usize..40,
        spare in 0usize..300,
    ) {
        let name = |i: usize| names[i % names.len()].clone();
        let int = |i: usize| ints[i % ints.len()] >> (i % 60);
        let fig = |i: usize| Some(figures[i % figures.len()]);
        let mut b = Boot {
            index: int(0) as usize,
            complete: int(1) % 2 == 0,
            lines: (int(2), int(3)),
            ..Boot::default()
        };
        for (i, &id) in StageId::ALL.iter().enumerate().take(int(4) as usize % 12) {
            b.stages.push(Stage {
                id,
                start_s: fig(i),
                end_s: if i % 3 == 0 { None } else { fig(i + 1) },
                duration_s: fig(i + 2),
                clock: [Clock::Host, Clock::Target, Clock::Derived][i % 3],
                line: Some(int(i)),
                console_bytes: (i % 2 == 0).then(|| int(i + 1)),
            });
        }
        for i in 0..names.len() {
            b.components.insert(name(i), name(i + 1));
            b.initcalls.push(Initcall {
                name: name(i),
                duration_us: int(i),
                ret: int(i + 2) as i64,
                ts_s: fig(i),
            });
            b.marks.push(Mark {
                kind: name(i + 2).into(),
                line: int(i + 3),
                host_s: fig(i + 1),
                target_s: (i % 2 == 1).then(|| figures[i % figures.len()]),
            });
            b.bootstage.push(BootstageRecord {
                name: name(i + 1),
                mark_us: int(i + 4),
                elapsed_us: int(i + 5),
            });
            b.warnings.push(name(i + 3));
        }
        for (i, &stage) in [StageId::R5Spl, StageId::ASpl].iter().enumerate().take(int(5) as usize % 3) {
            b.spl_bootstage.push(SplBootstage {
                stage,
                line: int(i + 1),
                host_s: if i == 0 { fig(i) } else { None },
                records: b.bootstage.clone(),
                accumulated: (i == 0)
                    .then(|| BootstageAccum { name: name(i), us: int(i + 2) })
                    .into_iter()
                    .collect(),
            });
        }
        b.kernel = Some(KernelInfo {
            version: Some(name(0)),
            last_ts_s: fig(3),
            machine: Some(name(1)),
            ..KernelInfo::default()
        });
        b.systemd = Some(SystemdInfo {
            total_s: fig(4),
            target_reached: Some((name(2), figures[5])),
            blame: vec![SystemdUnit { name: name(3), duration_s: fig(0), at_s: None }],
            ok_lines: int(5),
            ..SystemdInfo::default()
        });
        b.printk_offset_s = fig(2);
        let mut out = Vec::with_capacity(pre + spare);
        out.resize(pre, b'x');
        write_boot(&mut out, &b);
        let serde = serde_json::to_vec(&b).expect("serialise");
        proptest::prop_assert!(out[..pre].iter().all(|&c| c == b'x'));
        proptest::prop_assert_eq!(
            String::from_utf8_lossy(&out[pre..]),
            String::from_utf8_lossy(&serde)
        );
    }
}
