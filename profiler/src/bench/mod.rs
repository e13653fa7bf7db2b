//! Benchmarks on the booted board: a shell on its console ([`crate::shell`]), the target runner
//! `perfguide-bench` asked for its catalog ([`catalog`]) and run once per selected benchmark
//! with its own timeout, everything captured to `bench.log`, then the capture read back
//! ([`parse`], as `perfguide bench parse` reads any capture) into one `perfguide/bench/v1`
//! record per metric (`bench.jsonl`), printed as the [`table`].
//!
//! A benchmark missing on the target is *not available*, one that exits non-zero *failed*
//! (its output kept in the capture), one still running at its timeout is stopped with Ctrl-C
//! and *timed out*; none of these stops the others. Only a console that closes or a shell that
//! does not come back ends the session early.

pub mod catalog;
pub mod check;
pub mod parse;
pub mod serve;
pub mod table;

use crate::shell::{Shell, ShellError};
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Duration;

/// The runner on the target.
pub const RUNNER: &str = "perfguide-bench";
/// The framing version of `docs/bench-framing.md` this host reads.
pub const FRAMING_VERSION: &str = "v1";

/// Errors of a benchmark session.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// The shell failed.
    #[error(transparent)]
    Shell(#[from] ShellError),
    /// The runner is missing or of another framing version.
    #[error("{RUNNER} on the target: {0}")]
    Runner(String),
    /// A name on the command line is not in the catalog.
    #[error(transparent)]
    Unknown(#[from] catalog::UnknownName),
}

/// What to run.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Suites and benchmark ids (all when empty).
    pub names: Vec<String>,
    /// Runs of each benchmark (`perfguide-bench run --repeat`).
    pub repeat: u32,
    /// Peer of the network benchmarks.
    pub server: Option<String>,
    /// Variables set for the runner (`PERFGUIDE_STRESS_SECONDS=5`: the knobs its catalog reads).
    pub env: Vec<(String, String)>,
    /// Per benchmark, all its runs together.
    pub timeout: Duration,
}

/// How one benchmark's invocation ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum State {
    /// Every run exited 0.
    Ok,
    /// A run exited non-zero.
    Failed,
    /// Stopped at the timeout.
    TimedOut,
    /// Not installed on the target, or needing a server none was given for.
    NotAvailable,
}

/// One selected benchmark and how its invocation went.
#[derive(Debug, Clone, Serialize)]
pub struct Item {
    /// The runner's id.
    pub id: String,
    /// How it ended.
    pub state: State,
    /// The runner's exit status (`None` when not run or timed out).
    pub status: Option<i32>,
    /// Host seconds the invocation took (0 when not run).
    pub duration_s: f64,
    /// Why it was not available (`missing`, `needs-server`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// A `NAME=VALUE` setting for the runner's environment; `None` unless NAME is a shell
/// variable name.
pub fn env_setting(spec: &str) -> Option<(String, String)> {
    let (k, v) = spec.split_once('=')?;
    is_shell_name(k).then(|| (k.to_string(), v.to_string()))
}

/// `[A-Za-z_][A-Za-z0-9_]*`: a name the target's shell takes as a variable.
fn is_shell_name(k: &str) -> bool {
    let mut c = k.chars();
    c.next()
        .is_some_and(|first| first.is_ascii_alphabetic() || first == '_')
        && c.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The runner's environment: the board's `[bench] env`, then `cli` (`--env`), a name given
/// on the command line replacing the board's. An error names a board variable that is not a
/// shell variable name.
pub fn merged_env(
    board: &BTreeMap<String, String>,
    cli: &[(String, String)],
) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for (k, v) in board {
        if !is_shell_name(k) {
            return Err(format!("[bench] env: {k:?} is not a shell variable name"));
        }
        if !cli.iter().any(|(c, _)| c == k) {
            out.push((k.clone(), v.clone()));
        }
    }
    out.extend(cli.iter().cloned());
    Ok(out)
}

/// How one `[bench] setup` line ended.
#[derive(Debug, Clone, Serialize)]
pub struct SetupStep {
    /// The command line as the profile gives it.
    pub command: String,
    /// Its exit status (`None`: still running at the timeout, stopped).
    pub status: Option<i32>,
    /// Host seconds it took.
    pub duration_s: f64,
}

impl SetupStep {
    /// It exited 0.
    pub fn ok(&self) -> bool {
        self.status == Some(0)
    }
}

/// Runs the board's `[bench] setup` lines in order, each with `timeout`. One that fails does
/// not stop the others: the caller warns, and the benchmarks that needed it fail on their
/// own with their output.
pub fn run_setup(
    shell: &mut Shell<'_>,
    lines: &[String],
    timeout: Duration,
) -> Result<Vec<SetupStep>, BenchError> {
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        let f = shell.run(line, timeout)?;
        out.push(SetupStep {
            command: line.clone(),
            status: f.status,
            duration_s: f.ended_s - f.sent_s,
        });
    }
    Ok(out)
}

