//! A line of a LAVA job log (`log.yaml`): one YAML flow mapping per line,
//! `- {"dt": "2023-01-01T00:00:00.123456", "lvl": "target", "msg": "..."}`, as LAVA's
//! dispatcher writes it (`lava_common.log.dump`: `yaml.dump(..., default_flow_style=True,
//! default_style='"', width=10**6)`, keys in sorted order). Strings are YAML double-quoted
//! scalars, whose escapes are not JSON's (`\e`, `\xE9`, `\0`, `\N`, `\_`, `\L`, `\P`,
//! `\U0001F600`); a value that is not a string (the `results` level's mapping, a tagged
//! scalar `! "1"`) ends the reading, as the keys after it are not needed.

/// The levels whose message is the target's console output: `target` (the device's serial
/// console) and `feedback` (another namespace's console). `input` is what LAVA sent, which
/// a console echoes back as `target` anyway; `results`, `info`, `debug` and the rest are
/// LAVA's own.
pub const CONSOLE_LEVELS: [&str; 2] = ["target", "feedback"];

/// The level of what LAVA typed on the console (the console echoes it back as `target`).
pub const INPUT_LEVEL: &str = "input";

/// The fields of one `log.yaml` line that the parser reads.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LavaLine {
    /// `dt`: the dispatcher's clock when the line was logged (UTC, ISO 8601).
    pub dt: Option<String>,
    /// `lvl`: `target`, `input`, `feedback`, `info`, `debug`, `results`, ...
    pub lvl: Option<String>,
    /// `msg`, unescaped, when it is a string.
    pub msg: Option<String>,
}

impl LavaLine {
    /// The message when it is console output ([`CONSOLE_LEVELS`]).
    pub fn console(self) -> Option<String> {
        match self.lvl.as_deref() {
            Some(l) if CONSOLE_LEVELS.contains(&l) => self.msg,
            _ => None,
        }
    }
}

/// Reads a `log.yaml` line (`- {` first, trailing blanks allowed); `None` when it is not one.
pub fn read_line(t: &str) -> Option<LavaLine> {
    let mut rest = t.strip_prefix("- {")?.trim_end().strip_suffix('}')?;
    let mut out = LavaLine::default();
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            return Some(out);
        }
        let (key, after) = quoted(rest)?;
        let after = after.strip_prefix(':')?.trim_start();
        if !after.starts_with('"') {
            // A value that is not a string: nothing after it is read.
            return Some(out);
        }
        let (value, after) = quoted(after)?;
        match key.as_str() {
            "dt" => out.dt = Some(value),
            "lvl" => out.lvl = Some(value),
            "msg" => out.msg = Some(value),
            _ => {}
        }
        rest = after.trim_start();
        if let Some(r) = rest.strip_prefix(',') {
            rest = r;
        } else if !rest.is_empty() {
            return None;
        }
    }
}

