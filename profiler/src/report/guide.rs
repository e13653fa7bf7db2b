//! The figures of a guide computed from run directories: which sections, which rows, in which
//! unit and order. Every value of every successful cycle is kept (a few bytes a figure), so the
//! spread can be drawn and `perfguide compare` can test it.

use super::console_cost;
use super::load::RunData;
use super::model::{Better, Report, Row, RunInfo, Section, Waterfall, REPORT_SCHEMA};
use super::waterfall;
use super::wire::{wire_ms, NOMINAL_BAUD};
use crate::profile::{Board, ConsoleConfig};
use crate::rundir::{CycleConsole, CycleRecord, CycleStatus};
use bootlog_parser::model::{Boot, Clock, StageId};
use bootlog_parser::spl_breakdown::{self, SplStep};
use bootlog_parser::stats::total_s;
use std::collections::{BTreeMap, HashMap};

/// Rows being filled run by run, in the order their names first appear.
struct Columns {
    runs: usize,
    order: Vec<String>,
    values: HashMap<String, Vec<Vec<f64>>>,
}

impl Columns {
    fn new(runs: usize) -> Self {
        Columns {
            runs,
            order: Vec::new(),
            values: HashMap::new(),
        }
    }

    fn push(&mut self, run: usize, name: &str, v: f64) {
        if !v.is_finite() {
            return;
        }
        if let Some(c) = self.values.get_mut(name) {
            c[run].push(v);
            return;
        }
        let mut c = vec![Vec::new(); self.runs];
        c[run].push(v);
        self.order.push(name.to_string());
        self.values.insert(name.to_string(), c);
    }

    fn rows(mut self, unit: &str, better: Better) -> Vec<Row> {
        self.order
            .iter()
            .map(|n| {
                let v = self.values.remove(n).unwrap_or_default();
                Row::new(n.clone(), unit, better, v)
            })
            .collect()
    }
}

/// The largest mean of a row over its runs (what ranks initcalls and units).
fn largest_mean(r: &Row) -> f64 {
    r.summaries
        .iter()
        .flatten()
        .map(|s| s.mean)
        .fold(f64::NEG_INFINITY, f64::max)
}

/// The console a run's board profile names, and the baud its cost is computed at.
fn baud_of(profile: Option<&Board>) -> (u32, bool) {
    match profile.and_then(|b| b.lab.console.as_ref()) {
        Some(ConsoleConfig::Serial { baud, .. }) => (*baud, false),
        _ => (NOMINAL_BAUD, true),
    }
}

