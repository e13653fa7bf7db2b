//! ELF images (32/64-bit, either endianness): segments, sections, entry, symbols of interest,
//! build-id. Read with the `object` crate's low-level ELF API, straight from the mapped bytes.

use std::collections::BTreeMap;

use object::elf;
use object::read::elf::{FileHeader, ProgramHeader, SectionHeader, Sym};
use object::{Endianness, FileKind};
use serde_json::{json, Value};

use crate::bytes::{add, c_str, hex, View};
use crate::error::{Error, Result};
use crate::model::Component;

/// One program header.
#[derive(Clone, Debug)]
pub struct Segment {
    /// Index in the program header table.
    pub index: usize,
    /// `p_type`.
    pub p_type: u32,
    /// `p_flags`.
    pub flags: u32,
    /// `p_offset`.
    pub offset: u64,
    /// `p_filesz`.
    pub file_size: u64,
    /// `p_memsz`.
    pub mem_size: u64,
    /// `p_vaddr`.
    pub vaddr: u64,
    /// `p_paddr`.
    pub paddr: u64,
}

/// One section header.
#[derive(Clone, Debug)]
pub struct Section {
    /// Index in the section header table.
    pub index: usize,
    /// Name from the section string table (lossy UTF-8).
    pub name: String,
    /// `sh_type`.
    pub sh_type: u32,
    /// `sh_flags`.
    pub flags: u64,
    /// `sh_addr`.
    pub addr: u64,
    /// `sh_offset`.
    pub offset: u64,
    /// `sh_size`.
    pub size: u64,
}

impl Section {
    /// True when the section's bytes are in the file (not `SHT_NOBITS`, not empty type).
    pub fn file_backed(&self) -> bool {
        self.sh_type != elf::SHT_NOBITS && self.sh_type != elf::SHT_NULL
    }
    /// True when the section occupies memory at run time.
    pub fn alloc(&self) -> bool {
        self.flags & u64::from(elf::SHF_ALLOC) != 0
    }
}

/// One symbol-table entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// Name.
    pub name: String,
    /// `st_value`.
    pub value: u64,
    /// `st_size`.
    pub size: u64,
    /// `st_shndx` (0 = undefined, >= 0xff00 special).
    pub shndx: u16,
    /// `st_info & 0xf`.
    pub kind: u8,
}

/// The parts of an ELF header this crate uses, owned, plus looked-up symbols.
#[derive(Clone, Debug)]
pub struct ElfInfo {
    /// 32 or 64.
    pub bits: u8,
    /// Little endian?
    pub little_endian: bool,
    /// `e_machine`.
    pub machine: u16,
    /// `e_type`.
    pub e_type: u16,
    /// `e_entry`.
    pub entry: u64,
    /// Program headers.
    pub segments: Vec<Segment>,
    /// Section headers.
    pub sections: Vec<Section>,
    /// GNU build-id, hex.
    pub build_id: Option<String>,
    /// Number of entries in `.symtab`.
    pub symbol_count: usize,
    /// The symbols asked for that were found (first definition wins).
    pub symbols: BTreeMap<String, Symbol>,
}

fn elf_err(offset: u64, what: &str, e: object::Error) -> Error {
    Error::malformed(format!("ELF {what}"), offset, e.to_string())
}

impl ElfInfo {
    /// Parse the headers of the ELF in `view`, looking up the symbols named in `wanted`.
    pub(crate) fn parse(view: View<'_>, wanted: &[&str]) -> Result<ElfInfo> {
        match FileKind::parse(view.data) {
            Ok(FileKind::Elf32) => parse_generic::<elf::FileHeader32<Endianness>>(view, wanted),
            Ok(FileKind::Elf64) => parse_generic::<elf::FileHeader64<Endianness>>(view, wanted),
            Ok(_) => Err(Error::malformed("ELF header", view.base, "not an ELF file")),
            Err(e) => Err(elf_err(view.base, "header", e)),
        }
    }

