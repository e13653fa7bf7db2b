//! Whether a segment's lines are exactly the benchmark's output (`bytes=`, `md5=` of END),
//! and the kernel messages the UART interleaved with it.

use super::md5;

/// How a complete segment's text relates to the benchmark's output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Integrity {
    /// The lines between BEGIN and END are the output: byte count and (when the target had
    /// `md5sum`) MD5 match.
    Exact,
    /// They match once kernel messages are removed.
    KernelLinesRemoved,
    /// They do not match even then (bytes lost or altered on the way); the text is still
    /// parsed, with kernel messages removed.
    Mismatch,
    /// Nothing to check against: no END, or an END without `bytes=`.
    Unchecked,
}

impl Integrity {
    /// The flag as reports print it: `ok`, `ok (kernel lines removed)`, `mismatch`, `unchecked`.
    pub fn label(self) -> &'static str {
        match self {
            Integrity::Exact => "ok",
            Integrity::KernelLinesRemoved => "ok (kernel lines removed)",
            Integrity::Mismatch => "mismatch",
            Integrity::Unchecked => "unchecked",
        }
    }
}

/// What END says the output was.
pub(crate) struct Expected<'a> {
    pub bytes: u64,
    pub eol: bool,
    pub md5: Option<&'a str>,
}

/// Lines joined with `\n`, plus a final `\n` when the output ended with one.
pub(crate) fn join<S: AsRef<str>>(lines: &[S], eol: bool) -> String {
    let mut out = String::new();
    for (i, l) in lines.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(l.as_ref());
    }
    if eol && !lines.is_empty() {
        out.push('\n');
    }
    out
}

/// Whether `text` (lines joined by [`join`]) is the output END describes.
pub(crate) fn matches(text: &str, want: &Expected) -> bool {
    text.len() as u64 == want.bytes
        && want
            .md5
            .map_or(true, |m| md5::hex(text.as_bytes()).eq_ignore_ascii_case(m))
}

/// The byte offset of the first printk time stamp `\[\s*\d+\.\d{6}\] ` in `line`.
pub(crate) fn kernel_stamp(line: &str) -> Option<usize> {
    let b = line.as_bytes();
    let mut from = 0;
    while let Some(rel) = b[from..].iter().position(|&c| c == b'[') {
        let at = from + rel;
        if is_stamp(&b[at + 1..]) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// `\s*\d+\.\d{6}\] ` at the start of `b` (the text after `[`).
fn is_stamp(b: &[u8]) -> bool {
    let mut i = b.iter().take_while(|c| c.is_ascii_whitespace()).count();
    let int = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
    if int == 0 || b.get(i + int) != Some(&b'.') {
        return false;
    }
    i += int + 1;
    let frac = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
    frac == 6 && b.get(i + 6) == Some(&b']') && b.get(i + 7) == Some(&b' ')
}

/// `lines` (with their capture line numbers) without kernel messages: a line starting with a
/// printk stamp is dropped; a line with one inside was a benchmark line cut in two, which is
/// the text before the stamp joined with the whole next line.
pub(crate) fn remove_kernel(lines: &[(u64, String)]) -> Vec<(u64, String)> {
    let mut out = Vec::with_capacity(lines.len());
    let mut pending: Option<(u64, String)> = None;
    for (no, line) in lines {
        let (no, cur) = match pending.take() {
            Some((first, mut head)) => {
                head.push_str(line);
                (first, head)
            }
            None => (*no, line.clone()),
        };
        match kernel_stamp(&cur) {
            Some(0) => {}
            Some(at) => pending = Some((no, cur[..at].to_string())),
            None => out.push((no, cur)),
        }
    }
    out.extend(pending);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbered(lines: &[&str]) -> Vec<(u64, String)> {
        lines
            .iter()
            .enumerate()
            .map(|(i, l)| (i as u64 + 1, l.to_string()))
            .collect()
    }

    #[test]
    fn stamps() {
        assert_eq!(kernel_stamp("[   12.345678] usb"), Some(0));
        assert_eq!(kernel_stamp("abc[1.000000] x"), Some(3));
        assert_eq!(kernel_stamp("[1.00000] x [2.000000] y"), Some(12));
        for none in [
            "[1.0000000] x",
            "[1.000000]x",
            "[.000000] x",
            "[ 1.000000",
            "[",
        ] {
            assert_eq!(kernel_stamp(none), None, "{none}");
        }
    }

    #[test]
    fn whole_and_cut_lines() {
        let got = remove_kernel(&numbered(&[
            "[    1.000000] whole kernel line",
            "Dhrystones per Se[    2.000000] cut",
            "[    2.000001] and another",
            "cond: 100",
            "last",
        ]));
        assert_eq!(
            got,
            vec![
                (2, "Dhrystones per Second: 100".to_string()),
                (5, "last".to_string())
            ]
        );
    }
}
