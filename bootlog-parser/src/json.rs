//! A [`Boot`] written as `perfguide/boot-log/v1` JSON straight into a byte buffer.
//!
//! The bytes are exactly those of `serde_json::to_writer(out, boot)` (same key order, same
//! omitted fields, same number and string forms; tests compare the two on every corpus boot and
//! on a boot with every field set). It exists for speed: `perfguide parse --format json` on a
//! large multi-boot log spent a fifth of its time in serde's per-field machinery, and this
//! writer does the same job in a fraction of it. The serde derive stays the definition of the
//! format (and what reads it back).

use crate::model::*;
use serde_json::ser::{CompactFormatter, Formatter};

/// Appends `b` as one JSON object.
pub fn write_boot(out: &mut Vec<u8>, b: &Boot) {
    write_boot_object(out, b, None);
}

/// Appends `b` as one JSON object with a last key `"source"` (the input it came from), as
/// `perfguide parse --format json` lists boots.
pub fn write_sourced_boot(out: &mut Vec<u8>, b: &Boot, source: &str) {
    write_boot_object(out, b, Some(source));
}

fn write_boot_object(out: &mut Vec<u8>, b: &Boot, source: Option<&str>) {
    let mut w = Obj::new(out);
    w.key("index");
    w.u64(b.index as u64);
    w.key("complete");
    w.bool(b.complete);
    w.key("lines");
    w.out.push(b'[');
    w.u64(b.lines.0);
    w.out.push(b',');
    w.u64(b.lines.1);
    w.out.push(b']');
    w.key("stages");
    w.list(&b.stages, stage);
    w.key("components");
    w.out.push(b'{');
    for (i, (k, v)) in b.components.iter().enumerate() {
        if i > 0 {
            w.out.push(b',');
        }
        string(w.out, k);
        w.out.push(b':');
        string(w.out, v);
    }
    w.out.push(b'}');
    if !b.sbl_profile.is_empty() {
        w.key("sbl_profile");
        w.list(&b.sbl_profile, |out, p| {
            let mut o = Obj::new(out);
            o.key("run");
            o.u64(u64::from(p.run));
            o.key("name");
            o.str(&p.name);
            o.opt_u64("duration_us", p.duration_us);
            o.opt_u64("timestamp_us", p.timestamp_us);
            o.opt_u64("src_line", p.src_line.map(u64::from));
            o.opt_u64("cycle", p.cycle);
            o.end();
        });
    }
    if !b.sbl_total_us.is_empty() {
        w.key("sbl_total_us");
        w.list(&b.sbl_total_us, |out, v| {
            CompactFormatter.write_u64(out, *v).unwrap_or(());
        });
    }
    if !b.bootstage.is_empty() {
        w.key("bootstage");
        w.list(&b.bootstage, bootstage_record);
    }
    if !b.bootstage_accumulated.is_empty() {
        w.key("bootstage_accumulated");
        w.list(&b.bootstage_accumulated, |out, a| {
            let mut o = Obj::new(out);
            o.key("name");
            o.str(&a.name);
            o.key("us");
            o.u64(a.us);
            o.end();
        });
    }
    if !b.bootstage_reports.is_empty() {
        w.key("bootstage_reports");
        w.list(&b.bootstage_reports, |out, rep| {
            list(out, rep, bootstage_record);
        });
    }
    if !b.initcalls.is_empty() {
        w.key("initcalls");
        w.list(&b.initcalls, |out, c| {
            let mut o = Obj::new(out);
            o.key("name");
            o.str(&c.name);
            o.key("duration_us");
            o.u64(c.duration_us);
            o.key("ret");
            CompactFormatter.write_i64(o.out, c.ret).unwrap_or(());
            o.opt_f64("ts_s", c.ts_s);
            o.end();
        });
    }
    if let Some(k) = &b.kernel {
        w.key("kernel");
        let mut o = Obj::new(w.out);
        o.opt_str("version", k.version.as_deref());
        o.opt_f64("first_ts_s", k.first_ts_s);
        o.opt_f64("init_ts_s", k.init_ts_s);
        o.opt_f64("last_ts_s", k.last_ts_s);
        o.opt_str("cmdline", k.cmdline.as_deref());
        o.opt_str("machine", k.machine.as_deref());
        o.end();
    }
    if let Some(s) = &b.systemd {
        w.key("systemd");
        systemd(w.out, s);
    }
    w.opt_str("login_prompt", b.login_prompt.as_deref());
    if !b.marks.is_empty() {
        w.key("marks");
        w.list(&b.marks, |out, m| {
            let mut o = Obj::new(out);
            o.key("kind");
            o.str(&m.kind);
            o.key("line");
            o.u64(m.line);
            o.opt_f64("host_s", m.host_s);
            o.opt_f64("target_s", m.target_s);
            o.end();
        });
    }
    if !b.errors.is_empty() {
        w.key("errors");
        w.list(&b.errors, |out, e| string(out, e));
    }
    w.opt_f64("printk_offset_s", b.printk_offset_s);
    w.key("warnings");
    w.list(&b.warnings, |out, e| string(out, e));
    w.opt_str("source", source);
    w.end();
}

