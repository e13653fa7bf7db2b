//! Fidelity on small logs written from what real boards print: every init path the kernel
//! runs, bootstage reports laid out otherwise, banners with no version, and line numbers
//! after lines longer than the splitter keeps.

use bootlog_parser::model::{Boot, Clock};
use bootlog_parser::{parse_bytes, BoardProfile, Parser, StageId};

fn parse(bytes: &[u8]) -> Vec<Boot> {
    parse_bytes(bytes, &BoardProfile::generic())
}

/// The 1-based number of the line of `log` that holds `needle` (its first occurrence),
/// counted with `\n` as the file has them.
fn line_no(log: &[u8], needle: &str) -> u64 {
    let at = log
        .windows(needle.len())
        .position(|w| w == needle.as_bytes())
        .unwrap_or_else(|| panic!("{needle:?} not in the log"));
    1 + log[..at].iter().filter(|&&c| c == b'\n').count() as u64
}

fn ids(b: &Boot) -> Vec<StageId> {
    b.stages.iter().map(|s| s.id).collect()
}

/// A Linux boot to user space on the target clock (printk stamps), run by `path`, after
/// U-Boot: `Freeing unused kernel memory` then `Run <path> as init process`, as
/// `kernel_init` in init/main.c prints them, and the arguments and environment
/// `run_init_process` prints at debug level.
fn kernel_log(path: &str) -> String {
    format!(
        "\
U-Boot 2023.04 (Apr 04 2023 - 12:00:00 +0000)

DRAM:  948 MiB
Hit any key to stop autoboot:  0
Starting kernel ...

[    0.000000] Booting Linux on physical CPU 0x0000000000 [0x410fd083]
[    0.000000] Linux version 6.1.0-rpi7-rpi-v8 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT Debian 1:6.1.63-1+rpt1 (2023-11-24)
[    0.000000] Machine model: Raspberry Pi 4 Model B Rev 1.4
[    1.782633] Freeing unused kernel memory: 4160K
[    1.790118] Checked W+X mappings: passed, no W+X pages found
[    1.796412] Run {path} as init process
[    1.796420]   with arguments:
[    1.796425]     {path}
[    1.796430]   with environment:
[    1.796434]     HOME=/
[    1.796438]     TERM=linux
[    2.913004] random: crng init done
Debian GNU/Linux 12 raspberrypi ttyS0

raspberrypi login: \n"
    )
}

#[test]
fn every_init_path_ends_the_kernel_at_its_run_line() {
    for path in ["/init", "/sbin/init", "/etc/init", "/bin/init", "/bin/sh"] {
        let log = kernel_log(path);
        let b = &parse(log.as_bytes())[0];
        assert!(b.complete, "{path}");
        assert_eq!(
            ids(b),
            [StageId::Uboot, StageId::Kernel, StageId::Userspace],
            "{path}"
        );
        let run = line_no(log.as_bytes(), "as init process");
        let us = b.stage(StageId::Userspace).unwrap();
        assert_eq!(us.line, Some(run), "{path}");
        let k = b.kernel.as_ref().unwrap();
        assert_eq!(k.init_ts_s, Some(1.796412), "{path}");
        let kernel = b.stage(StageId::Kernel).unwrap();
        assert_eq!(
            (kernel.clock, kernel.end_s, kernel.duration_s),
            (Clock::Target, Some(1.796412), Some(1.796412)),
            "{path}"
        );
        assert_eq!(b.mark("run_init").map(|m| m.line), Some(run), "{path}");
        // `Freeing unused kernel memory` stays a mark, and its line the kernel's.
        let freeing = line_no(log.as_bytes(), "Freeing unused");
        assert_eq!(b.mark("freeing_unused").map(|m| m.line), Some(freeing));
        // The lines between the two are the kernel's console bytes: user space's are at
        // most those of the lines from the `Run` line on (each with its CR LF).
        let between = "[    1.790118] Checked W+X mappings: passed, no W+X pages found".len();
        let kb = kernel.console_bytes.unwrap();
        let ub = us.console_bytes.unwrap();
        let from_run: u64 = log
            .lines()
            .skip(run as usize - 1)
            .map(|l| l.len() as u64 + 2)
            .sum();
        assert!(kb > between as u64, "{kb}");
        assert!(ub <= from_run, "{ub} {from_run}");
    }
}

