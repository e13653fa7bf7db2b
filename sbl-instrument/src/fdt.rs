//! A small, bounds-checked reader for flattened device trees (FDT/DTB, the container of FIT
//! images). Written by hand because the walk needs the file offset of every property value
//! (FIT data lives in properties) and must turn every malformed input into an error that
//! names the structure and offset, never a panic.

use crate::bytes::View;
use crate::error::{Error, Result};

/// FDT magic, big-endian.
pub const FDT_MAGIC: u32 = 0xd00d_feed;
const BEGIN_NODE: u32 = 1;
const END_NODE: u32 = 2;
const PROP: u32 = 3;
const NOP: u32 = 4;
const END: u32 = 9;
/// Deepest node nesting accepted.
const MAX_NESTING: usize = 64;

/// One property: its name and where its value is.
#[derive(Clone, Debug)]
pub struct Prop {
    /// Property name.
    pub name: String,
    /// Offset of the value relative to the start of the FDT.
    pub off: u64,
    /// Length of the value.
    pub len: u64,
}

/// One node with its properties and children.
#[derive(Clone, Debug, Default)]
pub struct Node {
    /// Node name (unit address included), empty for the root.
    pub name: String,
    /// Properties, in order.
    pub props: Vec<Prop>,
    /// Child nodes, in order.
    pub children: Vec<Node>,
}

/// A parsed FDT: header fields and the node tree; values are read from `data` on demand.
#[derive(Clone, Debug)]
pub struct Fdt<'a> {
    /// The FDT bytes (exactly `totalsize` long).
    pub(crate) view: View<'a>,
    /// `totalsize` from the header.
    pub total_size: u64,
    /// `version` from the header.
    pub version: u32,
    /// The root node.
    pub root: Node,
}

impl<'a> Fdt<'a> {
    /// Parse the FDT at the start of `view`.
    pub(crate) fn parse(view: View<'a>) -> Result<Fdt<'a>> {
        let h = |off: u64, what: &str| view.u32be(off, &format!("FDT header {what}"));
        let magic = h(0, "magic")?;
        if magic != FDT_MAGIC {
            return Err(Error::malformed(
                "FDT header",
                view.base,
                format!("bad magic {magic:#010x}"),
            ));
        }
        let total = u64::from(h(4, "totalsize")?);
        let off_struct = u64::from(h(8, "off_dt_struct")?);
        let off_strings = u64::from(h(12, "off_dt_strings")?);
        let version = h(20, "version")?;
        if total < 40 {
            return Err(Error::malformed(
                "FDT header",
                view.base,
                format!("totalsize {total} too small"),
            ));
        }
        let fdt = view.sub(0, total, "FDT (totalsize)")?;
        let size_strings = if version >= 3 {
            u64::from(h(32, "size_dt_strings")?)
        } else {
            total.saturating_sub(off_strings)
        };
        let size_struct = if version >= 17 {
            u64::from(h(36, "size_dt_struct")?)
        } else {
            total.saturating_sub(off_struct)
        };
        let strings = fdt.sub(off_strings, size_strings, "FDT strings block")?;
        let st = fdt.sub(off_struct, size_struct, "FDT structure block")?;
        if off_struct % 4 != 0 {
            return Err(Error::malformed(
                "FDT header off_dt_struct",
                view.base + 8,
                "not 4-byte aligned",
            ));
        }

        let mut pos = 0u64;
        let mut stack: Vec<Node> = Vec::new();
        let mut root: Option<Node> = None;
        loop {
            let tok = st.u32be(pos, "FDT structure token")?;
            let tok_off = pos;
            pos += 4;
            match tok {
                BEGIN_NODE => {
                    if stack.len() >= MAX_NESTING {
                        return Err(Error::malformed(
                            "FDT node",
                            st.base + tok_off,
                            "nesting deeper than 64",
                        ));
                    }
                    if root.is_some() {
                        return Err(Error::malformed(
                            "FDT node",
                            st.base + tok_off,
                            "node after the root ended",
                        ));
                    }
                    let rest = st.slice(pos, st.len() - pos, "FDT node name")?;
                    let n = rest.iter().position(|&b| b == 0).ok_or_else(|| {
                        Error::malformed("FDT node name", st.base + pos, "no NUL terminator")
                    })?;
                    let name = String::from_utf8_lossy(&rest[..n]).into_owned();
                    pos = align4(pos + n as u64 + 1);
                    stack.push(Node {
                        name,
                        ..Node::default()
                    });
                }
                END_NODE => {
                    let node = stack.pop().ok_or_else(|| {
                        Error::malformed(
                            "FDT structure",
                            st.base + tok_off,
                            "END_NODE without BEGIN_NODE",
                        )
                    })?;
                    match stack.last_mut() {
                        Some(parent) => parent.children.push(node),
                        None => root = Some(node),
                    }
                }
                PROP => {
                    let len = u64::from(st.u32be(pos, "FDT property length")?);
                    let nameoff = u64::from(st.u32be(pos + 4, "FDT property name offset")?);
                    let voff = pos + 8;
                    st.slice(voff, len, "FDT property value")?;
                    let name = prop_name(&strings, nameoff, st.base + pos + 4)?;
                    let node = stack.last_mut().ok_or_else(|| {
                        Error::malformed(
                            "FDT property",
                            st.base + tok_off,
                            "property outside any node",
                        )
                    })?;
                    node.props.push(Prop {
                        name,
                        off: off_struct + voff,
                        len,
                    });
                    pos = align4(voff + len);
                }
                NOP => {}
                END => break,
                t => {
                    return Err(Error::malformed(
                        "FDT structure token",
                        st.base + tok_off,
                        format!("unknown token {t:#x}"),
                    ))
                }
            }
        }
        if !stack.is_empty() {
            return Err(Error::malformed(
                "FDT structure",
                st.base + pos,
                "END before every node was closed",
            ));
        }
        let root =
            root.ok_or_else(|| Error::malformed("FDT structure", st.base, "no root node"))?;
        Ok(Fdt {
            view: fdt,
            total_size: total,
            version,
            root,
        })
    }

    /// The value bytes of `p`.
    pub fn value(&self, p: &Prop) -> &'a [u8] {
        // Bounds were checked while parsing.
        self.view
            .data
            .get(p.off as usize..(p.off + p.len) as usize)
            .unwrap_or(&[])
    }

