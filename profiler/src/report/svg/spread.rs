//! The spread of the boot time and of each stage over the cycles, one row each.

use super::*;

use bootlog_parser::stats::Summary;

/// A row of the spread picture: every value in ms, per run, and the stage it is (none for
/// the boot time).
struct SpreadRow<'a> {
    name: &'a str,
    stage: Option<&'a str>,
    ms: Vec<Vec<f64>>,
}

impl SpreadRow<'_> {
    /// The median of every run's values together: where the row's zero is.
    fn centre(&self) -> f64 {
        let all: Vec<f64> = self.ms.iter().flatten().copied().collect();
        Summary::of(&all).map_or(0.0, |m| m.median)
    }
}

/// The rows of the spread: the `boot` section's and the `stages` section's rows in ms (rows
/// in another unit are left out).
fn spread_rows(r: &Report) -> Vec<SpreadRow<'_>> {
    let mut rows = Vec::new();
    for (id, is_stage) in [("boot", false), ("stages", true)] {
        let Some(sec) = r.section(id) else { continue };
        for row in &sec.rows {
            let k = match row.unit.as_str() {
                "s" => 1e3,
                "ms" => 1.0,
                _ => continue,
            };
            let ms: Vec<Vec<f64>> = row
                .values
                .iter()
                .map(|v| v.iter().filter(|f| f.is_finite()).map(|f| f * k).collect())
                .collect();
            if ms.iter().any(|v| !v.is_empty()) {
                rows.push(SpreadRow {
                    name: &row.name,
                    stage: is_stage.then_some(row.name.as_str()),
                    ms,
                });
            }
        }
    }
    rows
}

/// The spread of the boot time and of each stage over the cycles: one dot a cycle at its
/// distance from the row's median, every row on one scale, so the widest row is the one that
/// varies most. `None` when the report has neither the `boot` nor the `stages` section.
pub fn spread(r: &Report) -> Option<String> {
    let rows = spread_rows(r);
    if rows.is_empty() {
        return None;
    }
    const TOP: f64 = 52.0;
    const LANE: f64 = 18.0;
    let several = r.runs.len() > 1;
    let lanes = if several { r.runs.len() } else { 1 };
    let band = (lanes as f64 * LANE + 12.0).max(36.0);
    let bottom = TOP + rows.len() as f64 * band;
    let height = bottom + 26.0;
    // One symmetric scale: the largest distance from a row's median, rounded up to a tick.
    let reach = rows
        .iter()
        .flat_map(|row| {
            let c = row.centre();
            row.ms.iter().flatten().map(move |v| (v - c).abs())
        })
        .fold(0.0f64, f64::max)
        .max(1e-3);
    let step = nice_step(2.0 * reach, 8.0);
    let reach = (reach / step - 1e-9).ceil() * step;
    let f = SpreadFrame {
        label_x: 10.0,
        x0: 250.0,
        x1: WIDTH - 290.0,
        lane: LANE,
        top: TOP,
        band,
        bottom,
        reach,
        step,
        td: step_decimals(step),
        several,
        lanes,
    };

    let mut s = String::new();
    let _ = writeln!(s, "<figure class=\"chart\">");
    open_svg(
        &mut s,
        "spread",
        "spread",
        height,
        "Boot time and stages over the cycles",
    );
    spread_key(&mut s, r, &f);
    spread_scale(&mut s, rows.len(), &f);
    for (i, row) in rows.iter().enumerate() {
        spread_row(&mut s, r, i, row, &f);
    }
    s.push_str("</svg>\n");
    let _ = writeln!(
        s,
        "<figcaption><b>Spread over the cycles</b>: the boot time and each stage in every successful cycle as its distance from the row's median (one dot a cycle, nudged up or down so equal values stay apart), the mean (bar) and min to max (line){}. Every row has the same scale in ms: the widest row is the one that varies most; the right column gives the mean and the range as a share of it.</figcaption>\n</figure>",
        if several { ", one colour a run" } else { "" }
    );
    Some(s)
}

/// Where the spread picture's parts go: the symmetric scale `[-reach, reach]` ms around each
/// row's median, the rows' bands and the lanes (one a run) in each.
struct SpreadFrame {
    label_x: f64,
    x0: f64,
    x1: f64,
    lane: f64,
    top: f64,
    band: f64,
    bottom: f64,
    reach: f64,
    step: f64,
    td: usize,
    several: bool,
    lanes: usize,
}

impl SpreadFrame {
    /// The x of a distance `d` ms from the median.
    fn x(&self, d: f64) -> f64 {
        self.x0 + (d + self.reach) / (2.0 * self.reach) * (self.x1 - self.x0)
    }
}

/// The key (a cycle, the mean, min to max), then the runs' colours.
fn spread_key(s: &mut String, r: &Report, f: &SpreadFrame) {
    let ky = 16.0;
    let mut kx = f.label_x;
    let _ = writeln!(
        *s,
        "<circle cx=\"{}\" cy=\"{}\" r=\"4.5\" fill=\"#888\" fill-opacity=\"0.75\"/>",
        n1(kx + 4.0),
        n1(ky - 4.0)
    );
    text(s, kx + 12.0, ky, "", "a cycle");
    kx += 70.0;
    let _ = writeln!(
        *s,
        "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"{INK}\" stroke-width=\"2\"/>",
        n1(kx + 2.0),
        n1(ky - 11.0),
        n1(ky + 3.0)
    );
    text(s, kx + 9.0, ky, "", "mean");
    kx += 56.0;
    let _ = writeln!(
        *s,
        "<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#888\" stroke-width=\"2\"/>",
        n1(kx),
        n1(ky - 4.0),
        n1(kx + 20.0)
    );
    text(s, kx + 26.0, ky, "", "min to max");
    kx += 110.0;
    if f.several {
        text(s, kx, ky, &format!("fill=\"{GREY}\""), "runs:");
        run_legend(s, r, kx + 36.0, ky);
    }
}

