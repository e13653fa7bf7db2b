//! A TI K3 boot whose R5 SPL prints its own bootstage report (the layer's U-Boot patches):
//! the report kept as the R5 SPL's, U-Boot proper's report as the boot's `bootstage`, the R5
//! SPL's breakdown (SYSFW, board configuration, DDR, image loads, A-core start) and its
//! placement on the host clock, the SPLs' spans on their own timers, a quiet U-Boot, and
//! damaged reports. The log is `data/k3-j721e-bootstage.log`, composed (`data/README.md` says
//! from what); every expected figure below is worked out by hand from its lines.

use bootlog_parser::capture::parse_line;
use bootlog_parser::model::{Boot, Clock, StageId};
use bootlog_parser::spl_breakdown::{self, SplStep, BYTE_US_115200};
use bootlog_parser::{parse_bytes, parse_power_on_capture, BoardProfile};

/// The composed J721E boot, host-stamped as perfguide's boot loop writes a cycle's capture.
const LOG: &str = include_str!("data/k3-j721e-bootstage.log");

fn j721e() -> BoardProfile {
    BoardProfile::builtin("j721e-evm").unwrap()
}

/// The log's lines without their host stamps: what a console with no capture tool gives.
fn unstamped(log: &str) -> String {
    log.lines()
        .map(|l| parse_line(l).map_or(l, |(_, _, t)| t))
        .map(|t| format!("{t}\n"))
        .collect()
}

/// The one boot of `log`.
fn one(boots: Vec<Boot>) -> Boot {
    assert_eq!(boots.len(), 1, "{boots:#?}");
    boots.into_iter().next().unwrap()
}

fn ids(b: &Boot) -> Vec<StageId> {
    b.stages.iter().map(|s| s.id).collect()
}

/// A stage's (start, end, duration) and clock.
fn figures(b: &Boot, id: StageId) -> (Option<f64>, Option<f64>, Option<f64>, Clock) {
    let s = b.stage(id).unwrap_or_else(|| panic!("no {id}"));
    (s.start_s, s.end_s, s.duration_s, s.clock)
}

fn rows(v: &[SplStep]) -> Vec<(&str, u64, u64)> {
    v.iter()
        .map(|s| (s.name.as_str(), s.start_us, s.duration_us))
        .collect()
}

/// The R5 SPL's steps of the composed log: (name, first mark, duration), µs on its timer,
/// each the difference of two rows of its report (`sysfw start` 48102 less `sysfw load` 1532,
/// ...).
const R5_STEPS: [(&str, u64, u64); 13] = [
    ("SYSFW load", 1532, 46570),
    ("SYSFW start", 48102, 5815),
    ("Board config", 54250, 854),
    ("PM board config", 55104, 792),
    ("RM board config", 55896, 2715),
    ("Security board config", 58611, 791),
    ("DDR init", 71850, 24560),
    ("Load atf", 104733, 5485),
    ("Load tee", 110218, 21384),
    ("Load dm", 131602, 45343),
    ("Load spl", 176945, 36432),
    ("Load k3-j721e-common-proc-board", 213377, 2773),
    ("A-core start preparation", 216923, 15565),
];

const ALL_STAGES: [StageId; 8] = [
    StageId::Rom,
    StageId::R5Spl,
    StageId::Tfa,
    StageId::Optee,
    StageId::ASpl,
    StageId::Uboot,
    StageId::Kernel,
    StageId::Userspace,
];

