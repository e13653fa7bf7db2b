#!/usr/bin/env bash
# Writes the seed corpus of the `parse` fuzz target (seeds/parse/) from the console logs in
# tests/corpus: each log prefixed with the target's two layout bytes (byte 0 picks the board
# profile, byte 1 seeds the chunk sizes), varied from log to log. Run it again when the corpus
# or the target's input layout changes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
corpus=$here/../../tests/corpus
out=$here/seeds/parse
rm -rf "$out"
mkdir -p "$out"
i=0
while IFS= read -r log; do
    name=$(basename "$(dirname "$log")")-$(basename "$log" .log)
    {
        printf "\\$(printf '%03o' $((i % 256)))\\$(printf '%03o' $(((i * 37 + 1) % 256)))"
        cat "$log"
    } >"$out/$name"
    i=$((i + 1))
done < <(find "$corpus" -type f -name '*.log' | LC_ALL=C sort)
printf 'write-seeds: %d seeds in %s\n' "$i" "$out"
