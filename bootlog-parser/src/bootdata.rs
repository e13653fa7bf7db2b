//! The Linux Boot-Time SIG's boot-data files, written on the target after a boot by
//! `grab-boot-data.sh` (1.x): a first line `=== Machine Info ===...`, then sections headed
//! `== NAME ==` (`UPTIME`, `GRAB-BOOT-DATA INFO`, `Kernel Info`, `OS`, `MEMORY`, `DISK USAGE`,
//! `MOUNTS`, `PROCESSES`, `CORES`, `CONFIG`, `SYSTEMD INFO`, `KERNEL MESSAGES`).
//!
//! A file is one boot: the kernel messages (`dmesg`) and the `systemd-analyze` output go
//! through the grammars, each with the other sections' lines blanked so that every line keeps
//! its number in the file; the rest goes into the boot's [`SystemInfo`] (lab, machine, CPU
//! count, BogoMIPS, kernel configuration) and the kernel command line, so the data the SIG
//! collects can be compared with perfguide's own runs.

use crate::board::BoardProfile;
use crate::model::{Boot, KernelInfo, SystemInfo};
use crate::timeline::parse_bytes;

/// How a boot-data file begins.
pub const FIRST_LINE: &[u8] = b"=== Machine Info ===";

/// The sections read through the grammars.
const KERNEL_MESSAGES: &str = "KERNEL MESSAGES";
const SYSTEMD_INFO: &str = "SYSTEMD INFO";

/// Whether `head` (the start of an input) is a boot-data file.
pub fn is_boot_data(head: &[u8]) -> bool {
    head.starts_with(FIRST_LINE)
}

/// The section a line heads, `== NAME ==`.
fn header(line: &str) -> Option<&str> {
    let name = line.strip_prefix("== ")?.strip_suffix(" ==")?;
    (!name.is_empty() && !name.starts_with('=')).then_some(name)
}

/// `KEY="value"` of the info sections, unquoted.
fn assignment<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let v = line.strip_prefix(key)?.strip_prefix('=')?;
    Some(
        v.strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .unwrap_or(v),
    )
}

/// `name : value` of `/proc/cpuinfo`, the name compared without case.
fn cpuinfo<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let (k, v) = line.split_once(':')?;
    k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
}

/// The lines of `text` in the sections `keep`, every other line left empty (numbers kept).
fn only(text: &str, keep: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut section = "";
    for line in text.split('\n') {
        if let Some(name) = header(line.trim_end_matches('\r')) {
            section = name;
        } else if section == keep {
            out.push_str(line);
        }
        out.push('\n');
    }
    out.pop();
    out
}

