//! The SPL boot-time breakdown, TI SBL style, from bootstage records: SYSFW load and start,
//! each board configuration message, DDR initialisation, each image loaded, the A-core's
//! start, as the R5 SPL of a TI K3 SoC marks them (the layer's U-Boot patches,
//! `meta-perfguide/recipes-bsp/u-boot/files/`), and the same steps of an A-core SPL whose
//! records U-Boot proper's report holds (stashed by the SPL, on U-Boot proper's clock).
//!
//! A step is the time between two named marks of one report; a step whose marks are not
//! both there (or come in the wrong order) is absent, never zero. The SPL stage's own span on
//! its timer, for a log with no host stamps, is here too ([`r5_span_us`], [`a_spl_span_us`]).

use crate::fixed::round6;
use crate::model::{Boot, BootstageRecord, SplBootstage, StageId};

/// Microseconds a console byte takes on the wire at 115200 baud, 8N1 (10 bits a byte).
pub const BYTE_US_115200: f64 = 1e7 / 115_200.0;

/// One step of an SPL's breakdown.
#[derive(Debug, Clone, PartialEq)]
pub struct SplStep {
    /// `SYSFW load`, `DDR init`, `Load atf`, ...; a second step of the same name is
    /// `DDR init 2`, and so on.
    pub name: String,
    /// Its first mark, µs on the report's timer.
    pub start_us: u64,
    /// Its second mark less its first.
    pub duration_us: u64,
    /// Its first mark on the boot's host clock (seconds, as stage times), when the report's
    /// header line was stamped and its anchor mark is there (see [`report_steps`]).
    pub host_start_s: Option<f64>,
}

/// The steps between two named marks: the step's name, the names of its first mark and of
/// its second (any of them, compared without case). Later U-Boot names SPL's end
/// `end phase`, earlier U-Boot `end spl` (`end SPL`).
const PAIRS: [(&str, &[&str], &[&str]); 8] = [
    ("SYSFW load", &["sysfw load"], &["sysfw start"]),
    ("SYSFW start", &["sysfw start"], &["sysfw running"]),
    ("Board config", &["board cfg"], &["board cfg pm"]),
    ("PM board config", &["board cfg pm"], &["board cfg rm"]),
    (
        "RM board config",
        &["board cfg rm"],
        &["board cfg security"],
    ),
    (
        "Security board config",
        &["board cfg security"],
        &["board cfg done"],
    ),
    ("DDR init", &["ram init"], &["ram ready"]),
    (
        "A-core start preparation",
        &["end phase", "end spl"],
        &["start atf"],
    ),
];

/// SPL's first mark: `SPL` (U-Boot 2023.10 on), `spl` before.
const SPL_START: &[&str] = &["spl"];
/// SPL's last mark.
const SPL_END: &[&str] = &["end phase", "end spl"];
/// The R5 SPL's last mark, just before it starts the A-core (and prints its report).
const START_ATF: &[&str] = &["start atf"];
/// SPL has read the FIT header of the next image and starts loading its images.
const FIT_HEADER: &[&str] = &["fit header"];
/// What a loaded FIT image's mark starts with; the node's name follows.
const LOADED: &str = "loaded ";

/// Whether a record's name is one of `names`, compared without ASCII case.
fn is(name: &str, names: &[&str]) -> bool {
    names.iter().any(|n| name.eq_ignore_ascii_case(n))
}

/// The FIT image node a `loaded <node>` record names.
fn loaded_node(name: &str) -> Option<&str> {
    let head = name.get(..LOADED.len())?;
    head.eq_ignore_ascii_case(LOADED)
        .then(|| &name[LOADED.len()..])
}

/// `name`, or `name k` for its `k`-th occurrence from the second on.
fn numbered(name: &str, k: usize) -> String {
    if k <= 1 {
        name.to_string()
    } else {
        format!("{name} {k}")
    }
}

