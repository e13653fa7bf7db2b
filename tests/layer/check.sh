#!/bin/bash
# Checks of the Yocto layer, the kas files, the Buildroot external tree and
# the target-side benchmark runner. No poky checkout and no network beyond
# the package registries the clients are configured for.
#
#   bash tests/layer/check.sh
#
# Installs what it needs, idempotently: oelint-adv and kas (pinned) into a
# venv under ${PERFGUIDE_CACHE:-$HOME/.cache/perfguide}/venv, shellcheck and
# busybox with apt-get when they are missing. Prints one line per check and
# ends with "N passed, M failed"; exits non-zero when a check failed.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
LAYER=$REPO/meta-perfguide
BR=$REPO/buildroot-external
BENCH=$REPO/meta-perfguide/recipes-benchmark/perfguide-bench/files/perfguide-bench
HERE=$REPO/tests/layer
CACHE=${PERFGUIDE_CACHE:-$HOME/.cache/perfguide}
VENV=$CACHE/venv

OELINT_VERSION=9.11.2
OELINT_PARSER_VERSION=8.13.2
OELINT_DATA_VERSION=1.5.26
KAS_VERSION=5.5
YOCTO_RELEASE=scarthgap

# Machines the layer supports, one kas/<machine>.yml each.
MACHINES="qemuarm64 j721e-evm j7200-evm j784s4-evm am62xx-evm am62dxx-evm am64xx-evm am335x-evm beaglebone raspberrypi4-64"

