//! The two-sample statistics of a comparison, distribution-free because boot times are not
//! normal (a slow cycle now and then, several modes): the Mann-Whitney U test, the
//! Hodges-Lehmann shift with its confidence interval, and the sample size a test would need.
//! p-values match `scipy.stats.mannwhitneyu(cand, base)` (exact or asymptotic with continuity
//! correction); the exact intervals match R's `wilcox.test(cand, base, conf.int = TRUE)`.

/// Largest side for which the exact distribution of U is used (when there are no ties).
pub const EXACT_UP_TO: usize = 50;

/// A two-sided Mann-Whitney U test.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct MannWhitney {
    /// The candidate's U: pairs where the candidate's value is larger, ties counted half.
    pub u: f64,
    /// Two-sided p-value.
    pub p: f64,
    /// Exact distribution (no ties, both sides at most [`EXACT_UP_TO`]), else the normal
    /// approximation with tie and continuity corrections.
    pub exact: bool,
}

/// The Hodges-Lehmann shift of candidate - base.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Shift {
    /// The median of every pairwise difference `cand[j] - base[i]`.
    pub estimate: f64,
    /// Lower end of the interval.
    pub low: f64,
    /// Upper end of the interval.
    pub high: f64,
    /// The confidence asked for.
    pub level: f64,
    /// The confidence the interval has: order statistics of the differences can only give
    /// some levels, and the one at or above `level` is taken. When the sides are too small
    /// for any, the interval is the whole range of differences and `achieved` is below
    /// `level` (0 for one value a side). Exact when the interval is, else the normal
    /// approximation's.
    pub achieved: f64,
}

fn finite(v: &[f64]) -> Vec<f64> {
    v.iter().copied().filter(|x| x.is_finite()).collect()
}

/// The Mann-Whitney U test of `cand` against `base`, two-sided. Exact: `min(1, 2 min(P(U <= u),
/// P(U >= u)))`. Normal approximation: `z = (|u - n m / 2| - 1/2) / sigma`, sigma with the tie
/// correction, p = `min(1, 2 P(Z > z))`, 1 when every value is the same. Values that are not
/// finite are left out; `None` when a side has none.
pub fn mann_whitney(base: &[f64], cand: &[f64]) -> Option<MannWhitney> {
    let (b, c) = (finite(base), finite(cand));
    let (n, m) = (b.len(), c.len());
    if n == 0 || m == 0 {
        return None;
    }
    // Ranks of the pooled values, ties given their mean rank.
    let mut all: Vec<(f64, bool)> = b
        .iter()
        .map(|&x| (x, false))
        .chain(c.iter().map(|&x| (x, true)))
        .collect();
    all.sort_by(|a, b| a.0.total_cmp(&b.0));
    let total = all.len();
    let mut rank_sum_cand = 0.0;
    let mut tie_term = 0.0;
    let mut i = 0;
    while i < total {
        let mut j = i;
        while j + 1 < total && all[j + 1].0 == all[i].0 {
            j += 1;
        }
        let t = (j - i + 1) as f64;
        let rank = (i + j) as f64 / 2.0 + 1.0;
        for x in &all[i..=j] {
            if x.1 {
                rank_sum_cand += rank;
            }
        }
        tie_term += t * t * t - t;
        i = j + 1;
    }
    let u = rank_sum_cand - (m * (m + 1)) as f64 / 2.0;
    let (nf, mf) = (n as f64, m as f64);
    if tie_term == 0.0 && n <= EXACT_UP_TO && m <= EXACT_UP_TO {
        let d = UDistribution::of(n, m);
        let k = u.round() as usize;
        let p = (2.0 * d.cdf(k).min(d.sf(k))).min(1.0);
        return Some(MannWhitney { u, p, exact: true });
    }
    let mu = nf * mf / 2.0;
    let nn = nf + mf;
    let var = nf * mf / 12.0 * ((nn + 1.0) - tie_term / (nn * (nn - 1.0)));
    let p = if var <= 0.0 {
        1.0
    } else {
        let z = ((u - mu).abs() - 0.5).max(0.0) / var.sqrt();
        (2.0 * normal_sf(z)).min(1.0)
    };
    Some(MannWhitney { u, p, exact: false })
}

/// The distribution of U for sides of `n` and `m` values without ties: counts of the
/// arrangements giving each U, from 0 to `n * m`.
struct UDistribution {
    /// `counts[u] / total` is P(U = u).
    prob: Vec<f64>,
}