/// The guide of `runs`, one column each; initcalls and systemd units cut to the slowest
/// `top` (every one with `None`, as `perfguide compare` takes them).
pub fn build(runs: &[RunData], top: Option<usize>) -> Report {
    let oks: Vec<Vec<&CycleRecord>> = runs
        .iter()
        .map(|r| {
            r.records
                .iter()
                .filter(|c| c.status == CycleStatus::Ok)
                .collect()
        })
        .collect();
    let boards: Vec<Option<Board>> = runs
        .iter()
        .map(|r| Board::from_toml_str(&r.manifest.board, &r.manifest.board_profile).ok())
        .collect();
    let bauds: Vec<(u32, bool)> = boards.iter().map(|b| baud_of(b.as_ref())).collect();

    let mut f = Figures::collect(&oks, &bauds);

    let all: Vec<&[CycleRecord]> = runs.iter().map(|r| r.records.as_slice()).collect();
    let rates: Vec<u32> = bauds.iter().map(|b| b.0).collect();
    let cost = console_cost::section(&all, &rates, bauds.iter().any(|b| b.1));
    let mut sections: Vec<Section> = [
        boot_section(f.boot, &oks),
        stage_section(f.stages, &mut f.target_timed),
        console_bytes_section(f.bytes),
        console_ms_section(f.wire, &bauds),
        quiet_section(f.quiet),
    ]
    .into_iter()
    .flatten()
    .collect();
    sections.extend(cost.and_then(|s| section(&s.id, s.title, s.note, s.rows)));
    sections.extend(bootstage_section(f.bootstage));
    sections.extend(section(
        "sbl",
        "SBL boot time breakdown".into(),
        "Milliseconds per SBL profile point (run:step): the step's duration where the SBL prints one (MCU+ SDK), else its time since SBL start (PDK), on the SBL's timer (target clock).".into(),
        f.sbl.rows("ms", Better::Lower),
    ));
    for sec in spl_sections(&oks) {
        sections.extend(section(&sec.id, sec.title, sec.note, sec.rows));
    }
    sections.extend(section(
        "initcalls",
        top_title("Kernel initcalls", top),
        "Milliseconds per initcall from initcall_debug (target clock).".into(),
        slowest(f.initcalls.rows("ms", Better::Lower), top),
    ));
    sections.extend(section(
        "systemd",
        top_title("systemd units", top),
        "Milliseconds per unit from systemd-analyze blame (target clock).".into(),
        slowest(f.systemd.rows("ms", Better::Lower), top),
    ));
    sections.extend(bench_sections(runs));

    let waterfalls = waterfalls(&oks, &bauds);
    Report {
        schema: REPORT_SCHEMA.into(),
        tool_version: env!("CARGO_PKG_VERSION").into(),
        runs: runs
            .iter()
            .zip(&oks)
            .zip(boards.iter().zip(&bauds))
            .map(|((r, ok), (b, baud))| run_info(r, ok.len(), b.as_ref(), *baud))
            .collect(),
        sections,
        waterfalls,
    }
}

/// A section of the guide, or none when it has no row.
fn section(id: &str, title: String, note: String, rows: Vec<Row>) -> Option<Section> {
    (!rows.is_empty()).then(|| Section {
        id: id.to_string(),
        title,
        note,
        rows,
    })
}

/// The boot time, power-on to the ready prompt.
fn boot_section(boot: Columns, oks: &[Vec<&CycleRecord>]) -> Option<Section> {
    let cycles_said = cycles_phrase(oks);
    let mut boot_rows = boot.rows("s", Better::Lower);
    boot_rows.sort_by(|a, b| a.name.cmp(&b.name));
    section(
        "boot",
        format!("Linux boot time ({cycles_said})"),
        "Seconds from power-on to the board's ready prompt (a login prompt by default), on the host clock of the capture: mean (min, max) over the successful cycles.".into(),
        boot_rows,
    )
}

/// The boot time per stage, in boot order; the note names the stages timed from the target's
/// clocks.
fn stage_section(stages: Columns, target_timed: &mut [StageId]) -> Option<Section> {
    let mut stage_rows = stages.rows("ms", Better::Lower);
    stage_rows.sort_by_key(|r| {
        (
            stage_rank(console_cost::unlabelled(&r.name)),
            r.name.clone(),
        )
    });
    let mut stage_note = "Milliseconds per stage; a stage runs from the line that announces it to the line that announces the next, on the host clock of the capture.".to_string();
    if !target_timed.is_empty() {
        target_timed.sort();
        let ids: Vec<&str> = target_timed.iter().map(|s| s.as_str()).collect();
        stage_note.push_str(&format!(
            " Timed from the target's own clocks (target, or derived: placed on the host clock through them) in some or all cycles: {}.",
            ids.join(", ")
        ));
    }
    section(
        "stages",
        "Boot time breakdown".into(),
        stage_note,
        stage_rows,
    )
}

/// The bytes each stage printed.
fn console_bytes_section(bytes: Columns) -> Option<Section> {
    let mut byte_rows = bytes.rows("bytes", Better::Lower);
    byte_rows.sort_by_key(|r| stage_rank(&r.name));
    section(
        "console_bytes",
        "Console output per stage".into(),
        "Bytes each stage printed on the console.".into(),
        byte_rows,
    )
}

