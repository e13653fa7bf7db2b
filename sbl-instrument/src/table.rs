//! Plain-text tables for people (the JSON forms are the contracts).

use std::fmt::Write;

use crate::media::Estimate;
use crate::model::{Component, HashStatus, Image};
use crate::patch::Change;
use crate::profile::{Extracted, ProfileMap};

fn addr(a: Option<u64>) -> String {
    a.map(|v| format!("{v:#x}")).unwrap_or_else(|| "-".into())
}

fn hash_cell(c: &Component) -> String {
    let sha = match c.sha512 {
        HashStatus::Ok => "ok",
        HashStatus::Mismatch => "MISMATCH",
        HashStatus::Absent => "-",
    };
    let others: Vec<String> = c
        .hashes
        .iter()
        .filter(|h| h.algo != "sha512")
        .map(|h| {
            format!(
                "{}:{}",
                h.algo,
                if h.status == "ok" {
                    "ok"
                } else {
                    h.status.as_str()
                }
            )
        })
        .collect();
    if others.is_empty() {
        sha.to_string()
    } else {
        format!("{sha} {}", others.join(","))
    }
}

/// The `inspect` table of one image.
pub fn inspect_table(img: &Image) -> String {
    let mut s = String::new();
    let r = &img.root;
    let _ = writeln!(s, "{}: {} ({} bytes)", img.path, r.format, r.size);
    let _ = writeln!(
        s,
        "  {:<36} {:<22} {:>10} {:>10} {:>12} {:>12}  HASH",
        "COMPONENT", "FORMAT", "OFFSET", "SIZE", "LOAD", "ENTRY"
    );
    let mut warnings = Vec::new();
    r.walk(&mut |c, depth| {
        for w in &c.warnings {
            warnings.push(format!("{}: {w}", c.name));
        }
        if depth == 0 {
            if c.entry.is_some() || c.load_addr.is_some() || !c.hashes.is_empty() {
                let _ = writeln!(
                    s,
                    "  {:<36} {:<22} {:>10} {:>10} {:>12} {:>12}  {}",
                    "(file)",
                    c.format,
                    "0x0",
                    c.size,
                    addr(c.load_addr),
                    addr(c.entry),
                    hash_cell(c)
                );
            }
            return;
        }
        let name = format!("{}{}", "  ".repeat(depth - 1), c.name);
        let _ = writeln!(
            s,
            "  {:<36} {:<22} {:>10} {:>10} {:>12} {:>12}  {}",
            name,
            c.format,
            format!("{:#x}", c.offset),
            c.size,
            addr(c.load_addr),
            addr(c.entry),
            hash_cell(c)
        );
    });
    for w in warnings {
        let _ = writeln!(s, "  warning: {w}");
    }
    s
}

/// The `estimate` table.
pub fn estimate_table(e: &Estimate) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "medium {} at {:.3} MB/s ({})",
        e.medium, e.rate_mbytes_s, e.basis
    );
    let _ = writeln!(
        s,
        "  {:<28} {:<28} {:>12} {:>12} {:>7}",
        "FILE", "COMPONENT", "SIZE", "EST. MS", "SHARE"
    );
    for r in &e.rows {
        let file = std::path::Path::new(&r.file)
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_else(|| r.file.clone());
        let _ = writeln!(
            s,
            "  {:<28} {:<28} {:>12} {:>12.3} {:>6.1}%",
            file,
            r.component,
            r.size,
            r.ms,
            r.share * 100.0
        );
    }
    let _ = writeln!(
        s,
        "  {:<28} {:<28} {:>12} {:>12.3} {:>6.1}%",
        "total", "", e.total_bytes, e.total_ms, 100.0
    );
    s
}

/// The `profile-map` table.
pub fn profile_map_table(m: &ProfileMap) -> String {
    let mut s = String::new();
    let flavor = match m.flavor {
        crate::profile::Flavor::Pdk => "TI PDK SBL (sblProfileLog)",
        crate::profile::Flavor::McuPlus => "TI MCU+ SBL (gProfileObj)",
    };
    let _ = writeln!(s, "{flavor}, ELF{} {}-endian", m.elf_class, m.endian);
    let _ = writeln!(
        s,
        "  entry size {} bytes, capacity {} entries",
        m.entry_size, m.capacity
    );
    for (name, loc) in &m.symbols {
        match loc {
            Some(l) => {
                let _ = writeln!(
                    s,
                    "  {:<28} {:#012x}  size {:>6}  {}",
                    name,
                    l.addr,
                    l.size,
                    l.section.as_deref().unwrap_or("-")
                );
            }
            None => {
                let _ = writeln!(s, "  {name:<28} (absent)");
            }
        }
    }
    if let Some(sec) = &m.profile_info_section {
        let _ = writeln!(
            s,
            "  section {} at {:#x}, {} bytes (file offset {:#x})",
            sec.name, sec.addr, sec.size, sec.offset
        );
    }
    if let Some(sz) = m.print_function_size {
        let _ = writeln!(
            s,
            "  print function: {sz} bytes{}",
            if sz <= 8 {
                " (looks empty: printing compiled out)"
            } else {
                ""
            }
        );
    }
    s
}

/// The `extract` table.
pub fn extract_table(x: &Extracted) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} entries{}{}",
        x.entries.len(),
        if x.overflow {
            ", log overflowed (oldest entries lost)"
        } else {
            ""
        },
        x.cpu_mhz.map(|m| format!(", {m} MHz")).unwrap_or_default()
    );
    let _ = writeln!(
        s,
        "  {:<40} {:>6} {:>12} {:>14}",
        "FXN", "LINE", "CYCLE", "TIMESTAMP_US"
    );
    for e in &x.entries {
        let _ = writeln!(
            s,
            "  {:<40} {:>6} {:>12} {:>14}",
            e.fxn,
            e.line.map(|l| l.to_string()).unwrap_or_else(|| "-".into()),
            e.cycle,
            e.timestamp_us
                .map(|t| t.to_string())
                .unwrap_or_else(|| "-".into())
        );
    }
    for w in &x.warnings {
        let _ = writeln!(s, "  warning: {w}");
    }
    s
}

/// The `patch` listing (also the dry run).
pub fn patch_table(changes: &[Change], dry_run: bool) -> String {
    let mut s = String::new();
    for c in changes {
        let _ = writeln!(
            s,
            "{}{} @ {:#x} ({}), file offset {:#x}: {} -> {} ({} byte(s) differ)",
            if dry_run { "would set " } else { "set " },
            c.symbol,
            c.addr,
            c.section,
            c.offset,
            c.old,
            c.new,
            c.bytes_changed
        );
    }
    s
}
