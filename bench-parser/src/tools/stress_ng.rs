//! stress-ng: the `--metrics-brief` table (`stressor bogo ops real time ...`
//! on `info:` or `metrc:` log lines) and the `--yaml` report's `metrics:`.

use crate::collect::Collect;
use crate::error::Error;
use crate::model::{unit, Better, Parsed};
use crate::text::{after, lines, number, numbers};

pub const NAME: &str = "stress-ng";
pub const BOGO_OPS: &str = "bogo_ops";
pub const OPS_REAL: &str = "bogo_ops_per_sec_real";
pub const OPS_USR_SYS: &str = "bogo_ops_per_sec_usr_sys";
/// YAML keys and the metric each stands for.
const YAML: [(&str, &str); 3] = [
    ("bogo-ops:", BOGO_OPS),
    ("bogo-ops-per-second-real-time:", OPS_REAL),
    ("bogo-ops-per-second-usr-sys-time:", OPS_USR_SYS),
];

pub fn recognise(text: &str) -> bool {
    text.contains("stress-ng:")
        || text.contains("stress-ng-version")
        || text.contains("bogo-ops-per-second")
}

fn push(out: &mut Collect, stressor: &str, metric: &str, v: f64, no: u64) {
    let u = if metric == BOGO_OPS {
        unit::COUNT
    } else {
        unit::BOGO_OPS_S
    };
    out.push(
        &format!("{NAME}/{stressor}"),
        metric,
        v,
        u,
        Better::Higher,
        no,
    );
}

pub fn parse(text: &str) -> Result<Parsed, Error> {
    let mut out = Collect::start(NAME, recognise(text), text)?;
    let mut header: Option<u64> = None;
    let mut rows = 0;
    let mut stressor: Option<String> = None;
    for (no, line) in lines(text) {
        let t = line.trim();
        if let Some(name) = t.strip_prefix("- stressor:") {
            stressor = Some(name.trim().to_string());
            continue;
        }
        if let Some(s) = &stressor {
            if let Some((key, metric)) = YAML.iter().find(|(k, _)| t.starts_with(k)) {
                if let Some(v) = number(&t[key.len()..]) {
                    push(&mut out, s, metric, v, no);
                }
                continue;
            }
        }
        if t.contains("unsuccessful run") {
            out.warn(&format!("the run is not successful (line {no})"));
        }
        let Some(body) = t
            .starts_with("stress-ng:")
            .then(|| after(t, "] "))
            .flatten()
        else {
            continue;
        };
        if body.starts_with("stressor") && body.contains("bogo ops") {
            header = Some(no);
            continue;
        }
        if header.is_none() {
            continue;
        }
        let words: Vec<&str> = body.split_whitespace().collect();
        let v = numbers(body);
        if words.len() >= 7
            && number(words[0]).is_none()
            && v.len() + 1 >= words.len().min(7)
            && v.len() >= 6
        {
            push(&mut out, words[0], BOGO_OPS, v[0], no);
            push(&mut out, words[0], OPS_REAL, v[4], no);
            push(&mut out, words[0], OPS_USR_SYS, v[5], no);
            rows += 1;
        }
    }
    if let (Some(h), 0) = (header, rows) {
        out.truncated(h, "the first stressor row");
    }
    out.finish(text)
}
