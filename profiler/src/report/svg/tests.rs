//! The pictures' tests.

use super::*;
use crate::report::model::{Bar, Better, Row, RunInfo, Section, Waterfall, REPORT_SCHEMA};

fn bar(lane: &str, name: &str, stage: &str, a: f64, b: f64) -> Bar {
    Bar {
        lane: lane.into(),
        name: name.into(),
        stage: stage.into(),
        start_ms: a,
        end_ms: b,
        clock: if lane == "stage" { "host" } else { "target" }.into(),
    }
}

fn report(bars: Vec<Bar>) -> Report {
    Report {
        schema: REPORT_SCHEMA.into(),
        tool_version: "0".into(),
        runs: vec![RunInfo {
            name: "run<1>".into(),
            dir: "d".into(),
            board: "b".into(),
            setup: vec![],
            planned: 3,
            recorded: 3,
            ok: 3,
            failed: vec![],
            missing: vec![],
            baud: 115_200,
            baud_nominal: true,
        }],
        sections: vec![],
        waterfalls: vec![Waterfall {
            run: 0,
            cycle: 2,
            total_ms: 3000.0,
            bars,
            alignment: vec!["initcalls: \"printk\" <placed>".into()],
        }],
    }
}

fn stages() -> Vec<Bar> {
    vec![
        bar("stage", "rom", "rom", 0.0, 40.0),
        bar("stage", "uboot", "uboot", 40.0, 400.0),
        bar("stage", "kernel", "kernel", 400.0, 2600.0),
        bar("stage", "userspace", "userspace", 2600.0, 3000.0),
    ]
}

#[test]
fn waterfall_of_five_bars_orders_lines_and_escapes() {
    let mut bars = stages();
    bars.push(bar("bootstage", "<script>x</script>", "uboot", 90.0, 90.0));
    let r = report(bars);
    let svg = waterfalls(&r);
    assert_eq!(svg.matches("class=\"bar stage\"").count(), 4);
    assert_eq!(svg.matches("class=\"mark\"").count(), 1);
    assert!(!svg.contains("<script"));
    assert!(svg.contains("&lt;script&gt;x&lt;/script&gt;"));
    assert!(svg.contains("run&lt;1&gt;"));
    assert!(svg.contains("&quot;printk&quot; &lt;placed&gt;"));
    // The mark is drawn under U-Boot, before the kernel's line.
    let (m, k) = (
        svg.find("class=\"mark\"").unwrap(),
        svg.find(">kernel<").unwrap(),
    );
    assert!(m < k);
    assert_eq!(svg, waterfalls(&r.clone()), "deterministic");
}

#[test]
fn spread_and_bench_bars() {
    let mut r = report(stages());
    r.sections = vec![
        Section {
            id: "boot".into(),
            title: "Boot".into(),
            note: String::new(),
            rows: vec![Row::new(
                "Power-on",
                "s",
                Better::Lower,
                vec![vec![2.0, 2.2, 2.1]],
            )],
        },
        Section {
            id: "stages".into(),
            title: "Stages".into(),
            note: String::new(),
            rows: vec![Row::new(
                "kernel",
                "ms",
                Better::Lower,
                vec![vec![1400.0, 1500.0, 1450.0]],
            )],
        },
        Section {
            id: "bench/x<y>".into(),
            title: "Benchmark: x<y>".into(),
            note: String::new(),
            rows: vec![Row::new(
                "t: <m>",
                "MB/s",
                Better::Higher,
                vec![vec![10.0, 12.0]],
            )],
        },
    ];
    let sp = spread(&r).unwrap();
    assert_eq!(
        sp.matches("<circle").count(),
        6 + 1,
        "a dot a cycle and the key's"
    );
    // Both rows on one scale of ms from their medians, reaching the boot time's 100 ms.
    assert!(sp.contains("median 2100.0 ms"), "{sp}");
    assert!(
        sp.contains(">+100<") && sp.contains(">\u{2212}100<"),
        "{sp}"
    );
    assert!(!sp.contains(">+125<"), "{sp}");
    assert!(
        sp.contains("mean 1450.0 ms, range 100.0 ms (6.9 %)"),
        "{sp}"
    );
    let b = bench(&r, &r.sections[2]).unwrap();
    assert!(b.contains("t: &lt;m&gt;") && b.contains("Benchmark: x&lt;y&gt;"));
    assert!(b.contains("MB/s, higher is better"));
    assert!(b.contains("11.00 MB/s (n = 2)"), "{b}");
    assert!(b.contains("id=\"bench-x-y-\""));
    assert!(!b.contains("<m>"));
}

#[test]
fn waterfall_of_sixty_bars_stays_in_its_box() {
    let mut bars = stages();
    for i in 0..56 {
        let a = 400.0 + i as f64 * 35.0;
        bars.push(bar(
            "initcall",
            &format!("a_rather_long_initcall_name_number_{i}_init"),
            "kernel",
            a,
            a + 30.0,
        ));
    }
    let svg = waterfalls(&report(bars));
    assert_eq!(svg.matches("class=\"bar sub\"").count(), 56);
    let h: f64 = svg
        .split("height=\"")
        .nth(1)
        .and_then(|t| t.split('"').next())
        .unwrap()
        .parse()
        .unwrap();
    assert!(h < 60.0 * 16.0 + 120.0, "{h}");
    // Every coordinate within the picture.
    for part in svg.split(" x=\"").skip(1) {
        let v: f64 = part.split('"').next().unwrap().parse().unwrap();
        assert!((0.0..=WIDTH).contains(&v), "x={v}");
    }
    assert!(svg.contains("…"), "long names are clipped");
}

#[test]
fn helpers() {
    assert_eq!(nice_step(2100.0, 10.0), 250.0);
    assert_eq!(nice_step(0.8, 5.0), 0.2);
    assert_eq!(step_decimals(0.25), 2);
    assert_eq!(step_decimals(250.0), 0);
    assert_eq!(
        ticks(0.0, 1000.0, 250.0),
        vec![0.0, 250.0, 500.0, 750.0, 1000.0]
    );
    assert_eq!(tint("#4e79a7", 0.0), "#4e79a7");
    assert_eq!(tint("#000000", 1.0), "#ffffff");
    let j: Vec<f64> = (0..100).map(|k| jitter(1, 0, k)).collect();
    assert!(j.iter().all(|v| (-1.0..=1.0).contains(v)));
    assert!(j.iter().any(|v| *v > 0.5) && j.iter().any(|v| *v < -0.5));
    assert_eq!(stage_colour("kernel"), "#e15759");
    assert_eq!(stage_colour("<x>"), OTHER_STAGE);
}
