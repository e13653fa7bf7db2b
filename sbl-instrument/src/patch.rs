//! Change initialised data of an ELF by symbol (`patch --set SYMBOL=VALUE`): log levels,
//! enable flags, small tables. Each change is checked (the symbol exists, lives in a
//! file-backed section, the value fits its size) before any byte is written; the result goes
//! to a new file or replaces the input atomically.

use std::fs;
use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::bytes::{add, hex};
use crate::elf::ElfInfo;
use crate::error::{Error, Result};

/// A value to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// An integer (decimal, `0x` hex, `0b` binary, `0o` octal, optionally negative); stored in
    /// the ELF's byte order with the symbol's size (1, 2, 4 or 8 bytes).
    Int(i128),
    /// Raw bytes (`hex:0a0b...`), written from the symbol's start; must not exceed its size.
    Bytes(Vec<u8>),
    /// A string (`str:text`), written NUL-terminated and zero-padded to the symbol's size.
    Str(String),
}

/// One `SYMBOL=VALUE` assignment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assignment {
    /// Symbol name.
    pub symbol: String,
    /// Value.
    pub value: Value,
}

impl std::str::FromStr for Assignment {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        let (sym, val) = s
            .split_once('=')
            .ok_or_else(|| Error::Invalid(format!("--set {s}: expected SYMBOL=VALUE")))?;
        if sym.is_empty() {
            return Err(Error::Invalid(format!("--set {s}: empty symbol name")));
        }
        Ok(Assignment {
            symbol: sym.to_string(),
            value: parse_value(val)?,
        })
    }
}

/// Parse a VALUE of `--set`.
pub fn parse_value(v: &str) -> Result<Value> {
    if let Some(h) = v.strip_prefix("hex:") {
        let h: String = h
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '_')
            .collect();
        if h.len() & 1 != 0 || h.is_empty() {
            return Err(Error::Invalid(format!(
                "value {v}: hex needs an even, non-zero number of digits"
            )));
        }
        let bytes = (0..h.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&h[i..i + 2], 16))
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(|e| Error::Invalid(format!("value {v}: {e}")))?;
        return Ok(Value::Bytes(bytes));
    }
    if let Some(s) = v.strip_prefix("str:") {
        return Ok(Value::Str(s.to_string()));
    }
    let (neg, body) = match v.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, v),
    };
    let body = body.replace('_', "");
    let (radix, digits) =
        if let Some(d) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
            (16, d)
        } else if let Some(d) = body.strip_prefix("0b") {
            (2, d)
        } else if let Some(d) = body.strip_prefix("0o") {
            (8, d)
        } else {
            (10, body.as_str())
        };
    let n = u128::from_str_radix(digits, radix).map_err(|e| {
        Error::Invalid(format!(
            "value {v}: {e} (use an integer, hex:BYTES or str:TEXT)"
        ))
    })?;
    if n > i128::MAX as u128 {
        return Err(Error::Invalid(format!("value {v}: too large")));
    }
    let n = n as i128;
    Ok(Value::Int(if neg { -n } else { n }))
}

/// One planned change: where, and the bytes before and after.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Change {
    /// Symbol.
    pub symbol: String,
    /// Symbol address.
    pub addr: u64,
    /// Section holding it.
    pub section: String,
    /// File offset of the first byte written.
    pub offset: u64,
    /// Bytes there now, hex.
    pub old: String,
    /// Bytes to be written, hex.
    pub new: String,
    /// Number of bytes that actually differ.
    pub bytes_changed: usize,
}

fn encode(value: &Value, size: u64, little: bool, symbol: &str) -> Result<Vec<u8>> {
    match value {
        Value::Int(n) => {
            if !matches!(size, 1 | 2 | 4 | 8) {
                return Err(Error::Invalid(format!(
                    "{symbol}: {size} bytes; an integer fits a 1, 2, 4 or 8-byte symbol (use hex: or str:)"
                )));
            }
            let bits = 8 * size as u32;
            let min = -(1i128 << (bits - 1));
            let max = (1i128 << bits) - 1;
            if *n < min || *n > max {
                return Err(Error::Invalid(format!(
                    "{symbol}: value {n} does not fit {size} bytes ({min}..={max})"
                )));
            }
            let raw = (*n as u128) & ((1u128 << bits) - 1);
            let le = raw.to_le_bytes();
            let mut b = le[..size as usize].to_vec();
            if !little {
                b.reverse();
            }
            Ok(b)
        }
        Value::Bytes(b) => {
            if b.len() as u64 > size {
                return Err(Error::Invalid(format!(
                    "{symbol}: {} bytes given, symbol is {size}",
                    b.len()
                )));
            }
            Ok(b.clone())
        }
        Value::Str(s) => {
            if s.len() as u64 + 1 > size {
                return Err(Error::Invalid(format!(
                    "{symbol}: string of {} bytes plus NUL does not fit {size} bytes",
                    s.len()
                )));
            }
            let mut b = s.as_bytes().to_vec();
            b.resize(size as usize, 0);
            Ok(b)
        }
    }
}