#[test]
fn k3_boot_with_host_stamps() {
    let b = one(parse_power_on_capture(LOG.as_bytes(), &j721e()));
    assert!(b.complete);
    assert_eq!(ids(&b), ALL_STAGES);
    // Stages from the lines that open them: R5 SPL banner 0.021004, BL31 0.336000, OP-TEE
    // version 0.349124, A72 SPL banner 0.441200, U-Boot 0.655400, `Starting kernel ...`
    // 1.372361, `Run /sbin/init` 2.992929, the prompt 4.711006.
    let host = |a, e, d| (Some(a), Some(e), Some(d), Clock::Host);
    assert_eq!(figures(&b, StageId::Rom), host(0.0, 0.021004, 0.021004));
    assert_eq!(figures(&b, StageId::R5Spl), host(0.021004, 0.336, 0.314996));
    assert_eq!(figures(&b, StageId::Tfa), host(0.336, 0.349124, 0.013124));
    assert_eq!(
        figures(&b, StageId::Optee),
        host(0.349124, 0.4412, 0.092076)
    );
    assert_eq!(figures(&b, StageId::ASpl), host(0.4412, 0.6554, 0.2142));
    assert_eq!(
        figures(&b, StageId::Uboot),
        host(0.6554, 1.372361, 0.716961)
    );
    assert_eq!(b.components["tfa"], "v2.12.0(release):v2.12.0");
    assert_eq!(b.components["optee"], "4.4.0");
    assert_eq!(b.components["uboot_spl"], "2025.01-00001-gfa1b2c3d4e");

    // The R5 SPL's report: its header on line 4, stamped 0.262587; 20 rows, `dm_spl` apart.
    assert_eq!(b.spl_bootstage.len(), 1);
    let r5 = &b.spl_bootstage[0];
    assert_eq!(
        (r5.stage, r5.line, r5.host_s),
        (StageId::R5Spl, 4, Some(0.262587))
    );
    assert_eq!(r5.records.len(), 20);
    assert_eq!(
        (r5.records[19].name.as_str(), r5.records[19].mark_us),
        ("start atf", 232488)
    );
    let acc: Vec<(&str, u64)> = r5
        .accumulated
        .iter()
        .map(|a| (a.name.as_str(), a.us))
        .collect();
    assert_eq!(acc, [("dm_spl", 9437)]);

    // U-Boot proper's report is the boot's bootstage, with its own accumulated times.
    assert_eq!(b.bootstage_reports.len(), 2);
    assert_eq!(b.bootstage_reports[0], r5.records);
    assert_eq!(b.bootstage, b.bootstage_reports[1]);
    assert_eq!(b.bootstage.len(), 14);
    assert_eq!(b.bootstage[13].name, "start_kernel");
    let acc: Vec<(&str, u64)> = b
        .bootstage_accumulated
        .iter()
        .map(|a| (a.name.as_str(), a.us))
        .collect();
    assert_eq!(acc, [("dm_spl", 11208), ("dm_f", 4133), ("dm_r", 38760)]);

    // The breakdown, placed: 0.262587 less a byte at 115200 baud (86.8 µs) is start atf's
    // 0.2625002; each step's first mark (232488 - start) µs before it, to the microsecond.
    let steps = spl_breakdown::r5_steps(&b, BYTE_US_115200);
    assert_eq!(rows(&steps), R5_STEPS);
    let placed: Vec<f64> = steps.iter().map(|s| s.host_start_s.unwrap()).collect();
    assert_eq!(
        placed,
        [
            0.031544, 0.078114, 0.084262, 0.085116, 0.085908, 0.088623, 0.101862, 0.134745,
            0.140230, 0.161614, 0.206957, 0.243389, 0.246935,
        ]
    );
    // On a virtual console (no byte time) one byte later.
    let virt = spl_breakdown::r5_steps(&b, 0.0);
    assert_eq!(virt[0].host_start_s, Some(0.031631));

    // The A72 SPL's steps in U-Boot proper's report: its two image loads after `fit header`.
    assert_eq!(
        rows(&spl_breakdown::a_spl_steps(&b)),
        [("Load uboot", 492730, 110464), ("Load fdt-0", 603194, 7814)]
    );
}