/// The steps of a report's records (print order), on the report's own timer, in boot
/// order (by the print position of each step's first mark). A first mark is paired with the
/// first second mark printed after it that no earlier one took, so repeated pairs (two RAM
/// controllers probed) give numbered steps; a pair whose second mark reads less than its
/// first (marks out of order) gives none. An image's load runs from the `fit header` mark or
/// the previous `loaded` mark to its `loaded <node>` mark.
pub fn steps(records: &[BootstageRecord]) -> Vec<SplStep> {
    let mut out: Vec<(usize, SplStep)> = Vec::new();
    for (row, firsts, seconds) in PAIRS {
        let mut taken = 0usize;
        let mut k = 0usize;
        for (i, r) in records.iter().enumerate() {
            if !is(&r.name, firsts) {
                continue;
            }
            let from = (i + 1).max(taken);
            let Some(j) = (from..records.len()).find(|&j| is(&records[j].name, seconds)) else {
                break;
            };
            taken = j + 1;
            let (a, e) = (r.mark_us, records[j].mark_us);
            if e < a {
                continue;
            }
            k += 1;
            out.push((i, step(numbered(row, k), a, e)));
        }
    }
    let mut anchor: Option<u64> = None;
    let mut loads: Vec<(&str, usize)> = Vec::new();
    for (i, r) in records.iter().enumerate() {
        if is(&r.name, FIT_HEADER) {
            anchor = Some(r.mark_us);
            continue;
        }
        let Some(node) = loaded_node(&r.name) else {
            continue;
        };
        if let Some(a) = anchor.filter(|&a| a <= r.mark_us) {
            let k = match loads.iter_mut().find(|(n, _)| *n == node) {
                Some((_, k)) => {
                    *k += 1;
                    *k
                }
                None => {
                    loads.push((node, 1));
                    1
                }
            };
            let name = numbered(&format!("Load {node}"), k);
            out.push((i, step(name, a, r.mark_us)));
        }
        anchor = Some(r.mark_us);
    }
    // Stable: steps that start at the same record keep the order of `PAIRS`.
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().map(|(_, s)| s).collect()
}

/// A step from mark `a` to mark `e` (`a <= e`), not placed on the host clock.
fn step(name: String, a: u64, e: u64) -> SplStep {
    SplStep {
        name,
        start_us: a,
        duration_us: e - a,
        host_start_s: None,
    }
}

/// The mark a report is printed right after: `start atf` for the R5 SPL's (patch 0006 prints
/// it there), SPL's end (`end phase`) for an A-core SPL's own report (`SPL_BOOTSTAGE_REPORT`
/// prints it where `board_init_r` ends). The last one of that name.
fn anchor_us(report: &SplBootstage) -> Option<u64> {
    let names = match report.stage {
        StageId::R5Spl => START_ATF,
        _ => SPL_END,
    };
    report
        .records
        .iter()
        .rev()
        .find(|r| is(&r.name, names))
        .map(|r| r.mark_us)
}

/// The steps of an SPL's own report, each placed on the boot's host clock when the report's
/// header line was stamped and its anchor mark (see `anchor_us`) is there: `byte_us` is the
/// console's time a byte (`10^7 / baud`: [`BYTE_US_115200`]; 0 for a virtual console).
///
/// A mark's host time is the header line's stamp, less one byte time, less how much earlier
/// than the anchor the SPL's timer read it. perfguide's captures (and grabserial's) stamp a
/// line when its first byte arrives (`profiler/src/capture.rs`), so the header's stamp is the
/// end of its first byte on the wire, one byte time after the UART began to send it; the
/// header line's own length does not enter. The UART began to send it right after the anchor
/// mark: `bootstage_report()` prints the header first. What is left errs one way only, every
/// step placed late, never early, by
/// - the time from the anchor mark to the header's first byte leaving the CPU (formatting a
///   line: microseconds);
/// - the delivery latency of the USB serial adapter and the host (up to the adapter's latency
///   timer, 1 ms once perfguide set it, 16 ms at an FTDI adapter's default; none on a virtual
///   console);
/// - earlier output still in the UART's transmit FIFO when the report began, when the SPL
///   printed a line just before the anchor (at most the FIFO's depth, 64 bytes on K3 UARTs:
///   5.6 ms at 115200 baud).
///
/// Between steps of one report, placement is as good as the SPL's timer: whole microseconds
/// and its crystal's drift (±50 ppm: 50 µs a second). A capture that stamps lines at their
/// end (LAVA's `dt`) places every step later by the header line's transmission as well
/// (about 45 bytes: 3.9 ms at 115200 baud).
pub fn report_steps(report: &SplBootstage, byte_us: f64) -> Vec<SplStep> {
    let mut v = steps(&report.records);
    if let (Some(h), Some(anchor)) = (report.host_s, anchor_us(report)) {
        let first_byte = h - byte_us / 1e6;
        for s in &mut v {
            let before = (anchor as f64 - s.start_us as f64) / 1e6;
            s.host_start_s = Some(round6(first_byte - before));
        }
    }
    v
}

