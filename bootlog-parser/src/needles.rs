//! Words some grammars look for anywhere in a line (`autoboot`, `oard`, ` reached after `, `@`),
//! found in the line splitter's block pass instead of once per line and grammar.
//!
//! Most lines hold none of them, yet without hints every line pays for three substring
//! searches. The splitter flags candidate bytes (`candidates`, `candidates_avx2`: `@` and a
//! few pairs of bytes of the words) with its control bytes, confirms each on the chunk's bytes
//! (`word_at`) and hands each line a bit set of the words it may contain
//! (`lines::Flags::hints`). A bit is only ever cleared when the word is certainly absent from
//! the line's raw bytes, so a grammar that skips its search on a clear bit decides exactly as
//! it would have searching. The tests hold the hints to a separate search of each chunk
//! (`reference::NeedleIndex`).

/// `autoboot` (U-Boot's prompt).
pub const AUTOBOOT: u8 = 1;
/// The word of [`AUTOBOOT`].
pub const AUTOBOOT_WORD: &str = "autoboot";
/// `oard` (SYSFW board-configuration messages).
pub const OARD: u8 = 2;
/// The word of [`OARD`].
pub const OARD_WORD: &str = "oard";
/// ` reached after ` (systemd-analyze).
pub const REACHED: u8 = 4;
/// The word of [`REACHED`].
pub const REACHED_WORD: &str = " reached after ";
/// `@` (systemd-analyze critical-chain).
pub const AT: u8 = 8;
/// Every word may be present: what a line outside the indexed chunk gets.
pub const ALL: u8 = AUTOBOOT | OARD | REACHED | AT;

/// [`word_at`] of the candidate offset `q`, `@` (answered by `term`, which is `chunk[q]`,
/// alone) inline. The scans' middle-byte test (see [`candidates`]) already turned away the
/// `a`/`o` candidates whose next byte is not `a`, `b` or `c`, which this tested before.
#[inline(always)]
pub(crate) fn hint_at(chunk: &[u8], q: usize, term: u8) -> u8 {
    debug_assert_eq!(chunk.get(q), Some(&term));
    if term == b'@' {
        AT
    } else {
        word_at(chunk, q)
    }
}

/// The bit of the word of `chunk` that holds the candidate offset `q` (see [`candidates`]),
/// or 0 when none does: the splitter's block pass asks it about each candidate byte, and a
/// line's hints are the bits of its candidates (a word holds no line break, so a word with a
/// byte in a line lies in it). Out of line: most lines have no candidate.
#[inline(never)]
pub(crate) fn word_at(chunk: &[u8], q: usize) -> u8 {
    // `word` holds `q`, `at` bytes from its start.
    let is = |word: &[u8], at: usize| {
        q.checked_sub(at)
            .and_then(|s| chunk.get(s..s + word.len()))
            .is_some_and(|b| b == word)
    };
    match chunk[q] {
        b'@' => AT,
        first => match (first, chunk.get(q + 2)) {
            (b'o', Some(b'r')) if is(OARD_WORD.as_bytes(), 0) => OARD,
            (b'o', Some(b'o')) if is(AUTOBOOT_WORD.as_bytes(), 3) => AUTOBOOT,
            (b'a', Some(b'h')) if is(REACHED_WORD.as_bytes(), 3) => REACHED,
            _ => 0,
        },
    }
}

/// The candidate bytes of the 64-byte block starting `block` (whose two bytes after are the
/// next block's first two, or zero past the chunk): bit i set where `block[i]` is `@`, or `a`
/// or `o` with `a`, `b` or `c` next and `h`, `o` or `r` two bytes later (see
/// [`candidates_avx2`]; the middle byte's test turns away most false candidates, `our`,
/// `ash`, `arr`, `boo`..., each a flagged byte the splitter would walk). Each word has such
/// a byte (the one [`word_at`] is asked about), so a line holding a word has a candidate; the
/// splitter's portable pass (without AVX2) uses this.
#[inline]
pub(crate) fn candidates(block: &[u8; 66]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of the x86_64 baseline, and the unaligned 16-byte loads read
        // `block[16k..16k + 18]` for k < 4, which exists.
        unsafe {
            let eq = |v, b: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8));
            let mut m = 0u64;
            for k in 0..4 {
                let v0 = _mm_loadu_si128(block.as_ptr().add(16 * k) as *const __m128i);
                let v1 = _mm_loadu_si128(block.as_ptr().add(16 * k + 1) as *const __m128i);
                let v2 = _mm_loadu_si128(block.as_ptr().add(16 * k + 2) as *const __m128i);
                let f = _mm_or_si128(eq(v0, b'a'), eq(v0, b'o'));
                let mid = _mm_or_si128(_mm_or_si128(eq(v1, b'a'), eq(v1, b'b')), eq(v1, b'c'));
                let f = _mm_and_si128(f, mid);
                let t = _mm_or_si128(_mm_or_si128(eq(v2, b'h'), eq(v2, b'o')), eq(v2, b'r'));
                let c = _mm_or_si128(eq(v0, b'@'), _mm_and_si128(f, t));
                m |= u64::from(_mm_movemask_epi8(c) as u16) << (16 * k);
            }
            m
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        candidates_ref(block)
    }
}

