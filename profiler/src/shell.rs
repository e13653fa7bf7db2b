//! A shell on the board's console: log in, run a command, wait for its exit status, with every
//! console byte written to a capture in the raw capture format (host stamps since the capture's
//! t = 0).
//!
//! A command's end is found by a line the shell prints after it, `@@PERFGUIDE-EXIT <n> <status>`,
//! written by `echo` so that the typed (echoed) command line never holds it: the command sent
//! reads `...; echo "@@PERFGUIDE-""EXIT <n> $?"`.

use crate::capture::{CaptureError, CaptureWriter, Line, LineSplitter};
use crate::lab::{Console, ConsoleError, ConsoleEvent};
use crate::profile::{seconds, LoginConfig};
use bootlog_parser::console::match_text;
use regex::Regex;
use std::time::{Duration, Instant};

/// The first word of the line that ends a command's output.
const EXIT_WORD: &str = "@@PERFGUIDE-EXIT";
/// How long a console read waits before the deadline is looked at again.
const POLL: Duration = Duration::from_millis(50);
/// How long the shell has to come back after Ctrl-C.
const INTERRUPT_GRACE: Duration = Duration::from_secs(10);

/// Errors of a console shell.
#[derive(Debug, thiserror::Error)]
pub enum ShellError {
    /// The console failed.
    #[error(transparent)]
    Console(#[from] ConsoleError),
    /// The capture could not be written.
    #[error(transparent)]
    Capture(#[from] CaptureError),
    /// A `[login]` pattern does not compile.
    #[error("[login] {key} = {pattern:?}: {source}")]
    Pattern {
        /// The key.
        key: &'static str,
        /// The pattern.
        pattern: String,
        /// Why.
        source: regex::Error,
    },
    /// No shell prompt in time.
    #[error("login: no shell prompt ({prompt:?}) within {secs:.0} s; last console text: {last:?}")]
    Login {
        /// The prompt pattern.
        prompt: String,
        /// The time allowed.
        secs: f64,
        /// The console's last text.
        last: String,
    },
    /// The console closed.
    #[error("the console closed: {0}")]
    Closed(String),
    /// The shell did not come back after a command was interrupted.
    #[error("the shell did not answer within {secs:.0} s after Ctrl-C stopped `{command}`")]
    Hung {
        /// The interrupted command.
        command: String,
        /// The time allowed.
        secs: f64,
    },
}

/// How a command ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Finished {
    /// Its exit status, `None` when it was stopped at its timeout.
    pub status: Option<i32>,
    /// The lines it printed (the echoed command line and the exit line left out).
    pub output: Vec<String>,
    /// Host seconds since the capture's t = 0 when it was sent, and when it ended.
    pub sent_s: f64,
    /// See `sent_s`.
    pub ended_s: f64,
}

/// A test of what the console shows: the patterns, the unfinished line and the finished lines
/// looked at; a value ends the wait.
type Found<'f, T> = &'f dyn Fn(&Patterns, &str, &[String]) -> Option<T>;

/// The login patterns, compiled.
struct Patterns {
    login: Regex,
    password: Regex,
    prompt: Regex,
}

/// A shell session on a console.
pub struct Shell<'c> {
    console: &'c mut dyn Console,
    split: LineSplitter,
    writer: CaptureWriter,
    cfg: LoginConfig,
    patterns: Patterns,
    /// The finished lines since the session began, cleaned as patterns see them
    /// ([`match_text`]).
    lines: Vec<String>,
    commands: u64,
    echo: bool,
}

