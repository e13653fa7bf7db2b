//! EEMBC CoreMark-PRO: a workload binary's own report
//! (`-- <workload>:workloads/sec= N`) and the `WORKLOAD RESULTS TABLE` /
//! `MARK RESULTS TABLE` of `make certify-all`.

use crate::collect::Collect;
use crate::error::Error;
use crate::model::{unit, Better, Parsed};
use crate::text::{self, lines, number, numbers};

pub const NAME: &str = "coremark-pro";
pub const MARK: &str = "CoreMark-PRO";
const PER_SEC: &str = ":workloads/sec=";
const WORKLOADS: &str = "WORKLOAD RESULTS TABLE";
const MARKS: &str = "MARK RESULTS TABLE";
/// The columns of both result tables, as metric name suffixes.
const COLUMNS: [&str; 3] = ["multicore", "singlecore", "scaling"];

pub fn recognise(text: &str) -> bool {
    text.contains(PER_SEC) || text.contains(WORKLOADS) || text.contains(MARKS)
}

#[derive(PartialEq)]
enum Table {
    None,
    Workloads,
    Marks,
}

pub fn parse(text: &str) -> Result<Parsed, Error> {
    let mut out = Collect::start(NAME, recognise(text), text)?;
    let last = text::last_line(text);
    let mut table = Table::None;
    let mut open: Option<String> = None;
    let mut saw_workloads = false;
    let mut saw_marks = false;
    for (no, line) in lines(text) {
        let t = line.trim();
        if t.contains(WORKLOADS) {
            table = Table::Workloads;
            saw_workloads = true;
            continue;
        }
        if t.contains(MARKS) {
            table = Table::Marks;
            saw_marks = true;
            continue;
        }
        if let Some(rest) = t.strip_prefix("-- Workload:") {
            open = Some(rest.split('=').next().unwrap_or("").to_string());
            continue;
        }
        if let Some(rest) = t.strip_prefix("-- ") {
            if let Some((name, v)) = rest.split_once(PER_SEC) {
                if let Some(v) = number(v) {
                    out.push(
                        &format!("{NAME}/{name}"),
                        name,
                        v,
                        unit::WORKLOADS_S,
                        Better::Higher,
                        no,
                    );
                    open = None;
                }
            }
            continue;
        }
        if table == Table::None {
            continue;
        }
        let words: Vec<&str> = t.split_whitespace().collect();
        let values = numbers(t);
        if words.len() == 4 && values.len() == 3 && number(words[0]).is_none() {
            let name = words[0];
            let u = if table == Table::Marks {
                unit::SCORE
            } else {
                unit::ITERATIONS_S
            };
            for (i, (col, v)) in COLUMNS.iter().zip(values).enumerate() {
                let u = if i == 2 { unit::RATIO } else { u };
                out.push(
                    &format!("{NAME}/{name}"),
                    &format!("{name}-{col}"),
                    v,
                    u,
                    Better::Higher,
                    no,
                );
            }
        }
    }
    if let Some(w) = open {
        out.truncated(last, &format!("the workloads/sec line of {w}"));
    }
    if saw_workloads && !saw_marks {
        out.truncated(last, MARKS);
    }
    out.finish(text)
}
