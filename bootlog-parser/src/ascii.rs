//! ASCII trimming as `str::trim_ascii_start` / `trim_ascii_end` do, kept here because those
//! are Rust 1.80 and the crate builds with 1.75 (Yocto scarthgap's Rust).

/// `s` without leading ASCII whitespace (space, `\t`, `\n`, `\x0c`, `\r`).
pub(crate) fn trim_start(s: &str) -> &str {
    // ASCII bytes end on a char boundary.
    &s[s.len() - trim_start_bytes(s.as_bytes()).len()..]
}

/// `s` without trailing ASCII whitespace.
pub(crate) fn trim_end(s: &str) -> &str {
    let b = s.as_bytes();
    let mut n = b.len();
    while n > 0 && b[n - 1].is_ascii_whitespace() {
        n -= 1;
    }
    &s[..n]
}

/// `b` without leading ASCII whitespace.
pub(crate) fn trim_start_bytes(b: &[u8]) -> &[u8] {
    let mut i = 0;
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    &b[i..]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trims_like_std() {
        for s in ["", " ", " \t\r\n\x0c x \x0b", "x", "  é  ", "\u{a0} x"] {
            // std's `trim_ascii_*` are 1.80: compare with the char-predicate forms instead.
            let ws = |c: char| c.is_ascii_whitespace();
            assert_eq!(trim_start(s), s.trim_start_matches(ws), "{s:?}");
            assert_eq!(trim_end(s), s.trim_end_matches(ws), "{s:?}");
            assert_eq!(
                trim_start_bytes(s.as_bytes()),
                s.trim_start_matches(ws).as_bytes()
            );
        }
    }
}