/// Every other row's band, the scale top and bottom (zero, the median, darker), its title.
fn spread_scale(s: &mut String, rows: usize, f: &SpreadFrame) {
    for i in (0..rows).filter(|i| i % 2 == 1) {
        let _ = writeln!(
            *s,
            "<rect x=\"0\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{BAND}\"/>",
            n1(f.top + i as f64 * f.band),
            n1(WIDTH),
            n1(f.band)
        );
    }
    // Scale, top and f.bottom; zero (the median) darker.
    for t in ticks(-f.reach, f.reach, f.step) {
        let tx = f.x(t);
        let zero = t.abs() < f.step / 2.0;
        let _ = writeln!(
            *s,
            "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"{3}\"/>",
            n1(tx),
            n1(f.top - 4.0),
            n1(f.bottom + 4.0),
            if zero { "#aaa" } else { GRID }
        );
        let label = if zero {
            "median".to_string()
        } else {
            format!(
                "{}{:.td$}",
                if t > 0.0 { "+" } else { "\u{2212}" },
                t.abs(),
                td = f.td
            )
        };
        let attrs = format!("text-anchor=\"middle\" fill=\"{GREY}\" font-size=\"10\"");
        text(s, tx, f.top - 9.0, &attrs, &label);
        text(s, tx, f.bottom + 16.0, &attrs, &label);
    }
    let attrs = format!("fill=\"{GREY}\" font-size=\"10\"");
    let axis_title = "ms from the row's median";
    text(s, f.label_x, f.top - 9.0, &attrs, axis_title);
    text(s, f.label_x, f.bottom + 16.0, &attrs, axis_title);
}

/// Row `i`: its label and median, and per lane the cycles, the mean and the range.
fn spread_row(s: &mut String, r: &Report, i: usize, row: &SpreadRow<'_>, f: &SpreadFrame) {
    let y0 = f.top + i as f64 * f.band;
    let mid = y0 + f.band / 2.0;
    let centre = row.centre();
    // Label: the stage, and the median it is drawn from.
    let mut lx = f.label_x;
    if let Some(st) = row.stage {
        let _ = writeln!(
            *s,
            "<rect x=\"{}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"{}\"/>",
            n1(lx),
            n1(mid - 11.0),
            stage_colour(st)
        );
        lx += 16.0;
    }
    text(
        s,
        lx,
        mid - 2.0,
        "font-weight=\"600\" font-size=\"12\"",
        &clip(row.name, 30),
    );
    text(
        s,
        lx,
        mid + 11.0,
        &format!("fill=\"{GREY}\" font-size=\"10\""),
        &format!(
            "median {}{}",
            val("ms", centre),
            if f.several { " of all runs" } else { "" }
        ),
    );
    let lanes_top = mid - f.lanes as f64 * f.lane / 2.0;
    for lane in 0..f.lanes {
        let cy = lanes_top + lane as f64 * f.lane + f.lane / 2.0;
        let colour = if f.several {
            run_colour(lane)
        } else {
            row.stage.map_or("#555555", stage_colour)
        };
        let vals = row.ms.get(lane).map(Vec::as_slice).unwrap_or_default();
        let Some(m) = Summary::of(vals) else {
            text(
                s,
                f.x1 + 16.0,
                cy + 4.0,
                &format!("fill=\"{GREY}\""),
                "no value",
            );
            continue;
        };
        let _ = writeln!(
            *s,
            "<line x1=\"{0}\" y1=\"{2}\" x2=\"{1}\" y2=\"{2}\" stroke=\"{colour}\" stroke-width=\"2\" stroke-opacity=\"0.6\"/>",
            n1(f.x(m.min - centre)),
            n1(f.x(m.max - centre)),
            n1(cy)
        );
        for (k, v) in vals.iter().enumerate() {
            let _ = writeln!(
                *s,
                "<circle cx=\"{}\" cy=\"{}\" r=\"4.5\" fill=\"{colour}\" fill-opacity=\"0.75\" stroke=\"#fff\" stroke-width=\"0.6\"><title>{}</title></circle>",
                n1(f.x(v - centre)),
                n1(cy + 4.0 * jitter(i, lane, k)),
                esc(&format!(
                    "{}{}: {} (successful cycle {} of {})",
                    if f.several {
                        format!("{}: ", r.runs[lane].name)
                    } else {
                        String::new()
                    },
                    row.name,
                    val("ms", *v),
                    k + 1,
                    vals.len()
                ))
            );
        }
        let _ = writeln!(
            *s,
            "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"{INK}\" stroke-width=\"2\"><title>{t}</title></line>",
            n1(f.x(m.mean - centre)),
            n1(cy - 7.0),
            n1(cy + 7.0),
            t = esc(&format!("mean {}", val("ms", m.mean)))
        );
        let mut right = format!(
            "mean {}, range {}",
            val("ms", m.mean),
            val("ms", m.max - m.min)
        );
        if m.mean != 0.0 {
            let _ = write!(right, " ({:.1} %)", (m.max - m.min) / m.mean.abs() * 100.0);
        }
        text(s, f.x1 + 16.0, cy + 4.0, "", &right);
    }
}
