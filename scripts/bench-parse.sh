#!/usr/bin/env bash
# Parse throughput and memory benchmark of `perfguide parse`.
#
# Builds a log of at least $SIZE_MB MB (default 100) by repeating the corpus logs, then, in the
# same run and on the same file (page cache warm), measures single-threaded:
#   - MB/s of `perfguide parse --format json FILE > /dev/null` and of `wc -l FILE`, $RUNS runs
#     each, interleaved (parse, wc -l, parse, ...: on a shared machine whose speed drifts, all
#     see the same moments), the best and the median of each. Two builds of perfguide are
#     measured, side by side in the same runs: the plain release build (`cargo build
#     --release`) and the profile-guided one of scripts/build-pgo.sh (target/pgo/), which is
#     the build to use for large logs;
#   - their ratio, best to best and median to median (goal: parse >= 25% of wc -l);
#   each twice, with the file's page cache in two states (both commands gain from the second,
#   `wc -l` far more, so the ratio moves): "as written" (the file just rewritten 4 KiB at a
#   time, its pages cached as a capture writing a log leaves them) and "read back" (the file dropped
#   from the cache and read once, as a log read from disk: the kernel may cache it in large
#   folios, e.g. ext4 on Linux >= 6.16, which makes mapping and copying it cheaper);
#   - peak RSS of `perfguide parse --format json` on a 10 MB and on the full-size file
#     (/usr/bin/time -v), to show memory stays flat in the size of the input;
#   - the host it ran on (CPU, SIMD, caches, kernel): the ratio depends on the CPU.
#
#   - with CALLGRIND=1, instructions per input byte of `perfguide parse --format json` on the
#     10 MB file (valgrind's callgrind: the same count run after run, whatever else the machine
#     is doing, so it shows small changes that wall time on a shared machine hides).
#
# Usage: scripts/bench-parse.sh [--no-build]   (--no-build: measure the binaries already built)
# Environment: CORPUS (default tests/corpus), SIZE_MB (100), RUNS (5),
#              PERFGUIDE (the binaries to measure instead of the two builds, `:` between),
#              PGO (1; 0 measures the plain build alone and builds no PGO binary),
#              BENCH_DIR (target/bench-parse; the generated logs go there, never in the repo),
#              CALLGRIND (unset; 1 adds the instruction count, about a minute).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
corpus=${CORPUS:-$root/tests/corpus}
size_mb=${SIZE_MB:-100}
runs=${RUNS:-5}
dir=${BENCH_DIR:-$root/target/bench-parse}
build=1
[[ ${1:-} == --no-build ]] && build=0
# The binaries measured, and their labels.
bins=()
labels=()
if [[ -n ${PERFGUIDE:-} ]]; then
    IFS=: read -ra bins <<< "$PERFGUIDE"
    labels=("${bins[@]}")
else
    ((build)) && cargo build --release -p perfguide >&2
    bins=("$root/target/release/perfguide")
    labels=("plain release build")
    if [[ ${PGO:-1} != 0 ]]; then
        ((build)) && "$root/scripts/build-pgo.sh" > /dev/null
        bins+=("$root/target/pgo/release/perfguide")
        labels+=("PGO build (scripts/build-pgo.sh)")
    fi
fi
for b in "${bins[@]}"; do
    [[ -x $b ]] || { echo "no $b (build it: cargo build --release -p perfguide, scripts/build-pgo.sh)" >&2; exit 1; }
done
bin=${bins[0]}
[[ -x /usr/bin/time ]] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }

