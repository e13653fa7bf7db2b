//! What the target kept of its own boot, collected over the console after the ready mark:
//! the kernel log (`dmesg`), the U-Boot bootstage records the kernel received in its device
//! tree (`/proc/device-tree/bootstage/`, written by `CONFIG_BOOTSTAGE_FDT`), `/proc/uptime`,
//! and `systemd-analyze` where systemd runs. This is how a quiet boot (kernel `quiet`, U-Boot
//! silent) still gets its stage breakdown; [`merge`] puts it on the cycle's host timeline.
//!
//! [`SYNC`] ties the printk clock to the host's: a shell builtin writes a marker line into the
//! kernel log (`/dev/kmsg`, stamped on the printk clock) between the host pressing Enter (the
//! line typed and echoed before) and the host reading its exit line, so `host - printk` lies
//! in that window: its middle is
//! the offset, half its width the stated error. [`COUNTER`] ties the arm64 generic timer (the
//! clock of U-Boot's bootstage marks) to printk on the target itself: `perfguide-counter`
//! reads the timer and writes the reading into the kernel log, which stamps it microseconds
//! later. `/proc/uptime` is kept for people but not used: its clock (boottime) starts later
//! than printk's and counts in 10 ms steps.
//!
//! Every console byte of the session goes to the cycle's `cycle-NNNN.collect.log`; nothing of
//! it is counted in the boot.

pub mod merge;

use crate::shell::{Finished, Shell, ShellError};
use bootlog_parser::model::{BootstageAccum, BootstageRecord, SystemdInfo};
use bootlog_parser::{BoardProfile, Boot};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// The marker line written into the kernel log.
pub const SYNC_MARK: &str = "perfguide-sync";
/// Ties printk to the host: a marker in the kernel log, written by a shell builtin (no
/// process is started, so the window is short).
pub const SYNC: &str = "echo perfguide-sync >/dev/kmsg";
/// The first word of `perfguide-counter`'s line (on its output and in the kernel log).
pub const COUNTER_MARK: &str = "perfguide-counter";
/// Ties the generic timer to printk, and reads the uptime.
pub const COUNTER: &str = "perfguide-counter; cat /proc/uptime";
/// Long command lines are not wrapped by the target's line editor.
pub const WIDE: &str = "stty cols 4096";
/// The kernel log.
pub const DMESG: &str = "dmesg";
/// The bootstage records of the device tree, one property a line:
/// `<node> mark|accum <4 bytes, big-endian> <name>`.
pub const BOOTSTAGE: &str =
    "cd /proc/device-tree/bootstage && for n in *; do for p in mark accum; \
do [ -f $n/$p ] && echo $n $p $(od -An -tu1 $n/$p) $(tr -d '\\000' <$n/name); done; done; cd /";
/// systemd's own account of the boot.
pub const SYSTEMD: &str = "systemd-analyze --no-pager time && systemd-analyze --no-pager blame";

/// Every command of a collection, in the order run: `(what, command)`.
pub const COMMANDS: [(&str, &str); 6] = [
    ("wide", WIDE),
    ("sync", SYNC),
    ("counter", COUNTER),
    ("dmesg", DMESG),
    ("bootstage", BOOTSTAGE),
    ("systemd", SYSTEMD),
];

/// How long one command may take.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(60);

/// The clock tie of [`SYNC`]: host window and what the target's clocks read inside it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SyncPoint {
    /// Host seconds since power-on when the command was sent.
    pub sent_s: f64,
    /// Host seconds since power-on when its exit line was read.
    pub ended_s: f64,
    /// The marker's printk stamp (from the collected kernel log).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub printk_s: Option<f64>,
    /// The generic timer's reading in seconds since it started (`perfguide-counter`), and
    /// the printk stamp of its kernel log line.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub counter_s: Option<f64>,
    /// See `counter_s`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub counter_printk_s: Option<f64>,
    /// `/proc/uptime`'s first field.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub uptime_s: Option<f64>,
}

/// What a collection brought back, parsed.
#[derive(Debug, Clone, Default)]
pub struct Collected {
    /// The clock tie.
    pub sync: Option<SyncPoint>,
    /// The kernel log, parsed (target clock only).
    pub dmesg: Option<Boot>,
    /// Lines of the kernel log.
    pub dmesg_lines: u64,
    /// Bootstage marks of the device tree, in time order.
    pub bootstage: Vec<BootstageRecord>,
    /// Bootstage accumulated times of the device tree.
    pub bootstage_accumulated: Vec<BootstageAccum>,
    /// `systemd-analyze time` and `blame`, parsed.
    pub systemd: Option<SystemdInfo>,
    /// What could not be collected, and why.
    pub notes: Vec<String>,
    /// Host seconds since power-on when the collection began and ended.
    pub window_s: (f64, f64),
}

