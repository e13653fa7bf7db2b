//! TISCI board configuration blobs, as U-Boot's binman (`ti-board-config`) and the PDK build
//! them: single blobs (board, rm, sec, pm: ABI revision then sub-structures, each starting
//! with a `{magic u16, size u16}` sub-header) and the combined blob of the combined boot flow
//! (`{num_elems u8, sw_rev u8}` then `{type u16, offset u16, size u16, devgrp u8, rsvd u8}`
//! descriptors).

use serde_json::json;

use crate::bytes::View;
use crate::error::{Error, Result};
use crate::model::{Component, Hint};
use crate::nested::Nested;

/// Sub-header magic of the RM resource-assignment block, followed by its entries.
pub const RESASG_MAGIC: u16 = 0x7B25;
/// Sub-header magic of the board `debug_cfg` block (trace enables).
pub const DEBUG_CFG_MAGIC: u16 = 0x020C;

/// Known sub-header magics: (magic, name, length of the block including its sub-header).
pub const KNOWN_MAGICS: &[(u16, &str, u64)] = &[
    (0xC1D3, "control", 7),
    (0x1207, "secproxy", 7),
    (0xA5C3, "msmc", 5),
    (DEBUG_CFG_MAGIC, "debug_cfg", 8),
    (0x4C41, "host_cfg", 356),
    (RESASG_MAGIC, "resasg", 8),
    (0xF1EA, "processor_acl_list", 164),
    (0x8D27, "host_hierarchy", 68),
    (0x4081, "otp_config", 69),
    (0x5170, "dkek_config", 12),
    (0x23BE, "sa2ul_cfg", 8),
    (0x42AF, "sec_dbg_config", 16),
    (0x608F, "sec_handover_cfg", 10),
];

fn known(magic: u16) -> Option<(&'static str, u64)> {
    KNOWN_MAGICS
        .iter()
        .find(|(m, _, _)| *m == magic)
        .map(|(_, n, l)| (*n, *l))
}

/// Name of a combined-blob descriptor type.
pub fn combined_type_name(t: u16) -> String {
    match t {
        0xB => "board".into(),
        0xC => "rm".into(),
        0xD => "sec".into(),
        0xE => "pm".into(),
        n => format!("type-{n:#x}"),
    }
}

/// True when `data` looks like a combined board configuration.
pub fn looks_like_combined(data: &[u8]) -> bool {
    if data.len() < 10 {
        return false;
    }
    let n = usize::from(data[0]);
    if n == 0 || n > 8 || data[1] != 1 || data.len() < 2 + 8 * n {
        return false;
    }
    (0..n).all(|i| {
        let d = &data[2 + 8 * i..10 + 8 * i];
        let t = u16::from_le_bytes([d[0], d[1]]);
        let off = usize::from(u16::from_le_bytes([d[2], d[3]]));
        let size = usize::from(u16::from_le_bytes([d[4], d[5]]));
        (0xB..=0xE).contains(&t) && off >= 2 + 8 * n && off + size <= data.len()
    })
}

/// True when `data` looks like a single board configuration (`lenient` when the container
/// already says it is one: then a bare ABI revision, as in `pm-cfg.bin`, is accepted).
pub fn looks_like_single(data: &[u8], lenient: bool) -> bool {
    if data.len() < 2 || data[0] != 0 {
        return false;
    }
    if data.len() == 2 {
        return lenient;
    }
    if data.len() < 6 {
        return false;
    }
    let magic = u16::from_le_bytes([data[2], data[3]]);
    known(magic).is_some()
}