/// The R5 SPL's report of a boot (the last, should it have printed several).
pub fn r5_report(b: &Boot) -> Option<&SplBootstage> {
    b.spl_bootstage
        .iter()
        .rev()
        .find(|r| r.stage == StageId::R5Spl)
}

/// The R5 SPL's steps (see [`report_steps`]); none without an R5 report.
pub fn r5_steps(b: &Boot, byte_us: f64) -> Vec<SplStep> {
    r5_report(b).map_or_else(Vec::new, |r| report_steps(r, byte_us))
}

/// The A-core SPL's records in U-Boot proper's report: from SPL's first mark (`SPL`) to its
/// end (`end phase`) after it, both included; from the report's first record when there is
/// no `SPL` mark. None (empty) without SPL's end: then no record is known to be the SPL's
/// (a `ram init` of U-Boot proper's own RAM probe is not the SPL's DDR initialisation).
pub fn proper_spl_records(records: &[BootstageRecord]) -> &[BootstageRecord] {
    let s = records
        .iter()
        .position(|r| is(&r.name, SPL_START))
        .unwrap_or(0);
    match records[s..].iter().position(|r| is(&r.name, SPL_END)) {
        Some(e) => &records[s..=s + e],
        None => &[],
    }
}

/// The A-core SPL's steps from its records in U-Boot proper's report (stashed by the SPL,
/// `BOOTSTAGE_STASH`), on U-Boot proper's clock: image loads and DDR initialisation where
/// marked. Not placed on the host clock here.
pub fn a_spl_steps(b: &Boot) -> Vec<SplStep> {
    steps(proper_spl_records(&b.bootstage))
}

/// The A-core SPL's own report (an SPL that printed one, `SPL_BOOTSTAGE_REPORT`), the last.
pub fn a_spl_report(b: &Boot) -> Option<&SplBootstage> {
    b.spl_bootstage
        .iter()
        .rev()
        .find(|r| r.stage == StageId::ASpl)
}

/// The R5 SPL's span on its own timer, µs: its first non-zero mark to `start atf`. It leaves
/// out the R5 SPL's start up to its timer's probe (the timer reads 0 until it is probed, early
/// in the R5 SPL: its start-up, the driver model's first devices, the console), and from the
/// probe up to that first mark; and after `start atf`, the report's own printing and the
/// A-core's start. `None` without `start atf`, or with no non-zero mark before it.
pub fn r5_span_us(b: &Boot) -> Option<(u64, u64)> {
    let recs = &r5_report(b)?.records;
    let e = recs.iter().position(|r| is(&r.name, START_ATF))?;
    let first = recs[..e].iter().find(|r| r.mark_us > 0)?.mark_us;
    let end = recs[e].mark_us;
    (first <= end).then_some((first, end))
}

