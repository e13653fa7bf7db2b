//! Statistics over many boots: n, mean, min, max, median, p95 and standard deviation per stage
//! and per sub-timeline entry, printed the TI way: `14.31 (min 12.88, max 20.51)`.

use crate::ascii::same_bytes;
use crate::model::{Boot, StageId};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

/// Summary of one figure over several boots.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// How many boots gave the figure.
    pub n: usize,
    /// Arithmetic mean.
    pub mean: f64,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// Median (mean of the two middle values for even n).
    pub median: f64,
    /// 95th percentile (nearest rank).
    pub p95: f64,
    /// Sample standard deviation (0 for n = 1).
    pub stddev: f64,
}

impl Summary {
    /// Summarises values; `None` when there are none (absent, never zero).
    pub fn of(values: &[f64]) -> Option<Summary> {
        Self::of_vec(values.to_vec())
    }

    /// [`Summary::of`] on values the caller no longer needs: filtered and sorted in place.
    fn of_vec(mut v: Vec<f64>) -> Option<Summary> {
        // Mostly all finite and not negative (durations, counts): one branch-free pass over
        // the bits tells both (see `finite_and_not_negative`), none to copy.
        if finite_and_not_negative(&v) {
            if v.is_empty() {
                return None;
            }
            sort_keys(&mut v, false);
            return Some(Self::of_sorted(&v));
        }
        if !v.iter().all(|x| x.is_finite()) {
            v.retain(|x| x.is_finite());
        }
        if v.is_empty() {
            return None;
        }
        sort_total(&mut v);
        Some(Self::of_sorted(&v))
    }

    /// The summary of finite values sorted in ascending order (at least one).
    fn of_sorted(v: &[f64]) -> Summary {
        let n = v.len();
        let mean = v.iter().sum::<f64>() / n as f64;
        let median = if n % 2 == 1 {
            v[n / 2]
        } else {
            (v[n / 2 - 1] + v[n / 2]) / 2.0
        };
        let rank = ((0.95 * n as f64).ceil() as usize).clamp(1, n);
        let var = if n > 1 {
            v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64
        } else {
            0.0
        };
        Summary {
            n,
            mean,
            min: v[0],
            max: v[n - 1],
            median,
            p95: v[rank - 1],
            stddev: var.sqrt(),
        }
    }

    /// `mean (min X, max Y)` with `decimals` digits, as the TI Performance Guides print it.
    pub fn ti(&self, decimals: usize) -> String {
        format!(
            "{:.d$} (min {:.d$}, max {:.d$})",
            self.mean,
            self.min,
            self.max,
            d = decimals
        )
    }
}

/// Statistics of a set of boots.
#[derive(Debug, Clone, Default, Serialize)]
pub struct BootStats {
    /// Boots considered.
    pub boots: usize,
    /// Boots that reached the ready marker.
    pub complete: usize,
    /// Per stage duration, seconds, in boot order.
    pub stages: Vec<(StageId, Summary)>,
    /// Per stage, console bytes printed (what the console costs at a given baud rate).
    pub console_bytes: Vec<(StageId, Summary)>,
    /// Total: from the first stage's start to the ready marker, seconds (host clock only).
    pub total_s: Option<Summary>,
    /// Per bootstage record, its mark in µs.
    pub bootstage_mark_us: BTreeMap<String, Summary>,
    /// Per SBL profile step (`run:name`), µs.
    pub sbl_us: BTreeMap<String, Summary>,
    /// Per initcall, µs.
    pub initcall_us: BTreeMap<String, Summary>,
}

/// Collects figures boot by boot; memory grows with the number of boots only.
#[derive(Debug)]
pub struct Collector {
    boots: usize,
    complete: usize,
    /// Stage durations by `StageId as usize`, in arrival order: filed as they come, so
    /// summarising moves each stage's vector instead of splitting one shared list.
    stages: [Vec<f64>; StageId::ALL.len()],
    /// Stages' console bytes, likewise.
    console: [Vec<f64>; StageId::ALL.len()],
    total: Vec<f64>,
    bootstage: Series,
    sbl: Series,
    initcalls: Series,
}

/// Room for a boot loop's figures (a stage gets about one a boot) before the first
/// reallocation, as for a [`Series`]: 1 KiB a vector instead of a chain of growths, each a
/// `realloc` copy.
const FIGURES: usize = 128;

