//! One module per subcommand: its clap arguments and its `run`.

pub mod boards;
pub mod bootloop;
pub mod image;
pub mod parse;
pub mod report;
