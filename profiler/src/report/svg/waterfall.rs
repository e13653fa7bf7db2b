//! The boot waterfall of each run's median cycle: stages, and the sub-steps placed on the
//! host clock, on one time axis for every run.

use super::*;
use crate::report::model::{Bar, Waterfall};

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

/// Where a waterfall's parts go: the time axis `[lo, hi]` ms with ticks every `step`, its
/// scale and unit, the rows' height and the plot's top and bottom.
struct Frame {
    label_x: f64,
    x0: f64,
    x1: f64,
    top: f64,
    lo: f64,
    hi: f64,
    step: f64,
    rh: f64,
    bottom: f64,
    scale: f64,
    axis_unit: &'static str,
    td: usize,
}

impl Frame {
    /// The x of time `t` ms.
    fn x(&self, t: f64) -> f64 {
        self.x0 + (t - self.lo) / (self.hi - self.lo) * (self.x1 - self.x0)
    }
}

/// One waterfall on the axis `[lo, hi]` ms with ticks every `step`.
fn waterfall(r: &Report, w: &Waterfall, lo: f64, hi: f64, step: f64) -> String {
    const TOP: f64 = 46.0;
    let lines = lines(&w.bars);
    let n = lines.len().max(1);
    let rh = if n > 30 { 15.0 } else { 20.0 };
    let bottom = TOP + n as f64 * rh;
    let height = bottom + 62.0;
    // Seconds on the axis past 10 s, milliseconds below.
    let (scale, axis_unit) = if hi >= 10_000.0 {
        (1e-3, "s")
    } else {
        (1.0, "ms")
    };
    let f = Frame {
        label_x: 10.0,
        x0: 250.0,
        x1: WIDTH - 24.0,
        top: TOP,
        lo,
        hi,
        step,
        rh,
        bottom,
        scale,
        axis_unit,
        td: step_decimals(step * scale),
    };
    let run = r.runs.get(w.run);
    let run_name = run.map_or("", |x| x.name.as_str());

    let mut s = String::new();
    let _ = writeln!(s, "<figure class=\"chart\">");
    open_svg(
        &mut s,
        "waterfall",
        &format!("waterfall-{}", w.run),
        height,
        &format!("Boot waterfall of {run_name}, cycle {}", w.cycle),
    );
    bands(&mut s, &lines, &f);
    grid(&mut s, &f);
    ready_marker(&mut s, w, &f);
    for (i, l) in lines.iter().enumerate() {
        line_row(&mut s, l, i, &f);
    }
    key(&mut s, &f);
    s.push_str("</svg>\n");
    caption(&mut s, r, w);
    s.push_str("</figcaption>\n</figure>\n");
    s
}

/// Bands behind each stage's group of lines, every other group.
fn bands(s: &mut String, lines: &[Line<'_>], f: &Frame) {
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
                *s,
                "<rect x=\"0\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{BAND}\"/>",
                n1(f.top + a as f64 * f.rh),
                n1(WIDTH),
                n1((b - a) as f64 * f.rh)
            );
        }
    }
}

/// The grid and the tick labels, top and bottom, and the axis' title.
fn grid(s: &mut String, f: &Frame) {
    // Grid and tick labels, top and f.bottom.
    for t in ticks(f.lo, f.hi, f.step) {
        let tx = f.x(t);
        let _ = writeln!(
            *s,
            "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"{GRID}\"/>",
            n1(tx),
            n1(f.top - 4.0),
            n1(f.bottom + 4.0)
        );
        let label = format!("{:.td$}", t * f.scale, td = f.td);
        let attrs = format!("text-anchor=\"middle\" fill=\"{GREY}\" font-size=\"10\"");
        text(s, tx, f.top - 9.0, &attrs, &label);
        text(s, tx, f.bottom + 16.0, &attrs, &label);
    }
    let axis_title = format!("{} from power-on", f.axis_unit);
    let attrs = format!("fill=\"{GREY}\" font-size=\"10\"");
    text(s, f.label_x, f.top - 9.0, &attrs, &axis_title);
    text(s, f.label_x, f.bottom + 16.0, &attrs, &axis_title);
}

