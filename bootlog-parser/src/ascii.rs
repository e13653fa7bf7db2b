//! ASCII trimming as `str::trim_ascii_start` / `trim_ascii_end` do, kept here because those
//! are Rust 1.80 and the crate builds with 1.75 (Yocto scarthgap's Rust); std's Unicode
//! `trim*`, `find(char::is_whitespace)` and `split_whitespace().next()` with a byte-level
//! fast path for ASCII text (the grammars' rejection paths run them on most lines); the
//! SSE2 special-byte scan; and the 8-bytes-a-word (SWAR) helpers the scanners share.

/// 8 bytes of `b` from `at` as a little-endian word (first byte lowest), if there are 8.
/// The test is `at <= len - 8` (with `len >= 8`), not `at + 8 <= len` with an overflow
/// check: where the length is known to reach 8 it is one compare.
#[inline]
pub(crate) fn word_at(b: &[u8], at: usize) -> Option<u64> {
    if b.len() < 8 || at > b.len() - 8 {
        return None;
    }
    // SAFETY: `at + 8 <= b.len()` (just tested, without overflow), so the unaligned 8-byte
    // read lies inside `b`.
    Some(u64::from_le(unsafe {
        std::ptr::read_unaligned(b.as_ptr().add(at) as *const u64)
    }))
}

/// `s.clear(); s.push_str(t)`, a text of 8 to 32 bytes that fits `s`'s capacity copied by
/// two overlapping 8- or 16-byte moves, inline, instead of a `memcpy` call (initcall_debug's
/// function names, one a `calling` line, are mostly that long). The reference is the
/// clear and push, in the tests, with a proptest that they agree.
#[inline(always)]
pub(crate) fn replace_text(s: &mut String, t: &str) {
    if !try_replace_text(s, t) {
        s.clear();
        s.push_str(t);
    }
}

/// [`replace_text`]'s inline copy alone: `true` when it made `s` hold `t` (a text of 8 to 32
/// bytes that fits `s`'s capacity), `false` with `s` untouched otherwise. A caller whose
/// other case is a jump to an out-of-line function needs no frame for a memcpy call.
#[inline(always)]
pub(crate) fn try_replace_text(s: &mut String, t: &str) -> bool {
    let n = t.len();
    if (8..=32).contains(&n) && s.capacity() >= n {
        // SAFETY: `s` has room for `n` bytes (its capacity), and the moves below write
        // `dst[0..n]` only: the first 8 (16) bytes and the last 8 (16), overlapping, with
        // `n >= 8` (`n >= 16` for the 16-byte moves), reading `t[0..n]` the same way. The
        // bytes written are `t`'s, valid UTF-8, so `s` is valid UTF-8 at its new length.
        unsafe {
            let v = s.as_mut_vec();
            let dst = v.as_mut_ptr();
            let src = t.as_ptr();
            if n >= 16 {
                let a = std::ptr::read_unaligned(src as *const [u8; 16]);
                let b = std::ptr::read_unaligned(src.add(n - 16) as *const [u8; 16]);
                std::ptr::write_unaligned(dst as *mut [u8; 16], a);
                std::ptr::write_unaligned(dst.add(n - 16) as *mut [u8; 16], b);
            } else {
                let a = std::ptr::read_unaligned(src as *const u64);
                let b = std::ptr::read_unaligned(src.add(n - 8) as *const u64);
                std::ptr::write_unaligned(dst as *mut u64, a);
                std::ptr::write_unaligned(dst.add(n - 8) as *mut u64, b);
            }
            v.set_len(n);
        }
        return true;
    }
    false
}

/// The high bit of each byte of `w` that equals `c`, exact up to the first such byte (a
/// byte's borrow only spills into the bytes above a hit), so `!= 0` is "any" and
/// `trailing_zeros() / 8` the first.
#[inline]
pub(crate) fn eq_mask(w: u64, c: u8) -> u64 {
    const LO: u64 = 0x0101_0101_0101_0101;
    let x = w ^ (LO * u64::from(c));
    x.wrapping_sub(LO) & !x & (LO << 7)
}

