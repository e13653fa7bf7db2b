//! TI K3 X.509 ROM images (`tiboot3.bin`, `sysfw.bin`, `*.tiimage`, `ti-secure` blobs):
//! a DER certificate followed by the payload it describes. The TI extensions live under the
//! arc 1.3.6.1.4.1.294.1 (294 = Texas Instruments' enterprise number), as U-Boot's binman
//! writes them (`ti_secure_rom` / `ti_secure` etypes).

use serde_json::{json, Map, Value};
use x509_parser::der_parser::ber::{BerObject, BerObjectContent};
use x509_parser::der_parser::der::parse_der;
use x509_parser::prelude::{FromDer, X509Certificate};

use crate::bytes::{add, hex, View};
use crate::error::{Error, Result};
use crate::hashes;
use crate::model::{Component, Hint};
use crate::nested::Nested;

/// DER of the OID arc 1.3.6.1.4.1.294.1 (without the last arc), used for cheap detection.
pub const TI_OID_PREFIX: &[u8] = &[0x2B, 0x06, 0x01, 0x04, 0x01, 0x82, 0x26, 0x01];

/// Length of the DER SEQUENCE at the start of `data` (header + content), if well formed.
pub fn der_total_len(data: &[u8]) -> Option<u64> {
    if data.len() < 2 || data[0] != 0x30 {
        return None;
    }
    let b1 = data[1];
    if b1 < 0x80 {
        return Some(2 + u64::from(b1));
    }
    let n = usize::from(b1 & 0x7f);
    if n == 0 || n > 4 || data.len() < 2 + n {
        return None;
    }
    let mut len: u64 = 0;
    for b in &data[2..2 + n] {
        len = (len << 8) | u64::from(*b);
    }
    Some(2 + n as u64 + len)
}

/// True when `data` starts with a DER certificate that carries a TI extension.
pub fn looks_like_ti_x509(data: &[u8]) -> bool {
    match der_total_len(data) {
        Some(n) if n >= 64 && data.len() as u64 >= n && data[1] >= 0x81 => data[..n as usize]
            .windows(TI_OID_PREFIX.len())
            .any(|w| w == TI_OID_PREFIX),
        _ => false,
    }
}

/// One component of `ext_boot_info` (combined boot flow).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtBootComponent {
    /// compType: 1 SBL/SPL, 2 SYSFW/TIFS, 3 SYSFW inner cert, 17 DM data, 18 board config.
    pub comp_type: u64,
    /// bootCore.
    pub boot_core: u64,
    /// compOpts.
    pub comp_opts: u64,
    /// destAddr (4-byte big-endian OCTET STRING).
    pub dest_addr: u64,
    /// compSize.
    pub comp_size: u64,
    /// Digest algorithm name (from shaType).
    pub sha_algo: String,
    /// shaValue.
    pub sha_value: Vec<u8>,
}

/// binman's name for an `ext_boot_info` component type.
pub fn comp_type_name(t: u64) -> String {
    match t {
        1 => "sbl".into(),
        2 => "sysfw".into(),
        3 => "sysfw-inner-cert".into(),
        17 => "dm-data".into(),
        18 => "sysfw-data".into(),
        n => format!("comp-{n}"),
    }
}

struct Der<'a> {
    structure: String,
    offset: u64,
    items: &'a [BerObject<'a>],
}

impl<'a> Der<'a> {
    fn err(&self, why: String) -> Error {
        Error::malformed(self.structure.clone(), self.offset, why)
    }
    fn get(&self, i: usize, field: &str) -> Result<&'a BerObject<'a>> {
        self.items
            .get(i)
            .ok_or_else(|| self.err(format!("missing field {field} (#{i})")))
    }
    fn int(&self, i: usize, field: &str) -> Result<u64> {
        self.get(i, field)?
            .as_u64()
            .map_err(|e| self.err(format!("field {field}: {e}")))
    }
    fn octets(&self, i: usize, field: &str) -> Result<&'a [u8]> {
        match &self.get(i, field)?.content {
            BerObjectContent::OctetString(s) => Ok(s),
            _ => Err(self.err(format!("field {field}: not an OCTET STRING"))),
        }
    }
    fn addr(&self, i: usize, field: &str) -> Result<u64> {
        let o = self.octets(i, field)?;
        if o.len() > 8 {
            return Err(self.err(format!(
                "field {field}: {} bytes, at most 8 expected",
                o.len()
            )));
        }
        Ok(o.iter().fold(0u64, |a, b| (a << 8) | u64::from(*b)))
    }
    fn oid(&self, i: usize, field: &str) -> Result<String> {
        self.get(i, field)?
            .as_oid()
            .map(|o| o.to_id_string())
            .map_err(|e| self.err(format!("field {field}: {e}")))
    }
    fn sha_algo(&self, i: usize) -> Result<String> {
        let oid = self.oid(i, "shaType")?;
        Ok(hashes::sha_oid_name(&oid)
            .map(str::to_string)
            .unwrap_or(oid))
    }
}