/// What was read back from the target after the ready mark.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CollectRecord {
    /// The session's capture, relative to the run directory.
    pub log: String,
    /// Host seconds since power-on when the session began and ended (not part of the boot).
    pub window_s: (f64, f64),
    /// The clock tie.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub sync: Option<SyncPoint>,
    /// Lines of the kernel log.
    pub dmesg_lines: u64,
    /// Bootstage marks found in the device tree.
    pub bootstage_marks: usize,
    /// Whether `systemd-analyze` answered.
    pub systemd: bool,
    /// What could not be collected, and why.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub notes: Vec<String>,
}

impl Collected {
    /// What the cycle record keeps of it; `log` is the session's capture.
    pub fn record(&self, log: String) -> CollectRecord {
        CollectRecord {
            log,
            window_s: self.window_s,
            sync: self.sync.clone(),
            dmesg_lines: self.dmesg_lines,
            bootstage_marks: self.bootstage.len(),
            systemd: self.systemd.is_some(),
            notes: self.notes.clone(),
        }
    }
}

/// Logs in on `shell` and collects everything; a command that fails leaves a note, only a
/// console or shell failure is an error.
pub fn collect(shell: &mut Shell<'_>, profile: &BoardProfile) -> Result<Collected, ShellError> {
    shell.login()?;
    let mut c = Collected::default();
    let mut outputs = Vec::new();
    for (what, command) in COMMANDS {
        let f = if what == "sync" {
            shell.run_on_enter(command, COMMAND_TIMEOUT)?
        } else {
            shell.run(command, COMMAND_TIMEOUT)?
        };
        outputs.push((what, f));
    }
    c.window_s = (
        outputs.first().map_or(0.0, |o| o.1.sent_s),
        outputs.last().map_or(0.0, |o| o.1.ended_s),
    );
    for (what, f) in outputs {
        let Finished {
            status,
            output,
            sent_s,
            ended_s,
        } = f;
        if what == "wide" {
            continue;
        }
        if status != Some(0) {
            c.notes.push(match status {
                Some(127) => format!("{what}: not on the target (exit status 127)"),
                Some(s) => format!("{what}: exit status {s}"),
                None => format!("{what}: stopped after {} s", COMMAND_TIMEOUT.as_secs()),
            });
        }
        match what {
            "sync" => {
                c.sync = Some(SyncPoint {
                    sent_s,
                    ended_s,
                    printk_s: None,
                    counter_s: None,
                    counter_printk_s: None,
                    uptime_s: None,
                });
            }
            "counter" => {
                if let Some(s) = c.sync.as_mut() {
                    (s.counter_s, s.uptime_s) = parse_counter(&output);
                }
            }
            "dmesg" if status == Some(0) => {
                c.dmesg_lines = output.len() as u64;
                let (boot, marks) = parse_dmesg(&output, profile);
                c.dmesg = boot;
                if let Some(s) = c.sync.as_mut() {
                    s.printk_s = marks.sync;
                    s.counter_printk_s = marks.counter;
                }
            }
            "bootstage" if status == Some(0) => {
                let (marks, accum) = parse_bootstage(&output);
                c.bootstage = marks;
                c.bootstage_accumulated = accum;
            }
            "systemd" if status == Some(0) => {
                let text = output.join("\n");
                c.systemd = bootlog_parser::parse_bytes(text.as_bytes(), profile)
                    .into_iter()
                    .find_map(|b| b.systemd);
            }
            _ => {}
        }
    }
    Ok(c)
}

/// `perfguide-counter`'s and `/proc/uptime`'s readings in the [`COUNTER`] output.
pub fn parse_counter(lines: &[String]) -> (Option<f64>, Option<f64>) {
    let mut counter = None;
    let mut uptime = None;
    for l in lines {
        let w: Vec<&str> = l.split_whitespace().collect();
        match w.as_slice() {
            [COUNTER_MARK, "cntvct", n, "cntfrq", f] => {
                if let (Ok(n), Ok(f)) = (n.parse::<u64>(), f.parse::<u64>()) {
                    if f > 0 {
                        counter = Some(n as f64 / f as f64);
                    }
                }
            }
            [a, b] if uptime.is_none() => {
                if let (Ok(a), Ok(_)) = (a.parse::<f64>(), b.parse::<f64>()) {
                    uptime = Some(a);
                }
            }
            _ => {}
        }
    }
    (counter, uptime)
}

