//! Host stamps of a cycle log against the kernel's own printk stamps, for the tests that
//! measure what a console path adds (`qemu_loop.rs`, `labgrid_farm.rs`).

/// The printk stamp (`[    1.234567]`) at the start of a console line's text.
pub fn printk(text: &str) -> Option<f64> {
    let rest = text.trim_start().strip_prefix('[')?;
    let inner = rest[..rest.find(']')?].trim();
    let (s, us) = inner.split_once('.')?;
    (us.len() == 6 && !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit()))
        .then(|| inner.parse().ok())
        .flatten()
}

/// The `p`th percentile of a sorted sample (nearest rank).
pub fn pct(v: &[f64], p: f64) -> f64 {
    let rank = ((p / 100.0) * v.len() as f64).ceil() as usize;
    v[rank.clamp(1, v.len()) - 1]
}

/// `(host, printk)` of the kernel lines a cycle log shows printed live (after its console, or
/// earlycon's boot console, was enabled; earlier ones come out of the log buffer in a burst)
/// with a running printk clock (not 0.000000).
pub fn live_kernel_lines(log: &str) -> Vec<(f64, f64)> {
    let mut live = false;
    log.lines()
        .filter_map(|l| {
            let close = l.find(']')?;
            let host: f64 = l[1..close].split(' ').next()?.parse().ok()?;
            let body = l[close + 1..].trim_start();
            let k = printk(body)?;
            let was_live = live;
            live |= body.contains("console [") && body.contains("] enabled");
            (was_live && k > 0.0).then_some((host, k))
        })
        .collect()
}

/// Each live kernel line's host stamp less its printk stamp less the boot's least such
/// difference (the clocks' offset: a line cannot arrive before it was printed), in µs: how
/// late the host stamped it. Panics on a log with fewer than 20 such lines.
pub fn stamp_errors_us(log: &str) -> Vec<f64> {
    let pairs = live_kernel_lines(log);
    assert!(pairs.len() > 20, "kernel lines with printk stamps");
    let off = pairs
        .iter()
        .map(|(h, k)| h - k)
        .fold(f64::INFINITY, f64::min);
    assert!(off > 0.0, "the kernel starts after power-on");
    pairs.iter().map(|(h, k)| (h - k - off) * 1e6).collect()
}