# ------------------------------------------------------------------ setup --
setup_tools() {
	local missing=()
	command -v shellcheck >/dev/null 2>&1 || missing+=(shellcheck)
	command -v busybox >/dev/null 2>&1 || missing+=(busybox)
	if ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
		missing+=(python3-venv)
	fi
	if [ ${#missing[@]} -gt 0 ]; then
		echo "setup: apt-get install ${missing[*]}"
		apt-get update -qq
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
	fi
	local want="oelint-adv==$OELINT_VERSION oelint-parser==$OELINT_PARSER_VERSION oelint-data==$OELINT_DATA_VERSION kas==$KAS_VERSION"
	local stamp=$VENV/.perfguide-pins
	if [ ! -x "$VENV/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
		echo "setup: venv $VENV ($want)"
		mkdir -p "$CACHE"
		python3 -m venv "$VENV"
		# shellcheck disable=SC2086 # $want is a list of requirement specifiers
		"$VENV/bin/python" -m pip install -q --disable-pip-version-check $want
		echo "$want" >"$stamp"
	fi
}

# ------------------------------------------------------------- framework --
PASSED=0
FAILED=0
FAILED_NAMES=()
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# check NAME FUNCTION [ARGS...]: runs FUNCTION; a non-zero exit is a failure,
# and its output is shown then.
check() {
	local name=$1
	shift
	local log=$WORK/check.log rc
	# Not in an if/&&/|| context, so that errexit stays on inside: any
	# failing command of the check fails it.
	set +e
	(
		set -e
		"$@"
	) >"$log" 2>&1
	rc=$?
	set -e
	if [ $rc -eq 0 ]; then
		PASSED=$((PASSED + 1))
		echo "ok   $name"
	else
		FAILED=$((FAILED + 1))
		FAILED_NAMES+=("$name")
		echo "FAIL $name"
		sed 's/^/     | /' "$log"
	fi
}

fail() {
	echo "$*"
	return 1
}

# expect_line FILE REGEX: FILE has a line matching the extended REGEX.
expect_line() {
	grep -Eq -- "$2" "$1" || {
		echo "no line matching: $2"
		echo "in:"
		cat "$1"
		return 1
	}
}

# ---------------------------------------------------------------- layer --
layer_files() {
	find "$LAYER" \( -name '*.bb' -o -name '*.bbappend' -o -name '*.bbclass' \) -type f | sort
}

check_oelint() {
	local files
	mapfile -t files < <(layer_files)
	[ ${#files[@]} -ge 10 ] || fail "expected the layer's recipes, appends and classes, found ${#files[@]}"
	local out rc=0
	out=$(cd "$REPO" && "$VENV/bin/oelint-adv" --release "$YOCTO_RELEASE" --quiet "${files[@]}" \
		--constantmods "+$HERE/oelint-constants.json" 2>&1) || rc=$?
	if [ $rc -ne 0 ] || [ -n "$out" ]; then
		echo "$out"
		fail "oelint-adv: rc=$rc"
	fi
	echo "${#files[@]} files, no findings"
}

check_layer_conf() {
	local conf=$LAYER/conf/layer.conf
	expect_line "$conf" '^BBFILE_COLLECTIONS \+= "perfguide"$'
	expect_line "$conf" '^BBFILE_PATTERN_perfguide = '
	expect_line "$conf" '^LAYERSERIES_COMPAT_perfguide = ".*\bscarthgap\b.*"$'
	expect_line "$conf" '^LAYERDEPENDS_perfguide = "core"$'
	expect_line "$conf" '^LAYERRECOMMENDS_perfguide = ".*meta-ti-bsp.*"$'
	# Every bbappend for another layer's recipe lives under dynamic-layers/
	# (or appends an oe-core recipe), and changes nothing without the
	# perfguide override: no unconditional assignment.
	local f bad=0
	while read -r f; do
		if grep -Ev '^\s*(#|$)' "$f" | grep -Ev ':perfguide-instrument\b|^\s+|^}|^"' | grep -Eq '='; then
			echo "unconditional assignment in $f:"
			grep -Ev '^\s*(#|$)' "$f" | grep -Ev ':perfguide-instrument\b|^\s+|^}|^"' | grep -E '='
			bad=1
		fi
	done < <(find "$LAYER" -name '*.bbappend' -type f ! -name 'perfguide-image.bbappend' | sort)
	[ $bad = 0 ]
	# README for yocto-check-layer: maintainer, patches, an e-mail address.
	grep -qi maintainer "$LAYER/README" || fail "README: no maintainer"
	grep -qi patch "$LAYER/README" || fail "README: no word about patches"
	grep -Eq '[A-Za-z0-9._-]+@[A-Za-z0-9.-]+' "$LAYER/README" || fail "README: no e-mail address"
	[ -f "$LAYER/COPYING.MIT" ] || fail "COPYING.MIT missing"
}

# The quiet-console switch, read as text (no bitbake): layer.conf defaults
# PERFGUIDE_CONSOLE to loud and adds quiet to PERFGUIDE_KERNEL_ARGS for
# "quiet" only; the silent-console fragment exists; every bbappend that names
# it appends it under :perfguide-instrument and only for "quiet".
check_console_switch() {
	local conf=$LAYER/conf/layer.conf
	local frag=$LAYER/recipes-bsp/u-boot/files/perfguide-silent.cfg
	expect_line "$conf" '^PERFGUIDE_CONSOLE \?\?= "loud"$'
	expect_line "$conf" "^PERFGUIDE_KERNEL_ARGS = .*' quiet' if d\\.getVar\\('PERFGUIDE_CONSOLE'\\) == 'quiet' else .*bb\\.fatal\\('PERFGUIDE_CONSOLE "
	[ -f "$frag" ] || fail "missing $frag"
	expect_line "$frag" '^CONFIG_SILENT_CONSOLE=y$'
	expect_line "$frag" '^CONFIG_SILENT_U_BOOT_ONLY=y$'
	local f line n=0
	while read -r f; do
		while read -r line; do
			case $line in
			"SRC_URI:append:perfguide-instrument = \" \${@'file://perfguide-silent.cfg' if d.getVar('PERFGUIDE_CONSOLE') == 'quiet' else ''}\"") n=$((n + 1)) ;;
			*) fail "${f#"$LAYER"/}: perfguide-silent.cfg not under :perfguide-instrument and PERFGUIDE_CONSOLE == 'quiet': $line" ;;
			esac
		done < <(grep -v '^\s*#' "$f" | grep 'perfguide-silent\.cfg')
	done < <(find "$LAYER" \( -name '*.bbappend' -o -name '*.inc' \) -type f | sort)
	# oe-core's u-boot bbappend and the TI U-Boots' include (meta-ti's u-boot-ti-*,
	# meta-beagle's u-boot-bb.org), which their bbappends require.
	[ $n -ge 2 ] || fail "expected perfguide-silent.cfg in the u-boot bbappend and perfguide-uboot-ti.inc, found $n"
	for f in "$LAYER"/dynamic-layers/meta-ti-bsp/recipes-bsp/u-boot/u-boot-ti-%.bbappend \
		"$LAYER"/dynamic-layers/meta-beagle/recipes-bsp/u-boot/u-boot-bb.org_%.bbappend; do
		expect_line "$f" '^require recipes-bsp/u-boot/perfguide-uboot-ti\.inc$'
	done
	echo "PERFGUIDE_CONSOLE wired: default loud, fragment present, $n gated bbappends/includes"
}

# The layer stands alone (BSP repositories vendor layers by copying them): no
# symlink in it; it is the one home of the target programs (the QEMU image and
# the Buildroot package take them from it), so no other copy exists.
check_layer_alone() {
	local links
	links=$(find "$LAYER" -type l)
	[ -z "$links" ] || fail "symlinks in the layer (a copied-out layer loses their targets): $links"
	cp -a "$LAYER" "$WORK/alone"
	[ -z "$(find "$WORK/alone" -xtype l)" ] || fail "the copied-out layer has dangling links"
	[ -x "$BENCH" ] || fail "the layer's perfguide-bench is not executable"
	local f copies
	for f in "$LAYER"/recipes-benchmark/*/files/*; do
		copies=$(git -C "$REPO" ls-files | grep -v '^meta-perfguide/' | grep -F "$(basename "$f")" |
			while read -r g; do cmp -s "$f" "$REPO/$g" && echo "$g"; done || true)
		[ -z "$copies" ] || fail "a second copy of the layer's $(basename "$f"): $copies"
	done
}

check_license_checksums() {
	# perfguide-bench: LIC_FILES_CHKSUM points at a line range of the script.
	local bb=$LAYER/recipes-benchmark/perfguide-bench/perfguide-bench_1.0.bb
	local spec begin end md5 have
	spec=$(sed -n 's/^LIC_FILES_CHKSUM = "file:\/\/perfguide-bench;\(.*\)"$/\1/p' "$bb")
	begin=$(echo "$spec" | sed -n 's/.*beginline=\([0-9]*\).*/\1/p')
	end=$(echo "$spec" | sed -n 's/.*endline=\([0-9]*\).*/\1/p')
	md5=$(echo "$spec" | sed -n 's/.*md5=\([0-9a-f]*\).*/\1/p')
	if [ -z "$begin" ] || [ -z "$end" ] || [ -z "$md5" ]; then
		fail "cannot read LIC_FILES_CHKSUM of $bb"
	fi
	# The file the recipe fetches.
	have=$(sed -n "${begin},${end}p" "$LAYER/recipes-benchmark/perfguide-bench/files/perfguide-bench" | md5sum | cut -d' ' -f1)
	[ "$have" = "$md5" ] || fail "perfguide-bench lines $begin-$end: md5 $have, recipe says $md5"
	# perfguide-counter: its first line (the SPDX identifier).
	bb=$LAYER/recipes-benchmark/perfguide-counter/perfguide-counter_1.0.bb
	md5=$(sed -n 's/^LIC_FILES_CHKSUM = "file:\/\/perfguide-counter.c;beginline=1;endline=1;md5=\([0-9a-f]*\)"$/\1/p' "$bb")
	have=$(sed -n 1p "$LAYER/recipes-benchmark/perfguide-counter/files/perfguide-counter.c" | md5sum | cut -d' ' -f1)
	[ "$have" = "$md5" ] || fail "perfguide-counter.c line 1: md5 $have, recipe says '$md5'"
	# perfguide: COPYING.MIT of the layer, in the source tree.
	bb=$LAYER/recipes-devtools/perfguide/perfguide_git.bb
	md5=$(sed -n 's/^LIC_FILES_CHKSUM = "file:\/\/meta-perfguide\/COPYING.MIT;md5=\([0-9a-f]*\)"$/\1/p' "$bb")
	have=$(md5sum <"$LAYER/COPYING.MIT" | cut -d' ' -f1)
	[ "$have" = "$md5" ] || fail "COPYING.MIT md5 $have, perfguide_git.bb says '$md5'"
}

check_crates_inc() {
	local bb=$LAYER/recipes-devtools/perfguide/perfguide_git.bb
	local inc=$LAYER/recipes-devtools/perfguide/perfguide-crates.inc
	local rev
	rev=$(sed -n 's/^PERFGUIDE_SRCREV ??= "\([0-9a-f]\{40\}\)"$/\1/p' "$bb")
	[ -n "$rev" ] || fail "perfguide_git.bb: no 40-digit PERFGUIDE_SRCREV"
	if ! git -C "$REPO" cat-file -e "$rev^{commit}" 2>/dev/null; then
		fail "SRCREV $rev is not a commit of this repository"
	fi
	git -C "$REPO" show "$rev:Cargo.lock" >"$WORK/Cargo.lock"
	# In step with the workspace: the recipe builds the crates the workspace locks.
	cmp -s "$WORK/Cargo.lock" "$REPO/Cargo.lock" ||
		fail "Cargo.lock differs from the one at PERFGUIDE_SRCREV $rev: move PERFGUIDE_SRCREV in perfguide_git.bb to a commit with this Cargo.lock and regenerate perfguide-crates.inc and perfguide-license.inc (docs/yocto.md)"
	python3 "$HERE/crates_inc.py" "$WORK/Cargo.lock" perfguide | grep -v '^#' >"$WORK/want.inc"
	grep -v '^#' "$inc" >"$WORK/have.inc"
	diff -u "$WORK/want.inc" "$WORK/have.inc" || fail "perfguide-crates.inc does not match Cargo.lock of SRCREV $rev (regenerate: git show $rev:Cargo.lock | python3 tests/layer/crates_inc.py - > $inc)"
	git -C "$REPO" cat-file -e "$rev:meta-perfguide/COPYING.MIT" 2>/dev/null ||
		fail "SRCREV $rev has no meta-perfguide/COPYING.MIT (LIC_FILES_CHKSUM)"
}

# LICENSE of the perfguide recipe: the licenses of every crate linked into its
# binaries, from the crates' own metadata (crates_license.py). A new crate with
# a license the script has no OE name for fails there.
check_crates_license() {
	local inc=$LAYER/recipes-devtools/perfguide/perfguide-license.inc
	(cd "$REPO" && cargo metadata --format-version 1 --locked \
		--filter-platform aarch64-unknown-linux-gnu) >"$WORK/metadata.json" 2>"$WORK/metadata.err" || {
		cat "$WORK/metadata.err"
		fail "cargo metadata failed"
	}
	python3 "$HERE/crates_license.py" "$WORK/metadata.json" >"$WORK/license.inc" ||
		fail "crates_license.py: a linked crate's license cannot be declared (above)"
	diff -u "$WORK/license.inc" "$inc" ||
		fail "perfguide-license.inc is not the linked crates' licenses (regenerate: cargo metadata --format-version 1 --locked --filter-platform aarch64-unknown-linux-gnu | python3 tests/layer/crates_license.py - > $inc)"
	grep -q "^require \${BPN}-license.inc\$" "$LAYER/recipes-devtools/perfguide/perfguide_git.bb" ||
		fail "perfguide_git.bb does not require perfguide-license.inc"
}

check_msrv_apis() {
	CLIPPY_MSRV_TARGET_DIR=$WORK/msrv-target bash "$HERE/clippy_msrv_deps.sh" >"$WORK/msrv-apis.log" 2>&1 || {
		tail -30 "$WORK/msrv-apis.log"
		fail "clippy_msrv_deps.sh found a std API newer than the minimum Rust"
	}
	tail -1 "$WORK/msrv-apis.log"
}

# The minimum Rust of the recipe is the workspace's rust-version, and every
# crate of the Cargo.lock builds with it: the working tree's lock and the one
# at SRCREV (what the recipe builds), when they differ. Needs cargo (to unpack
# the locked crates) and, the first time, the crate registry.
check_msrv_lock() {
	local bb=$LAYER/recipes-devtools/perfguide/perfguide_git.bb
	local ws min rev
	ws=$(sed -n 's/^rust-version = "\([0-9.]*\)"$/\1/p' "$REPO/Cargo.toml")
	min=$(sed -n 's/^PERFGUIDE_MIN_RUST ??= "\([0-9.]*\)"$/\1/p' "$bb")
	[ -n "$ws" ] || fail "no rust-version in Cargo.toml"
	[ "$ws" = "$min" ] || fail "perfguide_git.bb: PERFGUIDE_MIN_RUST '$min', Cargo.toml rust-version $ws"
	(cd "$REPO" && cargo fetch --locked --quiet)
	python3 "$HERE/msrv_lock.py" "$REPO/Cargo.lock"
	rev=$(sed -n 's/^PERFGUIDE_SRCREV ??= "\([0-9a-f]\{40\}\)"$/\1/p' "$bb")
	if git -C "$REPO" cat-file -e "$rev^{commit}" 2>/dev/null &&
		! git -C "$REPO" show "$rev:Cargo.lock" | cmp -s - "$REPO/Cargo.lock"; then
		mkdir -p "$WORK/srcrev"
		git -C "$REPO" archive "$rev" | tar -x -C "$WORK/srcrev"
		(cd "$WORK/srcrev" && cargo fetch --locked --quiet)
		echo "SRCREV $rev:"
		python3 "$HERE/msrv_lock.py" --msrv "$min" "$WORK/srcrev/Cargo.lock"
	fi
}

# ------------------------------------------------------------------ kas --
check_kas_schema() {
	local schema
	schema=$("$VENV/bin/python" -c 'import kas, os; print(os.path.join(os.path.dirname(kas.__file__), "schema-kas.json"))')
	[ -f "$schema" ] || fail "no schema-kas.json in the kas package"
	"$VENV/bin/python" - "$schema" "$LAYER"/kas/*.yml <<'EOF'
import json, sys, yaml, jsonschema
schema = json.load(open(sys.argv[1]))
bad = 0
for path in sys.argv[2:]:
    try:
        jsonschema.validate(yaml.safe_load(open(path)), schema)
        print("valid:", path.rsplit("/", 1)[-1])
    except Exception as e:  # yaml or schema error
        bad += 1
        print("INVALID:", path, e)
sys.exit(1 if bad else 0)
EOF
}

check_kas_machines() {
	local machines
	read -r -a machines <<<"$MACHINES"
	"$VENV/bin/python" - "$LAYER/kas" "${machines[@]}" <<'EOF'
import os, re, sys, yaml
kasdir, machines = sys.argv[1], sys.argv[2:]

def release_of(name):
    """The release file (ti-sdk.yml, poky.yml) a kas file includes, directly or not."""
    doc = yaml.safe_load(open(os.path.join(kasdir, name)))
    for inc in doc.get("header", {}).get("includes", []):
        if inc in ("ti-sdk.yml", "poky.yml"):
            return inc
        r = release_of(inc)
        if r:
            return r
    return None

def load(name, seen=()):
    """The merged view of a kas file and its includes (repos/machine only)."""
    doc = yaml.safe_load(open(os.path.join(kasdir, name)))
    out = {"repos": {}, "machine": None, "target": None, "distro": None, "local_conf_header": {}}
    for inc in doc.get("header", {}).get("includes", []):
        sub = load(inc, seen + (name,))
        out["repos"].update(sub["repos"])
        out["machine"] = out["machine"] or sub["machine"]
        out["target"] = out["target"] or sub["target"]
        out["distro"] = out["distro"] or sub["distro"]
        out["local_conf_header"].update(sub["local_conf_header"])
    for repo, spec in (doc.get("repos") or {}).items():
        merged = dict(out["repos"].get(repo) or {})
        for k, v in (spec or {}).items():
            if k == "layers":
                merged.setdefault("layers", {})
                merged["layers"] = dict(merged["layers"] or {}, **(v or {}))
            else:
                merged[k] = v
        out["repos"][repo] = merged
    out["machine"] = doc.get("machine", out["machine"])
    out["target"] = doc.get("target", out["target"])
    out["distro"] = doc.get("distro", out["distro"])
    out["local_conf_header"].update(doc.get("local_conf_header") or {})
    return out

bad = []
for m in machines:
    f = m + ".yml"
    if not os.path.exists(os.path.join(kasdir, f)):
        bad.append("missing kas/%s" % f)
        continue
    c = load(f)
    if c["machine"] != m:
        bad.append("%s: machine is %r" % (f, c["machine"]))
    if c["target"] != "perfguide-image":
        bad.append("%s: target is %r" % (f, c["target"]))
    if "meta-perfguide" not in (c["repos"].get("perfguide", {}).get("layers") or {}):
        bad.append("%s: meta-perfguide layer not listed" % f)
    # Reproducible: every fetched repository pinned to a commit (on its branch).
    for name, spec in c["repos"].items():
        if not spec.get("url"):
            continue
        if not re.fullmatch(r"[0-9a-f]{40}", str(spec.get("commit") or "")):
            bad.append("%s: repo %s is not pinned to a commit (commit: <40 hex digits>)" % (f, name))
        if not spec.get("branch"):
            bad.append("%s: repo %s names no branch its commit is on" % (f, name))
    # A release with systemd: TI boards the SDK's arago distro, the others poky with systemd.
    distro = c["distro"]
    conf = "\n".join(c["local_conf_header"].values())
    if distro != "arago" and not re.search(r'^INIT_MANAGER = "systemd"$', conf, re.M):
        bad.append("%s: distro %r without INIT_MANAGER = \"systemd\"" % (f, distro))
    release = release_of(f)
    if not release:
        bad.append("%s: includes neither ti-sdk.yml nor poky.yml, so builds no named release" % f)
    if not any(":perfguide-instrument" in v for v in c["local_conf_header"].values()):
        bad.append("%s: does not enable the perfguide-instrument override" % f)
    print("%s: machine %s, %s, distro %s, repos %s" % (f, c["machine"], release, distro, " ".join(sorted(c["repos"]))))
for b in bad:
    print("BAD:", b)
sys.exit(1 if bad else 0)
EOF
}

# ---------------------------------------------------------- bench runner --
check_shellcheck() {
	shellcheck -s sh "$BENCH"
	shellcheck "$HERE/check.sh"
}

# A PATH with the fake benchmarks first and busybox applets for everything
# else, so that the runner is exercised with busybox's tools only.
make_bench_env() {
	local t=$WORK/bench
	rm -rf "$t"
	mkdir -p "$t/fake" "$t/bb" "$t/run"
	local applet
	for applet in sh cat date mkdir mktemp rm wc tail dd uname md5sum printf echo \
		sed cut tr head ls sleep test env grep; do
		ln -s "$(command -v busybox)" "$t/bb/$applet"
	done
	# dhry: reads the number of runs on stdin, output without a final newline.
	cat >"$t/fake/dhry" <<'EOF'
#!/bin/sh
read -r runs
echo "Dhrystone Benchmark, Version 2.1 (Language: C)"
echo "runs: $runs"
printf 'Dhrystones per Second:                      1234567.0'
EOF
	# whetstone: fails with status 3, message on stderr.
	cat >"$t/fake/whetstone" <<'EOF'
#!/bin/sh
echo "whetstone: loops $1"
echo "whetstone: floating point exception" >&2
exit 3
EOF
	# bw_mem: echoes its arguments like "<size> <MB/s>".
	cat >"$t/fake/bw_mem" <<'EOF'
#!/bin/sh
echo "$3 $4 1000.00"
EOF
	# iperf3: echoes its arguments.
	cat >"$t/fake/iperf3" <<'EOF'
#!/bin/sh
echo "iperf3 $*"
EOF
	chmod +x "$t/fake/"*
	echo "$t"
}

bench() {
	local t=$1
	shift
	(cd "$t/run" && env -i PATH="$t/fake:$t/bb" HOME="$t/run" TMPDIR="$t/run" \
		"$(command -v busybox)" sh "$BENCH" "$@")
}

check_bench_list() {
	local t
	t=$(make_bench_env)
	bench "$t" list >"$WORK/list.txt"
	cat "$WORK/list.txt"
	# Only installed benchmarks (and iperf3 needs a server): 45 bw_mem + dhry + whetstone + 3 iperf3.
	[ "$(wc -l <"$WORK/list.txt")" -eq 50 ] || fail "expected 50 lines"
	expect_line "$WORK/list.txt" $'^dhrystone/dhry\tdhrystone\tinstalled\techo .*\\| dhry$'
	expect_line "$WORK/list.txt" $'^lmbench/bw_mem-rd-1mb\tlmbench\tinstalled\tbw_mem -P 1 1m rd$'
	expect_line "$WORK/list.txt" $'^iperf3/tcp-tx\tiperf3\tneeds-server\t'
	if grep -q '^stream/' "$WORK/list.txt"; then fail "stream is not installed but listed"; fi
	bench "$t" list --all >"$WORK/all.txt"
	expect_line "$WORK/all.txt" $'^stream/stream\tstream\tmissing\tstream$'
	expect_line "$WORK/all.txt" $'^openssl/aes-128-cbc\topenssl\tmissing\topenssl speed -elapsed -seconds "\\$\\{PERFGUIDE_OPENSSL_SECONDS:-3\\}" -evp aes-128-cbc$'
	expect_line "$WORK/all.txt" $'^sysbench/cpu\tsysbench\tmissing\tsysbench cpu '
	expect_line "$WORK/all.txt" $'^7zip/7zz-b\t7zip\tmissing\t7zz b '
	bench "$t" suites >"$WORK/suites.txt"
	expect_line "$WORK/suites.txt" $'^lmbench\t45/76 installed$'
	expect_line "$WORK/suites.txt" $'^dhrystone\t1/1 installed$'
}

check_bench_run() {
	local t rc=0 out=$WORK/run.txt
	t=$(make_bench_env)
	bench "$t" run dhrystone whetstone lmbench/bw_mem-rd-4mb iperf3/tcp-tx stream >"$out" || rc=$?
	cat "$out"
	[ $rc -eq 1 ] || fail "exit status $rc, expected 1 (whetstone failed)"
	# session header and trailer
	expect_line "$out" '^@@PERFGUIDE-BENCH SESSION v=1 sid=[0-9]+-[0-9]+ host=[^ ]+ kernel=[^ ]+ machine=[^ ]+ runner=[0-9.]+ repeat=1 args=dhrystone whetstone lmbench/bw_mem-rd-4mb iperf3/tcp-tx stream$'
	expect_line "$out" '^@@PERFGUIDE-BENCH DONE v=1 sid=[0-9]+-[0-9]+ ran=3 failed=1 skipped=2 dur_ms=[0-9]+$'
	# one sid for the whole session
	[ "$(grep '^@@PERFGUIDE-BENCH ' "$out" | sed 's/.* sid=\([^ ]*\).*/\1/' | sort -u | wc -l)" -eq 1 ] || fail "more than one sid"
	# dhry: output framed, no final newline in its output -> eol=0, one added line
	expect_line "$out" '^@@PERFGUIDE-BENCH BEGIN v=1 sid=[0-9-]+ seq=1 id=dhrystone/dhry t=[0-9]+ cmd=echo "\$\{PERFGUIDE_DHRY_RUNS:-10000000\}" \| dhry$'
	local dhry_out='Dhrystone Benchmark, Version 2.1 (Language: C)
runs: 10000000
Dhrystones per Second:                      1234567.0'
	local bytes md5
	bytes=$(printf '%s' "$dhry_out" | wc -c)
	md5=$(printf '%s' "$dhry_out" | md5sum | cut -d' ' -f1)
	expect_line "$out" "^@@PERFGUIDE-BENCH END v=1 sid=[0-9-]+ seq=1 id=dhrystone/dhry status=0 dur_ms=[0-9]+ clock=(date-ns|uptime|date-s) lines=3 bytes=$bytes eol=0 md5=$md5\$"
	# The lines between BEGIN and END are exactly the output.
	sed -n '/ BEGIN .* seq=1 /,/ END .* seq=1 /p' "$out" | sed '1d;$d' >"$WORK/seg1.txt"
	[ "$(cat "$WORK/seg1.txt")" = "$dhry_out" ] || fail "dhry segment differs"
	# whetstone: failing benchmark -> its exit status, stderr captured too
	expect_line "$out" '^@@PERFGUIDE-BENCH END v=1 sid=[0-9-]+ seq=2 id=whetstone/whetstone status=3 dur_ms=[0-9]+ clock=[a-z-]+ lines=2 bytes=[0-9]+ eol=1 md5=[0-9a-f]{32}$'
	sed -n '/ BEGIN .* seq=2 /,/ END .* seq=2 /p' "$out" | sed '1d;$d' >"$WORK/seg2.txt"
	grep -qx 'whetstone: floating point exception' "$WORK/seg2.txt" || fail "stderr of whetstone not in its segment"
	grep -qx 'whetstone: loops 10000' "$WORK/seg2.txt" || fail "whetstone not run with its default loops"
	# lmbench bw_mem with the standard arguments
	expect_line "$out" '^@@PERFGUIDE-BENCH BEGIN v=1 sid=[0-9-]+ seq=3 id=lmbench/bw_mem-rd-4mb t=[0-9]+ cmd=bw_mem -P 1 4m rd$'
	expect_line "$out" '^4m rd 1000.00$'
	expect_line "$out" '^@@PERFGUIDE-BENCH END v=1 sid=[0-9-]+ seq=3 id=lmbench/bw_mem-rd-4mb status=0 .* lines=1 bytes=14 eol=1 '
	# skips: network benchmark without a server, benchmark not installed
	expect_line "$out" '^@@PERFGUIDE-BENCH SKIP v=1 sid=[0-9-]+ seq=4 id=iperf3/tcp-tx reason=no-server$'
	expect_line "$out" '^@@PERFGUIDE-BENCH SKIP v=1 sid=[0-9-]+ seq=5 id=stream/stream reason=not-installed$'
	# nothing outside the frames but markers
	local stray
	stray=$(awk '/^@@PERFGUIDE-BENCH BEGIN/{inside=1; next} /^@@PERFGUIDE-BENCH END/{inside=0; next} /^@@PERFGUIDE-BENCH /{next} !inside{print}' "$out")
	[ -z "$stray" ] || fail "output outside frames: $stray"
}

check_bench_options() {
	local t rc=0 out=$WORK/opt.txt
	t=$(make_bench_env)
	# --server runs the network benchmark; --repeat runs each selection twice
	bench "$t" run --server 192.0.2.1 --repeat 2 iperf3/tcp-rx >"$out" || rc=$?
	cat "$out"
	[ $rc -eq 0 ] || fail "exit status $rc, expected 0"
	[ "$(grep -c '^@@PERFGUIDE-BENCH END .* id=iperf3/tcp-rx status=0 ' "$out")" -eq 2 ] || fail "expected two runs"
	expect_line "$out" '^iperf3 -c 192.0.2.1 -t 10 -R$'
	expect_line "$out" '^@@PERFGUIDE-BENCH END v=1 sid=[0-9-]+ seq=2 id=iperf3/tcp-rx '
	expect_line "$out" '^@@PERFGUIDE-BENCH DONE v=1 sid=[0-9-]+ ran=2 failed=0 skipped=0 '
	# --stop-on-failure stops after whetstone
	rc=0
	bench "$t" run -x whetstone dhrystone >"$out" || rc=$?
	[ $rc -eq 1 ] || fail "-x: exit status $rc, expected 1"
	if grep -q 'id=dhrystone/dhry' "$out"; then fail "-x: dhry ran after a failure"; fi
	expect_line "$out" '^@@PERFGUIDE-BENCH DONE v=1 sid=[0-9-]+ ran=1 failed=1 skipped=0 '
	# usage errors: exit 2, nothing framed
	rc=0
	bench "$t" run no-such-benchmark >"$out" 2>&1 || rc=$?
	[ $rc -eq 2 ] || fail "unknown name: exit status $rc, expected 2"
	if grep -q '^@@PERFGUIDE-BENCH' "$out"; then fail "unknown name: markers printed"; fi
	rc=0
	bench "$t" run --repeat 0 dhrystone >"$out" 2>&1 || rc=$?
	[ $rc -eq 2 ] || fail "--repeat 0: exit status $rc, expected 2"
	rc=0
	bench "$t" frobnicate >"$out" 2>&1 || rc=$?
	[ $rc -eq 2 ] || fail "unknown command: exit status $rc, expected 2"
	bench "$t" show dhrystone/dhry >"$out"
	expect_line "$out" $'^dhrystone/dhry\techo "\\$\\{PERFGUIDE_DHRY_RUNS:-10000000\\}" \\| dhry$'
	bench "$t" version >"$out"
	expect_line "$out" '^perfguide-bench [0-9.]+ \(framing v1\)$'
}

# ------------------------------------------------------------- buildroot --
check_buildroot() {
	"$VENV/bin/python" - "$BR" "$REPO" <<'EOF'
import os, re, sys
br, repo = sys.argv[1], sys.argv[2]
bad = []
desc = dict(l.split(":", 1) for l in open(os.path.join(br, "external.desc")) if ":" in l)
name = desc.get("name", "").strip()
if not re.fullmatch(r"[A-Za-z0-9_]+", name):
    bad.append("external.desc: bad name %r" % name)
path_var = "BR2_EXTERNAL_%s_PATH" % name

top = open(os.path.join(br, "Config.in")).read()
sourced = re.findall(r'^\s*source\s+"\$' + path_var + r'/(package/[^"]+/Config\.in)"', top, re.M)
for s in re.findall(r'^\s*source\s+"([^"]+)"', top, re.M):
    if not s.startswith("$" + path_var + "/"):
        bad.append("Config.in sources %s, not under $%s" % (s, path_var))
# the tree's own options (the perfguide source both packages build from)
top_syms = re.findall(r"^\s*(?:menu)?config\s+(BR2_\w+)", top, re.M)
for s in top_syms:
    if not s.startswith("BR2_%s_" % name):
        bad.append("Config.in: %s is not in the tree's namespace BR2_%s_*" % (s, name))
mk_top = open(os.path.join(br, "external.mk")).read()
if "$(%s)/package/*/*.mk" % path_var not in mk_top:
    bad.append("external.mk does not include package/*/*.mk")
# perfguide.mk: what the packages share (the repository's site, version,
# method), included before them; its variables in the tree's namespace
shared_mk = "perfguide.mk"
if not re.search(r"^include \$\(%s\)/%s$" % (path_var, re.escape(shared_mk)), mk_top, re.M) or \
        mk_top.index(shared_mk) > mk_top.index("package/*/*.mk"):
    bad.append("external.mk does not include %s before the packages" % shared_mk)
shared = open(os.path.join(br, shared_mk)).read()
for var in re.findall(r"^([A-Z0-9_]+)\s*[:+?]?=", shared, re.M):
    if not var.startswith(name + "_") or var.startswith(name + "_PACKAGE"):
        bad.append("%s: variable %s outside %s_*" % (shared_mk, var, name))
shared_vars = dict(re.findall(r"^(%s_\w+)\s*=\s*(.+)$" % name, shared, re.M))
def resolve(value, seen=()):
    """value with $(VAR) of perfguide.mk replaced by their (first) definitions"""
    return re.sub(r"\$\((%s_\w+)\)" % name,
                  lambda m: resolve(shared_vars[m.group(1)], seen + (m.group(1),))
                  if m.group(1) in shared_vars and m.group(1) not in seen else m.group(0),
                  value)

symbols = set()
pkgdir = os.path.join(br, "package")
for pkg in sorted(os.listdir(pkgdir)):
    cin = os.path.join(pkgdir, pkg, "Config.in")
    mk = os.path.join(pkgdir, pkg, pkg + ".mk")
    if "package/%s/Config.in" % pkg not in sourced:
        bad.append("Config.in does not source package/%s/Config.in" % pkg)
    if not os.path.exists(mk):
        bad.append("package/%s: no %s.mk" % (pkg, pkg))
        continue
    upper = pkg.upper().replace("-", "_")
    ctext = open(cin).read()
    syms = re.findall(r"^\s*(?:menu)?config\s+(BR2_PACKAGE_\w+)", ctext, re.M)
    symbols.update(syms)
    main = "BR2_PACKAGE_" + upper
    if main not in syms:
        bad.append("package/%s/Config.in: no config %s" % (pkg, main))
    for s in syms:
        if not s.startswith(main):
            bad.append("package/%s/Config.in: %s is not in the package's namespace" % (pkg, s))
    mtext = open(mk).read()
    # make variables set in the .mk: all in the package's namespace
    for var in re.findall(r"^([A-Z0-9_]+)\s*[:+?]?=", mtext, re.M):
        if not var.startswith(upper + "_"):
            bad.append("%s.mk: variable %s outside %s_*" % (pkg, var, upper))
    for var in ("VERSION", "SITE", "LICENSE"):
        if not re.search(r"^%s_%s\s*=" % (upper, var), mtext, re.M):
            bad.append("%s.mk: %s_%s not set" % (pkg, upper, var))
    if not re.search(r"^\$\(eval \$\((generic|host-generic|cmake|autotools|meson|cargo)-package\)\)\s*$", mtext, re.M):
        bad.append("%s.mk: no $(eval $(...-package))" % pkg)
    # BR2_PACKAGE_* used by the .mk are defined by its Config.in, the tree's
    # options by the top Config.in
    for s in set(re.findall(r"BR2_PACKAGE_\w+", mtext)):
        if s not in syms:
            bad.append("%s.mk uses %s, not defined in its Config.in" % (pkg, s))
    for s in set(re.findall(r"BR2_%s_\w+" % name, mtext)):
        if s not in top_syms:
            bad.append("%s.mk uses %s, not defined in the top Config.in" % (pkg, s))
    # functions defined are used (hooks, install commands)
    for fn in re.findall(r"^define\s+(\w+)", mtext, re.M):
        if not fn.endswith(("_CMDS",)) and not re.search(r"(\+=|=)\s*.*\b%s\b" % fn, mtext):
            bad.append("%s.mk: %s defined but never used" % (pkg, fn))
    # the SITE does not depend on where the tree sits: it is an option's
    # value, and an empty one stops the build with an error naming it
    for site in re.findall(r"^%s_SITE\s*=\s*(.+)$" % upper, mtext, re.M):
        site = resolve(site)
        if "$(%s)" % path_var in site:
            bad.append("%s.mk: SITE %s depends on where the tree sits" % (pkg, site.strip()))
        if not re.findall(r"BR2_\w+", site):
            bad.append("%s.mk: SITE %s is not an option's value" % (pkg, site.strip()))
        for opt in re.findall(r"BR2_\w+", site):
            if not re.search(r"^\$\(error .*\b%s\b" % opt, mtext + shared, re.M):
                bad.append("%s.mk: no $(error ...) naming %s when it is empty" % (pkg, opt))
        # the shared error applies to this package
        if "$(%s_SITE)" % name in mtext and main not in shared:
            bad.append("%s: the empty-site error does not cover %s" % (shared_mk, main))
    # the files it takes from the perfguide repository ($(@D)/... and
    # LICENSE_FILES, with the .mk's own plain variables expanded) exist there
    plain = dict(re.findall(r"^(%s_\w+)\s*=\s*([^$\s]+)\s*$" % upper, mtext, re.M))
    def expand(t):
        return re.sub(r"\$\((\w+)\)", lambda m: plain.get(m.group(1), m.group(0)), t)
    used = re.findall(r"\$\(@D\)/(\S+)", mtext)
    used += re.findall(r"^%s_LICENSE_FILES\s*=\s*(.+)$" % upper, mtext, re.M)
    for f in sorted(set(f for u in used for f in expand(u).split())):
        if f.startswith("meta-perfguide/") and not os.path.exists(os.path.join(repo, f)):
            bad.append("%s.mk: %s is not in the repository" % (pkg, f))

for s in sorted(set(re.findall(r"BR2_PACKAGE_\w+", shared)) - symbols):
    bad.append("%s uses %s, not defined by a package's Config.in" % (shared_mk, s))
for s in sorted(set(re.findall(r"BR2_%s_\w+" % name, shared)) - set(top_syms)):
    bad.append("%s uses %s, not defined in the top Config.in" % (shared_mk, s))

# defconfigs (`make NAME_defconfig` lists only those): our symbols exist, files they name exist
for frag in sorted(os.listdir(os.path.join(br, "configs"))):
    if not frag.endswith("_defconfig"):
        bad.append("configs/%s: not a NAME_defconfig, so `make` cannot load it" % frag)
    text = open(os.path.join(br, "configs", frag)).read()
    for s in re.findall(r"^(BR2_PACKAGE_PERFGUIDE\w*|BR2_%s_\w+)=" % name, text, re.M):
        if s not in symbols and s not in top_syms:
            bad.append("configs/%s: %s is not defined in the tree" % (frag, s))
    # a defconfig that enables a perfguide package says where its source is
    if re.search(r"^BR2_PACKAGE_PERFGUIDE\w*=y$", text, re.M) and \
            not re.search(r'^BR2_%s_SITE="\S+"$' % name, text, re.M):
        bad.append("configs/%s: enables a perfguide package but sets no BR2_%s_SITE" % (frag, name))
    for p in re.findall(r"\$\(%s\)(/[^\" ]+)" % path_var, text):
        if not os.path.exists(os.path.normpath(br + p)):
            bad.append("configs/%s: %s does not exist" % (frag, p))
    for line in text.splitlines():
        if line and not line.startswith("#") and not re.fullmatch(r'BR2_\w+=(y|n|"[^"]*"|-?\d+|0x[0-9a-fA-F]+)', line):
            bad.append("configs/%s: malformed line %r" % (frag, line))
print("external %s; packages: %s; symbols: %s" % (name, " ".join(sorted(os.listdir(pkgdir))), " ".join(sorted(symbols | set(top_syms)))))
for b in bad:
    print("BAD:", b)
sys.exit(1 if bad else 0)
EOF
}

# ----------------------------------------------------------------- main --
setup_tools

check "oelint-adv: recipes, appends, classes have no findings" check_oelint
check "layer.conf, README and inert bbappends" check_layer_conf
check "PERFGUIDE_CONSOLE: default loud, silent-console fragment only under the override and quiet" check_console_switch
check "license checksums of the layer's recipes" check_license_checksums
check "the layer stands alone: no symlink out of it, the one copy of the target programs" check_layer_alone
# The SRCREV commit is in any full clone; a shallow clone is deepened first, and the check
# fails when the commit still cannot be had.
PERFGUIDE_SRCREV=$(sed -n 's/^PERFGUIDE_SRCREV ??= "\([0-9a-f]\{40\}\)"$/\1/p' "$LAYER/recipes-devtools/perfguide/perfguide_git.bb")
if [ "$(git -C "$REPO" rev-parse --is-shallow-repository 2>/dev/null)" = true ] &&
	! git -C "$REPO" cat-file -e "${PERFGUIDE_SRCREV:-0}^{commit}" 2>/dev/null; then
	echo "setup: shallow clone without SRCREV ${PERFGUIDE_SRCREV:-?}: git fetch --unshallow"
	git -C "$REPO" fetch --quiet --unshallow || true
fi
check "perfguide-crates.inc matches Cargo.lock of SRCREV, which is the workspace's" check_crates_inc
check "perfguide-license.inc declares every linked crate's license" check_crates_license
check "Cargo.lock: every crate builds with PERFGUIDE_MIN_RUST (msrv_lock.py)" check_msrv_lock
check "no std API newer than the minimum Rust in any compiled crate (clippy_msrv_deps.sh)" check_msrv_apis
check "kas files validate against kas's schema" check_kas_schema
check "kas file per machine, target, layers, every repo pinned to a commit, a release with systemd" check_kas_machines
check "shellcheck perfguide-bench and check.sh" check_shellcheck
check "perfguide-bench list/suites under busybox sh" check_bench_list
check "perfguide-bench run: framing, failure status, skips" check_bench_run
check "perfguide-bench run options and usage errors" check_bench_options
check "buildroot-external: Config.in and .mk consistent" check_buildroot

if [ "$FAILED" -gt 0 ]; then
	echo "failed: ${FAILED_NAMES[*]}"
fi
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