/// [`candidates`] a byte at a time: the rule the SIMD versions stand for.
#[cfg_attr(target_arch = "x86_64", cfg(test))]
pub(crate) fn candidates_ref(block: &[u8; 66]) -> u64 {
    (0..64).fold(0u64, |m, i| {
        let c = block[i] == b'@'
            || (matches!(block[i], b'a' | b'o')
                && matches!(block[i + 1], b'a' | b'b' | b'c')
                && matches!(block[i + 2], b'h' | b'o' | b'r'));
        m | u64::from(c) << i
    })
}

/// The candidates among the 64 bytes at `p`, as two 32-byte masks (a byte 0xff or 0): byte
/// i is a candidate when `p[i]` is `@`, or `p[i]` is `a` or `o`, `p[i + 1]` is `a`, `b` or
/// `c` and `p[i + 2]` is `h`, `o` or `r` (`oar` of `oard`, `obo` of `autoboot`, `ach` of
/// ` reached after `: the pieces sharing their tests that are rarest in boot logs). Most
/// blocks have none.
///
/// With `DEL`, DEL (0x7f) bytes are flagged too: the same instruction finds `@` and DEL (a
/// table lookup instead of a compare), which spares the splitter's control test (see
/// `lines::scan_avx2`) its own test of DEL.
///
/// # Safety
/// The CPU must have AVX2, and `p[0..66]` must be readable.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) unsafe fn candidates_avx2<const DEL: bool>(
    p: *const u8,
) -> (std::arch::x86_64::__m256i, std::arch::x86_64::__m256i) {
    use std::arch::x86_64::*;
    // The bytes of `set` at their low nibbles (distinct), 0x80 elsewhere: a byte below 0x80
    // equals its nibble's entry only if it is in `set`, and the shuffle gives 0 for the
    // bytes from 0x80.
    let table = |set: &[u8]| {
        let mut t = [0x80u8; 16];
        for &b in set {
            t[usize::from(b & 15)] = b;
        }
        // SAFETY (of the load): `t` holds 16 bytes; the load is unaligned.
        _mm256_broadcastsi128_si256(_mm_loadu_si128(t.as_ptr() as *const __m128i))
    };
    let first = table(b"ao");
    let second = table(b"abc");
    let third = table(b"hor");
    // `@` alone (0x40, low nibble 0), or with DEL (low nibble 15).
    let at = table(if DEL { b"@\x7f" } else { b"@" });
    let half = |k: usize| {
        // SAFETY (of the loads): `p[32k..32k + 34]` is readable (k < 2, `p[0..66]` is);
        // the loads are unaligned.
        let v0 = _mm256_loadu_si256(p.add(32 * k) as *const __m256i);
        let v1 = _mm256_loadu_si256(p.add(32 * k + 1) as *const __m256i);
        let v2 = _mm256_loadu_si256(p.add(32 * k + 2) as *const __m256i);
        let f = _mm256_cmpeq_epi8(_mm256_shuffle_epi8(first, v0), v0);
        let f = _mm256_and_si256(f, _mm256_cmpeq_epi8(_mm256_shuffle_epi8(second, v1), v1));
        let t = _mm256_cmpeq_epi8(_mm256_shuffle_epi8(third, v2), v2);
        let a = _mm256_cmpeq_epi8(_mm256_shuffle_epi8(at, v0), v0);
        _mm256_or_si256(a, _mm256_and_si256(f, t))
    };
    (half(0), half(1))
}