/// The same boot with grabserial's `[abs delta]` host stamps: the kernel ends, on the host
/// clock, at the stamp of the `Run` line, not at `Freeing unused kernel memory`'s.
#[test]
fn the_run_line_ends_the_kernel_on_the_host_clock() {
    let log = "\
[0.000002 0.000002]
[0.101344 0.101342] U-Boot 2023.04 (Apr 04 2023 - 12:00:00 +0000)
[0.501003 0.399659] Starting kernel ...
[0.705975 0.204972] [    0.000000] Booting Linux on physical CPU 0x0000000000 [0x410fd083]
[2.488394 1.782419] [    1.782633] Freeing unused kernel memory: 4160K
[2.502108 0.013714] [    1.796412] Run /sbin/init as init process
[2.589000 0.086892] [    1.882911] Starting init: /sbin/init exists but couldn't execute it (error -8)
[2.590000 0.001000] [    1.883004] Run /etc/init as init process
[4.000000 1.410000] raspberrypi login: \n";
    let b = &parse(log.as_bytes())[0];
    assert_eq!(
        ids(b),
        [StageId::Uboot, StageId::Kernel, StageId::Userspace]
    );
    let k = b.stage(StageId::Kernel).unwrap();
    let us = b.stage(StageId::Userspace).unwrap();
    assert_eq!(k.clock, Clock::Host);
    assert_eq!(us.line, Some(6));
    assert_eq!(k.end_s, us.start_s);
    // grabserial's stamps count from its start: the `Run` line's own.
    assert_eq!(us.start_s, Some(2.502108));
    // The first `Run` is the hand-over; a later one (after a path failed) is a mark.
    assert_eq!(b.kernel.as_ref().unwrap().init_ts_s, Some(1.796412));
    let runs: Vec<u64> = b
        .marks
        .iter()
        .filter(|m| m.kind == "run_init")
        .map(|m| m.line)
        .collect();
    assert_eq!(runs, [6, 8]);
}

/// A kernel that prints no `Run ... as init process` (before Linux 5.x): `Freeing unused
/// kernel memory` still ends it.
#[test]
fn freeing_unused_ends_the_kernel_when_no_run_line_follows() {
    let log = "\
[    0.000000] Booting Linux on physical CPU 0x0
[    2.351217] Freeing unused kernel memory: 1024K
INIT: version 2.88 booting
buildroot login: \n";
    let b = &parse(log.as_bytes())[0];
    assert_eq!(ids(b), [StageId::Kernel, StageId::Userspace]);
    assert_eq!(b.stage(StageId::Userspace).unwrap().line, Some(2));
    assert_eq!(b.kernel.as_ref().unwrap().init_ts_s, Some(2.351217));
}

/// A kernel with no `Freeing` line before its `Run` line: the `Run` line opens user space.
#[test]
fn a_run_line_alone_opens_userspace() {
    let log = "\
[    0.000000] Booting Linux on physical CPU 0x0
[    0.912003] Run /bin/sh as init process
/bin/sh: can't access tty; job control turned off
~ # \n";
    let b = &parse(log.as_bytes())[0];
    assert_eq!(ids(b), [StageId::Kernel, StageId::Userspace]);
    assert_eq!(b.stage(StageId::Userspace).unwrap().line, Some(2));
    assert_eq!(b.kernel.as_ref().unwrap().init_ts_s, Some(0.912003));
}

/// A bootstage report as U-Boot's `bootstage report` prints it, indented by the console
/// (tabs and spaces), with a record of an empty name and the SPL's records (stashed by SPL,
/// printed by U-Boot proper), after an SPL report of its own.
const BOOTSTAGE_LOG: &str = "\
U-Boot SPL 2023.04 (Apr 04 2023 - 12:00:00 +0000)
Trying to boot from MMC1
Timer summary in microseconds (5 records):
       Mark    Elapsed  Stage
          0          0  reset
    187,204    187,204  SPL
    301,112    113,908
    402,998    101,886  end phase

