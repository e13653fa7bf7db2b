//! `report.html` in a real browser: headless Chromium (Debian's `chromium`, which
//! scripts/setup-host.sh installs) loads the page of a run made from the five real QEMU
//! captures of `data/runs/qemu-arm64-5` (host-stamped lines, U-Boot bootstage records) plus
//! the bundled benchmarks' capture, with markup in the board name, the run's name, a
//! bootstage record and a failure. With JavaScript on, the DOM it dumps must hold that markup
//! as text and the pictures as SVG; its screenshot must show the waterfall's stage bars
//! painted where the SVG puts them.

use perfguide::rundir::{
    CycleRecord, Failure, FailureReason, HostInfo, HostTiming, RunDir, RunManifest, ToolInfo,
    RUN_SCHEMA,
};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BOARD: &str = "qemu <script>document.title='pwned'</script>";
const FAILURE: &str = "no login <img src=x onerror=\"document.body.setAttribute('data-pwned','1')\"> <script>document.title='pwned'</script>";
const RUN: &str = "run <img src=x onerror=\"document.title='pwned'\"> & 'q'";
const RECORD: &str = "main_loop<script>document.title='pwned'</script>";

/// The stage colours the waterfall paints U-Boot and the kernel with
/// (`perfguide::report::svg::STAGE_COLOURS`).
const UBOOT: [u8; 3] = [0x4e, 0x79, 0xa7];
const KERNEL: [u8; 3] = [0xe1, 0x57, 0x59];

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// A run directory of the five real captures (one with a bootstage record renamed to
/// markup), a failed sixth cycle and the bundled benchmarks.
fn hostile_run(parent: &Path) -> PathBuf {
    let run = parent.join(RUN);
    let board = perfguide::profile::Board::builtin("qemu-arm64").unwrap();
    let manifest = RunManifest {
        schema: RUN_SCHEMA.into(),
        board: BOARD.into(),
        board_source: "builtin".into(),
        board_profile: board.text.clone(),
        images: vec![],
        host: HostInfo::current(),
        tool: ToolInfo::default(),
        started: "2026-12-05T13:46:39+00:00".into(),
        args: vec![],
        cycles: 6,
        timeout_s: 60.0,
        power: "qemu".into(),
        console: "qemu serial (stdio)".into(),
        latency_timer: None,
        resumes: vec![],
    };
    let mut rd = RunDir::create(&run, manifest).unwrap();
    let mut last = None;
    for c in 1..=5u32 {
        let log =
            std::fs::read(data().join(format!("runs/qemu-arm64-5/cycle-{c:04}.log"))).unwrap();
        let mut boot = bootlog_parser::parse_power_on_capture(&log, &board.profile)
            .into_iter()
            .next()
            .unwrap();
        assert_eq!(boot.bootstage.len(), 11, "cycle {c}: bootstage records");
        for r in &mut boot.bootstage {
            if r.name == "main_loop" {
                r.name = RECORD.into();
            }
        }
        last = Some(boot.clone());
        rd.append(CycleRecord::new(c, boot, HostTiming::default(), None))
            .unwrap();
    }
    let fail = Failure {
        reason: FailureReason::Timeout,
        detail: FAILURE.into(),
    };
    rd.append(CycleRecord::new(
        6,
        last.unwrap(),
        HostTiming::default(),
        Some(fail),
    ))
    .unwrap();
    drop(rd);
    let capture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../bench-parser/tests/captures/qemu-arm64-bundled.txt");
    let o = Command::new(env!("CARGO_BIN_EXE_perfguide"))
        .args(["bench", "parse"])
        .arg(&capture)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::write(run.join("bench.jsonl"), &o.stdout).unwrap();
    run
}

/// `chromium` on PATH; the test fails without it.
fn chromium() -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|d| d.join("chromium"))
        .find(|p| p.is_file())
        .unwrap_or_else(|| {
            panic!(
                "chromium is not installed: run `bash scripts/setup-host.sh` as root (it installs \
                 Debian's chromium package), then run this test again"
            )
        })
}

