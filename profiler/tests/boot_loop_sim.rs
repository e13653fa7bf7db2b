//! `perfguide boot-loop` against a simulated board: `perfguide-simboard` replays a real
//! grabserial capture (Amarula Vyasa RK3288, tests/corpus/H_grabserial_lava) into a pty with
//! its recorded timing, powered through the `command` driver. The loop runs as the real CLI.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const SIM: &str = env!("CARGO_BIN_EXE_perfguide-simboard");
const PERFGUIDE: &str = env!("CARGO_BIN_EXE_perfguide");
/// Normal boot of the capture: lines 7 (`[0.000002 0.000002]`) to 63 (`vyasa-rk3288 login:`).
const FIRST: &str = "7";
const LAST: &str = "63";
/// The capture's own timing: `Starting kernel ...` at 1.974911 s; the base time is reset there
/// (grabserial -m) and the login prompt comes 4.750725 s later.
const STARTING_KERNEL_S: f64 = 1.974911;
const LOGIN_S: f64 = 1.974911 + 4.750725;

fn corpus_log() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/corpus/H_grabserial_lava/grabserial-rk3288-vyasa-normal-and-falcon.log")
}

struct SimBoard {
    dir: PathBuf,
    child: Child,
}

impl SimBoard {
    fn start(dir: &Path, extra: &[&str]) -> SimBoard {
        let board = dir.join("board");
        let mut args: Vec<String> = vec![
            "serve".into(),
            "--dir".into(),
            board.display().to_string(),
            "--log".into(),
            corpus_log().display().to_string(),
            "--from-line".into(),
            FIRST.into(),
            "--lifetime".into(),
            "240".into(),
        ];
        args.extend(extra.iter().map(|s| s.to_string()));
        let child = Command::new(SIM)
            .args(&args)
            .stdin(Stdio::null())
            .spawn()
            .expect("simboard starts");
        let deadline = Instant::now() + Duration::from_secs(20);
        while !board.join("ready").exists() {
            assert!(Instant::now() < deadline, "simboard did not come up");
            std::thread::sleep(Duration::from_millis(10));
        }
        SimBoard { dir: board, child }
    }