/// Appends `n` in decimal (what `write!(s, "{n}")` gives, without the formatting machinery).
#[inline]
pub(crate) fn push_decimal(s: &mut String, n: u64) {
    // One digit (SBL run numbers, most line numbers' last digits): no buffer.
    if n < 10 {
        s.push(char::from(b'0' + n as u8));
        return;
    }
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    let mut n = n;
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // SAFETY: `buf[i..]` holds only the ASCII digits written above, which are UTF-8.
    s.push_str(unsafe { std::str::from_utf8_unchecked(&buf[i..]) });
}

/// The ASCII digits of `b` from `i` folded onto `v` (`v * 10 + d` each, wrapping): the value
/// and where the digits end. Wrapping, so callers check the run's length where it may not fit.
#[inline]
pub(crate) fn fold_digits(b: &[u8], mut i: usize, mut v: u64) -> (u64, usize) {
    while let Some(&c) = b.get(i) {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        v = v.wrapping_mul(10).wrapping_add(u64::from(d));
        i += 1;
    }
    (v, i)
}

/// `s` without leading ASCII whitespace (space, `\t`, `\n`, `\x0c`, `\r`).
#[inline]
pub(crate) fn trim_start(s: &str) -> &str {
    // SAFETY: `trim_start_bytes` drops only ASCII bytes from the front of the valid UTF-8
    // `s`, so what is left starts on a char boundary and is valid UTF-8 too (no boundary
    // check on every console line).
    unsafe { std::str::from_utf8_unchecked(trim_start_bytes(s.as_bytes())) }
}

/// `b.len()` less its trailing spaces, 16 bytes a step (SSE2, x86_64) while 16 are left, then
/// 8 bytes a word while 8 are left (the spaces of the last block that is not all spaces counted
/// at once, by its highest non-space byte): console captures pad lines with dozens of blanks,
/// which a byte loop pays for one by one. Fewer than 8 bytes left: the callers' byte loops finish.
/// `always`, as [`trim_end_ws`] is: left to itself the compiler made it a call there.
#[inline(always)]
fn skip_space_words(b: &[u8]) -> usize {
    const SPACES: u64 = u64::from_le_bytes(*b"        ");
    let mut n = b.len();
    // Blame rows and padded captures end in 40 and more blanks: 16 bytes a step with SSE2
    // while 16 are left, the words below finishing.
    #[cfg(target_arch = "x86_64")]
    while n >= 16 {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of the x86_64 baseline; `16 <= n <= b.len()`, so the
        // unaligned load of `b[n - 16..n]` reads inside `b`.
        let spaces = unsafe {
            let v = _mm_loadu_si128(b.as_ptr().add(n - 16) as *const __m128i);
            _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(b' ' as i8))) as u32
        };
        // Bit `j` set: byte `n - 16 + j` is not a space.
        let other = !spaces & 0xffff;
        if other != 0 {
            // The highest such bit is bit `31 - lz`: the last byte that is not a space.
            return n + 16 - other.leading_zeros() as usize;
        }
        n -= 16;
    }
    while n >= 8 {
        let x = word_at(b, n - 8).map_or(1, |w| w ^ SPACES);
        if x != 0 {
            // The highest bytes are the last ones: each zero byte there is a space.
            return n - (x.leading_zeros() / 8) as usize;
        }
        n -= 8;
    }
    n
}