/// Runs headless Chromium on `page` with `args` (JavaScript on, a fresh profile, no
/// network of its own); its stdout.
fn browse(page: &Path, args: &[&str]) -> String {
    let profile = tempfile::tempdir().unwrap();
    let out = tempfile::NamedTempFile::new().unwrap();
    let err = tempfile::NamedTempFile::new().unwrap();
    let mut child = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(args)
        .arg(url(page))
        .stdin(Stdio::null())
        .stdout(out.reopen().unwrap())
        .stderr(err.reopen().unwrap())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium {args:?} did not finish in 120 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(
        status.success(),
        "chromium {args:?}: {status}\n{}",
        std::fs::read_to_string(err.path()).unwrap_or_default()
    );
    std::fs::read_to_string(out.path()).unwrap()
}

/// A `file://` URL of an absolute path, every byte outside the unreserved set escaped.
fn url(p: &Path) -> String {
    let mut s = String::from("file://");
    for b in p.to_str().unwrap().bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    s
}

/// The attribute `name` of the first element of `html` whose tag contains `marker`.
fn attr(html: &str, marker: &str, name: &str) -> f64 {
    let at = html
        .find(marker)
        .unwrap_or_else(|| panic!("{marker} not in the page"));
    let start = html[..at].rfind('<').unwrap();
    let tag = &html[start..start + html[start..].find('>').unwrap()];
    let key = format!(" {name}=\"");
    let v = &tag[tag
        .find(&key)
        .unwrap_or_else(|| panic!("{name} not in {tag}"))
        + key.len()..];
    v[..v.find('"').unwrap()].parse().unwrap()
}

/// Pixels of colour `rgb` (within 2 a channel) in horizontal runs of at least 12 px (the
/// 10 px colour swatches of the labels are shorter): their count and bounding box
/// `(x0, y0, x1, y1)`.
fn painted(img: &[u8], width: usize, channels: usize, rgb: [u8; 3]) -> (usize, [usize; 4]) {
    let height = img.len() / (width * channels);
    let hit = |x: usize, y: usize| {
        let p = &img[(y * width + x) * channels..][..3];
        p.iter().zip(rgb).all(|(a, b)| a.abs_diff(b) <= 2)
    };
    let mut n = 0;
    let mut bb = [usize::MAX, usize::MAX, 0, 0];
    for y in 0..height {
        let mut x = 0;
        while x < width {
            if !hit(x, y) {
                x += 1;
                continue;
            }
            let a = x;
            while x < width && hit(x, y) {
                x += 1;
            }
            if x - a >= 12 {
                n += x - a;
                bb = [bb[0].min(a), bb[1].min(y), bb[2].max(x - 1), bb[3].max(y)];
            }
        }
    }
    (n, bb)
}

