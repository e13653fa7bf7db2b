//! The pools that keep a boot's vectors and strings for the next boots: slots rewritten in
//! place, a string pool by size class, and the queue of boots done. They know no grammar.

use crate::ascii::{self, same_bytes};
use crate::model::*;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Moves a buffer's items into a vector of exactly their number (one allocation, none when
/// empty), leaving the buffer empty with its capacity for the next boot.
pub(super) fn exact<T>(buf: &mut Vec<T>) -> Vec<T> {
    let mut v = Vec::with_capacity(buf.len());
    v.append(buf);
    v
}

/// A buffer's items as a vector for a boot: the buffer itself when a spare can take its place
/// (no allocation, no copy), else an [`exact`] copy. None when empty.
pub(super) fn hand_out<T>(buf: &mut Vec<T>, spares: &mut Vec<Vec<T>>, held: &mut usize) -> Vec<T> {
    if buf.is_empty() {
        return Vec::new();
    }
    match spare(spares, held) {
        Some(s) => std::mem::replace(buf, s),
        None => exact(buf),
    }
}

/// Moves a builder buffer's items into `dst`, a boot's emptied list, by swapping the two:
/// the builder keeps `dst`'s capacity (or a spare's, when `dst` has none) for the next boot.
/// Nothing moves when the buffer is empty.
pub(super) fn swap_list<T>(
    src: &mut Vec<T>,
    dst: &mut Vec<T>,
    spares: &mut Vec<Vec<T>>,
    held: &mut usize,
) {
    debug_assert!(dst.is_empty());
    if src.is_empty() {
        return;
    }
    if dst.capacity() == 0 {
        if let Some(s) = spare(spares, held) {
            *dst = s;
        }
    }
    std::mem::swap(src, dst);
}

/// Empties a boot's marks, their made kinds to the pool.
pub(super) fn clear_marks(v: &mut Vec<Mark>, pool: &mut StringPool) {
    for m in v.drain(..) {
        if let Cow::Owned(k) = m.kind {
            pool.put(k);
        }
    }
}

/// Bounds a list kept whole for its items' strings to be rewritten (see [`Slots`]) as the
/// pool is bounded: a vector too big is freed, and so is a string too long for the pool.
pub(super) fn bound_whole<T: Named>(v: &mut Vec<T>) {
    if vec_bytes(v) > Bin::MAX_VEC_BYTES {
        *v = Vec::new();
        return;
    }
    for it in v.iter_mut() {
        let name = it.name_mut();
        if name.capacity() >= MIN_CAP << STRING_CLASSES {
            *name = String::new();
        }
    }
}

/// Bytes of a vector's buffer.
pub(super) fn vec_bytes<T>(v: &Vec<T>) -> usize {
    v.capacity() * std::mem::size_of::<T>()
}

/// A cleared vector from the spares, if any.
pub(super) fn spare<T>(spares: &mut Vec<Vec<T>>, held: &mut usize) -> Option<Vec<T>> {
    let v = spares.pop()?;
    *held -= vec_bytes(&v);
    Some(v)
}

/// Keeps an emptied vector as a spare, unless it holds nothing, is huge, or the bin is full.
pub(super) fn keep<T>(spares: &mut Vec<Vec<T>>, held: &mut usize, v: Vec<T>) {
    debug_assert!(v.is_empty());
    let bytes = vec_bytes(&v);
    if bytes == 0 || bytes > Bin::MAX_VEC_BYTES || *held + bytes > Bin::VEC_BUDGET {
        return;
    }
    *held += bytes;
    spares.push(v);
}

/// Keeps a vector as a spare with its items, whose strings a later boot rewrites in place
/// (see [`Slots`]), unless it holds nothing, is huge, or the bin is full. A string too long
/// for the pool is freed first, so a spare's strings stay bounded like the pool's.
pub(super) fn keep_whole<T: Named>(spares: &mut Vec<Vec<T>>, held: &mut usize, mut v: Vec<T>) {
    let bytes = vec_bytes(&v);
    if bytes == 0 || bytes > Bin::MAX_VEC_BYTES || *held + bytes > Bin::VEC_BUDGET {
        return;
    }
    bound_whole(&mut v);
    *held += bytes;
    spares.push(v);
}