/// The number of leading spaces of `b`, 8 bytes a word while 8 are left (the spaces of the
/// first word that is not all spaces counted at once, by its trailing zero bytes once xored
/// with spaces); fewer than 8 bytes left: where the words stopped, for the callers' byte loops.
/// With SSE2 (x86_64) and 16 bytes or more, the first 16 at once: indented console lines
/// (4 to 9 blanks, tens of thousands a log) are answered in one step, not two or three words.
#[inline]
fn skip_space_words_start(b: &[u8]) -> usize {
    const SPACES: u64 = u64::from_le_bytes(*b"        ");
    let mut i = 0;
    #[cfg(target_arch = "x86_64")]
    if b.len() >= 16 {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of the x86_64 baseline; `b` has 16 bytes or more, so the
        // unaligned load of `b[0..16]` reads inside it.
        let spaces = unsafe {
            let v = _mm_loadu_si128(b.as_ptr() as *const __m128i);
            _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(b' ' as i8))) as u32
        };
        // Bit `j` set: byte `j` is not a space; the lowest is the first such byte.
        let other = spaces ^ 0xffff;
        if other != 0 {
            return other.trailing_zeros() as usize;
        }
        i = 16;
    }
    while let Some(w) = word_at(b, i) {
        let x = w ^ SPACES;
        if x != 0 {
            // The lowest bytes are the first ones: each zero byte there is a space.
            return i + (x.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    i
}

/// `s` without trailing ASCII whitespace.
pub(crate) fn trim_end(s: &str) -> &str {
    let b = s.as_bytes();
    let mut n = skip_space_words(b);
    // One bounds test a byte (`n - 1` wraps to a miss at 0).
    while b
        .get(n.wrapping_sub(1))
        .is_some_and(u8::is_ascii_whitespace)
    {
        n -= 1;
    }
    // SAFETY: `n <= b.len()` (it only went down from `b.len()`), and `b[n..]` is all ASCII
    // whitespace, so `n` is the end or an ASCII byte's start: a char boundary.
    unsafe { s.get_unchecked(..n) }
}

/// `b` without leading ASCII whitespace.
pub(crate) fn trim_start_bytes(b: &[u8]) -> &[u8] {
    // Indented lines (blame rows, SBL tables, padded captures) start with runs of spaces:
    // counted a word at a time; other lines pay one compare for it.
    let mut i = if b.first() == Some(&b' ') {
        skip_space_words_start(b)
    } else {
        0
    };
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    &b[i..]
}

/// `s.trim_end()` (Unicode whitespace): a byte at a time while the bytes are ASCII, the
/// char-based std trim only from a non-ASCII byte on. Grammars trim most lines they see.
/// `always` (as [`trim_start_ws`], [`find_byte`]): with `#[inline]` alone the compiler made
/// these calls in the grammars whenever their functions grew (the SBL and bootstage row
/// readers paid a call a row for each).
#[inline(always)]
pub(crate) fn trim_end_ws(s: &str) -> &str {
    let b = s.as_bytes();
    let mut n = skip_space_words(b);
    // One bounds test a byte (`n - 1` wraps to a miss at 0).
    while let Some(&c) = b.get(n.wrapping_sub(1)) {
        match c {
            b' ' | b'\t'..=b'\r' => n -= 1,
            // `n` follows an ASCII byte (or is the end): a char boundary.
            c if c >= 0x80 => return s[..n].trim_end(),
            _ => break,
        }
    }
    // SAFETY: `n <= b.len()` (it only went down from `b.len()`), and `b[n..]` is all ASCII
    // whitespace, so `n` is the end or an ASCII byte's start: a char boundary.
    unsafe { s.get_unchecked(..n) }
}

/// `s.trim_start()` (Unicode whitespace), ASCII bytes first as [`trim_end_ws`] does.
#[inline(always)]
pub(crate) fn trim_start_ws(s: &str) -> &str {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b' ' | b'\t'..=b'\r' => i += 1,
            c if c >= 0x80 => return s[i..].trim_start(),
            _ => break,
        }
    }
    &s[i..]
}

/// `s.trim()` (Unicode whitespace), ASCII bytes first.
#[inline]
pub(crate) fn trim_ws(s: &str) -> &str {
    trim_start_ws(trim_end_ws(s))
}

/// [`trim_ws`] with no look at an end whose byte is ASCII and no blank: `trim_end_ws` (or
/// `trim_start_ws`) would stop on that byte at once (no space to skip, no Unicode blank to
/// trim). Most values the grammars trim end so (`v2.8-...`, `3.1 (firmware ...`), and most
/// bootstage row names start so too (`board_init_r`), and skip the end's block scan.
#[inline(always)]
pub(crate) fn trim_ws_graphic_ends(s: &str) -> &str {
    let b = s.as_bytes();
    match (b.first(), b.last()) {
        (Some(f), Some(l)) if l.is_ascii_graphic() => {
            if f.is_ascii_graphic() {
                s
            } else {
                trim_start_ws(s)
            }
        }
        _ => trim_ws(s),
    }
}

/// `s.find(char::is_whitespace).unwrap_or(s.len())`: where the first word of `s` ends,
/// scanning bytes while they are ASCII.
#[inline]
pub(crate) fn word_end(s: &str) -> usize {
    word_end_from(s, 0)
}

