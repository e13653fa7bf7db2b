//! One marker line of `docs/bench-framing.md`: `@@PERFGUIDE-BENCH <KIND> v=<n> sid=<sid> <fields>`.

/// The sentinel every marker line starts with (followed by one space).
pub const SENTINEL: &str = "@@PERFGUIDE-BENCH ";

/// The framing version this reader knows.
pub const VERSION: u32 = 1;

/// Fields whose value runs to the end of the line (always the last field).
const TO_END: &[&str] = &["cmd", "args"];

/// The kinds of marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Session,
    Begin,
    End,
    Skip,
    Done,
}

impl Kind {
    fn from_word(w: &str) -> Option<Kind> {
        Some(match w {
            "SESSION" => Kind::Session,
            "BEGIN" => Kind::Begin,
            "END" => Kind::End,
            "SKIP" => Kind::Skip,
            "DONE" => Kind::Done,
            _ => return None,
        })
    }
}

/// A well-formed marker of any version: its kind, version, session id and fields in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marker<'a> {
    pub kind: Kind,
    pub version: u32,
    pub sid: &'a str,
    pub fields: Vec<(&'a str, &'a str)>,
}

impl<'a> Marker<'a> {
    /// The value of field `key`, if present.
    pub fn field(&self, key: &str) -> Option<&'a str> {
        self.fields.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }

    /// The value of field `key` as a number, if present and numeric.
    pub fn number<T: std::str::FromStr>(&self, key: &str) -> Option<T> {
        self.field(key).and_then(|v| v.parse().ok())
    }
}

/// `<digits>-<digits>`.
fn is_sid(s: &str) -> bool {
    match s.split_once('-') {
        Some((a, b)) => [a, b]
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|c| c.is_ascii_digit())),
        None => false,
    }
}

/// Parses `text` (which starts with the sentinel) as the framing document's regular
/// expression `^@@PERFGUIDE-BENCH (SESSION|BEGIN|END|SKIP|DONE) v=([0-9]+) sid=([0-9]+-[0-9]+)(?: (.*))?$`.
pub fn parse(text: &str) -> Option<Marker<'_>> {
    let rest = text.strip_prefix(SENTINEL)?;
    let (kind, rest) = rest.split_once(' ')?;
    let kind = Kind::from_word(kind)?;
    let (v, rest) = rest.split_once(' ')?;
    let v = v.strip_prefix("v=")?;
    if v.is_empty() || !v.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let version = v.parse().ok()?;
    let (sid, mut rest) = rest.split_once(' ').unwrap_or((rest, ""));
    let sid = sid.strip_prefix("sid=")?;
    if !is_sid(sid) {
        return None;
    }
    let mut fields = Vec::new();
    while !rest.is_empty() {
        let (field, tail) = match rest.split_once('=') {
            Some((k, _)) if TO_END.contains(&k) => (rest, ""),
            _ => rest.split_once(' ').unwrap_or((rest, "")),
        };
        if let Some((k, v)) = field.split_once('=') {
            fields.push((k, v));
        }
        rest = tail;
    }
    Some(Marker {
        kind,
        version,
        sid,
        fields,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn begin_with_command_to_the_end() {
        let m = parse("@@PERFGUIDE-BENCH BEGIN v=1 sid=496800-17559 seq=1 id=dhrystone/dhry t=496810 cmd=echo \"x\" | dhry").unwrap();
        assert_eq!(m.kind, Kind::Begin);
        assert_eq!(m.sid, "496800-17559");
        assert_eq!(m.field("id"), Some("dhrystone/dhry"));
        assert_eq!(m.number::<u32>("seq"), Some(1));
        assert_eq!(m.field("cmd"), Some("echo \"x\" | dhry"));
    }

    #[test]
    fn malformed_markers() {
        for bad in [
            "@@PERFGUIDE-BENCH BOGUS v=1 sid=1-2",
            "@@PERFGUIDE-BENCH END v= sid=1-2",
            "@@PERFGUIDE-BENCH END v=1 sid=12",
            "@@PERFGUIDE-BENCH END v=1",
            "@@PERFGUIDE-BENCH",
        ] {
            assert_eq!(parse(bad), None, "{bad}");
        }
        assert!(parse("@@PERFGUIDE-BENCH DONE v=1 sid=1-2").is_some());
    }
}