impl Default for Collector {
    fn default() -> Self {
        Collector {
            boots: 0,
            complete: 0,
            stages: std::array::from_fn(|_| Vec::with_capacity(FIGURES)),
            console: std::array::from_fn(|_| Vec::with_capacity(FIGURES)),
            total: Vec::with_capacity(FIGURES),
            bootstage: Series::default(),
            sbl: Series::default(),
            initcalls: Series::default(),
        }
    }
}

/// FxHash (rustc's hasher): a multiply and a rotate per word. Series names come from the
/// local log, so SipHash's flood resistance buys nothing here and costs most of a lookup.
#[derive(Default, Clone, Copy)]
struct FxHasher {
    hash: u64,
}

impl FxHasher {
    const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(Self::SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            let mut a = [0u8; 8];
            a.copy_from_slice(w);
            self.add(u64::from_le_bytes(a));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut a = [0u8; 8];
            a[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(a));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

/// Named series of values, found by hash (thousands of initcalls a boot are looked up one by
/// one) and put in name order only when summarised.
/// One named series of [`Series`].
#[derive(Debug)]
struct Entry {
    name: String,
    values: Vec<f64>,
}

#[derive(Debug)]
struct Series {
    index: HashMap<String, usize, BuildHasherDefault<FxHasher>>,
    /// The series by number, in first-seen order: a series' name and values side by side,
    /// so that a guess checked by name appends with no second look-up (one bounds check,
    /// one load of the entry's address).
    entries: Vec<Entry>,
    /// The series expected next, by slot, the likelier first: slot 0 is a boot's start, slot
    /// `i + 1` follows series `i`; each holds the two series that came there the last two
    /// different times. Boots print their initcalls (and SBL steps, bootstage records) in the
    /// same order, or boots of two kinds in turn, so a guess is most often right: one or two
    /// string compares instead of a hash lookup.
    next: Vec<[usize; 2]>,
    /// The slot of the value pushed last (0 at a boot's start).
    last: usize,
    /// Reused buffer for the `run:name` keys of SBL points.
    key: String,
}

impl Default for Series {
    fn default() -> Self {
        Series {
            index: HashMap::default(),
            entries: Vec::new(),
            next: vec![[usize::MAX; 2]],
            last: 0,
            key: String::new(),
        }
    }
}

impl Series {
    /// A boot begins: the next value is guessed to go where the last boot's first one went.
    #[inline(always)]
    fn start(&mut self) {
        self.last = 0;
    }

    /// Appends `v` to the series expected next when `is` accepts its name (the likelier
    /// guess: it follows the series before as guessed, nothing to learn); else returns false.
    #[inline(always)]
    fn append_guessed(&mut self, is: impl Fn(&[u8]) -> bool, v: f64) -> bool {
        let a = self.next[self.last][0];
        match self.entries.get_mut(a) {
            Some(e) if is(e.name.as_bytes()) => {
                e.values.push(v);
                self.last = a + 1;
                true
            }
            _ => false,
        }
    }

    /// Appends `v` to the series the first guess missed: the second guess when `is` accepts
    /// its name, else the series `find` gives (found or created by name); and learns it as
    /// the likeliest to follow the series before.
    #[inline(never)]
    fn append_missed(
        &mut self,
        is: impl Fn(&[u8]) -> bool,
        find: impl FnOnce(&mut Self) -> usize,
        v: f64,
    ) {
        let b = self.next[self.last][1];
        let i = match self.entries.get(b) {
            Some(e) if is(e.name.as_bytes()) => b,
            _ => find(self),
        };
        let s = &mut self.next[self.last];
        if s[0] != i {
            *s = [i, s[0]];
        }
        self.entries[i].values.push(v);
        self.last = i + 1;
    }

    /// Appends each of a boot's named values in turn (its initcalls, its bootstage records) to
    /// the series of its name, allocating the name only the first time it is seen. The first
    /// guess and its append are in line in the callers' loops; the rest is not. While the
    /// first guesses hit, the guess table and the series are held as
    /// slices, so their addresses and lengths (and the last slot) stay in registers instead
    /// of being loaded from `self` again for every value; a miss leaves them for
    /// `append_missed` and takes them again after.
    #[inline(always)]
    fn push_each<'a>(&mut self, mut items: impl Iterator<Item = (&'a str, f64)>) {
        let mut last = self.last;
        'taken: loop {
            let (next, entries) = (&self.next[..], &mut self.entries[..]);
            for (name, v) in items.by_ref() {
                let a = next[last][0];
                if let Some(e) = entries.get_mut(a) {
                    if same_bytes(e.name.as_bytes(), name.as_bytes()) {
                        e.values.push(v);
                        last = a + 1;
                        continue;
                    }
                }
                self.last = last;
                let is = |n: &[u8]| same_bytes(n, name.as_bytes());
                self.append_missed(is, |s| s.find(name), v);
                last = self.last;
                continue 'taken;
            }
            break;
        }
        self.last = last;
    }

    /// Appends to the series `run:name` (an SBL step), building that key only when the
    /// guesses miss.
    #[inline(always)]
    fn push_run(&mut self, run: u64, name: &str, v: f64) {
        let is = |n: &[u8]| is_run_key(n, run, name.as_bytes());
        if !self.append_guessed(is, v) {
            self.append_missed(
                is,
                |s| {
                    let mut key = std::mem::take(&mut s.key);
                    key.clear();
                    crate::ascii::push_decimal(&mut key, run);
                    key.push(':');
                    key.push_str(name);
                    let i = s.find(&key);
                    s.key = key;
                    i
                },
                v,
            );
        }
    }

    /// The series of `name`, created if new.
    #[inline(never)]
    fn find(&mut self, name: &str) -> usize {
        match self.index.get(name) {
            Some(&i) => i,
            None => {
                let i = self.entries.len();
                self.index.insert(name.to_string(), i);
                // Room for a boot loop's values (a series gets about one a boot) before the
                // first reallocation: 1 KiB a series, and each growth costs a `realloc` copy.
                self.entries.push(Entry {
                    name: name.to_string(),
                    values: Vec::with_capacity(FIGURES),
                });
                self.next.push([usize::MAX; 2]);
                i
            }
        }
    }

    /// The summaries, by name.
    fn summaries(&self) -> BTreeMap<String, Summary> {
        self.entries
            .iter()
            .filter_map(|e| Summary::of(&e.values).map(|s| (e.name.clone(), s)))
            .collect()
    }

    /// [`Series::summaries`], the names and values moved into them, not copied.
    fn into_summaries(self) -> BTreeMap<String, Summary> {
        self.entries
            .into_iter()
            .filter_map(|e| Summary::of_vec(e.values).map(|s| (e.name, s)))
            .collect()
    }
}