#[test]
fn report_page_in_headless_chromium() {
    chromium();
    let tmp = tempfile::tempdir().unwrap();
    let run = hostile_run(tmp.path());
    let out = tmp.path().join("out");
    let o = Command::new(env!("CARGO_BIN_EXE_perfguide"))
        .arg("report")
        .arg(&run)
        .args(["--format", "html", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let page = out.join("report.html");
    let html = std::fs::read_to_string(&page).unwrap();

    // The DOM after the page ran with JavaScript on: markup from the run arrived as text.
    let dom = browse(&page, &["--dump-dom"]);
    assert!(dom.contains("<svg"), "no DOM dumped:\n{dom}");
    let body = &dom[dom.find("<body").unwrap()..];
    let body = &body[..body.find('>').unwrap()];
    assert!(
        !body.contains("data-pwned"),
        "an onerror handler ran: {body}"
    );
    assert!(!dom.contains("data-pwned=\""), "an onerror handler ran");
    let title = &dom[dom.find("<title>").unwrap() + 7..dom.find("</title>").unwrap()];
    assert_ne!(title, "pwned");
    assert!(
        title.contains("&lt;script&gt;document.title='pwned'&lt;/script&gt;"),
        "{title}"
    );
    let lower = dom.to_lowercase();
    assert!(
        !lower.contains("<script"),
        "a script element reached the DOM"
    );
    assert!(!lower.contains("<img"), "an img element reached the DOM");
    for text in [
        "no login &lt;img src=x onerror=\"document.body.setAttribute('data-pwned','1')\"&gt;",
        "main_loop&lt;script&gt;document.title='pwned'&lt;/script&gt;",
        "run &lt;img src=x onerror=\"document.title='pwned'\"&gt; &amp; 'q'",
    ] {
        assert!(dom.contains(text), "{text} not in the DOM as text");
    }
    // The pictures are SVG elements in the DOM: the waterfall's 4 stages, 10 bootstage
    // steps and the `reset` mark; the spread; the benchmark bars.
    let svg = &dom[dom.find("<svg").unwrap()..];
    assert!(svg.contains("id=\"waterfall-0\""), "{svg}");
    let wf = &svg[..svg.find("</svg>").unwrap()];
    assert_eq!(wf.matches("class=\"bar stage\"").count(), 4);
    assert_eq!(wf.matches("class=\"bar sub\"").count(), 10);
    assert_eq!(wf.matches("class=\"mark\"").count(), 1);
    assert!(dom.contains("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"spread\""));
    assert!(dom.contains("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"bench\""));
    assert!(dom.contains("the median of 5 successful cycles"));

    // The screenshot: the U-Boot and kernel bars are painted, at the size and place the SVG
    // gives them (the page is wide enough to draw the SVG at 1:1).
    let shot = tmp.path().join("shot.png");
    browse(
        &page,
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1280,2400",
            "--hide-scrollbars",
        ],
    );
    let mut dec = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&shot).unwrap()));
    dec.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = dec.read_info().unwrap();
    let mut img = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut img).unwrap();
    img.truncate(info.buffer_size());
    let channels = info.color_type.samples();
    assert!(channels >= 3, "{:?}", info.color_type);
    assert_eq!(info.width, 1280);
    let mut boxes = Vec::new();
    for (stage, rgb) in [("uboot", UBOOT), ("kernel", KERNEL)] {
        let marker = format!("class=\"bar stage\" data-stage=\"{stage}\"");
        let (x, y, w, h) = (
            attr(&html, &marker, "x"),
            attr(&html, &marker, "y"),
            attr(&html, &marker, "width"),
            attr(&html, &marker, "height"),
        );
        let area = w * h;
        let (n, bb) = painted(&img, info.width as usize, channels, rgb);
        eprintln!(
            "{stage}: bar {w:.1} x {h:.1} = {area:.0} px at svg ({x:.1}, {y:.1}); painted {n} px, box {bb:?}"
        );
        assert!(
            n as f64 >= area / 2.0,
            "{stage}: {n} px painted, the bar covers {area:.0}"
        );
        assert!(
            (n as f64) <= area * 1.2 + 2.0 * (w + h),
            "{stage}: {n} px of its colour, more than the bar's {area:.0}: drawn elsewhere too"
        );
        let (bw, bh) = ((bb[2] - bb[0] + 1) as f64, (bb[3] - bb[1] + 1) as f64);
        assert!(
            (bw - w).abs() <= 2.0,
            "{stage}: painted {bw} px wide, bar {w}"
        );
        assert!(
            (bh - h).abs() <= 2.0,
            "{stage}: painted {bh} px high, bar {h}"
        );
        boxes.push((x, y, bb));
    }
    // The kernel's bar starts where U-Boot's ends, further down by the rows between them.
    let ((ux, uy, ub), (kx, ky, kb)) = (boxes[0], boxes[1]);
    assert!(((kb[0] as f64 - ub[0] as f64) - (kx - ux)).abs() <= 2.0);
    assert!(((kb[1] as f64 - ub[1] as f64) - (ky - uy)).abs() <= 2.0);
}