/// `from + word_end(&s[from..])` for a char boundary `from`: 16 bytes a step by SSE2 (8 by
/// words where fewer are left, or on other targets), the step's first byte that is a blank, a
/// control or not ASCII found by its flag (an initcall's `+0x0/0x90` ends mid-word), bytes one
/// by one only from a control or a non-ASCII byte on.
/// Always inlined: a call cost about a fifth of `linux::line_full`, its hottest caller.
#[inline(always)]
pub(crate) fn word_end_from(s: &str, from: usize) -> usize {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = LO << 7;
    let b = s.as_bytes();
    let mut i = from;
    // 16 bytes a step first: the bytes below 0x21 or of 0x80 or more (those that are, as
    // signed bytes, below 0x21) flagged at once.
    while let Some(m) = below_0x21_or_high(b, i, 0) {
        if m != 0 {
            return word_end_at(s, i + m.trailing_zeros() as usize);
        }
        i += 16;
    }
    while let Some(x) = word_at(b, i) {
        // Bytes below 0x21 or of 0x80 or more; the lowest flag is exact (borrows only start
        // at such a byte).
        let m = (x.wrapping_sub(LO * 0x21) & !x & HI) | (x & HI);
        if m != 0 {
            i += (m.trailing_zeros() / 8) as usize;
            break;
        }
        i += 8;
    }
    word_end_at(s, i)
}

/// The bit of each byte of `b[at..at + 16]` that is below 0x21, of 0x80 or more, or equal to
/// `also` (pass 0 for none: a NUL is below 0x21 anyway), by SSE2 on x86_64; `None` when fewer
/// than 16 bytes are left from `at` (or on other targets), where the word loops take over.
#[inline(always)]
pub(crate) fn below_0x21_or_high(b: &[u8], at: usize, also: u8) -> Option<u32> {
    #[cfg(target_arch = "x86_64")]
    if at.checked_add(16)? <= b.len() {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of the x86_64 baseline, and `at + 16 <= b.len()` was checked
        // just above, so the unaligned load reads inside `b`.
        return Some(unsafe {
            let v = _mm_loadu_si128(b.as_ptr().add(at) as *const __m128i);
            // Signed compare: bytes of 0x80 or more are negative, below 0x21 too.
            let low = _mm_cmplt_epi8(v, _mm_set1_epi8(0x21));
            let eq = _mm_cmpeq_epi8(v, _mm_set1_epi8(also as i8));
            _mm_movemask_epi8(_mm_or_si128(low, eq)) as u32
        });
    }
    let _ = (b, at, also);
    None
}

/// [`word_end_from`] past its scans: from `i`, a char boundary after which the word's ASCII
/// graphic bytes are done, the bytes one by one up to a blank (or the Unicode search from a
/// non-ASCII byte on).
#[inline(always)]
fn word_end_at(s: &str, mut i: usize) -> usize {
    let b = s.as_bytes();
    while i < b.len() {
        match b[i] {
            b' ' | b'\t'..=b'\r' => return i,
            // After ASCII bytes: a char boundary.
            c if c >= 0x80 => return s[i..].find(char::is_whitespace).map_or(s.len(), |j| i + j),
            _ => i += 1,
        }
    }
    i
}

/// The first `c` of `b`: 16 bytes a step with SSE2 on x86_64 (the last step overlapping the
/// one before), else 8 bytes a word (the last word overlapping too), bytes only under 8; the
/// texts searched (the rest of a grabserial line, a unit name, a SYSFW line) are short, where `memchr` pays more for
/// its set-up and call than it saves.
#[inline(always)]
pub(crate) fn find_byte(b: &[u8], c: u8) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if b.len() >= 16 {
        use std::arch::x86_64::*;
        // The bit of each byte of `b[at..at + 16]` that is `c`.
        let hits = |at: usize| {
            // SAFETY: SSE2 is part of the x86_64 baseline; every caller below passes
            // `at + 16 <= b.len()`, so the unaligned load reads inside `b`.
            unsafe {
                let v = _mm_loadu_si128(b.as_ptr().add(at) as *const __m128i);
                _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8))) as u32
            }
        };
        let mut at = 0;
        while at + 16 <= b.len() {
            let m = hits(at);
            if m != 0 {
                return Some(at + m.trailing_zeros() as usize);
            }
            at += 16;
        }
        if at < b.len() {
            // The last 16 bytes, less those already looked at (`at - last` of them, 1..16).
            let last = b.len() - 16;
            let m = hits(last) >> (at - last);
            if m != 0 {
                return Some(at + m.trailing_zeros() as usize);
            }
        }
        return None;
    }
    if let Some(w) = word_at(b, 0) {
        // `eq_mask` is exact up to the first hit; the last word's bytes that the first one
        // holds too have no `c`, so its first hit is the first after them.
        for at in [0, b.len() - 8] {
            let m = eq_mask(if at == 0 { w } else { word_at(b, at)? }, c);
            if m != 0 {
                return Some(at + (m.trailing_zeros() / 8) as usize);
            }
        }
        return None;
    }
    b.iter().position(|&x| x == c)
}