Accumulated time:
                 8,411  dm_spl


U-Boot 2023.04 (Apr 04 2023 - 12:00:00 +0000)

=> bootstage report
\tTimer summary in microseconds (8 records):
\t       Mark    Elapsed  Stage
\t          0          0  reset
\t    187,204    187,204  SPL
\t    402,998    215,794  end phase
\t    455,470     52,472  board_init_f
\t    781,012    325,542
\t    963,881    182,869  board_init_r
\t  1,146,102    182,221  main_loop
\t  1,522,003    375,901  start_kernel
\t
\tAccumulated time:
\t                12,151  dm_f
\t                34,218  dm_r
=> boot
Starting kernel ...
";

#[test]
fn bootstage_reports_indented_unnamed_and_of_earlier_phases() {
    let b = &parse(BOOTSTAGE_LOG.as_bytes())[0];
    assert_eq!(ids(b), [StageId::ASpl, StageId::Uboot, StageId::Kernel]);
    assert_eq!(b.bootstage_reports.len(), 2);
    let spl: Vec<(&str, u64, u64)> = b.bootstage_reports[0]
        .iter()
        .map(|r| (r.name.as_str(), r.mark_us, r.elapsed_us))
        .collect();
    assert_eq!(
        spl,
        [
            ("reset", 0, 0),
            ("SPL", 187_204, 187_204),
            ("(unnamed 3)", 301_112, 113_908),
            ("end phase", 402_998, 101_886),
        ]
    );
    let proper: Vec<(&str, u64)> = b.bootstage_reports[1]
        .iter()
        .map(|r| (r.name.as_str(), r.mark_us))
        .collect();
    assert_eq!(
        proper,
        [
            ("reset", 0),
            ("SPL", 187_204),
            ("end phase", 402_998),
            ("board_init_f", 455_470),
            ("(unnamed 5)", 781_012),
            ("board_init_r", 963_881),
            ("main_loop", 1_146_102),
            ("start_kernel", 1_522_003),
        ]
    );
    // The boot's bootstage is the last report; its accumulated times the last ones.
    assert_eq!(b.bootstage, b.bootstage_reports[1]);
    let acc: Vec<(&str, u64)> = b
        .bootstage_accumulated
        .iter()
        .map(|a| (a.name.as_str(), a.us))
        .collect();
    assert_eq!(acc, [("dm_f", 12_151), ("dm_r", 34_218)]);
    // All rows were read: no report says it read more or none.
    assert!(
        !b.warnings.iter().any(|w| w.contains("bootstage")),
        "{:?}",
        b.warnings
    );
    // U-Boot proper's time on the target clock: board_init_f to the last mark.
    let u = b.stage(StageId::Uboot).unwrap();
    assert_eq!(u.duration_s, Some(1.066533));
    // The first report was printed by the SPL (before U-Boot proper's banner): kept as its
    // own, with its accumulated time.
    assert_eq!(b.spl_bootstage.len(), 1);
    let spl = &b.spl_bootstage[0];
    assert_eq!((spl.stage, spl.line, spl.host_s), (StageId::ASpl, 3, None));
    assert_eq!(spl.records, b.bootstage_reports[0]);
    assert_eq!(spl.accumulated[0].name, "dm_spl");
    assert_eq!(spl.accumulated[0].us, 8_411);
    // The SPL's time on the target clock: `SPL` to `end phase` in U-Boot proper's report.
    let a = b.stage(StageId::ASpl).unwrap();
    assert_eq!(
        (a.start_s, a.end_s, a.duration_s),
        (Some(0.187204), Some(0.402998), Some(0.215794))
    );
}