    fn power_log(&self) -> Vec<String> {
        std::fs::read_to_string(self.dir.join("power.log"))
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// A board profile for this board: `console` is the TOML of the [console] table.
    fn board_file(&self, console: &str, power_on: Option<&str>) -> PathBuf {
        let on = power_on.map(str::to_string).unwrap_or_else(|| {
            format!(
                "[{:?}, \"power\", \"on\", {:?}]",
                SIM,
                self.dir.display().to_string()
            )
        });
        let text = format!(
            r#"name = "vyasa-rk3288-sim"
description = "Amarula Vyasa RK3288 capture replayed by perfguide-simboard"
stages = ["a-spl", "uboot", "kernel", "userspace"]
ready = '(?i)\blogin:\s*$'

[console]
{console}

[power]
driver = "command"
on = {on}
off = [{sim:?}, "power", "off", {dir:?}]
settle_s = 0.05
"#,
            sim = SIM,
            dir = self.dir.display().to_string(),
        );
        let p = self.dir.parent().unwrap().join("board.toml");
        std::fs::write(&p, text).unwrap();
        p
    }

    fn serial_console(&self) -> String {
        format!(
            "kind = \"serial\"\ndevice = {:?}\nbaud = 115200",
            self.dir.join("tty").display().to_string()
        )
    }
}

impl Drop for SimBoard {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn boot_loop(board_file: &Path, out: &Path, extra: &[&str]) -> Command {
    let mut c = Command::new(PERFGUIDE);
    c.arg("boot-loop")
        .arg("--board-file")
        .arg(board_file)
        .arg("--out")
        .arg(out)
        .args(extra)
        .stdin(Stdio::null());
    c
}

fn run(mut cmd: Command) -> Output {
    let out = cmd.output().expect("perfguide runs");
    eprintln!(
        "--- stdout\n{}--- stderr\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn records(out: &Path) -> Vec<Value> {
    std::fs::read_to_string(out.join("boots.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("boots.jsonl line is JSON"))
        .collect()
}

/// `(abs_s, text)` of every line of a raw capture.
fn capture_lines(p: &Path) -> Vec<(f64, String)> {
    let text = std::fs::read_to_string(p).unwrap();
    text.lines()
        .map(|l| {
            let close = l.find(']').expect("stamped line");
            let nums = &l[1..close];
            let abs: f64 = nums.split(' ').next().unwrap().parse().unwrap();
            let mut parts = nums.split(' ');
            let (a, d) = (parts.next().unwrap(), parts.next().unwrap());
            // %.6f on both numbers.
            assert_eq!(a.split('.').nth(1).unwrap().len(), 6, "{l}");
            assert_eq!(d.split('.').nth(1).unwrap().len(), 6, "{l}");
            let t = l[close + 1..].strip_prefix(' ').unwrap_or("");
            (abs, t.to_string())
        })
        .collect()
}

fn find_line<'a>(lines: &'a [(f64, String)], needle: &str) -> &'a (f64, String) {
    lines
        .iter()
        .find(|(_, t)| t.contains(needle))
        .unwrap_or_else(|| panic!("no line with {needle:?} in {lines:#?}"))
}

#[test]
fn command_power_and_serial_pty_replay_real_timing() {
    let tmp = tempfile::tempdir().unwrap();
    let scale = 0.25;
    let sim = SimBoard::start(tmp.path(), &["--to-line", LAST, "--scale", "0.25"]);
    let bf = sim.board_file(&sim.serial_console(), None);
    let out = tmp.path().join("run");
    let o = run(boot_loop(&bf, &out, &["--cycles", "3", "--timeout", "20"]));
    assert_eq!(o.status.code(), Some(0), "every cycle ok");
    let recs = records(&out);
    assert_eq!(recs.len(), 3);
    for (i, r) in recs.iter().enumerate() {
        assert_eq!(r["schema"], "perfguide/boot/v1");
        assert_eq!(r["cycle"], i as u64 + 1);
        assert_eq!(r["status"], "ok", "{r}");
        assert_eq!(r["complete"], true, "{r}");
        let ready = r["host"]["ready_s"].as_f64().unwrap();
        let lines = capture_lines(&out.join(format!("cycle-{:04}.log", i + 1)));
        // Every console line of the replayed capture is there, in order, stamped at its first
        // byte with the recorded timing.
        let t_sk = find_line(&lines, "Starting kernel ...").0;
        let t_spl = find_line(&lines, "U-Boot SPL 2017.09-rc2").0;
        // Each line late on the capture's schedule by when the simulator started its clock,
        // within the power-on command (t = 0 is that command's start), plus the pty's and the
        // reader's latency. Measured over nine cycles: 3.0-4.6 ms late with power-on commands
        // of 3.3-6.4 ms, never more than 2.1 ms under the command nor 0.1 ms over it; the
        // slack is 1.5 ms. A stamp 5 ms late fails here.
        let on = r["host"]["power_on_s"].as_f64().unwrap();
        for (what, got, want) in [
            ("U-Boot SPL", t_spl, 0.217195 * scale),
            ("Starting kernel", t_sk, STARTING_KERNEL_S * scale),
            ("login prompt", ready, LOGIN_S * scale),
        ] {
            let late = got - want;
            assert!(
                (0.0..=on + 0.0015).contains(&late),
                "{what} at {got:.6} s, {:.3} ms after the capture's time; power-on took {:.3} ms",
                late * 1e3,
                on * 1e3
            );
        }
        // Two records glued on one line in the capture stay one console line here.
        find_line(
            &lines,
            "Trying to boot from MMC1Expected Linux image is not found.",
        );
        let (t_login, login) = lines.last().unwrap();
        assert_eq!(login, "vyasa-rk3288 login:");
        assert!((t_login - ready).abs() < 1e-6);
        // abs is monotonic and the deltas add up.
        let text = std::fs::read_to_string(out.join(format!("cycle-{:04}.log", i + 1))).unwrap();
        let mut prev = 0.0;
        for l in text.lines() {
            let inner = &l[1..l.find(']').unwrap()];
            let mut it = inner.split(' ');
            let a: f64 = it.next().unwrap().parse().unwrap();
            let d: f64 = it.next().unwrap().parse().unwrap();
            assert!(a >= prev, "{l}");
            assert!((a - prev - d).abs() < 2e-6, "delta of {l}");
            prev = a;
        }
        assert_eq!(
            lines.len(),
            57,
            "one line per capture line (glued records included)"
        );
    }
    let run_json: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    assert_eq!(run_json["schema"], "perfguide/run/v1");
    assert_eq!(run_json["board"], "vyasa-rk3288-sim");
    assert!(run_json["started"].as_str().unwrap().contains('T'));
    assert!(run_json["args"]
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a == "--cycles"));
    assert!(!run_json["host"]["kernel"].as_str().unwrap().is_empty());
    // One off and one on per cycle, and the final off.
    assert_eq!(
        sim.power_log(),
        vec!["off", "on", "off", "on", "off", "on", "off"]
    );
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        stdout.contains("total (power-on to ready)") && stdout.contains("(min "),
        "{stdout}"
    );
    assert!(stdout.contains("3 ok, 0 failed"), "{stdout}");
}

#[test]
fn command_console_reads_the_pty_through_cat() {
    let tmp = tempfile::tempdir().unwrap();
    let sim = SimBoard::start(tmp.path(), &["--to-line", LAST, "--scale", "0.1"]);
    let console = format!(
        "kind = \"command\"\nargv = [\"cat\", {:?}]",
        sim.dir.join("tty").display().to_string()
    );
    let bf = sim.board_file(&console, None);
    let out = tmp.path().join("run");
    let o = run(boot_loop(&bf, &out, &["--cycles", "2", "--timeout", "20"]));
    assert_eq!(o.status.code(), Some(0));
    let recs = records(&out);
    assert_eq!(recs.len(), 2);
    for r in &recs {
        assert_eq!(r["status"], "ok", "{r}");
        assert_eq!(r["login_prompt"], "vyasa-rk3288 login:", "{r}");
    }
}

#[test]
fn hanging_board_times_out_and_the_loop_goes_on() {
    let tmp = tempfile::tempdir().unwrap();
    // Stops after `Starting kernel ...` (capture line 53) and never prints a login prompt.
    let sim = SimBoard::start(tmp.path(), &["--to-line", "53", "--scale", "0.1"]);
    let bf = sim.board_file(&sim.serial_console(), None);
    let out = tmp.path().join("run");
    let t = Instant::now();
    let o = run(boot_loop(&bf, &out, &["--cycles", "2", "--timeout", "1.5"]));
    assert_eq!(o.status.code(), Some(1), "some cycle failed");
    assert!(t.elapsed() < Duration::from_secs(20));
    let recs = records(&out);
    assert_eq!(recs.len(), 2, "the loop went on after the first timeout");
    for r in &recs {
        assert_eq!(r["status"], "failed");
        assert_eq!(r["failure"]["reason"], "timeout", "{r}");
        assert!(r["failure"]["detail"]
            .as_str()
            .unwrap()
            .contains("Starting kernel"));
        assert_eq!(r["complete"], false);
        let end = r["host"]["end_s"].as_f64().unwrap();
        assert!((1.5..2.5).contains(&end), "{end}");
        // The partial log is kept.
        let lines = capture_lines(&out.join(r["log"].as_str().unwrap()));
        assert_eq!(lines.last().unwrap().1, "Starting kernel ...");
    }
    assert!(String::from_utf8_lossy(&o.stdout).contains("timeout: 2"));
}

#[test]
fn silent_board_is_no_output() {
    let tmp = tempfile::tempdir().unwrap();
    let sim = SimBoard::start(tmp.path(), &["--silent"]);
    let bf = sim.board_file(&sim.serial_console(), None);
    let out = tmp.path().join("run");
    let o = run(boot_loop(&bf, &out, &["--cycles", "2", "--timeout", "0.8"]));
    assert_eq!(o.status.code(), Some(1));
    let recs = records(&out);
    assert_eq!(recs.len(), 2);
    for r in &recs {
        assert_eq!(r["failure"]["reason"], "no-output", "{r}");
        assert!(r["host"].get("first_byte_s").is_none());
        assert_eq!(r["host"]["lines"], 0);
        let log = out.join(r["log"].as_str().unwrap());
        assert_eq!(std::fs::metadata(log).unwrap().len(), 0);
    }
}

#[test]
fn failing_power_command_is_a_clear_error() {
    let tmp = tempfile::tempdir().unwrap();
    let sim = SimBoard::start(tmp.path(), &[]);
    let bf = sim.board_file(
        &sim.serial_console(),
        Some(r#"["sh", "-c", "echo switching; echo 'relay 3: no answer from PDU' >&2; exit 3"]"#),
    );
    let out = tmp.path().join("run");
    let o = run(boot_loop(&bf, &out, &["--cycles", "5", "--timeout", "1"]));
    // Three power failures in a row stop the loop with an error.
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("power failed in 3 cycles in a row"),
        "{stderr}"
    );
    assert!(stderr.contains("sh -c 'echo switching;"), "{stderr}");
    assert!(stderr.contains("exit status: 3"), "{stderr}");
    assert!(stderr.contains("relay 3: no answer from PDU"), "{stderr}");
    let recs = records(&out);
    assert_eq!(recs.len(), 3, "each failed cycle is recorded");
    for r in &recs {
        assert_eq!(r["failure"]["reason"], "power");
        let d = r["failure"]["detail"].as_str().unwrap();
        assert!(d.contains("exit status: 3") && d.contains("relay 3"), "{d}");
    }
}

#[test]
fn garbage_bytes_are_kept_escaped() {
    let tmp = tempfile::tempdir().unwrap();
    let sim = SimBoard::start(
        tmp.path(),
        &["--to-line", LAST, "--scale", "0.1", "--garbage"],
    );
    let bf = sim.board_file(&sim.serial_console(), None);
    let out = tmp.path().join("run");
    let o = run(boot_loop(&bf, &out, &["--cycles", "1", "--timeout", "20"]));
    assert_eq!(o.status.code(), Some(0), "noise does not spoil the boot");
    let raw = std::fs::read(out.join("cycle-0001.log")).unwrap();
    let text = String::from_utf8(raw).expect("the capture file is UTF-8");
    // Power-up noise 00 ff fe 80 before the first (empty) console line: kept, escaped.
    let first = text.lines().next().unwrap();
    assert!(first.ends_with("] \\x00\\xff\\xfe\\x80"), "{first}");
    assert!(!text.contains('\0'));
    assert_eq!(records(&out)[0]["status"], "ok");
}

#[test]
fn kernel_panic_is_recorded() {
    let tmp = tempfile::tempdir().unwrap();
    let sim = SimBoard::start(tmp.path(), &["--scale", "0.1", "--panic-after-line", "57"]);
    let bf = sim.board_file(&sim.serial_console(), None);
    let out = tmp.path().join("run");
    let t = Instant::now();
    let o = run(boot_loop(&bf, &out, &["--cycles", "1", "--timeout", "30"]));
    assert_eq!(o.status.code(), Some(1));
    assert!(
        t.elapsed() < Duration::from_secs(15),
        "a panic ends the cycle without waiting for the timeout"
    );
    let r = &records(&out)[0];
    assert_eq!(r["failure"]["reason"], "kernel-panic", "{r}");
    assert!(r["failure"]["detail"]
        .as_str()
        .unwrap()
        .contains("VFS: Unable to mount root fs"));
    // The trace after the panic line was captured during the grace period.
    let text = std::fs::read_to_string(out.join("cycle-0001.log")).unwrap();
    assert!(text.contains("Comm: swapper/0"), "{text}");
}

#[test]
fn unexpected_reset_is_recorded() {
    let tmp = tempfile::tempdir().unwrap();
    // After 30 console lines (in U-Boot) the board resets and starts again from TPL.
    let sim = SimBoard::start(
        tmp.path(),
        &[
            "--to-line",
            LAST,
            "--scale",
            "0.1",
            "--reset-after-line",
            "30",
        ],
    );
    let bf = sim.board_file(&sim.serial_console(), None);
    let out = tmp.path().join("run");
    let o = run(boot_loop(&bf, &out, &["--cycles", "2", "--timeout", "20"]));
    assert_eq!(o.status.code(), Some(1));
    let recs = records(&out);
    assert_eq!(recs.len(), 2);
    for r in &recs {
        assert_eq!(r["failure"]["reason"], "unexpected-reset", "{r}");
        assert!(r["failure"]["detail"]
            .as_str()
            .unwrap()
            .contains("U-Boot SPL"));
        let lines = capture_lines(&out.join(r["log"].as_str().unwrap()));
        let spl = lines
            .iter()
            .filter(|(_, t)| t.starts_with("U-Boot SPL"))
            .count();
        assert_eq!(spl, 2, "the partial log ends at the second banner");
    }
}

fn wait_for(what: &str, timeout: Duration, mut f: impl FnMut() -> bool) {
    let deadline = Instant::now() + timeout;
    while !f() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn line_count(p: &Path) -> usize {
    std::fs::read_to_string(p)
        .map(|t| t.lines().count())
        .unwrap_or(0)
}

#[test]
fn resume_after_kill_redoes_only_the_cut_cycle() {
    let tmp = tempfile::tempdir().unwrap();
    let sim = SimBoard::start(tmp.path(), &["--to-line", LAST, "--scale", "0.2"]);
    let bf = sim.board_file(&sim.serial_console(), None);
    let out = tmp.path().join("run");
    let mut child = boot_loop(&bf, &out, &["--cycles", "4", "--timeout", "20"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it (SIGKILL: no chance to clean up) in the middle of cycle 3.
    wait_for("cycle 3 under way", Duration::from_secs(60), || {
        line_count(&out.join("boots.jsonl")) == 2 && line_count(&out.join("cycle-0003.log")) >= 10
    });
    child.kill().unwrap();
    child.wait().unwrap();
    let before = std::fs::read(out.join("boots.jsonl")).unwrap();
    let log1 = std::fs::read(out.join("cycle-0001.log")).unwrap();
    let cut = std::fs::read(out.join("cycle-0003.log")).unwrap();
    assert_eq!(line_count(&out.join("boots.jsonl")), 2);

    let o = run(boot_loop(&bf, &out, &["--resume"]));
    assert_eq!(o.status.code(), Some(0));
    let after = std::fs::read(out.join("boots.jsonl")).unwrap();
    assert!(
        after.starts_with(&before),
        "completed cycles are kept byte for byte"
    );
    let recs = records(&out);
    let cycles: Vec<u64> = recs.iter().map(|r| r["cycle"].as_u64().unwrap()).collect();
    assert_eq!(cycles, vec![1, 2, 3, 4], "no cycle lost, none done twice");
    assert!(recs.iter().all(|r| r["status"] == "ok"));
    assert_eq!(std::fs::read(out.join("cycle-0001.log")).unwrap(), log1);
    // The cut capture is kept aside; cycle 3 was captured again in full.
    assert_eq!(
        std::fs::read(out.join("cycle-0003.log.incomplete")).unwrap(),
        cut
    );
    assert_eq!(line_count(&out.join("cycle-0003.log")), 57);
    let run_json: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    assert_eq!(run_json["cycles"], 4, "the run's cycle count is kept");
    assert_eq!(run_json["resumes"][0]["from_cycle"], 3);
    // Five power-ons: cycles 1, 2, the cut 3, then 3 and 4.
    let ons = sim.power_log().iter().filter(|l| *l == "on").count();
    assert_eq!(ons, 5);
    // A run directory is not started twice.
    let o = run(boot_loop(&bf, &out, &["--cycles", "1"]));
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--resume"));
}

#[test]
fn ctrl_c_stops_after_saving() {
    let tmp = tempfile::tempdir().unwrap();
    let sim = SimBoard::start(tmp.path(), &["--to-line", LAST, "--scale", "0.2"]);
    let bf = sim.board_file(&sim.serial_console(), None);
    let out = tmp.path().join("run");
    let child = boot_loop(&bf, &out, &["--cycles", "3", "--timeout", "20"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for("cycle 2 under way", Duration::from_secs(60), || {
        line_count(&out.join("boots.jsonl")) == 1 && line_count(&out.join("cycle-0002.log")) >= 5
    });
    let st = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(st.success());
    let o = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("--resume"), "{stderr}");
    assert_eq!(records(&out).len(), 1, "the cut cycle has no record");
    assert!(
        line_count(&out.join("cycle-0002.log")) >= 5,
        "its capture is saved"
    );
    // The board was powered off on the way out.
    assert_eq!(sim.power_log().last().map(String::as_str), Some("off"));
}

/// A mount for one test (a tmpfs on a directory, or a read-only bind), unmounted when dropped
/// (also when the test fails). Mounting needs root (CAP_SYS_ADMIN): without it the test fails,
/// it is not skipped.
struct Tmpfs {
    dir: PathBuf,
}

impl Tmpfs {
    fn mount(dir: &Path, size: &str) -> Tmpfs {
        std::fs::create_dir_all(dir).unwrap();
        let o = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir)
            .output()
            .expect("mount runs");
        assert!(
            o.status.success(),
            "mount -t tmpfs -o size={size} tmpfs {} failed ({}): {}; this test needs root \
             (CAP_SYS_ADMIN) to mount a small file system",
            dir.display(),
            o.status,
            String::from_utf8_lossy(&o.stderr).trim()
        );
        Tmpfs {
            dir: dir.to_path_buf(),
        }
    }
}

/// `dir` bind-mounted read-only on itself for one test, unmounted when dropped: even root
/// cannot write there (EROFS).
fn bind_read_only(dir: &Path) -> Tmpfs {
    let sh = |args: &[&str]| {
        let o = Command::new("mount")
            .args(args)
            .arg(dir)
            .arg(dir)
            .output()
            .expect("mount runs");
        assert!(
            o.status.success(),
            "mount {args:?} {} failed ({}): {}; this test needs root (CAP_SYS_ADMIN)",
            dir.display(),
            o.status,
            String::from_utf8_lossy(&o.stderr).trim()
        );
    };
    sh(&["--bind"]);
    let m = Tmpfs {
        dir: dir.to_path_buf(),
    };
    sh(&["-o", "remount,bind,ro"]);
    m
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.dir).status();
    }
}

#[test]
fn full_file_system_stops_the_loop_and_resume_finishes_it() {
    let tmp = tempfile::tempdir().unwrap();
    let sim = SimBoard::start(tmp.path(), &["--to-line", LAST, "--scale", "0.05"]);
    let bf = sim.board_file(&sim.serial_console(), None);
    let mnt = tmp.path().join("small");
    let fs = Tmpfs::mount(&mnt, "256k");
    // Leave about 40 KiB: a few cycles (a capture is about 4 KiB, a record a few more) fit.
    let filler = mnt.join("filler");
    std::fs::write(&filler, vec![0u8; 216 * 1024]).expect("filler fits in the tmpfs");
    let out = mnt.join("run");
    let cycles = 12;
    let o = run(boot_loop(
        &bf,
        &out,
        &["--cycles", &cycles.to_string(), "--timeout", "20"],
    ));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        o.status.code(),
        Some(2),
        "an error stops the loop: {stderr}"
    );
    assert!(
        stderr.contains("No space left on device"),
        "the error says why: {stderr}"
    );
    assert!(
        stderr.contains(&format!("{}/cycle-", out.display()))
            || stderr.contains(&format!("{}/boots.jsonl", out.display())),
        "the error names the file: {stderr}"
    );
    assert!(stderr.contains("--resume"), "{stderr}");
    // Only whole records: every line parses, none is torn.
    let text = std::fs::read_to_string(out.join("boots.jsonl")).unwrap();
    assert!(text.is_empty() || text.ends_with('\n'), "torn last line");
    let done = records(&out);
    assert!(
        !done.is_empty() && done.len() < cycles,
        "{} cycles completed before the file system was full",
        done.len()
    );
    assert_eq!(sim.power_log().last().map(String::as_str), Some("off"));

    std::fs::remove_file(&filler).unwrap();
    let o = run(boot_loop(&bf, &out, &["--resume"]));
    assert_eq!(o.status.code(), Some(0));
    let after = std::fs::read_to_string(out.join("boots.jsonl")).unwrap();
    assert!(
        after.starts_with(&text),
        "completed cycles are kept as they were"
    );
    let recs = records(&out);
    let got: Vec<u64> = recs.iter().map(|r| r["cycle"].as_u64().unwrap()).collect();
    assert_eq!(got, (1..=cycles as u64).collect::<Vec<_>>());
    assert!(recs.iter().all(|r| r["status"] == "ok"), "{recs:?}");
    drop(fs);
}

#[test]
fn record_that_does_not_fit_leaves_no_torn_line() {
    use perfguide::rundir::{
        load_records, CycleRecord, Failure, FailureReason, HostTiming, RunDir, RunError,
        RunManifest,
    };
    use std::io::Write;
    let tmp = tempfile::tempdir().unwrap();
    let mnt = tmp.path().join("small");
    let fs = Tmpfs::mount(&mnt, "256k");
    let out = mnt.join("run");
    let manifest: RunManifest = serde_json::from_value(serde_json::json!({
        "schema": "perfguide/run/v1", "board": "b", "board_source": "builtin",
        "board_profile": "", "images": [],
        "host": {"hostname": "h", "os": "", "kernel": "", "arch": "", "cpus": 1},
        "tool": {"name": "perfguide", "version": "0"}, "started": "now", "args": [],
        "cycles": 3, "timeout_s": 1.0, "power": "p", "console": "c"
    }))
    .unwrap();
    let mut rd = RunDir::create(&out, manifest).unwrap();
    let rec = |cycle, detail: String| {
        CycleRecord::new(
            cycle,
            Default::default(),
            HostTiming::default(),
            Some(Failure {
                reason: FailureReason::Timeout,
                detail,
            }),
        )
    };
    rd.append(rec(1, "small".into())).unwrap();
    let boots = out.join("boots.jsonl");
    let before = std::fs::read(&boots).unwrap();
    // Fill the file system, then free two pages: a 64 KiB record starts to go in, then fails.
    let filler = mnt.join("filler");
    let mut f = std::fs::File::create(&filler).unwrap();
    let chunk = vec![0u8; 4096];
    while f.write_all(&chunk).is_ok() {}
    let len = f.metadata().unwrap().len();
    f.set_len(len.saturating_sub(8192)).unwrap();
    drop(f);
    let e = rd.append(rec(2, "x".repeat(64 * 1024))).unwrap_err();
    assert!(matches!(e, RunError::Io { .. }), "{e:?}");
    let msg = e.to_string();
    assert!(
        msg.contains(&boots.display().to_string()) && msg.contains("No space left on device"),
        "{msg}"
    );
    assert_eq!(
        std::fs::read(&boots).unwrap(),
        before,
        "the part of the record that went in is cut back"
    );
    assert_eq!(rd.records().len(), 1);
    assert_eq!(load_records(&boots, false).unwrap().len(), 1);
    // With room again the record goes in whole.
    std::fs::remove_file(&filler).unwrap();
    rd.append(rec(2, "x".repeat(64 * 1024))).unwrap();
    assert_eq!(load_records(&boots, false).unwrap().len(), 2);
    drop(rd);
    drop(fs);
}

#[test]
fn console_that_goes_away_mid_cycle_fails_that_cycle_and_is_reopened() {
    let tmp = tempfile::tempdir().unwrap();
    // In the second power-on, after 20 lines (in U-Boot), the adapter re-enumerates: the pty
    // closes, `tty` goes away and comes back 1.5 s later under the same path.
    let sim = SimBoard::start(
        tmp.path(),
        &[
            "--to-line",
            LAST,
            "--scale",
            "0.1",
            "--unplug-after-line",
            "20",
            "--unplug-in-power-on",
            "2",
            "--unplug-for",
            "1.5",
        ],
    );
    let bf = sim.board_file(&sim.serial_console(), None);
    let out = tmp.path().join("run");
    let o = run(boot_loop(&bf, &out, &["--cycles", "3", "--timeout", "20"]));
    assert_eq!(o.status.code(), Some(1), "a cycle failed");
    let usb = std::fs::read_to_string(sim.dir.join("usb.log")).unwrap();
    assert_eq!(usb, "unplugged\nreplugged\n");
    let recs = records(&out);
    let cycles: Vec<u64> = recs.iter().map(|r| r["cycle"].as_u64().unwrap()).collect();
    assert_eq!(cycles, vec![1, 2, 3], "no cycle lost");
    assert_eq!(recs[0]["status"], "ok", "{}", recs[0]);
    assert_eq!(
        recs[2]["status"], "ok",
        "the console was reopened: {}",
        recs[2]
    );
    let r = &recs[1];
    assert_eq!(r["status"], "failed");
    assert_eq!(r["failure"]["reason"], "console", "{r}");
    let detail = r["failure"]["detail"].as_str().unwrap();
    let tty = sim.dir.join("tty").display().to_string();
    assert!(detail.contains(&tty), "names the device: {detail}");
    assert!(detail.contains("console lost"), "{detail}");
    assert!(detail.contains("the capture has a gap"), "{detail}");
    assert!(detail.contains("reopened after"), "{detail}");
    // The partial capture is kept: the 20 lines before the adapter went away.
    let lines = capture_lines(&out.join("cycle-0002.log"));
    assert_eq!(lines.len(), 20, "{lines:#?}");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("cycle 2/3: FAILED (console): console lost") && stderr.contains(&tty),
        "{stderr}"
    );
}

