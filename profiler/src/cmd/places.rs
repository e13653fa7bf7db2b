//! `perfguide boot-loop --place A --place B ...`: one boot loop per labgrid place, at once.
//!
//! Each place runs in a perfguide process of its own (its own console, power, clock and run
//! directory `--out/PLACE`), started with this command's arguments and that one place. Their
//! output comes through prefixed with `[PLACE] `. Ctrl-C or SIGTERM reaches each run once,
//! which then ends as a single run does (board off, place released); a second one stops them
//! hard. At the end the guide of all the runs, one column per place, is written into --out.

use anyhow::{bail, Context};
use perfguide::process::own_process_group;
use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::{Arc, Mutex};

/// This command's arguments without `--place` and `--out` (each with its value).
fn args_without_place_and_out(args: &[OsString]) -> Vec<OsString> {
    let mut out = Vec::new();
    let mut skip_value = false;
    for a in args {
        if skip_value {
            skip_value = false;
            continue;
        }
        let s = a.to_string_lossy();
        if s == "--place" || s == "--out" || s == "-o" {
            skip_value = true;
        } else if !(s.starts_with("--place=") || s.starts_with("--out=") || s.starts_with("-o")) {
            out.push(a.clone());
        }
    }
    out
}

/// Copies `r` line by line to stdout or stderr, each line prefixed.
fn relay<R: Read + Send + 'static>(
    r: R,
    prefix: String,
    to_stderr: bool,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let mut r = BufReader::new(r);
        let mut line = Vec::new();
        while matches!(r.read_until(b'\n', &mut line), Ok(n) if n > 0) {
            let mut out = prefix.clone().into_bytes();
            out.extend_from_slice(&line);
            if !out.ends_with(b"\n") {
                out.push(b'\n');
            }
            let _ = if to_stderr {
                std::io::stderr().lock().write_all(&out)
            } else {
                std::io::stdout().lock().write_all(&out)
            };
            line.clear();
        }
    })
}

/// Runs one boot loop per place; the exit status is the worst of theirs.
pub fn run(places: &[String], out: Option<&Path>, resume: bool) -> anyhow::Result<ExitCode> {
    for (i, p) in places.iter().enumerate() {
        if places[..i].contains(p) {
            bail!("--place {p} is given twice");
        }
        if p.is_empty() || p.contains('/') || p.starts_with('.') {
            bail!(
                "--place {p:?}: a place name is its run directory's name: no `/`, no leading `.`"
            );
        }
    }
    if resume && out.is_none() {
        bail!("--resume needs --out DIR (the runs to continue, one per place in it)");
    }
    let out: PathBuf = out.map(Path::to_path_buf).unwrap_or_else(|| {
        PathBuf::from("runs").join(format!(
            "places-{}",
            chrono::Local::now().format("%Y%m%d-%H%M%S")
        ))
    });
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    let exe =
        std::env::current_exe().context("cannot find the perfguide program to run per place")?;
    let base = args_without_place_and_out(&std::env::args_os().skip(1).collect::<Vec<_>>());

    let children: Arc<Mutex<Vec<(String, Child)>>> = Arc::new(Mutex::new(Vec::new()));
    let mut relays = Vec::new();
    for p in places {
        let mut cmd = Command::new(&exe);
        cmd.args(&base)
            .arg("--place")
            .arg(p)
            .arg("--out")
            .arg(out.join(p))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // Its own process group: a terminal's Ctrl-C reaches it once, through this process.
        own_process_group(&mut cmd);
        let mut child = cmd
            .spawn()
            .with_context(|| format!("cannot start the boot loop of place {p}"))?;
        let prefix = format!("[{p}] ");
        if let Some(o) = child.stdout.take() {
            relays.push(relay(o, prefix.clone(), false));
        }
        if let Some(e) = child.stderr.take() {
            relays.push(relay(e, prefix, true));
        }
        children
            .lock()
            .map_err(|_| anyhow::anyhow!("place list poisoned"))?
            .push((p.clone(), child));
    }
    {
        let children = children.clone();
        let _ = ctrlc::set_handler(move || {
            if let Ok(list) = children.lock() {
                for (_, c) in list.iter() {
                    // SAFETY: kill(2) on the pid of a child this process started.
                    unsafe { libc::kill(c.id() as libc::pid_t, libc::SIGINT) };
                }
            }
        });
    }
    eprintln!(
        "perfguide: boot loops on {} places at once, runs in {}",
        places.len(),
        out.display()
    );

    let mut codes = Vec::new();
    loop {
        let mut list = children
            .lock()
            .map_err(|_| anyhow::anyhow!("place list poisoned"))?;
        let mut i = 0;
        while i < list.len() {
            if let Some(st) = list[i].1.try_wait()? {
                let (p, _) = list.remove(i);
                codes.push((p, st.code().unwrap_or(2)));
            } else {
                i += 1;
            }
        }
        if list.is_empty() {
            break;
        }
        drop(list);
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    for r in relays {
        let _ = r.join();
    }

    let mut reported = Vec::new();
    for (p, code) in &codes {
        eprintln!("perfguide: place {p}: exit status {code}");
        if matches!(code, 0 | 1) {
            reported.push(out.join(p));
        }
    }
    if !reported.is_empty() {
        reported.sort();
        super::guide::write_guide(&reported, &out)?;
    }
    let worst = [2, 130, 1]
        .into_iter()
        .find(|w| codes.iter().any(|(_, c)| c == w))
        .or_else(|| codes.iter().map(|(_, c)| *c).find(|c| *c != 0))
        .unwrap_or(0);
    Ok(ExitCode::from(u8::try_from(worst).unwrap_or(2)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn place_and_out_are_taken_out() {
        let a: Vec<OsString> = [
            "--board",
            "qemu-arm64",
            "--place",
            "a",
            "--place=b",
            "-n",
            "3",
            "--out",
            "x",
            "-oy",
            "--out=z",
            "-o",
            "w",
            "--timeout",
            "60",
        ]
        .iter()
        .map(OsString::from)
        .collect();
        let kept: Vec<String> = args_without_place_and_out(&a)
            .iter()
            .map(|s| s.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            kept,
            ["--board", "qemu-arm64", "-n", "3", "--timeout", "60"]
        );
    }
}
