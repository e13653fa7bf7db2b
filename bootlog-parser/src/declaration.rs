//! The declaration a grammar makes to [`crate::gate`]: a leaf module the grammar files import,
//! so that the gate can import their declarations without an import circle.

/// A test of a line's text.
pub type LineTest = fn(&str) -> bool;

/// What a grammar tells the gate about the lines it takes, declared in the grammar's file.
pub struct Gate {
    /// The fixed starts of the lines the grammar takes (but those of `other`), 2 bytes or
    /// more each; only the first 16 bytes of each are compared.
    pub prefixes: &'static [&'static str],
    /// The lines the grammar may take without one of `prefixes`: their first bytes, and a
    /// test that is true for every such line it takes (it may be true for others).
    pub other: Option<(&'static [u8], LineTest)>,
    /// The anywhere-words ([`crate::needles`] bits) with which it may take a line, whatever
    /// the line starts with.
    pub words: u8,
}

impl Gate {
    /// The first `k` bytes (`k <= 8`; every prefix holds as many) of each of the `N` prefixes,
    /// little-endian: for a grammar's own quick test of a line's first bytes (see [`lead`]).
    pub const fn leads<const N: usize>(&self, k: usize) -> [u64; N] {
        assert!(N == self.prefixes.len() && k <= 8);
        let mut t = [0u64; N];
        let mut i = 0;
        while i < N {
            let p = self.prefixes[i].as_bytes();
            assert!(p.len() >= k, "a prefix shorter than its lead");
            let mut j = 0;
            while j < k {
                t[i] |= (p[j] as u64) << (8 * j);
                j += 1;
            }
            i += 1;
        }
        t
    }
}

/// The first `k` bytes of `b` (`k <= 8`) as [`Gate::leads`] has them; `None` when `b` is
/// shorter.
#[inline(always)]
pub fn lead(b: &[u8], k: usize) -> Option<u64> {
    let w = b.get(..k)?;
    Some(
        w.iter()
            .enumerate()
            .fold(0, |v, (j, &c)| v | u64::from(c) << (8 * j)),
    )
}