/// An item with a string the builder may rewrite in place (see [`Slots`]).
pub(super) trait Named {
    /// The item's string.
    fn name_mut(&mut self) -> &mut String;
}

impl Named for Initcall {
    fn name_mut(&mut self) -> &mut String {
        &mut self.name
    }
}

impl Named for BootstageRecord {
    fn name_mut(&mut self) -> &mut String {
        &mut self.name
    }
}

impl Named for SblPoint {
    fn name_mut(&mut self) -> &mut String {
        &mut self.name
    }
}

impl Named for String {
    fn name_mut(&mut self) -> &mut String {
        self
    }
}

impl Named for SystemdUnit {
    fn name_mut(&mut self) -> &mut String {
        &mut self.name
    }
}

/// A builder list of `len` items whose slots past them hold items of earlier boots (spares
/// kept whole by [`keep_whole`]): a new item rewrites the next slot's string in place (clear,
/// push) instead of taking a string from the pool, and the old one's going back to it.
#[derive(PartialEq, Debug)]
pub(super) struct Slots<T> {
    pub(super) v: Vec<T>,
    pub(super) len: usize,
}

impl<T> Default for Slots<T> {
    fn default() -> Self {
        Slots {
            v: Vec::new(),
            len: 0,
        }
    }
}

impl<T: Named> Slots<T> {
    /// Appends the item `make` builds around a string holding `text`.
    #[inline]
    pub(super) fn push(
        &mut self,
        text: &str,
        pool: &mut StringPool,
        make: impl FnOnce(String) -> T,
    ) {
        match self.v.get_mut(self.len) {
            Some(old) => {
                let mut s = std::mem::take(old.name_mut());
                set_text(&mut s, text);
                *old = make(s);
            }
            None => self.v.push(make(pool.take(text))),
        }
        self.len += 1;
    }

    /// Drops the slots past `len`, their strings to the pool. The test is in line and the
    /// work out of line ([`Slots::cut_past_len`]): most boots fill as many slots as the
    /// boot before left (the same warnings, the same initcalls), so most calls find nothing
    /// to cut.
    #[inline(always)]
    pub(super) fn cut(&mut self, pool: &mut StringPool) {
        if self.v.len() > self.len {
            self.cut_past_len(pool);
        }
    }

    /// [`Slots::cut`] when there are slots past `len`.
    #[inline(never)]
    pub(super) fn cut_past_len(&mut self, pool: &mut StringPool) {
        for mut it in self.v.drain(self.len..) {
            pool.put(std::mem::take(it.name_mut()));
        }
    }

    /// The items as a vector for a boot (see [`hand_out`]); the slots start over, with the
    /// spare's items (if one took their place) to rewrite.
    pub(super) fn hand_out(
        &mut self,
        spares: &mut Vec<Vec<T>>,
        held: &mut usize,
        pool: &mut StringPool,
    ) -> Vec<T> {
        if self.len == 0 {
            // Nothing this boot: the slots stay for the next.
            return Vec::new();
        }
        self.cut(pool);
        self.len = 0;
        hand_out(&mut self.v, spares, held)
    }
}

impl<T: Named> Slots<T> {
    /// Moves the items into `dst`, a boot's list holding only stale items (those of a boot
    /// handed back in place) or none: the two vectors are swapped, the builder taking `dst`'s
    /// items (bounded, see [`bound_whole`]) as its slots to rewrite, or a spare's when `dst`
    /// has no buffer. With no items this boot, the slots stay and `dst` goes to the spares
    /// whole (its strings for a later boot to rewrite, not to the pool one by one).
    ///
    /// Nothing to do (no items, `dst` without a buffer: most boots' errors) is told in line,
    /// the rest is done out of line ([`Slots::swap_out_some`]): such calls paid a frame for
    /// nothing.
    #[inline(always)]
    pub(super) fn swap_out(
        &mut self,
        dst: &mut Vec<T>,
        spares: &mut Vec<Vec<T>>,
        held: &mut usize,
        pool: &mut StringPool,
    ) {
        if self.len != 0 || dst.capacity() != 0 {
            self.swap_out_some(dst, spares, held, pool);
        }
    }

