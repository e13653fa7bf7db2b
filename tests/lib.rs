//! Helpers shared by the end-to-end tests: where the corpus and the built binaries are.