mkdir -p "$dir"
mapfile -t logs < <(find "$corpus" -name '*.log' -type f | LC_ALL=C sort)
[[ ${#logs[@]} -gt 0 ]] || { echo "no *.log under $corpus" >&2; exit 1; }

# make_log OUT MB: the corpus logs concatenated, repeated until the file holds >= MB * 10^6 bytes.
make_log() {
    local out=$1 want=$(($2 * 1000000))
    if [[ -f $out && $(stat -c %s "$out") -ge $want ]]; then return; fi
    cat "${logs[@]}" > "$out.unit"
    local unit reps
    unit=$(stat -c %s "$out.unit")
    reps=$(((want + unit - 1) / unit))
    : > "$out.tmp"
    for ((i = 0; i < reps; i++)); do cat "$out.unit"; done >> "$out.tmp"
    mv "$out.tmp" "$out"
    rm -f "$out.unit"
}

big=$dir/corpus-x${size_mb}MB.log
small=$dir/corpus-x10MB.log
make_log "$big" "$size_mb"
make_log "$small" 10
bytes=$(stat -c %s "$big")
lines=$(wc -l < "$big")

# cache_as_written: the file rewritten 4 KiB at a time, so its pages are cached as a capture
# tool writing a console log line by line leaves them (small folios; `cp` or `cat` would write
# large ones, which read like a file read back).
# It is then synced: left dirty, the kernel writes the 100 MB back to disk during the runs
# that follow, and the first runs would time the disk's writeback rather than the commands.
cache_as_written() {
    dd if="$big" of="$big.tmp" bs=4k status=none
    mv "$big.tmp" "$big"
    sync "$big"
}

# cache_read_back: the file dropped from the page cache and read once, as a log read from disk.
cache_read_back() {
    sync "$big"
    dd if="$big" iflag=nocache count=0 status=none
    cat "$big" > /dev/null
}

# now_ns: the wall clock in nanoseconds.
now_ns() { date +%s%N; }

# time_all STATE: $runs rounds, each running every binary's parse then `wc -l` once (the order
# of the binaries turning round by round), so that all see the same moments of a shared
# machine; prints, for each binary, the state and "best median" of its parse and of `wc -l`,
# in seconds, one line each (stdout of the commands to /dev/null).
time_all() {
    local state=$1 nb=${#bins[@]} r k j t0 t1
    local -a tp tw
    for ((r = 0; r < runs; r++)); do
        for ((j = 0; j < nb; j++)); do
            k=$(((j + r) % nb))
            t0=$(now_ns)
            "${bins[k]}" parse --format json "$big" > /dev/null
            t1=$(now_ns)
            tp[k]+=" $((t1 - t0))"
        done
        t0=$(now_ns)
        wc -l "$big" > /dev/null
        t1=$(now_ns)
        tw+=($((t1 - t0)))
    done
    local w
    w=$(best_median "${tw[@]}")
    for ((k = 0; k < nb; k++)); do
        # shellcheck disable=SC2086 # the list of times, split on purpose
        echo "$state|$k|$(best_median ${tp[k]})|$w"
    done
}

# best_median NS...: "best median" of the nanosecond times given, in seconds.
best_median() {
    printf '%s\n' "$@" | sort -n |
        awk '{ a[NR] = $1 } END { printf "%.3f %.3f", a[1] / 1e9, a[int((NR + 1) / 2)] / 1e9 }'
}

# Both are single-threaded processes (perfguide parse reads 1 MiB chunks on one thread).
cache_as_written
times=$(time_all "as written")
cache_read_back
times+=$'\n'$(time_all "read back")

# peak_rss_kb FILE: maximum resident set size of `perfguide parse --format json FILE`.
peak_rss_kb() {
    /usr/bin/time -v "$bin" parse --format json "$1" 2>&1 > /dev/null |
        awk -F': ' '/Maximum resident set size/ { print $2 }'
}
rss_small=$(peak_rss_kb "$small")
rss_big=$(peak_rss_kb "$big")
boots=$("$bin" parse --format json "$big" | grep -o '"index":' | wc -l)

# The ratio depends on the CPU (the parse's branchy per-line work and `wc -l`'s memory-bound
# newline count gain differently from a newer core), so the figures name it.
# (`|| true`: no /proc/cpuinfo, or a CPU with neither, is no reason to stop under pipefail.)
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2> /dev/null | head -n 1 || true)
simd=$(grep -m1 -o -w 'avx512bw\|avx2' /proc/cpuinfo 2> /dev/null | sort -u | tr '\n' ' ' || true)
caches=""
for i in 2 3; do
    c=/sys/devices/system/cpu/cpu0/cache/index$i/size
    [[ -r $c ]] && caches+="L$i $(< "$c") "
done
host="${cpu:-unknown CPU}, $(nproc) CPUs, ${simd:-no AVX2 }${caches}kernel $(uname -r)"
labels_joined=$(printf '%s|' "${labels[@]}")
awk -v bytes="$bytes" -v lines="$lines" -v runs="$runs" -v rs="$rss_small" -v rb="$rss_big" \
    -v ssz="$(stat -c %s "$small")" -v boots="$boots" -v file="$big" -v labels="$labels_joined" \
    -v nb="${#bins[@]}" -v host="$host" -F'|' '
BEGIN {
    mb = bytes / 1e6
    split(labels, label, "|")
    printf "file:               %s (%.1f MB, %d lines, %d boots)\n", file, mb, lines, boots
    printf "host:               %s\n", host
}
{
    split($3, ps, " ")
    split($4, ws, " ")
    if ($1 != state) {
        state = $1
        printf "page cache %s (%d runs each, interleaved):\n", state, runs
        printf "  wc -l:            best %.3f s %8.1f MB/s, median %.3f s\n", ws[1], mb / ws[1], ws[2]
    }
    if (nb > 1) printf "  %s:\n", label[$2 + 1]
    printf "  perfguide parse:  best %.3f s %8.1f MB/s, median %.3f s   (--format json > /dev/null)\n", ps[1], mb / ps[1], ps[2]
    printf "  ratio parse/wc -l: %.1f%% best to best, %.1f%% median to median   (goal >= 25%%)\n", 100 * ws[1] / ps[1], 100 * ws[2] / ps[2]
}
END {
    printf "peak RSS parse:     %d KiB on %.1f MB, %d KiB on %.1f MB (%s)\n", rs, ssz / 1e6, rb, mb, label[1]
}' <<< "$times"

if [[ ${CALLGRIND:-} == 1 ]]; then
    command -v valgrind > /dev/null || { echo "CALLGRIND=1 needs valgrind (apt-get install valgrind)" >&2; exit 1; }
    ir=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" parse --format json "$small" 2>&1 > /dev/null |
        awk '/Collected :/ { print $NF }')
    awk -v ir="$ir" -v b="$(stat -c %s "$small")" 'BEGIN {
        printf "instructions:       %.1f per input byte (callgrind, %.1f MB file, %d in all)\n", ir / b, b / 1e6, ir
    }'
fi
