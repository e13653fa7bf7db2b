//! lmbench3: the single tools' output (`lat_syscall`, `lat_sig`, `lat_proc`,
//! `lat_ctx`, `lat_mem_rd`, `lat_fs`, `lat_ops`, `bw_mem`, `bw_tcp`, ...)
//! and the `results/<host>.<n>` file the `lmbench` script writes, which holds
//! the same lines under `"`-quoted section headers. Names as in TI's LMBench
//! tables (`lat_syscall-null`, `bw_mem-rd-1mb`, `lat_ctx-2-128k`).

use crate::collect::Collect;
use crate::error::Error;
use crate::model::{unit, Better, Parsed};
use crate::text::{self, lines, number, numbers, slug};

pub const NAME: &str = "lmbench";

/// `<label>: <value> microseconds|MB/sec` lines: label prefix, metric name.
const LABELS: &[(&str, &str)] = &[
    ("Simple syscall", "lat_syscall-null"),
    ("Simple read", "lat_syscall-read"),
    ("Simple write", "lat_syscall-write"),
    ("Simple stat", "lat_syscall-stat"),
    ("Simple fstat", "lat_syscall-fstat"),
    ("Simple open/close", "lat_syscall-open"),
    ("Signal handler installation", "lat_sig-install"),
    ("Signal handler overhead", "lat_sig-catch"),
    ("Protection fault", "lat_sig-prot"),
    ("Pipe latency", "lat_pipe"),
    ("AF_UNIX sock stream latency", "lat_unix"),
    ("Process fork+exit", "lat_proc-fork"),
    ("Process fork+execve", "lat_proc-exec"),
    ("Process fork+/bin/sh -c", "lat_proc-shell"),
    ("Procedure call", "lat_proc-proccall"),
    ("Semaphore latency", "lat_sem"),
    ("Pagefaults on", "lat_pagefault"),
    ("TCP latency using", "lat_tcp"),
    ("UDP latency using", "lat_udp"),
    ("TCP/IP connection cost to", "lat_connect"),
    ("RPC/tcp latency using", "lat_rpc-tcp"),
    ("RPC/udp latency using", "lat_rpc-udp"),
    ("Select on", "lat_select"),
    ("Pipe bandwidth", "bw_pipe"),
    ("AF_UNIX sock stream bandwidth", "bw_unix"),
];

/// Section headers of the results file whose `<size> <MB/s>` lines are
/// bandwidths, and the metric prefix they stand for (lmbench's `scripts/lmbench`;
/// some headers start with `"`, the `Memory ...` ones do not).
const SECTIONS: &[(&str, &str)] = &[
    ("libc bcopy unaligned", "bw_mem-bcopy"),
    ("libc bcopy aligned", "bw_mem-bcopy_aligned"),
    ("unrolled bcopy unaligned", "bw_mem-fcp"),
    ("unrolled partial bcopy unaligned", "bw_mem-cp"),
    ("Memory read bandwidth", "bw_mem-frd"),
    ("Memory partial read bandwidth", "bw_mem-rd"),
    ("Memory write bandwidth", "bw_mem-fwr"),
    ("Memory partial write bandwidth", "bw_mem-wr"),
    ("Memory partial read/write bandwidth", "bw_mem-rdwr"),
    ("Memory bzero bandwidth", "bw_mem-bzero"),
    ("read bandwidth", "bw_file_rd-io"),
    ("read open2close bandwidth", "bw_file_rd-o2c"),
    ("Mmap read bandwidth", "bw_mmap_rd-mo"),
    ("Mmap read open2close bandwidth", "bw_mmap_rd-o2c"),
    ("mappings", "lat_mmap"),
];

/// Tools whose output is `<size> <value>` pairs, named from their command line.
const PAIR_TOOLS: &[&str] = &["bw_mem", "bw_file_rd", "bw_mmap_rd", "bw_tcp", "lat_mmap"];

/// What the `<a> <b>` number pairs under the current heading mean.
#[derive(Debug, Clone, PartialEq)]
enum Section {
    None,
    /// A bandwidth (or `lat_mmap`) series: metric prefix.
    Sized(String),
    /// `"size=<n>k ovr=<o>`: lat_ctx with this working set.
    Ctx(String),
    /// `"stride=<n>`: lat_mem_rd with this stride.
    MemRd(String),
    /// `bw_tcp` (one `<MB> <MB/s> MB/sec` line).
    Tcp,
    /// `lat_fs` (`<size>k <files> <creates/s> <deletes/s>`).
    Fs,
}

pub fn recognise(text: &str) -> bool {
    text.contains("lmbench")
        || text.contains("\"size=")
        || text.contains("\"stride=")
        || PAIR_TOOLS.iter().any(|t| text.contains(t))
        || lines(text).any(|(_, l)| label(l.trim()).is_some())
}