    /// Parse an ELF file from bytes (offsets in errors are relative to the slice).
    pub fn from_bytes(data: &[u8], wanted: &[&str]) -> Result<ElfInfo> {
        Self::parse(View::new(data, 0), wanted)
    }

    /// Human name of `e_machine`.
    pub fn machine_name(&self) -> String {
        match self.machine {
            elf::EM_ARM => "arm".into(),
            elf::EM_AARCH64 => "aarch64".into(),
            elf::EM_X86_64 => "x86_64".into(),
            elf::EM_386 => "x86".into(),
            elf::EM_RISCV => "riscv".into(),
            elf::EM_TI_C6000 => "ti-c6000".into(),
            m => format!("em-{m}"),
        }
    }

    /// The file-backed allocated section holding virtual address `addr`, if any.
    pub fn section_at(&self, addr: u64) -> Option<&Section> {
        self.sections
            .iter()
            .find(|s| s.alloc() && s.file_backed() && addr >= s.addr && addr - s.addr < s.size)
    }

    /// File offset of virtual address `addr` and the bytes left in its section/segment.
    pub fn file_offset_of(&self, addr: u64) -> Option<(u64, u64)> {
        if let Some(s) = self.section_at(addr) {
            let d = addr - s.addr;
            return Some((s.offset.checked_add(d)?, s.size - d));
        }
        self.segments
            .iter()
            .filter(|p| p.p_type == elf::PT_LOAD)
            .find(|p| addr >= p.vaddr && addr - p.vaddr < p.file_size)
            .and_then(|p| {
                let d = addr - p.vaddr;
                Some((p.offset.checked_add(d)?, p.file_size - d))
            })
    }

    /// The NUL-terminated string at virtual address `addr` in `data` (the ELF's bytes).
    pub fn string_at(&self, data: &[u8], addr: u64) -> Option<String> {
        let (off, avail) = self.file_offset_of(addr)?;
        let off = usize::try_from(off).ok()?;
        let avail = usize::try_from(avail).ok()?.min(4096);
        c_str(data.get(off..)?, avail)
    }

    /// Read a `bits`-wide unsigned value in the ELF's byte order from `bytes`.
    pub fn read_word(&self, bytes: &[u8], size: usize) -> Option<u64> {
        let b = bytes.get(..size)?;
        let mut v: u64 = 0;
        if self.little_endian {
            for (i, x) in b.iter().enumerate() {
                v |= u64::from(*x) << (8 * i);
            }
        } else {
            for x in b {
                v = (v << 8) | u64::from(*x);
            }
        }
        Some(v)
    }

    /// Pointer size in bytes.
    pub fn ptr_size(&self) -> usize {
        if self.bits == 64 {
            8
        } else {
            4
        }
    }
}