/// The reference the splitter's hints are checked against: a separate pass over a whole
/// chunk finding the words (AVX2, the packed searcher, or one `memmem` pass per word), then
/// looked up line by line.
#[cfg(test)]
mod reference {
    use super::*;
    use aho_corasick::packed;
    use memchr::memmem;
    use std::sync::OnceLock;

    pub(super) const WORDS: [&str; 4] = [AUTOBOOT_WORD, OARD_WORD, REACHED_WORD, "@"];

    /// A packed multi-word searcher for the words but `@` (pattern i is bit 1 << i), when the CPU
    /// has the SIMD it needs; `None` otherwise (one memmem pass per word then).
    pub(super) fn words_searcher() -> Option<&'static packed::Searcher> {
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

    /// Where the words are in the current chunk, as `(offset of a byte inside the word, bit)` in
    /// ascending offset order, and a cursor over them for the lines asked about in order.
    #[derive(Debug, Default)]
    pub(crate) struct NeedleIndex {
        found: Vec<(usize, u8)>,
        cursor: usize,
        /// The address of the word at the cursor, or the chunk's end when none is left: a slice
        /// of the chunk ending there holds no word not yet passed.
        next: usize,
        base: usize,
        len: usize,
    }

    impl NeedleIndex {
        /// Indexes a new chunk (forgetting the previous one).
        pub(crate) fn index(&mut self, chunk: &[u8]) {
            #[cfg(target_arch = "x86_64")]
            if crate::cpu::avx2() {
                self.found.clear();
                // SAFETY: the CPU has AVX2 (just checked).
                unsafe { scan_avx2(chunk, &mut self.found) };
                self.reset(chunk);
                return;
            }
            self.index_with(chunk, words_searcher());
        }

        /// [`Self::index`] without AVX2: the packed searcher given, or one memmem pass per word.
        pub(super) fn index_with(&mut self, chunk: &[u8], searcher: Option<&packed::Searcher>) {
            self.found.clear();
            self.found
                .extend(memchr::memchr_iter(b'@', chunk).map(|p| (p, AT)));
            match searcher {
                // One SIMD pass (Teddy) for the three words. Its matches do not overlap, and no
                // word can overlap another (none ends with another's start), nor a word itself
                // on another line, so every line holding a word gets its bit.
                Some(s) => self.found.extend(
                    s.find_iter(chunk)
                        .map(|m| (m.end() - 1, 1u8 << m.pattern().as_usize())),
                ),
                None => {
                    for (k, w) in WORDS.iter().enumerate() {
                        let bit = 1u8 << k;
                        if bit != AT {
                            // Non-overlapping matches: a word hidden inside an overlapping
                            // earlier match shares its line (no word holds a line break), and
                            // only presence per line matters.
                            self.found.extend(
                                memmem::find_iter(chunk, w.as_bytes())
                                    .map(|p| (p + w.len() - 1, bit)),
                            );
                        }
                    }
                }
            }
            self.found.sort_unstable();
            self.reset(chunk);
        }

        /// Points the cursor at the start of the freshly indexed `chunk`.
        fn reset(&mut self, chunk: &[u8]) {
            self.cursor = 0;
            self.base = chunk.as_ptr() as usize;
            self.len = chunk.len();
            self.next = self.base + self.found.first().map_or(self.len, |w| w.0);
        }

        /// The words `line` may contain. `line` must be a later slice of the indexed chunk than
        /// the previous call's (lines come in order); any other slice gets [`ALL`].
        /// Lines never asked about cost nothing: the cursor skips their words.
        pub(crate) fn hints(&mut self, line: &[u8]) -> u8 {
            self.hints_at(line.as_ptr() as usize, line.len())
        }

        /// [`Self::hints`] of the slice at address `p` holding `len` bytes, for a caller that kept
        /// only where its line was (to ask later, or never).
        #[inline]
        pub(crate) fn hints_at(&mut self, p: usize, len: usize) -> u8 {
            // Most lines asked about lie in the chunk before the next word.
            if p >= self.base && p + len <= self.next {
                return 0;
            }
            self.hints_past(p, len)
        }

