#!/usr/bin/env bash
# Every test of the project (what .ci/run runs): host setup, format, lints, the Rust tests
# (parser corpus, robustness, boot-loop engine, real QEMU boot loops and their A/B comparison,
# the report in every format through Sphinx and headless Chromium, image build,
# sbl-instrument fixtures), the fuzz smoke, the Yocto layer / bench runner checks and the
# layer's testimage case against the QEMU reference board.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
step() { printf '\n==> %s\n' "$*" >&2; }

step "host setup (idempotent)"
bash scripts/setup-host.sh
bash scripts/setup-docs.sh
bash scripts/setup-labgrid.sh
bash sbl-instrument/tests/setup-fixtures-deps.sh

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy"
cargo clippy --workspace --all-targets -- -D warnings

step "QEMU reference image (cached by content)"
cargo run --quiet -p perfguide --bin perfguide -- image build --board qemu-arm64

step "cargo test"
cargo test --workspace --no-fail-fast

step "fuzz smoke (every fuzz target of the three parsing crates, 60 s each from the committed seeds)"
bash scripts/fuzz-smoke.sh

step "Yocto layer, kas files, bench runner, Buildroot tree"
bash tests/layer/check.sh

step "the layer's testimage case (perfguide_bench) against the QEMU reference board"
python3 tests/oeqa/case_on_qemu.py
