//! Every real log of the corpus parsed, with the hand-checked facts of `corpus/SOURCES.md`
//! asserted.

use bootlog_parser::{Boot, Clock, StageId};
use perfguide_e2e::{boot_logs, boots, corpus};

fn ids(b: &Boot) -> Vec<StageId> {
    b.stages.iter().map(|s| s.id).collect()
}

fn comp<'a>(b: &'a Boot, k: &str) -> &'a str {
    b.components
        .get(k)
        .map(String::as_str)
        .unwrap_or_else(|| panic!("no component {k}: {:?}", b.components))
}

fn line_of(b: &Boot, kind: &str) -> u64 {
    b.mark(kind)
        .unwrap_or_else(|| panic!("no mark {kind}: {:?}", b.marks))
        .line
}

#[test]
fn every_corpus_log_parses_and_serialises() {
    let logs = boot_logs();
    assert!(logs.len() >= 17, "corpus incomplete: {logs:?}");
    for p in logs {
        let bytes = std::fs::read(&p).unwrap();
        let boots = bootlog_parser::parse_bytes(&bytes, &bootlog_parser::BoardProfile::generic());
        assert!(!boots.is_empty(), "{}: no boot", p.display());
        for b in &boots {
            // The fast writer `perfguide parse --format json` uses gives serde's exact bytes.
            let mut fast = Vec::new();
            bootlog_parser::json::write_boot(&mut fast, b);
            assert_eq!(
                String::from_utf8_lossy(&fast),
                serde_json::to_string(b).unwrap(),
                "{}: json::write_boot differs from serde_json",
                p.display()
            );
            let v = serde_json::to_value(b).unwrap();
            for k in ["index", "complete", "stages", "components", "warnings"] {
                assert!(v.get(k).is_some(), "{}: key {k} missing", p.display());
            }
        }
    }
}

#[test]
fn beagleplay_k3_full_boot() {
    let v = boots(
        "A_k3/beagleplay-am62-debian11-full-boot-to-login.log",
        "am62xx-evm",
    );
    assert_eq!(v.len(), 1);
    let b = &v[0];
    assert!(b.complete);
    assert_eq!(
        ids(b),
        [
            StageId::R5Spl,
            StageId::Tfa,
            StageId::Optee,
            StageId::ASpl,
            StageId::Uboot,
            StageId::Kernel,
            StageId::Userspace
        ]
    );
    assert_eq!(b.stage(StageId::R5Spl).unwrap().line, Some(1));
    assert_eq!(b.stage(StageId::ASpl).unwrap().line, Some(22));
    assert_eq!(b.stage(StageId::Uboot).unwrap().line, Some(27));
    assert_eq!(comp(b, "uboot_spl"), "2021.01-gb248392d");
    assert_eq!(comp(b, "sysfw"), "8.5.3--v08.05.03 (Chill Capybar");
    assert_eq!(comp(b, "sysfw_abi"), "3.1");
    assert_eq!(comp(b, "tfa"), "v2.7(release):v2.7.0-519-gc19116dd6");
    assert_eq!(comp(b, "optee"), "3.19.0-rc1");
    assert_eq!(line_of(b, "starting_atf"), 9);
    assert_eq!(line_of(b, "autoboot"), 45);
    assert_eq!(line_of(b, "starting_kernel"), 66);
    // OP-TEE secondary-CPU lines after `Starting kernel` do not reopen OP-TEE.
    assert_eq!(
        b.stages.iter().filter(|s| s.id == StageId::Optee).count(),
        1
    );
    let k = b.kernel.as_ref().unwrap();
    assert_eq!(
        (k.first_ts_s, k.last_ts_s),
        (Some(1.962102), Some(13.795336))
    );
    assert_eq!(k.version, None, "quiet kernel: no banner");
    let sd = b.systemd.as_ref().unwrap();
    assert_eq!(sd.failed, ["Light Display Manager"]);
    assert_eq!(b.login_prompt.as_deref(), Some("BeaglePlay login:"));
    assert_eq!(line_of(b, "ready"), 172);
    // No host clock: no stage has made-up times.
    assert!(b
        .stages
        .iter()
        .all(|s| s.clock == Clock::Target && s.start_s.is_none() || s.id == StageId::Kernel));
}