/// A YAML double-quoted scalar at the start of `s`, unescaped, and the text after it.
fn quoted(s: &str) -> Option<(String, &str)> {
    let body = s.strip_prefix('"')?;
    let mut out = String::with_capacity(body.len().min(256));
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((out, &body[i + 1..])),
            '\\' => {
                let (_, e) = chars.next()?;
                let hex = |n: usize, chars: &mut std::str::CharIndices| -> Option<char> {
                    let mut v = 0u32;
                    for _ in 0..n {
                        v = v * 16 + chars.next()?.1.to_digit(16)?;
                    }
                    char::from_u32(v)
                };
                out.push(match e {
                    '0' => '\0',
                    'a' => '\x07',
                    'b' => '\x08',
                    't' | '\t' => '\t',
                    'n' => '\n',
                    'v' => '\x0b',
                    'f' => '\x0c',
                    'r' => '\r',
                    'e' => '\x1b',
                    ' ' => ' ',
                    '"' => '"',
                    '/' => '/',
                    '\\' => '\\',
                    'N' => '\u{85}',
                    '_' => '\u{a0}',
                    'L' => '\u{2028}',
                    'P' => '\u{2029}',
                    'x' => hex(2, &mut chars)?,
                    'u' => hex(4, &mut chars)?,
                    'U' => hex(8, &mut chars)?,
                    _ => return None,
                });
            }
            c => out.push(c),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines as `lava_common.log.dump` 2023.01 writes them (printed by its `yaml_dump` with
    /// LAVA's arguments under /usr/bin/python3).
    #[test]
    fn dispatcher_escapes() {
        let l = read_line(
            r#"- {"dt": "2023-01-01T00:00:00.123456", "lvl": "target", "msg": "a\e[0m b\xE9 \"q\" \\ tab\there \0 \L x\U0001F600 \x7F \N \_"}"#,
        )
        .unwrap();
        assert_eq!(l.dt.as_deref(), Some("2023-01-01T00:00:00.123456"));
        assert_eq!(
            l.console().as_deref(),
            Some("a\x1b[0m b\u{e9} \"q\" \\ tab\there \0 \u{2028} x\u{1F600} \x7f \u{85} \u{a0}")
        );
    }

    #[test]
    fn levels_and_results() {
        let r = read_line(
            r#"- {"dt": "x", "lvl": "results", "msg": {"case": "a", "definition": "lava", "extra": {"x": ! "1"}, "result": "pass"}}"#,
        )
        .unwrap();
        assert_eq!(
            (r.lvl.as_deref(), r.msg.as_deref()),
            (Some("results"), None)
        );
        for (lvl, console) in [
            ("target", true),
            ("feedback", true),
            ("input", false),
            ("info", false),
            ("debug", false),
        ] {
            let l = read_line(&format!(r#"- {{"dt": "x", "lvl": "{lvl}", "msg": "m"}}"#));
            assert_eq!(l.unwrap().console().is_some(), console, "{lvl}");
        }
        assert_eq!(
            read_line(r#"- {"dt": "x", "lvl": "target", "msg": "bad \q"}"#),
            None
        );
        assert_eq!(
            read_line(r#"- {"dt": "x", "lvl": "target", "msg": "open"#),
            None
        );
        assert_eq!(read_line("- {a list item}"), None);
        assert_eq!(read_line("- plain"), None);
    }

    /// LAVA logs the login prompt only with the echo of the user name it typed at it; the
    /// prompt is the boot's ready marker, at the time LAVA typed.
    #[test]
    fn prompt_typed_into_is_the_ready_marker() {
        let log = [
            r#"- {"dt": "2024-01-02T03:04:05.000000", "lvl": "target", "msg": "U-Boot 2024.01 (x)"}"#,
            r#"- {"dt": "2024-01-02T03:04:05.500000", "lvl": "target", "msg": "Starting kernel ..."}"#,
            r#"- {"dt": "2024-01-02T03:04:06.000000", "lvl": "target", "msg": "[    0.000000] Booting Linux on physical CPU 0x0"}"#,
            r#"- {"dt": "2024-01-02T03:04:07.000000", "lvl": "target", "msg": "[    0.900000] Run /init as init process"}"#,
            r#"- {"dt": "2024-01-02T03:04:07.200000", "lvl": "debug", "msg": "Sending username root"}"#,
            r#"- {"dt": "2024-01-02T03:04:07.250000", "lvl": "input", "msg": "root\n"}"#,
            r#"- {"dt": "2024-01-02T03:04:07.350000", "lvl": "target", "msg": "box login: root"}"#,
        ]
        .join("\n");
        let boots = crate::parse_bytes(log.as_bytes(), &crate::BoardProfile::generic());
        assert_eq!(boots.len(), 1);
        let b = &boots[0];
        assert!(b.complete, "{:?}", b.warnings);
        assert_eq!(b.login_prompt.as_deref(), Some("box login:"));
        let last = b.stages.last().unwrap();
        assert_eq!(last.id, crate::StageId::Userspace);
        assert!((last.end_s.unwrap() - 2.25).abs() < 1e-9, "{last:?}");
        // A typed line that is not the echo's end leaves the console line as it is.
        let other = log.replace("box login: root", "box login: admin");
        let b = &crate::parse_bytes(other.as_bytes(), &crate::BoardProfile::generic())[0];
        assert!(!b.complete);
    }
}