impl UDistribution {
    /// The distribution for sides of `n` and `m`, computed once per pair of sizes and kept:
    /// a comparison tests every figure, and the figures of a run mostly have the same counts.
    fn of(n: usize, m: usize) -> std::sync::Arc<UDistribution> {
        use std::collections::HashMap;
        use std::sync::{Arc, Mutex, OnceLock};
        type Memo = Mutex<HashMap<(usize, usize), Arc<UDistribution>>>;
        static MEMO: OnceLock<Memo> = OnceLock::new();
        let memo = MEMO.get_or_init(Default::default);
        let key = (n.min(m), n.max(m));
        if let Some(d) = memo.lock().ok().and_then(|g| g.get(&key).cloned()) {
            return d;
        }
        let d = Arc::new(UDistribution::new(key.0, key.1));
        if let Ok(mut g) = memo.lock() {
            g.insert(key, d.clone());
        }
        d
    }

    fn new(n: usize, m: usize) -> Self {
        // Subsets of size k of {1..N} by rank sum, built element by element; U = S - k(k+1)/2.
        let k = n.min(m);
        let big = n + m;
        let max_sum = (big * (big + 1)) / 2;
        let mut dp = vec![vec![0.0f64; max_sum + 1]; k + 1];
        dp[0][0] = 1.0;
        for e in 1..=big {
            for c in (1..=k.min(e)).rev() {
                let (lo, hi) = dp.split_at_mut(c);
                let prev = &lo[c - 1];
                let cur = &mut hi[0];
                for s in (e..=max_sum).rev() {
                    cur[s] += prev[s - e];
                }
            }
        }
        let base = k * (k + 1) / 2;
        let counts: Vec<f64> = (0..=n * m).map(|u| dp[k][u + base]).collect();
        let total: f64 = counts.iter().sum();
        UDistribution {
            prob: counts.into_iter().map(|c| c / total).collect(),
        }
    }

    /// P(U <= u).
    fn cdf(&self, u: usize) -> f64 {
        self.prob[..=u.min(self.prob.len() - 1)].iter().sum()
    }

    /// P(U >= u).
    fn sf(&self, u: usize) -> f64 {
        self.prob[u.min(self.prob.len())..].iter().sum()
    }
}

/// The Hodges-Lehmann estimate of `cand - base` and its confidence interval at `level` (e.g.
/// 0.95), by the order statistics of the `n * m` pairwise differences `cand[j] - base[i]`:
/// from the k-th smallest to the k-th largest. With the exact distribution of U (same rule as
/// [`mann_whitney`]), k is the lower `(1 - level) / 2` quantile of U, at least 1, and the
/// interval is the one R's `wilcox.test(cand, base, conf.int = TRUE)` gives. Otherwise k is
/// `round(n m / 2 - z sqrt(n m (n + m + 1) / 12))`, at least 1, with `z` the upper
/// `(1 - level) / 2` normal quantile: the largest k whose continuity-corrected normal
/// coverage is at least `level` (R finds its asymptotic interval by root finding instead,
/// and lands within its tolerance of these ends). Values that are not finite are left out;
/// `None` when a side has none or `level` is not in (0, 1).
pub fn hodges_lehmann(base: &[f64], cand: &[f64], level: f64) -> Option<Shift> {
    let (b, c) = (finite(base), finite(cand));
    let (n, m) = (b.len(), c.len());
    if n == 0 || m == 0 || !(level > 0.0 && level < 1.0) {
        return None;
    }
    let d = Differences::new(&b, &c);
    let nm = n * m;
    let estimate = if nm % 2 == 1 {
        d.kth(nm / 2 + 1)
    } else {
        (d.kth(nm / 2) + d.kth(nm / 2 + 1)) / 2.0
    };
    let half_alpha = (1.0 - level) / 2.0;
    let ties = {
        let mut all: Vec<f64> = b.iter().chain(&c).copied().collect();
        all.sort_by(f64::total_cmp);
        all.windows(2).any(|w| w[0] == w[1])
    };
    // The interval [d_(k), d_(nm + 1 - k)] covers the shift unless U <= k - 1 or
    // U >= nm + 1 - k: its coverage is 1 - 2 P(U <= k - 1).
    let (k, achieved) = if !ties && n <= EXACT_UP_TO && m <= EXACT_UP_TO {
        let dist = UDistribution::of(n, m);
        // qwilcox(alpha / 2): the smallest u with P(U <= u) >= alpha / 2.
        let mut acc = 0.0;
        let mut q = 0;
        for (u, p) in dist.prob.iter().enumerate() {
            acc += p;
            if acc >= half_alpha {
                q = u;
                break;
            }
        }
        let k = q.max(1);
        (k, 1.0 - 2.0 * dist.cdf(k - 1))
    } else {
        let z = normal_quantile(1.0 - half_alpha);
        let mean = nm as f64 / 2.0;
        let sd = (nm as f64 * (n + m + 1) as f64 / 12.0).sqrt();
        let k = (mean - z * sd).round().max(1.0) as usize;
        (k, 1.0 - 2.0 * normal_cdf((k as f64 - 0.5 - mean) / sd))
    };
    // k <= (nm + 1) / 2 as level > 0, so low <= high.
    Some(Shift {
        estimate,
        low: d.kth(k),
        high: d.kth(nm + 1 - k),
        level,
        achieved,
    })
}