/// The time those bytes take on the wire at each run's baud rate.
fn console_ms_section(wire: Columns, bauds: &[(u32, bool)]) -> Option<Section> {
    let mut wire_rows = wire.rows("ms", Better::Lower);
    wire_rows.sort_by_key(|r| stage_rank(&r.name));
    let baud_said = baud_phrase(bauds);
    section(
        "console_ms",
        "Console time per stage".into(),
        format!(
            "Milliseconds those bytes take on the wire at {baud_said}, 8N1 (10 bits a byte).{}",
            if bauds.iter().any(|b| b.1) {
                " A virtual console costs no wire time; its figures say what a serial console at that rate would."
            } else {
                ""
            }
        ),
        wire_rows,
    )
}

/// The boot time less the console's wire time: an estimate.
fn quiet_section(quiet: Columns) -> Option<Section> {
    let mut quiet_rows = quiet.rows("s", Better::Lower);
    quiet_rows.iter_mut().for_each(|r| r.estimate = true);
    section(
        "quiet",
        "Boot time with a quiet console (estimate)".into(),
        "An estimate, not a measurement: each cycle's boot time less the time its console output takes on the wire, as if printing held the boot up for all of it (true of a polled UART; a buffered console hides part of it).".into(),
        quiet_rows,
    )
}

/// U-Boot's bootstage marks, in the order of their means.
fn bootstage_section(bootstage: Columns) -> Option<Section> {
    let mut bs = bootstage.rows("ms", Better::Lower);
    bs.sort_by(|a, b| first_mean(a).total_cmp(&first_mean(b)));
    section(
        "bootstage",
        "U-Boot bootstage".into(),
        "Bootstage marks in milliseconds since reset on U-Boot's timer (target clock).".into(),
        bs,
    )
}

/// The name of the boot time's row.
const READY: &str = "Power-on to the ready prompt";

/// Every successful cycle's figures by section, before they become rows.
struct Figures {
    boot: Columns,
    stages: Columns,
    bytes: Columns,
    wire: Columns,
    quiet: Columns,
    bootstage: Columns,
    sbl: Columns,
    initcalls: Columns,
    systemd: Columns,
    /// Stages timed from a target clock in some cycle.
    target_timed: Vec<StageId>,
}

impl Figures {
    /// The figures of `oks`, the successful cycles of each run, whose consoles run at `bauds`.
    fn collect(oks: &[Vec<&CycleRecord>], bauds: &[(u32, bool)]) -> Figures {
        let n = oks.len();
        let mut boot = Columns::new(n);
        let mut stages = Columns::new(n);
        let mut bytes = Columns::new(n);
        let mut wire = Columns::new(n);
        let mut quiet = Columns::new(n);
        let mut bootstage = Columns::new(n);
        let mut sbl = Columns::new(n);
        let mut initcalls = Columns::new(n);
        let mut systemd = Columns::new(n);
        let mut target_timed: Vec<StageId> = Vec::new();
        // Runs with quiet cycles: every boot and stage row says its console, and the console's
        // own figures are the loud cycles'.
        let labels = console_cost::any_quiet(oks);
        let label = |name: &str, c: &CycleRecord| {
            if labels {
                console_cost::labelled(name, c.console_kind())
            } else {
                name.to_string()
            }
        };
        for (i, cycles) in oks.iter().enumerate() {
            for c in cycles {
                let b = &c.boot;
                let total = total_s(b);
                if let Some(t) = total {
                    boot.push(i, &label(READY, c), t);
                }
                let loud = c.console_kind() == CycleConsole::Loud;
                let mut on_wire = 0.0;
                for s in &b.stages {
                    if let Some(d) = s.duration_s {
                        stages.push(i, &label(s.id.as_str(), c), d * 1e3);
                        if s.clock != Clock::Host && !target_timed.contains(&s.id) {
                            target_timed.push(s.id);
                        }
                    }
                    if !loud {
                        continue;
                    }
                    if let Some(by) = s.console_bytes {
                        bytes.push(i, s.id.as_str(), by as f64);
                        let ms = wire_ms(by as f64, bauds[i].0);
                        wire.push(i, s.id.as_str(), ms);
                        on_wire += ms;
                    }
                }
                // A virtual console costs no wire time: nothing to project.
                if let (Some(t), false, true) = (total, bauds[i].1, loud) {
                    if on_wire > 0.0 {
                        quiet.push(
                            i,
                            "Power-on to the ready prompt, quiet console",
                            t - on_wire / 1e3,
                        );
                    }
                }
                for r in &b.bootstage {
                    bootstage.push(i, &r.name, r.mark_us as f64 / 1e3);
                }
                for p in &b.sbl_profile {
                    if let Some(v) = p.duration_us.or(p.timestamp_us) {
                        sbl.push(i, &format!("{}:{}", p.run, p.name), v as f64 / 1e3);
                    }
                }
                for (k, t) in b.sbl_total_us.iter().enumerate() {
                    sbl.push(i, &format!("{k}:total"), *t as f64 / 1e3);
                }
                for ic in &b.initcalls {
                    initcalls.push(i, &ic.name, ic.duration_us as f64 / 1e3);
                }
                if let Some(sd) = &b.systemd {
                    for u in &sd.blame {
                        if let Some(d) = u.duration_s {
                            systemd.push(i, &u.name, d * 1e3);
                        }
                    }
                }
            }
        }
        Figures {
            boot,
            stages,
            bytes,
            wire,
            quiet,
            bootstage,
            sbl,
            initcalls,
            systemd,
            target_timed,
        }
    }
}

