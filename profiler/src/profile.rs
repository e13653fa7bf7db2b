//! A board profile as the profiler reads it: the parser's [`BoardProfile`] (stages, markers,
//! ready pattern) and the lab sections the parser does not read, typed:
//!
//! - `[console]` ([`ConsoleConfig`]): where the console bytes come from;
//! - `[power]` ([`PowerConfig`]): how the board is switched off and on;
//! - `[qemu]` ([`QemuConfig`]): the emulator of a `driver = "qemu"` board;
//! - `[image]` ([`ImageSection`]): how `perfguide image build` makes the board's image;
//! - `[login]` ([`LoginConfig`]): how `perfguide bench` and a quiet boot loop log in on the
//!   console;
//! - `[boot_loop]` ([`BootLoopSection`]): the board's console mode for `perfguide boot-loop`;
//! - `[lava]` ([`LavaSection`]): the board's LAVA device type and boot, for `perfguide lava job`;
//! - `[bench]` ([`BenchSection`]): what the target needs before `perfguide-bench` runs;
//! - `[[uboot]]` ([`UbootBuild`]): the board's boot loaders as the Yocto layer instruments
//!   them, for `perfguide image uboot`.
//!
//! A section is read from the profile's TOML text, so an unknown key, a missing one or a
//! value of the wrong type is an error naming the profile, the line and the key.

use anyhow::Context;
use bootlog_parser::board::{BoardError, BoardProfile, BUILTIN};
use serde::de::IgnoredAny;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Errors reading the lab sections of a board profile.
#[derive(Debug, thiserror::Error)]
pub enum ProfileError {
    /// The parser's part of the profile is invalid.
    #[error(transparent)]
    Board(Box<BoardError>),
    /// A section does not deserialize (the TOML error names the line and the key).
    #[error("board profile {source_name}: {error}")]
    Toml {
        /// Profile name or path.
        source_name: String,
        /// The TOML error.
        error: Box<toml::de::Error>,
    },
    /// A section is missing or a key's value cannot be used.
    #[error("board {board}: {message}")]
    Invalid {
        /// Board name.
        board: String,
        /// What is wrong, naming the section and the key.
        message: String,
    },
    /// A `[qemu] args` entry names a `{placeholder}` nobody supplied.
    #[error("board {board}: [qemu] args: no value for {{{name}}} in {arg:?} (known: {known})")]
    Placeholder {
        /// Board name.
        board: String,
        /// The argument.
        arg: String,
        /// The placeholder name.
        name: String,
        /// Names that are known.
        known: String,
    },
}

impl From<BoardError> for ProfileError {
    fn from(e: BoardError) -> Self {
        ProfileError::Board(Box::new(e))
    }
}

/// A serial console's baud rate when the profile gives none (8N1).
pub const DEFAULT_BAUD: u32 = 115_200;

/// The `[console]` table.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "ConsoleTable")]
pub enum ConsoleConfig {
    /// `kind = "qemu"`: QEMU's serial on stdio (fed by the `qemu` power driver).
    Qemu {},
    /// `kind = "serial"`: a serial device, 8N1.
    Serial {
        /// `device`, e.g. `/dev/ttyUSB0`.
        device: String,
        /// `baud`, 115200 when not given.
        baud: u32,
    },
    /// `kind = "tcp"`: a raw TCP console (ser2net).
    Tcp {
        /// `address`, `host:port`.
        address: String,
    },
    /// `kind = "command"`: a command whose stdout is the console.
    Command {
        /// `argv`; no shell is involved.
        argv: Vec<String>,
    },
    /// `kind = "labgrid"`: the network serial port of the place `[power]` names.
    Labgrid {},
}

/// The `[power]` table.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "PowerTable")]
pub enum PowerConfig {
    /// `driver = "qemu"`: a QEMU process per power cycle.
    Qemu {
        /// `settle_s`, off time, 0 when not given.
        settle_s: f64,
    },
    /// `driver = "command"`: argv lists.
    Command {
        /// `on`: switches on.
        on: Vec<String>,
        /// `off`: switches off.
        off: Vec<String>,
        /// `cycle`: switches off and on again (used when `on` is empty).
        cycle: Vec<String>,
        /// `settle_s`, off time, 1 s when not given.
        settle_s: f64,
        /// `timeout_s`, limit per command, 30 s when not given.
        timeout_s: f64,
    },
    /// `driver = "labgrid"`: a labgrid place, acquired for the run.
    Labgrid {
        /// `place`: the place name.
        place: String,
        /// `coordinator`, `host:port`; when not given, labgrid-client's own default
        /// (`LG_COORDINATOR`, else 127.0.0.1:20408).
        coordinator: Option<String>,
        /// `settle_s`, off time, 1 s when not given.
        settle_s: f64,
        /// `timeout_s`, limit per labgrid-client command, 30 s when not given.
        timeout_s: f64,
    },
}

/// `[console] kind`.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
enum ConsoleKind {
    Qemu,
    Serial,
    Tcp,
    Command,
    Labgrid,
}

/// `[console]` as written: every key of every kind, each read with its own type (so a
/// wrong value is reported at its key), then checked against the kind.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ConsoleTable {
    kind: ConsoleKind,
    device: Option<String>,
    baud: Option<u32>,
    address: Option<String>,
    argv: Option<Vec<String>>,
}

/// `[power] driver`.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
enum PowerKind {
    Qemu,
    Command,
    Labgrid,
}