/// The pairwise differences `c[j] - b[i]` of two samples, never all held at once: ten
/// thousand cycles a side make 10^8 of them, 800 MB to sort. The k-th smallest is found by
/// bisection over the values themselves: the differences at most `t` are counted in one merge
/// pass of the two sorted samples (`c[j] - b[i]` grows with `c[j]` and shrinks with `b[i]`,
/// rounding included), and the bisection runs over the f64 values in their integer order, so
/// it ends on the exact difference, in at most 64 passes.
struct Differences {
    b: Vec<f64>,
    c: Vec<f64>,
}

impl Differences {
    fn new(b: &[f64], c: &[f64]) -> Self {
        let mut b = b.to_vec();
        let mut c = c.to_vec();
        b.sort_by(f64::total_cmp);
        c.sort_by(f64::total_cmp);
        Differences { b, c }
    }

    /// How many differences are at most `t`.
    fn count_le(&self, t: f64) -> usize {
        let n = self.b.len();
        // For each c[j] (ascending), the differences at most t are those with b[i] at or after
        // `first`, which only moves right as c[j] grows.
        let mut first = 0;
        let mut count = 0;
        for &y in &self.c {
            while first < n && y - self.b[first] > t {
                first += 1;
            }
            count += n - first;
        }
        count
    }

