//! What `labgrid-client -p PLACE show` prints, read: who holds the place, and each resource
//! with its class and parameters.
//!
//! The output is text for people: `  acquired: host/user` (or `None`), then per resource a
//! header line `Acquired resource 'NAME' (exporter/group/Class/NAME):` (or `Matching resource`
//! before the place is acquired) and the resource as Python prints a dict (`pprint`): quoted
//! strings, numbers, `True`/`False`/`None`, nested dicts and lists. That literal is read here
//! into JSON values.

use serde_json::{Map, Number, Value};

/// One resource of the place.
#[derive(Debug, Clone, PartialEq)]
pub struct ShownResource {
    /// `exporter/group/Class/NAME`.
    pub path: String,
    /// Whether it is listed as acquired (the place is acquired) or only matching.
    pub acquired: bool,
    /// `cls`: the class the exporter serves it as (`NetworkSerialPort`, `NetworkPowerPort`).
    pub cls: String,
    /// `params`.
    pub params: Value,
    /// `avail`.
    pub avail: bool,
}

/// The place as `show` prints it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ShownPlace {
    /// `host/user` holding the place, `None` when idle.
    pub acquired_by: Option<String>,
    /// Its resources, in the order printed.
    pub resources: Vec<ShownResource>,
}

/// Reads `show`'s output; an error names the line that could not be read.
pub fn parse(text: &str) -> Result<ShownPlace, String> {
    let mut place = ShownPlace::default();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if let Some(who) = line.trim_start().strip_prefix("acquired: ") {
            if line.starts_with("  ") && !line.starts_with("   ") {
                let who = who.trim();
                place.acquired_by = (who != "None").then(|| who.to_string());
            }
        }
        let header = line
            .strip_prefix("Acquired resource '")
            .map(|r| (true, r))
            .or_else(|| line.strip_prefix("Matching resource '").map(|r| (false, r)));
        if let Some((acquired, rest)) = header {
            let path = rest
                .rsplit_once(" (")
                .and_then(|(_, p)| p.strip_suffix("):"))
                .ok_or_else(|| format!("line {}: unexpected resource header: {line}", i + 1))?;
            let start = i + 1;
            let mut end = start;
            while end < lines.len() && lines[end].starts_with(' ') {
                end += 1;
            }
            let literal = lines[start..end].join("\n");
            let v = literal_value(&literal)
                .map_err(|e| format!("line {}: resource {path}: {e}", start + 1))?;
            let cls = v
                .get("cls")
                .and_then(Value::as_str)
                .ok_or_else(|| format!("line {}: resource {path} has no `cls`", start + 1))?
                .to_string();
            place.resources.push(ShownResource {
                path: path.to_string(),
                acquired,
                cls,
                avail: v.get("avail").and_then(Value::as_bool).unwrap_or(false),
                params: v.get("params").cloned().unwrap_or(Value::Null),
            });
            i = end;
            continue;
        }
        i += 1;
    }
    Ok(place)
}

/// A Python literal (what `pprint` prints of dicts of plain values) as a JSON value.
pub fn literal_value(s: &str) -> Result<Value, String> {
    let mut p = Literal {
        b: s.as_bytes(),
        i: 0,
    };
    let v = p.value()?;
    p.ws();
    if p.i != p.b.len() {
        return Err(format!("unexpected text at byte {}", p.i));
    }
    Ok(v)
}

struct Literal<'a> {
    b: &'a [u8],
    i: usize,
}