/// Whether `n` is the SBL series key `run:name` (`run` in decimal), without building it: for
/// a one-digit run, its digit, a `:` and the name; longer runs answer false (the caller then
/// builds the key and looks it up).
#[inline(always)]
fn is_run_key(n: &[u8], run: u64, name: &[u8]) -> bool {
    run < 10
        && n.len() == name.len() + 2
        && n[0] == b'0' + run as u8
        && n[1] == b':'
        && same_bytes(&n[2..], name)
}

impl Collector {
    /// An empty collector.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one boot.
    pub fn add(&mut self, b: &Boot) {
        self.boots += 1;
        self.complete += b.complete as usize;
        for s in &b.stages {
            if let Some(d) = s.duration_s {
                self.stages[s.id as usize].push(d);
            }
            if let Some(c) = s.console_bytes {
                self.console[s.id as usize].push(c as f64);
            }
        }
        if let Some(t) = total_s(b) {
            self.total.push(t);
        }
        self.bootstage.start();
        self.bootstage.push_each(
            b.bootstage
                .iter()
                .map(|r| (r.name.as_str(), r.mark_us as f64)),
        );
        self.sbl.start();
        for p in &b.sbl_profile {
            let v = p.duration_us.or(p.timestamp_us);
            if let Some(v) = v {
                self.sbl.push_run(u64::from(p.run), &p.name, v as f64);
            }
        }
        for (i, t) in b.sbl_total_us.iter().enumerate() {
            self.sbl.push_run(i as u64, "total", *t as f64);
        }
        self.initcalls.start();
        self.initcalls.push_each(
            b.initcalls
                .iter()
                .map(|c| (c.name.as_str(), c.duration_us as f64)),
        );
    }

    /// The statistics so far.
    pub fn stats(&self) -> BootStats {
        BootStats {
            boots: self.boots,
            complete: self.complete,
            stages: per_stage(self.stages.iter().map(|v| v.to_vec())),
            console_bytes: per_stage(self.console.iter().map(|v| v.to_vec())),
            total_s: Summary::of(&self.total),
            bootstage_mark_us: self.bootstage.summaries(),
            sbl_us: self.sbl.summaries(),
            initcall_us: self.initcalls.summaries(),
        }
    }

