//! How a boot loop runs and judges its cycles: the timeout, the board's ready, panic and
//! banner patterns ([`bootlog_parser::console`]) compiled, and each cycle's console.

use super::error::BootLoopError;
use crate::profile::{ConsoleMode, LoginConfig};
use crate::rundir::CycleConsole;
use bootlog_parser::console;
use bootlog_parser::BoardProfile;
use regex::Regex;
use std::time::Duration;

/// How cycles are run and judged.
#[derive(Debug, Clone)]
pub struct LoopOptions {
    /// Per cycle, from power-on.
    pub timeout: Duration,
    /// After a kernel panic line, how long to keep capturing the trace.
    pub panic_grace: Duration,
    /// The board is ready.
    pub ready: Regex,
    /// Kernel panic.
    pub panic: Regex,
    /// `(banner, allowed occurrences)`: seeing a banner more often than allowed in one cycle is
    /// an unexpected reset.
    pub banners: Vec<(Regex, usize)>,
    /// Print every captured line on stderr too.
    pub echo: bool,
    /// How long a console that went away (a USB serial adapter re-enumerating) is waited for
    /// before a cycle goes on without it.
    pub console_wait: Duration,
    /// Loud, quiet, or both in turns.
    pub console: ConsoleMode,
    /// Read the target's records back after loud cycles too (quiet ones always are).
    pub collect_loud: bool,
    /// How to log in for the collection.
    pub login: LoginConfig,
}

impl LoopOptions {
    /// Options for a profile: its ready pattern and its banners
    /// ([`bootlog_parser::console`]).
    pub fn for_profile(profile: &BoardProfile, timeout: Duration) -> Result<Self, BootLoopError> {
        let re = |p: &str| {
            Regex::new(p).map_err(|source| BootLoopError::Pattern {
                board: profile.name.clone(),
                pattern: p.to_string(),
                source,
            })
        };
        let ready = re(console::ready_pattern(profile.ready.as_deref()))?;
        let markers = profile
            .markers
            .iter()
            .map(|m| (m.stage, m.pattern.as_str()));
        let banners = console::banners(&profile.stages, markers)
            .into_iter()
            .map(|b| Ok((re(&b.pattern)?, b.allowed)))
            .collect::<Result<_, BootLoopError>>()?;
        Ok(LoopOptions {
            timeout,
            panic_grace: Duration::from_secs(2),
            ready,
            panic: re(console::PANIC_PATTERN)?,
            banners,
            echo: false,
            console_wait: Duration::from_secs(10),
            console: ConsoleMode::Loud,
            collect_loud: false,
            login: LoginConfig::default(),
        })
    }

    /// The console of cycle `n` (1-based): in `both`, odd cycles are loud and even ones
    /// quiet, so a resumed run keeps the turns.
    pub fn console_of(&self, n: u32) -> CycleConsole {
        match self.console {
            ConsoleMode::Loud => CycleConsole::Loud,
            ConsoleMode::Quiet => CycleConsole::Quiet,
            ConsoleMode::Both if n % 2 == 1 => CycleConsole::Loud,
            ConsoleMode::Both => CycleConsole::Quiet,
        }
    }

    /// Whether cycle `n` reads the target's records back after its ready mark: quiet cycles,
    /// and every cycle of `both` (its loud cycles check the alignment against their console)
    /// or of `--collect`.
    pub fn collects(&self, n: u32) -> bool {
        self.collect_loud
            || self.console == ConsoleMode::Both
            || self.console_of(n) == CycleConsole::Quiet
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_follow_the_profile() {
        let k3 = BoardProfile::builtin("j721e-evm").unwrap();
        let o = LoopOptions::for_profile(&k3, Duration::from_secs(1)).unwrap();
        // R5 SPL and A72 SPL print the same banner.
        assert!(o
            .banners
            .iter()
            .any(|(r, n)| r.is_match("U-Boot SPL 2023.04-g1 (Jan 1)") && *n == 2));
        assert!(o.ready.is_match("j721e-evm login: "));
        assert!(o.panic.is_match("Kernel panic - not syncing: VFS"));
    }
}
