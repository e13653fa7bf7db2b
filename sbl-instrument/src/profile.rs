//! SBL boot-time profile logs: where they are in an SBL ELF (`profile-map`) and how to decode
//! them from a RAM dump (`extract`).
//!
//! * TI PDK SBL (`packages/ti/boot/sbl`): `sblProfileInfo_t sblProfileLog[MAX_PROFILE_LOG_ENTRIES]`
//!   with entries `{u8 *fxn; u32 line; u32 cycle_cnt}` (12 bytes on the R5F), the counters
//!   `sblProfileLogIndx` and `sblProfileLogOvrFlw`, and the exported pointers
//!   `sblProfileLog{,Indx,OvrFlw}Addr` in section `.sbl_profile_info`.
//! * TI MCU+ SDK SBL: `Bootloader_ProfileObject gProfileObj = {u32 logIndex;
//!   {char *pName; u32 cycleCount} info[32]; u32 appimageSize, bootMediaID, bootMediaClk,
//!   numCores; u8 coresPresent[]}`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::bytes::mul;
use crate::elf::{ElfInfo, Symbol};
use crate::error::{Error, Result};

/// Symbols of the PDK profile log.
pub const PDK_SYMBOLS: &[&str] = &[
    "sblProfileLog",
    "sblProfileLogIndx",
    "sblProfileLogOvrFlw",
    "sblProfileLogAddr",
    "sblProfileLogIndxAddr",
    "sblProfileLogOvrFlwAddr",
    "SBL_printProfileLog",
    "SBL_LogCycleCount",
];
/// Symbols of the MCU+ profile object.
pub const MCU_SYMBOLS: &[&str] = &["gProfileObj", "Bootloader_profilePrintProfileLog"];
/// `BOOTLOADER_PROFILE_MAX_LOGS` of the MCU+ SDK.
pub const MCU_MAX_LOGS: u64 = 32;
/// Name of the PDK section holding the exported pointers.
pub const PROFILE_INFO_SECTION: &str = ".sbl_profile_info";

/// Which SBL the ELF is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Flavor {
    /// TI PDK SBL.
    #[serde(rename = "pdk")]
    Pdk,
    /// TI MCU+ SDK SBL.
    #[serde(rename = "mcu+")]
    McuPlus,
}

/// Address and size of a symbol.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SymbolLoc {
    /// Address (`st_value`).
    pub addr: u64,
    /// Size (`st_size`).
    pub size: u64,
    /// Section holding it.
    pub section: Option<String>,
}

/// Address, size and file offset of a section.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SectionLoc {
    /// Name.
    pub name: String,
    /// `sh_addr`.
    pub addr: u64,
    /// `sh_size`.
    pub size: u64,
    /// `sh_offset`.
    pub offset: u64,
}

/// Where the profile log is, from the SBL ELF (`profile-map`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProfileMap {
    /// `pdk` or `mcu+`.
    pub flavor: Flavor,
    /// 32 or 64.
    pub elf_class: u8,
    /// `little` or `big`.
    pub endian: String,
    /// Bytes per log entry (12 for the PDK on a 32-bit core; 8 for MCU+ on a 32-bit core).
    pub entry_size: u64,
    /// Entries the log holds.
    pub capacity: u64,
    /// Offset of the first entry inside the log symbol.
    pub entries_offset: u64,
    /// The profile symbols found (a missing one is `null`).
    pub symbols: BTreeMap<String, Option<SymbolLoc>>,
    /// `.sbl_profile_info` (PDK), when present.
    pub profile_info_section: Option<SectionLoc>,
    /// Whether the print function has a body (it is empty when the SBL was built without
    /// `SBL_DISPLAY_PROFILE_INFO`): `null` when the function is not in the symbol table.
    pub print_function_size: Option<u64>,
}

fn loc(info: &ElfInfo, s: &Symbol) -> SymbolLoc {
    SymbolLoc {
        addr: s.value,
        size: s.size,
        section: info
            .sections
            .get(usize::from(s.shndx))
            .map(|x| x.name.clone()),
    }
}

fn all_symbols() -> Vec<&'static str> {
    PDK_SYMBOLS.iter().chain(MCU_SYMBOLS).copied().collect()
}

fn align(x: u64, a: u64) -> u64 {
    x.div_ceil(a) * a
}