/// The same report with spaces for indentation and every row's name empty: each row still
/// reads, with names that do not depend on anything but its place in the report.
#[test]
fn unnamed_records_are_numbered_by_their_row() {
    let log = "\
U-Boot 2023.04 (Apr 04 2023 - 12:00:00 +0000)
   Timer summary in microseconds (3 records):
          Mark    Elapsed  Stage
             0          0
       455,470    455,470
       963,881    508,411  \n\
Starting kernel ...
";
    let b = &parse(log.as_bytes())[0];
    let names: Vec<&str> = b.bootstage.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["(unnamed 1)", "(unnamed 2)", "(unnamed 3)"]);
    assert_eq!(ids(b), [StageId::Uboot, StageId::Kernel]);
}

/// Banners whose version is empty open their stages; a prompt or a line that only starts
/// with `U-Boot` opens none.
#[test]
fn banners_with_no_version_open_their_stages() {
    let log = "\
U-Boot SPL \n\
DRAM:  2 GiB
Trying to boot from MMC1
U-Boot \n\
Hit any key to stop autoboot:  0
U-Boot> printenv bootcmd
U-Boot SPL board init
U-Boot> boot
Starting kernel ...
";
    let b = &parse(log.as_bytes())[0];
    assert_eq!(ids(b), [StageId::ASpl, StageId::Uboot, StageId::Kernel]);
    assert_eq!(b.stage(StageId::ASpl).unwrap().line, Some(1));
    assert_eq!(b.stage(StageId::Uboot).unwrap().line, Some(4));
    assert_eq!(b.mark("spl_banner").map(|m| m.line), Some(1));
    // No version, no component.
    assert!(!b.components.contains_key("uboot"));
    assert!(!b.components.contains_key("uboot_spl"));
    // No trailing blank, and the TPL's.
    let log = "U-Boot TPL\nU-Boot SPL\nU-Boot\nStarting kernel ...\n";
    let boots = parse(log.as_bytes());
    assert_eq!(boots.len(), 1);
    assert_eq!(
        ids(&boots[0]),
        [StageId::ASpl, StageId::Uboot, StageId::Kernel]
    );
    assert_eq!(boots[0].mark("tpl_banner").map(|m| m.line), Some(1));
    assert_eq!(boots[0].mark("spl_banner").map(|m| m.line), Some(2));
}

/// A log with lines of 20 KiB, 70 KiB and 1 MiB (a progress bar of `#` that never broke its
/// line) between its stages: each counts as one line, so every later stage, mark and error
/// points at the file's line, whole or chunked as `perfguide parse` feeds it.
#[test]
fn lines_after_long_lines_keep_the_file_numbers() {
    let mut log = Vec::new();
    log.extend_from_slice(b"U-Boot SPL 2023.04 (Apr 04 2023 - 12:00:00 +0000)\n");
    log.extend_from_slice(b"Trying to boot from MMC1\n");
    log.extend(std::iter::repeat(b'#').take(20 * 1024));
    log.push(b'\n');
    log.extend_from_slice(b"U-Boot 2023.04 (Apr 04 2023 - 12:00:00 +0000)\n");
    log.extend_from_slice(b"Loading Environment from MMC... OK\n");
    log.extend(std::iter::repeat(b'#').take(1 << 20));
    log.extend_from_slice(b"\r\n");
    log.extend_from_slice(b"Hit any key to stop autoboot:  0\n");
    log.extend(std::iter::repeat(b'#').take(70 * 1024));
    log.push(b'\n');
    log.extend_from_slice(b"### ERROR ### Please RESET the board ###\n");
    log.extend_from_slice(b"Starting kernel ...\n\n");
    log.extend_from_slice(b"[    0.000000] Booting Linux on physical CPU 0x0\n");
    log.extend_from_slice(b"[    1.796412] Run /sbin/init as init process\n");
    log.extend_from_slice(b"buildroot login: \n");
    let lines = log.iter().filter(|&&c| c == b'\n').count() as u64;

    let whole = parse(&log);
    assert_eq!(whole.len(), 1);
    let b = &whole[0];
    assert_eq!(b.lines, (1, lines));
    let at = |s: &str| line_no(&log, s);
    let stage_lines: Vec<(StageId, Option<u64>)> =
        b.stages.iter().map(|s| (s.id, s.line)).collect();
    assert_eq!(
        stage_lines,
        [
            (StageId::ASpl, Some(1)),
            (StageId::Uboot, Some(at("U-Boot 2023.04"))),
            (StageId::Kernel, Some(at("Starting kernel"))),
            (StageId::Userspace, Some(at("Run /sbin/init"))),
        ]
    );
    assert_eq!(b.mark("autoboot").map(|m| m.line), Some(at("Hit any key")));
    assert_eq!(
        b.mark("linux_booting").map(|m| m.line),
        Some(at("Booting Linux"))
    );
    assert_eq!(b.mark("ready").map(|m| m.line), Some(lines));
    let error = format!("line {}: ### ERROR ###", at("### ERROR"));
    assert!(
        b.errors.iter().any(|e| e.starts_with(&error)),
        "{:?}",
        b.errors
    );
    // One warning for each line over the limit (1 MiB and 70 KiB), at its own number.
    let cut: Vec<&String> = b
        .warnings
        .iter()
        .filter(|w| w.contains("longer than"))
        .collect();
    assert_eq!(cut.len(), 2, "{cut:?}");
    assert!(
        cut[0].starts_with(&format!("line {} ", at("Loading Environment") + 1)),
        "{cut:?}"
    );
    assert!(
        cut[1].starts_with(&format!("line {} ", at("Hit any key") + 1)),
        "{cut:?}"
    );

    // Fed in pieces, as `perfguide parse` does (64 KiB) and smaller: the same boot.
    for chunk in [4096, 1 << 16, 100_003] {
        let mut p = Parser::new(&BoardProfile::generic());
        let mut got = Vec::new();
        for c in log.chunks(chunk) {
            p.feed(c);
            got.extend(p.take_boots());
        }
        got.extend(p.finish());
        assert_eq!(got, whole, "chunks of {chunk}");
    }
}