/// `[power]` as written (see [`ConsoleTable`]).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PowerTable {
    driver: PowerKind,
    on: Option<Vec<String>>,
    off: Option<Vec<String>>,
    cycle: Option<Vec<String>>,
    settle_s: Option<f64>,
    timeout_s: Option<f64>,
    place: Option<String>,
    coordinator: Option<String>,
}

/// An error when a key of `given` (name, present) is set that `allowed` does not list.
fn only(what: &str, given: &[(&str, bool)], allowed: &[&str]) -> Result<(), String> {
    match given.iter().find(|(k, set)| *set && !allowed.contains(k)) {
        Some((k, _)) => Err(format!("{what} takes no `{k}`")),
        None => Ok(()),
    }
}

/// A required key's value, or an error naming it.
fn need<T>(v: Option<T>, what: &str, key: &str) -> Result<T, String> {
    v.ok_or_else(|| format!("{what} needs `{key}`"))
}

impl TryFrom<ConsoleTable> for ConsoleConfig {
    type Error = String;

    fn try_from(t: ConsoleTable) -> Result<Self, String> {
        let given = [
            ("device", t.device.is_some()),
            ("baud", t.baud.is_some()),
            ("address", t.address.is_some()),
            ("argv", t.argv.is_some()),
        ];
        Ok(match t.kind {
            ConsoleKind::Qemu => {
                only("kind = \"qemu\"", &given, &[])?;
                ConsoleConfig::Qemu {}
            }
            ConsoleKind::Serial => {
                let what = "kind = \"serial\"";
                only(what, &given, &["device", "baud"])?;
                ConsoleConfig::Serial {
                    device: need(t.device, what, "device")?,
                    baud: t.baud.unwrap_or(DEFAULT_BAUD),
                }
            }
            ConsoleKind::Tcp => {
                let what = "kind = \"tcp\"";
                only(what, &given, &["address"])?;
                ConsoleConfig::Tcp {
                    address: need(t.address, what, "address")?,
                }
            }
            ConsoleKind::Command => {
                let what = "kind = \"command\"";
                only(what, &given, &["argv"])?;
                ConsoleConfig::Command {
                    argv: need(t.argv, what, "argv")?,
                }
            }
            ConsoleKind::Labgrid => {
                only("kind = \"labgrid\"", &given, &[])?;
                ConsoleConfig::Labgrid {}
            }
        })
    }
}

impl TryFrom<PowerTable> for PowerConfig {
    type Error = String;

    fn try_from(t: PowerTable) -> Result<Self, String> {
        let given = [
            ("on", t.on.is_some()),
            ("off", t.off.is_some()),
            ("cycle", t.cycle.is_some()),
            ("settle_s", t.settle_s.is_some()),
            ("timeout_s", t.timeout_s.is_some()),
            ("place", t.place.is_some()),
            ("coordinator", t.coordinator.is_some()),
        ];
        Ok(match t.driver {
            PowerKind::Qemu => {
                only("driver = \"qemu\"", &given, &["settle_s"])?;
                PowerConfig::Qemu {
                    settle_s: t.settle_s.unwrap_or(0.0),
                }
            }
            PowerKind::Command => {
                only(
                    "driver = \"command\"",
                    &given,
                    &["on", "off", "cycle", "settle_s", "timeout_s"],
                )?;
                PowerConfig::Command {
                    on: t.on.unwrap_or_default(),
                    off: t.off.unwrap_or_default(),
                    cycle: t.cycle.unwrap_or_default(),
                    settle_s: t.settle_s.unwrap_or(1.0),
                    timeout_s: t.timeout_s.unwrap_or(30.0),
                }
            }
            PowerKind::Labgrid => {
                let what = "driver = \"labgrid\"";
                only(
                    what,
                    &given,
                    &["place", "coordinator", "settle_s", "timeout_s"],
                )?;
                PowerConfig::Labgrid {
                    place: need(t.place, what, "place")?,
                    coordinator: t.coordinator,
                    settle_s: t.settle_s.unwrap_or(1.0),
                    timeout_s: t.timeout_s.unwrap_or(30.0),
                }
            }
        })
    }
}

/// A profile's seconds (`settle_s`, `timeout_s`) as a duration; negative or not finite is
/// zero.
pub fn seconds(s: f64) -> Duration {
    Duration::try_from_secs_f64(s.max(0.0)).unwrap_or(Duration::ZERO)
}

/// The `[qemu]` table.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QemuConfig {
    /// The emulator (`qemu-system-aarch64`).
    pub binary: String,
    /// Its arguments, with `{name}` placeholders.
    #[serde(default)]
    pub args: Vec<String>,
}

/// The `[login]` table: how to get a shell on the console once the board is ready. Every key
/// has a default, so a board whose console logs `root` in without a password needs none.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoginConfig {
    /// User name typed at the login prompt.
    #[serde(default = "d_user")]
    pub user: String,
    /// Password typed at the password prompt, when one is asked.
    #[serde(default)]
    pub password: Option<String>,
    /// The login prompt (regex over the console's unfinished line).
    #[serde(default = "d_login_prompt")]
    pub login_prompt: String,
    /// The password prompt (regex).
    #[serde(default = "d_password_prompt")]
    pub password_prompt: String,
    /// The shell prompt (regex over the console's unfinished line).
    #[serde(default = "d_shell_prompt")]
    pub prompt: String,
    /// Seconds from the first keystroke to the shell prompt.
    #[serde(default = "d_login_timeout_s")]
    pub timeout_s: f64,
}