#[test]
fn am625_secure_falcon_goes_spl_to_kernel() {
    let b = &boots(
        "A_k3/am625-sk-secure-falcon-spl-to-kernel.log",
        "am62xx-evm",
    )[0];
    assert_eq!(ids(b), [StageId::R5Spl, StageId::Kernel]);
    assert!(b.mark("starting_kernel").is_none());
    assert_eq!(
        comp(b, "uboot_spl"),
        "2025.10-rc5-00482-ge14055bfa9d1-dirty"
    );
    assert_eq!(comp(b, "sysfw"), "11.0.7--v11.00.07 (Fancy Rat)");
    assert_eq!(line_of(b, "linux_booting"), 8);
    assert_eq!(comp(b, "kernel"), "6.6.58-ti-01497-ga7758da17c28-dirty");
    let k = b.kernel.as_ref().unwrap();
    assert_eq!((k.first_ts_s, k.last_ts_s), (Some(0.0), Some(0.0)));
    assert!(!b.complete, "the doc log is truncated at the command line");
    assert_eq!(b.lines.1, 60);
}

#[test]
fn am62x_hs_failure_is_an_incomplete_boot_with_the_error() {
    let v = boots("A_k3/am62x-hs-spl-fat-cluster-failure.log", "am62xx-evm");
    assert_eq!(v.len(), 1, "the A53 SPL after TF-A is not a reset");
    let b = &v[0];
    assert_eq!(
        ids(b),
        [StageId::R5Spl, StageId::Tfa, StageId::Optee, StageId::ASpl]
    );
    assert!(!b.complete);
    assert_eq!(comp(b, "tfa"), "v2.8(release):v2.8-226-g2fcd408bb");
    assert_eq!(comp(b, "optee"), "Unknown_3.20");
    assert_eq!(b.stage(StageId::Tfa).unwrap().line, Some(18));
    assert_eq!(b.stage(StageId::ASpl).unwrap().line, Some(33));
    assert!(
        b.errors
            .iter()
            .any(|e| e.starts_with("line 40: ### ERROR ###")),
        "{:?}",
        b.errors
    );
    assert!(b
        .errors
        .iter()
        .any(|e| e.contains("SPL: failed to boot from all boot devices")));
}

#[test]
fn generic_profile_recognises_the_k3_spl_pair() {
    let b = &boots(
        "A_k3/beagleplay-am62-debian11-full-boot-to-login.log",
        "generic",
    )[0];
    assert_eq!(
        ids(b)[..4],
        [StageId::R5Spl, StageId::Tfa, StageId::Optee, StageId::ASpl]
    );
}

