//! External steps of an image build: every child process goes through duct, with argv (never a
//! shell string), its output appended to the build log, and an error that names the log.

use anyhow::{bail, Context};
use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Runs the external steps of one build and reports progress on stderr.
pub struct Runner {
    log: PathBuf,
    start: Instant,
    quiet: bool,
}

impl Runner {
    /// Appends to the build log at `log` (created if missing).
    pub fn new(log: &Path, quiet: bool) -> anyhow::Result<Self> {
        if let Some(dir) = log.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let mut f = Self::open(log)?;
        writeln!(
            f,
            "\n==== perfguide image build, {} ====",
            chrono::Local::now().to_rfc3339()
        )?;
        Ok(Self {
            log: log.to_path_buf(),
            start: Instant::now(),
            quiet,
        })
    }

    fn open(log: &Path) -> anyhow::Result<File> {
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
            .with_context(|| format!("cannot open build log {}", log.display()))
    }

    /// The build log.
    pub fn log_path(&self) -> &Path {
        &self.log
    }

    /// Seconds since the build started.
    pub fn elapsed(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    /// A progress line on stderr (and in the log).
    pub fn progress(&self, msg: &str) {
        let line = format!("[{:7.1}s] {msg}", self.elapsed());
        if !self.quiet {
            eprintln!("perfguide image: {line}");
        }
        if let Ok(mut f) = Self::open(&self.log) {
            let _ = writeln!(f, "## {line}");
        }
    }

    /// Runs a step of the build: `f` does the work; a line with its duration is printed after.
    pub fn step<T>(&self, name: &str, f: impl FnOnce() -> anyhow::Result<T>) -> anyhow::Result<T> {
        let t = Instant::now();
        self.progress(&format!("{name} ..."));
        let r = f().with_context(|| format!("{name} failed (build log: {})", self.log.display()));
        match &r {
            Ok(_) => self.progress(&format!(
                "{name}: done in {:.1}s",
                t.elapsed().as_secs_f64()
            )),
            Err(e) => self.progress(&format!("{name}: FAILED: {e:#}")),
        }
        r
    }

    fn header(&self, program: &str, args: &[OsString], dir: Option<&Path>) -> anyhow::Result<File> {
        let mut f = Self::open(&self.log)?;
        let argv: Vec<String> = args
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        match dir {
            Some(d) => writeln!(f, "$ (cd {}) {program} {}", d.display(), argv.join(" "))?,
            None => writeln!(f, "$ {program} {}", argv.join(" "))?,
        }
        Ok(f)
    }

    /// Runs `program args` with stdout and stderr appended to the build log.
    pub fn run(&self, cmd: Cmd) -> anyhow::Result<()> {
        let f = self.header(&cmd.program, &cmd.args, cmd.dir.as_deref())?;
        let mut e = cmd.expr().stderr_to_stdout().stdout_file(f).unchecked();
        if let Some(input) = cmd.stdin {
            e = e.stdin_bytes(input);
        }
        let out = e.run().with_context(|| {
            format!(
                "cannot start {} (is it installed? run scripts/setup-host.sh)",
                cmd.program
            )
        })?;
        self.check(&cmd.program, out.status)
    }

    /// Runs `program args` with its stdout written to the file `out`; stderr goes to the log.
    pub fn run_to_file(&self, cmd: Cmd, out: &Path) -> anyhow::Result<()> {
        let f = self.header(&cmd.program, &cmd.args, cmd.dir.as_deref())?;
        let mut e = cmd.expr().stderr_file(f).stdout_path(out).unchecked();
        if let Some(input) = cmd.stdin {
            e = e.stdin_bytes(input);
        }
        let o = e.run().with_context(|| {
            format!(
                "cannot start {} (is it installed? run scripts/setup-host.sh)",
                cmd.program
            )
        })?;
        self.check(&cmd.program, o.status)
    }

    /// Runs a command with its stdout captured and its stderr in the log; any exit status.
    fn capture(&self, cmd: &Cmd) -> anyhow::Result<std::process::Output> {
        let f = self.header(&cmd.program, &cmd.args, cmd.dir.as_deref())?;
        cmd.expr()
            .stderr_file(f)
            .stdout_capture()
            .unchecked()
            .run()
            .with_context(|| {
                format!(
                    "cannot start {} (is it installed? run scripts/setup-host.sh)",
                    cmd.program
                )
            })
    }

    /// Runs `program args` and returns its stdout; stderr goes to the log.
    pub fn read(&self, cmd: Cmd) -> anyhow::Result<String> {
        let out = self.capture(&cmd)?;
        self.check(&cmd.program, out.status)?;
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// Like [`Runner::read`], but a non-zero exit is only logged (apt-cache exits 100 when one
    /// of several names is unknown, after printing the others).
    pub fn read_lenient(&self, cmd: Cmd) -> anyhow::Result<String> {
        let out = self.capture(&cmd)?;
        if !out.status.success() {
            let mut f = Self::open(&self.log)?;
            writeln!(
                f,
                "({} exited with {}; continuing)",
                cmd.program, out.status
            )?;
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    fn check(&self, program: &str, status: std::process::ExitStatus) -> anyhow::Result<()> {
        if status.success() {
            return Ok(());
        }
        let tail = tail_lines(&self.log, 15);
        bail!(
            "{program} failed ({status}); see the build log {}\n--- last lines of the log ---\n{tail}",
            self.log.display()
        )
    }
}

/// The last `n` non-empty lines of a file (the build log).
fn tail_lines(path: &Path, n: usize) -> String {
    crate::process::tail_lines(&std::fs::read(path).unwrap_or_default(), n)
}

/// A command line: a program, its arguments, optional directory, environment and stdin.
pub struct Cmd {
    program: String,
    args: Vec<OsString>,
    dir: Option<PathBuf>,
    env: Vec<(String, OsString)>,
    stdin: Option<Vec<u8>>,
}

impl Cmd {
    /// `program` with no arguments yet.
    pub fn new(program: &str) -> Self {
        Self {
            program: program.to_string(),
            args: Vec::new(),
            dir: None,
            env: Vec::new(),
            stdin: None,
        }
    }

    /// Adds one argument.
    pub fn arg(mut self, a: impl Into<OsString>) -> Self {
        self.args.push(a.into());
        self
    }

    /// Adds arguments.
    pub fn args<I, S>(mut self, a: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<OsString>,
    {
        self.args.extend(a.into_iter().map(Into::into));
        self
    }

    /// Runs in `dir`.
    pub fn dir(mut self, dir: &Path) -> Self {
        self.dir = Some(dir.to_path_buf());
        self
    }

    /// Sets an environment variable for the child.
    pub fn env(mut self, k: &str, v: impl Into<OsString>) -> Self {
        self.env.push((k.to_string(), v.into()));
        self
    }

    /// Feeds `input` on stdin.
    pub fn stdin(mut self, input: Vec<u8>) -> Self {
        self.stdin = Some(input);
        self
    }

    fn expr(&self) -> duct::Expression {
        let mut e = duct::cmd(&self.program, &self.args);
        if let Some(d) = &self.dir {
            e = e.dir(d);
        }
        for (k, v) in &self.env {
            e = e.env(k, v);
        }
        if self.stdin.is_none() {
            e = e.stdin_null();
        }
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_name_the_build_log() {
        let d = tempfile::tempdir().unwrap();
        let log = d.path().join("logs/build.log");
        let r = Runner::new(&log, true).unwrap();
        r.run(Cmd::new("sh").args(["-c", "echo hello-from-child"]))
            .unwrap();
        let e = r
            .run(Cmd::new("sh").args(["-c", "echo boom >&2; exit 3"]))
            .unwrap_err();
        let msg = format!("{e:#}");
        assert!(msg.contains(&log.display().to_string()), "{msg}");
        assert!(msg.contains("boom"), "{msg}");
        let e = r.run(Cmd::new("perfguide-no-such-program")).unwrap_err();
        assert!(format!("{e:#}").contains("setup-host.sh"));
        let text = std::fs::read_to_string(&log).unwrap();
        assert!(text.contains("hello-from-child"));
        assert!(text.contains("$ sh -c echo boom"));
        assert_eq!(
            r.read(Cmd::new("sh").args(["-c", "printf out; echo err >&2"]))
                .unwrap(),
            "out"
        );
        let err = r
            .step("a step", || -> anyhow::Result<()> {
                anyhow::bail!("inner")
            })
            .unwrap_err();
        assert!(format!("{err:#}").contains("a step failed (build log:"));
    }
}