impl Default for LoginConfig {
    fn default() -> Self {
        LoginConfig {
            user: d_user(),
            password: None,
            login_prompt: d_login_prompt(),
            password_prompt: d_password_prompt(),
            prompt: d_shell_prompt(),
            timeout_s: d_login_timeout_s(),
        }
    }
}

fn d_user() -> String {
    "root".into()
}
fn d_login_prompt() -> String {
    bootlog_parser::console::DEFAULT_READY.into()
}
fn d_password_prompt() -> String {
    r"(?i)password:\s*$".into()
}
fn d_shell_prompt() -> String {
    r"[#$>]\s*$".into()
}
fn d_login_timeout_s() -> f64 {
    30.0
}

/// The `[image]` table.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImageSection {
    /// Kernel command line (`printk.time=1` is added when missing).
    pub kernel_cmdline: String,
    /// U-Boot defconfig.
    pub uboot_defconfig: String,
    /// The Yocto layer's U-Boot config fragments (file names in
    /// `meta-perfguide/recipes-bsp/u-boot/files/`), merged on top of the defconfig in order.
    #[serde(default)]
    pub uboot_fragments: Vec<String>,
    /// Kconfig lines of this board merged after them.
    #[serde(default)]
    pub uboot_fragment: Vec<String>,
    /// Binary package whose source package is built (the distribution's U-Boot for QEMU).
    #[serde(default = "d_uboot_package")]
    pub uboot_package: String,
    /// Kernel package (a metapackage is followed to the versioned image package).
    #[serde(default = "d_kernel_package")]
    pub kernel_package: String,
    /// Static busybox package.
    #[serde(default = "d_busybox_package")]
    pub busybox_package: String,
    /// arm64 packages with benchmark programs; ones missing from the apt index are skipped.
    #[serde(default)]
    pub bench_packages: Vec<String>,
    /// Other arm64 packages whose programs the target needs (e.g. `dropbear-bin`, the ssh
    /// server a test reaches the board through), installed the same way.
    #[serde(default)]
    pub packages: Vec<String>,
    /// Kernel modules put into the initramfs (with their dependencies and a `modules.dep`),
    /// for `modprobe` on the target; none is loaded at boot.
    #[serde(default)]
    pub modules: Vec<String>,
    /// Target hostname (the login prompt reads `<hostname> login:`).
    #[serde(default = "d_hostname")]
    pub hostname: String,
    /// Kernel arguments of a quiet boot (`quiet`). When given, the image boots loud or quiet
    /// by the U-Boot environment flash it is given (`{uboot_env}` in `[qemu] args`): the
    /// quiet one sets U-Boot's `silent` and adds these to the command line.
    #[serde(default)]
    pub quiet_kernel_args: Option<String>,
    /// Size of the flash bank that holds U-Boot's environment (QEMU virt: 64 MiB).
    #[serde(default)]
    pub uboot_env_flash_bytes: Option<u64>,
    /// Packages built here from their source as static arm64 programs instead of taking the
    /// distribution's binary, whose optional libraries the initramfs would carry (`fio`).
    /// Each needs a recipe in `profiler/src/image/static_bench.rs`.
    #[serde(default)]
    pub static_benches: Vec<String>,
    /// MiB of an empty ext4 partition after the boot partition (label `scratch`), where
    /// benchmarks that write to storage run; none when absent.
    #[serde(default)]
    pub scratch_mib: Option<u64>,
}

fn d_uboot_package() -> String {
    "u-boot-qemu".into()
}
fn d_kernel_package() -> String {
    "linux-image-cloud-arm64".into()
}
fn d_busybox_package() -> String {
    "busybox-static".into()
}
fn d_hostname() -> String {
    "perfguide-qemu".into()
}

impl ImageSection {
    /// The command line written to extlinux.conf.
    pub fn cmdline(&self) -> String {
        let mut c = self.kernel_cmdline.trim().to_string();
        if !c.split_whitespace().any(|w| w.starts_with("printk.time=")) {
            c.push_str(" printk.time=1");
        }
        c
    }
}

/// The lab sections of a profile; the other keys are the parser's
/// ([`bootlog_parser::board::KEYS`]), named here only so that a key neither reads is an error
/// naming its line.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LabSections {
    #[serde(default, rename = "name")]
    _name: Option<IgnoredAny>,
    #[serde(default, rename = "description")]
    _description: Option<IgnoredAny>,
    #[serde(default, rename = "soc")]
    _soc: Option<IgnoredAny>,
    #[serde(default, rename = "stages")]
    _stages: Option<IgnoredAny>,
    #[serde(default, rename = "first_spl")]
    _first_spl: Option<IgnoredAny>,
    #[serde(default, rename = "ready")]
    _ready: Option<IgnoredAny>,
    #[serde(default, rename = "markers")]
    _markers: Option<IgnoredAny>,
    /// `[console]`.
    #[serde(default)]
    pub console: Option<ConsoleConfig>,
    /// `[power]`.
    #[serde(default)]
    pub power: Option<PowerConfig>,
    /// `[qemu]`.
    #[serde(default)]
    pub qemu: Option<QemuConfig>,
    /// `[image]`.
    #[serde(default)]
    pub image: Option<ImageSection>,
    /// `[login]`.
    #[serde(default)]
    pub login: Option<LoginConfig>,
    /// `[boot_loop]`.
    #[serde(default)]
    pub boot_loop: Option<BootLoopSection>,
    /// `[lava]`.
    #[serde(default)]
    pub lava: Option<LavaSection>,
    /// `[bench]`.
    #[serde(default)]
    pub bench: Option<BenchSection>,
    /// `[[uboot]]`, in build order.
    #[serde(default)]
    pub uboot: Vec<UbootBuild>,
}