#[test]
fn mcu_plus_multistage_sbl_ospi() {
    let b = &boots(
        "B_sbl/mcupsdk-am62x-sbl-ospi-linux-multistage.log",
        "am62xx-evm",
    )[0];
    assert!(b.complete);
    assert_eq!(b.sbl_total_us, [61628, 77797]);
    let run0: Vec<&str> = b
        .sbl_profile
        .iter()
        .filter(|p| p.run == 0)
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(
        run0,
        [
            "System_init",
            "Drivers_open",
            "Board_driversOpen",
            "Sciclient Get Version",
            "App_waitForMcuPbist",
            "App_waitForMcuLbist",
            "App_loadImages",
            "App_loadSelfcoreImage"
        ]
    );
    let run1 = b
        .sbl_profile
        .iter()
        .filter(|p| p.run == 1)
        .collect::<Vec<_>>();
    assert_eq!(run1.last().unwrap().name, "App_loadLinuxImages");
    assert_eq!(run1.last().unwrap().duration_us, Some(29163));
    assert_eq!(b.sbl_profile[0].duration_us, Some(6411));
    assert_eq!(line_of(b, "sbl_total"), 19);
    assert_eq!(comp(b, "sysfw"), "9.0.5--v09.00.05 (Kool Koala)");
    assert_eq!(comp(b, "tfa"), "v2.8(release):v2.8-226-g2fcd408bb3-dirty");
    assert_eq!(comp(b, "uboot_spl"), "2023.04-ga3595f1e3e");
    assert_eq!(comp(b, "uboot"), "2023.04-gd6bccb1b9e");
    assert_eq!(b.stage(StageId::Tfa).unwrap().line, Some(46));
    assert_eq!(
        b.stage(StageId::ASpl).unwrap().line,
        Some(49),
        "SPL after TF-A is the A53 SPL"
    );
    assert_eq!(b.stage(StageId::Uboot).unwrap().line, Some(57));
    assert_eq!(b.login_prompt.as_deref(), Some("am62xx-evm login:"));
    assert_eq!(line_of(b, "ready"), 81);
    // Target clock: the SBL stage lasts the sum of the two runs.
    let s = b.stage(StageId::Sbl).unwrap();
    assert_eq!((s.clock, s.duration_s), (Clock::Target, Some(0.139425)));
}

#[test]
fn mcu_plus_kpi_prefix() {
    let b = &boots(
        "B_sbl/mcupsdk-am62ax-sbl-emmc-linux-multistage-kpi.log",
        "am62xx-evm",
    )[0];
    assert_eq!(b.sbl_total_us, [157040, 140769]);
    assert!(b
        .sbl_profile
        .iter()
        .any(|p| p.run == 1 && p.name == "App_loadDSPImages" && p.duration_us == Some(24483)));
    assert_eq!(line_of(b, "sbl_total"), 17);
    assert_eq!(b.login_prompt.as_deref(), Some("am62axx-evm login:"));
    assert_eq!(line_of(b, "ready"), 70);
}

#[test]
fn mcu_plus_am64x_sysfw_load_first() {
    let b = &boots("B_sbl/mcupsdk-am64x-sbl-ospi-linux.log", "am64xx-evm")[0];
    assert_eq!(b.sbl_total_us, [65575]);
    assert_eq!(b.sbl_profile[0].name, "SYSFW Load");
    assert_eq!(b.sbl_profile[0].duration_us, Some(17592));
    assert_eq!(comp(b, "tfa"), "v2.5(release):08.00.00.004-dirty");
    assert!(comp(b, "uboot_spl").starts_with("2021.01"));
    assert_eq!(b.login_prompt.as_deref(), Some("am64xx-evm login:"));
    assert_eq!(line_of(b, "ready"), 35);
}

#[test]
fn pdk_sbl_j721e_excerpt() {
    let b = &boots(
        "B_sbl/e2e-j721e-pdk-sbl-mmcsd-hlos-excerpt.log",
        "j721e-evm",
    )[0];
    assert_eq!(comp(b, "sbl"), "01.00.10.01");
    assert_eq!(comp(b, "sysfw"), "10.0.8--v10.00.08 (Fiery Fox)");
    assert_eq!(b.stage(StageId::Sbl).unwrap().line, Some(1));
    assert!(
        b.sbl_profile.is_empty(),
        "no profile timing in this excerpt"
    );
    assert!(b.mark("sysfw_board_config").is_some());
    assert!(!b.complete);
}

