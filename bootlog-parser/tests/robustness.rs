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
            let serde = serde_json::to_string(&b).unwrap();
            let mut fast = Vec::new();
            bootlog_parser::json::write_boot(&mut fast, &b);
            prop_assert_eq!(String::from_utf8_lossy(&fast), serde);
        }
    }

    #[test]
    fn arbitrary_text_lines_never_panic(lines in proptest::collection::vec("[ -~\t\u{1b}\u{8}\r]{0,120}", 0..60)) {
        let text = lines.join("\n");
        let _ = parse(text.as_bytes());
    }

    #[test]
    fn arbitrary_boot_data_files_never_panic(
        lines in proptest::collection::vec("(== (KERNEL MESSAGES|SYSTEMD INFO|CORES|CONFIG|Kernel Info|GRAB-BOOT-DATA INFO) ==)|[ -~\t\r]{0,80}", 0..60)
    ) {
        let text = format!("=== Machine Info ===\n{}", lines.join("\n"));
        for b in bootlog_parser::bootdata::parse_boot_data(text.as_bytes(), &BoardProfile::generic()) {
            let serde = serde_json::to_string(&b).unwrap();
            let mut fast = Vec::new();
            bootlog_parser::json::write_boot(&mut fast, &b);
            prop_assert_eq!(String::from_utf8_lossy(&fast), serde);
        }
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

#[test]
fn board_ready_pattern_and_markers() {
    let profile = BoardProfile::from_toml_str(
        "custom",
        r#"
name = "custom"
stages = ["rom", "uboot", "kernel", "userspace"]
ready = '^root@\S+:~# $'
[[markers]]
stage = "rom"
pattern = '^BootROM v\d'
"#,
    )
    .unwrap();
    let log = "BootROM v2.1\nU-Boot 2024.01 (x)\nStarting kernel ...\n[    0.5] Run /init as init process\nbox login: \nroot@box:~# \n";
    let b = &parse_bytes(log.as_bytes(), &profile)[0];
    assert_eq!(b.stages[0].id, StageId::Rom);
    assert!(b.complete);
    assert_eq!(b.login_prompt.as_deref(), Some("root@box:~#"));
    assert_eq!(
        b.mark("ready").unwrap().line,
        6,
        "the default login prompt is not this board's ready line"
    );
}

#[test]
fn bootstage_report_after_starting_kernel() {
    let log = "U-Boot 2024.01 (x)\nStarting kernel ...\n\nTimer summary in microseconds (5 records):\n       Mark    Elapsed  Stage\n          0          0  reset\n    120,000    120,000  board_init_f\n  1,500,000  1,380,000  start_kernel\n\nAccumulated time:\n                 8,000  dm_r\n[    0.000000] Booting Linux on physical CPU 0x0\n";
    let b = &parse(log.as_bytes())[0];
    assert_eq!(b.bootstage.len(), 3);
    assert_eq!(b.bootstage[2].name, "start_kernel");
    assert_eq!(b.bootstage_accumulated[0].us, 8000);
    assert_eq!(
        b.stages.iter().map(|s| s.id).collect::<Vec<_>>(),
        [StageId::Uboot, StageId::Kernel]
    );
    // Target clock from bootstage: U-Boot from board_init_f to the last mark.
    assert_eq!(b.stage(StageId::Uboot).unwrap().duration_s, Some(1.38));
}

/// A PDK SBL profile table built from the print formats of `SBL_printProfileLog`
/// (`fxn:%32s\tline:%4d\tcycle:%10d\ttimestamp:%10dus`, PDK's left-aligned `%s`), since no
/// verbatim public capture exists.
#[test]
fn pdk_profile_table_through_the_timeline() {
    let mut log = String::from("SBL Revision: 01.00.10.01 (Nov 20 2024 - 13:19:45)\r\nMCU @ 1000000000Hz.\r\ncycles per usec  = 1000\r\n");
    for (f, l, c) in [
        ("main", 77u32, 1234u64),
        ("SBL_SciClientInit", 120, 9_000_000),
        ("SBL_SlaveCoreBoot", 520, 61_628_000),
    ] {
        log.push_str(&format!(
            "fxn:{f:<32}\tline:{l:>4}\tcycle:{c:>10}\ttimestamp:{:>10}us\r\n",
            c / 1000
        ));
    }
    log.push_str(&format!(
        "**fxn:{:<32}\tline:{:>4}\tcycle:{:>10}\ttimestamp:{:>10}us\r\n",
        "SBL_end", 600, 5, 0
    ));
    let b = &parse(log.as_bytes())[0];
    assert_eq!(
        b.components.get("sbl").map(String::as_str),
        Some("01.00.10.01")
    );
    let ts: Vec<u64> = b
        .sbl_profile
        .iter()
        .filter_map(|p| p.timestamp_us)
        .collect();
    assert_eq!(ts, [1, 9000, 61628, 0]);
    assert_eq!(b.sbl_profile[2].src_line, Some(520));
    assert!(b.warnings.iter().any(|w| w.contains("wrapped")));
}

#[test]
fn syslog_levels_and_lava_lines() {
    let log = concat!(
        "- {\"dt\": \"2024-01-02T03:04:05.000000\", \"lvl\": \"info\", \"msg\": \"start: 1 boot\"}\n",
        "- {\"dt\": \"2024-01-02T03:04:05.100000\", \"lvl\": \"target\", \"msg\": \"U-Boot 2024.01 (x)\"}\n",
        "- {\"dt\": \"2024-01-02T03:04:06.600000\", \"lvl\": \"target\", \"msg\": \"Starting kernel ...\"}\n",
        "- {\"dt\": \"2024-01-02T03:04:07.000000\", \"lvl\": \"target\", \"msg\": \"<6>[    0.000000] Booting Linux\"}\n",
        "- {\"dt\": \"2024-01-02T03:04:09.100000\", \"lvl\": \"target\", \"msg\": \"lava login: \"}\n",
    );
    let b = &parse(log.as_bytes())[0];
    let u = b.stage(StageId::Uboot).unwrap();
    assert_eq!((u.start_s, u.end_s), (Some(0.0), Some(1.5)));
    assert!(b.complete);
    assert_eq!(b.mark("ready").unwrap().host_s, Some(4.0));
}

#[test]
fn long_line_warnings_do_not_depend_on_chunking() {
    let log = format!(
        "{}{}\n{}",
        CLEAN.replace("qemu login: \n", ""),
        "y".repeat(150_000),
        "U-Boot 2024.01-g1 (x)\n"
    );
    let whole = parse(log.as_bytes());
    for chunk in [1000, 65_536, 70_001] {
        let mut p = Parser::new(&BoardProfile::generic());
        let mut got = Vec::new();
        for c in log.as_bytes().chunks(chunk) {
            p.feed(c);
            got.extend(p.take_boots());
        }
        got.extend(p.finish());
        assert_eq!(got, whole, "chunk {chunk}");
    }
    assert!(whole[0].warnings.iter().any(|w| w.contains("longer than")));
}
