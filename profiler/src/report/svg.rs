//! The pictures of `report.html` as inline SVG, drawn from the model: the boot waterfall of
//! each run's median cycle, the spread of the boot time and of each stage over the cycles, and
//! the benchmark bars. Each is a `<figure>` holding an `<svg>` and its caption.
//!
//! Every string from the model goes through [`esc`]; no script, no external resource, only
//! SVG presentation attributes. Coordinates are printed with one decimal and figures with the
//! decimals of [`decimals`], so the same report gives the same bytes.

use super::escape::esc;
use super::model::{decimals, Bar, Better, Report, Row, Section, Waterfall};
use bootlog_parser::stats::Summary;
use std::fmt::Write as _;

/// Width of every picture in px; the page's CSS scales it down on a narrower window.
pub const WIDTH: f64 = 1100.0;

/// One colour per stage id, the same in every picture of the page (Tableau 10 hues).
pub const STAGE_COLOURS: [(&str, &str); 11] = [
    ("power", "#79706e"),
    ("rom", "#9c755f"),
    ("sbl", "#b07aa1"),
    ("sysfw", "#ff9da7"),
    ("r5-spl", "#edc948"),
    ("tfa", "#86bcb6"),
    ("optee", "#499894"),
    ("a-spl", "#f28e2b"),
    ("uboot", "#4e79a7"),
    ("kernel", "#e15759"),
    ("userspace", "#59a14f"),
];

/// The colour of a stage id no profile names.
const OTHER_STAGE: &str = "#bab0ac";

/// One colour per run (column) where runs are compared (Okabe-Ito, colour-blind safe),
/// cycling after eight.
pub const RUN_COLOURS: [&str; 8] = [
    "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#999999",
];

/// Text colours: main and secondary; grid lines; group bands.
const INK: &str = "#222";
const GREY: &str = "#666";
const GRID: &str = "#e2e2e2";
const BAND: &str = "#f6f6f6";

/// The colour of stage `id`.
pub fn stage_colour(id: &str) -> &'static str {
    STAGE_COLOURS
        .iter()
        .find(|(s, _)| *s == id)
        .map_or(OTHER_STAGE, |(_, c)| c)
}

/// The colour of run (column) `i`.
pub fn run_colour(i: usize) -> &'static str {
    RUN_COLOURS[i % RUN_COLOURS.len()]
}

/// `#rrggbb` mixed with white: `w` = 0 gives the colour, 1 white.
fn tint(hex: &str, w: f64) -> String {
    let ch = |i: usize| u8::from_str_radix(hex.get(i..i + 2).unwrap_or("80"), 16).unwrap_or(128);
    let mix = |c: u8| (f64::from(c) + (255.0 - f64::from(c)) * w).round() as u8;
    format!("#{:02x}{:02x}{:02x}", mix(ch(1)), mix(ch(3)), mix(ch(5)))
}

/// A coordinate, one decimal.
fn n1(v: f64) -> String {
    format!("{v:.1}")
}

/// A figure and its unit, with the decimals [`decimals`] chooses.
fn val(unit: &str, v: f64) -> String {
    format!("{v:.d$} {unit}", d = decimals(unit, v))
}

/// A duration on the waterfall, ms: one decimal from 10 ms, more below.
fn dur_ms(v: f64) -> String {
    let d = if v.abs() >= 10.0 {
        1
    } else if v.abs() >= 1.0 {
        2
    } else {
        3
    };
    format!("{v:.d$} ms")
}

/// At most `max` characters of `s`, an ellipsis marking a cut (the full text goes in a
/// `<title>`).
fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut o: String = s.chars().take(max.saturating_sub(1)).collect();
        o.push('…');
        o
    }
}

/// Rough width of `chars` characters of 11 px text, px: enough to keep a label off an edge.
fn text_w(chars: usize) -> f64 {
    chars as f64 * 6.3
}

/// A step of 1, 2, 2.5 or 5 times a power of ten giving about `target` intervals over `range`.
fn nice_step(range: f64, target: f64) -> f64 {
    let raw = (range / target).max(f64::MIN_POSITIVE);
    let mag = 10f64.powf(raw.log10().floor());
    let f = raw / mag;
    let n = if f <= 1.0 {
        1.0
    } else if f <= 2.0 {
        2.0
    } else if f <= 2.5 {
        2.5
    } else if f <= 5.0 {
        5.0
    } else {
        10.0
    };
    n * mag
}