fn seq_items<'a>(
    obj: &'a BerObject<'a>,
    structure: &str,
    offset: u64,
) -> Result<&'a [BerObject<'a>]> {
    obj.as_sequence()
        .map(|v| v.as_slice())
        .map_err(|e| Error::malformed(structure, offset, format!("not a SEQUENCE: {e}")))
}

/// Decoded TI extensions of one certificate.
#[derive(Clone, Debug, Default)]
struct TiExt {
    boot_seq: Option<(u64, u64, u64, u64, u64)>,
    integrity: Option<(String, Vec<u8>)>,
    sysfw_integrity: Option<(String, Vec<u8>, u64)>,
    sysfw_load: Option<u64>,
    ext_boot: Option<(u64, Vec<ExtBootComponent>)>,
}

fn decode_ext(arc: &str, value: &[u8], offset: u64, ti: &mut TiExt) -> Result<Value> {
    let structure = format!("TI X.509 extension 1.3.6.1.4.1.294.1.{arc}");
    let (_, obj) =
        parse_der(value).map_err(|e| Error::malformed(&structure, offset, e.to_string()))?;
    let items = seq_items(&obj, &structure, offset)?;
    let d = Der {
        structure: structure.clone(),
        offset,
        items,
    };
    Ok(match arc {
        "1" => {
            let v = (
                d.int(0, "certType")?,
                d.int(1, "bootCore")?,
                d.int(2, "bootCoreOpts")?,
                d.addr(3, "destAddr")?,
                d.int(4, "imageSize")?,
            );
            ti.boot_seq = Some(v);
            json!({"name": "boot_seq", "cert_type": v.0, "boot_core": v.1, "boot_core_opts": v.2,
                   "dest_addr": v.3, "image_size": v.4})
        }
        "2" => {
            let algo = d.sha_algo(0)?;
            let val = d.octets(1, "shaValue")?.to_vec();
            let j = json!({"name": "image_integrity", "sha_type": algo, "sha_value": hex(&val)});
            ti.integrity = Some((algo, val));
            j
        }
        "3" => json!({"name": "swrv", "swrv": d.int(0, "swrv")?}),
        "4" => json!({"name": "encryption", "fields": items.len()}),
        "8" => json!({"name": "debug", "debug_uid": hex(d.octets(0, "debugUID")?),
                      "debug_type": d.int(1, "debugType")?, "core_dbg_en": d.int(2, "coreDbgEn")?,
                      "core_dbg_sec_en": d.int(3, "coreDbgSecEn")?}),
        "9" => {
            let ext_size = d.int(0, "extImgSize")?;
            let num = d.int(1, "numComp")?;
            let mut comps = Vec::new();
            for (k, item) in items.iter().skip(2).enumerate() {
                let st = format!("{structure} component #{k}");
                let ci = seq_items(item, &st, offset)?;
                let cd = Der {
                    structure: st,
                    offset,
                    items: ci,
                };
                comps.push(ExtBootComponent {
                    comp_type: cd.int(0, "compType")?,
                    boot_core: cd.int(1, "bootCore")?,
                    comp_opts: cd.int(2, "compOpts")?,
                    dest_addr: cd.addr(3, "destAddr")?,
                    comp_size: cd.int(4, "compSize")?,
                    sha_algo: cd.sha_algo(5)?,
                    sha_value: cd.octets(6, "shaValue")?.to_vec(),
                });
            }
            if num != comps.len() as u64 {
                return Err(d.err(format!(
                    "numComp is {num} but {} components follow",
                    comps.len()
                )));
            }
            let list: Vec<Value> = comps
                .iter()
                .map(|c| json!({"comp_type": c.comp_type, "name": comp_type_name(c.comp_type),
                    "boot_core": c.boot_core, "comp_opts": c.comp_opts, "dest_addr": c.dest_addr,
                    "comp_size": c.comp_size, "sha_type": c.sha_algo, "sha_value": hex(&c.sha_value)}))
                .collect();
            ti.ext_boot = Some((ext_size, comps));
            json!({"name": "ext_boot_info", "ext_img_size": ext_size, "num_comp": num, "components": list})
        }
        "34" => {
            let algo = d.sha_algo(0)?;
            let val = d.octets(1, "shaValue")?.to_vec();
            let size = d.int(2, "imageSize")?;
            let j = json!({"name": "sysfw_image_integrity", "sha_type": algo, "sha_value": hex(&val), "image_size": size});
            ti.sysfw_integrity = Some((algo, val, size));
            j
        }
        "35" => {
            let dest = d.addr(0, "destAddr")?;
            ti.sysfw_load = Some(dest);
            json!({"name": "sysfw_image_load", "dest_addr": dest, "auth_in_place": d.int(1, "authInPlace")?})
        }
        "37" => json!({"name": "firewall", "num_firewall_regions": d.int(0, "numFirewallRegions")?,
                       "regions": items.len().saturating_sub(1)}),
        other => json!({"name": format!("ti-{other}"), "fields": items.len()}),
    })
}

