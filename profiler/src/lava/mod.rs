//! LAVA (Linaro Automated Validation Architecture): job definitions that boot a board N times
//! and run its benchmarks (`perfguide lava job`), and a run directory's figures as LAVA test
//! cases (`perfguide lava results`). LAVA's own job logs (`log.yaml`, `log.yaml.xz`) are read
//! by `perfguide parse` (`bootlog_parser::lava`, [`crate::xz`]).

pub mod job;
pub mod results;

/// Errors writing a LAVA job or results.
#[derive(Debug, thiserror::Error)]
pub enum LavaError {
    /// The board profile cannot give the job (no `[lava]` table, or one that is not usable).
    #[error(transparent)]
    Profile(#[from] crate::profile::ProfileError),
    /// An option's value cannot be used.
    #[error("{0}")]
    Invalid(String),
    /// The run directory cannot be read.
    #[error(transparent)]
    Run(#[from] crate::report::ReportError),
    /// The job or the results do not serialize.
    #[error("writing YAML: {0}")]
    Yaml(#[from] serde_yaml::Error),
}