/// The first `k` of `b` where `b[k] == c0` and `b[k + 1] == c1`: 16 pairs a step with SSE2 on
/// x86_64 (two loads a byte apart; the last step overlapping the one before), a byte at a time
/// elsewhere and under 17 bytes. For a two-byte word that is rare in the text searched, where
/// a search for its first byte alone stops at every one of them (SYSFW's `oa` of `oard`).
#[inline]
pub(crate) fn find_pair(b: &[u8], c0: u8, c1: u8) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if b.len() >= 17 {
        use std::arch::x86_64::*;
        // The bit of each `k` in `at..at + 16` where the pair starts.
        let hits = |at: usize| {
            // SAFETY: SSE2 is part of the x86_64 baseline; every caller below passes
            // `at + 17 <= b.len()`, so both unaligned loads (`at..at + 16` and
            // `at + 1..at + 17`) read inside `b`.
            unsafe {
                let p = b.as_ptr().add(at);
                let v0 = _mm_loadu_si128(p as *const __m128i);
                let v1 = _mm_loadu_si128(p.add(1) as *const __m128i);
                let e0 = _mm_cmpeq_epi8(v0, _mm_set1_epi8(c0 as i8));
                let e1 = _mm_cmpeq_epi8(v1, _mm_set1_epi8(c1 as i8));
                _mm_movemask_epi8(_mm_and_si128(e0, e1)) as u32
            }
        };
        let mut at = 0;
        while at + 17 <= b.len() {
            let m = hits(at);
            if m != 0 {
                return Some(at + m.trailing_zeros() as usize);
            }
            at += 16;
        }
        if at + 1 < b.len() {
            // The last 16 pair starts, less those already looked at (`at - last`, 1..16).
            let last = b.len() - 17;
            let m = hits(last) >> (at - last);
            if m != 0 {
                return Some(at + m.trailing_zeros() as usize);
            }
        }
        return None;
    }
    b.windows(2).position(|p| p[0] == c0 && p[1] == c1)
}

/// `s.split_whitespace().next()`: the first word, if any.
#[inline]
pub(crate) fn first_word(s: &str) -> Option<&str> {
    let s = trim_start_ws(s);
    (!s.is_empty()).then(|| &s[..word_end(s)])
}

/// Whether `b` holds a byte below 0x20 other than `allow`, a byte of 0x80 or above, or one of
/// `also`. 16 bytes a step with SSE2 on x86_64 (the last step overlapping the one before), a
/// byte at a time elsewhere: it runs on every console line and every string written as JSON.
#[inline]
pub(crate) fn any_special(b: &[u8], allow: u8, also: [u8; 2]) -> bool {
    #[cfg(target_arch = "x86_64")]
    if b.len() >= 16 {
        use std::arch::x86_64::*;
        let step = |at: usize| {
            // SAFETY: SSE2 is part of the x86_64 baseline; callers pass `at + 16 <= b.len()`,
            // so the unaligned load reads inside `b`.
            unsafe {
                let v = _mm_loadu_si128(b.as_ptr().add(at) as *const __m128i);
                // Signed: bytes >= 0x80 are negative, so `< 0x20` catches them too.
                let low = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));
                let ok = _mm_cmpeq_epi8(v, _mm_set1_epi8(allow as i8));
                let a = _mm_cmpeq_epi8(v, _mm_set1_epi8(also[0] as i8));
                let c = _mm_cmpeq_epi8(v, _mm_set1_epi8(also[1] as i8));
                let hit = _mm_or_si128(_mm_andnot_si128(ok, low), _mm_or_si128(a, c));
                _mm_movemask_epi8(hit) != 0
            }
        };
        let mut at = 0;
        while at + 16 <= b.len() {
            if step(at) {
                return true;
            }
            at += 16;
        }
        return at < b.len() && step(b.len() - 16);
    }
    b.iter()
        .any(|&c| (c < 0x20 && c != allow) || c >= 0x80 || also.contains(&c))
}

