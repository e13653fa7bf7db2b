//! No import circle in any crate of the workspace: within a crate, the modules (one per file)
//! and the paths each names (`crate::`, `super::`, `self::`, in `use` lines and in code) form a
//! graph that must have no cycle, so each file can be read knowing only the files below it.
//! A module's own `#[cfg(test)] mod tests` is not part of it (tests may reach anywhere).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The library crates and the source folder of each.
const CRATES: &[&str] = &[
    "bootlog-parser",
    "bench-parser",
    "sbl-instrument",
    "profiler",
];

/// A module path: `["report", "guide"]`; the crate root is `[]`.
type ModPath = Vec<String>;

/// Every `.rs` file under `src` that is a module of the library (`lib.rs` and its tree; the
/// binary's `main.rs` is a crate of its own and left out), by module path.
fn modules(src: &Path) -> BTreeMap<ModPath, PathBuf> {
    let mut out = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n != "bin") {
                    stack.push(p);
                }
                continue;
            }
            if p.extension().map_or(true, |x| x != "rs") {
                continue;
            }
            let rel = p.strip_prefix(src).unwrap();
            let mut m: ModPath = rel
                .iter()
                .map(|c| c.to_string_lossy().trim_end_matches(".rs").to_string())
                .collect();
            match m.last().map(String::as_str) {
                Some("main") if m.len() == 1 => continue,
                Some("lib") if m.len() == 1 => m.clear(),
                Some("mod") => {
                    m.pop();
                }
                _ => {}
            }
            out.insert(m, p);
        }
    }
    out
}

/// The code of a file without comments and without its `#[cfg(test)]` modules.
fn code(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let t = line.trim_start();
        if t.starts_with("#[cfg(test)]") {
            // `#[cfg(test)] mod name {` ... to its closing brace at the same indentation.
            let next = lines.peek().map(|l| l.trim_start()).unwrap_or("");
            if next.starts_with("mod ") && next.ends_with('{') {
                let indent = lines.peek().unwrap().len() - next.len();
                lines.next();
                for l in lines.by_ref() {
                    if l.len() - l.trim_start().len() == indent && l.trim() == "}" {
                        break;
                    }
                }
                continue;
            }
        }
        if t.starts_with("//") {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The module paths a file's code names: `crate::a::b::C`, `super::x`, `self::y`, grouped
/// `use` lists (`crate::a::{b, c::D}`) expanded; relative to `me`, the file's module.
fn named_paths(code: &str, me: &[String]) -> Vec<ModPath> {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let start_ok = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
        let head = ["crate::", "super::", "self::"]
            .into_iter()
            .find(|h| start_ok && bytes[i..].starts_with(h.as_bytes()));
        let Some(head) = head else {
            i += 1;
            continue;
        };
        // The module the path starts from: `me` for `self`, its parent for `super` (a
        // `mod.rs` or `lib.rs` is its folder's module, so the same holds there).
        let mut base: ModPath = match head {
            "crate::" => Vec::new(),
            "self::" => me.to_vec(),
            _ => me[..me.len().saturating_sub(1)].to_vec(),
        };
        i += head.len();
        // further `super::`
        while code[i..].starts_with("super::") {
            base.pop();
            i += "super::".len();
        }
        let (paths, used) = parse_tree(&code[i..]);
        i += used.max(1);
        for p in paths {
            let mut full = base.clone();
            full.extend(p);
            out.push(full);
        }
    }
    out
}

/// A path tail or a `{...}` group at the start of `s`: the paths it names and the bytes read.
fn parse_tree(s: &str) -> (Vec<ModPath>, usize) {
    let b = s.as_bytes();
    let mut i = 0;
    let mut prefix: ModPath = Vec::new();
    loop {
        if i < b.len() && b[i] == b'{' {
            // a group: items separated by commas at depth 1
            let mut paths = Vec::new();
            i += 1;
            loop {
                while i < b.len() && (b[i].is_ascii_whitespace() || b[i] == b',') {
                    i += 1;
                }
                if i >= b.len() || b[i] == b'}' {
                    i += 1;
                    break;
                }
                let (sub, used) = parse_tree(&s[i..]);
                i += used.max(1);
                for p in sub {
                    let mut full = prefix.clone();
                    full.extend(p);
                    paths.push(full);
                }
                // skip ` as name` and the like up to the next comma or brace
                while i < b.len() && b[i] != b',' && b[i] != b'}' {
                    i += 1;
                }
            }
            return (paths, i);
        }
        let start = i;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
            i += 1;
        }
        if i == start {
            return (vec![prefix], i);
        }
        prefix.push(s[start..i].to_string());
        if s[i..].starts_with("::") {
            i += 2;
        } else {
            return (vec![prefix], i);
        }
    }
}

