#!/usr/bin/env bash
# Every speed and memory figure the README states, measured in one run (release build):
#
#   1. boot loop on the QEMU reference board ($CYCLES cycles, default 5): the stage table, then
#      the timestamp fidelity and orchestration overhead of that run (the `loop_fidelity`
#      example: host stamp less printk stamp over live kernel lines, median / p99 / max;
#      power-on to next power-on less the boot, median / max);
#   2. `perfguide image build --board qemu-arm64` on a cache hit: wall time of the command;
#   3. `perfguide report` (every format) on a run of 10,000 cycles and `perfguide compare` of two
#      such runs: wall time and peak RSS (/usr/bin/time). The 10,000-cycle runs are composed:
#      the real records of two QEMU loops of step 1 repeated and renumbered (each cycle's log
#      a link to the real one), so the figures are real boot records in a run of that size;
#   4. parse throughput against `wc -l` and the parser's peak memory (scripts/bench-parse.sh,
#      with PGO=0 unless set: the plain release build);
#   5. the parser's peak memory by number of boots: one real cycle log of step 1 repeated 1,000,
#      5,000 and 20,000 times, `perfguide parse --format json`, and the bytes a boot between
#      the first and the last.
#
# Results go to $BENCH_DIR/results.txt (and the terminal), with the host they ran on; the raw
# run directories stay in $BENCH_DIR. The README's figures are taken from this output.
#
# Usage: scripts/bench.sh            (needs the QEMU image: perfguide image build --board qemu-arm64)
# Environment: BENCH_DIR (target/bench), CYCLES (5), COMPOSED (10000), and bench-parse.sh's.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
dir=${BENCH_DIR:-$root/target/bench}
cycles=${CYCLES:-5}
composed=${COMPOSED:-10000}
[[ -x /usr/bin/time ]] || { echo "bench: needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
command -v jq > /dev/null || { echo "bench: needs jq (apt-get install jq)" >&2; exit 1; }

cargo build --release -p perfguide --bin perfguide --example loop_fidelity >&2
pg=$root/target/release/perfguide
fidelity=$root/target/release/examples/loop_fidelity
rm -rf "$dir/loop-a" "$dir/loop-b" "$dir/composed-a" "$dir/composed-b" "$dir/report"
mkdir -p "$dir"
out=$dir/results.txt
: > "$out"
say() { printf '%s\n' "$@" | tee -a "$out"; }

say "== host"
say "cpu: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs; kernel $(uname -r); $("$pg" --version)"

say "" "== 1. boot loop, QEMU reference board, $cycles cycles (release build)"
for run in loop-a loop-b; do
    "$pg" boot-loop --board qemu-arm64 --cycles "$cycles" --out "$dir/$run" > "$dir/$run.txt"
done
tee -a "$out" < "$dir/loop-a.txt"
"$fidelity" "$dir/loop-a" | tee -a "$out"

say "" "== 2. image build, cache hit"
/usr/bin/time -f "%e s wall, %M KB peak RSS" -o "$dir/time.txt" \
    "$pg" image build --board qemu-arm64 > /dev/null 2>&1
say "perfguide image build --board qemu-arm64 (cache hit): $(cat "$dir/time.txt")"

# compose SRC DST: SRC's records repeated to $composed cycles, numbered 1..N, logs linked.
compose() {
    local src=$1 dst=$2 n
    mkdir -p "$dst"
    jq --argjson n "$composed" '.cycles = $n' "$src/run.json" > "$dst/run.json"
    n=$(wc -l < "$src/boots.jsonl")
    jq -c --argjson n "$composed" --argjson k "$n" -n '
        [inputs] as $r
        | range(0; $n) as $i
        | $r[$i % $k] + {cycle: ($i + 1), log: ("cycle-" + (($i + 1) | tostring | ("0000" + .)[-4:]) + ".log")}
      ' "$src/boots.jsonl" > "$dst/boots.jsonl"
    for ((i = 0; i < composed; i++)); do
        printf -v name 'cycle-%04d.log' $((i + 1))
        printf -v from 'cycle-%04d.log' $((i % n + 1))
        ln -sf "$src/$from" "$dst/$name"
    done
}

say "" "== 3. report and compare over $composed cycles (composed from the runs of step 1)"
compose "$dir/loop-a" "$dir/composed-a"
compose "$dir/loop-b" "$dir/composed-b"
say "boots.jsonl: $(du -h "$dir/composed-a/boots.jsonl" | cut -f1), $(wc -l < "$dir/composed-a/boots.jsonl") records"
/usr/bin/time -f "%e s wall, %M KB peak RSS" -o "$dir/time.txt" \
    "$pg" report "$dir/composed-a" --out "$dir/report" > /dev/null
say "perfguide report (every format): $(cat "$dir/time.txt")"
# compare's exit status is its verdict (1: slower beyond the threshold); 2 and up are errors.
status=0
/usr/bin/time -f "%e s wall, %M KB peak RSS" -o "$dir/time.txt" \
    "$pg" compare "$dir/composed-a" "$dir/composed-b" > "$dir/compare.txt" || status=$?
((status <= 1)) || { echo "bench: perfguide compare failed (exit status $status)" >&2; exit 1; }
say "perfguide compare: $(sed -n '$p' "$dir/time.txt")"

say "" "== 4. parse throughput and memory (scripts/bench-parse.sh)"
PGO=${PGO:-0} bash scripts/bench-parse.sh --no-build | tee -a "$out"

say "" "== 5. parser memory by number of boots (cycle 1 of step 1 repeated)"
rss=()
for n in 1000 5000 20000; do
    f=$dir/boots-$n.log
    for ((i = 0; i < n; i++)); do cat "$dir/loop-a/cycle-0001.log"; done > "$f"
    /usr/bin/time -f "%M" -o "$dir/time.txt" "$pg" parse --format json "$f" > /dev/null
    rss+=("$(sed -n '$p' "$dir/time.txt")")
    say "$n boots ($(du -h "$f" | cut -f1)): peak RSS ${rss[-1]} KB"
    rm -f "$f"
done
say "per boot: $(((rss[2] - rss[0]) * 1024 / 19000)) bytes"

say "" "results: $out"