    /// The named node below the root (path like `/images`).
    pub fn node(&self, path: &str) -> Option<&Node> {
        let mut n = &self.root;
        for part in path.split('/').filter(|s| !s.is_empty()) {
            n = n.children.iter().find(|c| c.name == part)?;
        }
        Some(n)
    }
}

fn align4(x: u64) -> u64 {
    (x + 3) & !3
}

impl Node {
    /// The property called `name`.
    pub fn prop(&self, name: &str) -> Option<&Prop> {
        self.props.iter().find(|p| p.name == name)
    }
}

/// A property value as a string (first of a string list), if printable.
pub fn as_str(v: &[u8]) -> Option<String> {
    as_str_list(v).into_iter().next()
}

/// A property value as a list of NUL-separated strings.
pub fn as_str_list(v: &[u8]) -> Vec<String> {
    if v.is_empty() || *v.last().unwrap_or(&1) != 0 {
        return Vec::new();
    }
    v[..v.len() - 1]
        .split(|&b| b == 0)
        .map(|s| String::from_utf8_lossy(s).into_owned())
        .collect()
}

/// A property value as a u32 or u64 number (one or two big-endian cells).
pub fn as_num(v: &[u8]) -> Option<u64> {
    match v.len() {
        4 => Some(u64::from(u32::from_be_bytes([v[0], v[1], v[2], v[3]]))),
        8 => Some(u64::from_be_bytes([
            v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7],
        ])),
        _ => None,
    }
}

/// A property's name: the NUL-terminated string at `nameoff` of the strings block (`at`: where
/// the offset was read, for the error).
fn prop_name(strings: &View<'_>, nameoff: u64, at: u64) -> Result<String> {
    if nameoff >= strings.len() {
        return Err(Error::malformed(
            "FDT property name offset",
            at,
            format!("{nameoff} beyond the strings block"),
        ));
    }
    let nbytes = &strings.data[nameoff as usize..];
    let n = nbytes.iter().position(|&b| b == 0).ok_or_else(|| {
        Error::malformed(
            "FDT property name",
            strings.base + nameoff,
            "no NUL terminator",
        )
    })?;
    Ok(String::from_utf8_lossy(&nbytes[..n]).into_owned())
}
