//! Words some grammars look for anywhere in a line (`autoboot`, `oard`, ` reached after `, `@`),
//! found once per input chunk instead of once per line and grammar.
//!
//! Most lines hold none of them, yet without an index every line pays for three substring
//! searches. `NeedleIndex` runs one SIMD search per word over the whole chunk; each line then
//! gets a bit set of the words it may contain (`NeedleIndex::hints`). A bit is only ever
//! cleared when the word is certainly absent from the line's raw bytes, so a grammar that skips
//! its search on a clear bit decides exactly as it would have searching.

use aho_corasick::packed;
use memchr::memmem;
use std::sync::OnceLock;

/// `autoboot` (U-Boot's prompt).
pub const AUTOBOOT: u8 = 1;
/// `oard` (SYSFW board-configuration messages).
pub const OARD: u8 = 2;
/// ` reached after ` (systemd-analyze).
pub const REACHED: u8 = 4;
/// `@` (systemd-analyze critical-chain).
pub const AT: u8 = 8;
/// Every word may be present: what a line outside the indexed chunk gets.
pub const ALL: u8 = AUTOBOOT | OARD | REACHED | AT;

const WORDS: [&str; 4] = ["autoboot", "oard", " reached after ", "@"];

/// A packed multi-word searcher for the words but `@` (pattern i is bit 1 << i), when the CPU
/// has the SIMD it needs; `None` otherwise (one memmem pass per word then).
fn words_searcher() -> Option<&'static packed::Searcher> {
    static S: OnceLock<Option<packed::Searcher>> = OnceLock::new();
    S.get_or_init(|| {
        let mut b = packed::Config::new()
            .match_kind(packed::MatchKind::LeftmostFirst)
            .builder();
        for w in &WORDS[..3] {
            b.add(w);
        }
        b.build()
    })
    .as_ref()
}

/// Where the words are in the current chunk, as `(end offset, bit)` in order, and a cursor;
/// `@` (by far the most frequent) has its own list of offsets, which needs no sorting.
#[derive(Debug, Default)]
pub(crate) struct NeedleIndex {
    found: Vec<(usize, u8)>,
    cursor: usize,
    at: Vec<usize>,
    at_cursor: usize,
    base: usize,
    len: usize,
}

impl NeedleIndex {
    /// Indexes a new chunk (forgetting the previous one).
    pub(crate) fn index(&mut self, chunk: &[u8]) {
        self.index_with(chunk, words_searcher());
    }

    /// [`Self::index`] with the packed searcher given, or one memmem pass per word.
    fn index_with(&mut self, chunk: &[u8], searcher: Option<&packed::Searcher>) {
        self.found.clear();
        self.at.clear();
        self.at.extend(memchr::memchr_iter(b'@', chunk));
        match searcher {
            // One SIMD pass (Teddy) for the three words. Its matches do not overlap, and no
            // word can overlap another (none ends with another's start), nor a word itself
            // on another line, so every line holding a word gets its bit.
            Some(s) => self.found.extend(
                s.find_iter(chunk)
                    .map(|m| (m.end(), 1u8 << m.pattern().as_usize())),
            ),
            None => {
                for (k, w) in WORDS.iter().enumerate() {
                    let bit = 1u8 << k;
                    if bit != AT {
                        // Non-overlapping matches: a word hidden inside an overlapping
                        // earlier match shares its line (no word holds a line break), and
                        // only presence per line matters.
                        self.found.extend(
                            memmem::find_iter(chunk, w.as_bytes()).map(|p| (p + w.len(), bit)),
                        );
                    }
                }
            }
        }
        self.found.sort_unstable();
        self.cursor = 0;
        self.at_cursor = 0;
        self.base = chunk.as_ptr() as usize;
        self.len = chunk.len();
    }

    /// The words `line` may contain. `line` must be a later slice of the indexed chunk than
    /// the previous call's (lines come in order); any other slice gets [`ALL`].
    /// Lines never asked about cost nothing: the cursors skip their words.
    #[cfg(test)]
    pub(crate) fn hints(&mut self, line: &[u8]) -> u8 {
        self.hints_at(line.as_ptr() as usize, line.len())
    }

    /// [`Self::hints`] of the slice at address `p` holding `len` bytes, for a caller that kept
    /// only where its line was (to ask later, or never).
    pub(crate) fn hints_at(&mut self, p: usize, len: usize) -> u8 {
        if p < self.base || p + len > self.base + self.len {
            return ALL;
        }
        let (start, end) = (p - self.base, p - self.base + len);
        let mut m = 0;
        let mut c = self.cursor;
        // Skip words that ended before this line; collect those ending inside it (a word
        // never holds a line break, so ending inside means lying inside).
        while let Some(&(e, bit)) = self.found.get(c) {
            if e > end {
                break;
            }
            if e > start {
                m |= bit;
            }
            c += 1;
        }
        self.cursor = c;
        let mut a = self.at_cursor;
        while let Some(&p) = self.at.get(a) {
            if p >= end {
                break;
            }
            if p >= start {
                m |= AT;
            }
            a += 1;
        }
        self.at_cursor = a;
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_per_line() {
        let chunk = b"Hit any key to stop autoboot: 0\nplain line\nBoard config ok\n\
                      graphical.target reached after 3s in userspace\nx.service @1.2s\n";
        let mut ix = NeedleIndex::default();
        ix.index(chunk);
        let lines: Vec<&[u8]> = chunk.split(|&b| b == b'\n').collect();
        let got: Vec<u8> = lines.iter().map(|l| ix.hints(l)).collect();
        assert_eq!(got, vec![AUTOBOOT, 0, OARD, REACHED, AT, 0]);
        // A slice that is not in the chunk knows nothing.
        assert_eq!(ix.hints(b"elsewhere"), ALL);
    }

    proptest::proptest! {
        /// The packed searcher and the per-word memmem passes give every line the same hints.
        #[test]
        fn packed_and_memmem_agree(parts in proptest::collection::vec(
            proptest::sample::select(vec![
                "autoboot", "oard", " reached after ", "@", "\n", "a", "d", " ", "b",
                "reached", "auto", "boot", "x.target",
            ]),
            0..200,
        )) {
            let chunk = parts.concat().into_bytes();
            let lines: Vec<&[u8]> = chunk.split(|&b| b == b'\n').collect();
            let mut a = NeedleIndex::default();
            let mut b = NeedleIndex::default();
            a.index_with(&chunk, words_searcher());
            b.index_with(&chunk, None);
            for l in lines {
                proptest::prop_assert_eq!(a.hints(l), b.hints(l));
            }
        }

        /// Asking about only some lines (as the timeline does, lazily) gives each of them the
        /// hints it gets when every line is asked about.
        #[test]
        fn skipped_lines_do_not_change_hints(parts in proptest::collection::vec(
            proptest::sample::select(vec![
                "autoboot", "oard", " reached after ", "@", "\n", "a", " ", "x.target",
            ]),
            0..200,
        ), ask in proptest::collection::vec(proptest::bool::ANY, 0..80)) {
            let chunk = parts.concat().into_bytes();
            let lines: Vec<&[u8]> = chunk.split(|&b| b == b'\n').collect();
            let mut all = NeedleIndex::default();
            let mut some = NeedleIndex::default();
            all.index(&chunk);
            some.index(&chunk);
            for (i, l) in lines.iter().enumerate() {
                let want = all.hints(l);
                if ask.get(i).copied().unwrap_or(i % 3 == 0) {
                    proptest::prop_assert_eq!(some.hints(l), want);
                }
            }
        }
    }
}