#[test]
fn k3_boot_without_host_stamps() {
    let b = one(parse_bytes(unstamped(LOG).as_bytes(), &j721e()));
    assert_eq!(ids(&b), &ALL_STAGES[1..]);
    let target = |a, e, d| (Some(a), Some(e), Some(d), Clock::Target);
    // R5 SPL: its first non-zero mark (`sysfw load`, 1532) to `start atf` (232488).
    assert_eq!(
        figures(&b, StageId::R5Spl),
        target(0.001532, 0.232488, 0.230956)
    );
    // A72 SPL: `SPL` (440912) to `end phase` (613611) in U-Boot proper's report.
    assert_eq!(
        figures(&b, StageId::ASpl),
        target(0.440912, 0.613611, 0.172699)
    );
    // U-Boot proper: `board_init_f` (652337) to its last mark, `start_kernel` (1310870).
    assert_eq!(
        figures(&b, StageId::Uboot),
        target(0.652337, 1.31087, 0.658533)
    );
    // TF-A and OP-TEE print no clock: no figures, never zero.
    assert_eq!(figures(&b, StageId::Tfa), (None, None, None, Clock::Target));
    assert_eq!(b.spl_bootstage[0].host_s, None);
    let steps = spl_breakdown::r5_steps(&b, BYTE_US_115200);
    assert_eq!(rows(&steps), R5_STEPS);
    assert!(steps.iter().all(|s| s.host_start_s.is_none()));
}

/// With the generic profile the first SPL is read as the A-core's until TF-A and a second
/// SPL banner show it ran on the R5: its report follows it.
#[test]
fn generic_profile_gives_the_report_to_the_r5_spl() {
    let b = one(parse_power_on_capture(
        LOG.as_bytes(),
        &BoardProfile::generic(),
    ));
    assert_eq!(ids(&b), ALL_STAGES);
    assert_eq!(b.spl_bootstage.len(), 1);
    assert_eq!(b.spl_bootstage[0].stage, StageId::R5Spl);
    assert_eq!(b.bootstage.len(), 14);
    assert_eq!(rows(&spl_breakdown::r5_steps(&b, 0.0)), R5_STEPS);
}

/// The log with U-Boot proper silent: its banner up to the line after `Starting kernel ...`
/// (lines 47-94) left out.
fn quiet_uboot() -> String {
    LOG.lines()
        .enumerate()
        .filter(|(i, _)| !(46..94).contains(i))
        .map(|(_, l)| format!("{l}\n"))
        .collect()
}

#[test]
fn quiet_uboot_keeps_bootstage_empty() {
    let log = quiet_uboot();
    assert!(!log.contains("U-Boot 2025") && !log.contains("start_kernel"));
    for b in [
        one(parse_power_on_capture(log.as_bytes(), &j721e())),
        one(parse_bytes(unstamped(&log).as_bytes(), &j721e())),
    ] {
        assert!(b.bootstage.is_empty(), "{:?}", b.bootstage);
        assert!(b.bootstage_accumulated.is_empty());
        assert_eq!(b.bootstage_reports.len(), 1);
        assert_eq!(b.spl_bootstage.len(), 1);
        assert_eq!(b.spl_bootstage[0].accumulated[0].name, "dm_spl");
        assert!(b.stage(StageId::Uboot).is_none());
        assert_eq!(rows(&spl_breakdown::r5_steps(&b, 0.0)), R5_STEPS);
        assert!(spl_breakdown::a_spl_steps(&b).is_empty());
    }
    // No host stamps: the A72 SPL's marks were in U-Boot proper's report, which is gone.
    let b = one(parse_bytes(unstamped(&log).as_bytes(), &j721e()));
    assert_eq!(figures(&b, StageId::ASpl).2, None);
    assert_eq!(figures(&b, StageId::R5Spl).2, Some(0.230956));
}

/// The log, unstamped, with the R5 report's rows (lines 6-25) replaced by `rows` (name, mark
/// µs), printed as the R5 SPL's tiny printf prints them (`<mark> <elapsed>   <name>`).
fn with_r5_rows(rows: &[(&str, u64)]) -> String {
    let mut out = String::new();
    for (i, l) in unstamped(LOG).lines().enumerate() {
        if i == 5 {
            let mut prev = 0u64;
            for (name, mark) in rows {
                let p = if prev > *mark { 0 } else { prev };
                out.push_str(&format!("{mark} {}   {name}\n", mark - p));
                prev = *mark;
            }
        }
        if !(5..25).contains(&i) {
            out.push_str(l);
            out.push('\n');
        }
    }
    out
}

