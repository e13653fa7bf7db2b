//! Boot media read rates (`media.toml`, built in) and load-time estimates per component.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::model::Image;

/// The built-in media table.
pub const MEDIA_TOML: &str = include_str!("../media.toml");

/// One boot medium.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Medium {
    /// Identifier used with `--medium`.
    pub id: String,
    /// Human description.
    pub name: String,
    /// Read rate, MB/s (10^6 bytes per second).
    pub rate_mbytes_s: f64,
    /// `bus-max`, `ti-measured` or `scaled`.
    pub basis: String,
    /// Where the figure comes from.
    pub source: String,
}

#[derive(Deserialize)]
struct MediaFile {
    medium: Vec<Medium>,
}

/// Parse a media table (TOML with `[[medium]]` entries).
pub fn parse_media(text: &str, origin: &str) -> Result<Vec<Medium>> {
    let f: MediaFile =
        toml::from_str(text).map_err(|e| Error::Invalid(format!("{origin}: {e}")))?;
    for m in &f.medium {
        if !(m.rate_mbytes_s.is_finite() && m.rate_mbytes_s > 0.0) {
            return Err(Error::Invalid(format!(
                "{origin}: medium {}: rate must be > 0",
                m.id
            )));
        }
    }
    Ok(f.medium)
}

/// The built-in media table.
pub fn builtin_media() -> Vec<Medium> {
    parse_media(MEDIA_TOML, "media.toml").unwrap_or_default()
}

/// Read a media table from a file.
pub fn load_media(path: &Path) -> Result<Vec<Medium>> {
    let t = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    parse_media(&t, &path.to_string_lossy())
}

/// One line of an estimate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EstimateRow {
    /// File the component is in.
    pub file: String,
    /// Component name (`(rest of file)` for bytes no component covers).
    pub component: String,
    /// Its format.
    pub format: String,
    /// Offset in the file.
    pub offset: u64,
    /// Size, bytes.
    pub size: u64,
    /// Estimated load time, ms.
    pub ms: f64,
    /// Share of the total bytes of all files, 0..1.
    pub share: f64,
}

/// An estimate for a set of files on one medium.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// Medium id, or `measured` for a rate given on the command line.
    pub medium: String,
    /// Rate used, MB/s.
    pub rate_mbytes_s: f64,
    /// Where the rate comes from.
    pub basis: String,
    /// One row per top-level component of each file.
    pub rows: Vec<EstimateRow>,
    /// Bytes in all files.
    pub total_bytes: u64,
    /// Estimated time for all files, ms.
    pub total_ms: f64,
}

/// Estimate the load time of every top-level component of `images` at `rate_mbytes_s`.
/// Bytes of a file not covered by any top-level component are one `(rest of file)` row, so
/// each file's rows add up to the whole file.
pub fn estimate(images: &[Image], medium: &str, rate_mbytes_s: f64, basis: &str) -> Estimate {
    let ms = |b: u64| b as f64 / (rate_mbytes_s * 1e6) * 1e3;
    let total: u64 = images.iter().map(|i| i.root.size).sum();
    let share = |b: u64| {
        if total == 0 {
            0.0
        } else {
            b as f64 / total as f64
        }
    };
    let mut rows = Vec::new();
    for img in images {
        let mut covered = 0u64;
        // Count only non-overlapping top-level parts (sorted by offset).
        let mut parts: Vec<_> = img.root.components.iter().collect();
        parts.sort_by_key(|c| c.offset);
        let mut end = 0u64;
        for c in parts {
            let start = c.offset.max(end);
            let stop = c.offset.saturating_add(c.size).min(img.root.size);
            let size = stop.saturating_sub(start);
            end = end.max(stop);
            covered += size;
            rows.push(EstimateRow {
                file: img.path.clone(),
                component: c.name.clone(),
                format: c.format.clone(),
                offset: c.offset,
                size,
                ms: ms(size),
                share: share(size),
            });
        }
        let rest = img.root.size.saturating_sub(covered);
        if rest > 0 {
            rows.push(EstimateRow {
                file: img.path.clone(),
                component: if covered == 0 {
                    "(whole file)".into()
                } else {
                    "(rest of file)".into()
                },
                format: img.root.format.clone(),
                offset: 0,
                size: rest,
                ms: ms(rest),
                share: share(rest),
            });
        }
    }
    Estimate {
        medium: medium.to_string(),
        rate_mbytes_s,
        basis: basis.to_string(),
        rows,
        total_bytes: total,
        total_ms: ms(total),
    }
}