/// Decimals that print every multiple of `step` exactly.
fn step_decimals(step: f64) -> usize {
    let mut d = 0;
    while d < 6
        && ((step * 10f64.powi(d as i32)).round() - step * 10f64.powi(d as i32)).abs() > 1e-6
    {
        d += 1;
    }
    d
}

/// The multiples of `step` within `[lo, hi]`.
fn ticks(lo: f64, hi: f64, step: f64) -> Vec<f64> {
    let first = (lo / step - 1e-9).ceil() as i64;
    let last = (hi / step + 1e-9).floor() as i64;
    (first..=last.max(first - 1))
        .map(|k| k as f64 * step)
        .collect()
}

/// A deterministic number in `[-1, 1]` from three indices (a 64-bit mix), for jitter.
fn jitter(a: usize, b: usize, c: usize) -> f64 {
    let mut x = (a as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ (b as u64)
            .wrapping_add(1)
            .wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
        ^ (c as u64)
            .wrapping_add(7)
            .wrapping_mul(0x1656_67b1_9e37_79f9);
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^= x >> 33;
    (x >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
}

/// The opening `<svg>` of a picture `h` px high, with its accessible title.
fn open_svg(s: &mut String, class: &str, id: &str, h: f64, title: &str) {
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"{class}\" id=\"{id}\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\" font-family=\"system-ui, sans-serif\" font-size=\"11\" fill=\"{INK}\">\n<title>{t}</title>\n",
        w = n1(WIDTH),
        h = n1(h),
        t = esc(title)
    );
}

/// A text element; `attrs` are extra presentation attributes.
fn text(s: &mut String, x: f64, y: f64, attrs: &str, body: &str) {
    let _ = writeln!(
        s,
        "<text x=\"{}\" y=\"{}\"{}{attrs}>{}</text>",
        n1(x),
        n1(y),
        if attrs.is_empty() { "" } else { " " },
        esc(body)
    );
}

/// The legend of the runs' colours, one line at `y` from `x`; the x after it.
fn run_legend(s: &mut String, r: &Report, mut x: f64, y: f64) -> f64 {
    for (i, run) in r.runs.iter().enumerate() {
        let name = clip(&run.name, 40);
        let _ = writeln!(
            s,
            "<circle cx=\"{}\" cy=\"{}\" r=\"5\" fill=\"{}\"/>",
            n1(x + 5.0),
            n1(y - 4.0),
            run_colour(i)
        );
        text(s, x + 14.0, y, "", &name);
        x += 14.0 + text_w(name.chars().count()) + 18.0;
    }
    x
}

// ---------------------------------------------------------------------------------------------
// Waterfall

/// A line of the waterfall: a stage bar, a stage named only by its sub-steps, or a sub-step.
enum Line<'a> {
    Stage(&'a Bar),
    Header(&'a str),
    Sub(&'a Bar),
}

/// The waterfall's lines: each stage, then its sub-steps by start time; sub-steps of a stage
/// without a bar after the stages, under the stage's name.
fn lines(bars: &[Bar]) -> Vec<Line<'_>> {
    let ok = |b: &&Bar| b.start_ms.is_finite() && b.end_ms.is_finite();
    let stages: Vec<&Bar> = bars
        .iter()
        .filter(ok)
        .filter(|b| b.lane == "stage")
        .collect();
    let mut subs: Vec<&Bar> = bars
        .iter()
        .filter(ok)
        .filter(|b| b.lane != "stage")
        .collect();
    subs.sort_by(|a, b| {
        a.start_ms
            .total_cmp(&b.start_ms)
            .then(a.end_ms.total_cmp(&b.end_ms))
    });
    let mut out = Vec::new();
    let mut placed: Vec<&str> = Vec::new();
    for st in &stages {
        out.push(Line::Stage(st));
        if placed.contains(&st.stage.as_str()) {
            continue;
        }
        placed.push(&st.stage);
        out.extend(
            subs.iter()
                .filter(|b| b.stage == st.stage)
                .map(|b| Line::Sub(b)),
        );
    }
    for b in &subs {
        if !placed.contains(&b.stage.as_str()) {
            placed.push(&b.stage);
            out.push(Line::Header(&b.stage));
            out.extend(
                subs.iter()
                    .filter(|x| x.stage == b.stage)
                    .map(|x| Line::Sub(x)),
            );
        }
    }
    out
}

/// The time range every waterfall is drawn on, ms: from power-on (or the earliest bar) to
/// the latest end.
fn time_range(ws: &[Waterfall]) -> (f64, f64) {
    let (mut lo, mut hi) = (0.0f64, 0.0f64);
    for w in ws {
        if w.total_ms.is_finite() {
            hi = hi.max(w.total_ms);
        }
        for b in w
            .bars
            .iter()
            .filter(|b| b.start_ms.is_finite() && b.end_ms.is_finite())
        {
            lo = lo.min(b.start_ms);
            hi = hi.max(b.end_ms);
        }
    }
    if hi <= lo {
        hi = lo + 1.0;
    }
    (lo, hi)
}

/// The boot waterfall of every run, all on one time scale: a `<figure>` each.
pub fn waterfalls(r: &Report) -> String {
    let (lo, hi) = time_range(&r.waterfalls);
    let step = nice_step(hi - lo, 10.0);
    let lo = (lo / step).floor() * step;
    let hi = (hi / step - 1e-9).ceil() * step;
    r.waterfalls
        .iter()
        .map(|w| waterfall(r, w, lo, hi, step))
        .collect()
}

/// One waterfall on the axis `[lo, hi]` ms with ticks every `step`.
fn waterfall(r: &Report, w: &Waterfall, lo: f64, hi: f64, step: f64) -> String {
    const LABEL_X: f64 = 10.0;
    const X0: f64 = 250.0;
    const X1: f64 = WIDTH - 24.0;
    const TOP: f64 = 46.0;
    let lines = lines(&w.bars);
    let n = lines.len().max(1);
    let rh = if n > 30 { 15.0 } else { 20.0 };
    let rows_h = n as f64 * rh;
    let bottom = TOP + rows_h;
    let height = bottom + 62.0;
    let x = |t: f64| X0 + (t - lo) / (hi - lo) * (X1 - X0);
    let run = r.runs.get(w.run);
    let run_name = run.map_or("", |x| x.name.as_str());
    // Seconds on the axis past 10 s, milliseconds below.
    let (scale, axis_unit) = if hi >= 10_000.0 {
        (1e-3, "s")
    } else {
        (1.0, "ms")
    };
    let td = step_decimals(step * scale);

    let mut s = String::new();
    let _ = writeln!(s, "<figure class=\"chart\">");
    open_svg(
        &mut s,
        "waterfall",
        &format!("waterfall-{}", w.run),
        height,
        &format!("Boot waterfall of {run_name}, cycle {}", w.cycle),
    );
    // Bands behind each stage's group of lines.
    let mut group = 0usize;
    let mut band_start: Option<(usize, usize)> = None;
    let mut bands = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if !matches!(l, Line::Sub(_)) {
            if let Some((g, a)) = band_start.take() {
                bands.push((g, a, i));
            }
            band_start = Some((group, i));
            group += 1;
        }
    }
    if let Some((g, a)) = band_start {
        bands.push((g, a, lines.len()));
    }
    for (g, a, b) in bands {
        if g % 2 == 1 {
            let _ = writeln!(
                s,
                "<rect x=\"0\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{BAND}\"/>",
                n1(TOP + a as f64 * rh),
                n1(WIDTH),
                n1((b - a) as f64 * rh)
            );
        }
    }
    // Grid and tick labels, top and bottom.
    for t in ticks(lo, hi, step) {
        let tx = x(t);
        let _ = writeln!(
            s,
            "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"{GRID}\"/>",
            n1(tx),
            n1(TOP - 4.0),
            n1(bottom + 4.0)
        );
        let label = format!("{:.td$}", t * scale);
        let attrs = format!("text-anchor=\"middle\" fill=\"{GREY}\" font-size=\"10\"");
        text(&mut s, tx, TOP - 9.0, &attrs, &label);
        text(&mut s, tx, bottom + 16.0, &attrs, &label);
    }
    let axis_title = format!("{axis_unit} from power-on");
    let attrs = format!("fill=\"{GREY}\" font-size=\"10\"");
    text(&mut s, LABEL_X, TOP - 9.0, &attrs, &axis_title);
    text(&mut s, LABEL_X, bottom + 16.0, &attrs, &axis_title);
    // The ready prompt: the last stage's end.
    let ready = w
        .bars
        .iter()
        .rev()
        .find(|b| b.lane == "stage" && b.end_ms.is_finite())
        .map_or(w.total_ms, |b| b.end_ms);
    if ready.is_finite() {
        let rx = x(ready);
        let _ = writeln!(
            s,
            "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"{INK}\" stroke-dasharray=\"4 3\"/>",
            n1(rx),
            n1(18.0),
            n1(bottom + 4.0)
        );
        let label = format!("ready prompt at {}", val("ms", ready));
        let (ax, anchor) = if rx - text_w(label.len()) < X0 {
            (rx + 4.0, "start")
        } else {
            (rx - 4.0, "end")
        };
        text(
            &mut s,
            ax,
            15.0,
            &format!("text-anchor=\"{anchor}\" font-weight=\"600\""),
            &label,
        );
    }
    // The lines.
    for (i, l) in lines.iter().enumerate() {
        let top = TOP + i as f64 * rh;
        let cy = top + rh / 2.0;
        let (bar, name, sub) = match l {
            Line::Stage(b) => (Some(*b), b.name.as_str(), false),
            Line::Header(id) => (None, *id, false),
            Line::Sub(b) => (Some(*b), b.name.as_str(), true),
        };
        let stage = bar.map_or(name, |b| b.stage.as_str());
        let colour = stage_colour(stage);
        if sub {
            let c = clip(name, 34);
            text(&mut s, LABEL_X + 24.0, cy + 4.0, "", &c);
        } else {
            let _ = writeln!(
                s,
                "<rect x=\"{}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"{colour}\"/>",
                n1(LABEL_X),
                n1(cy - 5.0)
            );
            let c = clip(name, 30);
            text(
                &mut s,
                LABEL_X + 16.0,
                cy + 4.0,
                "font-weight=\"600\" font-size=\"12\"",
                &c,
            );
        }
        let Some(b) = bar else { continue };
        let (xa, xb) = (x(b.start_ms), x(b.end_ms.max(b.start_ms)));
        let dur = b.end_ms - b.start_ms;
        let mark = dur <= 0.0;
        let title = if mark {
            format!(
                "{} ({}): mark at {} from power-on, {} clock",
                b.name,
                b.lane,
                val("ms", b.start_ms),
                b.clock
            )
        } else {
            format!(
                "{} ({}): {}, {} to {} from power-on, {} clock",
                b.name,
                b.lane,
                val("ms", dur),
                n1(b.start_ms),
                val("ms", b.end_ms),
                b.clock
            )
        };
        let label = if mark {
            format!("at {}", dur_ms(b.start_ms))
        } else {
            dur_ms(dur)
        };
        if mark {
            let rad = (rh / 2.0 - 3.0).min(6.0);
            let _ = writeln!(
                s,
                "<path class=\"mark\" d=\"M{x},{a}L{b},{cy}L{x},{c}L{d},{cy}Z\" fill=\"{fill}\" stroke=\"{INK}\" stroke-width=\"0.8\"><title>{t}</title></path>",
                x = n1(xa),
                a = n1(cy - rad),
                b = n1(xa + rad),
                c = n1(cy + rad),
                d = n1(xa - rad),
                cy = n1(cy),
                fill = tint(colour, 0.3),
                t = esc(&title)
            );
        } else {
            let h = if sub { rh - 10.0 } else { rh - 6.0 };
            let fill = if sub {
                tint(colour, 0.45)
            } else {
                colour.to_string()
            };
            let _ = writeln!(
                s,
                "<rect class=\"bar {cls}\" data-stage=\"{st}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{fill}\"><title>{t}</title></rect>",
                n1(xa),
                n1(cy - h / 2.0),
                n1((xb - xa).max(1.0)),
                n1(h),
                cls = if sub { "sub" } else { "stage" },
                st = esc(stage),
                t = esc(&title)
            );
        }
        let right = xb.max(xa) + if mark { 9.0 } else { 5.0 };
        let attrs = if sub {
            format!("fill=\"{GREY}\" font-size=\"10\"")
        } else {
            String::new()
        };
        if right + text_w(label.len()) <= WIDTH - 4.0 {
            text(&mut s, right, cy + 4.0, &attrs, &label);
        } else {
            let left = xa - if mark { 9.0 } else { 5.0 };
            let attrs = format!("{attrs} text-anchor=\"end\"");
            text(&mut s, left, cy + 4.0, attrs.trim_start(), &label);
        }
    }
    // Key.
    let ky = bottom + 42.0;
    let _ = writeln!(
        s,
        "<rect x=\"{}\" y=\"{}\" width=\"22\" height=\"12\" fill=\"#8a8a8a\"/>",
        n1(LABEL_X),
        n1(ky - 10.0)
    );
    text(
        &mut s,
        LABEL_X + 28.0,
        ky,
        "",
        "stage, on the host clock of the capture",
    );
    let kx = LABEL_X + 270.0;
    let _ = writeln!(
        s,
        "<rect x=\"{}\" y=\"{}\" width=\"22\" height=\"8\" fill=\"#c8c8c8\"/>",
        n1(kx),
        n1(ky - 8.0)
    );
    text(
        &mut s,
        kx + 28.0,
        ky,
        "",
        "sub-step, from a target clock placed on the host clock",
    );
    let kx = kx + 360.0;
    let _ = writeln!(
        s,
        "<path d=\"M{x},{a}L{b},{c}L{x},{d}L{e},{c}Z\" fill=\"#c8c8c8\" stroke=\"{INK}\" stroke-width=\"0.8\"/>",
        x = n1(kx + 6.0),
        a = n1(ky - 10.0),
        b = n1(kx + 12.0),
        c = n1(ky - 4.0),
        d = n1(ky + 2.0),
        e = n1(kx)
    );
    text(&mut s, kx + 18.0, ky, "", "mark (a point in time)");
    s.push_str("</svg>\n");

    // Caption.
    let ok = run.map_or(0, |x| x.ok);
    let _ = write!(
        s,
        "<figcaption><b>Boot waterfall of {}</b>: cycle {}, the median of {} successful cycle{} by boot time ({} from power-on to the ready prompt). Every run's waterfall has the same time scale; colours are the stages' throughout the page.",
        esc(run_name),
        w.cycle,
        ok,
        if ok == 1 { "" } else { "s" },
        esc(&val("ms", w.total_ms))
    );
    if w.alignment.is_empty() {
        s.push_str(
            " No sub-steps (bootstage records, SBL profile points, initcalls) in this cycle.",
        );
    } else {
        s.push_str(" How the target clocks were placed on the host clock: ");
        let notes: Vec<String> = w.alignment.iter().map(|a| esc(a)).collect();
        s.push_str(&notes.join("; "));
        s.push('.');
    }
    s.push_str("</figcaption>\n</figure>\n");
    s
}

// ---------------------------------------------------------------------------------------------
// Spread over the cycles

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
    const LABEL_X: f64 = 10.0;
    const X0: f64 = 250.0;
    const X1: f64 = WIDTH - 290.0;
    const LANE: f64 = 18.0;
    const TOP: f64 = 52.0;
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
    let td = step_decimals(step);
    let x = |d: f64| X0 + (d + reach) / (2.0 * reach) * (X1 - X0);

    let mut s = String::new();
    let _ = writeln!(s, "<figure class=\"chart\">");
    open_svg(
        &mut s,
        "spread",
        "spread",
        height,
        "Boot time and stages over the cycles",
    );
    // Key, then the runs' colours.
    let ky = 16.0;
    let mut kx = LABEL_X;
    let _ = writeln!(
        s,
        "<circle cx=\"{}\" cy=\"{}\" r=\"4.5\" fill=\"#888\" fill-opacity=\"0.75\"/>",
        n1(kx + 4.0),
        n1(ky - 4.0)
    );
    text(&mut s, kx + 12.0, ky, "", "a cycle");
    kx += 70.0;
    let _ = writeln!(
        s,
        "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"{INK}\" stroke-width=\"2\"/>",
        n1(kx + 2.0),
        n1(ky - 11.0),
        n1(ky + 3.0)
    );
    text(&mut s, kx + 9.0, ky, "", "mean");
    kx += 56.0;
    let _ = writeln!(
        s,
        "<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#888\" stroke-width=\"2\"/>",
        n1(kx),
        n1(ky - 4.0),
        n1(kx + 20.0)
    );
    text(&mut s, kx + 26.0, ky, "", "min to max");
    kx += 110.0;
    if several {
        text(&mut s, kx, ky, &format!("fill=\"{GREY}\""), "runs:");
        run_legend(&mut s, r, kx + 36.0, ky);
    }
    for (i, _) in rows.iter().enumerate().filter(|(i, _)| i % 2 == 1) {
        let _ = writeln!(
            s,
            "<rect x=\"0\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{BAND}\"/>",
            n1(TOP + i as f64 * band),
            n1(WIDTH),
            n1(band)
        );
    }
    // Scale, top and bottom; zero (the median) darker.
    for t in ticks(-reach, reach, step) {
        let tx = x(t);
        let zero = t.abs() < step / 2.0;
        let _ = writeln!(
            s,
            "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"{3}\"/>",
            n1(tx),
            n1(TOP - 4.0),
            n1(bottom + 4.0),
            if zero { "#aaa" } else { GRID }
        );
        let label = if zero {
            "median".to_string()
        } else {
            format!("{}{:.td$}", if t > 0.0 { "+" } else { "\u{2212}" }, t.abs())
        };
        let attrs = format!("text-anchor=\"middle\" fill=\"{GREY}\" font-size=\"10\"");
        text(&mut s, tx, TOP - 9.0, &attrs, &label);
        text(&mut s, tx, bottom + 16.0, &attrs, &label);
    }
    let attrs = format!("fill=\"{GREY}\" font-size=\"10\"");
    let axis_title = "ms from the row's median";
    text(&mut s, LABEL_X, TOP - 9.0, &attrs, axis_title);
    text(&mut s, LABEL_X, bottom + 16.0, &attrs, axis_title);
    for (i, row) in rows.iter().enumerate() {
        let y0 = TOP + i as f64 * band;
        let mid = y0 + band / 2.0;
        let centre = row.centre();
        // Label: the stage, and the median it is drawn from.
        let mut lx = LABEL_X;
        if let Some(st) = row.stage {
            let _ = writeln!(
                s,
                "<rect x=\"{}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"{}\"/>",
                n1(lx),
                n1(mid - 11.0),
                stage_colour(st)
            );
            lx += 16.0;
        }
        text(
            &mut s,
            lx,
            mid - 2.0,
            "font-weight=\"600\" font-size=\"12\"",
            &clip(row.name, 30),
        );
        text(
            &mut s,
            lx,
            mid + 11.0,
            &format!("fill=\"{GREY}\" font-size=\"10\""),
            &format!(
                "median {}{}",
                val("ms", centre),
                if several { " of all runs" } else { "" }
            ),
        );
        let lanes_top = mid - lanes as f64 * LANE / 2.0;
        for lane in 0..lanes {
            let cy = lanes_top + lane as f64 * LANE + LANE / 2.0;
            let colour = if several {
                run_colour(lane)
            } else {
                row.stage.map_or("#555555", stage_colour)
            };
            let vals = row.ms.get(lane).map(Vec::as_slice).unwrap_or_default();
            let Some(m) = Summary::of(vals) else {
                text(
                    &mut s,
                    X1 + 16.0,
                    cy + 4.0,
                    &format!("fill=\"{GREY}\""),
                    "no value",
                );
                continue;
            };
            let _ = writeln!(
                s,
                "<line x1=\"{0}\" y1=\"{2}\" x2=\"{1}\" y2=\"{2}\" stroke=\"{colour}\" stroke-width=\"2\" stroke-opacity=\"0.6\"/>",
                n1(x(m.min - centre)),
                n1(x(m.max - centre)),
                n1(cy)
            );
            for (k, v) in vals.iter().enumerate() {
                let _ = writeln!(
                    s,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"4.5\" fill=\"{colour}\" fill-opacity=\"0.75\" stroke=\"#fff\" stroke-width=\"0.6\"><title>{}</title></circle>",
                    n1(x(v - centre)),
                    n1(cy + 4.0 * jitter(i, lane, k)),
                    esc(&format!(
                        "{}{}: {} (successful cycle {} of {})",
                        if several {
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
                s,
                "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"{INK}\" stroke-width=\"2\"><title>{t}</title></line>",
                n1(x(m.mean - centre)),
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
            text(&mut s, X1 + 16.0, cy + 4.0, "", &right);
        }
    }
    s.push_str("</svg>\n");
    let _ = writeln!(
        s,
        "<figcaption><b>Spread over the cycles</b>: the boot time and each stage in every successful cycle as its distance from the row's median (one dot a cycle, nudged up or down so equal values stay apart), the mean (bar) and min to max (line){}. Every row has the same scale in ms: the widest row is the one that varies most; the right column gives the mean and the range as a share of it.</figcaption>\n</figure>",
        if several { ", one colour a run" } else { "" }
    );
    Some(s)
}

// ---------------------------------------------------------------------------------------------
// Benchmarks

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
    // Per unit: the range of every value, zero included.
    let mut ranges: Vec<(&str, f64, f64)> = Vec::new();
    for row in &rows {
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
    let id = format!(
        "bench-{}",
        sec.id
            .trim_start_matches("bench/")
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect::<String>()
    );
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::model::{RunInfo, REPORT_SCHEMA};

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
}
