//! The runner's catalog as `perfguide-bench list --all` prints it, and the benchmarks a
//! `perfguide bench` invocation selects from it.

/// One line of `perfguide-bench list --all`: `ID<TAB>SUITE<TAB>STATE<TAB>COMMAND`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// `<suite>/<name>`.
    pub id: String,
    /// The suite.
    pub suite: String,
    /// `installed`, `missing` or `needs-server`.
    pub state: String,
    /// The command the runner runs.
    pub command: String,
}

impl Entry {
    /// Whether the runner can run it (installed, and a server given when it needs one).
    pub fn runnable(&self) -> bool {
        self.state == "installed"
    }
}

/// The entries of `list --all` output lines; lines that are not entries (echo, prompts) are
/// left out.
pub fn parse_list(lines: &[String]) -> Vec<Entry> {
    lines
        .iter()
        .filter_map(|l| {
            let mut f = l.splitn(4, '\t');
            let (id, suite, state) = (f.next()?, f.next()?, f.next()?);
            let command = f.next().unwrap_or("");
            let ok = id.split_once('/').is_some_and(|(s, _)| s == suite)
                && matches!(state, "installed" | "missing" | "needs-server");
            ok.then(|| Entry {
                id: id.to_string(),
                suite: suite.to_string(),
                state: state.to_string(),
                command: command.to_string(),
            })
        })
        .collect()
}

/// A name that is neither a suite nor a benchmark id of the catalog.
#[derive(Debug, thiserror::Error)]
#[error("no suite or benchmark {name:?} in the target's perfguide-bench (suites: {suites})")]
pub struct UnknownName {
    /// The name.
    pub name: String,
    /// The catalog's suites, comma-separated.
    pub suites: String,
}

/// The entries named by `names` (suites or ids, in catalog order, each once); every entry
/// when `names` is empty.
pub fn select<'a>(catalog: &'a [Entry], names: &[String]) -> Result<Vec<&'a Entry>, UnknownName> {
    for n in names {
        if !catalog.iter().any(|e| e.id == *n || e.suite == *n) {
            let mut suites: Vec<&str> = catalog.iter().map(|e| e.suite.as_str()).collect();
            suites.dedup();
            return Err(UnknownName {
                name: n.clone(),
                suites: suites.join(", "),
            });
        }
    }
    Ok(catalog
        .iter()
        .filter(|e| names.is_empty() || names.iter().any(|n| e.id == *n || e.suite == *n))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<String> {
        s.lines().map(str::to_string).collect()
    }

    #[test]
    fn reads_list_lines_and_selects_by_suite_and_id() {
        let cat = parse_list(&lines(
            "perfguide-qemu:~# perfguide-bench list --all\n\
             openssl/speed-sha256\topenssl\tinstalled\topenssl speed -elapsed sha256\n\
             stress-ng/cpu\tstress-ng\tinstalled\tstress-ng --cpu 1 -t 5 --metrics-brief\n\
             iperf3/tcp-tx\tiperf3\tneeds-server\tiperf3 -c \"$PGB_SERVER\"\n\
             lmbench/bw_pipe\tlmbench\tmissing\tbw_pipe -P 1\n",
        ));
        assert_eq!(cat.len(), 4);
        assert_eq!(cat[2].state, "needs-server");
        assert!(!cat[2].runnable() && cat[0].runnable());
        let ids = |names: &[&str]| -> Vec<String> {
            let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
            select(&cat, &names)
                .unwrap()
                .iter()
                .map(|e| e.id.clone())
                .collect()
        };
        assert_eq!(
            ids(&["stress-ng", "openssl/speed-sha256"]),
            ["openssl/speed-sha256", "stress-ng/cpu"]
        );
        assert_eq!(ids(&[]).len(), 4);
        let e = select(&cat, &["nope".to_string()]).unwrap_err();
        assert_eq!(e.name, "nope");
        assert!(
            e.suites.contains("openssl, stress-ng, iperf3, lmbench"),
            "{}",
            e.suites
        );
    }
}