/// The metric of a `<label>: <value> <unit>` line.
fn label(t: &str) -> Option<&'static str> {
    let (head, _) = t.rsplit_once(':')?;
    LABELS
        .iter()
        .find(|(p, _)| {
            head.starts_with(p) && (head.len() == p.len() || head.as_bytes()[p.len()] == b' ')
        })
        .map(|(_, m)| *m)
}

/// `1.048576` (10^6 bytes) as a size label: `1mb`, `512kb`, `64b`.
fn size_label(mb: f64) -> String {
    let bytes = mb * 1e6;
    if bytes >= 1048576.0 {
        format!("{}mb", (bytes / 1048576.0).round())
    } else if bytes >= 1024.0 {
        format!("{}kb", (bytes / 1024.0).round())
    } else {
        format!("{}b", bytes.round())
    }
}

/// `0.00049` (MiB) as a lat_mem_rd size label: `0.5k`, `1024k`.
fn kib_label(mib: f64) -> String {
    let k = mib * 1024.0;
    if k < 1.0 {
        format!("{:.1}k", k)
    } else {
        format!("{}k", k.round())
    }
}

/// The section a command line (`$ ./bin/bw_mem -P 1 1m rd`) opens, if it runs a pair tool.
fn command(t: &str) -> Option<Section> {
    let words: Vec<&str> = t.split_whitespace().collect();
    let at = words
        .iter()
        .position(|w| PAIR_TOOLS.contains(&w.rsplit('/').next().unwrap_or(w)))?;
    let tool = words[at].rsplit('/').next().unwrap_or(words[at]);
    let mut args = Vec::new();
    let mut i = at + 1;
    while i < words.len() {
        if words[i].starts_with('-') {
            i += if words[i].len() == 2 { 2 } else { 1 };
            continue;
        }
        args.push(words[i]);
        i += 1;
    }
    if tool == "bw_tcp" && words.iter().any(|w| *w == "-s" || *w == "-S") {
        return Some(Section::None);
    }
    let op = |a: Option<&&str>| a.map(|s| s.to_string()).unwrap_or_default();
    Some(match tool {
        "bw_mem" => Section::Sized(format!("bw_mem-{}", op(args.get(1)))),
        "bw_file_rd" => Section::Sized(match args.get(1).copied() {
            Some("open2close") => "bw_file_rd-o2c".to_string(),
            _ => "bw_file_rd-io".to_string(),
        }),
        "bw_mmap_rd" => Section::Sized(match args.get(1).copied() {
            Some("open2close") => "bw_mmap_rd-o2c".to_string(),
            _ => "bw_mmap_rd-mo".to_string(),
        }),
        "lat_mmap" => Section::Sized("lat_mmap".to_string()),
        _ => Section::Tcp,
    })
}

pub fn parse(text: &str) -> Result<Parsed, Error> {
    let mut out = Collect::start(NAME, recognise(text), text)?;
    let last = text::last_line(text);
    let mut section = Section::None;
    let mut pairs_in_section = 0usize;
    for (no, line) in lines(text) {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if let Some(s) = opens(t) {
            section = s;
            pairs_in_section = 0;
            continue;
        }
        if labelled(&mut out, t, no) || lat_ops(&mut out, t, no) {
            continue;
        }
        let words: Vec<&str> = t.split_whitespace().collect();
        if section == Section::Fs && words.len() == 4 {
            if fs_row(&mut out, &words, no) {
                pairs_in_section += 1;
            }
            continue;
        }
        let n = numbers(t);
        let pair = n.len() == 2 && (words.len() == 2 || (words.len() == 3 && words[2] == "MB/sec"));
        if !pair {
            continue;
        }
        pairs_in_section += 1;
        pair_row(&mut out, &section, (n[0], n[1]), words.len() == 3, no);
    }
    if pairs_in_section == 0 && section != Section::None {
        out.truncated(last, "the figures of its last section");
    }
    out.finish(text)
}