/// One `[[uboot]]` table: a U-Boot build of the board (one core's boot loader) with the
/// Yocto layer's config fragments and patches (`meta-perfguide/recipes-bsp/u-boot/files/`),
/// as the layer's bbappends give them to the board's U-Boot recipe.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UbootBuild {
    /// The build's name within the board (`r5`, `a53`, ...): its output directory.
    pub name: String,
    /// U-Boot defconfig.
    pub defconfig: String,
    /// What it is built for: `arm` (32-bit), `arm64`, or `sandbox` (runs on the host).
    pub arch: UbootArch,
    /// Config fragments, file names in the layer's U-Boot files, merged in this order.
    pub fragments: Vec<String>,
    /// Patches, file names in the layer's U-Boot files, applied in this order.
    #[serde(default)]
    pub patches: Vec<String>,
    /// Boot images the build makes that `perfguide image inspect` reads (`tiboot3.bin`,
    /// `tispl.bin`, `u-boot.img`, `MLO`, `sysfw.itb`), paths in the build directory.
    #[serde(default)]
    pub images: Vec<String>,
    /// Other files of the build to keep (`u-boot`, `spl/u-boot-spl` of a sandbox build, to
    /// run them), paths in the build directory.
    #[serde(default)]
    pub files: Vec<String>,
    /// Extra `make` variables (`NO_SDL=1`).
    #[serde(default)]
    pub make_vars: Vec<String>,
}

/// The architecture of a [`UbootBuild`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum UbootArch {
    /// 32-bit Arm (`arm-linux-gnueabihf-`): Cortex-R5 SPL, AM335x.
    Arm,
    /// 64-bit Arm (`aarch64-linux-gnu-`).
    Arm64,
    /// U-Boot's sandbox, built with the host compiler and run on the host.
    Sandbox,
}

impl UbootArch {
    /// The cross compiler prefix (`CROSS_COMPILE`), empty for the host.
    pub fn cross_compile(self) -> &'static str {
        match self {
            UbootArch::Arm => "arm-linux-gnueabihf-",
            UbootArch::Arm64 => "aarch64-linux-gnu-",
            UbootArch::Sandbox => "",
        }
    }

    /// The name as the profile writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            UbootArch::Arm => "arm",
            UbootArch::Arm64 => "arm64",
            UbootArch::Sandbox => "sandbox",
        }
    }
}

/// The `[bench]` table: how the booted board is made ready for `perfguide-bench`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BenchSection {
    /// Shell command lines run once on the target after login, before the runner, as they
    /// are written (loading a driver, mounting the storage under test). One that fails is a
    /// warning: the benchmarks that needed it fail on their own, the others run.
    #[serde(default)]
    pub setup: Vec<String>,
    /// Variables for the runner (the knobs its catalog reads, such as `PERFGUIDE_FIO_DIR`);
    /// `perfguide bench --env` overrides them.
    #[serde(default)]
    pub env: BTreeMap<String, String>,
}

/// `[lava] boot_method`: the LAVA boot action's `method`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LavaBootMethod {
    /// `qemu`: LAVA starts QEMU with the images of a `deploy: to: tmpfs` action, its
    /// machine, CPU, memory and further options taken from `[qemu] args`.
    Qemu,
    /// `minimal`: LAVA power-cycles the board and waits for its login prompt; the image on
    /// the board boots as it is, untouched (the boot a boot-time figure should measure).
    Minimal,
    /// `u-boot`: LAVA interrupts U-Boot and types `boot_commands`.
    UBoot,
}

impl LavaBootMethod {
    /// The name LAVA's job schema gives the method.
    pub fn as_str(self) -> &'static str {
        match self {
            LavaBootMethod::Qemu => "qemu",
            LavaBootMethod::Minimal => "minimal",
            LavaBootMethod::UBoot => "u-boot",
        }
    }
}

/// The `[lava]` table: how a LAVA job boots the board (`perfguide lava job`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LavaSection {
    /// The LAVA device type (a template in LAVA's `etc/dispatcher-config/device-types/`).
    pub device_type: String,
    /// The boot action's method.
    pub boot_method: LavaBootMethod,
    /// `u-boot` only: the boot action's `commands` (a list of U-Boot commands, or one name
    /// of the device type's command sets such as `ramdisk`).
    #[serde(default)]
    pub boot_commands: Vec<String>,
    /// Shell prompts (Python regexes) LAVA waits for after login; default: `[login] prompt`.
    #[serde(default)]
    pub prompts: Vec<String>,
    /// Seconds a boot may take, power-on to shell prompt.
    #[serde(default = "d_lava_boot_timeout_s")]
    pub boot_timeout_s: u64,
}

fn d_lava_boot_timeout_s() -> u64 {
    300
}

/// How the console of a boot is set: loud (everything printed, timed from the console) or
/// quiet (kernel `quiet`, U-Boot silent: the boot as it ships, its stages read back from the
/// target after the ready mark), or both in turns (odd cycles loud, even cycles quiet).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum ConsoleMode {
    /// Every cycle loud.
    #[default]
    Loud,
    /// Every cycle quiet.
    Quiet,
    /// Odd cycles loud, even cycles quiet.
    Both,
}