        /// [`Self::hints_at`] of a slice that is outside the chunk, or reaches the next word.
        #[inline(never)]
        fn hints_past(&mut self, p: usize, len: usize) -> u8 {
            if p < self.base || p + len > self.base + self.len {
                return ALL;
            }
            let (start, end) = (p - self.base, p - self.base + len);
            let mut m = 0;
            let mut c = self.cursor;
            // Skip words that lie before this line; collect those with a byte inside it (a word
            // never holds a line break, so a byte inside a line means the word lies inside).
            while let Some(&(q, bit)) = self.found.get(c) {
                if q >= end {
                    break;
                }
                if q >= start {
                    m |= bit;
                }
                c += 1;
            }
            self.cursor = c;
            self.next = self.base + self.found.get(c).map_or(self.len, |w| w.0);
            m
        }
    }

    /// Whether one of the words is at the candidate offset `q` of `chunk` (a byte the SIMD
    /// scan flagged: `@`, or an `a` or `o` followed by `a`, `b` or `c` and then `h`, `o` or `r`);
    /// if so records it as `(q, bit)`. `q` lies inside the word found, so the offsets recorded
    /// keep ascending.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    fn confirm(chunk: &[u8], q: usize, found: &mut Vec<(usize, u8)>) {
        let bit = word_at(chunk, q);
        if bit != 0 {
            found.push((q, bit));
        }
    }

    /// The 64-bit mask of two 32-byte masks (see [`candidates_avx2`]).
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn mask64(lo: std::arch::x86_64::__m256i, hi: std::arch::x86_64::__m256i) -> u64 {
        use std::arch::x86_64::_mm256_movemask_epi8;
        u64::from(_mm256_movemask_epi8(lo) as u32)
            | u64::from(_mm256_movemask_epi8(hi) as u32) << 32
    }

    /// The nonzero candidate masks (see [`candidates_avx2`]) of the blocks of 64 bytes at
    /// `p + 64j` for `j` in `from..to`, as `(64j, mask)` in `hits`; returns how many.
    /// Out of line and free of calls, so that its constants stay in registers.
    ///
    /// # Safety
    /// The CPU must have AVX2, `to - from <= 64`, and `p[64from..64to + 2]` must be readable.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[inline(never)]
    unsafe fn scan_blocks(
        p: *const u8,
        from: usize,
        to: usize,
        hits: &mut [(usize, u64); 64],
    ) -> usize {
        use std::arch::x86_64::*;
        let mut n = 0;
        for j in from..to {
            // SAFETY: the CPU has AVX2 and `p[64j..64j + 66]` is readable (`j < to`).
            let (lo, hi) = candidates_avx2::<false>(p.add(64 * j));
            let any = _mm256_or_si256(lo, hi);
            if _mm256_testz_si256(any, any) == 0 {
                // `n <= j - from < 64`: the `& 63` is a no-op that spares a bounds check.
                hits[n & 63] = (64 * j, mask64(lo, hi));
                n += 1;
            }
        }
        n
    }

    /// Finds the words in `chunk` (see [`NeedleIndex::index`]) with AVX2: a candidate mask per
    /// 64 bytes (see [`candidates_avx2`]), each candidate confirmed by [`confirm`].
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn scan_avx2(chunk: &[u8], found: &mut Vec<(usize, u8)>) {
        // Blocks of 64 bytes that can be read with the two bytes after them: `64k + 66 <= len`.
        let full = chunk.len().saturating_sub(2) / 64;
        // The candidate masks of up to 64 blocks, gathered before confirming any.
        let mut hits = [(0usize, 0u64); 64];
        let mut k = 0;
        while k < full {
            let to = full.min(k + 64);
            // SAFETY: the CPU has AVX2, `to - k <= 64` and `chunk[64k..64to + 2]` exists
            // (`64to + 2 <= 64full + 2 <= len`).
            let n = scan_blocks(chunk.as_ptr(), k, to, &mut hits);
            for &(i, mut m) in &hits[..n] {
                // `m` is not zero (only such masks are kept).
                loop {
                    confirm(chunk, i + m.trailing_zeros() as usize, found);
                    m &= m - 1;
                    if m == 0 {
                        break;
                    }
                }
            }
            k = to;
        }
        // The last 0 to 65 bytes, 64 at a time from a zero-padded copy (zero matches no
        // candidate byte).
        let mut i = 64 * full;
        loop {
            let mut pad = [0u8; 66];
            let rest = &chunk[i..chunk.len().min(i + 64)];
            pad[..rest.len()].copy_from_slice(rest);
            // SAFETY: the CPU has AVX2 and `pad[0..66]` exists.
            let (lo, hi) = candidates_avx2::<false>(pad.as_ptr());
            let mut m = mask64(lo, hi);
            while m != 0 {
                confirm(chunk, i + m.trailing_zeros() as usize, found);
                m &= m - 1;
            }
            i += 64;
            if i >= chunk.len() {
                break;
            }
        }
    }
}

