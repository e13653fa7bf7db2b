//! A/B comparison of runs: is the candidate faster or slower than the base, beyond the noise
//! ([`verdict`], with the tests of [`stats`]), or within its reference limits ([`reference`])?
//! A side is a run directory or a kept `report.json` ([`side`]); [`render`] prints the result.

pub mod reference;
pub mod render;
pub mod side;
pub mod stats;
pub mod verdict;