    /// [`Slots::swap_out`] with items or a `dst` with a buffer.
    #[inline(never)]
    pub(super) fn swap_out_some(
        &mut self,
        dst: &mut Vec<T>,
        spares: &mut Vec<Vec<T>>,
        held: &mut usize,
        pool: &mut StringPool,
    ) {
        if self.len == 0 {
            if dst.capacity() != 0 {
                keep_whole(spares, held, std::mem::take(dst));
            }
            return;
        }
        self.cut(pool);
        self.len = 0;
        if dst.capacity() == 0 {
            if let Some(s) = spare(spares, held) {
                *dst = s;
            }
        }
        bound_whole(dst);
        std::mem::swap(&mut self.v, dst);
    }
}

impl Slots<Initcall> {
    /// [`Slots::push`] of an initcall (thousands a boot): a reused slot's fields written in
    /// place, with no name taken out, item built and old item dropped around it.
    #[inline(always)]
    pub(super) fn push_initcall(
        &mut self,
        name: &str,
        pool: &mut StringPool,
        duration_us: u64,
        ret: i64,
        ts_s: Option<f64>,
    ) {
        match self.v.get_mut(self.len) {
            Some(old) => {
                set_text(&mut old.name, name);
                old.duration_us = duration_us;
                old.ret = ret;
                old.ts_s = ts_s;
            }
            None => self.v.push(Initcall {
                name: pool.take(name),
                duration_us,
                ret,
                ts_s,
            }),
        }
        self.len += 1;
    }

    /// [`Self::push_initcall`] into the next slot when there is one whose name takes `name`
    /// by [`ascii::try_replace_text`]'s inline copy (8 to 32 bytes, within its room): `true`
    /// when done, `false` with nothing changed (the caller then pushes by the general way).
    /// The inline copy makes no call, so a caller that jumps away on `false` needs no frame.
    #[inline(always)]
    pub(super) fn try_reuse_initcall(
        &mut self,
        name: &str,
        duration_us: u64,
        ret: i64,
        ts_s: Option<f64>,
    ) -> bool {
        let Some(old) = self.v.get_mut(self.len) else {
            return false;
        };
        if !ascii::try_replace_text(&mut old.name, name) {
            return false;
        }
        old.duration_us = duration_us;
        old.ret = ret;
        old.ts_s = ts_s;
        self.len += 1;
        true
    }
}

impl Slots<String> {
    /// A cleared string as the next item, to write into: the next slot's, else the pool's
    /// with room for `room` bytes.
    pub(super) fn next_text(&mut self, pool: &mut StringPool, room: usize) -> &mut String {
        if self.len < self.v.len() {
            self.v[self.len].clear();
        } else {
            self.v.push(pool.empty(room));
        }
        self.len += 1;
        &mut self.v[self.len - 1]
    }
}

/// Rewrites the values of `m` from `have` when every key of `m` is in `have` (as many keys
/// on both sides, each distinct, means the same keys); stops at the first key missing,
/// leaving some values rewritten (harmless: a map is only used once all are).
pub(super) fn rewrite_same_keys(
    m: &mut BTreeMap<String, String>,
    have: &[(String, String)],
) -> bool {
    m.iter_mut().all(|(mk, mv)| {
        match have
            .iter()
            .find(|(k, _)| same_bytes(k.as_bytes(), mk.as_bytes()))
        {
            Some((_, v)) => {
                set_text(mv, v);
                true
            }
            None => false,
        }
    })
}

/// Makes `s` hold `text`, leaving it as it is when it already does: a slot rewritten boot
/// after boot mostly gets the same text again (a boot loop prints the same versions,
/// initcalls and units), and an inline compare is cheaper than a copy through `memcpy`.
/// Always inlined: as a call from [`Slots::push`] it cost more than the copies it saves.
#[inline(always)]
pub(super) fn set_text(s: &mut String, text: &str) {
    if !same_bytes(s.as_bytes(), text.as_bytes()) {
        put_text(s, text);
    }
}

