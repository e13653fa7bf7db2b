//! The pictures of `report.html` as inline SVG, drawn from the model: the boot waterfall of
//! each run's median cycle, the spread of the boot time and of each stage over the cycles, and
//! the benchmark bars. Each is a `<figure>` holding an `<svg>` and its caption.
//!
//! One file per chart (`waterfall.rs`, `spread.rs`, `bench.rs`) over the primitives here.
//! Every string from the model goes through [`esc`]; no script, no external resource, only
//! SVG presentation attributes. Coordinates are printed with one decimal and figures with the
//! decimals of [`decimals`], so the same report gives the same bytes.

mod bench;
mod spread;
#[cfg(test)]
mod tests;
mod waterfall;

pub use bench::bench;
pub use spread::spread;
pub use waterfall::waterfalls;

use super::escape::esc;
use super::model::{decimals, Report};
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