    /// The k-th smallest difference, 1-based (`1 <= k <= n m`).
    fn kth(&self, k: usize) -> f64 {
        // f64 to an integer of the same order, and back.
        fn key(x: f64) -> i64 {
            let bits = x.to_bits() as i64;
            bits ^ (((bits >> 63) as u64) >> 1) as i64
        }
        fn value(k: i64) -> f64 {
            f64::from_bits((k ^ (((k >> 63) as u64) >> 1) as i64) as u64)
        }
        let lo_v = self.c[0] - self.b[self.b.len() - 1];
        let hi_v = self.c[self.c.len() - 1] - self.b[0];
        // The smallest t with count_le(t) >= k, between the smallest and largest difference.
        let (mut lo, mut hi) = (key(lo_v), key(hi_v));
        while lo < hi {
            // The floor of the mean, in i128: the keys span all of i64.
            let mid = ((i128::from(lo) + i128::from(hi)) >> 1) as i64;
            if self.count_le(value(mid)) >= k {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        value(lo)
    }
}

/// Values a side needs for a two-sided test at 5 % to find a shift of `shift` with 80 %
/// power, given the pooled standard deviation of `base` and `cand`:
/// `n = 2 ((z_0.975 + z_0.8) sd / shift)^2` for a t-test, times `pi / 3` (the Mann-Whitney
/// test's asymptotic efficiency relative to it is `3 / pi`), rounded up, at least 2. `None`
/// when the spread or the shift is zero, or a side has fewer than 2 values.
pub fn cycles_needed(base: &[f64], cand: &[f64], shift: f64) -> Option<usize> {
    let (b, c) = (finite(base), finite(cand));
    if b.len() < 2 || c.len() < 2 || shift == 0.0 || !shift.is_finite() {
        return None;
    }
    let var = |v: &[f64]| {
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        v.iter().map(|x| (x - mean).powi(2)).sum::<f64>()
    };
    let sd = ((var(&b) + var(&c)) / (b.len() + c.len() - 2) as f64).sqrt();
    if sd == 0.0 {
        return None;
    }
    let z = normal_quantile(0.975) + normal_quantile(0.8);
    let n = 2.0 * (z * sd / shift).powi(2) * std::f64::consts::PI / 3.0;
    Some((n.ceil() as usize).max(2))
}

/// P(Z > z) for a standard normal Z: `erfc(z / sqrt 2) / 2`.
pub fn normal_sf(z: f64) -> f64 {
    0.5 * erfc(z / std::f64::consts::SQRT_2)
}

/// P(Z <= z) for a standard normal Z: `erfc(-z / sqrt 2) / 2`, accurate in both tails.
pub fn normal_cdf(z: f64) -> f64 {
    0.5 * erfc(-z / std::f64::consts::SQRT_2)
}

/// The complementary error function, W. J. Cody's rational Chebyshev approximations (Math.
/// Comp. 23, 1969), relative error below 1e-15 where the result is a normal f64 (x below
/// about 26.5). The coefficients are Cody's as published, some with more digits than an f64
/// holds.
#[allow(clippy::excessive_precision)]
pub fn erfc(x: f64) -> f64 {
    let ax = x.abs();
    let r = if ax < 0.5 {
        const A: [f64; 5] = [
            3.161_123_743_870_565_6,
            113.864_154_151_050_16,
            377.485_237_685_302_1,
            3_209.377_589_138_469_5,
            0.185_777_706_184_603_15,
        ];
        const B: [f64; 4] = [
            23.601_290_952_344_122,
            244.024_637_934_444_17,
            1_282.616_526_077_372_3,
            2_844.236_833_439_170_6,
        ];
        let y = x * x;
        let mut num = A[4] * y;
        let mut den = y;
        for i in 0..3 {
            num = (num + A[i]) * y;
            den = (den + B[i]) * y;
        }
        return 1.0 - x * (num + A[3]) / (den + B[3]);
    } else if ax <= 4.0 {
        const C: [f64; 9] = [
            0.564_188_496_988_670_1,
            8.883_149_794_388_376,
            66.119_190_637_141_63,
            298.635_138_197_400_1,
            881.952_221_241_769_1,
            1_712.047_612_634_070_7,
            2_051.078_377_826_071_6,
            1_230.339_354_797_997_2,
            2.153_115_354_744_038_3e-8,
        ];
        const D: [f64; 8] = [
            15.744_926_110_709_835,
            117.693_950_891_312_5,
            537.181_101_862_009_9,
            1_621.389_574_566_690_3,
            3_290.799_235_733_459_7,
            4_362.619_090_143_247,
            3_439.367_674_143_721_6,
            1_230.339_354_803_749_5,
        ];
        let mut num = C[8] * ax;
        let mut den = ax;
        for i in 0..7 {
            num = (num + C[i]) * ax;
            den = (den + D[i]) * ax;
        }
        let r = (num + C[7]) / (den + D[7]);
        tail(ax, r)
    } else {
        const P: [f64; 6] = [
            0.305_326_634_961_232_36,
            0.360_344_899_949_804_45,
            0.125_781_726_111_229_26,
            0.016_083_785_148_742_275,
            6.587_491_615_298_378e-4,
            0.016_315_387_137_302_097,
        ];
        const Q: [f64; 5] = [
            2.568_520_192_289_822,
            1.872_952_849_923_460_4,
            0.527_905_102_951_428_4,
            0.060_518_341_312_441_32,
            0.002_335_204_976_268_691_8,
        ];
        let y = 1.0 / (ax * ax);
        let mut num = P[5] * y;
        let mut den = y;
        for i in 0..4 {
            num = (num + P[i]) * y;
            den = (den + Q[i]) * y;
        }
        let r = y * (num + P[4]) / (den + Q[4]);
        let r = (1.0 / std::f64::consts::PI.sqrt() - r) / ax;
        tail(ax, r)
    };
    if x < 0.0 {
        2.0 - r
    } else {
        r
    }
}

/// `exp(-x^2) * r`, with `x^2` split so that its rounding does not cost accuracy (Cody).
fn tail(x: f64, r: f64) -> f64 {
    let ysq = (x * 16.0).trunc() / 16.0;
    let del = (x - ysq) * (x + ysq);
    (-ysq * ysq).exp() * (-del).exp() * r
}

/// The standard normal quantile: Acklam's rational approximation refined by one Halley step
/// on [`normal_cdf`], relative error below 1e-14 for `p` down to the smallest normal f64
/// (Acklam's 1.2e-9 for subnormal `p`). Above 0.5 it is `-normal_quantile(1 - p)`, `1 - p`
/// being exact there. `-inf` at 0, `inf` at 1, NaN outside [0, 1].
#[allow(clippy::excessive_precision)]
pub fn normal_quantile(p: f64) -> f64 {
    if !(0.0..=1.0).contains(&p) {
        return f64::NAN;
    }
    if p == 0.0 {
        return f64::NEG_INFINITY;
    }
    if p > 0.5 {
        return -normal_quantile(1.0 - p);
    }
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    // p in (0, 0.5]: Acklam's lower region below 0.02425, central region above.
    let x = if p < 0.024_25 {
        let q = (-2.0 * p.ln()).sqrt();
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    };
    // One Halley step on e = Phi(x) - p, with Phi(x) from erfc so the lower tail keeps its
    // relative accuracy. For subnormal p, exp(x^2 / 2) overflows: Acklam's value stands.
    let e = normal_cdf(x) - p;
    let u = e * (2.0 * std::f64::consts::PI).sqrt() * (x * x / 2.0).exp();
    if !u.is_finite() {
        return x;
    }
    x - u / (1.0 + x * u / 2.0)
}

#[cfg(test)]
mod tests {
    //! Reference values from scipy 1.17.1 (`scipy.stats.mannwhitneyu(cand, base,
    //! alternative='two-sided', method='exact' | 'asymptotic')`, `numpy.median` of the pairwise
    //! differences, numpy 2.4.6) and, for the intervals, R's `wilcox.test` procedure run on an
    //! exact null distribution computed with Python integers by the recursion
    //! f(u, n, m) = f(u - m, n - 1, m) + f(u, n, m - 1) (not the subset-sum table used here);
    //! normal-approximation coverages from `scipy.special.ndtr`; erfc and normal quantiles
    //! from mpmath 1.4.1 at 40 digits.
    use super::*;

    fn close(a: f64, b: f64, rel: f64) -> bool {
        (a - b).abs() <= rel * b.abs().max(1e-300)
    }

    /// R's `?wilcox.test` example: x (depression scores after) against y.
    const R_X: [f64; 10] = [0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46];
    const R_Y: [f64; 5] = [1.15, 0.88, 0.90, 0.74, 1.21];

    #[test]
    fn exact_small_sample_matches_scipy_and_r() {
        let t = mann_whitney(&R_Y, &R_X).unwrap();
        assert!(t.exact);
        assert_eq!(t.u, 35.0);
        assert!(close(t.p, 0.2544122544122544, 1e-9), "{t:?}");
        let s = hodges_lehmann(&R_Y, &R_X, 0.95).unwrap();
        assert!(close(s.estimate, 0.30500000000000005, 1e-12), "{s:?}");
        assert!(close(s.low, -0.15000000000000002, 1e-12), "{s:?}");
        assert!(close(s.high, 0.7599999999999999, 1e-12), "{s:?}");
        assert!(close(s.achieved, 0.9600399600399601, 1e-9), "{s:?}");
    }

    #[test]
    fn boot_times_five_cycles_a_side() {
        let base = [0.406327, 0.291421, 0.220383, 0.263, 0.271];
        let cand = [0.612, 0.501, 0.455, 0.47, 0.52];
        let t = mann_whitney(&base, &cand).unwrap();
        assert_eq!(t.u, 25.0);
        assert!(close(t.p, 0.007936507936507936, 1e-9), "{t:?}");
        let s = hodges_lehmann(&base, &cand, 0.95).unwrap();
        assert!(close(s.estimate, 0.22857900000000003, 1e-12));
        assert!(close(s.low, 0.09467300000000001, 1e-12), "{s:?}");
        assert!(close(s.high, 0.34099999999999997, 1e-12), "{s:?}");
        assert!(close(s.achieved, 0.9682539682539683, 1e-9));
    }

    #[test]
    fn boot_times_ten_cycles_a_side() {
        let base = [
            0.291, 0.406, 0.302, 0.297, 0.311, 0.288, 0.335, 0.299, 0.319, 0.305,
        ];
        let cand = [
            0.284, 0.301, 0.279, 0.293, 0.287, 0.276, 0.296, 0.281, 0.309, 0.290,
        ];
        let t = mann_whitney(&base, &cand).unwrap();
        assert!(t.exact);
        assert_eq!(t.u, 15.0);
        assert!(close(t.p, 0.006841455757864427, 1e-9), "{t:?}");
        let s = hodges_lehmann(&base, &cand, 0.95).unwrap();
        // k = 24 of 100 differences.
        assert!(close(s.estimate, -0.01699999999999996, 1e-12), "{s:?}");
        assert!(close(s.low, -0.03400000000000003, 1e-12), "{s:?}");
        assert!(close(s.high, -0.0040000000000000036, 1e-12), "{s:?}");
        assert!(close(s.achieved, 0.9567429474550218, 1e-9), "{s:?}");
    }

    #[test]
    fn fifty_a_side_is_still_exact() {
        let base: Vec<f64> = (0..50).map(|i| 2.0 + 0.01 * i as f64).collect();
        let cand: Vec<f64> = (0..50).map(|j| 2.1 + 0.01 * j as f64 + 0.005).collect();
        let t = mann_whitney(&base, &cand).unwrap();
        assert!(t.exact);
        assert_eq!(t.u, 1720.0);
        assert!(close(t.p, 0.0010550164711136663, 1e-9), "{t:?}");
        let s = hodges_lehmann(&base, &cand, 0.95).unwrap();
        // k = 966 of 2500 differences.
        assert!(close(s.estimate, 0.10499999999999998, 1e-9), "{s:?}");
        assert!(close(s.low, 0.04499999999999993, 1e-9), "{s:?}");
        assert!(close(s.high, 0.16500000000000004, 1e-9), "{s:?}");
        assert!(close(s.achieved, 0.9504522764011537, 1e-9), "{s:?}");
    }

    #[test]
    fn ties_use_the_corrected_normal_approximation() {
        let base = [1.0, 2.0, 2.0, 3.0, 4.0, 5.0, 5.0, 6.0];
        let cand = [2.0, 3.0, 5.0, 5.0, 7.0, 8.0, 9.0, 9.0];
        let t = mann_whitney(&base, &cand).unwrap();
        assert!(!t.exact);
        assert_eq!(t.u, 49.5);
        assert!(close(t.p, 0.07080292269436897, 1e-6), "{t:?}");
        let s = hodges_lehmann(&base, &cand, 0.95).unwrap();
        // k = 13 of 64; R's root-finding interval: -6.4e-5 to 5.00003 (tolerance 1e-4).
        assert_eq!((s.estimate, s.low, s.high), (3.0, 0.0, 5.0));
        assert!(close(s.achieved, 0.9594311442042174, 1e-9), "{s:?}");
    }

    const BIG_BASE: [f64; 60] = [
        1.0001, 1.0299, 0.9726, 0.9109, 0.9545, 0.9008, 1.006, 1.134, 0.9508, 0.938, 1.049, 1.0357,
        1.0105, 0.907, 0.9971, 1.0695, 0.8656, 0.9542, 0.8099, 0.871, 0.8158, 0.9765, 0.8733,
        1.0271, 1.0157, 0.9813, 0.7483, 0.9461, 0.9951, 1.0113, 0.847, 0.9522, 0.9021, 0.9191,
        1.1061, 0.9192, 0.9967, 1.0884, 0.9416, 0.9888, 1.011, 1.0064, 0.8775, 1.0076, 1.1359,
        0.8453, 1.0859, 1.0119, 0.9359, 1.2, 1.0762, 0.8801, 1.0075, 1.0577, 0.9811, 1.0683,
        0.9933, 1.0667, 1.1439, 0.9324,
    ];
    const BIG_CAND: [f64; 60] = [
        1.0703, 1.0037, 1.0627, 0.9313, 0.9921, 1.0304, 1.1399, 1.1645, 0.9176, 0.9705, 1.1147,
        0.8508, 1.0037, 1.0403, 1.1757, 1.1189, 1.0173, 1.0131, 1.025, 1.2024, 1.0072, 1.0196,
        1.0853, 1.0379, 1.0303, 0.9386, 1.0488, 1.0056, 1.1666, 1.1153, 1.0476, 1.1168, 1.016,
        1.1552, 1.0495, 1.1083, 0.9209, 1.0847, 0.8812, 0.8465, 1.0196, 0.96, 1.0664, 1.2745,
        0.9668, 0.9876, 1.0705, 1.0993, 1.0324, 1.0294, 1.1202, 1.102, 0.9466, 1.0421, 1.0535,
        0.9446, 1.076, 0.9642, 1.1472, 1.0693,
    ];

    #[test]
    fn large_samples_use_the_normal_approximation() {
        let t = mann_whitney(&BIG_BASE, &BIG_CAND).unwrap();
        assert!(!t.exact);
        assert_eq!(t.u, 2533.0);
        assert!(close(t.p, 0.00012072891456782569, 1e-6), "{t:?}");
        let s = hodges_lehmann(&BIG_BASE, &BIG_CAND, 0.95).unwrap();
        assert!(close(s.estimate, 0.06114999999999998, 1e-9), "{s:?}");
        assert!(close(s.low, 0.03079999999999994, 1e-9), "{s:?}");
        assert!(close(s.high, 0.0938, 1e-9), "{s:?}");
        assert!(close(s.achieved, 0.9500470427264741, 1e-9), "{s:?}");
    }

    #[test]
    fn a_200_ms_shift_is_found_and_the_same_runs_are_not() {
        let base = [2.01, 2.11, 2.37, 2.09, 2.21, 2.15, 2.05, 2.31, 2.18, 2.12];
        let cand: Vec<f64> = base.iter().rev().map(|x| x + 0.2).collect();
        let t = mann_whitney(&base, &cand).unwrap();
        assert!(t.p < 0.05, "{t:?}");
        let s = hodges_lehmann(&base, &cand, 0.95).unwrap();
        assert!(s.low <= 0.2 && 0.2 <= s.high, "{s:?}");
        // Another sample of the same spread and no shift, against R 4.2.2:
        // `b <- c(2.01, 2.11, 2.37, 2.09, 2.21, 2.15, 2.05, 2.31, 2.18, 2.12)`
        // `c2 <- c(2.14, 2.06, 2.23, 2.19, 2.02, 2.28, 2.10, 2.16, 2.35, 2.08)`
        // `wilcox.test(c2, b, exact = TRUE, conf.int = TRUE)`: W = 51, p = 0.9705124596765464,
        // estimate 0.01, 95 percent interval [-0.10, 0.11].
        let other = [2.14, 2.06, 2.23, 2.19, 2.02, 2.28, 2.10, 2.16, 2.35, 2.08];
        let t = mann_whitney(&base, &other).unwrap();
        assert!(t.exact);
        assert!(close(t.p, 0.9705124596765464, 1e-9), "{t:?}");
        let s = hodges_lehmann(&base, &other, 0.95).unwrap();
        assert!(close(s.estimate, 0.01, 1e-9), "{s:?}");
        assert!(
            close(s.low, -0.10, 1e-9) && close(s.high, 0.11, 1e-9),
            "{s:?}"
        );
    }

    #[test]
    fn empty_and_not_finite_sides() {
        assert!(mann_whitney(&[], &[1.0]).is_none());
        assert!(hodges_lehmann(&[1.0], &[], 0.95).is_none());
        assert!(mann_whitney(&[f64::NAN], &[1.0]).is_none());
        let t = mann_whitney(&[1.0, f64::NAN, 2.0], &[3.0, 4.0]).unwrap();
        assert_eq!(t.u, 4.0);
        // 1 vs 1: no interval at 95 % exists; the whole range, with the coverage said.
        let s = hodges_lehmann(&[1.0], &[2.0], 0.95).unwrap();
        assert_eq!((s.low, s.high, s.achieved), (1.0, 1.0, 0.0));
        assert!(hodges_lehmann(&[f64::NAN], &[f64::NAN, 1.0], 0.95).is_none());
        let s = hodges_lehmann(&[1.0, f64::INFINITY], &[f64::NAN, 3.0], 0.95).unwrap();
        assert_eq!((s.estimate, s.low, s.high), (2.0, 2.0, 2.0));
    }

    #[test]
    fn tiny_sides_give_the_whole_range_with_its_coverage() {
        // 2 vs 2 without ties: exact, k = 1, coverage 1 - 2 / 6.
        let s = hodges_lehmann(&[1.0, 2.0], &[1.5, 3.0], 0.95).unwrap();
        assert_eq!((s.estimate, s.low, s.high), (0.75, -0.5, 2.0));
        assert!(close(s.achieved, 2.0 / 3.0, 1e-12), "{s:?}");
        // With a tie: normal approximation, k = 1, coverage 1 - 2 Phi(-1.5 / sqrt(20 / 12)).
        let s = hodges_lehmann(&[1.0, 1.0], &[1.0, 2.0], 0.95).unwrap();
        assert_eq!((s.estimate, s.low, s.high), (0.5, 0.0, 1.0));
        assert!(close(s.achieved, 0.7547218831932272, 1e-12), "{s:?}");
        for level in [0.0, 1.0, -0.5, f64::NAN] {
            assert!(hodges_lehmann(&[1.0, 2.0], &[1.5, 3.0], level).is_none());
        }
    }

    #[test]
    fn sample_size_for_a_shift() {
        // 2 ((z(0.975) + z(0.8)) sd / shift)^2 pi / 3 with the pooled sd, as R 4.2.2 computes
        // it: `sd <- sqrt((sum((a - mean(a))^2) * 2) / (12 - 2))`,
        // `2 * ((qnorm(0.975) + qnorm(0.8)) * sd / 0.1)^2 * pi / 3` = 19.72638633 -> 20.
        let a = [0.9, 1.1, 0.9, 1.1, 0.9, 1.1];
        assert_eq!(cycles_needed(&a, &a, 0.1), Some(20));
        // Sides of 5 and 7, a 0.05 shift: R's value with
        // `sp <- sqrt((sum((x - mean(x))^2) + sum((y - mean(y))^2)) / (5 + 7 - 2))`
        // is 265.3668637 -> 266.
        let x = [1.0, 1.2, 0.9, 1.3, 1.1];
        let y = [1.5, 1.6, 1.2, 1.9, 1.4, 1.7, 1.45];
        assert_eq!(cycles_needed(&x, &y, 0.05), Some(266));
        assert_eq!(cycles_needed(&[1.0, 1.0], &[1.0, 1.0], 0.1), None);
        assert_eq!(cycles_needed(&a, &a, 0.0), None);
    }

    #[test]
    fn normal_functions_match_mpmath() {
        for (x, want) in [
            (1.0, 0.15729920705028513),
            (-1.0, 1.8427007929497148),
            (0.3, 0.6713732405408726),
            (2.5, 0.0004069520174449589),
            (6.0, 2.1519736712498913e-17),
            (10.0, 2.088487583762545e-45),
            (26.0, 5.663192408856143e-296),
        ] {
            assert!(close(erfc(x), want, 1e-15), "erfc({x}) = {}", erfc(x));
        }
        assert!(close(normal_cdf(-10.0), 7.619853024160525e-24, 1e-14));
        for (p, want) in [
            (0.975, 1.9599639845400538),
            (0.8, 0.8416212335729144),
            (0.999, 3.090232306167813),
            (0.025, -1.9599639845400543),
            (1e-20, -9.262340089798407),
            (1e-100, -21.273453560965326),
        ] {
            let x = normal_quantile(p);
            assert!(close(x, want, 1e-14), "normal_quantile({p}) = {x}");
        }
        assert_eq!(normal_quantile(0.5), 0.0);
        assert_eq!(normal_quantile(0.0), f64::NEG_INFINITY);
        assert_eq!(normal_quantile(1.0), f64::INFINITY);
        assert!(normal_quantile(1.5).is_nan() && normal_quantile(f64::NAN).is_nan());
        assert!(normal_quantile(5e-324) < -38.0);
    }

    /// The k-th difference by bisection against every difference sorted (the plain way), on
    /// samples with ties, negative values and zeros of both signs.
    #[test]
    fn kth_difference_is_that_of_all_differences_sorted() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..200 {
            let (n, m) = (1 + next() as usize % 17, 1 + next() as usize % 13);
            let mut draw = |len: usize| -> Vec<f64> {
                (0..len)
                    .map(|_| match next() % 7 {
                        0 => 0.0,
                        1 => -0.0,
                        2 => 1.5,
                        _ => ((next() % 20_000) as f64 - 10_000.0) / 7.0,
                    })
                    .collect()
            };
            let (b, c) = (draw(n), draw(m));
            let mut all: Vec<f64> = c
                .iter()
                .flat_map(|y| b.iter().map(move |x| y - x))
                .collect();
            all.sort_by(f64::total_cmp);
            let d = Differences::new(&b, &c);
            for k in 1..=n * m {
                let got = d.kth(k);
                assert!(
                    got == all[k - 1],
                    "round {round}, k {k}: {got} against {}",
                    all[k - 1]
                );
            }
        }
    }
}