/// The A-core SPL's span, µs, on the clock of the report that holds both its marks: `SPL`
/// to `end phase` in U-Boot proper's report (the stashed records), else in the SPL's own
/// report. `None` unless both marks are there, in order.
pub fn a_spl_span_us(b: &Boot) -> Option<(u64, u64)> {
    let span = |recs: &[BootstageRecord]| {
        let s = recs.iter().position(|r| is(&r.name, SPL_START))?;
        let e = s + recs[s..].iter().position(|r| is(&r.name, SPL_END))?;
        let (a, z) = (recs[s].mark_us, recs[e].mark_us);
        (a <= z).then_some((a, z))
    };
    span(&b.bootstage).or_else(|| span(&a_spl_report(b)?.records))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recs(rows: &[(&str, u64)]) -> Vec<BootstageRecord> {
        let mut prev = 0;
        rows.iter()
            .map(|&(name, mark_us)| {
                let r = BootstageRecord {
                    name: name.into(),
                    mark_us,
                    elapsed_us: mark_us.saturating_sub(prev),
                };
                prev = mark_us;
                r
            })
            .collect()
    }

    fn named(v: &[SplStep]) -> Vec<(&str, u64, u64)> {
        v.iter()
            .map(|s| (s.name.as_str(), s.start_us, s.duration_us))
            .collect()
    }

    #[test]
    fn pairs_images_and_order() {
        let r = recs(&[
            ("reset", 0),
            ("SPL", 0),
            ("sysfw load", 100),
            ("sysfw start", 350),
            ("sysfw running", 900),
            ("ram init", 1_000),
            ("ram ready", 4_000),
            ("fit header", 4_100),
            ("loaded atf", 4_600),
            ("loaded tee", 6_000),
            ("end phase", 6_100),
            ("start atf", 6_500),
        ]);
        assert_eq!(
            named(&steps(&r)),
            [
                ("SYSFW load", 100, 250),
                ("SYSFW start", 350, 550),
                ("DDR init", 1_000, 3_000),
                ("Load atf", 4_100, 500),
                ("Load tee", 4_600, 1_400),
                ("A-core start preparation", 6_100, 400),
            ]
        );
    }

    #[test]
    fn absent_out_of_order_and_repeated_marks() {
        // No `sysfw running`: no SYSFW start; `ram ready` before `ram init` reads less: none.
        let r = recs(&[
            ("sysfw start", 10),
            ("ram init", 500),
            ("ram ready", 400),
            ("ram init", 600),
            ("ram ready", 700),
            ("loaded atf", 800),
            ("fit header", 900),
            ("loaded atf", 1_000),
            ("loaded atf", 1_300),
            ("end spl", 1_400),
        ]);
        assert_eq!(
            named(&steps(&r)),
            [
                ("DDR init", 600, 100),
                ("Load atf", 900, 100),
                ("Load atf 2", 1_000, 300),
            ]
        );
        // Two RAM controllers: numbered.
        let r = recs(&[
            ("ram init", 1),
            ("ram ready", 5),
            ("ram init", 6),
            ("ram ready", 16),
        ]);
        assert_eq!(
            named(&steps(&r)),
            [("DDR init", 1, 4), ("DDR init 2", 6, 10)]
        );
        assert!(steps(&[]).is_empty());
    }

    #[test]
    fn placement_from_the_header_stamp() {
        let report = SplBootstage {
            stage: StageId::R5Spl,
            line: 9,
            host_s: Some(1.0),
            records: recs(&[
                ("ram init", 100_000),
                ("ram ready", 300_000),
                ("start atf", 900_000),
            ]),
            accumulated: vec![],
        };
        let v = report_steps(&report, 100.0);
        // 1.0 s less one byte (100 µs) less 800 ms before the anchor.
        assert_eq!(v[0].host_start_s, Some(0.1999));
        // No anchor: durations, no host times.
        let mut cut = report.clone();
        cut.records.pop();
        assert_eq!(report_steps(&cut, 100.0)[0].host_start_s, None);
        let mut unstamped = report;
        unstamped.host_s = None;
        assert_eq!(report_steps(&unstamped, 100.0)[0].host_start_s, None);
    }

    #[test]
    fn spl_part_of_the_proper_report() {
        let r = recs(&[
            ("reset", 0),
            ("SPL", 10),
            ("ram init", 20),
            ("ram ready", 70),
            ("end phase", 90),
            ("board_init_f", 100),
            ("ram init", 120),
            ("ram ready", 125),
        ]);
        let part = proper_spl_records(&r);
        assert_eq!(part.len(), 4);
        assert_eq!(named(&steps(part)), [("DDR init", 20, 50)]);
        // Without SPL's end, nothing is known to be the SPL's.
        assert!(proper_spl_records(&r[..4]).is_empty());
    }
}
