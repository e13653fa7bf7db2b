//! Line and number helpers shared by the tool parsers.

/// The lines of `text` with their 1-based numbers, `\r` stripped.
pub(crate) fn lines(text: &str) -> impl Iterator<Item = (u64, &str)> {
    text.split('\n')
        .enumerate()
        .map(|(i, l)| (i as u64 + 1, l.trim_end_matches('\r')))
}

/// The number of the first non-blank line (1 for blank text).
pub(crate) fn first_line(text: &str) -> u64 {
    lines(text)
        .find(|(_, l)| !l.trim().is_empty())
        .map_or(1, |(n, _)| n)
}

/// The number of the last non-blank line (1 for blank text).
pub(crate) fn last_line(text: &str) -> u64 {
    lines(text)
        .filter(|(_, l)| !l.trim().is_empty())
        .last()
        .map_or(1, |(n, _)| n)
}

/// A finite decimal number; surrounding spaces allowed.
pub(crate) fn number(tok: &str) -> Option<f64> {
    let tok = tok.trim();
    let ok = tok
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E'));
    if !ok || !tok.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    tok.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// A number with an optional `k` (thousands) suffix: the value and whether it had one.
pub(crate) fn number_k(tok: &str) -> Option<(f64, bool)> {
    match tok.trim().strip_suffix(['k', 'K']) {
        Some(t) => number(t).map(|v| (v, true)),
        None => number(tok).map(|v| (v, false)),
    }
}

/// The first whitespace-separated token of `s` that is a number.
pub(crate) fn first_number(s: &str) -> Option<f64> {
    s.split_whitespace().find_map(number)
}

/// The text after the first `key` in `line`, trimmed.
pub(crate) fn after<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    line.find(key).map(|i| line[i + key.len()..].trim())
}

/// The numbers among the whitespace-separated tokens of `s`.
pub(crate) fn numbers(s: &str) -> Vec<f64> {
    s.split_whitespace().filter_map(number).collect()
}

/// `s` lowercased with runs of non-alphanumerics turned into one `-`.
pub(crate) fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() || c == '.' || c == '_' {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

/// A rate `<v> <K|M|G>bits/sec` (or iperf's `-f` byte units, `<K|M|G>Bytes/sec`) in Mbits/sec.
pub(crate) fn mbits(value: f64, unit_word: &str) -> Option<f64> {
    let (prefix, bits) = match unit_word.strip_suffix("bits/sec") {
        Some(p) => (p, 1.0),
        None => (unit_word.strip_suffix("Bytes/sec")?, 8.0),
    };
    let scale = match prefix {
        "" => 1e-6,
        "K" => 1e-3,
        "M" => 1.0,
        "G" => 1e3,
        "T" => 1e6,
        _ => return None,
    };
    Some(value * scale * bits)
}

/// The index of the `...bits/sec` (or `...Bytes/sec`) word and the rate in Mbits/sec.
pub(crate) fn rate(words: &[&str]) -> Option<(usize, f64)> {
    let i = words
        .iter()
        .position(|w| w.ends_with("bits/sec") || w.ends_with("Bytes/sec"))?;
    let v = number(words.get(i.checked_sub(1)?)?)?;
    Some((i, mbits(v, words[i])?))
}