#[test]
fn bbb_wrapped_kernel_and_output_after_login() {
    let v = boots(
        "C_am335x/bbb-uboot2013.04-angstrom-3.8.13-wrapped-80col.log",
        "beaglebone",
    );
    assert_eq!(v.len(), 1);
    let b = &v[0];
    assert_eq!(
        ids(b)[..3],
        [StageId::ASpl, StageId::Uboot, StageId::Kernel]
    );
    assert_eq!(comp(b, "uboot_spl"), "2013.04-dirty");
    assert_eq!(b.stage(StageId::Uboot).unwrap().line, Some(18));
    assert_eq!(line_of(b, "starting_kernel"), 74);
    assert_eq!(line_of(b, "linux_uncompressing"), 76);
    assert_eq!(b.kernel.as_ref().unwrap().last_ts_s, Some(5.787679));
    assert_eq!(b.login_prompt.as_deref(), Some("beaglebone login:"));
    assert_eq!(line_of(b, "ready"), 111);
    assert_eq!(
        b.lines.1, 112,
        "output after the login prompt stays in the boot"
    );
}

#[test]
fn beaglebone_white_with_markdown_fences() {
    let b = &boots(
        "C_am335x/beaglebone-white-angstrom-uboot2012.10-kernel3.7-split-blocks.log",
        "beaglebone",
    )[0];
    assert_eq!(b.stage(StageId::ASpl).unwrap().line, Some(1));
    assert_eq!(b.stage(StageId::Uboot).unwrap().line, Some(7));
    assert_eq!(line_of(b, "starting_kernel"), 43);
    let k = b.kernel.as_ref().unwrap();
    assert_eq!(
        (k.first_ts_s, k.last_ts_s),
        (Some(0.059015), Some(0.718152))
    );
    assert_eq!(b.login_prompt.as_deref(), Some("bone-mainline login:"));
    assert_eq!(line_of(b, "ready"), 65);
}

#[test]
fn rpi4_eeprom_firmware_and_glued_kernel_line() {
    let b = &boots(
        "D_rpi/rpi4-uart-eeprom-start4-mess-kernel-annotated-blocks.log",
        "raspberrypi4",
    )[0];
    assert_eq!(comp(b, "rpi_bootloader"), "8ba17717 (2023/01/11)");
    assert_eq!(ids(b), [StageId::Rom, StageId::Kernel]);
    assert_eq!(line_of(b, "starting_start4"), 65);
    assert_eq!(
        line_of(b, "linux_booting"),
        120,
        "kernel line glued to the MESS: prefix"
    );
    assert_eq!(comp(b, "kernel"), "6.1.21-v8+");
    assert_eq!(
        b.kernel.as_ref().unwrap().machine.as_deref(),
        Some("Raspberry Pi 4 Model B Rev 1.2")
    );
    // No host clock, but the firmware's `MESS:` stamps time the ROM + firmware stage.
    let rom = b.stage(StageId::Rom).unwrap();
    assert_eq!(
        (rom.clock, rom.start_s, rom.duration_s),
        (Clock::Target, Some(0.0), Some(8.746506))
    );
}

#[test]
fn rpi4_eeprom_netboot_fallback() {
    let b = &boots(
        "D_rpi/rpi4-eeprom-bootloader-2021-11-22-uart-netboot-fallback.log",
        "raspberrypi4",
    )[0];
    assert_eq!(comp(b, "rpi_bootloader"), "3c912e10 (2021/11/22)");
    assert_eq!(ids(b), [StageId::Rom]);
    assert!(b.kernel.is_none());
}

#[test]
fn stm32_five_bootstage_reports() {
    let b = &boots(
        "E_bootstage/stm32mp157c-dk2-bootstage-before-after-dcache.log",
        "generic",
    )[0];
    assert_eq!(b.bootstage_reports.len(), 5);
    let sizes: Vec<usize> = b.bootstage_reports.iter().map(Vec::len).collect();
    // The headers count 9 and 12 records; U-Boot does not print the ones never marked.
    assert_eq!(sizes, [7, 7, 9, 9, 9]);
    let last = |i: usize| b.bootstage_reports[i].last().unwrap().clone();
    assert_eq!(
        (last(0).name.as_str(), last(0).mark_us),
        ("id=175", 5_563_519)
    );
    assert_eq!(
        (last(1).name.as_str(), last(1).mark_us),
        ("id=175", 3_680_827)
    );
    assert_eq!(b.bootstage_reports[0][2].elapsed_us, 1_765_608);
    assert!(b.bootstage_reports[2].iter().any(|r| r.name == "SPL"));
    assert!(b.bootstage_accumulated.iter().any(|a| a.name == "dm_r"));
    assert!(
        !b.warnings.iter().any(|w| w.contains("announced")),
        "{:?}",
        b.warnings
    );
}

