//! The boot timeline model: what one boot looked like, stage by stage, with every figure tagged
//! by the clock it came from. Serialised as `perfguide/boot-log/v1` (see the README).

use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// Schema id of `perfguide parse --format json`.
pub const BOOT_LOG_SCHEMA: &str = "perfguide/boot-log/v1";
/// Schema id of one line of `boots.jsonl`.
pub const BOOT_SCHEMA: &str = "perfguide/boot/v1";

/// Canonical boot stages, in boot order (`Ord` follows it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StageId {
    /// PMIC / power-on reset; only from an external capture.
    Power,
    /// Boot ROM (and on a Raspberry Pi the EEPROM bootloader and VideoCore firmware).
    Rom,
    /// TI secondary bootloader (PDK SBL or MCU+ SDK SBL).
    Sbl,
    /// SYSFW / TIFS load and board configuration.
    Sysfw,
    /// U-Boot SPL on the R5 core of a TI K3 SoC.
    #[serde(rename = "r5-spl")]
    R5Spl,
    /// Trusted Firmware-A (BL31).
    Tfa,
    /// OP-TEE OS.
    Optee,
    /// U-Boot SPL on the application core (also AM335x MLO, i.MX SPL, ...).
    #[serde(rename = "a-spl")]
    ASpl,
    /// U-Boot proper.
    Uboot,
    /// Linux, from its first line to `Run /init` (or the first userspace line).
    Kernel,
    /// Userspace up to the ready marker (login prompt).
    Userspace,
}

impl StageId {
    /// Every stage, in boot order.
    pub const ALL: [StageId; 11] = [
        StageId::Power,
        StageId::Rom,
        StageId::Sbl,
        StageId::Sysfw,
        StageId::R5Spl,
        StageId::Tfa,
        StageId::Optee,
        StageId::ASpl,
        StageId::Uboot,
        StageId::Kernel,
        StageId::Userspace,
    ];

    /// The id as written in JSON and tables.
    pub fn as_str(self) -> &'static str {
        match self {
            StageId::Power => "power",
            StageId::Rom => "rom",
            StageId::Sbl => "sbl",
            StageId::Sysfw => "sysfw",
            StageId::R5Spl => "r5-spl",
            StageId::Tfa => "tfa",
            StageId::Optee => "optee",
            StageId::ASpl => "a-spl",
            StageId::Uboot => "uboot",
            StageId::Kernel => "kernel",
            StageId::Userspace => "userspace",
        }
    }
}

impl std::fmt::Display for StageId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which clock a figure came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Clock {
    /// When the capture saw the line (seconds since power-on or capture start).
    Host,
    /// What the line itself says (printk, bootstage, SBL profile, systemd).
    Target,
    /// Placed from the other two (e.g. a boundary from a target duration and a host mark).
    Derived,
}

/// One stage of one boot. Times are seconds on the stage's clock; absent when unknown.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stage {
    /// Canonical stage id.
    pub id: StageId,
    /// When the stage began.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub start_s: Option<f64>,
    /// When the stage ended (the next stage began, or the boot ended).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub end_s: Option<f64>,
    /// How long it took.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub duration_s: Option<f64>,
    /// Which clock the figures are on.
    pub clock: Clock,
    /// 1-based line of the log where the stage was first seen.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub line: Option<u64>,
    /// Console bytes printed during the stage (at 115200 baud each costs ~87 µs).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub console_bytes: Option<u64>,
}

/// One step of a TI SBL profile (PDK `SBL_printProfileLog` or MCU+ `[BOOTLOADER PROFILE]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SblPoint {
    /// Which SBL run of this boot (0 = first stage, 1 = second stage of a multistage boot).
    pub run: u32,
    /// Step name (MCU+) or function name (PDK).
    pub name: String,
    /// Duration of the step (MCU+ prints it).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub duration_us: Option<u64>,
    /// Timestamp since SBL start (PDK prints it).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub timestamp_us: Option<u64>,
    /// Source line number inside the SBL (PDK prints it).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub src_line: Option<u32>,
    /// Raw cycle count (PDK prints it).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub cycle: Option<u64>,
}

/// One record of a U-Boot bootstage report (`Timer summary in microseconds`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BootstageRecord {
    /// Record name (`board_init_f`, `id=175`, ...).
    pub name: String,
    /// Time since reset, µs (target clock).
    pub mark_us: u64,
    /// Time since the previous record, µs.
    pub elapsed_us: u64,
}

/// One line of a bootstage `Accumulated time:` block.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BootstageAccum {
    /// What was accumulated (`dm_r`, `dm_spl`, ...).
    pub name: String,
    /// Total µs.
    pub us: u64,
}

