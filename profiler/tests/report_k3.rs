//! `perfguide report` of a TI K3 run whose R5 SPL prints its own bootstage report: the R5 SPL
//! breakdown table (SBL style, `mean (min, max)` over the cycles) in every format, the A-core
//! SPL's steps from U-Boot proper's report, the R5 steps on the waterfall's host clock, and
//! record names from the log escaped in every format. The cycles are the composed J721E boot
//! of `bootlog-parser/tests/data/k3-j721e-bootstage.log` (its README says from what), the
//! second and third with the R5 report's `ram ready` mark moved (said where).

use perfguide::rundir::{
    CycleRecord, HostInfo, HostTiming, RunDir, RunManifest, ToolInfo, RUN_SCHEMA,
};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The composed J721E boot, host-stamped as a boot loop's cycle capture.
const LOG: &str = include_str!("../../bootlog-parser/tests/data/k3-j721e-bootstage.log");

/// The R5 report's `ram ready` row of [`LOG`] (tiny printf: mark, elapsed, name).
const RAM_READY: &str = "] 96410 24560   ram ready";

fn manifest(board: &str, cycles: u32) -> RunManifest {
    let profile = perfguide::profile::Board::builtin("j721e-evm").unwrap();
    RunManifest {
        schema: RUN_SCHEMA.into(),
        board: board.into(),
        board_source: "builtin".into(),
        board_profile: profile.text,
        images: vec![],
        host: HostInfo {
            hostname: "lab".into(),
            os: "Debian GNU/Linux 12 (bookworm)".into(),
            kernel: "6.1.0".into(),
            arch: "x86_64".into(),
            cpus: 8,
        },
        tool: ToolInfo {
            name: "perfguide".into(),
            version: "0.1.0".into(),
        },
        started: "2026-12-07T00:00:00+00:00".into(),
        args: vec![],
        cycles,
        timeout_s: 60.0,
        power: "command".into(),
        console: "serial /dev/ttyUSB2 115200".into(),
        latency_timer: None,
        resumes: vec![],
    }
}

/// A run directory `name` in `parent` of one cycle per log.
fn run_of(parent: &Path, name: &str, board: &str, logs: &[String]) -> PathBuf {
    let run = parent.join(name);
    let profile = perfguide::profile::Board::builtin("j721e-evm").unwrap();
    let mut rd = RunDir::create(&run, manifest(board, logs.len() as u32)).unwrap();
    for (i, log) in logs.iter().enumerate() {
        let boots = bootlog_parser::parse_power_on_capture(log.as_bytes(), &profile.profile);
        assert_eq!(boots.len(), 1);
        rd.append(CycleRecord::new(
            i as u32 + 1,
            boots[0].clone(),
            HostTiming::default(),
            None,
        ))
        .unwrap();
    }
    run
}

fn report(run: &Path, out: &Path) {
    let o = Command::new(env!("CARGO_BIN_EXE_perfguide"))
        .arg("report")
        .arg(run)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

fn read(out: &Path, f: &str) -> String {
    std::fs::read_to_string(out.join(f)).unwrap()
}

fn section<'a>(rep: &'a Value, id: &str) -> &'a Value {
    rep["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == id)
        .unwrap_or_else(|| panic!("no section {id}"))
}

/// The three cycles: the log; `ram ready` at 98410 (DDR init 26560 µs); at 94410 (22560 µs).
fn three_cycles() -> Vec<String> {
    assert_eq!(LOG.matches(RAM_READY).count(), 1);
    vec![
        LOG.to_string(),
        LOG.replace(RAM_READY, "] 98410 26560   ram ready"),
        LOG.replace(RAM_READY, "] 94410 22560   ram ready"),
    ]
}

