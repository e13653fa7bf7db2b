#!/usr/bin/env bash
# The main job on a fresh machine: install what is missing (idempotent), build the QEMU
# reference image, power-cycle it CYCLES times (default 5) with host-timestamped console
# capture, print the stage breakdown and write the Performance Guide (guide.md, report.html,
# guide.rst, report.json, report.csv in the run directory).
set -euo pipefail
cd "$(dirname "$0")/.."
cycles=${CYCLES:-5}
step() { printf '\n==> %s\n' "$*" >&2; }

step "host setup (idempotent)"
bash scripts/setup-host.sh

step "build perfguide"
cargo build --release -p perfguide
pg=target/release/perfguide

step "build the QEMU reference image"
"$pg" image build --board qemu-arm64

run=runs/qemu-arm64-$(date +%Y%m%d-%H%M%S)
step "boot loop: $cycles cycles -> $run"
"$pg" boot-loop --board qemu-arm64 --cycles "$cycles" --out "$run"

step "report"
"$pg" report "$run"
cat "$run/guide.md"
printf '\nThe guide: %s (Markdown), %s (one page with the boot waterfall; open it in a browser),\n%s, %s, %s\n' \
    "$run/guide.md" "$run/report.html" "$run/guide.rst" "$run/report.json" "$run/report.csv" >&2