/// Locate the profile log in an SBL ELF given as bytes.
pub fn profile_map(elf_data: &[u8]) -> Result<(ProfileMap, ElfInfo)> {
    let info = ElfInfo::from_bytes(elf_data, &all_symbols())?;
    let ptr = info.ptr_size() as u64;
    let (flavor, names, entry_size, capacity, entries_offset, print) = if let Some(log) =
        info.symbols.get("sblProfileLog")
    {
        let es = align(ptr + 8, ptr);
        (
            Flavor::Pdk,
            PDK_SYMBOLS,
            es,
            log.size / es,
            0,
            "SBL_printProfileLog",
        )
    } else if let Some(obj) = info.symbols.get("gProfileObj") {
        let es = align(ptr + 4, ptr);
        let off = align(4, ptr);
        if obj.size != 0 && obj.size < off + es * MCU_MAX_LOGS {
            return Err(Error::Unsupported(format!(
                "gProfileObj is {} bytes, too small for {MCU_MAX_LOGS} entries",
                obj.size
            )));
        }
        (
            Flavor::McuPlus,
            MCU_SYMBOLS,
            es,
            MCU_MAX_LOGS,
            off,
            "Bootloader_profilePrintProfileLog",
        )
    } else {
        return Err(Error::Unsupported(
                "neither sblProfileLog (TI PDK SBL) nor gProfileObj (MCU+ SBL) is in the ELF symbol table".into(),
            ));
    };
    let symbols = names
        .iter()
        .map(|n| (n.to_string(), info.symbols.get(*n).map(|s| loc(&info, s))))
        .collect();
    let profile_info_section = info
        .sections
        .iter()
        .find(|s| s.name == PROFILE_INFO_SECTION)
        .map(|s| SectionLoc {
            name: s.name.clone(),
            addr: s.addr,
            size: s.size,
            offset: s.offset,
        });
    let map = ProfileMap {
        flavor,
        elf_class: info.bits,
        endian: if info.little_endian {
            "little".into()
        } else {
            "big".into()
        },
        entry_size,
        capacity,
        entries_offset,
        symbols,
        profile_info_section,
        print_function_size: info.symbols.get(print).map(|s| s.size),
    };
    Ok((map, info))
}

/// One decoded profile point (the `extract --format json` entry contract).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// Function name (PDK: `__func__` of the caller) or step name (MCU+); `0x...` when the
    /// pointer does not resolve to a string in the ELF.
    pub fxn: String,
    /// Source line (PDK); `null` for MCU+.
    pub line: Option<u32>,
    /// Cycle counter value.
    pub cycle: u64,
    /// `cycle / cycles-per-µs` (integer, as the SBL prints it); `null` without `--cpu-mhz`.
    pub timestamp_us: Option<u64>,
}

/// A point in the console parser's `sbl_profile` shape: the same type, so a boot timeline can
/// take its SBL profile from the console or from a RAM dump.
pub use bootlog_parser::model::SblPoint;

/// The `extract --format json` document: `entries` and `overflow` are the contract.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Extracted {
    /// Profile points in the order they were recorded (oldest first, also after a wrap).
    pub entries: Vec<Entry>,
    /// The log wrapped: older points were overwritten.
    pub overflow: bool,
    /// `pdk` or `mcu+`.
    pub flavor: Flavor,
    /// Core clock used for `timestamp_us`, MHz.
    pub cpu_mhz: Option<f64>,
    /// The same points in the console parser's `sbl_profile` shape.
    pub sbl_profile: Vec<SblPoint>,
    /// First to last point, µs (MCU+ "SBL Total Time Taken"), when `cpu_mhz` is known.
    pub sbl_total_us: Option<u64>,
    /// MCU+ header fields (`appimage_size`, `boot_media_id`, `boot_media_clk`, `num_cores`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub extra: BTreeMap<String, u64>,
    /// Inconsistencies found in the dump.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

struct Dump<'a> {
    data: &'a [u8],
    base: u64,
}