#[test]
fn r5_spl_breakdown_in_every_format() {
    let tmp = tempfile::tempdir().unwrap();
    let run = run_of(tmp.path(), "j721e", "j721e-evm", &three_cycles());
    let out = tmp.path().join("out");
    report(&run, &out);

    let rep: Value = serde_json::from_str(&read(&out, "report.json")).unwrap();
    let r5 = section(&rep, "r5_spl");
    assert_eq!(r5["title"], "R5 SPL boot time breakdown");
    let names: Vec<&str> = r5["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "SYSFW load",
            "SYSFW start",
            "Board config",
            "PM board config",
            "RM board config",
            "Security board config",
            "DDR init",
            "Load atf",
            "Load tee",
            "Load dm",
            "Load spl",
            "Load k3-j721e-common-proc-board",
            "A-core start preparation",
        ]
    );
    // DDR init per cycle: 96410 - 71850, 98410 - 71850, 94410 - 71850 µs.
    let ddr = &r5["rows"][6];
    assert_eq!(ddr["unit"], "ms");
    assert_eq!(ddr["values"][0], serde_json::json!([24.56, 26.56, 22.56]));
    assert_eq!(
        r5["rows"][0]["values"][0],
        serde_json::json!([46.57, 46.57, 46.57])
    );
    let a = section(&rep, "a_spl");
    assert_eq!(a["rows"][0]["name"], "Load uboot");
    assert_eq!(
        a["rows"][0]["values"][0],
        serde_json::json!([110.464, 110.464, 110.464])
    );
    assert_eq!(a["rows"][1]["name"], "Load fdt-0");
    // The boot's bootstage is U-Boot proper's report, not the R5's.
    let bs = section(&rep, "bootstage");
    assert!(bs["rows"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["name"] == "start_kernel"));
    assert!(!bs["rows"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["name"] == "start atf"));

    // Each format: the rows as `mean (min X, max Y)`.
    let md = read(&out, "guide.md");
    assert!(md.contains("## R5 SPL boot time breakdown"), "{md}");
    assert!(
        md.contains("| DDR init | 24.560 (min 22.560, max 26.560) | 24.560 |"),
        "{md}"
    );
    assert!(
        md.contains("| SYSFW load | 46.570 (min 46.570, max 46.570) |"),
        "{md}"
    );
    assert!(
        md.contains("| Load uboot | 110.5 (min 110.5, max 110.5) |"),
        "{md}"
    );
    let rst = read(&out, "guide.rst");
    let heading = format!("R5 SPL boot time breakdown\n{}\n", "-".repeat(26));
    assert!(rst.contains(&heading), "{rst}");
    // Every punctuation character escaped.
    assert!(
        rst.contains("   * - DDR init\n     - 24\\.560 \\(min 22\\.560\\, max 26\\.560\\)\n"),
        "{rst}"
    );
    let html = read(&out, "report.html");
    assert!(html.contains("<h2>R5 SPL boot time breakdown</h2>"));
    assert!(
        html.contains("<td>DDR init</td><td class=\"num\">24.560 (min 22.560, max 26.560)</td>"),
        "{html}"
    );
    let csv = read(&out, "report.csv");
    assert!(csv.contains("j721e,r5_spl,DDR init,n,3,\n"), "{csv}");
    assert!(
        csv.contains("j721e,r5_spl,DDR init,min,22.56,ms\n"),
        "{csv}"
    );
    assert!(
        csv.contains("j721e,r5_spl,DDR init,max,26.56,ms\n"),
        "{csv}"
    );
    assert!(
        csv.contains("j721e,a_spl,Load fdt-0,min,7.814,ms\n"),
        "{csv}"
    );

    // The waterfall (cycle 2, the median of three equal totals): R5 steps on the host clock,
    // from the header's stamp 0.262587 s less a byte at 115200 baud (86.8 µs) less each
    // step's distance to `start atf`: DDR init from 101.862 ms for 26.560 ms.
    let w = &rep["waterfalls"][0];
    assert_eq!(w["cycle"], 2);
    let bar = |name: &str| {
        w["bars"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["lane"] == "spl" && b["name"] == name)
            .unwrap_or_else(|| panic!("no bar {name}"))
            .clone()
    };
    let ddr = bar("DDR init");
    assert_eq!(ddr["stage"], "r5-spl");
    let near = |v: &Value, want: f64| (v.as_f64().unwrap() - want).abs() < 1e-9;
    assert!(near(&ddr["start_ms"], 101.862), "{ddr}");
    assert!(near(&ddr["end_ms"], 128.422), "{ddr}");
    let sysfw = bar("SYSFW load");
    assert!(near(&sysfw["start_ms"], 31.544), "{sysfw}");
    // Inside the R5 SPL stage's bar (21.004 to 336.0 ms).
    let prep = bar("A-core start preparation");
    assert!(near(&prep["end_ms"], 262.5), "{prep}");
    assert!(w["alignment"]
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a.as_str().unwrap().contains("less 86.8 us")));
    // The A72 SPL's loads, with U-Boot's marks: `start_kernel` (1310.870 ms on its clock)
    // at the kernel stage's start, 1372.361 ms: `fit header` 492.730 ms at 554.221 ms.
    let load = bar("Load uboot");
    assert_eq!(load["stage"], "a-spl");
    assert!(near(&load["start_ms"], 554.221), "{load}");
    // The picture draws them under their stages.
    assert!(
        html.contains("<title>DDR init (spl): 26.560 ms, 101.9 to 128.4 ms from power-on, target clock</title>"),
        "{html}"
    );
}