#[test]
fn serial_latency_timer_is_set_to_one_ms_or_warned_about() {
    let tmp = tempfile::tempdir().unwrap();
    let sim = SimBoard::start(tmp.path(), &["--to-line", LAST, "--scale", "0.05"]);
    let bf = sim.board_file(&sim.serial_console(), None);
    // A fake sysfs in which the pty (`tty` -> /dev/pts/N) is a USB serial adapter `N`.
    let pts = std::fs::read_to_string(sim.dir.join("ready")).unwrap();
    let name = Path::new(pts.trim()).file_name().unwrap().to_owned();
    let sys = tmp.path().join("sys");
    let dev = sys.join("bus/usb-serial/devices").join(&name);
    std::fs::create_dir_all(&dev).unwrap();
    let file = dev.join("latency_timer");
    let loop_with = |out: &str| {
        let out = tmp.path().join(out);
        let mut c = boot_loop(&bf, &out, &["--cycles", "1", "--timeout", "20"]);
        c.env("PERFGUIDE_SYSFS", &sys);
        let o = run(c);
        assert_eq!(o.status.code(), Some(0));
        let m: Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
        (String::from_utf8_lossy(&o.stderr).into_owned(), m)
    };

    // FTDI's default, writable: set to 1 ms, both values recorded, no warning.
    std::fs::write(&file, "16\n").unwrap();
    let (stderr, m) = loop_with("set");
    assert_eq!(std::fs::read_to_string(&file).unwrap().trim(), "1");
    assert_eq!(m["latency_timer"]["file"], file.display().to_string());
    assert_eq!(m["latency_timer"]["found_ms"], 16);
    assert_eq!(m["latency_timer"]["in_effect_ms"], 1);
    assert!(m["latency_timer"].get("not_set").is_none());
    assert!(!stderr.contains("latency"), "{stderr}");

    // Read-only: a warning naming the file and the value; 16 is what the run had.
    std::fs::write(&file, "16\n").unwrap();
    let ro = bind_read_only(&dev);
    let (stderr, m) = loop_with("read-only");
    drop(ro);
    assert_eq!(m["latency_timer"]["found_ms"], 16);
    assert_eq!(m["latency_timer"]["in_effect_ms"], 16);
    assert!(m["latency_timer"]["not_set"]
        .as_str()
        .unwrap()
        .contains("Read-only file system"));
    let want = format!(
        "perfguide: warning: the latency timer {} is 16 ms and could not be set to 1 (",
        file.display()
    );
    assert!(stderr.contains(&want), "{stderr}");
    assert!(
        stderr.contains("console stamps may be late by up to 16 ms"),
        "{stderr}"
    );

    // No such file (not a USB serial adapter): nothing said, nothing recorded.
    std::fs::remove_dir_all(&sys).unwrap();
    let (stderr, m) = loop_with("none");
    assert!(m.get("latency_timer").is_none(), "{m}");
    assert!(!stderr.contains("latency"), "{stderr}");
}