/// Check every assignment against the ELF in `data` and return the planned changes.
pub fn plan(data: &[u8], sets: &[Assignment]) -> Result<Vec<Change>> {
    let names: Vec<&str> = sets.iter().map(|a| a.symbol.as_str()).collect();
    let info = ElfInfo::from_bytes(data, &names)?;
    let mut changes: Vec<Change> = Vec::new();
    for a in sets {
        let sym = info
            .symbols
            .get(&a.symbol)
            .ok_or_else(|| Error::SymbolNotFound(a.symbol.clone()))?;
        if sym.size == 0 {
            return Err(Error::Invalid(format!("{}: symbol has size 0", a.symbol)));
        }
        let sec = info
            .sections
            .get(usize::from(sym.shndx))
            .filter(|_| sym.shndx < object::elf::SHN_LORESERVE)
            .ok_or_else(|| {
                Error::Invalid(format!(
                    "{}: not defined in a section (shndx {})",
                    a.symbol, sym.shndx
                ))
            })?;
        if !sec.file_backed() {
            return Err(Error::Invalid(format!(
                "{}: in section {} which has no bytes in the file (SHT_NOBITS); it is zeroed at boot, not patchable",
                a.symbol, sec.name
            )));
        }
        let rel = if info.e_type == object::elf::ET_REL {
            Some(sym.value)
        } else {
            sym.value.checked_sub(sec.addr)
        };
        let Some(rel) = rel.filter(|r| *r <= sec.size && sym.size <= sec.size - r) else {
            return Err(Error::malformed(
                format!("ELF symbol {}", a.symbol),
                sec.offset,
                format!(
                    "{:#x}+{} lies outside section {}",
                    sym.value, sym.size, sec.name
                ),
            ));
        };
        let st = format!("ELF symbol {}", a.symbol);
        let offset = add(sec.offset, rel, &st, sec.offset)?;
        let end = add(offset, sym.size, &st, offset)?;
        let old = usize::try_from(offset)
            .ok()
            .zip(usize::try_from(end).ok())
            .and_then(|(o, e)| data.get(o..e))
            .ok_or_else(|| {
                Error::truncated(
                    format!("ELF symbol {} data", a.symbol),
                    offset,
                    sym.size,
                    (data.len() as u64).saturating_sub(offset),
                )
            })?;
        let new = encode(&a.value, sym.size, info.little_endian, &a.symbol)?;
        let old = &old[..new.len()];
        if let Some(prev) = changes.iter().find(|c| {
            let e = c.offset + c.new.len() as u64 / 2;
            offset < e && c.offset < offset + new.len() as u64
        }) {
            return Err(Error::Invalid(format!(
                "{} overlaps {} set earlier",
                a.symbol, prev.symbol
            )));
        }
        changes.push(Change {
            symbol: a.symbol.clone(),
            addr: sym.value,
            section: sec.name.clone(),
            offset,
            old: hex(old),
            new: hex(&new),
            bytes_changed: old.iter().zip(&new).filter(|(x, y)| x != y).count(),
        });
    }
    Ok(changes)
}

/// Apply planned changes to a copy of `data`.
pub fn apply(data: &[u8], changes: &[Change]) -> Vec<u8> {
    let mut out = data.to_vec();
    for c in changes {
        let bytes: Vec<u8> = (0..c.new.len() / 2)
            .filter_map(|i| u8::from_str_radix(&c.new[2 * i..2 * i + 2], 16).ok())
            .collect();
        let o = c.offset as usize;
        if let Some(dst) = out.get_mut(o..o + bytes.len()) {
            dst.copy_from_slice(&bytes);
        }
    }
    out
}

/// Patch the ELF at `input`: write the result to `output`, or replace `input` atomically
/// (temporary file in the same directory, fsync, rename) when `output` is `None`.
/// With `dry_run`, only the planned changes are returned.
pub fn patch_file(
    input: &Path,
    output: Option<&Path>,
    sets: &[Assignment],
    dry_run: bool,
) -> Result<Vec<Change>> {
    let data = fs::read(input).map_err(|e| Error::io(input, e))?;
    let changes = plan(&data, sets).map_err(|e| e.in_file(input))?;
    if dry_run {
        return Ok(changes);
    }
    let out = apply(&data, &changes);
    let target = output.unwrap_or(input);
    write_atomic(target, &out, input)?;
    Ok(changes)
}

fn write_atomic(target: &Path, bytes: &[u8], perms_from: &Path) -> Result<()> {
    let dir = target
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.sbl-instrument.{}.tmp", std::process::id()));
    let res = (|| -> std::io::Result<()> {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        if let Ok(m) = fs::metadata(perms_from) {
            f.set_permissions(m.permissions())?;
        }
        f.sync_all()?;
        fs::rename(&tmp, target)?;
        if let Ok(d) = fs::File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if let Err(e) = res {
        let _ = fs::remove_file(&tmp);
        return Err(Error::io(target, e));
    }
    Ok(())
}
