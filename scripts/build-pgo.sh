#!/usr/bin/env bash
# A profile-guided (PGO) release build of `perfguide`, for the throughput of `perfguide parse`.
#
# rustc's PGO in three steps (https://doc.rust-lang.org/rustc/profile-guided-optimization.html):
#   1. a release build instrumented with `-Cprofile-generate` (target/pgo-gen/, its own target
#      directory: other RUSTFLAGS would rebuild the usual target/release each time);
#   2. training: that binary parses the logs of tests/corpus (each alone, and all of them
#      together repeated to $TRAIN_MB MB, as `--format json` and as the table), which writes
#      the counts of its branches and calls; llvm-profdata merges them;
#   3. the release build again with `-Cprofile-use` (target/pgo/): code laid out and inlined
#      by what the parser actually does with console logs.
# The output is byte-for-byte that of the plain release build (the script checks it on the
# training file); only speed changes. The plain `cargo build --release` stays the default
# build everywhere else (tests, quickstart): this is an option for those who parse a lot.
#
# Needs llvm-profdata of rustc's own LLVM major version (profiles are not readable across
# versions); it looks in rustc's sysroot (rustup's llvm-tools component, the exact LLVM rustc
# was built with), then for /usr/lib/llvm-N/bin/llvm-profdata and llvm-profdata-N; when none is
# there it adds llvm-tools with rustup, or else installs the distribution's llvm-N package
# with apt-get when that is available (Debian 12 has no llvm-22 for rustc 1.95's LLVM 22).
#
# Usage: scripts/build-pgo.sh          (prints the optimized binary's path last)
# Environment: TRAIN_MB (default 20), CORPUS (default tests/corpus).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
corpus=${CORPUS:-$root/tests/corpus}
train_mb=${TRAIN_MB:-20}
gen_dir=$root/target/pgo-gen
use_dir=$root/target/pgo
data=$root/target/pgo-data

rustc_vv=$(rustc -vV)
major=$(sed -n 's/^LLVM version: \([0-9]*\).*/\1/p' <<< "$rustc_vv")
[[ -n $major ]] || { echo "build-pgo: cannot tell rustc's LLVM version (rustc -vV)" >&2; exit 1; }

sysroot_bin=$(rustc --print sysroot)/lib/rustlib/$(sed -n 's/^host: //p' <<< "$rustc_vv")/bin
find_profdata() {
    local c
    for c in "$sysroot_bin/llvm-profdata" "/usr/lib/llvm-$major/bin/llvm-profdata" \
        "$(command -v "llvm-profdata-$major" || true)"; do
        if [[ -n $c && -x $c ]]; then
            echo "$c"
            return 0
        fi
    done
    return 1
}

if ! profdata=$(find_profdata) && command -v rustup > /dev/null; then
    echo "build-pgo: adding rustup's llvm-tools component for llvm-profdata" >&2
    rustup component add llvm-tools >&2 || true
fi
if ! profdata=$(find_profdata); then
    if command -v apt-get > /dev/null && apt-cache show "llvm-$major" > /dev/null 2>&1; then
        echo "build-pgo: installing llvm-$major for llvm-profdata (rustc uses LLVM $major)" >&2
        sudo_cmd=()
        [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
        "${sudo_cmd[@]}" apt-get install -y "llvm-$major" >&2
    fi
    profdata=$(find_profdata) || {
        echo "build-pgo: no llvm-profdata for LLVM $major (rustc's); install llvm-$major" >&2
        exit 1
    }
fi

mapfile -t logs < <(find "$corpus" -name '*.log' -type f | LC_ALL=C sort)
[[ ${#logs[@]} -gt 0 ]] || { echo "build-pgo: no *.log under $corpus" >&2; exit 1; }

echo "build-pgo: 1/3 instrumented build (target/pgo-gen)" >&2
rm -rf "$data"
mkdir -p "$data"
RUSTFLAGS="-Cprofile-generate=$data" cargo build --release -p perfguide --target-dir "$gen_dir" >&2

echo "build-pgo: 2/3 training on ${#logs[@]} logs of $corpus" >&2
train=$root/target/pgo-train.log
cat "${logs[@]}" > "$train.unit"
want=$((train_mb * 1000000))
: > "$train"
while [[ $(stat -c %s "$train") -lt $want ]]; do cat "$train.unit" >> "$train"; done
rm -f "$train.unit"
gen=$gen_dir/release/perfguide
export LLVM_PROFILE_FILE=$data/%p-%m.profraw
for log in "${logs[@]}"; do
    "$gen" parse --format json "$log" > /dev/null
done
"$gen" parse --format json "$train" > /dev/null
"$gen" parse "$train" > /dev/null
unset LLVM_PROFILE_FILE
"$profdata" merge -o "$data/merged.profdata" "$data"/*.profraw

echo "build-pgo: 3/3 optimized build (target/pgo)" >&2
RUSTFLAGS="-Cprofile-use=$data/merged.profdata" cargo build --release -p perfguide --target-dir "$use_dir" >&2

# The same bytes out as the plain build's (which is built here if missing).
cargo build --release -p perfguide >&2
cmp <("$root/target/release/perfguide" parse --format json "$train") \
    <("$use_dir/release/perfguide" parse --format json "$train") || {
    echo "build-pgo: the PGO binary's JSON differs from the plain build's" >&2
    exit 1
}
echo "build-pgo: done; output identical to the plain build's on the ${train_mb} MB training log" >&2
echo "$use_dir/release/perfguide"