impl Dump<'_> {
    fn contains(&self, addr: u64, len: u64) -> bool {
        addr >= self.base
            && (addr - self.base)
                .checked_add(len)
                .is_some_and(|end| end <= self.data.len() as u64)
    }
    fn read(&self, addr: u64, len: u64, what: &str) -> Result<&[u8]> {
        if addr < self.base {
            return Err(Error::Invalid(format!(
                "RAM dump: {what} at {addr:#x} is below the dump base {:#x}",
                self.base
            )));
        }
        let off = addr - self.base;
        let avail = (self.data.len() as u64).saturating_sub(off);
        if off > self.data.len() as u64 || len > avail {
            return Err(Error::truncated(
                format!("RAM dump: {what} (address {addr:#x})"),
                off,
                len,
                avail,
            ));
        }
        Ok(&self.data[off as usize..(off + len) as usize])
    }
}

fn ts(cycle: u64, mhz: Option<f64>) -> Option<u64> {
    // The SBL divides by an integer cycles-per-µs; do the same when the clock is integral.
    mhz.filter(|m| *m > 0.0).map(|m| {
        if m.fract() == 0.0 {
            cycle / (m as u64)
        } else {
            (cycle as f64 / m).floor() as u64
        }
    })
}

/// Decode the profile log from `dump` (RAM starting at address `base`) using the SBL ELF.
pub fn extract(elf_data: &[u8], dump: &[u8], base: u64, cpu_mhz: Option<f64>) -> Result<Extracted> {
    if let Some(m) = cpu_mhz {
        if !(m.is_finite() && m > 0.0) {
            return Err(Error::Invalid(format!(
                "--cpu-mhz {m}: must be a positive number"
            )));
        }
    }
    let (map, info) = profile_map(elf_data)?;
    let c = Decoder {
        map: &map,
        info: &info,
        elf: elf_data,
        d: Dump { data: dump, base },
        cpu_mhz,
    };
    let mut out = Extracted {
        entries: Vec::new(),
        overflow: false,
        flavor: map.flavor,
        cpu_mhz,
        sbl_profile: Vec::new(),
        sbl_total_us: None,
        extra: BTreeMap::new(),
        warnings: Vec::new(),
    };
    match map.flavor {
        Flavor::Pdk => extract_pdk(&c, &mut out)?,
        Flavor::McuPlus => extract_mcu_plus(&c, &mut out)?,
    }
    Ok(out)
}

/// What decoding a dump needs: the log's layout, the ELF and its symbols, the dump, the
/// CPU clock.
struct Decoder<'a> {
    map: &'a ProfileMap,
    info: &'a ElfInfo,
    elf: &'a [u8],
    d: Dump<'a>,
    cpu_mhz: Option<f64>,
}

impl Decoder<'_> {
    /// A word of `n` bytes at the start of `b`, in the ELF's byte order (0 when short).
    fn word(&self, b: &[u8], n: usize) -> u64 {
        self.info.read_word(b, n).unwrap_or(0)
    }

    /// The string a pointer points at in the ELF, or the pointer in hex.
    fn resolve(&self, p: u64) -> String {
        self.info
            .string_at(self.elf, p)
            .unwrap_or_else(|| format!("{p:#x}"))
    }

    /// A symbol of the log, if the ELF has it.
    fn sym(&self, n: &str) -> Option<SymbolLoc> {
        self.map.symbols.get(n).cloned().flatten()
    }
}