/// Makes `s` hold `text`, in the capacity it has.
#[inline(always)]
pub(super) fn put_text(s: &mut String, text: &str) {
    s.clear();
    s.push_str(text);
}

/// A key's share of the signature of a set of keys (their wrapping sum, so the order does not
/// matter): equal sets have equal signatures; unequal ones mostly not (a match is checked).
pub(super) fn key_sig(k: &str) -> u64 {
    let b = k.as_bytes();
    let x = b.len() as u64
        | u64::from(b.first().copied().unwrap_or(0)) << 16
        | u64::from(b.last().copied().unwrap_or(0)) << 24
        | u64::from(b.get(b.len() / 2).copied().unwrap_or(0)) << 32;
    x.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The completed boots, oldest first, in `boots[head..len]`. The other slots hold boots
/// handed out already: lent ones ([`Parser::next_boot_mut`], [`Parser::recycle_front`]) stay
/// whole for a later boot to be built in ([`Builder::finish`] rewrites their lists and
/// strings in place: no taking apart, no moving a boot in and out of a queue), taken ones
/// ([`Parser::next_boot`]) are left empty. There are as many slots as boots were ever
/// waiting at once.
#[derive(Default)]
pub(super) struct Done {
    pub(super) boots: Vec<Boot>,
    /// By slot, the [`key_sig`] sum of its boot's component keys as built (a hint: a lent
    /// boot may have been changed; a match is checked key by key).
    pub(super) sigs: Vec<u64>,
    pub(super) head: usize,
    pub(super) len: usize,
}

impl Done {
    /// The oldest completed boot.
    pub(super) fn front_mut(&mut self) -> Option<&mut Boot> {
        self.boots[self.head..self.len].first_mut()
    }

    /// Hands out the oldest completed boot, leaving it in its slot; once none waits, every
    /// slot is free again.
    pub(super) fn skip_front(&mut self) {
        if self.head < self.len {
            self.head += 1;
            if self.head == self.len {
                self.head = 0;
                self.len = 0;
            }
        }
    }

    /// Takes the oldest completed boot out of its slot.
    pub(super) fn take_front(&mut self) -> Option<Boot> {
        let b = std::mem::take(self.front_mut()?);
        self.skip_front();
        Some(b)
    }

    /// The slot for the next completed boot: a free one, holding what a boot handed out left
    /// there, or a new empty one.
    pub(super) fn next_slot(&mut self) -> (&mut Boot, &mut u64) {
        if self.len == self.boots.len() {
            self.boots.push(Boot::default());
            self.sigs.push(0);
        }
        self.len += 1;
        (&mut self.boots[self.len - 1], &mut self.sigs[self.len - 1])
    }

    /// The completed boots.
    pub(super) fn into_boots(mut self) -> Vec<Boot> {
        self.boots.truncate(self.len);
        self.boots.drain(..self.head);
        self.boots
    }
}

/// Vectors and strings of boots handed back by [`Parser::recycle`], cleared, for the boots
/// still to be built: each reuse saves a malloc and a free, which mostly miss glibc's thread
/// cache as a whole boot is freed at once. Bounded (see the constants), so memory stays flat.
#[derive(Default)]
pub(super) struct Bin {
    pub(super) strings: StringPool,
    /// Bytes of the spare vectors below.
    pub(super) held: usize,
    pub(super) stages: Vec<Vec<Stage>>,
    pub(super) sbl_points: Vec<Vec<SblPoint>>,
    pub(super) numbers: Vec<Vec<u64>>,
    /// Bootstage reports (and copies of the last one).
    pub(super) records: Vec<Vec<BootstageRecord>>,
    pub(super) accumulated: Vec<Vec<BootstageAccum>>,
    pub(super) reports: Vec<Vec<Vec<BootstageRecord>>>,
    pub(super) initcalls: Vec<Vec<Initcall>>,
    /// systemd blame rows and critical chains, apart: each list gets a spare of its own kind,
    /// with about as many items to rewrite (a chain is shorter than a blame).
    pub(super) blames: Vec<Vec<SystemdUnit>>,
    pub(super) chains: Vec<Vec<SystemdUnit>>,
    pub(super) marks: Vec<Vec<Mark>>,
    /// Warnings, errors and failed units, each of its own kind (see `blames`).
    pub(super) warnings: Vec<Vec<String>>,
    pub(super) errors: Vec<Vec<String>>,
    pub(super) failed: Vec<Vec<String>>,
    /// Components maps, whole, with the [`keys_sig`] of their keys, roughly oldest first (see
    /// [`Builder::components_map`]).
    pub(super) maps: Vec<(u64, BTreeMap<String, String>)>,
}

impl Bin {
    /// A vector bigger than this is freed rather than kept.
    pub(super) const MAX_VEC_BYTES: usize = 256 << 10;
    /// At most this many bytes of spare vectors are kept.
    pub(super) const VEC_BUDGET: usize = 4 << 20;
    /// At most this many components maps are kept (a log of many boards' boots has a few
    /// sets of components).
    pub(super) const MAX_MAPS: usize = 16;

    /// Takes a boot apart: its strings to the pool, its vectors (emptied) to the spares, but
    /// for the vectors of named items, kept whole for [`Slots`] to rewrite (see [`keep_whole`]).
    pub(super) fn recycle(&mut self, mut boot: Boot) {
        self.clear_rare(&mut boot);
        let Boot {
            mut stages,
            components,
            sbl_profile,
            mut sbl_total_us,
            initcalls,
            mut marks,
            errors,
            warnings,
            ..
        } = boot;
        self.keep_map(components);
        let pool = &mut self.strings;
        let held = &mut self.held;
        stages.clear();
        keep(&mut self.stages, held, stages);
        keep_whole(&mut self.sbl_points, held, sbl_profile);
        sbl_total_us.clear();
        keep(&mut self.numbers, held, sbl_total_us);
        keep_whole(&mut self.initcalls, held, initcalls);
        clear_marks(&mut marks, pool);
        keep(&mut self.marks, held, marks);
        keep_whole(&mut self.errors, held, errors);
        keep_whole(&mut self.warnings, held, warnings);
    }

    /// Empties the parts of a boot that [`Builder::finish`] builds from the bin (not in place):
    /// their strings to the pool, their vectors to the spares. The rest is left as it is.
    pub(super) fn clear_rare(&mut self, boot: &mut Boot) {
        if boot.bootstage.capacity() != 0 {
            let v = std::mem::take(&mut boot.bootstage);
            self.keep_records(v);
        }
        if boot.bootstage_accumulated.capacity() != 0 {
            let mut v = std::mem::take(&mut boot.bootstage_accumulated);
            v.drain(..).for_each(|a| self.strings.put(a.name));
            keep(&mut self.accumulated, &mut self.held, v);
        }
        if boot.bootstage_reports.capacity() != 0 {
            let mut v = std::mem::take(&mut boot.bootstage_reports);
            for r in v.drain(..) {
                self.keep_records(r);
            }
            keep(&mut self.reports, &mut self.held, v);
        }
        let pool = &mut self.strings;
        if let Some(k) = &mut boot.kernel {
            for s in [&mut k.version, &mut k.cmdline, &mut k.machine] {
                if let Some(s) = s.take() {
                    pool.put(s);
                }
            }
            boot.kernel = None;
        }
        if let Some(sd) = boot.systemd.take() {
            if let Some((unit, _)) = sd.target_reached {
                pool.put(unit);
            }
            let held = &mut self.held;
            keep_whole(&mut self.blames, held, sd.blame);
            keep_whole(&mut self.chains, held, sd.critical_chain);
            keep_whole(&mut self.failed, held, sd.failed);
        }
        if let Some(l) = boot.login_prompt.take() {
            pool.put(l);
        }
    }

    /// Keeps a boot's components map whole, its strings in it: a later boot with the same
    /// components rewrites its values (see [`Builder::components_map`]).
    pub(super) fn keep_map(&mut self, components: BTreeMap<String, String>) {
        let sig = components
            .keys()
            .fold(0u64, |a, k| a.wrapping_add(key_sig(k)));
        self.keep_map_signed(sig, components);
    }

    /// [`Bin::keep_map`] told the map's [`key_sig`] sum (a hint: maps are told apart key by
    /// key when reused).
    pub(super) fn keep_map_signed(&mut self, sig: u64, components: BTreeMap<String, String>) {
        if components.is_empty() {
            return;
        }
        if self.maps.len() == Bin::MAX_MAPS {
            self.strings.put_map(self.maps.remove(0).1);
        }
        self.maps.push((sig, components));
    }

    pub(super) fn keep_records(&mut self, v: Vec<BootstageRecord>) {
        keep_whole(&mut self.records, &mut self.held, v);
    }
}

/// Cleared strings for reuse, by capacity: `classes[k]` holds strings of capacity at least
/// `MIN_CAP << k`, so any of them fits a text of up to that many bytes without growing.
#[derive(Default)]
pub(super) struct StringPool {
    pub(super) classes: [Vec<String>; STRING_CLASSES],
}

/// Capacity of the smallest class of pooled strings (smaller strings are freed).
pub(super) const MIN_CAP: usize = 16;
/// Classes of pooled strings: capacities 16 to 4095 (longer strings are freed).
pub(super) const STRING_CLASSES: usize = 8;

impl StringPool {
    /// Strings kept per class: 8192 of 16 bytes down to 64 of 2048. A class's strings are
    /// under twice its capacity each, so the pool holds under 2 MiB (half that in practice,
    /// as strings are made with their class's capacity, see [`StringPool::empty`]).
    pub(super) const fn limit(class: usize) -> usize {
        8192 >> class
    }

    /// The class whose strings all fit a text of `len` bytes.
    #[inline]
    pub(super) fn class_for(len: usize) -> usize {
        if len <= MIN_CAP {
            0
        } else {
            (usize::BITS - ((len - 1) / MIN_CAP).leading_zeros()) as usize
        }
    }

    /// An empty string with room for `len` bytes: a pooled one of the class that fits, else
    /// a new one with the class's capacity (not just `len`), so that once pooled it fits any
    /// text of its class: a class whose strings only fitted shorter texts would fill up
    /// with strings that no take can use.
    #[inline]
    pub(super) fn empty(&mut self, len: usize) -> String {
        let k = Self::class_for(len);
        if k >= STRING_CLASSES {
            return String::with_capacity(len);
        }
        // A string of the class, or of the next (at most four times the room needed).
        if let Some(s) = self.classes[k].pop() {
            return s;
        }
        if let Some(s) = self.classes.get_mut(k + 1).and_then(Vec::pop) {
            return s;
        }
        String::with_capacity(MIN_CAP << k)
    }

    /// A string holding `text`, reusing a pooled one if one fits.
    #[inline]
    pub(super) fn take(&mut self, text: &str) -> String {
        let mut s = self.empty(text.len());
        put_text(&mut s, text);
        s
    }

    /// A string holding formatted text (`format!` into a pooled string of room for `hint`).
    pub(super) fn take_fmt(&mut self, hint: usize, args: std::fmt::Arguments<'_>) -> String {
        let mut s = self.empty(hint);
        // Writing to a String does not fail.
        let _ = s.write_fmt(args);
        s
    }

    /// Keeps the strings of a map for reuse (the map itself is freed).
    pub(super) fn put_map(&mut self, m: BTreeMap<String, String>) {
        for (k, v) in m {
            self.put(k);
            self.put(v);
        }
    }

    /// Keeps a string (cleared) for reuse, unless it is tiny or huge or its class is full.
    #[inline]
    pub(super) fn put(&mut self, mut s: String) {
        let cap = s.capacity();
        if cap < MIN_CAP {
            return;
        }
        let k = (usize::BITS - 1 - (cap / MIN_CAP).leading_zeros()) as usize;
        if k >= STRING_CLASSES || self.classes[k].len() >= Self::limit(k) {
            return;
        }
        s.clear();
        self.classes[k].push(s);
    }
}
