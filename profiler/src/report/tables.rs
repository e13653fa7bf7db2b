//! The guide's tables as plain-text cells, laid out once for every document format: the setup
//! table (one column per run), each section (one run: `mean (min, max)`, median, p95, standard
//! deviation and n; several runs: one `mean (min, max)` column per run, as TI's tables have one
//! column per board), and the failed cycles. Cells are not escaped; each format escapes.

use super::model::{decimals, ti, Report, Section};

/// A table ready to print.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// Heading.
    pub title: String,
    /// The paragraph under the heading.
    pub note: String,
    /// Column headings.
    pub head: Vec<String>,
    /// Rows of cells, as many as `head`.
    pub rows: Vec<Vec<String>>,
}

/// Every table of the guide, in order.
pub fn tables(r: &Report) -> Vec<Table> {
    let mut out = vec![setup(r)];
    out.extend(r.sections.iter().map(|s| section(r, s)));
    if let Some(t) = failed(r) {
        out.push(t);
    }
    out
}

/// The unit every row of a section shares, if they do.
pub fn shared_unit(s: &Section) -> Option<&str> {
    let u = s.rows.first()?.unit.as_str();
    s.rows.iter().all(|r| r.unit == u).then_some(u)
}

/// The setup table: one column per run.
pub fn setup(r: &Report) -> Table {
    let mut head = vec!["Item".to_string()];
    head.extend(r.runs.iter().map(|x| x.name.clone()));
    let mut items: Vec<String> = Vec::new();
    for run in &r.runs {
        for (k, _) in &run.setup {
            if !items.contains(k) {
                items.push(k.clone());
            }
        }
    }
    let rows = items
        .into_iter()
        .map(|k| {
            let mut row = vec![k.clone()];
            row.extend(r.runs.iter().map(|run| {
                run.setup
                    .iter()
                    .find(|(i, _)| *i == k)
                    .map(|(_, v)| v.clone())
                    .unwrap_or_else(|| "-".into())
            }));
            row
        })
        .collect();
    Table {
        title: "Setup".into(),
        note: "What was measured and how.".into(),
        head,
        rows,
    }
}

/// The table of one section.
pub fn section(r: &Report, s: &Section) -> Table {
    let unit = shared_unit(s);
    let first = match unit {
        Some(u) => format!("{} ({u})", first_head(&s.id)),
        None => first_head(&s.id).to_string(),
    };
    let mut head = vec![first];
    let mut rows = Vec::new();
    if r.runs.len() == 1 {
        head.extend(
            ["mean (min, max)", "median", "p95", "std dev", "n"]
                .iter()
                .map(|h| h.to_string()),
        );
        if unit.is_none() {
            head.push("unit".into());
        }
        for row in &s.rows {
            let mut cells = vec![row.name.clone()];
            match row.summary(0) {
                Some(m) => {
                    let d = decimals(&row.unit, m.mean);
                    cells.push(ti(&row.unit, m));
                    cells.push(format!("{:.d$}", m.median));
                    cells.push(format!("{:.d$}", m.p95));
                    cells.push(format!("{:.d$}", m.stddev));
                    cells.push(m.n.to_string());
                }
                None => cells.extend(std::iter::repeat("-".to_string()).take(5)),
            }
            if unit.is_none() {
                cells.push(row.unit.clone());
            }
            rows.push(cells);
        }
    } else {
        head.extend(r.runs.iter().map(|x| x.name.clone()));
        if unit.is_none() {
            head.push("unit".into());
        }
        for row in &s.rows {
            let mut cells = vec![row.name.clone()];
            cells.extend((0..r.runs.len()).map(|i| {
                row.summary(i)
                    .map(|m| ti(&row.unit, m))
                    .unwrap_or_else(|| "-".into())
            }));
            if unit.is_none() {
                cells.push(row.unit.clone());
            }
            rows.push(cells);
        }
    }
    Table {
        title: s.title.clone(),
        note: s.note.clone(),
        head,
        rows,
    }
}

fn first_head(id: &str) -> &'static str {
    match id {
        "boot" => "Boot",
        "stages" | "console_bytes" | "console_ms" => "Stage",
        "quiet" => "Estimate",
        "bootstage" => "Record",
        "sbl" | "r5_spl" | "a_spl" => "Step",
        "initcalls" => "Initcall",
        "systemd" => "Unit",
        _ => "Metric",
    }
}

/// The failed cycles, if any.
pub fn failed(r: &Report) -> Option<Table> {
    let several = r.runs.len() > 1;
    let mut rows = Vec::new();
    for run in &r.runs {
        for (c, why) in &run.failed {
            let mut row = Vec::new();
            if several {
                row.push(run.name.clone());
            }
            row.push(c.to_string());
            row.push(why.clone());
            rows.push(row);
        }
    }
    if rows.is_empty() {
        return None;
    }
    let mut head = Vec::new();
    if several {
        head.push("Run".to_string());
    }
    head.push("Cycle".into());
    head.push("Reason".into());
    Some(Table {
        title: "Failed cycles".into(),
        note: "Cycles that did not reach the ready prompt; their figures are left out above."
            .into(),
        head,
        rows,
    })
}

/// The document title: the boards of the runs.
pub fn title(r: &Report) -> String {
    let mut boards: Vec<&str> = r.runs.iter().map(|x| x.board.as_str()).collect();
    boards.dedup();
    format!("Performance Guide: {}", boards.join(", "))
}