/// initcall_debug's driver probe lines: each device's probe time beside the initcalls, and
/// the deferred ones (`-517`) counted with the time they ran.
#[test]
fn driver_probes_with_their_times_and_deferrals() {
    let log = "\
[    0.000000] Booting Linux on physical CPU 0x0000000000 [0x410fd083]
[    0.412345] calling  mmc_blk_init+0x0/0xfc @ 1
[    0.412901] initcall mmc_blk_init+0x0/0xfc returned 0 after 541 usecs
[    1.102233] probe of fe340000.mmc returned 0 after 5120 usecs
[    1.110040] probe of 2-0050 returned -517 after 41 usecs
[    1.110522] probe of fe9c0000.pcie returned -517 after 388 usecs
[    1.412211] probe of 2-0050 returned 0 after 1733 usecs
[    1.796412] Run /sbin/init as init process
buildroot login: \n";
    let b = &parse(log.as_bytes())[0];
    assert_eq!(b.initcalls.len(), 1);
    let probes: Vec<(&str, i64, u64, Option<f64>)> = b
        .probes
        .iter()
        .map(|p| (p.device.as_str(), p.ret, p.duration_us, p.ts_s))
        .collect();
    assert_eq!(
        probes,
        [
            ("fe340000.mmc", 0, 5120, Some(1.102233)),
            ("2-0050", -517, 41, Some(1.11004)),
            ("fe9c0000.pcie", -517, 388, Some(1.110522)),
            ("2-0050", 0, 1733, Some(1.412211)),
        ]
    );
    assert_eq!(b.deferred_probes(), (2, 429));
    // In the JSON after the initcalls, as serde writes it.
    let serde = serde_json::to_string(b).unwrap();
    let mut fast = Vec::new();
    bootlog_parser::json::write_boot(&mut fast, b);
    assert_eq!(String::from_utf8(fast).unwrap(), serde);
    assert!(serde.contains(
        r#""probes":[{"device":"fe340000.mmc","duration_us":5120,"ret":0,"ts_s":1.102233},"#
    ));
    // A boot with no probe line writes no key.
    let b = &parse(kernel_log("/init").as_bytes())[0];
    assert!(!serde_json::to_string(b).unwrap().contains("probes"));
}