fn stage(out: &mut Vec<u8>, s: &Stage) {
    let mut o = Obj::new(out);
    o.key("id");
    o.str(s.id.as_str());
    o.opt_f64("start_s", s.start_s);
    o.opt_f64("end_s", s.end_s);
    o.opt_f64("duration_s", s.duration_s);
    o.key("clock");
    o.str(match s.clock {
        Clock::Host => "host",
        Clock::Target => "target",
        Clock::Derived => "derived",
    });
    o.opt_u64("line", s.line);
    o.opt_u64("console_bytes", s.console_bytes);
    o.end();
}

fn bootstage_record(out: &mut Vec<u8>, r: &BootstageRecord) {
    let mut o = Obj::new(out);
    o.key("name");
    o.str(&r.name);
    o.key("mark_us");
    o.u64(r.mark_us);
    o.key("elapsed_us");
    o.u64(r.elapsed_us);
    o.end();
}

fn systemd(out: &mut Vec<u8>, s: &SystemdInfo) {
    let unit = |out: &mut Vec<u8>, u: &SystemdUnit| {
        let mut o = Obj::new(out);
        o.key("name");
        o.str(&u.name);
        o.opt_f64("duration_s", u.duration_s);
        o.opt_f64("at_s", u.at_s);
        o.end();
    };
    let mut o = Obj::new(out);
    o.opt_f64("firmware_s", s.firmware_s);
    o.opt_f64("loader_s", s.loader_s);
    o.opt_f64("kernel_s", s.kernel_s);
    o.opt_f64("initrd_s", s.initrd_s);
    o.opt_f64("userspace_s", s.userspace_s);
    o.opt_f64("total_s", s.total_s);
    if let Some((name, v)) = &s.target_reached {
        o.key("target_reached");
        o.out.push(b'[');
        string(o.out, name);
        o.out.push(b',');
        f64_value(o.out, *v);
        o.out.push(b']');
    }
    if !s.blame.is_empty() {
        o.key("blame");
        o.list(&s.blame, unit);
    }
    if !s.critical_chain.is_empty() {
        o.key("critical_chain");
        o.list(&s.critical_chain, unit);
    }
    if !s.failed.is_empty() {
        o.key("failed");
        o.list(&s.failed, |out, f| string(out, f));
    }
    o.key("ok_lines");
    o.u64(s.ok_lines);
    o.end();
}

/// An object being written: tracks whether a comma is due before the next key.
struct Obj<'a> {
    out: &'a mut Vec<u8>,
    first: bool,
}

impl<'a> Obj<'a> {
    fn new(out: &'a mut Vec<u8>) -> Self {
        out.push(b'{');
        Obj { out, first: true }
    }

    /// Writes `"k":` (keys are plain ASCII names: no escaping needed).
    fn key(&mut self, k: &str) {
        if !std::mem::take(&mut self.first) {
            self.out.push(b',');
        }
        self.out.push(b'"');
        self.out.extend_from_slice(k.as_bytes());
        self.out.extend_from_slice(b"\":");
    }

    fn u64(&mut self, v: u64) {
        CompactFormatter.write_u64(self.out, v).unwrap_or(());
    }

    fn bool(&mut self, v: bool) {
        self.out
            .extend_from_slice(if v { b"true" as &[u8] } else { b"false" });
    }

    fn str(&mut self, s: &str) {
        string(self.out, s);
    }

    fn opt_u64(&mut self, k: &str, v: Option<u64>) {
        if let Some(v) = v {
            self.key(k);
            self.u64(v);
        }
    }

    fn opt_f64(&mut self, k: &str, v: Option<f64>) {
        if let Some(v) = v {
            self.key(k);
            f64_value(self.out, v);
        }
    }

    fn opt_str(&mut self, k: &str, v: Option<&str>) {
        if let Some(v) = v {
            self.key(k);
            string(self.out, v);
        }
    }

    fn list<T>(&mut self, items: &[T], each: impl FnMut(&mut Vec<u8>, &T)) {
        list(self.out, items, each);
    }

    fn end(self) {
        self.out.push(b'}');
    }
}

fn list<T>(out: &mut Vec<u8>, items: &[T], mut each: impl FnMut(&mut Vec<u8>, &T)) {
    out.push(b'[');
    for (i, it) in items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        each(out, it);
    }
    out.push(b']');
}

/// A number as serde_json writes an f64: shortest round-trip form, `null` when not finite.
fn f64_value(out: &mut Vec<u8>, v: f64) {
    if v.is_finite() {
        CompactFormatter.write_f64(out, v).unwrap_or(());
    } else {
        out.extend_from_slice(b"null");
    }
}