/// The `[boot_loop]` table: a board's defaults for `perfguide boot-loop`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BootLoopSection {
    /// `--console` when not given: `loud`, `quiet` (a board whose image is built quiet) or
    /// `both`.
    #[serde(default)]
    pub console: ConsoleMode,
}

/// A board profile: the parser's part, the lab sections, and where it came from.
#[derive(Debug, Clone)]
pub struct Board {
    /// What the parser reads.
    pub profile: BoardProfile,
    /// What the lab reads.
    pub lab: LabSections,
    /// `builtin`, or the file or record it was read from.
    pub source: String,
    /// The TOML text.
    pub text: String,
}

impl Board {
    /// Reads a profile from TOML text; `source` names it in errors and in the run manifest.
    pub fn from_toml_str(source: &str, text: &str) -> Result<Board, ProfileError> {
        let profile = BoardProfile::from_toml_str(source, text)?;
        let lab: LabSections = toml::from_str(text).map_err(|error| ProfileError::Toml {
            source_name: source.to_string(),
            error: Box::new(error),
        })?;
        Ok(Board {
            profile,
            lab,
            source: source.to_string(),
            text: text.to_string(),
        })
    }

    /// A profile file (`--board-file`): its path names it in errors and in the run manifest.
    pub fn from_file(path: &Path) -> anyhow::Result<Board> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read board file {}", path.display()))?;
        Ok(Board::from_toml_str(&path.display().to_string(), &text)?)
    }

    /// A built-in profile (`images/boards/<name>.toml`).
    pub fn builtin(name: &str) -> Result<Board, ProfileError> {
        let text = BUILTIN
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| *t)
            .ok_or_else(|| BoardError::Unknown(name.to_string()))?;
        let mut b = Board::from_toml_str(name, text)?;
        b.source = "builtin".into();
        Ok(b)
    }

    /// The board's name.
    pub fn name(&self) -> &str {
        &self.profile.name
    }

    fn invalid(&self, message: impl Into<String>) -> ProfileError {
        ProfileError::Invalid {
            board: self.name().to_string(),
            message: message.into(),
        }
    }

    /// `[console]`, present and usable.
    pub fn console(&self) -> Result<&ConsoleConfig, ProfileError> {
        match &self.lab.console {
            None => Err(self.invalid(
                "[console] is missing; give `kind = \"serial\"|\"tcp\"|\"command\"|\"qemu\"`",
            )),
            Some(ConsoleConfig::Command { argv }) if argv.is_empty() => {
                Err(self.invalid("[console] kind = \"command\" needs a non-empty `argv`"))
            }
            Some(c) => Ok(c),
        }
    }

    /// `[power]`, present and usable.
    pub fn power(&self) -> Result<&PowerConfig, ProfileError> {
        let Some(c) = &self.lab.power else {
            return Err(self.invalid(
                "[power] is missing; give `driver = \"command\"` with `on`/`off` argv lists, \
                 or `driver = \"qemu\"`",
            ));
        };
        match c {
            PowerConfig::Command { on, cycle, .. } if on.is_empty() && cycle.is_empty() => {
                Err(self.invalid(
                    "[power] driver = \"command\" has no `on` (nor `cycle`) command: write \
                     your relay or PDU commands as argv lists in a board file, e.g. \
                     on = [\"usbrelay\", \"RELAY_1=1\"], off = [\"usbrelay\", \"RELAY_1=0\"], \
                     and pass it with --board-file",
                ))
            }
            PowerConfig::Command { on, off, cycle, .. }
                if !on.is_empty() && off.is_empty() && cycle.is_empty() =>
            {
                Err(self.invalid(
                    "[power] has `on` but no `off`: the board could never be switched off",
                ))
            }
            PowerConfig::Labgrid { place, .. } if place.is_empty() => {
                Err(self.invalid("[power] driver = \"labgrid\" needs `place`"))
            }
            c => Ok(c),
        }
    }

    /// The board as a labgrid place: `[power]` becomes `driver = "labgrid"` with `place` (the
    /// coordinator and off time kept from a labgrid `[power]`, the off time from any other),
    /// `[console]` the place's network serial port. The profile's text says so too, so that a
    /// run's `run.json` holds the board as it was driven.
    pub fn on_place(&mut self, place: &str) -> Result<(), ProfileError> {
        let (coordinator, settle_s, timeout_s) = match &self.lab.power {
            Some(PowerConfig::Labgrid {
                coordinator,
                settle_s,
                timeout_s,
                ..
            }) => (coordinator.clone(), *settle_s, *timeout_s),
            Some(PowerConfig::Command { settle_s, .. } | PowerConfig::Qemu { settle_s }) => {
                (None, *settle_s, 30.0)
            }
            None => (None, 1.0, 30.0),
        };
        let mut doc: toml::Table =
            toml::from_str(&self.text).map_err(|error| ProfileError::Toml {
                source_name: self.source.clone(),
                error: Box::new(error),
            })?;
        let mut power = toml::Table::new();
        power.insert("driver".into(), "labgrid".into());
        power.insert("place".into(), place.into());
        if let Some(c) = &coordinator {
            power.insert("coordinator".into(), c.as_str().into());
        }
        power.insert("settle_s".into(), settle_s.into());
        power.insert("timeout_s".into(), timeout_s.into());
        let mut console = toml::Table::new();
        console.insert("kind".into(), "labgrid".into());
        doc.insert("power".into(), power.into());
        doc.insert("console".into(), console.into());
        self.text = toml::to_string(&doc).map_err(|e| self.invalid(e.to_string()))?;
        self.lab.power = Some(PowerConfig::Labgrid {
            place: place.to_string(),
            coordinator,
            settle_s,
            timeout_s,
        });
        self.lab.console = Some(ConsoleConfig::Labgrid {});
        Ok(())
    }

    /// Whether the board is powered by starting QEMU (`[power] driver = "qemu"`).
    pub fn is_qemu(&self) -> bool {
        matches!(self.lab.power, Some(PowerConfig::Qemu { .. }))
    }

    /// `[qemu]`, present.
    pub fn qemu(&self) -> Result<&QemuConfig, ProfileError> {
        self.lab
            .qemu
            .as_ref()
            .ok_or_else(|| self.invalid("[power] driver = \"qemu\" needs a [qemu] table"))
    }

    /// `[login]`, or its defaults (`root`, no password) when the profile has none.
    pub fn login(&self) -> LoginConfig {
        self.lab.login.clone().unwrap_or_default()
    }

    /// `[bench]`, or nothing to set up.
    pub fn bench(&self) -> BenchSection {
        self.lab.bench.clone().unwrap_or_default()
    }

    /// `[lava]`, present and usable.
    pub fn lava(&self) -> Result<&LavaSection, ProfileError> {
        let Some(l) = &self.lab.lava else {
            return Err(self.invalid(format!(
                "its profile ({}) has no [lava] table, so no LAVA job can be written for it: \
                 give `device_type` (a LAVA device type) and `boot_method` (\"qemu\", \
                 \"minimal\" or \"u-boot\") in a board file and pass it with --board-file",
                if self.source == "builtin" {
                    format!("built in, images/boards/{}.toml", self.name())
                } else {
                    self.source.clone()
                }
            )));
        };
        if l.device_type.trim().is_empty() {
            return Err(self.invalid("[lava] device_type is empty"));
        }
        match l.boot_method {
            LavaBootMethod::UBoot if l.boot_commands.is_empty() => {
                Err(self.invalid("[lava] boot_method = \"u-boot\" needs `boot_commands`"))
            }
            LavaBootMethod::Qemu | LavaBootMethod::Minimal if !l.boot_commands.is_empty() => {
                Err(self.invalid(format!(
                    "[lava] boot_method = \"{}\" takes no `boot_commands`",
                    l.boot_method.as_str()
                )))
            }
            LavaBootMethod::Qemu if !self.is_qemu() => Err(self.invalid(
                "[lava] boot_method = \"qemu\" needs [power] driver = \"qemu\" and a [qemu] table",
            )),
            _ if l.boot_timeout_s == 0 => Err(self.invalid("[lava] boot_timeout_s is 0")),
            _ => Ok(l),
        }
    }

    /// `[[uboot]]`: at least one build, names unique.
    pub fn uboot_builds(&self) -> Result<&[UbootBuild], ProfileError> {
        let builds = &self.lab.uboot;
        if builds.is_empty() {
            return Err(self.invalid(
                "no [[uboot]] table: the board has no instrumented U-Boot build described",
            ));
        }
        for (i, b) in builds.iter().enumerate() {
            if builds[..i].iter().any(|o| o.name == b.name) {
                return Err(self.invalid(format!(
                    "[[uboot]] name {:?} is used twice: each build needs its own",
                    b.name
                )));
            }
            if b.name.is_empty() || b.name.contains(['/', '\\']) || b.name.starts_with('.') {
                return Err(self.invalid(format!(
                    "[[uboot]] name {:?} must be a plain directory name",
                    b.name
                )));
            }
            for f in b.fragments.iter().chain(&b.patches) {
                if f.is_empty() || f.contains(['/', '\\']) || f.starts_with('.') {
                    return Err(self.invalid(format!(
                        "[[uboot]] {}: {f:?} must be a plain file name (of the layer's U-Boot \
                         files)",
                        b.name
                    )));
                }
            }
            for f in b.images.iter().chain(&b.files) {
                let p = Path::new(f);
                let plain = p
                    .components()
                    .all(|c| matches!(c, std::path::Component::Normal(_)));
                if f.is_empty() || !plain {
                    return Err(self.invalid(format!(
                        "[[uboot]] {}: {f:?} must be a path inside the build directory",
                        b.name
                    )));
                }
            }
            if let Some(v) = b.make_vars.iter().find(|v| {
                !v.split_once('=').is_some_and(|(k, _)| {
                    !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                })
            }) {
                return Err(self.invalid(format!(
                    "[[uboot]] {}: make_vars entry {v:?} is not NAME=value",
                    b.name
                )));
            }
        }
        Ok(builds)
    }

    /// `[image]`, present.
    pub fn image(&self) -> Result<&ImageSection, ProfileError> {
        self.lab.image.as_ref().ok_or_else(|| {
            self.invalid(
                "no [image] section: perfguide builds images only for boards that have one",
            )
        })
    }

    /// The QEMU argv with `{name}` in `[qemu] args` replaced from `files`; an unknown
    /// placeholder is an error.
    pub fn qemu_argv(
        &self,
        files: &BTreeMap<String, PathBuf>,
    ) -> Result<Vec<String>, ProfileError> {
        let q = self.qemu()?;
        let mut out = vec![q.binary.clone()];
        for arg in &q.args {
            let mut s = String::new();
            let mut rest = arg.as_str();
            while let Some(open) = rest.find('{') {
                let Some(close) = rest[open..].find('}') else {
                    break;
                };
                let name = &rest[open + 1..open + close];
                let v = files.get(name).ok_or_else(|| ProfileError::Placeholder {
                    board: self.name().to_string(),
                    arg: arg.clone(),
                    name: name.to_string(),
                    known: files.keys().cloned().collect::<Vec<_>>().join(", "),
                })?;
                s.push_str(&rest[..open]);
                s.push_str(&v.to_string_lossy());
                rest = &rest[open + close + 1..];
            }
            s.push_str(rest);
            out.push(s);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "name = \"b\"\nstages = [\"uboot\"]\n";

    fn board(sections: &str) -> Result<Board, ProfileError> {
        Board::from_toml_str("b.toml", &format!("{HEAD}{sections}"))
    }

    #[test]
    fn a_key_neither_reads_is_an_error_naming_its_line() {
        let e = Board::from_toml_str("x.toml", "name = \"x\"\nstages = [\"uboot\"]\nbogus = 1\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("x.toml") && e.contains("bogus") && e.contains("line 3"),
            "{e}"
        );
        // The error lists the keys a profile may have: every one the parser reads is there.
        for k in bootlog_parser::board::KEYS {
            assert!(e.contains(&format!("`{k}`")), "{k} not accepted: {e}");
        }
    }

    #[test]
    fn every_builtin_profile_loads() {
        for (name, _) in BUILTIN {
            let b = Board::builtin(name).unwrap();
            assert_eq!(b.name(), *name);
            if b.lab.power.is_some() {
                b.console().unwrap();
            }
        }
        let q = Board::builtin("qemu-arm64").unwrap();
        assert!(q.is_qemu());
        q.power().unwrap();
        assert_eq!(q.image().unwrap().hostname, "perfguide-qemu");
        let e = Board::builtin("am62xx-evm")
            .unwrap()
            .power()
            .unwrap_err()
            .to_string();
        assert!(e.contains("--board-file") && e.contains("usbrelay"), "{e}");
    }

    #[test]
    fn console_kinds() {
        let c = board("[console]\nkind = \"serial\"\ndevice = \"/dev/ttyUSB0\"\n").unwrap();
        assert_eq!(
            c.console().unwrap(),
            &ConsoleConfig::Serial {
                device: "/dev/ttyUSB0".into(),
                baud: 115200
            }
        );
        let c = board("[console]\nkind = \"qemu\"\n").unwrap();
        assert_eq!(c.console().unwrap(), &ConsoleConfig::Qemu {});
        let e = board("[console]\nkind = \"command\"\nargv = []\n")
            .unwrap()
            .console()
            .unwrap_err();
        assert!(e.to_string().contains("argv"), "{e}");
        let e = board("[console]\nkind = \"telepathy\"\n").unwrap_err();
        assert!(e.to_string().contains("telepathy"), "{e}");
        let e = board("").unwrap().console().unwrap_err().to_string();
        assert!(
            e.contains("board b") && e.contains("[console] is missing"),
            "{e}"
        );
    }

    #[test]
    fn a_board_on_a_labgrid_place() {
        let b = board(
            "[power]\ndriver = \"labgrid\"\nplace = \"p\"\ncoordinator = \"lab:20408\"\n\
             [console]\nkind = \"labgrid\"\n",
        )
        .unwrap();
        assert_eq!(
            b.power().unwrap(),
            &PowerConfig::Labgrid {
                place: "p".into(),
                coordinator: Some("lab:20408".into()),
                settle_s: 1.0,
                timeout_s: 30.0,
            }
        );
        // --place on any board: the place's power and console, the profile's text saying so
        // (run.json keeps it, --resume reads it back), the coordinator kept.
        let mut q = Board::builtin("qemu-arm64").unwrap();
        q.on_place("q1").unwrap();
        assert!(!q.is_qemu());
        let again = Board::from_toml_str("run.json", &q.text).unwrap();
        assert_eq!(again.console().unwrap(), &ConsoleConfig::Labgrid {});
        assert_eq!(again.power().unwrap(), q.power().unwrap());
        assert_eq!(again.profile.stages, q.profile.stages);
        assert_eq!(again.lab.qemu, q.lab.qemu);
        let mut b2 = b.clone();
        b2.on_place("other").unwrap();
        assert!(matches!(b2.power().unwrap(),
            PowerConfig::Labgrid { place, coordinator: Some(c), .. } if place == "other" && c == "lab:20408"));
    }

    #[test]
    fn errors_name_the_key() {
        let e = board("[console]\nkind = \"serial\"\ndevice = \"/dev/ttyS0\"\nbaudrate = 9600\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("b.toml") && e.contains("baudrate"), "{e}");
        let e = board("[qemu]\nbinary = \"q\"\nargz = []\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("argz"), "{e}");
        let e = board("[image]\nkernel_cmdline = \"x\"\nuboot_defconfig = 3\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("uboot_defconfig"), "{e}");
        let e = board("[power]\ndriver = \"command\"\non = [\"x\"]\noff = [\"y\"]\nsettle = 2\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("settle"), "{e}");
        let e = board("[console]\nkind = \"serial\"\ndevice = \"/dev/ttyS0\"\nbaud = \"fast\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 6") && e.contains("baud = \"fast\""), "{e}");
        let e = board("[console]\nkind = \"tcp\"\ndevice = \"/dev/ttyS0\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("kind = \"tcp\" takes no `device`"), "{e}");
        let e = board("[power]\ndriver = \"labgrid\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("needs `place`"), "{e}");
    }

    #[test]
    fn bench_and_boot_loop_tables() {
        let b = board(
            "[bench]\nsetup = [\"modprobe virtio_blk\"]\nenv = { PERFGUIDE_FIO_DIR = \"/mnt\" }\n\
             [boot_loop]\nconsole = \"both\"\n",
        )
        .unwrap();
        assert_eq!(b.bench().setup, ["modprobe virtio_blk"]);
        assert_eq!(b.bench().env["PERFGUIDE_FIO_DIR"], "/mnt");
        assert_eq!(b.lab.boot_loop.unwrap().console, ConsoleMode::Both);
        let e = board("[bench]\nsteup = []\n").unwrap_err().to_string();
        assert!(e.contains("steup"), "{e}");
        // Every built-in board without [bench] has nothing to set up.
        assert_eq!(
            Board::builtin("j721e-evm").unwrap().bench(),
            BenchSection::default()
        );
    }

    #[test]
    fn power_checks() {
        let e = board("[power]\ndriver = \"command\"\non = []\noff = []\nsettle_s = 2.0\n")
            .unwrap()
            .power()
            .unwrap_err()
            .to_string();
        assert!(e.contains("--board-file") && e.contains("usbrelay"), "{e}");
        let e = board("[power]\ndriver = \"command\"\non = [\"x\"]\n")
            .unwrap()
            .power()
            .unwrap_err()
            .to_string();
        assert!(e.contains("no `off`"), "{e}");
        let p = board("[power]\ndriver = \"command\"\ncycle = [\"x\"]\n").unwrap();
        assert!(matches!(
            p.power().unwrap(),
            PowerConfig::Command { settle_s, timeout_s, .. } if *settle_s == 1.0 && *timeout_s == 30.0
        ));
    }

    #[test]
    fn qemu_placeholders() {
        let b = board(
            "[qemu]\nbinary = \"qemu\"\nargs = [\"-bios\", \"{u_boot}\", \"file={disk},x\"]\n",
        )
        .unwrap();
        let mut f = BTreeMap::new();
        f.insert("u_boot".to_string(), PathBuf::from("/c/u-boot.bin"));
        let e = b.qemu_argv(&f).unwrap_err().to_string();
        assert!(e.contains("{disk}") && e.contains("u_boot"), "{e}");
        f.insert("disk".to_string(), PathBuf::from("/c/disk.img"));
        assert_eq!(
            b.qemu_argv(&f).unwrap(),
            vec!["qemu", "-bios", "/c/u-boot.bin", "file=/c/disk.img,x"]
        );
    }

    #[test]
    fn board_file_errors_name_the_file() {
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("variant.toml");
        let e = format!("{:#}", Board::from_file(&f).unwrap_err());
        assert!(
            e.contains("cannot read board file") && e.contains("variant.toml"),
            "{e}"
        );
        std::fs::write(
            &f,
            format!("{HEAD}[image]\nkernel_cmdline = \"x\"\nuboot_defconfig = \n"),
        )
        .unwrap();
        let e = Board::from_file(&f).unwrap_err().to_string();
        assert!(
            e.contains(&f.display().to_string()) && e.contains("line 5"),
            "{e}"
        );
        std::fs::write(
            &f,
            format!("{HEAD}[image]\nkernel_cmdline = \"x\"\nuboot_defconfig = \"d\"\n"),
        )
        .unwrap();
        let b = Board::from_file(&f).unwrap();
        assert_eq!((b.name(), b.source.as_str()), ("b", f.to_str().unwrap()));
        assert_eq!(b.image().unwrap().uboot_defconfig, "d");
    }

    #[test]
    fn lava_table_checks() {
        let l = board("[lava]\ndevice_type = \"bbb\"\nboot_method = \"minimal\"\n").unwrap();
        let t = l.lava().unwrap();
        assert_eq!(
            (t.boot_method, t.boot_timeout_s),
            (LavaBootMethod::Minimal, 300)
        );
        let e = board("[lava]\ndevice_type = \"x\"\nboot_method = \"u-boot\"\n")
            .unwrap()
            .lava()
            .unwrap_err()
            .to_string();
        assert!(e.contains("needs `boot_commands`"), "{e}");
        let e = board(
            "[lava]\ndevice_type = \"x\"\nboot_method = \"minimal\"\nboot_commands = [\"boot\"]\n",
        )
        .unwrap()
        .lava()
        .unwrap_err()
        .to_string();
        assert!(e.contains("takes no `boot_commands`"), "{e}");
        let e = board("[lava]\ndevice_type = \"qemu\"\nboot_method = \"qemu\"\n")
            .unwrap()
            .lava()
            .unwrap_err()
            .to_string();
        assert!(e.contains("[power] driver = \"qemu\""), "{e}");
        let e = board("[lava]\ndevice_type = \"x\"\nboot_method = \"pxe\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("b.toml") && e.contains("pxe"), "{e}");
        let e = board("[lava]\ndevice_type = \"x\"\nboot_method = \"minimal\"\nboot = 1\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("boot"), "{e}");
        let e = board("").unwrap().lava().unwrap_err().to_string();
        assert!(
            e.contains("board b") && e.contains("(b.toml) has no [lava] table"),
            "{e}"
        );
    }

    #[test]
    fn image_cmdline_gets_printk_time() {
        let b = board("[image]\nkernel_cmdline = \"console=ttyAMA0\"\nuboot_defconfig = \"d\"\n")
            .unwrap();
        assert_eq!(
            b.image().unwrap().cmdline(),
            "console=ttyAMA0 printk.time=1"
        );
    }
}