#[test]
fn initcall_debug_excerpt() {
    let b = &boots(
        "F_initcall/qemu-kvm-x86-6.8rc2-rcutorture-initcall-debug-excerpt.log",
        "generic",
    )[0];
    assert_eq!(b.initcalls.len(), 99, "100 calling lines, the last one cut");
    let pci = b
        .initcalls
        .iter()
        .find(|c| c.name == "pci_subsys_init")
        .unwrap();
    assert_eq!((pci.duration_us, pci.ret), (61000, 0));
    assert_eq!(b.initcalls.iter().filter(|c| c.ret == -19).count(), 6);
    assert!(b
        .initcalls
        .iter()
        .any(|c| c.name == "rapl_pmu_init" && c.ret == -19));
    assert!(b.warnings.iter().any(|w| w.contains("never returned")));
}

#[test]
fn systemd_analyze_time_blame_chain() {
    let b = &boots(
        "G_systemd/popos-time-blame-critical-chain-html-entities.log",
        "generic",
    )[0];
    let sd = b.systemd.as_ref().unwrap();
    assert_eq!(sd.kernel_s, Some(4.865));
    assert!((sd.userspace_s.unwrap() - 93.629).abs() < 1e-9);
    assert!((sd.total_s.unwrap() - 116.552).abs() < 1e-9);
    assert_eq!(sd.firmware_s, Some(17.576));
    assert_eq!(sd.loader_s, Some(0.481));
    let top = sd
        .blame
        .iter()
        .max_by(|a, b| a.duration_s.partial_cmp(&b.duration_s).unwrap())
        .unwrap();
    assert_eq!(
        (top.name.as_str(), top.duration_s),
        ("plymouth-quit-wait.service", Some(3.006))
    );
    assert!(sd.blame.len() > 20);
    assert!(sd.blame.iter().any(|u| u.name.contains("\\x2d")));
    assert!(sd
        .critical_chain
        .iter()
        .any(|u| u.name == "plymouth-quit-wait.service" && u.duration_s == Some(3.006)));
    assert_eq!(
        sd.target_reached.as_ref().map(|t| t.0.as_str()),
        Some("graphical.target")
    );
}

#[test]
fn grabserial_normal_and_falcon() {
    let v = boots(
        "H_grabserial_lava/grabserial-rk3288-vyasa-normal-and-falcon.log",
        "generic",
    );
    assert_eq!(v.len(), 2);
    let (n, f) = (&v[0], &v[1]);
    assert!(n.complete && f.complete);
    // The grabserial command line and banner mention "Starting kernel": not a hand-off.
    assert_eq!(line_of(n, "starting_kernel"), 53);
    assert_eq!(n.mark("starting_kernel").unwrap().host_s, Some(1.974911));
    // The base time reset after `Starting kernel` is made continuous: login at 1.974911 + 4.750725.
    assert_eq!(n.mark("ready").unwrap().host_s, Some(6.725636));
    assert_eq!(comp(n, "uboot_tpl"), "2017.09-rc2-13373-g2cffd0d-dirty");
    // Glued records on line 13 are split.
    assert!(n
        .marks
        .iter()
        .any(|m| m.kind == "trying_to_boot" && m.line == 13 && m.host_s == Some(0.223097)));
    let u = n.stage(StageId::Uboot).unwrap();
    assert_eq!(
        (u.clock, u.start_s, u.end_s),
        (Clock::Host, Some(0.436696), Some(1.974911))
    );
    // Falcon: SPL straight to the kernel, no base-time reset.
    assert!(f.mark("starting_kernel").is_none());
    assert!(f.stage(StageId::Uboot).is_none());
    assert_eq!(f.mark("ready").unwrap().host_s, Some(2.586697));
    // Nested printk stamps under host stamps: offset of the printk clock found.
    let o = f.printk_offset_s.unwrap();
    assert!((1.64..1.65).contains(&o), "{o}");
}

