//! One module per subcommand: its clap arguments and its `run`, which turns them into calls
//! of the library.

pub mod bench;
pub mod bench_check;
pub mod bench_parse;
pub mod boards;
pub mod bootloop;
pub mod compare;
pub mod guide;
pub mod image;
pub mod lava;
pub mod open;
pub mod parse;
pub mod places;
pub mod report;

/// Whether an error is a closed stdout (`perfguide parse x | head`), which is not a failure.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Writes a document to stdout; a closed stdout is not a failure.
pub fn write_stdout(bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    match std::io::stdout().lock().write_all(bytes) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e),
        _ => Ok(()),
    }
}
