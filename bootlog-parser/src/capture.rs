//! The raw capture format of a boot loop's console log, grabserial's `-t` format: one console
//! line per file line, `[<abs> <delta>] <text>`, both numbers `%.6f` seconds, `abs` since
//! power-on and `delta` since the previous line's stamp (the first line's delta is its abs).
//! [`crate::hoststamp`] reads these stamps when the parser meets them; this module writes
//! them, and reads them back exactly for tools that need the microseconds.
//!
//! Text encoding of a line (lossless, grabserial-identical for ordinary text):
//! - valid UTF-8 is written as is;
//! - every byte that is not part of valid UTF-8 is written as `\xNN` (two lowercase hex digits),
//!   and so is NUL (`\x00`: a NUL would make grep and editors treat the capture as binary);
//! - a backslash that is followed by `x` in the input is written as `\x5c`, so that `\xNN` in
//!   the file always means one escaped byte and the original bytes can be recovered with
//!   [`unescape`].

/// Escapes bytes for the raw capture: valid UTF-8 kept, other bytes as `\xNN`, `\x` as `\x5cx`.
pub fn escape(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    let mut rest = bytes;
    while !rest.is_empty() {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                push_text(&mut out, s, &[]);
                break;
            }
            Err(e) => {
                let (good, bad) = rest.split_at(e.valid_up_to());
                // `good` is valid UTF-8: it ends at `valid_up_to`.
                let good = std::str::from_utf8(good).unwrap_or_default();
                push_text(&mut out, good, bad);
                let n = e.error_len().unwrap_or(bad.len()).max(1);
                for b in &bad[..n] {
                    out.push_str(&format!("\\x{b:02x}"));
                }
                rest = &bad[n..];
            }
        }
    }
    out
}

/// Appends valid text, escaping a backslash that is followed by `x` (looking across into
/// `next`, the bytes that follow `s` in the input).
fn push_text(out: &mut String, s: &str, next: &[u8]) {
    let b = s.as_bytes();
    let mut start = 0;
    for (i, &c) in b.iter().enumerate() {
        if c == 0 {
            out.push_str(&s[start..i]);
            out.push_str("\\x00");
            start = i + 1;
        } else if c == b'\\' {
            let following = b.get(i + 1).or_else(|| next.first()).copied();
            if following == Some(b'x') {
                out.push_str(&s[start..i]);
                out.push_str("\\x5c");
                start = i + 1;
            }
        }
    }
    out.push_str(&s[start..]);
}

/// Reverses [`escape`]: `\xNN` becomes the byte NN, everything else is literal.
pub fn unescape(text: &str) -> Vec<u8> {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && b.get(i + 1) == Some(&b'x') && i + 3 < b.len() {
            let hex = &text.get(i + 2..i + 4);
            if let Some(Ok(v)) = hex.map(|h| u8::from_str_radix(h, 16)) {
                out.push(v);
                i += 4;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    out
}

/// Formats one raw capture line (without the trailing newline).
pub fn format_line(t_us: u64, delta_us: u64, text: &str) -> String {
    let abs = format!("{}.{:06}", t_us / 1_000_000, t_us % 1_000_000);
    let delta = format!("{}.{:06}", delta_us / 1_000_000, delta_us % 1_000_000);
    if text.is_empty() {
        format!("[{abs} {delta}]")
    } else {
        format!("[{abs} {delta}] {text}")
    }
}

/// Parses the prefix of a raw capture line: `[abs delta] text` -> `(abs_us, delta_us, text)`.
/// Returns `None` for a line without the prefix.
pub fn parse_line(line: &str) -> Option<(u64, u64, &str)> {
    let rest = line.strip_prefix('[')?;
    let close = rest.find(']')?;
    let (nums, after) = rest.split_at(close);
    let mut it = nums.split(' ').filter(|s| !s.is_empty());
    let abs = parse_secs_us(it.next()?)?;
    let delta = parse_secs_us(it.next()?)?;
    if it.next().is_some() {
        return None;
    }
    let text = &after[1..];
    Some((abs, delta, text.strip_prefix(' ').unwrap_or(text)))
}

fn parse_secs_us(s: &str) -> Option<u64> {
    let (int, frac) = s.split_once('.')?;
    if int.is_empty() || !int.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    if frac.is_empty() || frac.len() > 9 || !frac.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let int: u64 = int.parse().ok()?;
    let mut f = frac.to_string();
    f.truncate(6);
    while f.len() < 6 {
        f.push('0');
    }
    let frac: u64 = f.parse().ok()?;
    int.checked_mul(1_000_000)?.checked_add(frac)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_roundtrip() {
        let cases: Vec<&[u8]> = vec![
            b"plain",
            b"\xff\xfe\x00 noise",
            b"a\\xb c:\\x41 \\n",
            b"tail backslash \\",
            "caf\u{e9} \u{2026}".as_bytes(),
            b"\xc3",
            b"\\\xff",
            b"\\",
            b"nul\0 \0\xff",
        ];
        for c in cases {
            let e = escape(c);
            assert_eq!(unescape(&e), c, "{e}");
        }
        assert_eq!(escape(b"\xffok"), "\\xffok");
        assert_eq!(escape(b"C:\\x"), "C:\\x5cx");
        assert_eq!(escape(b"a\\b"), "a\\b");
    }

    #[test]
    fn format_matches_grabserial() {
        assert_eq!(
            format_line(6011, 6011, "Hello World!"),
            "[0.006011 0.006011] Hello World!"
        );
        assert_eq!(format_line(12_345_678, 1, ""), "[12.345678 0.000001]");
        assert_eq!(
            parse_line("[1.974911 0.000202] Starting kernel ..."),
            Some((1_974_911, 202, "Starting kernel ..."))
        );
        assert_eq!(parse_line("[0.000002 0.000002]"), Some((2, 2, "")));
        assert_eq!(parse_line("[    0.090111] dmi"), None);
    }
}