/// The PDK SBL's log: `sblProfileLog` entries (function, line, cycle), its index and
/// overflow flag.
fn extract_pdk(c: &Decoder<'_>, out: &mut Extracted) -> Result<()> {
    let ptr = c.info.ptr_size();
    let log = c
        .sym("sblProfileLog")
        .ok_or_else(|| Error::SymbolNotFound("sblProfileLog".into()))?;
    let cap = c.map.capacity;
    let log_len = mul(cap, c.map.entry_size, "sblProfileLog (capacity)", log.addr)?;
    let bytes = c.d.read(log.addr, log_len, "sblProfileLog")?;
    let read_u32 = |name: &str, out: &mut Extracted| -> Option<u64> {
        let s = c.sym(name)?;
        if !c.d.contains(s.addr, 4) {
            out.warnings
                .push(format!("{name} at {:#x} is outside the dump", s.addr));
            return None;
        }
        c.d.read(s.addr, 4, name).ok().map(|b| c.word(b, 4))
    };
    let indx = read_u32("sblProfileLogIndx", out);
    let ovf = read_u32("sblProfileLogOvrFlw", out);
    // The exported pointers, when the dump holds them, must point at the log.
    for (pname, target) in [
        ("sblProfileLogAddr", Some(log.addr)),
        (
            "sblProfileLogIndxAddr",
            c.sym("sblProfileLogIndx").map(|s| s.addr),
        ),
        (
            "sblProfileLogOvrFlwAddr",
            c.sym("sblProfileLogOvrFlw").map(|s| s.addr),
        ),
    ] {
        if let (Some(p), Some(t)) = (c.sym(pname), target) {
            if c.d.contains(p.addr, ptr as u64) {
                let v = c.word(c.d.read(p.addr, ptr as u64, pname)?, ptr);
                if v != 0 && v != t {
                    out.warnings
                        .push(format!("{pname} holds {v:#x}, expected {t:#x}"));
                }
            }
        }
    }
    let entry_at = |i: u64| {
        let e = &bytes[(i * c.map.entry_size) as usize..];
        (
            c.word(e, ptr),
            c.word(&e[ptr..], 4),
            c.word(&e[ptr + 4..], 4),
        )
    };
    let order: Vec<u64> = match indx {
        Some(ix) => {
            out.overflow = ix > cap || ovf.unwrap_or(0) != 0;
            if out.overflow {
                let start = ix % cap.max(1);
                (0..cap).map(|k| (start + k) % cap).collect()
            } else {
                (0..ix.min(cap)).collect()
            }
        }
        None => {
            out.overflow = ovf.unwrap_or(0) != 0;
            out.warnings.push(
                "sblProfileLogIndx unavailable: entries read up to the first null fxn".into(),
            );
            (0..cap).take_while(|i| entry_at(*i).0 != 0).collect()
        }
    };
    for i in order {
        let (fxn, line, cycle) = entry_at(i);
        let e = Entry {
            fxn: c.resolve(fxn),
            line: Some(line as u32),
            cycle,
            timestamp_us: ts(cycle, c.cpu_mhz),
        };
        out.sbl_profile.push(SblPoint {
            run: 0,
            name: e.fxn.clone(),
            duration_us: None,
            timestamp_us: e.timestamp_us,
            src_line: e.line,
            cycle: Some(cycle),
        });
        out.entries.push(e);
    }
    if let (Some(f), Some(l)) = (out.entries.first(), out.entries.last()) {
        out.sbl_total_us = ts(l.cycle.saturating_sub(f.cycle), c.cpu_mhz);
    }
    Ok(())
}

/// The MCU+ SBL's log: `gProfileObj` (function, cycle) and its boot media fields.
fn extract_mcu_plus(c: &Decoder<'_>, out: &mut Extracted) -> Result<()> {
    let ptr = c.info.ptr_size();
    let obj = c
        .sym("gProfileObj")
        .ok_or_else(|| Error::SymbolNotFound("gProfileObj".into()))?;
    let head = c.map.entries_offset + c.map.entry_size * MCU_MAX_LOGS;
    let bytes = c.d.read(obj.addr, head + 16, "gProfileObj")?;
    let n = c.word(bytes, 4);
    out.overflow = n > MCU_MAX_LOGS;
    for (k, key) in [
        "appimage_size",
        "boot_media_id",
        "boot_media_clk",
        "num_cores",
    ]
    .iter()
    .enumerate()
    {
        out.extra.insert(
            key.to_string(),
            c.word(&bytes[(head + 4 * k as u64) as usize..], 4),
        );
    }
    let mut prev: Option<u64> = None;
    for i in 0..n.min(MCU_MAX_LOGS) {
        let e = &bytes[(c.map.entries_offset + i * c.map.entry_size) as usize..];
        let cycle = c.word(&e[ptr..], 4);
        let entry = Entry {
            fxn: c.resolve(c.word(e, ptr)),
            line: None,
            cycle,
            timestamp_us: ts(cycle, c.cpu_mhz),
        };
        if let Some(p) = prev {
            out.sbl_profile.push(SblPoint {
                run: 0,
                name: entry.fxn.clone(),
                duration_us: ts(cycle.wrapping_sub(p) & 0xffff_ffff, c.cpu_mhz),
                timestamp_us: None,
                src_line: None,
                cycle: None,
            });
        }
        prev = Some(cycle);
        out.entries.push(entry);
    }
    if let (Some(f), Some(l)) = (out.entries.first(), out.entries.last()) {
        out.sbl_total_us = ts(l.cycle.wrapping_sub(f.cycle) & 0xffff_ffff, c.cpu_mhz);
    }
    Ok(())
}