/// Walk a single board configuration into `c`.
pub(crate) fn walk_single(c: &mut Component, view: View<'_>) -> Result<()> {
    let maj = view.u8(0, "board config ABI revision")?;
    let min = view.u8(1, "board config ABI revision")?;
    c.detail("abi_major", maj);
    c.detail("abi_minor", min);
    let mut pos = 2u64;
    let mut kind = "pm";
    let mut unknown = Vec::new();
    while pos < view.len() {
        let magic = view.u16le(pos, "board config sub-header magic")?;
        let size = u64::from(view.u16le(pos + 2, "board config sub-header size")?);
        let (name, len) = match known(magic) {
            Some((name, klen)) => {
                let mut len = if size >= 4 { size } else { klen };
                if magic == RESASG_MAGIC {
                    let entries =
                        u64::from(view.u16le(pos + 4, "board config resasg entries size")?);
                    c.detail("resasg_entries", entries / 8);
                    len = len.max(8) + entries;
                }
                (name.to_string(), len)
            }
            None => {
                let msg = format!(
                    "unknown sub-header magic {magic:#06x} at offset {:#x}",
                    view.base + pos
                );
                unknown.push(json!({"magic": magic, "offset": view.base + pos, "size": size}));
                c.warnings.push(msg);
                if size < 4 {
                    c.warnings
                        .push("cannot skip the unknown block (size < 4): walk stopped".into());
                    break;
                }
                (format!("unknown-{magic:#06x}"), size)
            }
        };
        if pos == 2 {
            kind = match magic {
                0xC1D3 | 0x1207 | 0xA5C3 | DEBUG_CFG_MAGIC => "board",
                0x4C41 | RESASG_MAGIC => "rm",
                0xF1EA | 0x8D27 | 0x4081 | 0x5170 | 0x23BE | 0x42AF | 0x608F => "sec",
                _ => "unknown",
            };
        }
        let block = view.sub(
            pos,
            len,
            &format!("board config block {name} ({magic:#06x})"),
        )?;
        let mut bc = Component::new(name, "ti-boardcfg-block", block.base, len);
        bc.detail("magic", format!("{magic:#06x}"));
        bc.detail("declared_size", size);
        if magic == DEBUG_CFG_MAGIC && len >= 8 {
            let dst = block.u16le(4, "debug_cfg trace_dst_enables")?;
            let src = block.u16le(6, "debug_cfg trace_src_enables")?;
            bc.detail("trace_dst_enables", dst);
            bc.detail("trace_src_enables", src);
            c.detail("trace_dst_enables", dst);
            c.detail("trace_src_enables", src);
            if dst != 0 && src != 0 {
                c.warnings.push(format!(
                    "TIFS trace enabled (dst {dst:#x}, src {src:#x}): firmware logging costs boot time"
                ));
            }
        }
        c.components.push(bc);
        pos += len;
    }
    c.detail("kind", kind);
    if !unknown.is_empty() {
        c.detail("unknown_magic", unknown);
    }
    Ok(())
}

/// Walk a combined board configuration into `c`.
pub(crate) fn walk_combined(c: &mut Component, view: View<'_>, nested: Nested) -> Result<()> {
    let n = view.u8(0, "combined board config header num_elems")?;
    let rev = view.u8(1, "combined board config header sw_rev")?;
    c.detail("num_elems", n);
    c.detail("sw_rev", rev);
    for i in 0..u64::from(n) {
        let d = 2 + 8 * i;
        let st = format!("combined board config descriptor #{i}");
        let t = view.u16le(d, &st)?;
        let off = u64::from(view.u16le(d + 2, &st)?);
        let size = u64::from(view.u16le(d + 4, &st)?);
        let devgrp = view.u8(d + 6, &st)?;
        if off < 2 + 8 * u64::from(n) && size > 0 {
            return Err(Error::malformed(
                st,
                view.base + d,
                format!("offset {off:#x} overlaps the descriptors"),
            ));
        }
        let name = combined_type_name(t);
        let sub = view.sub(off, size, &format!("combined board config {name} blob"))?;
        let mut bc = nested.part(&name, sub, Hint::Boardcfg)?;
        bc.detail("type", t);
        bc.detail("devgrp", devgrp);
        c.components.push(bc);
    }
    Ok(())
}