/// Walk an X.509-wrapped image into `c`: the certificate, then the payload split into the
/// components the certificate lists, each digest recomputed.
pub(crate) fn walk(c: &mut Component, view: View<'_>, nested: Nested) -> Result<()> {
    let base = view.base;
    let cert_len = der_total_len(view.data).ok_or_else(|| {
        Error::malformed("X.509 certificate DER header", base, "not a DER SEQUENCE")
    })?;
    let cert_bytes = view.slice(0, cert_len, "X.509 certificate")?;
    let (_, cert) = X509Certificate::from_der(cert_bytes)
        .map_err(|e| Error::malformed("X.509 certificate", base, e.to_string()))?;
    c.detail("cert_size", cert_len);
    c.detail("subject", cert.subject().to_string());
    c.detail(
        "signature_algorithm",
        cert.signature_algorithm.algorithm.to_id_string(),
    );
    c.detail("serial", cert.raw_serial_as_string());

    let mut ti = TiExt::default();
    let mut exts = Vec::new();
    let mut other = Map::new();
    // The extension values are borrowed from `cert_bytes`, so their offset is computable.
    for ext in cert.extensions() {
        let oid = ext.oid.to_id_string();
        let rel = (ext.value.as_ptr() as usize).saturating_sub(cert_bytes.as_ptr() as usize);
        let voff = view.at(rel as u64, "X.509 extension value")?;
        if let Some(arc) = oid.strip_prefix("1.3.6.1.4.1.294.1.") {
            exts.push(decode_ext(arc, ext.value, voff, &mut ti)?);
        } else {
            other.insert(
                oid,
                json!({"critical": ext.critical, "size": ext.value.len()}),
            );
        }
    }
    c.detail("ti_extensions", exts);
    if !other.is_empty() {
        c.detail("other_extensions", Value::Object(other));
    }
    let mut cert_c = Component::new("certificate", "x509-der", base, cert_len);
    cert_c.detail("subject", cert.subject().to_string());
    c.components.push(cert_c);

    let payload = view.sub(cert_len, view.len() - cert_len, "X.509 payload")?;
    let mut used = 0u64;
    if let Some((ext_size, comps)) = &ti.ext_boot {
        let sum: u64 = comps
            .iter()
            .map(|x| x.comp_size)
            .fold(0, u64::saturating_add);
        if sum != *ext_size {
            c.warnings.push(format!(
                "ext_boot_info: extImgSize {ext_size} differs from the sum of compSize {sum}"
            ));
        }
        for (k, comp) in comps.iter().enumerate() {
            let name = comp_type_name(comp.comp_type);
            let st = format!("ext_boot_info component #{k} ({name})");
            let sub = payload.sub(used, comp.comp_size, &st)?;
            let hint = match comp.comp_type {
                17 | 18 => Hint::BoardcfgCombined,
                _ => Hint::None,
            };
            let mut cc = nested.part(&name, sub, hint)?;
            cc.load_addr = Some(comp.dest_addr);
            cc.detail("comp_type", comp.comp_type);
            cc.detail("boot_core", comp.boot_core);
            cc.detail("comp_opts", comp.comp_opts);
            cc.add_hash(hashes::check(&comp.sha_algo, &comp.sha_value, sub.data));
            c.components.push(cc);
            used = add(used, comp.comp_size, &st, payload.base)?;
        }
        c.detail("boot_flow", "combined");
    } else if let Some((cert_type, core, opts, dest, size)) = ti.boot_seq {
        let sub = payload.sub(0, size, "boot_seq image (imageSize)")?;
        let mut cc = nested.part("image", sub, Hint::None)?;
        cc.load_addr = Some(dest);
        cc.detail("cert_type", cert_type);
        cc.detail("boot_core", core);
        cc.detail("boot_core_opts", opts);
        if let Some((algo, val)) = &ti.integrity {
            cc.add_hash(hashes::check(algo, val, sub.data));
        }
        c.components.push(cc);
        used = size;
        c.detail("boot_flow", "legacy");
    } else if let Some((algo, val, size)) = &ti.sysfw_integrity {
        let sub = payload.sub(0, *size, "sysfw_image_integrity image (imageSize)")?;
        let mut cc = nested.part("image", sub, Hint::None)?;
        cc.load_addr = ti.sysfw_load;
        cc.add_hash(hashes::check(algo, val, sub.data));
        c.components.push(cc);
        used = *size;
        c.detail("boot_flow", "ti-secure");
    } else if payload.len() > 0 {
        let cc = nested.part("payload", payload, Hint::None)?;
        used = payload.len();
        c.components.push(cc);
    }
    if used < payload.len() {
        let rest = payload.len() - used;
        c.components
            .push(Component::new("trailing", "raw", payload.base + used, rest));
        c.warnings
            .push(format!("{rest} bytes after the certified payload"));
    }
    Ok(())
}