/// The printk stamps of the lines perfguide wrote into the kernel log.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct KmsgMarks {
    /// The last [`SYNC_MARK`] line.
    pub sync: Option<f64>,
    /// The last [`COUNTER_MARK`] line.
    pub counter: Option<f64>,
}

/// The kernel log parsed as a log without host stamps (perfguide's own lines left out), and
/// the printk stamps of those lines.
pub fn parse_dmesg(lines: &[String], profile: &BoardProfile) -> (Option<Boot>, KmsgMarks) {
    let mut text = String::new();
    let mut marks = KmsgMarks::default();
    for l in lines {
        if let Some(p) = bootlog_parser::linux::printk(l) {
            let msg = p.msg.trim();
            if msg == SYNC_MARK {
                marks.sync = Some(p.ts);
                continue;
            }
            if msg.starts_with(COUNTER_MARK) {
                marks.counter = Some(p.ts);
                continue;
            }
        }
        text.push_str(l);
        text.push('\n');
    }
    let boot = bootlog_parser::parse_bytes(text.as_bytes(), profile)
        .into_iter()
        .next();
    (boot, marks)
}

/// The [`BOOTSTAGE`] output: marks in time order (with the time since the previous one), and
/// accumulated times, as the report of the console has them.
pub fn parse_bootstage(lines: &[String]) -> (Vec<BootstageRecord>, Vec<BootstageAccum>) {
    let mut marks: Vec<(u64, String)> = Vec::new();
    let mut accum = Vec::new();
    for l in lines {
        let w: Vec<&str> = l.split_whitespace().collect();
        if w.len() < 7 || !w[0].bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let Some(bytes) = w[2..6]
            .iter()
            .map(|b| b.parse::<u8>().ok())
            .collect::<Option<Vec<u8>>>()
        else {
            continue;
        };
        let us = u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) as u64;
        let name = w[6..].join(" ");
        match w[1] {
            "mark" => marks.push((us, name)),
            "accum" => accum.push(BootstageAccum { name, us }),
            _ => {}
        }
    }
    marks.sort_by_key(|m| m.0);
    let mut prev = 0;
    let records = marks
        .into_iter()
        .map(|(us, name)| {
            let r = BootstageRecord {
                name,
                mark_us: us,
                elapsed_us: us.saturating_sub(prev),
            };
            prev = us;
            r
        })
        .collect();
    (records, accum)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<String> {
        s.lines().map(str::to_string).collect()
    }

    #[test]
    fn counter_output() {
        let (c, u) = parse_counter(&lines(
            "perfguide-counter cntvct 161181939 cntfrq 62500000\n1.85 0.13\n",
        ));
        assert!((c.unwrap() - 2.578_911_024).abs() < 1e-9);
        assert_eq!(u, Some(1.85));
        let (c, u) = parse_counter(&lines("sh: perfguide-counter: not found\n1.85 0.13"));
        assert_eq!((c, u), (None, Some(1.85)));
    }

    #[test]
    fn bootstage_from_the_device_tree() {
        // As the QEMU reference image prints it (node numbers count from the last record).
        let out = lines(
            "0 mark 0 5 216 224 start_kernel\n1 mark 0 5 216 218 boot_jump_linux\n\
             10 accum 0 0 15 238 dm_f\n11 mark 0 0 5 138 board_init_f\n12 mark 0 0 0 0 reset\n\
             junk line\n",
        );
        let (m, a) = parse_bootstage(&out);
        let names: Vec<&str> = m.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(
            names,
            ["reset", "board_init_f", "boot_jump_linux", "start_kernel"]
        );
        assert_eq!(m[1].mark_us, 1418);
        assert_eq!(m[3].mark_us, 383_200);
        assert_eq!(m[3].elapsed_us, 6);
        assert_eq!(
            a,
            [BootstageAccum {
                name: "dm_f".into(),
                us: 4078
            }]
        );
    }

    #[test]
    fn dmesg_marker_is_taken_out() {
        let p = BoardProfile::builtin("qemu-arm64").unwrap();
        let (b, m) = parse_dmesg(
            &lines(
                "[    0.000000] Booting Linux on physical CPU 0x0000000000 [0x411fd070]\n\
                 [    1.320040] Freeing unused kernel memory: 7552K\n\
                 [    1.334278] Run /init as init process\n\
                 [    1.976243] perfguide-sync\n\
                 [    1.990001] perfguide-counter cntvct 161181939 cntfrq 62500000\n",
            ),
            &p,
        );
        assert_eq!(m.sync, Some(1.976243));
        assert_eq!(m.counter, Some(1.990001));
        let k = b.unwrap().kernel.unwrap();
        assert_eq!(k.init_ts_s, Some(1.334278));
        assert_eq!(k.last_ts_s, Some(1.334278));
    }
}