/// A FIT node name with markup (record names come from the log) stays text in every format.
#[test]
fn record_names_from_the_log_are_escaped() {
    let evil = "fdt\"<img src=x onerror=alert(1)>&'";
    let log = LOG.replace(
        "loaded k3-j721e-common-proc-board",
        &format!("loaded {evil}"),
    );
    let tmp = tempfile::tempdir().unwrap();
    let run = run_of(tmp.path(), "evil", "j721e <b>evm</b>", &[log]);
    let out = tmp.path().join("out");
    report(&run, &out);
    let html = read(&out, "report.html");
    assert!(!html.contains("<img"), "raw markup in the page");
    assert!(!html.contains("<b>evm"), "raw markup in the page");
    let esc = "Load fdt&quot;&lt;img src=x onerror=alert(1)&gt;&amp;&#39;";
    // In the table and in the waterfall's label and tooltip.
    assert!(html.matches(esc).count() >= 2, "{html}");
    let md = read(&out, "guide.md");
    assert!(
        md.contains(
            "| Load fdt\"\\<img src=x onerror=alert(1)\\>&' | 2.773 (min 2.773, max 2.773) |"
        ),
        "{md}"
    );
    let rst = read(&out, "guide.rst");
    assert!(
        rst.contains("   * - Load fdt\\\"\\<img src\\=x onerror\\=alert\\(1\\)\\>\\&\\'"),
        "{rst}"
    );
    let csv = read(&out, "report.csv");
    assert!(
        csv.contains("evil,r5_spl,\"Load fdt\"\"<img src=x onerror=alert(1)>&'\",mean,2.773,ms"),
        "{csv}"
    );
    let rep: Value = serde_json::from_str(&read(&out, "report.json")).unwrap();
    assert_eq!(
        section(&rep, "r5_spl")["rows"][11]["name"],
        format!("Load {evil}")
    );
}

/// The guide of both runs above through `sphinx-build -W` (the venv `scripts/setup-docs.sh`
/// makes): no warning, and the node name with markup arrives as text.
#[test]
fn k3_guides_build_with_sphinx_without_a_warning() {
    let sphinx = perfguide::image::cache::cache_dir().join("docs-venv/bin/sphinx-build");
    assert!(
        sphinx.exists(),
        "{} is missing: run `bash scripts/setup-docs.sh` (scripts/test.sh does)",
        sphinx.display()
    );
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    std::fs::create_dir_all(&src).unwrap();
    let evil = LOG.replace("loaded dm", "loaded *dm* <script>alert(1)</script> `x`_");
    for (name, logs) in [("k3", three_cycles()), ("evil", vec![evil])] {
        let run = run_of(tmp.path(), name, "j721e-evm", &logs);
        let out = tmp.path().join(format!("{name}-out"));
        report(&run, &out);
        std::fs::copy(out.join("guide.rst"), src.join(format!("{name}.rst"))).unwrap();
    }
    std::fs::write(src.join("conf.py"), "project = 'perfguide'\n").unwrap();
    std::fs::write(
        src.join("index.rst"),
        "Guides\n======\n\n.. toctree::\n\n   k3\n   evil\n",
    )
    .unwrap();
    let html = tmp.path().join("html");
    let o = Command::new(sphinx)
        .args(["-W", "--keep-going", "-q", "-b", "html"])
        .arg(&src)
        .arg(&html)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "sphinx-build -W failed:\n{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let page = std::fs::read_to_string(html.join("evil.html")).unwrap();
    assert!(
        page.contains("Load *dm* &lt;script&gt;alert(1)&lt;/script&gt; `x`_"),
        "{page}"
    );
    assert!(!page.contains("<script>alert"));
    let k3 = std::fs::read_to_string(html.join("k3.html")).unwrap();
    assert!(k3.contains("R5 SPL boot time breakdown"));
}
