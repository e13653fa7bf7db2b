//! Times in seconds to six decimal places (microseconds), as the boot timeline reports them.

use std::fmt::Write as _;

/// `v` rounded to six decimal places.
pub(crate) fn round6(v: f64) -> f64 {
    (v * 1e6).round() / 1e6
}

/// Appends `v` as `{v:.6}` writes it.
pub(crate) fn push_fixed6(s: &mut String, v: f64) {
    let _ = write!(s, "{v:.6}");
}