/// The ready prompt: a dashed line at the last stage's end, labelled.
fn ready_marker(s: &mut String, w: &Waterfall, f: &Frame) {
    let ready = w
        .bars
        .iter()
        .rev()
        .find(|b| b.lane == "stage" && b.end_ms.is_finite())
        .map_or(w.total_ms, |b| b.end_ms);
    if ready.is_finite() {
        let rx = f.x(ready);
        let _ = writeln!(
            *s,
            "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"{INK}\" stroke-dasharray=\"4 3\"/>",
            n1(rx),
            n1(18.0),
            n1(f.bottom + 4.0)
        );
        let label = format!("ready prompt at {}", val("ms", ready));
        let (ax, anchor) = if rx - text_w(label.len()) < f.x0 {
            (rx + 4.0, "start")
        } else {
            (rx - 4.0, "end")
        };
        text(
            s,
            ax,
            15.0,
            &format!("text-anchor=\"{anchor}\" font-weight=\"600\""),
            &label,
        );
    }
}

/// Line `i` of the waterfall: its label, and its bar or mark with the duration.
fn line_row(s: &mut String, l: &Line<'_>, i: usize, f: &Frame) {
    let top = f.top + i as f64 * f.rh;
    let cy = top + f.rh / 2.0;
    let (bar, name, sub) = match l {
        Line::Stage(b) => (Some(*b), b.name.as_str(), false),
        Line::Header(id) => (None, *id, false),
        Line::Sub(b) => (Some(*b), b.name.as_str(), true),
    };
    let stage = bar.map_or(name, |b| b.stage.as_str());
    let colour = stage_colour(stage);
    if sub {
        let c = clip(name, 34);
        text(s, f.label_x + 24.0, cy + 4.0, "", &c);
    } else {
        let _ = writeln!(
            *s,
            "<rect x=\"{}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"{colour}\"/>",
            n1(f.label_x),
            n1(cy - 5.0)
        );
        let c = clip(name, 30);
        text(
            s,
            f.label_x + 16.0,
            cy + 4.0,
            "font-weight=\"600\" font-size=\"12\"",
            &c,
        );
    }
    let Some(b) = bar else { return };
    let (xa, xb) = (f.x(b.start_ms), f.x(b.end_ms.max(b.start_ms)));
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
        let rad = (f.rh / 2.0 - 3.0).min(6.0);
        let _ = writeln!(
            *s,
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
        let h = if sub { f.rh - 10.0 } else { f.rh - 6.0 };
        let fill = if sub {
            tint(colour, 0.45)
        } else {
            colour.to_string()
        };
        let _ = writeln!(
            *s,
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
        text(s, right, cy + 4.0, &attrs, &label);
    } else {
        let left = xa - if mark { 9.0 } else { 5.0 };
        let attrs = format!("{attrs} text-anchor=\"end\"");
        text(s, left, cy + 4.0, attrs.trim_start(), &label);
    }
}

/// The key: what a stage, a sub-step and a mark look like.
fn key(s: &mut String, f: &Frame) {
    let ky = f.bottom + 42.0;
    let _ = writeln!(
        *s,
        "<rect x=\"{}\" y=\"{}\" width=\"22\" height=\"12\" fill=\"#8a8a8a\"/>",
        n1(f.label_x),
        n1(ky - 10.0)
    );
    text(
        s,
        f.label_x + 28.0,
        ky,
        "",
        "stage, on the host clock of the capture",
    );
    let kx = f.label_x + 270.0;
    let _ = writeln!(
        *s,
        "<rect x=\"{}\" y=\"{}\" width=\"22\" height=\"8\" fill=\"#c8c8c8\"/>",
        n1(kx),
        n1(ky - 8.0)
    );
    text(
        s,
        kx + 28.0,
        ky,
        "",
        "sub-step, from a target clock placed on the host clock",
    );
    let kx = kx + 360.0;
    let _ = writeln!(
        *s,
        "<path d=\"M{x},{a}L{b},{c}L{x},{d}L{e},{c}Z\" fill=\"#c8c8c8\" stroke=\"{INK}\" stroke-width=\"0.8\"/>",
        x = n1(kx + 6.0),
        a = n1(ky - 10.0),
        b = n1(kx + 12.0),
        c = n1(ky - 4.0),
        d = n1(ky + 2.0),
        e = n1(kx)
    );
    text(s, kx + 18.0, ky, "", "mark (a point in time)");
}

/// The caption: which cycle, its boot time, how the target clocks were placed.
fn caption(s: &mut String, r: &Report, w: &Waterfall) {
    let run = r.runs.get(w.run);
    let run_name = run.map_or("", |x| x.name.as_str());
    let ok = run.map_or(0, |x| x.ok);
    let _ = write!(
        *s,
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
}