/// The waterfall of each run, of its loud cycles when it has any (they show the most).
fn waterfalls(oks: &[Vec<&CycleRecord>], bauds: &[(u32, bool)]) -> Vec<Waterfall> {
    oks.iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let loud: Vec<&CycleRecord> = c
                .iter()
                .copied()
                .filter(|r| r.console_kind() == CycleConsole::Loud)
                .collect();
            let cycles = if loud.is_empty() { c } else { &loud };
            waterfall::of_median(i, cycles, byte_us(bauds[i]))
        })
        .collect()
}

/// The SPL breakdowns, TI SBL style: the R5 SPL's steps from its own report, the A-core SPL's
/// from its records (see [`spl_breakdown`]); each a section when some cycle has a step.
fn spl_sections(oks: &[Vec<&CycleRecord>]) -> Vec<Section> {
    let mut r5 = Columns::new(oks.len());
    let mut a = Columns::new(oks.len());
    for (i, cycles) in oks.iter().enumerate() {
        for c in cycles {
            for st in spl_breakdown::r5_steps(&c.boot, 0.0) {
                r5.push(i, &st.name, st.duration_us as f64 / 1e3);
            }
            for st in a_spl_steps(&c.boot) {
                a.push(i, &st.name, st.duration_us as f64 / 1e3);
            }
        }
    }
    [
        (
            "r5_spl",
            "R5 SPL boot time breakdown",
            "Milliseconds per step of the R5 SPL (TI K3), from the bootstage report it prints before it starts TF-A, on the R5's timer (target clock). Each step runs from one mark to the next: SYSFW load from `sysfw load` to `sysfw start`, SYSFW start to `sysfw running`, each board configuration from its mark to the next one's (`board cfg done` after the last), DDR init from `ram init` to `ram ready`, each image's load from `fit header` or the previous image's mark to its `loaded` mark, A-core start preparation from `end phase` to `start atf`. A cycle whose report lacks a step's marks has no value for it.",
            r5,
        ),
        (
            "a_spl",
            "A-core SPL boot time breakdown",
            "Milliseconds per step of the A-core SPL, from its records in U-Boot proper's bootstage report (stashed by the SPL, on U-Boot proper's timer, target clock), or from its own report where it printed one: DDR init from `ram init` to `ram ready`, each image's load from `fit header` or the previous image's mark to its `loaded` mark.",
            a,
        ),
    ]
    .into_iter()
    .map(|(id, title, note, cols)| Section {
        id: id.into(),
        title: title.into(),
        note: note.into(),
        rows: cols.rows("ms", Better::Lower),
    })
    .filter(|s| !s.rows.is_empty())
    .collect()
}