impl Literal<'_> {
    fn ws(&mut self) {
        while self.b.get(self.i).is_some_and(u8::is_ascii_whitespace) {
            self.i += 1;
        }
    }

    fn err<T>(&self, what: &str) -> Result<T, String> {
        Err(format!("{what} at byte {}", self.i))
    }

    fn value(&mut self) -> Result<Value, String> {
        self.ws();
        match self.b.get(self.i) {
            Some(b'{') => self.dict(),
            Some(b'[') => self.list(b']'),
            Some(b'(') => self.list(b')'),
            Some(b'\'' | b'"') => self.strings().map(Value::String),
            Some(c) if c.is_ascii_digit() || *c == b'-' => self.number(),
            Some(_) => self.word(),
            None => self.err("a value expected"),
        }
    }

    fn dict(&mut self) -> Result<Value, String> {
        self.i += 1;
        let mut m = Map::new();
        loop {
            self.ws();
            if self.b.get(self.i) == Some(&b'}') {
                self.i += 1;
                return Ok(Value::Object(m));
            }
            let key = match self.value()? {
                Value::String(s) => s,
                other => other.to_string(),
            };
            self.ws();
            if self.b.get(self.i) != Some(&b':') {
                return self.err("`:` expected");
            }
            self.i += 1;
            let v = self.value()?;
            m.insert(key, v);
            self.ws();
            match self.b.get(self.i) {
                Some(b',') => self.i += 1,
                Some(b'}') => {}
                _ => return self.err("`,` or `}` expected"),
            }
        }
    }

    fn list(&mut self, close: u8) -> Result<Value, String> {
        self.i += 1;
        let mut out = Vec::new();
        loop {
            self.ws();
            if self.b.get(self.i) == Some(&close) {
                self.i += 1;
                return Ok(Value::Array(out));
            }
            out.push(self.value()?);
            self.ws();
            match self.b.get(self.i) {
                Some(b',') => self.i += 1,
                Some(c) if *c == close => {}
                _ => return self.err("`,` or the list's end expected"),
            }
        }
    }

    /// One string, or adjacent ones (pprint splits long strings over lines).
    fn strings(&mut self) -> Result<String, String> {
        let mut s = self.string()?;
        loop {
            let save = self.i;
            self.ws();
            if matches!(self.b.get(self.i), Some(b'\'' | b'"')) {
                s.push_str(&self.string()?);
            } else {
                self.i = save;
                return Ok(s);
            }
        }
    }

    fn string(&mut self) -> Result<String, String> {
        let q = self.b[self.i];
        self.i += 1;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let Some(&c) = self.b.get(self.i) else {
                return self.err("unterminated string");
            };
            self.i += 1;
            if c == q {
                return String::from_utf8(out).or_else(|_| self.err("string not UTF-8"));
            }
            if c != b'\\' {
                out.push(c);
                continue;
            }
            let Some(&e) = self.b.get(self.i) else {
                return self.err("unterminated string");
            };
            self.i += 1;
            let mut push = |ch: char| out.extend_from_slice(ch.encode_utf8(&mut [0; 4]).as_bytes());
            match e {
                b'n' => push('\n'),
                b't' => push('\t'),
                b'r' => push('\r'),
                b'\\' | b'\'' | b'"' => push(e as char),
                b'x' | b'u' | b'U' => {
                    let n = match e {
                        b'x' => 2,
                        b'u' => 4,
                        _ => 8,
                    };
                    let hex = self
                        .b
                        .get(self.i..self.i + n)
                        .and_then(|h| std::str::from_utf8(h).ok())
                        .and_then(|h| u32::from_str_radix(h, 16).ok())
                        .and_then(char::from_u32);
                    let Some(ch) = hex else {
                        return self.err("bad escape");
                    };
                    self.i += n;
                    push(ch);
                }
                _ => {
                    push('\\');
                    push(e as char);
                }
            }
        }
    }

    fn number(&mut self) -> Result<Value, String> {
        let start = self.i;
        self.i += 1;
        while self
            .b
            .get(self.i)
            .is_some_and(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-'))
        {
            self.i += 1;
        }
        let t = std::str::from_utf8(&self.b[start..self.i]).unwrap_or_default();
        if let Ok(n) = t.parse::<i64>() {
            return Ok(Value::Number(n.into()));
        }
        match t.parse::<f64>().ok().and_then(Number::from_f64) {
            Some(n) => Ok(Value::Number(n)),
            None => self.err("bad number"),
        }
    }

    fn word(&mut self) -> Result<Value, String> {
        let start = self.i;
        while self
            .b
            .get(self.i)
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
        {
            self.i += 1;
        }
        match &self.b[start..self.i] {
            b"True" => Ok(Value::Bool(true)),
            b"False" => Ok(Value::Bool(false)),
            b"None" => Ok(Value::Null),
            _ => {
                self.i = start;
                self.err("unknown value")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `labgrid-client -p qemu-a show` of labgrid 25.0.1, acquired, as printed here.
    const ACQUIRED: &str = "Place 'qemu-a':
  matches:
    exp1/qemu-a/*
  acquired: vm/root
  acquired resources:
    exp1/qemu-a/NetworkPowerPort/NetworkPowerPort
    exp1/qemu-a/NetworkSerialPort/RawSerialPort
  created: 2026-12-05 20:53:07.816054
  changed: 2026-12-05 20:53:09.355983
Acquired resource 'NetworkPowerPort' (exp1/qemu-a/NetworkPowerPort/NetworkPowerPort):
  {'acquired': 'qemu-a',
   'avail': True,
   'cls': 'NetworkPowerPort',
   'params': {'extra': {'proxy': 'localhost', 'proxy_required': False},
              'host': 'http://127.0.0.1:38157/relay/{index}/value',
              'index': 0,
              'model': 'rest'}}
Acquired resource 'RawSerialPort' (exp1/qemu-a/NetworkSerialPort/RawSerialPort):
  {'acquired': 'qemu-a',
   'avail': True,
   'cls': 'NetworkSerialPort',
   'params': {'extra': {'path': '/dev/pts/0',
                        'proxy': 'localhost',
                        'proxy_required': False},
              'host': 'vm',
              'port': 59991,
              'speed': 115200}}
";

    #[test]
    fn acquired_place_and_its_serial_port() {
        let p = parse(ACQUIRED).unwrap();
        assert_eq!(p.acquired_by.as_deref(), Some("vm/root"));
        assert_eq!(p.resources.len(), 2);
        let s = &p.resources[1];
        assert_eq!(s.path, "exp1/qemu-a/NetworkSerialPort/RawSerialPort");
        assert!(s.acquired && s.avail);
        assert_eq!(s.cls, "NetworkSerialPort");
        assert_eq!(s.params["port"], 59991);
        assert_eq!(s.params["host"], "vm");
        assert_eq!(s.params["extra"]["path"], "/dev/pts/0");
        assert_eq!(
            p.resources[0].params["host"],
            "http://127.0.0.1:38157/relay/{index}/value"
        );
    }

    #[test]
    fn idle_place() {
        let text = ACQUIRED
            .replace("acquired: vm/root", "acquired: None")
            .replace("Acquired resource", "Matching resource")
            .replace("'port': 59991", "'port': None");
        let p = parse(&text).unwrap();
        assert_eq!(p.acquired_by, None);
        assert!(p.resources.iter().all(|r| !r.acquired));
        assert_eq!(p.resources[1].params["port"], Value::Null);
    }

    #[test]
    fn literals() {
        let v = literal_value(
            "{'a': \"it's\", 'b': [1, -2.5, (True, None)], 'c': 'x\\ny' 'z', 'd': '\\x41'}",
        )
        .unwrap();
        assert_eq!(
            v,
            serde_json::json!({"a": "it's", "b": [1, -2.5, [true, null]], "c": "x\nyz", "d": "A"})
        );
        assert!(literal_value("{'a': 1").unwrap_err().contains("byte"));
        assert!(literal_value("{'a': nope}")
            .unwrap_err()
            .contains("unknown"));
        let e = parse("Acquired resource 'x' (a/b/C/x):\n  {'cls': \n").unwrap_err();
        assert!(e.starts_with("line 2: resource a/b/C/x"), "{e}");
    }
}
