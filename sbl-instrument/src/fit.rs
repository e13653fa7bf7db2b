//! FIT images (`tispl.bin`, `u-boot.img`, `sysfw.itb`, kernel FITs): the `/images` nodes with
//! their type, load address, entry, data (embedded or external) and hashes, and the
//! `/configurations`. Plain DTBs are reported with their model and compatible.

use serde_json::{json, Value};

use crate::bytes::{add, View};
use crate::error::{Error, Result};
use crate::fdt::{as_num, as_str, as_str_list, Fdt, Node};
use crate::hashes;
use crate::model::{Component, Hint};
use crate::nested::Nested;

pub use crate::fdt::FDT_MAGIC;

/// True when `data` holds an FDT whose root has an `images` node.
pub fn has_images_node(data: &[u8]) -> bool {
    Fdt::parse(View::new(data, 0))
        .map(|f| f.node("/images").is_some())
        .unwrap_or(false)
}

fn hint_for(name: &str, desc: Option<&str>) -> Hint {
    let n = name.to_ascii_lowercase();
    let d = desc.unwrap_or("").to_ascii_lowercase();
    if n.contains("combined") && n.contains("cfg") {
        Hint::BoardcfgCombined
    } else if n.contains("cfg") || d.contains("board config") {
        Hint::Boardcfg
    } else {
        Hint::None
    }
}

fn str_prop(fdt: &Fdt<'_>, n: &Node, name: &str) -> Option<String> {
    n.prop(name).and_then(|p| as_str(fdt.value(p)))
}

fn num_prop(fdt: &Fdt<'_>, n: &Node, name: &str, what: &str) -> Result<Option<u64>> {
    match n.prop(name) {
        None => Ok(None),
        Some(p) => as_num(fdt.value(p)).map(Some).ok_or_else(|| {
            Error::malformed(
                format!("FIT {what} property {name}"),
                fdt.view.base + p.off,
                format!("{} bytes, expected 4 or 8", p.len),
            )
        }),
    }
}

/// Walk a FIT image into `c`.
pub(crate) fn walk(c: &mut Component, view: View<'_>, nested: Nested) -> Result<()> {
    let fdt = Fdt::parse(view)?;
    let base = view.base;
    c.detail("fdt_size", fdt.total_size);
    if let Some(d) = str_prop(&fdt, &fdt.root, "description") {
        c.detail("description", d);
    }
    if let Some(t) = num_prop(&fdt, &fdt.root, "timestamp", "root")? {
        c.detail("timestamp", t);
    }
    let ext_base = (fdt.total_size + 3) & !3;
    let images = fdt
        .node("/images")
        .ok_or_else(|| Error::malformed("FIT", base, "no /images node"))?;
    for img in &images.children {
        let what = format!("/images/{}", img.name);
        let desc = str_prop(&fdt, img, "description");
        let (off, size, location) = if let Some(p) = img.prop("data") {
            (p.off, p.len, "embedded")
        } else {
            let dsize = num_prop(&fdt, img, "data-size", &what)?.ok_or_else(|| {
                Error::malformed(
                    format!("FIT image node {what}"),
                    base,
                    "no data, data-offset or data-position",
                )
            })?;
            if let Some(o) = num_prop(&fdt, img, "data-offset", &what)? {
                let at = add(
                    ext_base,
                    o,
                    &format!("FIT image node {what} data-offset"),
                    base,
                )?;
                (at, dsize, "external")
            } else if let Some(o) = num_prop(&fdt, img, "data-position", &what)? {
                (o, dsize, "external")
            } else {
                return Err(Error::malformed(
                    format!("FIT image node {what}"),
                    base,
                    "data-size without data-offset or data-position",
                ));
            }
        };
        let sub = view.sub(off, size, &format!("FIT image node {what} data"))?;
        let mut ic = nested.part(&img.name, sub, hint_for(&img.name, desc.as_deref()))?;
        ic.load_addr = num_prop(&fdt, img, "load", &what)?;
        ic.entry = num_prop(&fdt, img, "entry", &what)?;
        if let Some(d) = desc {
            ic.detail("description", d);
        }
        for key in ["type", "arch", "os", "compression"] {
            if let Some(v) = str_prop(&fdt, img, key) {
                ic.detail(key, v);
            }
        }
        ic.detail("data", location);
        for h in &img.children {
            if h.name.starts_with("hash") {
                let algo = str_prop(&fdt, h, "algo").unwrap_or_default();
                let Some(vp) = h.prop("value") else {
                    ic.warnings.push(format!("{what}/{}: no value", h.name));
                    continue;
                };
                ic.add_hash(hashes::check(&algo, fdt.value(vp), sub.data));
            } else if h.name.starts_with("signature") {
                let mut sig = serde_json::Map::new();
                for key in ["algo", "key-name-hint", "padding"] {
                    if let Some(v) = str_prop(&fdt, h, key) {
                        sig.insert(key.to_string(), json!(v));
                    }
                }
                ic.detail("signature", Value::Object(sig));
            }
        }
        c.components.push(ic);
    }
    if let Some(confs) = fdt.node("/configurations") {
        let mut list = Vec::new();
        for cf in &confs.children {
            let mut m = serde_json::Map::new();
            m.insert("name".into(), json!(cf.name));
            for p in &cf.props {
                let v = fdt.value(p);
                let strs = as_str_list(v);
                let val = match strs.len() {
                    0 => json!(crate::bytes::hex(v)),
                    1 if !matches!(p.name.as_str(), "loadables" | "fdt") => json!(strs[0]),
                    _ => json!(strs),
                };
                m.insert(p.name.clone(), val);
            }
            list.push(Value::Object(m));
        }
        let default = str_prop(&fdt, confs, "default");
        c.detail("configurations", json!({"default": default, "list": list}));
    }
    Ok(())
}

/// Walk a plain device tree blob: model and compatible only.
pub(crate) fn walk_dtb(c: &mut Component, view: View<'_>) -> Result<()> {
    let fdt = Fdt::parse(view)?;
    c.detail("fdt_size", fdt.total_size);
    if let Some(m) = str_prop(&fdt, &fdt.root, "model") {
        c.detail("model", m);
    }
    if let Some(p) = fdt.root.prop("compatible") {
        c.detail("compatible", as_str_list(fdt.value(p)));
    }
    Ok(())
}