/// The A-core SPL's steps of a boot: from U-Boot proper's report (the SPL's stashed records),
/// else from the SPL's own report.
fn a_spl_steps(b: &Boot) -> Vec<SplStep> {
    let v = spl_breakdown::a_spl_steps(b);
    match spl_breakdown::a_spl_report(b) {
        Some(r) if v.is_empty() => spl_breakdown::steps(&r.records),
        _ => v,
    }
}

/// A console byte's time on the wire, µs, 8N1: none on a virtual console (`nominal`), whose
/// bytes arrive as they are written.
fn byte_us((baud, nominal): (u32, bool)) -> f64 {
    if nominal || baud == 0 {
        0.0
    } else {
        1e7 / f64::from(baud)
    }
}

fn first_mean(r: &Row) -> f64 {
    r.summaries
        .iter()
        .flatten()
        .map(|s| s.mean)
        .next()
        .unwrap_or(f64::INFINITY)
}

/// The rows slowest first, the first `top` of them.
fn slowest(mut rows: Vec<Row>, top: Option<usize>) -> Vec<Row> {
    rows.sort_by(|a, b| largest_mean(b).total_cmp(&largest_mean(a)));
    if let Some(n) = top {
        rows.truncate(n);
    }
    rows
}

fn top_title(what: &str, top: Option<usize>) -> String {
    match top {
        Some(n) => format!("{what}: the slowest {n}"),
        None => format!("{what}, slowest first"),
    }
}

fn stage_rank(name: &str) -> usize {
    StageId::ALL
        .iter()
        .position(|s| s.as_str() == name)
        .unwrap_or(usize::MAX)
}

/// `10 boot cycles`, or `10 and 12 boot cycles` for several runs.
fn cycles_phrase(oks: &[Vec<&CycleRecord>]) -> String {
    let mut ns: Vec<usize> = oks.iter().map(Vec::len).collect();
    ns.dedup();
    let n: Vec<String> = ns.iter().map(usize::to_string).collect();
    let one = ns.len() == 1 && ns[0] == 1;
    format!(
        "{} boot cycle{}",
        n.join(" and "),
        if one { "" } else { "s" }
    )
}

fn baud_phrase(bauds: &[(u32, bool)]) -> String {
    let mut v: Vec<String> = bauds
        .iter()
        .map(|(b, nominal)| {
            if *nominal {
                format!("{b} baud (nominal: the console is virtual)")
            } else {
                format!("{b} baud")
            }
        })
        .collect();
    v.dedup();
    v.join(" / ")
}

/// A benchmark row's unit and direction, by row name.
type Units = HashMap<String, (String, Better)>;

/// The benchmark tables: one section per tool (`bench/<tool>`), a row per benchmark and
/// metric, every run's value.
fn bench_sections(runs: &[RunData]) -> Vec<Section> {
    let n = runs.len();
    // tool -> (row key -> (unit, better)), rows in first-seen order.
    let mut tools: BTreeMap<String, (Columns, Units)> = BTreeMap::new();
    for (i, r) in runs.iter().enumerate() {
        for m in &r.bench {
            let tool = m.benchmark.split('/').next().unwrap_or(&m.benchmark);
            let test = m.benchmark.split_once('/').map_or("", |t| t.1);
            let name = if test.is_empty() || test == m.metric {
                format!("{} ({})", m.metric, m.benchmark)
            } else {
                format!("{test}: {}", m.metric)
            };
            let e = tools
                .entry(tool.to_string())
                .or_insert_with(|| (Columns::new(n), HashMap::new()));
            e.0.push(i, &name, m.value);
            e.1.entry(name).or_insert((m.unit.clone(), m.better));
        }
    }
    tools
        .into_iter()
        .map(|(tool, (cols, units))| {
            let rows = cols
                .order
                .clone()
                .into_iter()
                .map(|name| {
                    let (unit, better) = units[&name].clone();
                    let v = cols.values[&name].clone();
                    Row::new(name, unit, better, v)
                })
                .collect();
            Section {
                id: format!("bench/{tool}"),
                title: format!("Benchmark: {tool}"),
                note: "mean (min, max) over the benchmark's runs on the booted image (perfguide bench).".into(),
                rows,
            }
        })
        .collect()
}