impl<'c> Shell<'c> {
    /// A session on `console` whose capture has t = 0 at `t0`; `echo` copies every console
    /// line to stderr.
    pub fn new(
        console: &'c mut dyn Console,
        t0: Instant,
        writer: CaptureWriter,
        cfg: LoginConfig,
        echo: bool,
    ) -> Result<Self, ShellError> {
        let re = |key: &'static str, pattern: &str| {
            Regex::new(pattern).map_err(|source| ShellError::Pattern {
                key,
                pattern: pattern.to_string(),
                source,
            })
        };
        let patterns = Patterns {
            login: re("login_prompt", &cfg.login_prompt)?,
            password: re("password_prompt", &cfg.password_prompt)?,
            prompt: re("prompt", &cfg.prompt)?,
        };
        Ok(Shell {
            console,
            split: LineSplitter::new(t0),
            writer,
            cfg,
            patterns,
            lines: Vec::new(),
            commands: 0,
            echo,
        })
    }

    /// Seconds since the capture's t = 0.
    fn now_s(&self) -> f64 {
        self.split.since_t0_us(Instant::now()) as f64 / 1e6
    }

    /// Reads the console for at most `wait`; finished lines go to the capture.
    fn pump(&mut self, wait: Duration) -> Result<(), ShellError> {
        match self.console.recv(wait)? {
            None => Ok(()),
            Some(ConsoleEvent::Data { at, bytes }) => {
                for line in self.split.push(at, &bytes) {
                    self.keep(line)?;
                }
                Ok(())
            }
            Some(ConsoleEvent::Closed { reason, .. }) => Err(ShellError::Closed(reason)),
        }
    }

    fn keep(&mut self, line: Line) -> Result<(), ShellError> {
        self.writer.write_line(&line)?;
        if self.echo {
            eprintln!("{}", line.text());
        }
        self.lines.push(match_text(&line.bytes).into_owned());
        Ok(())
    }

    /// The console's unfinished line (a prompt has no line end), cleaned of escape
    /// sequences (line editors ask the terminal for the cursor position after the prompt).
    fn partial(&self) -> String {
        match_text(self.split.partial()).into_owned()
    }

    fn send(&mut self, text: &str) -> Result<(), ShellError> {
        Ok(self.console.send(text.as_bytes())?)
    }

    /// Reads until `found` gives a value for the unfinished line or a finished one (those
    /// from `from` on), or `deadline` passes (`None`).
    fn wait_for<T>(
        &mut self,
        from: usize,
        deadline: Instant,
        found: Found<'_, T>,
    ) -> Result<Option<T>, ShellError> {
        loop {
            if let Some(v) = found(&self.patterns, &self.partial(), &self.lines[from..]) {
                return Ok(Some(v));
            }
            let now = Instant::now();
            if now >= deadline {
                return Ok(None);
            }
            self.pump((deadline - now).min(POLL))?;
        }
    }

    /// Gets a shell prompt: wakes the console with a line end, answers the login and
    /// password prompts as `[login]` says, and waits for the shell prompt.
    pub fn login(&mut self) -> Result<(), ShellError> {
        #[derive(Clone, Copy)]
        enum Seen {
            Login,
            Password,
            Shell,
        }
        let secs = self.cfg.timeout_s;
        let deadline = Instant::now() + seconds(secs);
        self.send("\r")?;
        loop {
            let from = self.lines.len();
            let seen = self.wait_for(from, deadline, &|p, partial, _| {
                if p.prompt.is_match(partial) && !p.login.is_match(partial) {
                    Some(Seen::Shell)
                } else if p.password.is_match(partial) {
                    Some(Seen::Password)
                } else if p.login.is_match(partial) {
                    Some(Seen::Login)
                } else {
                    None
                }
            })?;
            match seen {
                Some(Seen::Shell) => return Ok(()),
                // Also a login prompt again (a wrong password, a prompt printed twice): the
                // user once more, until the deadline.
                Some(Seen::Login) => {
                    let user = self.cfg.user.clone();
                    self.send(&format!("{user}\r"))?;
                }
                Some(Seen::Password) => {
                    let pw = self.cfg.password.clone().unwrap_or_default();
                    self.send(&format!("{pw}\r"))?;
                }
                None => {
                    let last = match self.partial() {
                        p if p.trim().is_empty() => self.lines.last().cloned().unwrap_or_default(),
                        p => p,
                    };
                    return Err(ShellError::Login {
                        prompt: self.cfg.prompt.clone(),
                        secs,
                        last,
                    });
                }
            }
            // Let the prompt just answered go by before looking again.
            self.wait_for(self.lines.len(), Instant::now() + POLL, &|_, partial, _| {
                partial.is_empty().then_some(())
            })?;
        }
    }

    /// Runs `command` (one shell line) and waits for its exit status; at `timeout` it is
    /// stopped with Ctrl-C and reported with no status.
    pub fn run(&mut self, command: &str, timeout: Duration) -> Result<Finished, ShellError> {
        self.run_with(command, timeout, false)
    }

    /// As [`Shell::run`], but the line is typed first and the Enter key sent once the shell
    /// has echoed it: `sent_s` is then when the command could start, not when its typing
    /// did (a line editor on a slow target takes milliseconds a character).
    pub fn run_on_enter(
        &mut self,
        command: &str,
        timeout: Duration,
    ) -> Result<Finished, ShellError> {
        self.run_with(command, timeout, true)
    }

    fn run_with(
        &mut self,
        command: &str,
        timeout: Duration,
        on_enter: bool,
    ) -> Result<Finished, ShellError> {
        self.commands += 1;
        let n = self.commands;
        let (head, tail) = EXIT_WORD.split_at(EXIT_WORD.len() / 2);
        let typed = format!("{command}; echo \"{head}\"\"{tail} {n} $?\"");
        let from = self.lines.len();
        let mut sent_s = self.now_s();
        if on_enter {
            self.send(&typed)?;
            let end = format!("{tail} {n} $?\"");
            self.wait_for(from, Instant::now() + INTERRUPT_GRACE, &|_, partial, _| {
                partial.trim_end().ends_with(&end).then_some(())
            })?;
            sent_s = self.now_s();
            self.send("\r")?;
        } else {
            self.send(&format!("{typed}\r"))?;
        }
        let want = format!("{EXIT_WORD} {n} ");
        let exit = self.wait_for(from, Instant::now() + timeout, &|_, _, lines| {
            lines.iter().enumerate().find_map(|(i, l)| {
                let rest = l.trim_end().strip_prefix(want.as_str())?;
                Some((i, rest.parse::<i32>().ok()?))
            })
        })?;
        let (status, end) = match exit {
            Some((i, status)) => (Some(status), from + i),
            None => {
                self.send("\x03")?;
                let back = self.wait_for(
                    self.lines.len(),
                    Instant::now() + INTERRUPT_GRACE,
                    &|p, partial, _| p.prompt.is_match(partial).then_some(()),
                )?;
                if back.is_none() {
                    return Err(ShellError::Hung {
                        command: command.to_string(),
                        secs: INTERRUPT_GRACE.as_secs_f64(),
                    });
                }
                (None, self.lines.len())
            }
        };
        let ended_s = self.now_s();
        // The first line holds the echoed command (the terminal may have wrapped it).
        let echoed = self.lines[from..end]
            .iter()
            .position(|l| l.contains(head))
            .map_or(0, |i| i + 1);
        let output = self.lines[from + echoed.min(end - from)..end].to_vec();
        if status.is_some() {
            // The prompt after the exit line, so the next command starts on a fresh line.
            self.wait_for(
                self.lines.len(),
                Instant::now() + INTERRUPT_GRACE,
                &|p, partial, _| p.prompt.is_match(partial).then_some(()),
            )?;
        }
        Ok(Finished {
            status,
            output,
            sent_s,
            ended_s,
        })
    }

    /// Ends the session: the unfinished line is written and the capture synced. Returns the
    /// number of lines captured.
    pub fn finish(mut self) -> Result<u64, ShellError> {
        if let Some(line) = self.split.finish() {
            self.keep(line)?;
        }
        self.writer.sync()?;
        Ok(self.writer.lines())
    }
}