    /// [`Collector::stats`] when the collector is done with: the series' names and values
    /// are moved into the summaries instead of copied.
    pub fn into_stats(self) -> BootStats {
        BootStats {
            boots: self.boots,
            complete: self.complete,
            stages: per_stage(self.stages),
            console_bytes: per_stage(self.console),
            total_s: Summary::of_vec(self.total),
            bootstage_mark_us: self.bootstage.into_summaries(),
            sbl_us: self.sbl.into_summaries(),
            initcall_us: self.initcalls.into_summaries(),
        }
    }
}

/// Whether every value is finite with the sign bit clear, i.e. its bits are below
/// infinity's, 0x7ff0_0000_0000_0000 = 2^63 - 2^52. A value fails iff its sign bit is set or
/// adding 2^52 to its bits sets it (for bits below 2^63 that is bits >= 2^63 - 2^52), so the
/// test is the top bit of `bits | (bits + 2^52)`, or-ed over all values: no branch a value,
/// and two values a step in SSE2.
#[inline]
fn finite_and_not_negative(v: &[f64]) -> bool {
    let any = v.iter().fold(0u64, |acc, x| {
        let bits = x.to_bits();
        acc | bits | bits.wrapping_add(1 << 52)
    });
    any >> 63 == 0
}

/// `v.sort_by(f64::total_cmp)`, cheaper: the values sorted as integers with the same
/// order (`total_cmp`'s own key: negative values' magnitude bits flipped, a map that is its own
/// inverse and leaves values with the sign bit clear as they are, so it is skipped when there
/// are none). Unstable is the same order here: values equal under `total_cmp` are the same
/// bits.
fn sort_total(v: &mut [f64]) {
    let negative = v.iter().any(|x| x.is_sign_negative());
    sort_keys(v, negative);
}

/// [`sort_total`] told whether a value has the sign bit set (`negative`): when not, the
/// values are sorted as their bits are, with no key mapping.
fn sort_keys(v: &mut [f64], negative: bool) {
    let key = |bits: i64| bits ^ (((bits >> 63) as u64) >> 1) as i64;
    let mut keys: Vec<i64> = v.iter().map(|x| x.to_bits() as i64).collect();
    if negative {
        keys.iter_mut().for_each(|k| *k = key(*k));
    }
    sort_ints(&mut keys);
    for (x, &k) in v.iter_mut().zip(&keys) {
        *x = f64::from_bits((if negative { key(k) } else { k }) as u64);
    }
}

/// `keys.sort_unstable()`, cheaper on the long series of a boot loop: a stage's figures over
/// hundreds of boots take a few values again and again (a few distinct durations and console
/// byte counts each), which [`sort_by_counting`] sorts in one pass. Already sorted keys (a series of one value) are left as they are,
/// as `sort_unstable` would after its own check.
fn sort_ints(keys: &mut [i64]) {
    if keys.len() >= COUNT_FROM && (ascending(keys) || sort_by_counting(keys)) {
        return;
    }
    keys.sort_unstable();
}

/// Whether `k` is in ascending order (`is_sorted`, stable since Rust 1.82, after this
/// crate's 1.75): in blocks of 16 pairs, each tested with no branch (so vectorised), as the
/// standard library does.
fn ascending(k: &[i64]) -> bool {
    let mut at = 0;
    while at + 16 < k.len() {
        let b = &k[at..at + 17];
        let mut ok = true;
        for i in 0..16 {
            ok &= b[i] <= b[i + 1];
        }
        if !ok {
            return false;
        }
        at += 16;
    }
    k[at..].windows(2).all(|w| w[0] <= w[1])
}

/// Fewest keys [`sort_ints`] tries [`sort_by_counting`] on: below, a comparison sort is about
/// as cheap as clearing the counting table.
const COUNT_FROM: usize = 64;
/// Most distinct keys [`sort_by_counting`] takes (half its table).
const FEW: usize = 32;