/// A bootstage report an SPL printed itself, on its own timer: the R5 SPL of a TI K3 SoC
/// (`SPL_BOOTSTAGE_REPORT`, just before `Starting ATF on ARM64 core...`), or any SPL built to
/// print one before it hands over. A report is an SPL's when it is printed while that SPL is
/// the running stage (before U-Boot proper's banner); U-Boot proper's reports are
/// [`Boot::bootstage`]'s. [`crate::spl_breakdown`] derives the SPL's steps from it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SplBootstage {
    /// The stage that printed it: `r5-spl` or `a-spl`.
    pub stage: StageId,
    /// 1-based line of its `Timer summary in microseconds` header.
    pub line: u64,
    /// Host time of the header line (seconds on the boot's host clock, as stage times), when
    /// the capture stamped it.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub host_s: Option<f64>,
    /// Its records, as printed (µs on the SPL's timer).
    pub records: Vec<BootstageRecord>,
    /// Its `Accumulated time:` lines.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub accumulated: Vec<BootstageAccum>,
}

/// One kernel initcall from `initcall_debug`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Initcall {
    /// Function name without the `+0x0/0x90` offset.
    pub name: String,
    /// How long it ran.
    pub duration_us: u64,
    /// Its return value.
    #[serde(default)]
    pub ret: i64,
    /// printk timestamp of the `initcall ... returned` line, if printed.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub ts_s: Option<f64>,
}

/// One driver probe of a device, as `initcall_debug` prints it: `probe of DEV returned R
/// after N usecs`. A device whose probe is deferred (`-517`, `-EPROBE_DEFER`) is probed again
/// later: each attempt is one entry, and the deferred ones' durations are the time deferral
/// cost ([`Boot::deferred_probes`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeviceProbe {
    /// The device's name (`fe340000.mmc`, `1-1:1.0`).
    pub device: String,
    /// How long the probe ran.
    pub duration_us: u64,
    /// Its return value: 0 bound, -517 deferred, -19 or -6 no such device, ...
    #[serde(default)]
    pub ret: i64,
    /// printk timestamp of the line, if printed.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub ts_s: Option<f64>,
}

/// `-EPROBE_DEFER`: a probe that asks to be tried again later.
pub const EPROBE_DEFER: i64 = -517;

/// Kernel facts (target clock: printk timestamps).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct KernelInfo {
    /// `Linux version` string (the release).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub version: Option<String>,
    /// First printk timestamp seen.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub first_ts_s: Option<f64>,
    /// printk timestamp of the first `Run <path> as init process` (or of `Freeing unused
    /// kernel memory` when no such line follows it).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub init_ts_s: Option<f64>,
    /// Last printk timestamp seen before the boot ended.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub last_ts_s: Option<f64>,
    /// Kernel command line.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub cmdline: Option<String>,
    /// Machine model line.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub machine: Option<String>,
}

/// The system a boot ran on, as a collection script recorded it beside the kernel messages
/// (the Linux Boot-Time SIG's `grab-boot-data.sh`): what lets boots of different machines be
/// compared.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SystemInfo {
    /// The collector and its version, e.g. `grab-boot-data.sh 1.5`.
    pub source: String,
    /// `GBD_LAB`: the lab that ran it.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub lab: Option<String>,
    /// `GBD_MACHINE`: the machine's name in that lab.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub machine: Option<String>,
    /// `GBD_TIMESTAMP`: when the data was taken.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub taken: Option<String>,
    /// CPUs `/proc/cpuinfo` lists.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub cpus: Option<u32>,
    /// `BogoMIPS` of the first CPU.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub bogomips: Option<f64>,
    /// Kernel configuration, `CONFIG_*` to its value (`y`, `m`, a number, a quoted string as
    /// written); options that are `is not set` are left out.
    pub config: BTreeMap<String, String>,
}

/// One `systemd-analyze blame` row or one unit of a critical chain.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SystemdUnit {
    /// Unit name.
    pub name: String,
    /// How long it took to start (blame) or its `+x` (critical chain).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub duration_s: Option<f64>,
    /// When it became active (critical chain `@x`).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub at_s: Option<f64>,
}