/// A JSON string with serde_json's escaping: `"` and `\` backslashed, control bytes as `\b`,
/// `\t`, `\n`, `\f`, `\r` or `\u00XX`, everything else (DEL, non-ASCII) as is.
fn string(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    let b = s.as_bytes();
    if !needs_escape(b) {
        out.extend_from_slice(b);
        out.push(b'"');
        return;
    }
    let mut from = 0;
    for (i, &c) in b.iter().enumerate() {
        if c >= 0x20 && c != b'"' && c != b'\\' {
            continue;
        }
        out.extend_from_slice(&b[from..i]);
        match c {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            0x08 => out.extend_from_slice(b"\\b"),
            b'\t' => out.extend_from_slice(b"\\t"),
            b'\n' => out.extend_from_slice(b"\\n"),
            0x0c => out.extend_from_slice(b"\\f"),
            b'\r' => out.extend_from_slice(b"\\r"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.extend_from_slice(b"\\u00");
                out.push(HEX[usize::from(c >> 4)]);
                out.push(HEX[usize::from(c & 0xf)]);
            }
        }
        from = i + 1;
    }
    out.extend_from_slice(&b[from..]);
    out.push(b'"');
}

/// Whether `b` may hold a byte [`string`] escapes (a control byte, `"` or `\\`); it answers
/// yes for non-ASCII text too (the slow path then copies it unchanged).
#[inline]
fn needs_escape(b: &[u8]) -> bool {
    // 0x20 is not below 0x20: no control byte is allowed through.
    crate::ascii::any_special(b, 0x20, [b'"', b'\\'])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(b: &Boot) {
        let mut mine = Vec::new();
        write_boot(&mut mine, b);
        let serde = serde_json::to_vec(b).expect("serialise");
        assert_eq!(
            String::from_utf8_lossy(&mine),
            String::from_utf8_lossy(&serde)
        );
    }

    #[test]
    fn every_field_set_gives_serde_bytes() {
        let nasty = "q\"b\\s/\u{1}\u{8}\t\n\u{c}\r\u{1f}\u{7f} é \u{2028}".to_string();
        let unit = |n: &str| SystemdUnit {
            name: n.to_string(),
            duration_s: Some(0.1 + 0.2),
            at_s: Some(1e-7),
        };
        let rec = BootstageRecord {
            name: nasty.clone(),
            mark_us: u64::MAX,
            elapsed_us: 0,
        };
        let mut b = Boot {
            index: 3,
            complete: true,
            lines: (1, 99),
            stages: StageId::ALL
                .iter()
                .map(|&id| Stage {
                    id,
                    start_s: Some(-0.0),
                    end_s: Some(f64::NAN),
                    duration_s: Some(1e300),
                    clock: Clock::Derived,
                    line: Some(7),
                    console_bytes: Some(12345),
                })
                .collect(),
            ..Boot::default()
        };
        b.components.insert(nasty.clone(), "v\u{0}".into());
        b.components.insert("kernel".into(), "6.1".into());
        b.sbl_profile.push(SblPoint {
            run: 2,
            name: nasty.clone(),
            duration_us: Some(5),
            timestamp_us: Some(6),
            src_line: Some(7),
            cycle: Some(8),
        });
        b.sbl_total_us = vec![1, 2];
        b.bootstage = vec![rec.clone()];
        b.bootstage_accumulated = vec![BootstageAccum {
            name: "dm_r".into(),
            us: 3,
        }];
        b.bootstage_reports = vec![vec![rec.clone()], vec![]];
        b.initcalls.push(Initcall {
            name: "f".into(),
            duration_us: 9,
            ret: -19,
            ts_s: Some(f64::INFINITY),
        });
        b.kernel = Some(KernelInfo {
            version: Some("6.6".into()),
            first_ts_s: Some(0.0),
            init_ts_s: Some(2.5),
            last_ts_s: Some(123456.789012),
            cmdline: Some(nasty.clone()),
            machine: Some("m".into()),
        });
        b.systemd = Some(SystemdInfo {
            firmware_s: Some(1.0),
            loader_s: Some(2.0),
            kernel_s: Some(3.0),
            initrd_s: Some(4.0),
            userspace_s: Some(5.0),
            total_s: Some(15.0),
            target_reached: Some(("graphical.target".into(), 93.629)),
            blame: vec![unit("a.service")],
            critical_chain: vec![unit("b.target")],
            failed: vec![nasty.clone()],
            ok_lines: 42,
        });
        b.login_prompt = Some("login:".into());
        b.marks.push(Mark {
            kind: "ready".into(),
            line: 5,
            host_s: Some(0.000001),
            target_s: Some(f64::NEG_INFINITY),
        });
        b.errors.push(nasty.clone());
        b.printk_offset_s = Some(-1.5e-5);
        b.warnings.push(nasty);
        same(&b);
        // The sourced form is the same object with `"source"` last.
        let mut plain = Vec::new();
        write_boot(&mut plain, &b);
        let mut sourced = Vec::new();
        write_sourced_boot(&mut sourced, &b, "logs/a\"b.log");
        plain.pop();
        plain.extend_from_slice(b",\"source\":\"logs/a\\\"b.log\"}");
        assert_eq!(
            String::from_utf8_lossy(&sourced),
            String::from_utf8_lossy(&plain)
        );
        // And with every optional part absent.
        same(&Boot::default());
        b.systemd = Some(SystemdInfo::default());
        b.kernel = Some(KernelInfo::default());
        same(&b);
    }
}
