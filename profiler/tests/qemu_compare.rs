//! `perfguide compare` on real QEMU boot loops: a U-Boot that sleeps 200 ms more before booting
//! (the image variant `data/qemu-arm64-uboot-delay.toml`: `CONFIG_PREBOOT="sleep 0.2"`) is
//! found slower in the U-Boot stage with p < 0.05 and a shift estimate on the change that
//! U-Boot's own bootstage timer saw (the sleep, at least 200 ms), its kernel and user space
//! unchanged; two runs of the same image show no significant change. 30 boots; the variant's image is built once
//! and cached by content.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

#[path = "support/record.rs"]
mod record;
use record::bootstage_mark_us;

const PERFGUIDE: &str = env!("CARGO_BIN_EXE_perfguide");
/// Cycles a run, grown in blocks of `BLOCK`.
const CYCLES: u32 = 10;
const BLOCK: u32 = 2;

fn delay_board() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/qemu-arm64-uboot-delay.toml")
}

fn run(args: &[&std::ffi::OsStr]) -> std::process::Output {
    let o = Command::new(PERFGUIDE)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    eprintln!(
        "$ perfguide {}\n{}",
        args.iter()
            .map(|a| a.to_string_lossy())
            .collect::<Vec<_>>()
            .join(" "),
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

fn os<T: AsRef<std::ffi::OsStr> + ?Sized>(s: &T) -> &std::ffi::OsStr {
    s.as_ref()
}

/// Runs `board` until the run in `out` holds `cycles` cycles (a new run, or `--resume`).
fn boot_loop(board: &[&std::ffi::OsStr], out: &Path, cycles: u32) {
    let mut args = vec![os("boot-loop")];
    let total = cycles.to_string();
    if out.exists() {
        args.push(os("--resume"));
    } else {
        args.extend_from_slice(board);
    }
    args.extend([
        os("--cycles"),
        os(&total),
        os("--timeout"),
        os("180"),
        os("--out"),
        os(out),
    ]);
    let o = run(&args);
    assert_eq!(o.status.code(), Some(0), "every cycle completes");
}

fn compare(base: &Path, cand: &Path) -> (Option<i32>, Value) {
    let o = run(&[
        os("compare"),
        os(base),
        os(cand),
        os("--format"),
        os("json"),
    ]);
    let v = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stdout)));
    (o.status.code(), v)
}

/// Each ok cycle's `main_loop` to `usb_start` span on U-Boot's own timer, ms, sorted: the
/// preboot command runs between the two marks (the bootcmd's `usb start` is the first thing
/// after it), and nothing else but a few ms of U-Boot's own work.
fn preboot_spans_ms(run: &Path) -> Vec<f64> {
    let text = std::fs::read_to_string(run.join("boots.jsonl")).unwrap();
    let mut spans: Vec<f64> = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|r| r["status"] == "ok")
        .map(|r| {
            let mark = |name: &str| bootstage_mark_us(&r, name);
            (mark("usb_start") - mark("main_loop")) / 1000.0
        })
        .collect();
    assert!(!spans.is_empty(), "no ok cycle in {}", run.display());
    spans.sort_by(f64::total_cmp);
    spans
}

fn median(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    (sorted[(n - 1) / 2] + sorted[n / 2]) / 2.0
}

fn line<'a>(c: &'a Value, section: &str, name: &str) -> &'a Value {
    c["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["section"] == section && l["name"] == name)
        .unwrap_or_else(|| panic!("no {section}: {name} in {c}"))
}