/// `a == b`, with short slices (names of initcalls and SBL steps) compared as one or two
/// words in line instead of through a `memcmp` call; 8 to 16 bytes, the commonest, tested
/// first with one compare. Also the timeline's compare of component keys and values.
#[inline]
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let word = |s: &[u8], at: usize| u64::from_le_bytes(s[at..at + 8].try_into().unwrap());
    let half = |s: &[u8], at: usize| u32::from_le_bytes(s[at..at + 4].try_into().unwrap());
    if n.wrapping_sub(8) <= 8 {
        return word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8);
    }
    match n {
        // First, middle and last byte cover 1 to 3 bytes: no `memcmp` call for the shortest
        // (component keys such as `tfa`).
        0..=3 => n == 0 || (a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1]),
        4..=7 => half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: 17 <= n = a.len() = b.len() <= 64.
        17..=64 => unsafe { same_17_to_64(a, b) },
        #[cfg(not(target_arch = "x86_64"))]
        17..=32 => {
            word(a, 0) == word(b, 0)
                && word(a, 8) == word(b, 8)
                && word(a, n - 16) == word(b, n - 16)
                && word(a, n - 8) == word(b, n - 8)
        }
        _ => word(a, 0) == word(b, 0) && a == b,
    }
}

/// [`same_bytes`] of 17 to 64 bytes as overlapping 16-byte blocks compared in SSE2, all at
/// once: two blocks (the first and last 16 bytes) up to 32 bytes, four (at 0, 16, n - 32,
/// n - 16) above, with no `memcmp` call (component values, versions and kernel command
/// lines rewritten boot after boot are mostly 33 to 64 bytes).
///
/// # Safety
/// `17 <= a.len() == b.len() <= 64`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn same_17_to_64(a: &[u8], b: &[u8]) -> bool {
    use std::arch::x86_64::*;
    let n = a.len();
    debug_assert!((17..=64).contains(&n) && b.len() == n);
    // SSE2 is part of the x86_64 baseline; every block read starts at an offset `at` with
    // at + 16 <= n (0, 16 and n - 32 only when n >= 32, n - 16), so lies inside both slices.
    let eq = |at: usize| {
        _mm_cmpeq_epi8(
            _mm_loadu_si128(a.as_ptr().add(at) as *const __m128i),
            _mm_loadu_si128(b.as_ptr().add(at) as *const __m128i),
        )
    };
    let mut m = _mm_and_si128(eq(0), eq(n - 16));
    if n > 32 {
        m = _mm_and_si128(m, _mm_and_si128(eq(16), eq(n - 32)));
    }
    _mm_movemask_epi8(m) == 0xffff
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// [`same_bytes`] is `==`.
        #[test]
        fn same_bytes_is_eq(
            a in proptest::collection::vec(proptest::sample::select(vec![b'a', b'b', 0u8, 0xff]), 0..80),
            flip in proptest::option::of(0usize..80),
            grow in proptest::bool::ANY,
        ) {
            let mut b = a.clone();
            if let Some(i) = flip.filter(|&i| i < b.len()) {
                b[i] ^= 1;
            }
            if grow {
                b.push(b'a');
            }
            proptest::prop_assert_eq!(same_bytes(&a, &b), a == b);
            proptest::prop_assert!(same_bytes(&a, &a));
        }
    }

    proptest::proptest! {
        /// [`trim_ws_graphic_ends`] is [`trim_ws`] on texts of words, ASCII and Unicode blanks
        /// and controls, ending in any of them.
        #[test]
        fn trim_ws_graphic_ends_is_trim_ws(parts in proptest::collection::vec(proptest::sample::select(vec![
            "v2.8", "a", " ", "  ", "        ", "\t", "\r", "\n", "\x0b", "\x0c", "\x1f", "\x7f",
            "\u{a0}", "\u{2003}", "\u{e9}", "~", ")", "'",
        ]), 0..8)) {
            let t = parts.concat();
            proptest::prop_assert_eq!(trim_ws_graphic_ends(&t), trim_ws(&t), "{:?}", t);
        }
    }

    proptest::proptest! {
        /// [`replace_text`] is a clear and a push, whatever the string held and its room.
        #[test]
        fn replace_text_is_clear_and_push(old in "[a-z\u{e9}]{0,40}", room in 0usize..48, t in "[a-z_\u{e9}]{0,36}") {
            let mut s = String::with_capacity(room);
            s.push_str(&old);
            let mut want = s.clone();
            want.clear();
            want.push_str(&t);
            replace_text(&mut s, &t);
            proptest::prop_assert_eq!(s, want);
        }

        /// [`try_replace_text`] is a clear and a push when it answers `true`, leaves the
        /// string as it was when `false`, and takes every text of 8 to 32 bytes with room.
        #[test]
        fn try_replace_text_is_clear_and_push_or_nothing(old in "[a-z\u{e9}]{0,40}", room in 0usize..48, t in "[a-z_\u{e9}]{0,36}") {
            let mut s = String::with_capacity(room);
            s.push_str(&old);
            let before = s.clone();
            let fits = (8..=32).contains(&t.len()) && s.capacity() >= t.len();
            let took = try_replace_text(&mut s, &t);
            proptest::prop_assert_eq!(took, fits);
            proptest::prop_assert_eq!(s, if took { t } else { before });
        }
    }

    /// [`word_at`] as it was first written (a checked range, then a copy): the reference.
    fn word_at_ref(b: &[u8], at: usize) -> Option<u64> {
        let mut w = [0u8; 8];
        w.copy_from_slice(b.get(at..at.checked_add(8)?)?);
        Some(u64::from_le_bytes(w))
    }

    proptest::proptest! {
        /// [`word_at`] is its reference at every offset of short and long texts, and at
        /// offsets near `usize::MAX` (where `at + 8` overflows).
        #[test]
        fn word_at_is_ref(b in proptest::collection::vec(proptest::num::u8::ANY, 0..24), back in 0usize..10) {
            for at in 0..b.len() + 9 {
                proptest::prop_assert_eq!(word_at(&b, at), word_at_ref(&b, at));
            }
            let far = usize::MAX - back;
            proptest::prop_assert_eq!(word_at(&b, far), word_at_ref(&b, far));
        }
    }

    proptest::proptest! {
        #[test]
        fn any_special_is_the_byte_rule(
            b in proptest::collection::vec(
                proptest::prop_oneof![0u8..=255, proptest::sample::select(vec![0x09u8, 0x1f, 0x20, b'"', 0x7f, 0x80])],
                0..70,
            ),
            allow in proptest::sample::select(vec![0x09u8, 0x20]),
        ) {
            let also = [b'"', 0x7f];
            let want = b.iter().any(|&c| (c < 0x20 && c != allow) || c >= 0x80 || also.contains(&c));
            proptest::prop_assert_eq!(any_special(&b, allow, also), want);
        }
    }

    proptest::proptest! {
        /// `push_decimal` appends what `write!` gives, small and large numbers alike.
        #[test]
        fn push_decimal_is_write(n in proptest::prop_oneof![0u64..20, proptest::num::u64::ANY], pre in "[a-z]{0,3}") {
            let mut s = pre.clone();
            push_decimal(&mut s, n);
            proptest::prop_assert_eq!(s, format!("{pre}{n}"));
        }
    }

    proptest::proptest! {
        /// The ASCII-first trims are std's Unicode `trim*` on any text, whitespace of every
        /// kind (ASCII, `\x0b`, U+0085, U+00A0, U+3000) and near-whitespace (`\x1c`) included.
        #[test]
        fn ws_trims_are_std(s in "[ \t\n\r\x0b\x0c\x1cax\u{85}\u{a0}\u{3000}\u{e9}]{0,12}", pad in 0usize..50, pad_n in 0usize..20) {
            let s = format!("{s}{}", " ".repeat(pad));
            proptest::prop_assert_eq!(trim_end_ws(&s), s.trim_end());
            proptest::prop_assert_eq!(trim_end(&s), s.trim_end_matches(|c: char| c.is_ascii_whitespace()));
            proptest::prop_assert_eq!(trim_start_ws(&s), s.trim_start());
            proptest::prop_assert_eq!(trim_ws(&s), s.trim());
            proptest::prop_assert_eq!(word_end(&s), s.find(char::is_whitespace).unwrap_or(s.len()));
            let long = format!("abcdefgh!~{s}{s}");
            proptest::prop_assert_eq!(word_end(&long), long.find(char::is_whitespace).unwrap_or(long.len()));
            let pad = format!("{}{s}", " ".repeat(9));
            proptest::prop_assert_eq!(trim_start(&pad), pad.trim_start_matches(|c: char| c.is_ascii_whitespace()));
            let lead = format!("{}{s}", " ".repeat(pad_n));
            proptest::prop_assert_eq!(trim_start(&lead), lead.trim_start_matches(|c: char| c.is_ascii_whitespace()));
            proptest::prop_assert_eq!(first_word(&s), s.split_whitespace().next());
        }
    }

    proptest::proptest! {
        /// The word-at-a-time word end is `word_end` from every char boundary.
        #[test]
        fn word_end_from_is_word_end(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "+0x0/0x90", " ", "\t", "\r", "\x01", "\x1f", "!", "\u{a0}", "\u{3000}", "é", "x",
                "returned", "abcdefgh", "0x1f",
            ]), 0..7),
        ) {
            let s = parts.concat();
            for from in (0..=s.len()).filter(|&k| s.is_char_boundary(k)) {
                proptest::prop_assert_eq!(
                    word_end_from(&s, from),
                    from + word_end(&s[from..]),
                    "{:?} from {}", s, from
                );
                proptest::prop_assert_eq!(
                    word_end_from(&s, from),
                    from + s[from..].find(char::is_whitespace).unwrap_or(s.len() - from),
                    "{:?} from {}", s, from
                );
            }
        }

    }

    proptest::proptest! {
        /// The SSE2 and word search for a byte is the byte search, at every length.
        #[test]
        fn find_byte_is_memchr(s in "[\\[a \u{e9}]{0,70}", pad in 0usize..40) {
            proptest::prop_assert_eq!(find_byte(s.as_bytes(), b'['), memchr::memchr(b'[', s.as_bytes()));
            // Long runs without a `[` before it, so the hit falls in every step and tail.
            let t = format!("{}{s}", "x".repeat(pad));
            proptest::prop_assert_eq!(find_byte(t.as_bytes(), b'['), memchr::memchr(b'[', t.as_bytes()));
            for c in [b' ', b'a'] {
                proptest::prop_assert_eq!(find_byte(t.as_bytes(), c), memchr::memchr(c, t.as_bytes()));
            }
        }
    }

    proptest::proptest! {
        /// The SSE2 pair search is the `windows(2)` search, at every length and offset.
        #[test]
        fn find_pair_is_the_window_search(s in "[oa \u{e9}x]{0,70}", pad in 0usize..40) {
            let t = format!("{}{s}", "x".repeat(pad));
            for (c0, c1) in [(b'o', b'a'), (b'a', b'o'), (b'o', b'o'), (b' ', b'x')] {
                let want = t.as_bytes().windows(2).position(|p| p[0] == c0 && p[1] == c1);
                proptest::prop_assert_eq!(find_pair(t.as_bytes(), c0, c1), want, "{:?}", t);
            }
        }
    }

    proptest::proptest! {
        /// `trim_start` (no boundary check) is std's ASCII trim on texts glued from blanks,
        /// words and non-ASCII characters.
        #[test]
        fn trim_start_is_std_on_glued_texts(parts in proptest::collection::vec(proptest::sample::select(vec![
            " ", "        ", "\t", "\r", "\n", "\x0c", "\x0b", "x", "[", "login:", "\u{e9}",
            "\u{a0}", "\u{2003}", "\u{fffd}",
        ]), 0..12)) {
            let text = parts.concat();
            proptest::prop_assert_eq!(trim_start(&text), text.trim_start_matches(|c: char| c.is_ascii_whitespace()));
        }
    }

    #[test]
    fn trims_like_std() {
        for s in [
            "",
            " ",
            " \t\r\n\x0c x \x0b",
            "x",
            "  é  ",
            "\u{a0} x",
            "x                 ",
            " \t                ",
        ] {
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