#[cfg(test)]
pub(crate) use reference::NeedleIndex;

#[cfg(test)]
mod tests {
    use super::reference::*;
    use super::*;
    use memchr::memmem;

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

    /// The reference: the words `line` holds, one plain search per word.
    fn exact(line: &[u8]) -> u8 {
        let mut m = 0;
        for (k, w) in WORDS.iter().enumerate() {
            if memmem::find(line, w.as_bytes()).is_some() {
                m |= 1 << k;
            }
        }
        m
    }

    /// The ways to index a chunk: [`NeedleIndex::index`] (AVX2 where the CPU has it), the
    /// packed searcher, and one memmem pass per word.
    fn indexes(chunk: &[u8]) -> [NeedleIndex; 3] {
        let mut ix: [NeedleIndex; 3] = Default::default();
        ix[0].index(chunk);
        ix[1].index_with(chunk, words_searcher());
        ix[2].index_with(chunk, None);
        ix
    }

    /// Every word at every offset of chunks of 1 to 200 bytes (so across the 64-byte block
    /// edges and the zero-padded tail, and at the chunk's first and last bytes), in filler
    /// that makes candidates (`a`, `o`, `h`, `r`) or not (`x`), and cut by the chunk's end:
    /// the chunk is the start of a longer buffer whose bytes must not count.
    #[test]
    fn words_at_block_edges_and_chunk_ends() {
        for filler in [b'x', b'a', b'o', b'h', b'r'] {
            for len in 1..=200 {
                for w in WORDS {
                    for at in 0..len {
                        let mut buf = vec![filler; len + 16];
                        buf[at..at + w.len()].copy_from_slice(w.as_bytes());
                        let chunk = &buf[..len];
                        let want = exact(chunk);
                        for (i, mut ix) in indexes(chunk).into_iter().enumerate() {
                            assert_eq!(ix.hints(chunk), want, "{i} {w:?} at {at} of {len}");
                        }
                    }
                }
            }
        }
    }

    proptest::proptest! {
        /// The inline first answers of `hint_at` are those of `word_at`, at every offset of
        /// chunks built from the words, their pieces and the bytes of near misses.
        #[test]
        fn hint_at_is_word_at(parts in proptest::collection::vec(
            proptest::sample::select(vec![
                "autoboot", "oard", " reached after ", "@", "\n", "a", "o", "b", "c", "h",
                "r", "oar", "our", "ach", "ash", "obo", "oto", "aar", "abo", " reached",
                "auto", "boot", "after ", "ea", "oa",
            ]),
            0..60,
        )) {
            let chunk = parts.concat().into_bytes();
            for q in 0..chunk.len() {
                proptest::prop_assert_eq!(hint_at(&chunk, q, chunk[q]), word_at(&chunk, q));
            }
        }

        /// Every way to index a chunk gives each line exactly the words it holds, and each
        /// slice in order (cut anywhere, even inside a word) at least those.
        #[test]
        fn hints_are_the_words_of_each_line(parts in proptest::collection::vec(
            proptest::sample::select(vec![
                "autoboot", "oard", " reached after ", "@", "\n", "a", "d", " ", "b", "e",
                "o", "h", "r", "oa", "ob", "ea", "oor", "oxo", "axh", "ach", "reached",
                "auto", "boot", "x.target", "oar", "autobo", " reached", "after ",
            ]),
            0..200,
        ), cuts in proptest::collection::vec(0usize..4000, 0..40)) {
            let chunk = parts.concat().into_bytes();
            let lines: Vec<&[u8]> = chunk.split(|&b| b == b'\n').collect();
            for mut ix in indexes(&chunk) {
                for l in &lines {
                    proptest::prop_assert_eq!(ix.hints(l), exact(l));
                }
            }
            let mut cuts: Vec<usize> = cuts.into_iter().filter(|&c| c <= chunk.len()).collect();
            cuts.sort_unstable();
            for mut ix in indexes(&chunk) {
                for s in cuts.windows(2) {
                    let slice = &chunk[s[0]..s[1]];
                    let want = exact(slice);
                    proptest::prop_assert_eq!(ix.hints(slice) & want, want);
                }
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
