//! The tables perfguide prints: a boot's stages, what else it told and its SPLs' own bootstage
//! reports as steps ([`write_boot`]), and the stage table over many boots ([`StageTable`],
//! `mean (min, max)`, median, p95 and standard deviation per stage) that `parse` and
//! `boot-loop` print, and [`md`], the Markdown cell escape of every Markdown document.

use crate::rundir::{CycleConsole, CycleRecord};
use bootlog_parser::model::Boot;
use bootlog_parser::spl_breakdown;
use bootlog_parser::stats::{BootStats, Collector, Summary};
use std::collections::BTreeMap;
use std::io::{self, Write};

fn fmt_opt(v: Option<f64>) -> String {
    v.map(|v| format!("{v:.6}")).unwrap_or_else(|| "-".into())
}

/// Writes one boot: its stages (start, end, duration, clock, line) and what else it told.
pub fn write_boot(out: &mut impl Write, source: &str, index: usize, b: &Boot) -> io::Result<()> {
    writeln!(
        out,
        "== {source}: boot {index} (lines {}-{}), {}",
        b.lines.0,
        b.lines.1,
        if b.complete { "complete" } else { "INCOMPLETE" }
    )?;
    writeln!(
        out,
        "{:<10} {:>12} {:>12} {:>12}  {:<7} {:>6}",
        "stage", "start_s", "end_s", "duration_s", "clock", "line"
    )?;
    for s in &b.stages {
        writeln!(
            out,
            "{:<10} {:>12} {:>12} {:>12}  {:<7} {:>6}",
            s.id.as_str(),
            fmt_opt(s.start_s),
            fmt_opt(s.end_s),
            fmt_opt(s.duration_s),
            format!("{:?}", s.clock).to_lowercase(),
            s.line.map(|l| l.to_string()).unwrap_or_default()
        )?;
    }
    if !b.components.is_empty() {
        writeln!(out, "components:")?;
        for (k, v) in &b.components {
            writeln!(out, "  {k:<12} {v}")?;
        }
    }
    if !b.sbl_total_us.is_empty() {
        let t: Vec<String> = b.sbl_total_us.iter().map(|t| format!("{t} us")).collect();
        writeln!(
            out,
            "SBL total per run: {} ({} profile points)",
            t.join(", "),
            b.sbl_profile.len()
        )?;
    }
    if let Some(last) = b.bootstage.last() {
        writeln!(
            out,
            "bootstage: {} records, last {} at {} us ({} reports)",
            b.bootstage.len(),
            last.name,
            last.mark_us,
            b.bootstage_reports.len()
        )?;
    }
    for r in &b.spl_bootstage {
        let steps = spl_breakdown::steps(&r.records);
        writeln!(
            out,
            "{} bootstage: {} records (line {}), {} steps on its timer",
            r.stage,
            r.records.len(),
            r.line,
            steps.len()
        )?;
        for st in &steps {
            writeln!(out, "  {:<32} {:>9} us", st.name, st.duration_us)?;
        }
    }
    if let Some(k) = &b.kernel {
        writeln!(
            out,
            "kernel: {} first {} init {} last {}",
            k.version.as_deref().unwrap_or("?"),
            fmt_opt(k.first_ts_s),
            fmt_opt(k.init_ts_s),
            fmt_opt(k.last_ts_s)
        )?;
    }
    if !b.initcalls.is_empty() {
        let mut v: Vec<_> = b.initcalls.iter().collect();
        v.sort_by_key(|c| std::cmp::Reverse(c.duration_us));
        writeln!(
            out,
            "initcalls: {} (slowest: {} {} us)",
            v.len(),
            v[0].name,
            v[0].duration_us
        )?;
    }
    if let Some(sd) = &b.systemd {
        writeln!(
            out,
            "systemd: kernel {} initrd {} userspace {} total {}",
            fmt_opt(sd.kernel_s),
            fmt_opt(sd.initrd_s),
            fmt_opt(sd.userspace_s),
            fmt_opt(sd.total_s)
        )?;
    }
    if let Some(l) = &b.login_prompt {
        writeln!(out, "ready: {l:?}")?;
    }
    for e in &b.errors {
        writeln!(out, "error: {e}")?;
    }
    for w in &b.warnings {
        writeln!(out, "warning: {w}")?;
    }
    writeln!(out)
}

/// One row of a stage table.
#[derive(Debug, Clone, PartialEq)]
pub struct StageRow {
    /// Stage id, or the name of a total.
    pub name: String,
    /// Seconds over the boots that had the stage.
    pub summary: Summary,
}

/// Per-stage statistics over a set of boots, in boot order, then a total.
#[derive(Debug, Clone, PartialEq)]
pub struct StageTable {
    /// Boots summarised.
    pub boots: usize,
    /// Those that reached the ready line.
    pub complete: usize,
    /// The rows.
    pub rows: Vec<StageRow>,
}

impl StageTable {
    /// The stage rows of `stats`.
    pub fn of(stats: &BootStats) -> StageTable {
        StageTable {
            boots: stats.boots,
            complete: stats.complete,
            rows: stats
                .stages
                .iter()
                .map(|(id, summary)| StageRow {
                    name: id.as_str().to_string(),
                    summary: summary.clone(),
                })
                .collect(),
        }
    }

