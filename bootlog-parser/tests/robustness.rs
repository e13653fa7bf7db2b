//! Bad input: every kind of console damage gives the same facts as the clean log, and arbitrary
//! bytes never panic.

use bootlog_parser::{parse_bytes, BoardProfile, Boot, Parser, StageId};
use proptest::prelude::*;

const CLEAN: &str = "U-Boot SPL 2024.01-g1 (Jan 01 2024 - 00:00:00 +0000)\n\
Trying to boot from MMC1\n\
U-Boot 2024.01-g1 (Jan 01 2024 - 00:00:00 +0000)\n\
Hit any key to stop autoboot:  0\n\
Starting kernel ...\n\
[    0.000000] Booting Linux on physical CPU 0x0\n\
[    0.000000] Linux version 6.1.0-test (x@y) #1 SMP\n\
[    1.500000] Run /init as init process\n\
qemu login: \n";

fn facts(
    b: &Boot,
) -> (
    Vec<StageId>,
    Option<String>,
    Option<f64>,
    bool,
    Option<String>,
) {
    (
        b.stages.iter().map(|s| s.id).collect(),
        b.components.get("uboot").cloned(),
        b.kernel.as_ref().and_then(|k| k.init_ts_s),
        b.complete,
        b.login_prompt.clone(),
    )
}

fn parse(bytes: &[u8]) -> Vec<Boot> {
    parse_bytes(bytes, &BoardProfile::generic())
}

fn same_facts(damaged: &[u8]) {
    let want = parse(CLEAN.as_bytes());
    let got = parse(damaged);
    assert_eq!(got.len(), 1, "{}", String::from_utf8_lossy(damaged));
    assert_eq!(facts(&got[0]), facts(&want[0]));
}

#[test]
fn crlf() {
    same_facts(CLEAN.replace('\n', "\r\n").as_bytes());
}

#[test]
fn lf_cr() {
    same_facts(CLEAN.replace('\n', "\n\r").as_bytes());
}

#[test]
fn lone_cr() {
    same_facts(CLEAN.replace('\n', "\r").as_bytes());
}

#[test]
fn ansi_escapes() {
    same_facts(
        CLEAN
            .replace("U-Boot 2024", "\x1b[0m\x1b[1;34mU-Boot 2024")
            .replace("qemu login", "\x1b[2Kqemu login")
            .as_bytes(),
    );
}

#[test]
fn backspaces() {
    same_facts(
        CLEAN
            .replace("autoboot:  0", "autoboot:  2\x08\x08\x08 1\x08\x08\x08 0")
            .as_bytes(),
    );
}

#[test]
fn nul_and_control_bytes() {
    let mut v = b"\x00\x00\x00\xff\x07".to_vec();
    v.extend_from_slice(
        CLEAN
            .replace("Starting kernel", "\x00Starting kernel")
            .as_bytes(),
    );
    let got = parse(&v);
    assert_eq!(facts(&got[0]), facts(&parse(CLEAN.as_bytes())[0]));
}

#[test]
fn non_utf8_bytes_are_kept_escaped() {
    let log = CLEAN
        .replace("Trying to boot from MMC1", "Trying to boot from MMC1 \u{1}")
        .into_bytes();
    let mut damaged = log.clone();
    let at = damaged.iter().position(|&b| b == 1).unwrap();
    damaged[at] = 0xfe;
    same_facts(&damaged);
    let b = &parse(&damaged)[0];
    let json = serde_json::to_string(b).unwrap();
    assert!(json.contains("qemu login"));
}

#[test]
fn tabs_are_kept() {
    let b = &parse(CLEAN.replace("qemu login: ", "qemu\tlogin: ").as_bytes())[0];
    assert!(b.complete);
    assert_eq!(b.login_prompt.as_deref(), Some("qemu\tlogin:"));
}

#[test]
fn very_long_line_is_cut_with_a_warning() {
    let long = "x".repeat(200_000);
    let log = CLEAN.replace("Trying to boot from MMC1", &long);
    let got = parse(log.as_bytes());
    assert_eq!(facts(&got[0]), facts(&parse(CLEAN.as_bytes())[0]));
    assert!(
        got[0].warnings.iter().any(|w| w.contains("longer than")),
        "{:?}",
        got[0].warnings
    );
}

#[test]
fn log_without_printk_timestamps() {
    let log = CLEAN
        .replace("[    0.000000] ", "")
        .replace("[    1.500000] ", "");
    let b = &parse(log.as_bytes())[0];
    assert_eq!(
        b.components.get("kernel").map(String::as_str),
        Some("6.1.0-test")
    );
    assert!(b.stage(StageId::Userspace).is_some());
    assert_eq!(
        b.kernel.as_ref().unwrap().init_ts_s,
        None,
        "no timestamp: absent, not zero"
    );
}

#[test]
fn empty_input_gives_no_boot() {
    assert!(parse(b"").is_empty());
    assert!(parse(b"\n\n\r\n").is_empty());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..4096)) {
        for b in parse(&bytes) {
            serde_json::to_string(&b).unwrap();
        }
    }

    #[test]
    fn arbitrary_text_lines_never_panic(lines in proptest::collection::vec("[ -~\t\u{1b}\u{8}\r]{0,120}", 0..60)) {
        let text = lines.join("\n");
        let _ = parse(text.as_bytes());
    }

    #[test]
    fn chunking_does_not_change_the_result(cut in proptest::collection::vec(1usize..64, 1..40)) {
        let log = format!("{CLEAN}{}", CLEAN.replace('\n', "\r\n"));
        let whole = parse(log.as_bytes());
        let mut p = Parser::new(&BoardProfile::generic());
        let mut got = Vec::new();
        let mut rest = log.as_bytes();
        let mut i = 0;
        while !rest.is_empty() {
            let n = cut[i % cut.len()].min(rest.len());
            p.feed(&rest[..n]);
            got.extend(p.take_boots());
            rest = &rest[n..];
            i += 1;
        }
        got.extend(p.finish());
        prop_assert_eq!(got, whole);
    }
}