#[test]
fn r5_report_with_marks_out_of_order_and_repeated() {
    let log = with_r5_rows(&[
        ("reset", 0),
        ("SPL", 0),
        ("sysfw start", 5000),
        ("sysfw running", 4000),
        ("ram init", 10000),
        ("ram ready", 20000),
        ("ram init", 21000),
        ("ram ready", 29000),
        ("fit header", 30000),
        ("loaded atf", 31000),
        ("loaded atf", 33500),
        ("loaded tee", 33000),
        ("loaded dm", 40000),
        ("end phase", 41000),
        ("start atf", 45000),
    ]);
    let b = one(parse_bytes(log.as_bytes(), &j721e()));
    assert_eq!(b.spl_bootstage[0].records.len(), 15);
    // `sysfw running` reads less than `sysfw start`: no SYSFW start; no `sysfw load`, no
    // board configuration: none of those steps. Two RAM probes, two `loaded atf`; `loaded
    // tee` reads less than the `loaded atf` before it: no step for it, and `loaded dm`
    // counts from it.
    assert_eq!(
        rows(&spl_breakdown::r5_steps(&b, 0.0)),
        [
            ("DDR init", 10000, 10000),
            ("DDR init 2", 21000, 8000),
            ("Load atf", 30000, 1000),
            ("Load atf 2", 31000, 2500),
            ("Load dm", 33000, 7000),
            ("A-core start preparation", 41000, 4000),
        ]
    );
    // The first non-zero mark is `sysfw start`, 5000.
    assert_eq!(figures(&b, StageId::R5Spl).2, Some(0.04));
    // The parser's own figures are those of the log whatever the order.
    assert!(b.warnings.iter().all(|w| !w.contains("bootstage")));
}

#[test]
fn truncated_r5_report() {
    // The report cut after `loaded tee` (a log that ends there, then one that goes on).
    let log = unstamped(LOG);
    let cut_at = log.find("176945 45343   loaded dm").unwrap();
    let b = one(parse_bytes(&log.as_bytes()[..cut_at], &j721e()));
    assert!(!b.complete);
    assert_eq!(b.spl_bootstage.len(), 1);
    assert_eq!(b.spl_bootstage[0].records.len(), 15);
    assert!(b.bootstage.is_empty());
    let steps = spl_breakdown::r5_steps(&b, BYTE_US_115200);
    assert_eq!(rows(&steps), R5_STEPS[..9]);
    // No `start atf`: no span on the R5's timer.
    assert_eq!(figures(&b, StageId::R5Spl).2, None);

    // Stamped, the rows from `loaded dm` to `dm_spl` lost: steps up to `Load tee`, and no
    // anchor to place them by.
    let kept: String = LOG
        .lines()
        .enumerate()
        .filter(|(i, _)| !(20..28).contains(i))
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    let b = one(parse_power_on_capture(kept.as_bytes(), &j721e()));
    assert_eq!(ids(&b), ALL_STAGES);
    let steps = spl_breakdown::r5_steps(&b, BYTE_US_115200);
    assert_eq!(rows(&steps), R5_STEPS[..9]);
    assert!(steps.iter().all(|s| s.host_start_s.is_none()));
    assert!(b.spl_bootstage[0].accumulated.is_empty());
    assert_eq!(b.bootstage.len(), 14);
}

/// The boots serialise to the bytes serde_json writes, and read back equal.
#[test]
fn json_of_k3_boots_is_serde_json() {
    for log in [LOG.to_string(), unstamped(LOG), quiet_uboot()] {
        for b in parse_power_on_capture(log.as_bytes(), &j721e()) {
            let mut fast = Vec::new();
            bootlog_parser::json::write_boot(&mut fast, &b);
            let serde = serde_json::to_vec(&b).unwrap();
            assert_eq!(
                String::from_utf8_lossy(&fast),
                String::from_utf8_lossy(&serde)
            );
            let back: Boot = serde_json::from_slice(&fast).unwrap();
            assert_eq!(back.spl_bootstage, b.spl_bootstage);
            let v: serde_json::Value = serde_json::from_slice(&fast).unwrap();
            assert_eq!(v["spl_bootstage"][0]["stage"], "r5-spl");
            assert_eq!(v["spl_bootstage"][0]["line"], 4);
        }
    }
}
