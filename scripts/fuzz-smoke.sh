#!/usr/bin/env bash
# Fuzz smoke: runs every fuzz target of bootlog-parser, bench-parser and sbl-instrument for a
# fixed time (FUZZ_SECONDS, default 60, per target) from its committed seeds (<crate>/fuzz/seeds/<target>),
# one target after the other on one core. Exits non-zero if any target crashes; the crashing
# input and the log are kept under target/fuzz-smoke/<crate>-<target>/.
#
# Needs cargo-fuzz (scripts/setup-host.sh installs it) and libFuzzer's nightly features,
# enabled on the stable toolchain with RUSTC_BOOTSTRAP=1. The targets are built as cargo-fuzz
# builds them by default: optimised, with debug assertions, overflow checks and AddressSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
secs=${FUZZ_SECONDS:-60}
export RUSTC_BOOTSTRAP=1
export CARGO_TERM_COLOR=never

say() { printf 'fuzz-smoke: %s\n' "$*" >&2; }

if ! cargo fuzz --version >/dev/null 2>&1; then
    say "cargo-fuzz is missing: run scripts/setup-host.sh (or: cargo install cargo-fuzz --locked)"
    exit 2
fi

out=$root/target/fuzz-smoke
rm -rf "$out"
mkdir -p "$out"

failed=()
for crate in bootlog-parser bench-parser sbl-instrument; do
    dir=$root/$crate/fuzz
    say "$crate: building the fuzz targets"
    (cd "$dir" && cargo fuzz build) >"$out/$crate-build.log" 2>&1 || {
        tail -n 30 "$out/$crate-build.log" >&2
        say "$crate: build failed (log: $out/$crate-build.log)"
        exit 1
    }
    # The targets the crate defines ([[bin]] of fuzz/Cargo.toml) must be the ones cargo-fuzz
    # lists: a listing that fails or comes out short is an error, not fewer targets run.
    defined=$(awk '/^\[\[bin\]\]/{b=1; next} /^\[/{b=0} b && /^name = /{gsub(/"/, "", $3); print $3}' "$dir/Cargo.toml" | sort)
    listed=$(cd "$dir" && cargo fuzz list | sort) || {
        say "$crate: cargo fuzz list failed"
        exit 1
    }
    if [[ -z $defined || $listed != "$defined" ]]; then
        say "$crate: cargo fuzz list gave [${listed//$'\n'/ }], the crate defines [${defined//$'\n'/ }]"
        exit 1
    fi
    for target in $listed; do
        run=$out/$crate-$target
        mkdir -p "$run/corpus"
        seeds=$dir/seeds/$target
        if [[ ! -d $seeds ]]; then
            say "$crate/$target: no seed corpus at $seeds"
            failed+=("$crate/$target (no seeds)")
            continue
        fi
        say "$crate/$target: ${secs} s from $(find "$seeds" -type f | wc -l) seeds"
        # New inputs go to the scratch corpus (first directory); the seeds stay as committed.
        if (cd "$dir" && cargo fuzz run "$target" "$run/corpus" "$seeds" -- \
            -max_total_time="$secs" -artifact_prefix="$run/" -print_final_stats=1) \
            >"$run/log" 2>&1; then
            runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$run/log" | tail -n 1)
            say "$crate/$target: ok, ${runs:-?} runs, no crash"
        else
            tail -n 40 "$run/log" >&2
            say "$crate/$target: CRASH (log: $run/log; input: $(ls "$run"/crash-* "$run"/leak-* "$run"/timeout-* "$run"/oom-* 2>/dev/null | tr '\n' ' '))"
            failed+=("$crate/$target")
        fi
    done
done

ran=$(find "$out" -mindepth 1 -maxdepth 1 -type d | wc -l)
defined_all=$(cat "$root"/{bootlog-parser,bench-parser,sbl-instrument}/fuzz/Cargo.toml | grep -c '^\[\[bin\]\]')
if ((ran != defined_all)); then
    say "ran $ran fuzz targets, the crates define $defined_all"
    exit 1
fi
if ((${#failed[@]})); then
    say "FAILED: ${failed[*]}"
    exit 1
fi
say "every fuzz target ran ${secs} s without a crash"