/// The setup column of a run.
fn run_info(r: &RunData, ok: usize, board: Option<&Board>, baud: (u32, bool)) -> RunInfo {
    let m = &r.manifest;
    let mut setup: Vec<(String, String)> = vec![("Board".into(), m.board.clone())];
    if let Some(soc) = board
        .map(|b| b.profile.soc.clone())
        .filter(|s| !s.is_empty())
    {
        setup.push(("SoC".into(), soc));
    }
    let first = r.records.iter().find(|c| c.status == CycleStatus::Ok);
    if let Some(k) = first.and_then(|c| c.boot.kernel.as_ref()) {
        if let Some(machine) = &k.machine {
            setup.push(("Machine".into(), machine.clone()));
        }
    }
    // Components as seen over the cycles; more than one value means they changed.
    let mut comps: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for c in &r.records {
        for (k, v) in &c.boot.components {
            let e = comps.entry(k.as_str()).or_default();
            if !e.contains(&v.as_str()) {
                e.push(v.as_str());
            }
        }
    }
    for (k, v) in comps {
        setup.push((component_label(k), v.join(" / ")));
    }
    if let Some(cmdline) = first
        .and_then(|c| c.boot.kernel.as_ref())
        .and_then(|k| k.cmdline.clone())
    {
        setup.push(("Kernel command line".into(), cmdline));
    }
    for i in &m.images {
        setup.push((
            format!("Image: {}", i.role),
            format!(
                "{} ({} bytes, sha256 {})",
                i.path.display(),
                i.bytes,
                i.sha256
            ),
        ));
    }
    setup.push(("Tool".into(), format!("{} {}", m.tool.name, m.tool.version)));
    let failed: Vec<(u32, String)> = r
        .records
        .iter()
        .filter(|c| c.status == CycleStatus::Failed)
        .map(|c| {
            (
                c.cycle,
                c.failure
                    .as_ref()
                    .map(|f| format!("{}: {}", f.reason.as_str(), f.detail))
                    .unwrap_or_default(),
            )
        })
        .collect();
    setup.push((
        "Cycles".into(),
        format!(
            "{} recorded of {} planned: {} reached the ready prompt, {} failed",
            r.records.len(),
            m.cycles,
            ok,
            failed.len()
        ),
    ));
    if !r.gaps.is_empty() {
        setup.push(("Incomplete run".into(), r.gaps.join("; ")));
    }
    setup.push((
        "Capture".into(),
        format!(
            "console {}; every line stamped on the host clock as it arrives; power {}",
            m.console, m.power
        ),
    ));
    setup.push((
        "Host".into(),
        format!(
            "{} ({}, {} CPUs), run started {}",
            m.host.hostname, m.host.os, m.host.cpus, m.started
        ),
    ));
    RunInfo {
        name: r.name(),
        dir: r.dir.display().to_string(),
        board: m.board.clone(),
        setup,
        planned: m.cycles,
        recorded: r.records.len(),
        ok,
        failed,
        missing: r.missing.clone(),
        baud: baud.0,
        baud_nominal: baud.1,
    }
}

/// A component key as the setup table names it.
fn component_label(k: &str) -> String {
    match k {
        "kernel" => "Kernel".into(),
        "uboot" => "U-Boot".into(),
        "uboot_spl" => "U-Boot SPL".into(),
        "uboot_tpl" => "U-Boot TPL".into(),
        "tfa" => "TF-A".into(),
        "optee" => "OP-TEE".into(),
        "sysfw" => "SYSFW / TIFS".into(),
        "sysfw_abi" => "SYSFW ABI".into(),
        "rpi_bootloader" => "Raspberry Pi bootloader".into(),
        "rpi_firmware" => "Raspberry Pi firmware".into(),
        k => k.to_string(),
    }
}