fn parse_generic<E: FileHeader<Endian = Endianness>>(
    view: View<'_>,
    wanted: &[&str],
) -> Result<ElfInfo> {
    let data = view.data;
    let base = view.base;
    let hdr = E::parse(data).map_err(|e| elf_err(base, "header", e))?;
    let endian = hdr.endian().map_err(|e| elf_err(base, "header", e))?;
    let phoff = view.at(hdr.e_phoff(endian).into(), "ELF header e_phoff")?;
    let phdrs = hdr
        .program_headers(endian, data)
        .map_err(|e| elf_err(phoff, "program header table", e))?;
    let segments = phdrs
        .iter()
        .enumerate()
        .map(|(index, p)| Segment {
            index,
            p_type: p.p_type(endian),
            flags: p.p_flags(endian),
            offset: p.p_offset(endian).into(),
            file_size: p.p_filesz(endian).into(),
            mem_size: p.p_memsz(endian).into(),
            vaddr: p.p_vaddr(endian).into(),
            paddr: p.p_paddr(endian).into(),
        })
        .collect::<Vec<_>>();
    let shoff = view.at(hdr.e_shoff(endian).into(), "ELF header e_shoff")?;
    let table = hdr
        .sections(endian, data)
        .map_err(|e| elf_err(shoff, "section header table", e))?;
    let mut sections = Vec::with_capacity(table.len());
    let mut build_id = None;
    for (index, s) in table.iter().enumerate() {
        let name = table
            .section_name(endian, s)
            .map(|n| String::from_utf8_lossy(n).into_owned())
            .unwrap_or_default();
        let sh_type = s.sh_type(endian);
        if sh_type == elf::SHT_NOTE && build_id.is_none() {
            if let Ok(Some(mut notes)) = s.notes(endian, data) {
                while let Ok(Some(n)) = notes.next() {
                    if n.name() == elf::ELF_NOTE_GNU && n.n_type(endian) == elf::NT_GNU_BUILD_ID {
                        build_id = Some(hex(n.desc()));
                        break;
                    }
                }
            }
        }
        sections.push(Section {
            index,
            name,
            sh_type,
            flags: s.sh_flags(endian).into(),
            addr: s.sh_addr(endian).into(),
            offset: s.sh_offset(endian).into(),
            size: s.sh_size(endian).into(),
        });
    }
    let mut symbols = BTreeMap::new();
    let mut symbol_count = 0;
    let symtab = match table.symbols(endian, data, elf::SHT_SYMTAB) {
        Ok(t) if !t.is_empty() => Ok(t),
        _ => table.symbols(endian, data, elf::SHT_DYNSYM),
    };
    if let Ok(symtab) = symtab {
        symbol_count = symtab.len();
        if !wanted.is_empty() {
            for sym in symtab.iter() {
                if sym.st_shndx(endian) == elf::SHN_UNDEF {
                    continue;
                }
                let Ok(name) = symtab.symbol_name(endian, sym) else {
                    continue;
                };
                if let Some(w) = wanted.iter().find(|w| w.as_bytes() == name) {
                    symbols.entry((*w).to_string()).or_insert_with(|| Symbol {
                        name: (*w).to_string(),
                        value: sym.st_value(endian).into(),
                        size: sym.st_size(endian).into(),
                        shndx: sym.st_shndx(endian),
                        kind: sym.st_type(),
                    });
                }
            }
        }
    }
    Ok(ElfInfo {
        bits: if hdr.is_type_64() { 64 } else { 32 },
        little_endian: endian == Endianness::Little,
        machine: hdr.e_machine(endian),
        e_type: hdr.e_type(endian),
        entry: hdr.e_entry(endian).into(),
        segments,
        sections,
        build_id,
        symbol_count,
        symbols,
    })
}

fn flags_str(f: u32) -> String {
    let mut s = String::new();
    s.push(if f & elf::PF_R != 0 { 'r' } else { '-' });
    s.push(if f & elf::PF_W != 0 { 'w' } else { '-' });
    s.push(if f & elf::PF_X != 0 { 'x' } else { '-' });
    s
}