#[test]
fn minicom_three_captures() {
    let v = boots(
        "H_grabserial_lava/ti-psdk-boot-time-minicom-timestamps.log",
        "am62xx-evm",
    );
    assert_eq!(v.len(), 3);
    let t: Vec<f64> = v
        .iter()
        .map(|b| b.mark("ready").unwrap().host_s.unwrap())
        .collect();
    assert!(
        (t[0] - 0.780).abs() < 1e-6 && (t[1] - 0.795).abs() < 1e-6,
        "{t:?}"
    );
    // The third capture's clock goes back (a typo in the source): warned, not fatal.
    assert!(v[2].warnings.iter().any(|w| w.contains("went back")));
    assert!(v
        .iter()
        .all(|b| b.complete && b.stage(StageId::Userspace).is_none()));
}

#[test]
fn andes_riscv_falcon_opensbi() {
    let b = &boots("X_other/andes-ae350-riscv-falcon-opensbi.log", "generic")[0];
    assert_eq!(ids(b), [StageId::ASpl, StageId::Tfa, StageId::Kernel]);
    assert_eq!(comp(b, "uboot_spl"), "2023.01-00031-g777ecdea66");
    assert_eq!(comp(b, "opensbi"), "v1.2-51-g7304e42");
    assert_eq!(comp(b, "kernel"), "6.1.47-09019-g0584b09ad862-dirty");
    assert_eq!(b.kernel.as_ref().unwrap().last_ts_s, Some(0.0));
}

#[test]
fn unknown_text_degrades_to_warnings() {
    let b = &bootlog_parser::parse_bytes(
        &corpus("I_bench/stream-5.10-oci-epyc9654-nps1-nps4.log"),
        &bootlog_parser::BoardProfile::generic(),
    )[0];
    assert!(b.stages.is_empty());
    assert!(!b.complete);
    assert!(b.warnings.iter().any(|w| w.contains("ready marker")));
}

#[test]
fn qemu_reference_board_capture() {
    let b = &boots("qemu/qemu-arm64-boot.log", "qemu-arm64")[0];
    assert!(b.complete);
    assert_eq!(
        ids(b),
        [StageId::Uboot, StageId::Kernel, StageId::Userspace]
    );
    assert_eq!(b.stage(StageId::Uboot).unwrap().line, Some(3));
    assert_eq!(comp(b, "uboot"), "2023.01");
    assert_eq!(comp(b, "kernel"), "6.1.0-57-cloud-arm64");
    assert_eq!(line_of(b, "autoboot"), 14);
    assert_eq!(line_of(b, "starting_kernel"), 59);
    assert_eq!(line_of(b, "linux_booting"), 61);
    // The bootstage report: 13 records announced, reset .. start_kernel printed.
    assert_eq!(b.bootstage.first().unwrap().name, "reset");
    let last = b.bootstage.last().unwrap();
    assert_eq!(
        (last.name.as_str(), last.mark_us),
        ("start_kernel", 1_147_570)
    );
    assert_eq!(b.bootstage.len(), 11);
    let acc: Vec<(&str, u64)> = b
        .bootstage_accumulated
        .iter()
        .map(|a| (a.name.as_str(), a.us))
        .collect();
    assert_eq!(acc, [("dm_f", 12_151), ("dm_r", 34_218)]);
    let k = b.kernel.as_ref().unwrap();
    assert_eq!(k.last_ts_s, Some(1.483848));
    assert!(b
        .marks
        .iter()
        .any(|m| m.kind == "run_init" && m.line == 269));
    assert_eq!(b.login_prompt.as_deref(), Some("perfguide-qemu login:"));
    assert_eq!(line_of(b, "ready"), 273);
}