    /// Adds a total row named `name`, when there is a figure.
    pub fn with_total(mut self, name: &str, total: Option<&Summary>) -> StageTable {
        if let Some(t) = total {
            self.rows.push(StageRow {
                name: name.to_string(),
                summary: t.clone(),
            });
        }
        self
    }

    /// The table as text, seconds with three decimals.
    pub fn write_text(&self, out: &mut impl Write) -> io::Result<()> {
        let w = self
            .rows
            .iter()
            .map(|r| r.name.len())
            .max()
            .unwrap_or(0)
            .max(10);
        writeln!(
            out,
            "== statistics over {} boots ({} complete), seconds",
            self.boots, self.complete
        )?;
        writeln!(
            out,
            "{:<w$} {:>4}  {:<36} {:>9} {:>9} {:>9}",
            "stage", "n", "mean (min, max)", "median", "p95", "stddev"
        )?;
        for r in &self.rows {
            let v = &r.summary;
            writeln!(
                out,
                "{:<w$} {:>4}  {:<36} {:>9.3} {:>9.3} {:>9.3}",
                r.name,
                v.n,
                v.ti(3),
                v.median,
                v.p95,
                v.stddev
            )?;
        }
        Ok(())
    }
}

/// The boot loop's breakdown: the stage table over the ok cycles with the host's power-on to
/// ready time as the total, then the cycle counts and the failure reasons.
pub fn write_loop_summary(out: &mut impl Write, records: &[CycleRecord]) -> io::Result<()> {
    let ok: Vec<&CycleRecord> = records.iter().filter(|r| r.failure.is_none()).collect();
    // A run of loud and quiet cycles: one table each.
    let consoles: Vec<CycleConsole> = [CycleConsole::Loud, CycleConsole::Quiet]
        .into_iter()
        .filter(|c| ok.iter().any(|r| r.console_kind() == *c))
        .collect();
    let groups: Vec<Option<CycleConsole>> = if consoles.len() > 1 {
        consoles.into_iter().map(Some).collect()
    } else {
        vec![None]
    };
    for console in groups {
        let these: Vec<&&CycleRecord> = ok
            .iter()
            .filter(|r| console.map_or(true, |c| r.console_kind() == c))
            .collect();
        if let Some(c) = console {
            writeln!(out, "-- {} cycles", c.as_str())?;
        }
        let mut c = Collector::new();
        these.iter().for_each(|r| c.add(&r.boot));
        let ready: Vec<f64> = these.iter().filter_map(|r| r.host.ready_s).collect();
        let table = StageTable::of(&c.stats())
            .with_total("total (power-on to ready)", Summary::of(&ready).as_ref());
        table.write_text(out)?;
        if table.rows.is_empty() {
            writeln!(out, "(no completed boot to summarise)")?;
        }
    }
    let failed = records.len() - ok.len();
    write!(
        out,
        "cycles: {} recorded, {} ok, {} failed",
        records.len(),
        ok.len(),
        failed
    )?;
    let mut reasons: BTreeMap<&str, usize> = BTreeMap::new();
    for r in records.iter().filter_map(|r| r.failure.as_ref()) {
        *reasons.entry(r.reason.as_str()).or_default() += 1;
    }
    if !reasons.is_empty() {
        let list: Vec<String> = reasons.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        write!(out, " ({})", list.join(", "))?;
    }
    writeln!(out)
}

/// Escapes text from a log or a manifest for a Markdown table cell.
pub fn md(t: &str) -> String {
    let mut o = String::with_capacity(t.len());
    for c in t.chars() {
        match c {
            '|' | '\\' | '`' | '*' | '<' | '>' | '[' | ']' => {
                o.push('\\');
                o.push(c);
            }
            '\n' | '\r' => o.push(' '),
            c => o.push(c),
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_cells_are_escaped() {
        assert_eq!(md("a|b<script>"), "a\\|b\\<script\\>");
        assert_eq!(md("x\ny"), "x y");
        assert_eq!(md("board_init_f"), "board_init_f");
    }

    /// A boot whose R5 SPL printed its own bootstage report (the composed J721E boot of
    /// bootlog-parser's test data): the report's steps under the stages.
    #[test]
    fn boot_lists_the_spl_report_steps() {
        let log = include_str!("../../bootlog-parser/tests/data/k3-j721e-bootstage.log");
        let profile = bootlog_parser::BoardProfile::builtin("j721e-evm").unwrap();
        let b = &bootlog_parser::parse_power_on_capture(log.as_bytes(), &profile)[0];
        let mut out = Vec::new();
        write_boot(&mut out, "k3.log", 0, b).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains("r5-spl bootstage: 20 records (line 4), 13 steps on its timer\n"),
            "{text}"
        );
        assert!(text.contains(&format!("  {:<32} {:>9} us\n", "DDR init", 24560)));
        assert!(text.contains("bootstage: 14 records, last start_kernel at 1310870 us (2 reports)"));
    }

    #[test]
    fn text_table_widens_for_long_names() {
        let s = Summary::of(&[1.0, 2.0]).unwrap();
        let t = StageTable {
            boots: 2,
            complete: 2,
            rows: vec![],
        }
        .with_total("total (power-on to ready)", Some(&s));
        let mut out = Vec::new();
        t.write_text(&mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[1].find(" n "), lines[2].find(" 2  "));
    }
}