#[test]
fn compare_finds_a_200_ms_uboot_delay_and_no_change_between_runs_of_one_image() {
    let o = run(&[
        os("image"),
        os("build"),
        os("--board-file"),
        os(&delay_board()),
    ]);
    assert!(o.status.success(), "variant image build");
    let tmp = tempfile::tempdir().unwrap();
    let (base, delay, same) = (
        tmp.path().join("base"),
        tmp.path().join("delay"),
        tmp.path().join("same"),
    );
    // The build and the tests before leave dirty pages; their write-back would land in the
    // middle of the first loop's boots.
    let synced = Command::new("sync").status().unwrap();
    assert!(synced.success());
    // The three runs grow by turns, a block of cycles each, so that a drift of the host over
    // the minutes they take (TCG timing follows the machine's load) falls on all three alike
    // instead of making one run differ from another.
    let stock = [os("--board"), os("qemu-arm64")];
    let delay_file = delay_board();
    let variant = [os("--board-file"), os(&delay_file)];
    // One boot of each image first, not measured: the image files come back into the page
    // cache that the tests before (the benchmarks' memory) pushed them out of, so the first
    // measured boots do not read them from disk.
    boot_loop(&stock, &tmp.path().join("warm-stock"), 1);
    boot_loop(&variant, &tmp.path().join("warm-variant"), 1);
    for k in 1..=CYCLES / BLOCK {
        boot_loop(&stock, &base, k * BLOCK);
        boot_loop(&variant, &delay, k * BLOCK);
        boot_loop(&stock, &same, k * BLOCK);
    }

    // The delay: slower in U-Boot, beyond noise, exit 1.
    let (code, c) = compare(&base, &delay);
    let u = line(&c, "stages", "uboot");
    eprintln!("uboot: {u}");
    assert_eq!(code, Some(1), "a regression fails the exit status");
    assert_eq!(u["verdict"], "slower", "{u}");
    assert!(u["p"].as_f64().unwrap() < 0.05 && u["p_holm"].as_f64().unwrap() < 0.05);
    // The change as U-Boot's own timer saw it, from `main_loop` to `usb_start`, the span the
    // preboot command runs in (not to `bootm_start`: that span holds the disk loads too, which
    // vary by tens of ms with this host's speed). Every delayed cycle's span holds the whole
    // sleep; no base cycle's holds anything like it. The host-timed stage's shift estimate must
    // land on the change: median of the delayed spans less median of the base's.
    //
    // Not "the 95% interval holds it": an interval at 95% misses the true shift one run in
    // twenty by design, and this test did, on CI and here (estimate 178.2 ms, interval
    // [166.3, 196.3], U-Boot's timer 199.9 ms). Its error is the noise of the rest of the U-Boot
    // stage, not of the sleep: on 20 + 20 boots the host-timed stage followed U-Boot's own
    // `start_kernel` mark within 1-2 ms (sd) per boot and the preboot span was 203.5 ± 0.7 ms,
    // while reset to `main_loop` (device probing, the environment read from flash) spread by
    // 18-24 ms sd, so the stage's sd was 16-34 ms over 10 boots (three runs, both sides) and
    // 24-29 ms over 20. A 10-against-10 shift then has a standard error up to
    // 35 ms × √(2/10) ≈ 16 ms, and 55 ms is 3.3 of them: the 0.1% level the other checks use. The estimates seen: 197.2, 192.1, 178.2 ms.
    let (d_spans, b_spans) = (preboot_spans_ms(&delay), preboot_spans_ms(&base));
    assert!(d_spans[0] >= 200.0, "delayed preboot spans {d_spans:?} ms");
    assert!(
        b_spans[b_spans.len() - 1] < 50.0,
        "base preboot spans {b_spans:?} ms"
    );
    let target = median(&d_spans) - median(&b_spans);
    let s = &u["shift"];
    let (est, low, high) = (
        s["estimate"].as_f64().unwrap(),
        s["low"].as_f64().unwrap(),
        s["high"].as_f64().unwrap(),
    );
    assert!(
        low <= est && est <= high,
        "estimate outside its interval: {u}"
    );
    assert!(
        (est - target).abs() <= 55.0,
        "host-timed shift {est:.1} ms (95% [{low}, {high}]) is not the {target:.1} ms \
         U-Boot's timer saw (bound 55 ms)"
    );
    // Nothing else moves: the kernel's and user space's stages are not found changed at the
    // 0.1% level (Holm within the stages, as compare corrects; stricter than compare's 5%,
    // which alarms one run in twenty with nothing changed; the delay itself is found at
    // p = 1e-5), and their shift estimates stay within about 4 standard errors of none.
    // Measured with perfguide's QEMU driver (QEMU off the host's huge pages,
    // docs/userspace-shift.md), three runs: the kernel stage's standard deviation over 10
    // boots 23-59 ms, user space's 7-23 ms, so a 10-against-10 shift estimate has a standard
    // error up to 25 ms and 7 ms; the runs gave kernel +22.8, +0.0, -13.8 ms and user space
    // +2.3, -2.7, -7.8 ms (means' differences). With QEMU's default memory this host gave the
    // kernel 100-130 ms of spread and shifts of +12 to +108 ms.
    for (stage, bound_ms) in [("kernel", 100.0), ("userspace", 30.0)] {
        let l = line(&c, "stages", stage);
        eprintln!("{stage}: {l}");
        let p_holm = l["p_holm"].as_f64().unwrap();
        assert!(p_holm >= 0.001, "{stage} changed, p_holm {p_holm}: {l}");
        let est = l["shift"]["estimate"].as_f64().unwrap();
        assert!(
            est.abs() <= bound_ms,
            "{stage} moved {est:.1} ms with only U-Boot changed (bound {bound_ms} ms): {l}"
        );
    }

    // The same image twice: no figure changed, by compare's own correction (Holm within each
    // section), at the 0.1% level. Not at compare's 5%: with nothing changed, a 5% test alarms
    // one comparison in twenty per section by design, so a test that asserted it would fail
    // that often; that compare's false alarms stay at 5% is checked on 2,000 simulated A/A
    // comparisons (`compare::verdict` unit tests: 3.3% of comparisons).
    let (code, c) = compare(&base, &same);
    let lines = c["lines"].as_array().unwrap();
    let tested: Vec<&Value> = lines.iter().filter(|l| l["p_holm"].is_f64()).collect();
    assert!(tested.len() >= 20, "figures compared: {c}");
    for l in &tested {
        let p_holm = l["p_holm"].as_f64().unwrap();
        assert!(
            p_holm >= 0.001,
            "same image, {}: {} changed, p after Holm {p_holm}: {l}",
            l["section"],
            l["name"]
        );
    }
    eprintln!(
        "same image: {} figures, least p after Holm {:.3}, verdicts {:?}",
        tested.len(),
        tested
            .iter()
            .map(|l| l["p_holm"].as_f64().unwrap())
            .fold(1.0, f64::min),
        tested
            .iter()
            .filter(|l| l["verdict"] != "no-change")
            .map(|l| format!("{}: {} {}", l["section"], l["name"], l["verdict"]))
            .collect::<Vec<_>>()
    );
    // The exit status follows the lines: 1 only for a slower one beyond the threshold.
    let regress = lines
        .iter()
        .any(|l| l["verdict"] == "slower" && l["beyond_threshold"] == true);
    assert_eq!(code, Some(i32::from(regress)));

    // A CI keeps the baseline's report.json, not its run: the same verdict from it.
    let kept = tmp.path().join("kept");
    let o = run(&[
        os("report"),
        os(&base),
        os("--format"),
        os("json"),
        os("-o"),
        os(&kept),
    ]);
    assert!(o.status.success());
    let (code, c) = compare(&kept.join("report.json"), &delay);
    assert_eq!(code, Some(1));
    assert_eq!(line(&c, "stages", "uboot")["verdict"], "slower");
}
