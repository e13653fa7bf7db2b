//! How a container walker turns a part it holds into a component: detection and the walk of
//! the part belong to the dispatcher (`inspect`), which hands its `describe` down as a
//! function so that the walkers never import it.

use crate::bytes::View;
use crate::error::Result;
use crate::model::{Component, Hint};

/// Detects the format of a part (helped by the hint), walks it at the given depth, and keeps a
/// failure of that walk as a warning on the returned component; only an arithmetic overflow
/// (a hostile header) is returned as an error.
pub(crate) type Describe = fn(&str, View<'_>, usize, Hint) -> Result<Component>;

/// The depth of the container being walked and the way to describe its parts.
#[derive(Clone, Copy)]
pub(crate) struct Nested {
    depth: usize,
    describe: Describe,
}

impl Nested {
    pub fn new(depth: usize, describe: Describe) -> Self {
        Nested { depth, describe }
    }

    /// The component for the part `name` held in `view`, one level below the container.
    pub fn part(&self, name: &str, view: View<'_>, hint: Hint) -> Result<Component> {
        (self.describe)(name, view, self.depth + 1, hint)
    }
}
