//! Host stamps that capture tools put in front of console lines.

use std::borrow::Cow;

/// Removes a capture tool's stamp from one line: the host time in seconds (if the line had
/// a stamp) and the console text after it.
///
/// Any `fn(&str) -> (Option<f64>, Cow<str>)` is one, so a caller can plug in a richer
/// stamp reader (e.g. `bootlog_parser::hoststamp`).
pub trait HostStamp {
    fn strip<'a>(&self, line: &'a str) -> (Option<f64>, Cow<'a, str>);
}

impl<F> HostStamp for F
where
    F: for<'a> Fn(&'a str) -> (Option<f64>, Cow<'a, str>),
{
    fn strip<'a>(&self, line: &'a str) -> (Option<f64>, Cow<'a, str>) {
        self(line)
    }
}

/// The default stamp reader: perfguide's capture format and grabserial `-t`,
/// `[<seconds> <delta>] text` (`[<seconds> <delta>]` for an empty line); lines
/// without that stamp are taken as they are.
#[derive(Debug, Clone, Copy, Default)]
pub struct SecsDelta;

impl HostStamp for SecsDelta {
    fn strip<'a>(&self, line: &'a str) -> (Option<f64>, Cow<'a, str>) {
        match secs_delta(line) {
            Some((secs, text)) => (Some(secs), Cow::Borrowed(text)),
            None => (None, Cow::Borrowed(line)),
        }
    }
}

/// A decimal `<digits>[.<digits>]` at the start of `s`: its length.
fn decimal(s: &[u8]) -> Option<usize> {
    let int = s.iter().take_while(|c| c.is_ascii_digit()).count();
    if int == 0 {
        return None;
    }
    if s.get(int) != Some(&b'.') {
        return Some(int);
    }
    let frac = s[int + 1..]
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .count();
    Some(int + 1 + frac)
}

/// `[<secs> <delta>] text`: the seconds and the text.
fn secs_delta(line: &str) -> Option<(f64, &str)> {
    let b = line.as_bytes();
    if b.first() != Some(&b'[') {
        return None;
    }
    let mut i = 1 + b[1..].iter().take_while(|c| **c == b' ').count();
    let secs_at = i;
    i += decimal(&b[i..])?;
    let secs = line[secs_at..i].parse::<f64>().ok()?;
    let blanks = b[i..].iter().take_while(|c| **c == b' ').count();
    if blanks == 0 {
        return None;
    }
    i += blanks;
    i += decimal(&b[i..])?;
    if b.get(i) != Some(&b']') {
        return None;
    }
    match b.get(i + 1) {
        None => Some((secs, "")),
        Some(b' ') => Some((secs, &line[i + 2..])),
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_and_plain_lines() {
        let s = SecsDelta;
        assert_eq!(
            s.strip("[12.500000 0.000100] hello"),
            (Some(12.5), Cow::Borrowed("hello"))
        );
        assert_eq!(
            s.strip("[3.000000 0.000000]"),
            (Some(3.0), Cow::Borrowed(""))
        );
        assert_eq!(s.strip("[ 0.1  0.1] x"), (Some(0.1), Cow::Borrowed("x")));
        // A kernel stamp (one number) is console text, not a host stamp.
        for plain in ["[   12.345678] usb 1-1", "plain", "[1.0 2.0]x", "[", ""] {
            assert_eq!(s.strip(plain), (None, Cow::Borrowed(plain)), "{plain}");
        }
    }
}