/// The section a heading or a command line opens (`None`: the line opens none).
fn opens(t: &str) -> Option<Section> {
    if let Some(h) = t.strip_prefix('"') {
        Some(if let Some(rest) = h.strip_prefix("size=") {
            Section::Ctx(rest.split_whitespace().next().unwrap_or("").to_string())
        } else if let Some(rest) = h.strip_prefix("stride=") {
            Section::MemRd(rest.trim().to_string())
        } else if h.starts_with("File system latency") {
            Section::Fs
        } else if let Some((_, p)) = SECTIONS.iter().find(|(s, _)| *s == h) {
            Section::Sized(p.to_string())
        } else {
            Section::None
        })
    } else if let Some((_, p)) = SECTIONS.iter().find(|(s, _)| *s == t) {
        // The `Memory ... bandwidth` headers have no leading quote.
        Some(Section::Sized(p.to_string()))
    } else if t.starts_with("Socket bandwidth using") {
        Some(Section::Sized("bw_tcp".to_string()))
    } else if let Some(s) = command(t) {
        Some(s)
    } else if t.split_whitespace().any(|w| w.ends_with("lat_fs")) {
        Some(Section::Fs)
    } else if t.starts_with('$') || t.starts_with('#') || t.contains("# ") {
        Some(Section::None)
    } else {
        None
    }
}

/// A `label: value unit` line of a named benchmark; whether the line was one.
fn labelled(out: &mut Collect, t: &str, no: u64) -> bool {
    let Some(metric) = label(t) else {
        return false;
    };
    let (head, rest) = t.rsplit_once(':').unwrap_or((t, ""));
    let mut w = rest.split_whitespace();
    match (w.next().and_then(number), w.next()) {
        (Some(v), Some("MB/sec")) => out.push(
            &format!("{NAME}/{metric}"),
            metric,
            v,
            unit::MB_S,
            Better::Higher,
            no,
        ),
        (Some(v), _) => {
            let name = if metric == "lat_select" {
                format!(
                    "{metric}-{}",
                    slug(&head.trim_start_matches("Select on ").replace("fd's", ""))
                )
            } else {
                metric.to_string()
            };
            out.push(
                &format!("{NAME}/{name}"),
                &name,
                v,
                unit::US,
                Better::Lower,
                no,
            )
        }
        (None, _) => out.truncated(no, metric),
    }
    true
}

/// A `name: value nanoseconds` line of lat_ops; whether the line was one.
fn lat_ops(out: &mut Collect, t: &str, no: u64) -> bool {
    let Some((name, rest)) = t.rsplit_once(':') else {
        return false;
    };
    let mut w = rest.split_whitespace();
    let (Some(v), Some("nanoseconds")) = (w.next().and_then(number), w.next()) else {
        return false;
    };
    let m = format!("lat_ops-{}", slug(name));
    out.push(
        &format!("{NAME}/lat_ops"),
        &m,
        v,
        unit::NS,
        Better::Lower,
        no,
    );
    true
}

/// A row of lat_fs: size, files, creations and deletions a second; whether it held figures.
fn fs_row(out: &mut Collect, words: &[&str], no: u64) -> bool {
    let size = words[0];
    let (Some(_), [Some(c), Some(d)]) = (
        number(size.trim_end_matches('k')),
        [number(words[2]), number(words[3])],
    ) else {
        return false;
    };
    let b = format!("{NAME}/lat_fs");
    out.push(
        &b,
        &format!("lat_fs-create-{size}"),
        c,
        unit::FILES_S,
        Better::Higher,
        no,
    );
    out.push(
        &b,
        &format!("lat_fs-delete-{size}"),
        d,
        unit::FILES_S,
        Better::Higher,
        no,
    );
    true
}

/// A pair of figures (`a b`, or `a b MB/sec` of bw_tcp) read in the section it is in.
fn pair_row(out: &mut Collect, section: &Section, (a, b): (f64, f64), tcp: bool, no: u64) {
    match section {
        Section::Ctx(size) => {
            let m = format!("lat_ctx-{}-{size}", a.round());
            out.push(&format!("{NAME}/{m}"), &m, b, unit::US, Better::Lower, no);
        }
        Section::MemRd(stride) => {
            let bench = format!("{NAME}/lat_mem_rd-stride{stride}");
            let m = format!("lat_mem_rd-stride{stride}-{}", kib_label(a));
            out.push(&bench, &m, b, unit::NS, Better::Lower, no);
        }
        Section::Sized(p) if p == "lat_mmap" => {
            let m = format!("lat_mmap-{}", size_label(a).trim_end_matches('b'));
            out.push(&format!("{NAME}/{m}"), &m, b, unit::US, Better::Lower, no);
        }
        Section::Sized(p) => {
            let m = format!("{p}-{}", size_label(a));
            out.push(
                &format!("{NAME}/{m}"),
                &m,
                b,
                unit::MB_S,
                Better::Higher,
                no,
            );
        }
        Section::Tcp | Section::None | Section::Fs if tcp => {
            out.push(
                &format!("{NAME}/bw_tcp"),
                "bw_tcp",
                b,
                unit::MB_S,
                Better::Higher,
                no,
            );
        }
        _ => out.warn(&format!(
            "a figure pair with no heading naming it (line {no})"
        )),
    }
}