/// Quotes a word for the target's shell (single quotes).
fn sh_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// Checks the runner is there and frames as this host reads; returns its version line.
pub fn check_runner(shell: &mut Shell<'_>) -> Result<String, BenchError> {
    let f = shell.run(&format!("{RUNNER} version"), Duration::from_secs(30))?;
    let line = f
        .output
        .iter()
        .find(|l| l.starts_with(RUNNER))
        .cloned()
        .ok_or_else(|| {
            BenchError::Runner(format!(
                "`{RUNNER} version` printed no version (exit status {:?}): is it installed? \
                 The perfguide image and the Yocto layer put it in /usr/bin",
                f.status
            ))
        })?;
    if !line.contains(&format!("(framing {FRAMING_VERSION})")) {
        return Err(BenchError::Runner(format!(
            "{line:?}: this perfguide reads framing {FRAMING_VERSION}"
        )));
    }
    Ok(line)
}

/// Runs `plan` through the runner, one invocation per benchmark, calling `progress` after
/// each with its position (1-based) and the count.
pub fn run_plan(
    shell: &mut Shell<'_>,
    plan: &Plan,
    progress: &mut dyn FnMut(usize, usize, &Item),
) -> Result<Vec<Item>, BenchError> {
    // What every runner command starts with: its environment.
    let mut prefix = plan
        .server
        .as_deref()
        .map(|s| format!("PERFGUIDE_BENCH_SERVER={} ", sh_quote(s)))
        .unwrap_or_default();
    for (k, v) in &plan.env {
        prefix.push_str(&format!("{k}={} ", sh_quote(v)));
    }
    let list = shell.run(
        &format!("{prefix}{RUNNER} list --all"),
        Duration::from_secs(60),
    )?;
    let cat = catalog::parse_list(&list.output);
    if cat.is_empty() {
        return Err(BenchError::Runner(format!(
            "`{RUNNER} list --all` listed no benchmark (exit status {:?})",
            list.status
        )));
    }
    let chosen = catalog::select(&cat, &plan.names)?;
    let mut items = Vec::with_capacity(chosen.len());
    for (i, e) in chosen.iter().enumerate() {
        let item = if !e.runnable() {
            Item {
                id: e.id.clone(),
                state: State::NotAvailable,
                status: None,
                duration_s: 0.0,
                reason: Some(e.state.clone()),
            }
        } else {
            let cmd = format!(
                "{prefix}{RUNNER} run --repeat {} {}",
                plan.repeat,
                sh_quote(&e.id)
            );
            let f = shell.run(&cmd, plan.timeout)?;
            Item {
                id: e.id.clone(),
                state: match f.status {
                    None => State::TimedOut,
                    Some(0) => State::Ok,
                    Some(_) => State::Failed,
                },
                status: f.status,
                duration_s: f.ended_s - f.sent_s,
                reason: None,
            }
        };
        progress(i + 1, chosen.len(), &item);
        items.push(item);
    }
    Ok(items)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_for_the_target_shell() {
        assert_eq!(sh_quote("openssl/speed"), "'openssl/speed'");
        assert_eq!(sh_quote("a'b"), r"'a'\''b'");
        assert_eq!(
            env_setting("PERFGUIDE_STRESS_SECONDS=5"),
            Some(("PERFGUIDE_STRESS_SECONDS".into(), "5".into()))
        );
        assert_eq!(env_setting("X=a b=c"), Some(("X".into(), "a b=c".into())));
        for bad in ["1X=2", "A-B=1", "=1", "NOEQ", "A;rm=1"] {
            assert_eq!(env_setting(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_command_line_overrides_the_board_env() {
        let board: BTreeMap<String, String> = [
            ("PERFGUIDE_FIO_DIR".to_string(), "/mnt/scratch".to_string()),
            ("PERFGUIDE_FIO_SIZE".to_string(), "64M".to_string()),
        ]
        .into();
        let cli = vec![("PERFGUIDE_FIO_SIZE".to_string(), "16M".to_string())];
        assert_eq!(
            merged_env(&board, &cli).unwrap(),
            [
                ("PERFGUIDE_FIO_DIR".to_string(), "/mnt/scratch".to_string()),
                ("PERFGUIDE_FIO_SIZE".to_string(), "16M".to_string())
            ]
        );
        let bad: BTreeMap<String, String> = [("A;B".to_string(), "1".to_string())].into();
        assert!(merged_env(&bad, &[]).unwrap_err().contains("\"A;B\""));
    }
}