/// A quiet board: the replay of a real quiet boot of the QEMU reference board (4 console lines
/// to its login prompt), then its records answered from the files read back from that boot
/// (`tests/data/quiet/`), with the kernel log's and the generic timer's zeros at known times
/// after power-on. The merged stages are checked against values computed by hand from the
/// files and those offsets.
#[test]
fn quiet_board_is_read_back_and_merged() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/quiet");
    // The offsets measured in that boot (its record's alignment), rounded.
    let (printk_offset, counter_offset) = (0.474, 0.025);
    let tmp = tempfile::tempdir().unwrap();
    let sim = SimBoard::start(
        tmp.path(),
        &[
            "--log",
            &data.join("cycle.log").display().to_string(),
            "--from-line",
            "1",
            "--shell",
            &data.display().to_string(),
            "--printk-offset",
            &printk_offset.to_string(),
            "--counter-offset",
            &counter_offset.to_string(),
        ],
    );
    let board = sim.board_file(&sim.serial_console(), None);
    let out = tmp.path().join("run");
    let o = run(boot_loop(
        &board,
        &out,
        &["--cycles", "2", "--console", "quiet", "--timeout", "20"],
    ));
    assert_eq!(o.status.code(), Some(0), "every cycle completes");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("its image must be built quiet"), "{stderr}");

    // By hand from the files: the bootstage marks as the target printed them (4 bytes,
    // big-endian, µs), and `Run /init` at 1.156189 s in the kernel log.
    let bs = std::fs::read_to_string(data.join("bootstage.txt")).unwrap();
    let mark = |name: &str| -> f64 {
        let l = bs
            .lines()
            .find(|l| l.ends_with(&format!(" {name}")) && l.contains(" mark "))
            .unwrap();
        let b: Vec<u32> = l
            .split_whitespace()
            .skip(2)
            .take(4)
            .map(|x| x.parse().unwrap())
            .collect();
        ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) as f64 / 1e6
    };
    let (first, handoff, init) = (mark("board_init_f"), mark("start_kernel"), 1.156189);
    for r in records(&out) {
        assert_eq!(r["status"], "ok", "{r}");
        assert_eq!(r["console"], "quiet");
        let a = &r["alignment"];
        let err = a["error_s"].as_f64().unwrap();
        // The board starts during the power-on command: its clocks' zeros are later than
        // the offsets by up to that command's time.
        let late = r["host"]["power_on_s"].as_f64().unwrap();
        // The simulator answers the sync at once: its stated error was 0.07-0.09 ms in six
        // cycles here, and an offset's distance from the power-on command's middle at most
        // 1.8 ms of the 2.4-2.6 ms half-command. SIM_SYNC_S is the slack beyond that half.
        const SIM_SYNC_S: f64 = 0.001;
        assert!(err > 0.0 && err < SIM_SYNC_S, "stated error {err}");
        let tol = late / 2.0 + SIM_SYNC_S;
        let near = |got: &Value, want: f64, what: &str| {
            let g = got.as_f64().unwrap_or_else(|| panic!("{what}: {got}"));
            assert!(
                (g - want).abs() <= tol,
                "{what}: {g} vs {want} by hand (tolerance {tol}); {r}"
            );
        };
        near(
            &a["printk_offset_s"],
            printk_offset + late / 2.0,
            "printk offset",
        );
        near(
            &a["counter_offset_s"],
            counter_offset + late / 2.0,
            "counter offset",
        );
        // The generic timer is tied to printk on the target itself: to the microsecond.
        let tie = a["counter_offset_s"].as_f64().unwrap() - a["printk_offset_s"].as_f64().unwrap();
        assert!(
            (tie - (counter_offset - printk_offset)).abs() < 2e-6,
            "{tie}"
        );
        let st = |id: &str| {
            r["stages"]
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["id"] == id)
                .unwrap_or_else(|| panic!("no {id}: {r}"))
                .clone()
        };
        near(
            &st("rom")["end_s"],
            counter_offset + late / 2.0 + first,
            "rom end",
        );
        near(
            &st("uboot")["end_s"],
            counter_offset + late / 2.0 + handoff,
            "uboot end",
        );
        assert!((st("uboot")["duration_s"].as_f64().unwrap() - (handoff - first)).abs() < 1e-9);
        near(
            &st("kernel")["end_s"],
            printk_offset + late / 2.0 + init,
            "kernel end",
        );
        assert_eq!(st("userspace")["end_s"], r["host"]["ready_s"]);
        assert_eq!(r["kernel"]["init_ts_s"].as_f64(), Some(init));
        assert_eq!(r["bootstage"].as_array().unwrap().len(), 11);
        let notes = r["collected"]["notes"].as_array().unwrap();
        assert!(notes
            .iter()
            .any(|n| n.as_str().unwrap().contains("systemd: not on the target")));
    }
}