/// The module files a crate's files depend on: each named path goes to the longest module
/// prefix of it (`crate::report::guide::TOP` is `report/guide.rs`); a file's own module and
/// the crate root (which declares the modules) are not edges.
fn graph(src: &Path) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
    let mods = modules(src);
    let mut g = BTreeMap::new();
    for (m, path) in &mods {
        let text = std::fs::read_to_string(path).unwrap();
        let mut deps = BTreeSet::new();
        for p in named_paths(&code(&text), m) {
            let target = (0..=p.len())
                .rev()
                .map(|k| p[..k].to_vec())
                .find(|k| mods.contains_key(k));
            if let Some(t) = target {
                if &t != m && !t.is_empty() && !m.starts_with(&t) {
                    deps.insert(t);
                }
            }
        }
        g.insert(m.clone(), deps);
    }
    g
}

/// The import circles of a graph: each a list of modules, the first repeated at the end.
fn circles(g: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Vec<Vec<ModPath>> {
    // Tarjan's strongly connected components; a component of two or more modules holds a
    // circle, shown as one cycle through its first module.
    struct T<'a> {
        g: &'a BTreeMap<ModPath, BTreeSet<ModPath>>,
        index: BTreeMap<&'a ModPath, usize>,
        low: BTreeMap<&'a ModPath, usize>,
        stack: Vec<&'a ModPath>,
        on: BTreeSet<&'a ModPath>,
        comps: Vec<Vec<&'a ModPath>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a ModPath) {
        let n = t.index.len();
        t.index.insert(v, n);
        t.low.insert(v, n);
        t.stack.push(v);
        t.on.insert(v);
        for w in t.g.get(v).into_iter().flatten() {
            let Some((w, _)) = t.g.get_key_value(w) else {
                continue;
            };
            if !t.index.contains_key(w) {
                visit(t, w);
                let lw = t.low[w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if t.on.contains(w) {
                let iw = t.index[w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if t.low[v] == t.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on.remove(w);
                comp.push(w);
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                t.comps.push(comp);
            }
        }
    }
    let mut t = T {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        comps: Vec::new(),
    };
    for v in g.keys() {
        if !t.index.contains_key(v) {
            visit(&mut t, v);
        }
    }
    t.comps
        .into_iter()
        .map(|comp| {
            let set: BTreeSet<&ModPath> = comp.iter().copied().collect();
            let first = *set.iter().next().unwrap();
            // breadth-first from `first` back to itself inside the component
            let mut prev: BTreeMap<&ModPath, &ModPath> = BTreeMap::new();
            let mut queue = std::collections::VecDeque::from([first]);
            let mut end = None;
            while let Some(v) = queue.pop_front() {
                for w in &g[v] {
                    let Some((w, _)) = g.get_key_value(w) else {
                        continue;
                    };
                    if !set.contains(w) {
                        continue;
                    }
                    if w == first {
                        end = Some(v);
                        break;
                    }
                    if !prev.contains_key(w) {
                        prev.insert(w, v);
                        queue.push_back(w);
                    }
                }
                if end.is_some() {
                    break;
                }
            }
            let mut cycle = vec![first.clone()];
            let mut v = end.unwrap();
            while v != first {
                cycle.push(v.clone());
                v = prev[v];
            }
            cycle.push(first.clone());
            cycle.reverse();
            cycle
        })
        .collect()
}

fn show(m: &ModPath) -> String {
    if m.is_empty() {
        "crate".into()
    } else {
        m.join("::")
    }
}

#[test]
fn no_crate_has_an_import_circle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found = Vec::new();
    for c in CRATES {
        let src = root.join(c).join("src");
        let g = graph(&src);
        assert!(g.len() > 3, "{c}: modules not found in {}", src.display());
        for cyc in circles(&g) {
            let names: Vec<String> = cyc.iter().map(show).collect();
            found.push(format!("{c}: {}", names.join(" -> ")));
        }
    }
    assert!(found.is_empty(), "import circles:\n{}", found.join("\n"));
}

#[test]
fn a_circle_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::create_dir_all(src.join("report")).unwrap();
    std::fs::write(src.join("lib.rs"), "pub mod report;\npub mod table;\n").unwrap();
    std::fs::write(src.join("report/mod.rs"), "pub mod html;\npub mod svg;\n").unwrap();
    std::fs::write(
        src.join("report/html.rs"),
        "use super::svg;\npub fn esc() {}\n#[cfg(test)]\nmod tests {\n    use crate::table::*;\n}\n",
    )
    .unwrap();
    std::fs::write(
        src.join("report/svg.rs"),
        "// use crate::table;\npub fn f() { crate::report::{html::esc}; }\n",
    )
    .unwrap();
    std::fs::write(src.join("table.rs"), "use crate::report::svg::f;\n").unwrap();
    let g = graph(src);
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<ModPath>();
    assert_eq!(
        g[&s(&["report", "html"])],
        BTreeSet::from([s(&["report", "svg"])])
    );
    assert_eq!(
        g[&s(&["report", "svg"])],
        BTreeSet::from([s(&["report", "html"])])
    );
    assert_eq!(g[&s(&["table"])], BTreeSet::from([s(&["report", "svg"])]));
    let c = circles(&g);
    assert_eq!(c.len(), 1, "{c:?}");
    let names: Vec<String> = c[0].iter().map(show).collect();
    assert_eq!(names, ["report::html", "report::svg", "report::html"]);
}

/// The files of the profiler's README picture (`profiler/README.md`, the block under `src/`),
/// in its order, as module paths.
fn readme_floors(readme: &str) -> Vec<(String, ModPath)> {
    let block = readme
        .split("```text\nsrc/\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("profiler/README.md has its ```text src/ block");
    block
        .lines()
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|p| p.ends_with(".rs") && *p != "main.rs")
        .map(|p| {
            let mut m: ModPath = p
                .trim_end_matches(".rs")
                .split('/')
                .map(str::to_string)
                .collect();
            if m.last().is_some_and(|x| x == "mod" || x == "lib") {
                m.pop();
            }
            (p.to_string(), m)
        })
        .collect()
}

#[test]
fn the_profiler_readme_lists_every_file_with_imports_running_down() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../profiler");
    let mut g = graph(&root.join("src"));
    // A module's tests (`tests.rs`) are not a floor of the house.
    g.retain(|m, _| m.last().map_or(true, |x| x != "tests"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let floors = readme_floors(&readme);
    let place: BTreeMap<&ModPath, usize> = floors
        .iter()
        .enumerate()
        .map(|(i, (_, m))| (m, i))
        .collect();
    let mut bad = Vec::new();
    for m in g.keys() {
        if !place.contains_key(m) {
            bad.push(format!("{} is not in the README's picture", show(m)));
        }
    }
    for (i, (file, m)) in floors.iter().enumerate() {
        let Some(deps) = g.get(m) else {
            bad.push(format!("{file} is in the README's picture but not in src/"));
            continue;
        };
        for d in deps {
            if place.get(d).is_some_and(|&j| j < i) {
                bad.push(format!("{file} imports {}, listed above it", show(d)));
            }
        }
    }
    assert!(bad.is_empty(), "profiler/README.md:\n{}", bad.join("\n"));
}