/// systemd facts (target clock).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SystemdInfo {
    /// `(firmware)` part of `Startup finished`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub firmware_s: Option<f64>,
    /// `(loader)` part.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub loader_s: Option<f64>,
    /// `(kernel)` part.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub kernel_s: Option<f64>,
    /// `(initrd)` part.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub initrd_s: Option<f64>,
    /// `(userspace)` part.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub userspace_s: Option<f64>,
    /// The `= total`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub total_s: Option<f64>,
    /// `... reached after X in userspace`: (target, seconds).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub target_reached: Option<(String, f64)>,
    /// `systemd-analyze blame` rows, as printed (slowest first).
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub blame: Vec<SystemdUnit>,
    /// `systemd-analyze critical-chain` units, top to bottom.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub critical_chain: Vec<SystemdUnit>,
    /// Units reported `[FAILED]`.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub failed: Vec<String>,
    /// Count of `[  OK  ]` lines.
    #[serde(default)]
    pub ok_lines: u64,
}

/// A notable line: where a stage boundary or a known event was seen.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Mark {
    /// What it is (`uboot_banner`, `starting_kernel`, `run_init`, `login`, ...). Borrowed when
    /// it is one of the parser's fixed kinds (most are), so a mark costs no allocation.
    pub kind: Cow<'static, str>,
    /// 1-based line number in the input.
    pub line: u64,
    /// Host clock, seconds, if the capture had one.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub host_s: Option<f64>,
    /// Target clock (printk), seconds, if the line had one.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub target_s: Option<f64>,
}

/// One boot found in a log.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Boot {
    /// 0-based index of the boot in the input.
    pub index: usize,
    /// The ready marker (login prompt or the board's pattern) was seen.
    pub complete: bool,
    /// First and last 1-based input lines of this boot.
    pub lines: (u64, u64),
    /// Stages seen, in boot order.
    pub stages: Vec<Stage>,
    /// Versions of what booted: `uboot_spl`, `uboot`, `sysfw`, `tfa`, `optee`, `kernel`, `sbl`, ...
    pub components: BTreeMap<String, String>,
    /// SBL profile points, all runs.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub sbl_profile: Vec<SblPoint>,
    /// SBL total per run, µs.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub sbl_total_us: Vec<u64>,
    /// Bootstage records of U-Boot proper's last report in this boot: the last report not
    /// printed by an SPL (those are [`Boot::spl_bootstage`]'s); empty when U-Boot proper
    /// printed none (a quiet U-Boot).
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub bootstage: Vec<BootstageRecord>,
    /// Bootstage accumulated times of that report.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub bootstage_accumulated: Vec<BootstageAccum>,
    /// Every bootstage report found in this boot (a console can print several), the SPLs'
    /// included, in the order printed.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub bootstage_reports: Vec<Vec<BootstageRecord>>,
    /// The reports SPLs printed themselves (the R5 SPL's on a TI K3 SoC), in the order printed,
    /// each with the stage that printed it and where.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub spl_bootstage: Vec<SplBootstage>,
    /// Kernel initcalls (`initcall_debug`).
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub initcalls: Vec<Initcall>,
    /// Driver probes of devices (`initcall_debug`), in the order printed.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub probes: Vec<DeviceProbe>,
    /// Kernel facts.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub kernel: Option<KernelInfo>,
    /// systemd facts.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub systemd: Option<SystemdInfo>,
    /// The login prompt or ready line, trimmed.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub login_prompt: Option<String>,
    /// Notable lines.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub marks: Vec<Mark>,
    /// Error lines from the boot chain (`### ERROR ###`, panics, failed boot devices).
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub errors: Vec<String>,
    /// Offset of the printk clock on the host clock: the minimum of `host - printk` over the
    /// kernel lines (what is above it is console latency).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub printk_offset_s: Option<f64>,
    /// What a collection script recorded of the system beside the log (a Boot-Time SIG
    /// `grab-boot-data.sh` file): machine, CPUs, kernel configuration.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub system: Option<SystemInfo>,
    /// Things the parser could not tell, or doubts.
    pub warnings: Vec<String>,
}

impl Boot {
    /// The stage with this id, if seen.
    pub fn stage(&self, id: StageId) -> Option<&Stage> {
        self.stages.iter().find(|s| s.id == id)
    }

    /// The first mark of this kind.
    pub fn mark(&self, kind: &str) -> Option<&Mark> {
        self.marks.iter().find(|m| m.kind == kind)
    }

    /// The deferred probes of this boot (`ret` [`EPROBE_DEFER`]): how many, and the µs they
    /// ran in all.
    pub fn deferred_probes(&self) -> (usize, u64) {
        self.probes
            .iter()
            .filter(|p| p.ret == EPROBE_DEFER)
            .fold((0, 0), |(n, us), p| (n + 1, us + p.duration_us))
    }
}
