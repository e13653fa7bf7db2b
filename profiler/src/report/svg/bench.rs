//! The benchmark bars of a section: each figure's mean and range per run.

use super::*;
use crate::report::model::{Better, Row, Section};
use bootlog_parser::stats::Summary;

/// A benchmark section's bars: per row, one bar a run from zero to the mean with a min-max
/// whisker; rows of one unit share a scale. `None` for a section without a value.
pub fn bench(r: &Report, sec: &Section) -> Option<String> {
    let rows: Vec<&Row> = sec
        .rows
        .iter()
        .filter(|x| x.values.iter().any(|v| v.iter().any(|f| f.is_finite())))
        .collect();
    if rows.is_empty() {
        return None;
    }
    const LABEL_X: f64 = 10.0;
    const X0: f64 = 330.0;
    const X1: f64 = WIDTH - 230.0;
    const LANE: f64 = 16.0;
    let several = r.runs.len() > 1;
    let lanes = if several { r.runs.len() } else { 1 };
    let band = (lanes as f64 * LANE + 12.0).max(40.0);
    let top = if several { 28.0 } else { 6.0 };
    let height = top + rows.len() as f64 * band + 6.0;
    let ranges = unit_ranges(&rows);
    let id = chart_id(sec);
    let mut s = String::new();
    let _ = writeln!(s, "<figure class=\"chart\">");
    open_svg(&mut s, "bench", &id, height, &sec.title);
    if several {
        text(&mut s, LABEL_X, 18.0, &format!("fill=\"{GREY}\""), "runs:");
        run_legend(&mut s, r, LABEL_X + 36.0, 18.0);
    }
    for (i, row) in rows.iter().enumerate() {
        let y0 = top + i as f64 * band;
        if i % 2 == 1 {
            let _ = writeln!(
                s,
                "<rect x=\"0\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{BAND}\"/>",
                n1(y0),
                n1(WIDTH),
                n1(band)
            );
        }
        let (lo, hi) = ranges
            .iter()
            .find(|(u, _, _)| *u == row.unit)
            .map_or((0.0, 1.0), |e| (e.1, e.2));
        let hi = if hi > lo { hi } else { lo + 1.0 };
        let x = |v: f64| X0 + (v - lo) / (hi - lo) * (X1 - X0);
        let mid = y0 + band / 2.0;
        text(
            &mut s,
            LABEL_X,
            mid - 2.0,
            "font-weight=\"600\" font-size=\"12\"",
            &clip(&row.name, 46),
        );
        let better = match row.better {
            Better::Higher => "higher is better",
            Better::Lower => "lower is better",
        };
        text(
            &mut s,
            LABEL_X,
            mid + 12.0,
            &format!("fill=\"{GREY}\" font-size=\"10\""),
            &format!("{}, {better}", row.unit),
        );
        let _ = writeln!(
            s,
            "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#999\"/>",
            n1(x(0.0)),
            n1(y0 + 4.0),
            n1(y0 + band - 4.0)
        );
        let lanes_top = mid - lanes as f64 * LANE / 2.0;
        for lane in 0..lanes {
            let cy = lanes_top + lane as f64 * LANE + LANE / 2.0;
            let vals: Vec<f64> = row
                .values
                .get(lane)
                .map(|v| v.iter().copied().filter(|f| f.is_finite()).collect())
                .unwrap_or_default();
            let Some(m) = Summary::of(&vals) else {
                text(
                    &mut s,
                    X1 + 12.0,
                    cy + 4.0,
                    &format!("fill=\"{GREY}\""),
                    "no value",
                );
                continue;
            };
            let (a, b) = (x(0.0).min(x(m.mean)), x(0.0).max(x(m.mean)));
            let title = format!(
                "{}{}: mean {} (min {}, max {}, n = {})",
                if several {
                    format!("{}: ", r.runs[lane].name)
                } else {
                    String::new()
                },
                row.name,
                val(&row.unit, m.mean),
                val(&row.unit, m.min),
                val(&row.unit, m.max),
                m.n
            );
            let _ = writeln!(
                s,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"11\" fill=\"{}\"><title>{}</title></rect>",
                n1(a),
                n1(cy - 5.5),
                n1((b - a).max(1.0)),
                run_colour(lane),
                esc(&title)
            );
            if m.max > m.min {
                let (wa, wb) = (x(m.min), x(m.max));
                let _ = writeln!(
                    s,
                    "<path d=\"M{wa},{t}V{bt}M{wa},{cy}H{wb}M{wb},{t}V{bt}\" stroke=\"{INK}\" stroke-width=\"1.2\" fill=\"none\"/>",
                    wa = n1(wa),
                    wb = n1(wb),
                    t = n1(cy - 4.0),
                    bt = n1(cy + 4.0),
                    cy = n1(cy)
                );
            }
            let mut right = val(&row.unit, m.mean);
            if m.n > 1 {
                let _ = write!(right, " (n = {})", m.n);
            }
            text(&mut s, X1 + 12.0, cy + 4.0, "", &right);
        }
    }
    s.push_str("</svg>\n");
    let _ = writeln!(
        s,
        "<figcaption><b>{}</b>: the mean of each figure over the benchmark's runs (bar) and its min to max (whisker){}; bars of the same unit share a scale starting at zero.</figcaption>\n</figure>",
        esc(&sec.title),
        if several { ", one bar a run" } else { "" }
    );
    Some(s)
}

/// Per unit: the range of every value of the rows, zero included (bars start at zero).
fn unit_ranges<'a>(rows: &[&'a Row]) -> Vec<(&'a str, f64, f64)> {
    let mut ranges: Vec<(&str, f64, f64)> = Vec::new();
    for row in rows {
        for v in row.values.iter().flatten().filter(|f| f.is_finite()) {
            match ranges.iter_mut().find(|(u, _, _)| *u == row.unit) {
                Some(e) => {
                    e.1 = e.1.min(*v);
                    e.2 = e.2.max(*v);
                }
                None => ranges.push((&row.unit, v.min(0.0), v.max(0.0))),
            }
        }
    }
    ranges
}

/// The chart's element id: `bench-` and the section's tool, other characters as `-`.
fn chart_id(sec: &Section) -> String {
    format!(
        "bench-{}",
        sec.id
            .trim_start_matches("bench/")
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect::<String>()
    )
}