/// Reads a boot-data file: its boot (normally one), with [`Boot::system`] filled.
pub fn parse_boot_data(bytes: &[u8], profile: &BoardProfile) -> Vec<Boot> {
    let text = String::from_utf8_lossy(bytes);
    let mut info = SystemInfo {
        source: "grab-boot-data.sh".into(),
        ..SystemInfo::default()
    };
    let mut cmdline = None;
    let mut cpus = 0u32;
    let mut section = "";
    for raw in text.split('\n') {
        let line = raw.trim_end_matches('\r');
        if let Some(name) = header(line) {
            section = name;
            continue;
        }
        match section {
            "GRAB-BOOT-DATA INFO" => {
                if let Some(v) = assignment(line, "GBD_VERSION") {
                    info.source = format!("grab-boot-data.sh {v}");
                } else if let Some(v) = assignment(line, "GBD_LAB") {
                    info.lab = Some(v.to_string());
                } else if let Some(v) = assignment(line, "GBD_MACHINE") {
                    info.machine = Some(v.to_string());
                } else if let Some(v) = assignment(line, "GBD_TIMESTAMP") {
                    info.taken = Some(v.to_string());
                }
            }
            "Kernel Info" => {
                if let Some(v) = assignment(line, "KERNEL_CMDLINE") {
                    cmdline = Some(v.trim().to_string());
                }
            }
            "CORES" => {
                if cpuinfo(line, "processor").is_some() {
                    cpus += 1;
                } else if let Some(v) = cpuinfo(line, "bogomips") {
                    if info.bogomips.is_none() {
                        info.bogomips = v.parse().ok();
                    }
                }
            }
            "CONFIG" => {
                if let Some((k, v)) = line.split_once('=') {
                    if k.starts_with("CONFIG_") && !k.contains(char::is_whitespace) {
                        info.config.insert(k.to_string(), v.to_string());
                    }
                }
            }
            _ => {}
        }
    }
    info.cpus = (cpus > 0).then_some(cpus);
    let mut boots = parse_bytes(only(&text, KERNEL_MESSAGES).as_bytes(), profile);
    if boots.is_empty() {
        boots.push(Boot::default());
    }
    // systemd-analyze's output comes before the kernel messages in the file but after them
    // in the boot: read on its own, its facts join the boot.
    let systemd = parse_bytes(only(&text, SYSTEMD_INFO).as_bytes(), profile)
        .into_iter()
        .find_map(|b| b.systemd);
    for b in &mut boots {
        if b.systemd.is_none() {
            b.systemd = systemd.clone();
        }
        let k = b.kernel.get_or_insert_with(KernelInfo::default);
        if k.cmdline.is_none() {
            k.cmdline = cmdline.clone();
        }
        b.system = Some(info.clone());
    }
    boots
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str =
        include_str!("../tests/data/boot-data-perfguide-qemu-arm64-261205-171502.txt");

    #[test]
    fn a_boot_data_file_is_one_boot_with_the_system_it_ran_on() {
        assert!(is_boot_data(SAMPLE.as_bytes()));
        let boots = parse_boot_data(SAMPLE.as_bytes(), &BoardProfile::generic());
        assert_eq!(boots.len(), 1, "{boots:#?}");
        let b = &boots[0];
        let s = b.system.as_ref().unwrap();
        assert_eq!(s.source, "grab-boot-data.sh 1.5");
        assert_eq!(s.lab.as_deref(), Some("perfguide"));
        assert_eq!(s.machine.as_deref(), Some("qemu-arm64"));
        assert_eq!(s.taken.as_deref(), Some("261205-171502"));
        assert_eq!(s.cpus, Some(1));
        assert_eq!(s.bogomips, Some(125.0));
        assert_eq!(s.config.get("CONFIG_HZ").map(String::as_str), Some("250"));
        assert_eq!(
            s.config.get("CONFIG_LOCALVERSION").map(String::as_str),
            Some("\"\"")
        );
        assert!(!s.config.contains_key("CONFIG_LOCALVERSION_AUTO"));
        assert_eq!(s.config.len(), 7);
        let k = b.kernel.as_ref().unwrap();
        assert_eq!(
            k.cmdline.as_deref(),
            Some("console=ttyAMA0,115200 printk.time=1")
        );
        assert_eq!(k.version.as_deref(), Some("6.1.0-57-cloud-arm64"));
        // `Run /init as init process` at 1.334278 s, line 272 of the file.
        assert_eq!(k.init_ts_s, Some(1.334278));
        let user = b.stage(crate::StageId::Userspace).unwrap();
        assert_eq!(user.line, Some(272));
        let kernel = b.stage(crate::StageId::Kernel).unwrap();
        assert_eq!(
            kernel.line,
            Some(64),
            "the first kernel message's line in the file"
        );
        assert!(b.systemd.is_none());
    }

    #[test]
    fn systemd_analyze_output_joins_the_boot() {
        let file = "=== Machine Info ===\n\
                    == Kernel Info ==\n\
                    KERNEL_CMDLINE=\"quiet initcall_debug log_buf_len=10M\"\n\
                    \n\
                    == CORES ==\n\
                    processor\t: 0\n\
                    bogomips\t: 5999.99\n\
                    processor\t: 1\n\
                    \n\
                    == CONFIG ==\n\
                    Can't find kernel config data or file\n\
                    \n\
                    == SYSTEMD INFO ==\n\
                    Startup finished in 1.215s (kernel) + 2.998s (userspace) = 4.213s \n\
                    multi-user.target reached after 2.950s in userspace.\n\
                    -----\n\
                    1.523s dev-vda1.device\n\
                    \x20612ms systemd-udev-trigger.service\n\
                    == KERNEL MESSAGES ==\n\
                    [    0.000000] Booting Linux on physical CPU 0x0000000000 [0x411fd070]\n\
                    [    0.000000] Linux version 6.6.0 (builder@host) #1 SMP PREEMPT\n\
                    [    0.912000] calling  proto_init+0x0/0x10 @ 1\n\
                    [    0.912100] initcall proto_init+0x0/0x10 returned 0 after 7 usecs\n\
                    [    1.200000] Run /sbin/init as init process\n\
                    \n";
        let boots = parse_boot_data(file.as_bytes(), &BoardProfile::generic());
        assert_eq!(boots.len(), 1);
        let b = &boots[0];
        let s = b.system.as_ref().unwrap();
        assert_eq!((s.cpus, s.bogomips), (Some(2), Some(5999.99)));
        assert!(s.config.is_empty());
        assert_eq!(s.source, "grab-boot-data.sh");
        let sd = b.systemd.as_ref().unwrap();
        assert_eq!(sd.kernel_s, Some(1.215));
        assert_eq!(sd.userspace_s, Some(2.998));
        assert_eq!(b.initcalls.len(), 1);
        assert_eq!(b.initcalls[0].duration_us, 7);
        assert_eq!(
            b.kernel.as_ref().unwrap().cmdline.as_deref(),
            Some("quiet initcall_debug log_buf_len=10M")
        );
    }

    #[test]
    fn other_input_is_not_boot_data() {
        assert!(!is_boot_data(b"U-Boot 2023.01\n"));
        assert!(!is_boot_data(b"== KERNEL MESSAGES ==\n"));
    }
}
