//! fio: the normal report (`<job>: (groupid=...)`, `read: IOPS=..., BW=...`,
//! `clat (usec): ... avg=...`, fio 2.x `iops=`/`bw=` too) and
//! `--output-format=json`. Bandwidth in MiB/s, latency in microseconds.

use serde_json::Value;

use crate::collect::Collect;
use crate::error::Error;
use crate::model::{unit, Better, Parsed};
use crate::text::{after, lines, number, number_k};

pub const NAME: &str = "fio";
const DIRECTIONS: [&str; 3] = ["read", "write", "trim"];

pub fn recognise(text: &str) -> bool {
    text.contains("\"fio version\"")
        || (text.contains("groupid=") && text.contains("jobs="))
        || text.contains("Run status group")
}

/// `412MiB/s`, `421888KiB/s`, `1.2GiB/s`, `512B/s`, fio 2.x `423000KB/s` in MiB/s.
fn mib_s(tok: &str) -> Option<f64> {
    let tok = tok.trim().trim_end_matches(',');
    let (v, scale) = [
        ("GiB/s", 1024.0),
        ("MiB/s", 1.0),
        ("KiB/s", 1.0 / 1024.0),
        ("GB/s", 1e9 / 1048576.0),
        ("MB/s", 1e6 / 1048576.0),
        ("KB/s", 1.0 / 1024.0),
        ("kB/s", 1e3 / 1048576.0),
        ("B/s", 1.0 / 1048576.0),
    ]
    .iter()
    .find_map(|(suffix, scale)| tok.strip_suffix(suffix).map(|v| (v, *scale)))?;
    number(v).map(|v| v * scale)
}

/// A latency unit word (`nsec`, `usec`, `msec`) as a factor to microseconds.
fn to_us(unit_word: &str) -> Option<f64> {
    match unit_word {
        "nsec" => Some(1e-3),
        "usec" => Some(1.0),
        "msec" => Some(1e3),
        _ => None,
    }
}

/// The value of `key=` in a comma-separated field list.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    line.split([',', ' ', ':'])
        .find_map(|f| f.trim().strip_prefix(key))
}

pub fn parse(text: &str) -> Result<Parsed, Error> {
    let mut out = Collect::start(NAME, recognise(text), text)?;
    if let Some(at) = text
        .find("\n{")
        .map(|i| i + 1)
        .or_else(|| text.starts_with('{').then_some(0))
    {
        if text.contains("\"fio version\"") {
            json(text, at, &mut out);
            return out.finish(text);
        }
    }
    let mut job: Option<(String, u64, bool)> = None;
    let mut dir: Option<&str> = None;
    for (no, line) in lines(text) {
        let t = line.trim();
        if let Some((name, _)) = t.split_once(": (groupid=") {
            if let Some((j, at, false)) = &job {
                out.truncated(*at, &format!("the figures of job {j}"));
            }
            job = Some((name.trim().to_string(), no, false));
            dir = None;
            continue;
        }
        let Some((j, _, seen)) = &mut job else {
            continue;
        };
        let bench = format!("{NAME}/{j}");
        if let Some(d) = DIRECTIONS
            .iter()
            .find(|d| t.starts_with(&format!("{d}:")) || t.starts_with(&format!("{d} :")))
        {
            dir = Some(d);
            *seen = true;
            if let Some((v, k)) = field(t, "IOPS=")
                .or_else(|| field(t, "iops="))
                .and_then(number_k)
            {
                let v = if k { v * 1000.0 } else { v };
                out.push(
                    &bench,
                    &format!("{d}_iops"),
                    v,
                    unit::IOPS,
                    Better::Higher,
                    no,
                );
            }
            if let Some(v) = field(t, "BW=").or_else(|| field(t, "bw=")).and_then(mib_s) {
                out.push(
                    &bench,
                    &format!("{d}_bw"),
                    v,
                    unit::MIB_S,
                    Better::Higher,
                    no,
                );
            }
            continue;
        }
        let Some(d) = dir else { continue };
        for kind in ["clat", "lat"] {
            if let Some(rest) = t
                .strip_prefix(kind)
                .and_then(|r| r.trim_start().strip_prefix('('))
            {
                let (u, rest) = rest.split_once(')').unwrap_or(("", ""));
                if let (Some(f), Some(avg)) = (
                    to_us(u),
                    after(rest, "avg=").and_then(|a| number(a.split(',').next().unwrap_or(""))),
                ) {
                    out.push(
                        &bench,
                        &format!("{d}_{kind}_avg"),
                        avg * f,
                        unit::US,
                        Better::Lower,
                        no,
                    );
                }
            }
        }
    }
    if let Some((j, at, false)) = &job {
        out.truncated(*at, &format!("the figures of job {j}"));
    }
    out.finish(text)
}

fn json(text: &str, at: usize, out: &mut Collect) {
    let body = &text[at..];
    let offset = text[..at].bytes().filter(|&b| b == b'\n').count() as u64;
    let v: Value = match serde_json::from_str(body) {
        Ok(v) => v,
        Err(e) => {
            out.truncated(offset + e.line() as u64, "the end of the JSON document");
            return;
        }
    };
    for job in v["jobs"].as_array().map(Vec::as_slice).unwrap_or(&[]) {
        let Some(name) = job["jobname"].as_str() else {
            continue;
        };
        let bench = format!("{NAME}/{name}");
        let line = body.find(&format!("\"{name}\"")).map_or(offset + 1, |i| {
            offset + 1 + body[..i].bytes().filter(|&b| b == b'\n').count() as u64
        });
        for d in DIRECTIONS {
            let s = &job[d];
            if s["io_bytes"].as_f64().unwrap_or(0.0) <= 0.0
                && s["io_kbytes"].as_f64().unwrap_or(0.0) <= 0.0
            {
                continue;
            }
            if let Some(iops) = s["iops"].as_f64() {
                out.push(
                    &bench,
                    &format!("{d}_iops"),
                    iops,
                    unit::IOPS,
                    Better::Higher,
                    line,
                );
            }
            if let Some(bw) = s["bw"].as_f64() {
                out.push(
                    &bench,
                    &format!("{d}_bw"),
                    bw / 1024.0,
                    unit::MIB_S,
                    Better::Higher,
                    line,
                );
            }
            for kind in ["clat", "lat"] {
                if let Some(mean) = s[format!("{kind}_ns")]["mean"].as_f64() {
                    out.push(
                        &bench,
                        &format!("{d}_{kind}_avg"),
                        mean / 1000.0,
                        unit::US,
                        Better::Lower,
                        line,
                    );
                }
            }
        }
    }
}
