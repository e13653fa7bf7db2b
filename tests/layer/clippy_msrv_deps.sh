#!/bin/bash
# Runs clippy's incompatible_msrv lint (std APIs newer than the workspace's
# rust-version) on every crate the workspace compiles for this host,
# dependencies included: cargo caps the lints of registry crates, so a
# RUSTC_WRAPPER runs clippy-driver on them with the cap lifted and every other
# lint off, and the workspace's minimum as clippy's msrv for all of them.
#
#   bash tests/layer/clippy_msrv_deps.sh     (a full `cargo check`, ~1 minute)
#
# Prints the hits per crate and ends with "N crates with hits, M unexplained";
# exits non-zero when a crate has hits not listed in KNOWN below. This checks
# library APIs only; tests/layer/msrv_lock.py checks the declared
# rust-versions and editions of the whole Cargo.lock.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
MSRV=$(sed -n 's/^rust-version = "\([0-9.]*\)"$/\1/p' "$REPO/Cargo.toml" | head -1)
[ -n "$MSRV" ] || {
	echo "no rust-version in $REPO/Cargo.toml"
	exit 2
}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
TARGET=${CLIPPY_MSRV_TARGET_DIR:-$WORK/target}

# Hits that are not real (the crate's declared rust-version is <= the minimum
# and the hit cannot happen on an older compiler):
#   time, time-macros: `cast_signed`/`cast_unsigned` come from num-conv's
#     traits; newer std has inherent methods of the same name, which win there.
#   portable-atomic: the newer APIs sit behind cfgs its build script sets only
#     when it detects a newer rustc.
KNOWN="time time-macros portable-atomic"

mkdir -p "$WORK/conf"
echo "msrv = \"$MSRV\"" >"$WORK/conf/clippy.toml"
cat >"$WORK/wrap.sh" <<'WRAP'
#!/bin/bash
rustc=$1
shift
for a in "$@"; do
	case $a in -vV | --print* | -) exec "$rustc" "$@" ;; esac
done
args=()
cap=0
for a in "$@"; do
	if [ $cap = 1 ]; then
		cap=0
		args+=(warn)
	else
		[ "$a" = --cap-lints ] && cap=1
		args+=("$a")
	fi
done
# clippy.toml's msrv for every crate, not the crate's own rust-version
export CARGO_PKG_RUST_VERSION=
exec clippy-driver "$rustc" "${args[@]}" -A clippy::all -W clippy::incompatible_msrv
WRAP
chmod +x "$WORK/wrap.sh"

(cd "$REPO" && CLIPPY_CONF_DIR=$WORK/conf RUSTC_WRAPPER=$WORK/wrap.sh CARGO_TARGET_DIR=$TARGET \
	cargo check --workspace --all-targets --message-format short) >"$WORK/out.txt" 2>&1 || {
	tail -20 "$WORK/out.txt"
	echo "cargo check failed"
	exit 2
}
# shellcheck disable=SC2016 # the backquotes in the sed script are clippy's
grep 'warning: current MSRV' "$WORK/out.txt" |
	sed -E 's|^.*/registry/src/[^/]+/||; s|^'"$REPO"'/||' |
	sed -E 's|^([^/]+)/.*stable (in a `const` context )?since `([0-9.]+)`.*|\1 \3|' |
	sort | uniq -c >"$WORK/hits.txt" || true
crates=0
unexplained=0
while read -r count crate since; do
	name=${crate%-[0-9]*}
	note=""
	if [[ " $KNOWN " == *" $name "* ]]; then
		note=" (known, not real)"
	else
		unexplained=$((unexplained + 1))
	fi
	echo "$crate: $count uses of items stable since $since$note"
done <"$WORK/hits.txt"
crates=$(cut -c9- "$WORK/hits.txt" | awk '{print $1}' | sort -u | wc -l)
echo "msrv $MSRV: $crates crates with hits, $unexplained unexplained"
[ "$unexplained" -eq 0 ]
