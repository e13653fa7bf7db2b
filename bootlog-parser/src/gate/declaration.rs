//! The declaration a grammar makes to [`crate::gate`]: a module of its own, which the grammar
//! files import, so that the gate can import their declarations without an import circle.

/// What a grammar tells the gate about the lines it takes, declared in the grammar's file.
pub struct Gate {
    /// The fixed starts of the lines the grammar takes (but those of `other`), 2 bytes or
    /// more each; only the first 16 bytes of each are compared.
    pub prefixes: &'static [&'static str],
    /// The lines the grammar may take without one of `prefixes`: their first bytes, and a
    /// test that is true for every such line it takes (it may be true for others).
    pub other: Option<(&'static [u8], fn(&str) -> bool)>,
    /// The anywhere-words ([`crate::needles`] bits) with which it may take a line, whatever
    /// the line starts with.
    pub words: u8,
}