/// Walk an ELF image into `c`: one component per `PT_LOAD` segment (holding its allocated
/// sections), headers and the `wanted` symbols that are present in `details`.
pub(crate) fn walk(c: &mut Component, view: View<'_>, wanted: &[&str]) -> Result<()> {
    let info = ElfInfo::parse(view, wanted)?;
    c.entry = Some(info.entry);
    c.detail("class", info.bits);
    c.detail("endian", if info.little_endian { "little" } else { "big" });
    c.detail("machine", info.machine_name());
    c.detail(
        "type",
        match info.e_type {
            elf::ET_EXEC => "exec".to_string(),
            elf::ET_DYN => "dyn".to_string(),
            elf::ET_REL => "rel".to_string(),
            elf::ET_CORE => "core".to_string(),
            t => format!("{t}"),
        },
    );
    if let Some(b) = &info.build_id {
        c.detail("build_id", b.clone());
    }
    c.detail("symbol_count", info.symbol_count);
    let secs = info
        .sections
        .iter()
        .filter(|s| s.index != 0)
        .map(|s| {
            let offset = view.at(s.offset, &format!("ELF section #{} sh_offset", s.index))?;
            Ok(
                json!({"name": s.name, "type": s.sh_type, "addr": s.addr, "offset": offset,
                      "size": s.size, "alloc": s.alloc(), "file_backed": s.file_backed()}),
            )
        })
        .collect::<Result<Vec<Value>>>()?;
    c.detail("sections", secs);
    let mut syms = serde_json::Map::new();
    for (name, s) in &info.symbols {
        let sec = info
            .sections
            .get(usize::from(s.shndx))
            .map(|x| x.name.clone());
        let mut v = json!({"addr": s.value, "size": s.size, "section": sec});
        if name == "version_string" {
            if let Some(txt) = info.string_at(view.data, s.value) {
                v["string"] = json!(txt);
            }
        }
        syms.insert(name.clone(), v);
    }
    if !syms.is_empty() {
        c.detail("symbols", Value::Object(syms));
    }
    if let Some(v) = find_uboot_version(&info, view.data) {
        c.detail("uboot_version", v);
    }
    let file_len = view.len();
    for seg in info.segments.iter().filter(|p| p.p_type == elf::PT_LOAD) {
        let st = format!("ELF segment LOAD[{}]", seg.index);
        let seg_off = view.at(seg.offset, &st)?;
        let mut sc = Component::new(
            format!("LOAD[{}]", seg.index),
            "elf-segment",
            seg_off,
            seg.file_size,
        );
        sc.load_addr = Some(seg.paddr);
        sc.detail("vaddr", seg.vaddr);
        sc.detail("mem_size", seg.mem_size);
        sc.detail("flags", flags_str(seg.flags));
        if add(seg.offset, seg.file_size, &st, seg_off)? > file_len {
            return Err(Error::truncated(
                st,
                seg_off,
                seg.file_size,
                file_len.saturating_sub(seg.offset),
            ));
        }
        let mem_end = add(
            seg.vaddr,
            seg.mem_size,
            "ELF segment p_vaddr + p_memsz",
            seg_off,
        )?;
        for s in info
            .sections
            .iter()
            .filter(|s| s.alloc() && s.sh_type != elf::SHT_NULL)
        {
            let in_mem = s.addr >= seg.vaddr
                && s.addr.checked_add(s.size).is_some_and(|end| end <= mem_end)
                && (s.size > 0 || s.addr < mem_end);
            if !in_mem {
                continue;
            }
            let sst = format!("ELF section #{} ({})", s.index, s.name);
            let fsize = if s.file_backed() { s.size } else { 0 };
            let sec_off = view.at(s.offset, &sst)?;
            let mut ss = Component::new(s.name.clone(), "elf-section", sec_off, fsize);
            ss.load_addr = Some(add(seg.paddr, s.addr - seg.vaddr, &sst, sec_off)?);
            if !s.file_backed() {
                ss.detail("mem_size", s.size);
            }
            sc.components.push(ss);
        }
        c.components.push(sc);
    }
    Ok(())
}

/// The U-Boot version banner ("U-Boot 2023.01+dfsg-2 (...)") in the read-only data of a
/// U-Boot ELF, found without symbols (distribution builds are stripped). Scans at most the
/// first 16 MiB of each allocated, file-backed, non-executable section.
fn find_uboot_version(info: &ElfInfo, data: &[u8]) -> Option<String> {
    const NEEDLE: &[u8] = b"U-Boot 20";
    for s in info
        .sections
        .iter()
        .filter(|s| s.alloc() && s.file_backed() && s.flags & u64::from(elf::SHF_EXECINSTR) == 0)
    {
        let start = usize::try_from(s.offset).ok()?;
        let len = usize::try_from(s.size.min(16 << 20)).ok()?;
        let Some(bytes) = start.checked_add(len).and_then(|end| data.get(start..end)) else {
            continue;
        };
        if let Some(pos) = bytes.windows(NEEDLE.len()).position(|w| w == NEEDLE) {
            return c_str(&bytes[pos..], 256);
        }
    }
    None
}
