//! Board profiles: which boot stages a board has and how its console says it is ready.
//!
//! Profiles are data (`images/boards/<board>.toml`, espflash-style), embedded at build time so
//! the parser stays pure. The profiler reads the same files for its lab tables (console, power,
//! image, ...); this struct reads only what the log grammar needs ([`KEYS`]) and ignores the
//! rest, so a new lab table is the profiler's change alone.

use crate::console::DEFAULT_READY;
use crate::model::StageId;
use serde::Deserialize;

/// The keys of a profile the parser reads ([`BoardProfile`]'s fields); the profiler's tables
/// are the others, and the profiler checks that a profile has no key neither reads.
pub const KEYS: [&str; 7] = [
    "name",
    "description",
    "soc",
    "stages",
    "first_spl",
    "ready",
    "markers",
];

/// What the parser needs to know about a board: the keys of [`KEYS`]; the others are left to
/// the profiler.
#[derive(Debug, Clone, Deserialize)]
pub struct BoardProfile {
    /// Profile id, e.g. `j721e-evm`.
    pub name: String,
    /// One line for people.
    #[serde(default)]
    pub description: String,
    /// SoC family, for reports.
    #[serde(default)]
    pub soc: String,
    /// The stages this board has, in boot order.
    pub stages: Vec<StageId>,
    /// The stage a `U-Boot SPL` banner opens when no TF-A was seen yet in this boot:
    /// `r5-spl` on TI K3 (the R5 runs the first SPL), `a-spl` elsewhere.
    #[serde(default = "default_first_spl")]
    pub first_spl: StageId,
    /// Regex for the line that ends a boot (the board is ready). Default: a login prompt.
    #[serde(default)]
    pub ready: Option<String>,
    /// Extra patterns that open a stage, for boards whose firmware prints something the
    /// built-in grammar does not know.
    #[serde(default)]
    pub markers: Vec<Marker>,
}

/// A board-specific line pattern that opens a stage.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Marker {
    /// The stage the line opens.
    pub stage: StageId,
    /// A regex matched against the line text (after host timestamps are stripped).
    pub pattern: String,
}

fn default_first_spl() -> StageId {
    StageId::ASpl
}

/// Errors reading a board profile.
#[derive(Debug, thiserror::Error)]
pub enum BoardError {
    /// The TOML is malformed or has unknown keys.
    #[error("board profile {name}: {source}")]
    Toml {
        /// Profile name or path.
        name: String,
        /// The TOML error (it names the line and column).
        source: toml::de::Error,
    },
    /// A regex in the profile does not compile.
    #[error("board profile {name}: bad pattern {pattern:?}: {source}")]
    Pattern {
        /// Profile name or path.
        name: String,
        /// The offending pattern.
        pattern: String,
        /// Why it does not compile.
        source: regex::Error,
    },
    /// No built-in profile has this name.
    #[error("unknown board {0:?}; known boards: {known}", known = BUILTIN.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", "))]
    Unknown(String),
}

include!(concat!(env!("OUT_DIR"), "/builtin_boards.rs"));

impl BoardProfile {
    /// Parses a profile from TOML text; `name` is used in error messages (a path or an id).
    pub fn from_toml_str(name: &str, text: &str) -> Result<Self, BoardError> {
        let p: BoardProfile = toml::from_str(text).map_err(|source| BoardError::Toml {
            name: name.to_string(),
            source,
        })?;
        let mut pats: Vec<&str> = p.markers.iter().map(|m| m.pattern.as_str()).collect();
        // The default ready pattern is known good (a test compiles it) and the parser tests it
        // by hand, never as a regex: compiling it here cost most of a run's start-up.
        if let Some(r) = p.ready.as_deref().filter(|&r| r != DEFAULT_READY) {
            pats.push(r);
        }
        for pattern in pats {
            regex::Regex::new(pattern).map_err(|source| BoardError::Pattern {
                name: name.to_string(),
                pattern: pattern.to_string(),
                source,
            })?;
        }
        Ok(p)
    }

    /// A built-in profile by name (`generic` when the user gives none).
    pub fn builtin(name: &str) -> Result<Self, BoardError> {
        let (_, text) = BUILTIN
            .iter()
            .find(|(n, _)| *n == name)
            .ok_or_else(|| BoardError::Unknown(name.to_string()))?;
        Self::from_toml_str(name, text)
    }

    /// The generic U-Boot + Linux profile (`images/boards/generic.toml`).
    pub fn generic() -> Self {
        Self::builtin("generic").expect("the built-in generic profile is valid")
    }

    /// Whether this board has the stage.
    pub fn has_stage(&self, id: StageId) -> bool {
        self.stages.contains(&id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_profile_loads() {
        for (name, _) in BUILTIN {
            let p = BoardProfile::builtin(name).unwrap();
            assert_eq!(&p.name, name, "profile file name and `name` key differ");
            assert!(!p.stages.is_empty());
            let mut sorted = p.stages.clone();
            sorted.sort();
            assert_eq!(sorted, p.stages, "{name}: stages are not in boot order");
        }
    }

    #[test]
    fn the_built_in_set_is_the_boards_folder() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../images/boards");
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
            .collect();
        files.sort();
        let mut built: Vec<String> = BUILTIN.iter().map(|(n, _)| n.to_string()).collect();
        assert_eq!(built[0], "generic", "generic comes first");
        built.sort();
        assert_eq!(built, files);
        for (name, text) in BUILTIN {
            let on_disk = std::fs::read_to_string(format!("{dir}/{name}.toml")).unwrap();
            assert_eq!(
                *text, on_disk,
                "{name}: built-in text differs from the file"
            );
        }
    }

    #[test]
    fn generic_is_the_parsed_generic_file() {
        let parsed = BoardProfile::builtin("generic").unwrap();
        assert_eq!(
            format!("{:?}", BoardProfile::generic()),
            format!("{parsed:?}")
        );
        let r = BoardProfile::generic().ready.unwrap();
        assert_eq!(r, DEFAULT_READY);
        regex::Regex::new(&r).unwrap();
    }

    #[test]
    fn other_keys_are_left_to_the_profiler() {
        let p = BoardProfile::from_toml_str(
            "x.toml",
            "name = \"x\"\nstages = [\"uboot\"]\n[power]\ndriver = \"qemu\"\n",
        )
        .unwrap();
        assert_eq!(p.name, "x");
    }

    #[test]
    fn bad_regex_is_an_error() {
        let e =
            BoardProfile::from_toml_str("x", "name = \"x\"\nstages = [\"uboot\"]\nready = \"(\"\n")
                .unwrap_err();
        assert!(matches!(e, BoardError::Pattern { .. }));
    }

    #[test]
    fn unknown_board_lists_known_ones() {
        let e = BoardProfile::builtin("nope").unwrap_err().to_string();
        assert!(e.contains("j721e-evm"), "{e}");
    }
}