/// Sorts `keys` ascending by counting the copies of each distinct key (a table of 64 slots,
/// open addressing) and writing them back in runs, key order; answers false, leaving `keys`
/// as they were, when there are more than [`FEW`] distinct keys (it gives up at the first
/// key over). Integers equal are the same value, so the order is `sort_unstable`'s exactly.
fn sort_by_counting(keys: &mut [i64]) -> bool {
    const SLOTS: usize = 2 * FEW;
    let mut key = [0i64; SLOTS];
    // A slot's count; 0: free.
    let mut count = [0usize; SLOTS];
    let mut distinct = 0;
    for &k in keys.iter() {
        // Fibonacci hashing: the top 6 bits of the product, which every bit of `k` reaches.
        let mut h = ((k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58) as usize;
        loop {
            let c = count[h];
            if c == 0 {
                if distinct == FEW {
                    return false;
                }
                distinct += 1;
                key[h] = k;
                count[h] = 1;
                break;
            }
            if key[h] == k {
                count[h] = c + 1;
                break;
            }
            h = (h + 1) % SLOTS;
        }
    }
    let mut runs = [(0i64, 0usize); FEW];
    let mut r = 0;
    for h in 0..SLOTS {
        if count[h] != 0 {
            runs[r] = (key[h], count[h]);
            r += 1;
        }
    }
    let runs = &mut runs[..r];
    runs.sort_unstable_by_key(|run| run.0);
    let mut at = 0;
    for &(k, c) in runs.iter() {
        keys[at..at + c].fill(k);
        at += c;
    }
    true
}

/// Summaries per stage, in boot order, of figures by `StageId as usize`.
fn per_stage(by: impl IntoIterator<Item = Vec<f64>>) -> Vec<(StageId, Summary)> {
    StageId::ALL
        .iter()
        .zip(by)
        .filter_map(|(&id, v)| Summary::of_vec(v).map(|s| (id, s)))
        .collect()
}

/// Summarises a slice of boots.
pub fn summarize(boots: &[Boot]) -> BootStats {
    let mut c = Collector::new();
    boots.iter().for_each(|b| c.add(b));
    c.stats()
}

/// Total boot time of a boot on the host clock: first stage start to the end of the last stage,
/// both on the host timeline (`host`, or `derived`: placed on it).
pub fn total_s(b: &Boot) -> Option<f64> {
    let on_host = |c: crate::Clock| c != crate::Clock::Target;
    let first = b
        .stages
        .iter()
        .find_map(|s| on_host(s.clock).then_some(s.start_s).flatten())?;
    let last = b.stages.last()?;
    on_host(last.clock).then_some(last.end_s? - first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_figures() {
        let s = Summary::of(&[3.0, 1.0, 2.0, 4.0]).unwrap();
        assert_eq!(
            (s.n, s.min, s.max, s.mean, s.median),
            (4, 1.0, 4.0, 2.5, 2.5)
        );
        assert_eq!(s.p95, 4.0);
        assert!((s.stddev - 1.2909944).abs() < 1e-6);
        assert_eq!(s.ti(2), "2.50 (min 1.00, max 4.00)");
        assert_eq!(Summary::of(&[]), None);
        assert_eq!(Summary::of(&[5.0]).unwrap().stddev, 0.0);
    }

    #[test]
    fn stage_ids_index_boot_order() {
        // `per_stage` files figures by `id as usize`.
        for (i, &id) in StageId::ALL.iter().enumerate() {
            assert_eq!(id as usize, i);
        }
    }

    /// Stage figures are summarised by stage, in boot order whatever order they came in, by
    /// both finishes.
    #[test]
    fn stages_are_summarised_by_id_in_boot_order() {
        use crate::model::{Clock, Stage};
        let stage = |id, duration_s, console_bytes| Stage {
            id,
            start_s: None,
            end_s: None,
            duration_s,
            clock: Clock::Target,
            line: None,
            console_bytes,
        };
        let mut boots = [Boot::default(), Boot::default()];
        boots[0].stages = vec![
            stage(StageId::Kernel, Some(1.5), Some(10)),
            stage(StageId::Uboot, Some(0.5), Some(20)),
        ];
        boots[1].stages = vec![
            stage(StageId::Uboot, Some(0.25), Some(30)),
            stage(StageId::Kernel, None, None),
            stage(StageId::Sbl, None, Some(7)),
        ];
        let mut c = Collector::new();
        boots.iter().for_each(|b| c.add(b));
        let of = |v: &[f64]| Summary::of(v).unwrap();
        let stages = vec![
            (StageId::Uboot, of(&[0.5, 0.25])),
            (StageId::Kernel, of(&[1.5])),
        ];
        let console = vec![
            (StageId::Sbl, of(&[7.0])),
            (StageId::Uboot, of(&[20.0, 30.0])),
            (StageId::Kernel, of(&[10.0])),
        ];
        for s in [c.stats(), c.into_stats()] {
            assert_eq!(s.stages, stages);
            assert_eq!(s.console_bytes, console);
        }
    }

    /// The summary as it was computed before `of_vec` and `sort_total`: the reference.
    fn old_of(values: &[f64]) -> Option<Summary> {
        let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
        if v.is_empty() {
            return None;
        }
        v.sort_by(f64::total_cmp);
        Some(Summary::of_sorted(&v))
    }

    /// Values with the awkward cases (both zeros, infinities, NaN, repeats) well represented.
    fn values() -> impl proptest::strategy::Strategy<Value = Vec<f64>> {
        use proptest::prelude::*;
        proptest::collection::vec(
            prop_oneof![
                proptest::num::f64::ANY,
                proptest::sample::select(vec![
                    0.0,
                    -0.0,
                    1.0,
                    -1.0,
                    f64::INFINITY,
                    f64::NAN,
                    5e-324
                ]),
                (0u32..50).prop_map(f64::from),
            ],
            0..200,
        )
    }

    proptest::proptest! {
        #[test]
        fn summary_is_the_old_one(v in values()) {
            let (new, old) = (Summary::of(&v), old_of(&v));
            // Bit for bit: the same sums over the same sorted values, in the same order.
            let bits = |s: &Option<Summary>| s.as_ref().map(|s| {
                [s.mean, s.min, s.max, s.median, s.p95, s.stddev].map(f64::to_bits)
            });
            proptest::prop_assert_eq!(bits(&new), bits(&old));
            proptest::prop_assert_eq!(new.map(|s| s.n), old.map(|s| s.n));
            let mut sorted = v.clone();
            sort_total(&mut sorted);
            let mut want = v.clone();
            want.sort_by(f64::total_cmp);
            proptest::prop_assert_eq!(
                sorted.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                want.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
            );
        }

        /// [`ascending`] is the pairwise rule.
        #[test]
        fn ascending_is_every_pair_in_order(
            mut keys in proptest::collection::vec(0i64..4, 0..80),
            sort_first: bool,
        ) {
            if sort_first {
                keys.sort_unstable();
            }
            let rule = keys.windows(2).all(|w| w[0] <= w[1]);
            proptest::prop_assert_eq!(ascending(&keys), rule);
        }

        /// [`sort_ints`] is `sort_unstable`, on keys of few distinct values (counted), of
        /// many (given up on), sorted or not, long or short.
        #[test]
        fn sort_ints_is_sort_unstable(
            few in proptest::collection::vec(proptest::num::i64::ANY, 1..40),
            picks in proptest::collection::vec(proptest::num::usize::ANY, 0..300),
            sorted: bool,
        ) {
            let mut keys: Vec<i64> = picks.iter().map(|&i| few[i % few.len()]).collect();
            if sorted {
                keys.sort_unstable();
            }
            let mut want = keys.clone();
            want.sort_unstable();
            sort_ints(&mut keys);
            proptest::prop_assert_eq!(keys, want);
        }

        #[test]
        fn finite_and_not_negative_is_the_rule(v in values()) {
            let rule = v.iter().all(|x| x.is_finite() && x.is_sign_positive());
            proptest::prop_assert_eq!(finite_and_not_negative(&v), rule);
        }
    }

    /// The series as [`Collector::add`] filed them before the guesses: every value by its
    /// key (`run:name` built for every SBL point), straight into a map. The reference for
    /// [`Series`]'s guessing and [`is_run_key`].
    fn old_series(boots: &[Boot]) -> [BTreeMap<String, Summary>; 3] {
        let mut maps: [BTreeMap<String, Vec<f64>>; 3] = Default::default();
        for b in boots {
            for r in &b.bootstage {
                maps[0]
                    .entry(r.name.clone())
                    .or_default()
                    .push(r.mark_us as f64);
            }
            for p in &b.sbl_profile {
                if let Some(v) = p.duration_us.or(p.timestamp_us) {
                    let k = format!("{}:{}", p.run, p.name);
                    maps[1].entry(k).or_default().push(v as f64);
                }
            }
            for (i, t) in b.sbl_total_us.iter().enumerate() {
                maps[1]
                    .entry(format!("{i}:total"))
                    .or_default()
                    .push(*t as f64);
            }
            for c in &b.initcalls {
                maps[2]
                    .entry(c.name.clone())
                    .or_default()
                    .push(c.duration_us as f64);
            }
        }
        maps.map(|m| {
            m.into_iter()
                .filter_map(|(k, v)| Summary::of(&v).map(|s| (k, s)))
                .collect()
        })
    }

    /// Boots of a few kinds (name lists in a fixed order, as logs print them), in a
    /// generated sequence, some with names shuffled, values and SBL runs (some of two digits)
    /// from the generator.
    fn boots() -> impl proptest::strategy::Strategy<Value = Vec<Boot>> {
        use crate::model::{BootstageRecord, Initcall, SblPoint};
        use proptest::prelude::*;
        let names = proptest::collection::vec(
            proptest::sample::select(vec![
                "a",
                "b",
                "ab",
                "total",
                "1:a",
                "init",
                "initc",
                "net_dev_init",
                "proto_init",
                "System_init",
                "App_loadImages",
                "a_rather_long_initcall_name_x",
                "a_rather_long_initcall_name_y",
            ]),
            0..12,
        );
        let kind = (names, proptest::collection::vec(0u32..12, 0..4));
        let kinds = proptest::collection::vec(kind, 1..4);
        let order = proptest::collection::vec((0usize..4, proptest::bool::ANY, 0u64..1000), 1..30);
        (kinds, order).prop_map(|(kinds, order)| {
            order
                .iter()
                .map(|&(k, shuffle, x)| {
                    let (names, runs) = &kinds[k % kinds.len()];
                    let mut names = names.clone();
                    if shuffle {
                        let by = x as usize % names.len().max(1);
                        names.rotate_left(by);
                    }
                    let mut b = Boot::default();
                    for (i, n) in names.iter().enumerate() {
                        let v = x + i as u64;
                        b.initcalls.push(Initcall {
                            name: n.to_string(),
                            duration_us: v,
                            ret: 0,
                            ts_s: None,
                        });
                        b.bootstage.push(BootstageRecord {
                            name: n.to_string(),
                            mark_us: v * 3,
                            elapsed_us: 0,
                        });
                        b.sbl_profile.push(SblPoint {
                            run: runs.get(i % runs.len().max(1)).copied().unwrap_or(0),
                            name: n.to_string(),
                            duration_us: (i % 3 != 0).then_some(v),
                            timestamp_us: (i % 2 == 0).then_some(v + 7),
                            src_line: None,
                            cycle: None,
                        });
                    }
                    b.sbl_total_us = runs.iter().map(|&r| u64::from(r) + x).collect();
                    b
                })
                .collect()
        })
    }

    proptest::proptest! {
        #[test]
        fn series_are_the_old_ones(boots in boots()) {
            let s = summarize(&boots);
            // The consuming finish gives the same figures, bit for bit (serde_json prints
            // every f64 in its shortest round-trip form).
            let mut c = Collector::new();
            boots.iter().for_each(|b| c.add(b));
            proptest::prop_assert_eq!(
                serde_json::to_string(&c.into_stats()).unwrap(),
                serde_json::to_string(&s).unwrap()
            );
            let [bootstage, sbl, initcalls] = old_series(&boots);
            proptest::prop_assert_eq!(s.bootstage_mark_us, bootstage);
            proptest::prop_assert_eq!(s.sbl_us, sbl);
            proptest::prop_assert_eq!(s.initcall_us, initcalls);
        }

        #[test]
        fn run_keys_are_built_keys(
            n in "[0-9a-c:]{0,8}",
            run in proptest::prop_oneof![0u64..12, proptest::num::u64::ANY],
            name in "[a-c:]{0,5}",
        ) {
            let built = format!("{run}:{name}");
            if is_run_key(n.as_bytes(), run, name.as_bytes()) {
                proptest::prop_assert_eq!(&n, &built);
            } else {
                proptest::prop_assert!(n != built || run >= 10);
            }
            proptest::prop_assert_eq!(
                is_run_key(built.as_bytes(), run, name.as_bytes()),
                run < 10
            );
        }
    }

    #[test]
    fn p95_nearest_rank() {
        let v: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(Summary::of(&v).unwrap().p95, 95.0);
        assert_eq!(Summary::of(&v).unwrap().median, 50.5);
    }
}
