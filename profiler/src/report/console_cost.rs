//! What the console costs the boot, measured and projected, for runs that booted loud and
//! quiet in turns (`perfguide boot-loop --console both`).
//!
//! Measured: for each pair of cycles 2k-1 (loud) and 2k (quiet), both ok, the loud stage's
//! duration less the quiet one's; pairing neighbours keeps the host's drift out. Projected:
//! each loud cycle's console bytes of the stage on the wire at the board's baud (an
//! estimate: as if printing held the boot up for all of it).

use super::model::{Better, Row, Section};
use super::wire::wire_ms;
use crate::rundir::{CycleConsole, CycleRecord, CycleStatus};
use bootlog_parser::model::StageId;
use bootlog_parser::stats::total_s;

/// The row label of a figure of one console (`kernel (quiet)`).
pub fn labelled(name: &str, console: CycleConsole) -> String {
    format!("{name} ({})", console.as_str())
}

/// The name a labelled row was made from (`kernel (quiet)` -> `kernel`).
pub fn unlabelled(name: &str) -> &str {
    for c in [CycleConsole::Loud, CycleConsole::Quiet] {
        if let Some(n) = name.strip_suffix(&format!(" ({})", c.as_str())) {
            return n;
        }
    }
    name
}

/// Whether any of the runs booted quiet: then every boot and stage row says its console.
pub fn any_quiet(runs: &[Vec<&CycleRecord>]) -> bool {
    runs.iter()
        .flatten()
        .any(|c| c.console_kind() == CycleConsole::Quiet)
}

/// The loud-quiet pairs of a run: cycles 2k-1 loud and 2k quiet, both ok.
fn pairs(records: &[CycleRecord]) -> Vec<(&CycleRecord, &CycleRecord)> {
    records
        .windows(2)
        .filter(|w| w[0].cycle % 2 == 1 && w[1].cycle == w[0].cycle + 1)
        .filter(|w| {
            w[0].console_kind() == CycleConsole::Loud
                && w[1].console_kind() == CycleConsole::Quiet
                && w[0].status == CycleStatus::Ok
                && w[1].status == CycleStatus::Ok
        })
        .map(|w| (&w[0], &w[1]))
        .collect()
}

/// The section, when some run has loud-quiet pairs. `records` are each run's cycles (all of
/// them, in order), `bauds` each run's console rate.
pub fn section(records: &[&[CycleRecord]], bauds: &[u32], nominal: bool) -> Option<Section> {
    let n = records.len();
    let mut names: Vec<String> = Vec::new();
    let mut cols: Vec<(String, bool, Vec<Vec<f64>>)> = Vec::new();
    let mut push = |name: String, estimate: bool, run: usize, v: f64| {
        let k = match cols.iter().position(|c| c.0 == name) {
            Some(k) => k,
            None => {
                names.push(name.clone());
                cols.push((name, estimate, vec![Vec::new(); n]));
                cols.len() - 1
            }
        };
        cols[k].2[run].push(v);
    };
    let mut any = false;
    for (i, recs) in records.iter().enumerate() {
        let ps = pairs(recs);
        any |= !ps.is_empty();
        for (loud, quiet) in ps {
            let mut wire_total = 0.0;
            for id in StageId::ALL {
                let (Some(l), Some(q)) = (loud.boot.stage(id), quiet.boot.stage(id)) else {
                    continue;
                };
                if let (Some(ld), Some(qd)) = (l.duration_s, q.duration_s) {
                    push(format!("{id} measured"), false, i, (ld - qd) * 1e3);
                }
                if let Some(b) = l.console_bytes {
                    let ms = wire_ms(b as f64, bauds[i]);
                    wire_total += ms;
                    push(format!("{id} projected"), true, i, ms);
                }
            }
            if let (Some(lt), Some(qt)) = (total_s(&loud.boot), total_s(&quiet.boot)) {
                push("total measured".into(), false, i, (lt - qt) * 1e3);
                push("total projected".into(), true, i, wire_total);
            }
        }
    }
    if !any {
        return None;
    }
    let rows = cols
        .into_iter()
        .map(|(name, estimate, values)| {
            let mut r = Row::new(name, "ms", Better::Lower, values);
            r.estimate = estimate;
            r
        })
        .collect();
    Some(Section {
        id: "console_cost".into(),
        title: "Console cost per stage, measured and projected".into(),
        note: format!(
            "Milliseconds the loud console adds to each stage. Measured: each loud cycle less \
             the quiet cycle after it (--console both). Projected (an estimate): the loud \
             cycle's console bytes on the wire at {}, as if printing held the boot up for all \
             of it. A quiet cycle's rom/uboot boundary is U-Boot's first bootstage mark, before \
             its console starts, a loud one's is its banner: compare their sum.{}",
            if bauds.windows(2).all(|w| w[0] == w[1]) {
                format!("{} baud", bauds.first().copied().unwrap_or(0))
            } else {
                "each run's baud".into()
            },
            if nominal {
                " A virtual console has no wire: its measured cost is only the printing's."
            } else {
                ""
            }
        ),
        rows,
    })
}
