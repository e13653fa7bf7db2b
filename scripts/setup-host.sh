#!/usr/bin/env bash
# Installs what `perfguide image build --board qemu-arm64` and the QEMU boot loop need on a
# Debian bookworm host. Runs as root; idempotent; a fast no-op when everything is present.
#
# - adds bookworm-backports (deb + deb-src), deb-src for the configured main suites, and deb-src
#   for the suite of the U-Boot release the layer's instrumented boot loaders are built from
#   (images/uboot/source.toml, `perfguide image uboot`), reusing the URI already configured in
#   /etc/apt/sources.list.d/debian.sources (no host name here);
# - enables the arm64 foreign architecture (target packages are only ever downloaded and
#   unpacked by `perfguide image build`, never installed on the host);
# - installs qemu-system-arm from backports (the preinstalled qemu-utils comes from backports and
#   conflicts with stable's qemu-system-arm), the cross compilers, U-Boot build deps (binman's
#   Python modules among them) and the disk image tools, and chromium (the report page's
#   browser test);
# - installs cargo-fuzz (the fuzz smoke of scripts/test.sh) when `cargo fuzz` is missing.
set -euo pipefail

SOURCES=${PERFGUIDE_APT_SOURCES:-/etc/apt/sources.list.d/debian.sources}
OURS_BPO=/etc/apt/sources.list.d/perfguide-backports.sources
OURS_SRC=/etc/apt/sources.list.d/perfguide-src.sources
OURS_UBOOT_SRC=/etc/apt/sources.list.d/perfguide-uboot-src.sources
RELEASE=bookworm
# The suite of the pinned U-Boot release (one place: images/uboot/source.toml).
UBOOT_SUITE=$(sed -n 's/^suite *= *"\(.*\)".*/\1/p' "$(dirname "$0")/../images/uboot/source.toml")
BPO=${RELEASE}-backports

log() { printf 'setup-host: %s\n' "$*" >&2; }

if [[ $(id -u) -ne 0 ]]; then
    log "must run as root (apt-get, dpkg)"
    exit 1
fi

# Packages built or run on the host.
HOST_PKGS=(
    # cross toolchains and U-Boot builds (qemu_arm64_defconfig; `perfguide image uboot`: 32-bit
    # Arm for the TI K3 R5 SPL and AM335x, arm64, the host for sandbox)
    gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf gcc make bison flex bc libssl-dev
    libgnutls28-dev uuid-dev patch bzip2 openssl
    # binman's Python modules (TI K3 images: board configuration YAML checked by its schema)
    python3-yaml python3-jsonschema yamllint python3-libfdt
    # static benchmarks built from source ([image] static_benches: fio) link the arm64 libc
    libc6-dev-arm64-cross
    python3-dev python3-setuptools python3-pyelftools swig device-tree-compiler
    # apt-get source unpacks with dpkg-source
    dpkg-dev
    # disk image and root file system
    fdisk e2fsprogs cpio gzip xz-utils zstd
    # `perfguide bench --serve`: the network benchmarks' server on the host
    iperf3
    # profiler/tests/labgrid_farm.rs: labgrid's exporter serves serial ports through ser2net
    ser2net
    # profiler/tests/report_html.rs: report.html loaded and screenshotted in headless Chromium
    chromium
    # profiler/tests/lava_job.rs: LAVA's job validator (lava_common.schemas; not on PyPI)
    lava-common
    # tests/oeqa: the layer's testimage case reaches the QEMU board as oeqa does, by ssh
    openssh-client
)
BPO_PKGS=(qemu-system-arm)

# ---------------------------------------------------------------------------------------------
# apt sources

# Prints "URI|Signed-By|Suites|Components|Types" for each deb822 stanza of $SOURCES.
stanzas() {
    awk '
        function flush() { if (uris != "") print uris "|" signed "|" suites "|" comps "|" types;
                           uris = signed = suites = comps = types = "" }
        /^[[:space:]]*#/ { next }
        /^[[:space:]]*$/ { flush(); next }
        {
            key = $1; sub(/:$/, "", key); $1 = ""; sub(/^[[:space:]]+/, "");
            if (key == "URIs") uris = $0; else if (key == "Signed-By") signed = $0;
            else if (key == "Suites") suites = $0; else if (key == "Components") comps = $0;
            else if (key == "Types") types = $0;
        }
        END { flush() }
    ' "$SOURCES"
}

# Writes $2 to file $1 only if it differs; returns 0 when the file changed.
write_if_changed() {
    local path=$1 content=$2
    # (command substitution strips trailing newlines on both sides)
    if [[ -f $path ]] && [[ "$(cat "$path")" == "$(printf '%s' "$content")" ]]; then
        return 1
    fi
    printf '%s\n' "$content" >"$path"
    log "wrote $path"
    return 0
}

need_update=0
if [[ ! -r $SOURCES ]]; then
    log "$SOURCES not found: cannot find the configured Debian mirror"
    exit 1
fi

main_uri="" main_signed="" src_stanzas=""
while IFS='|' read -r uris signed suites comps types; do
    # The stanza that carries the release itself is the main archive.
    for s in $suites; do
        if [[ $s == "$RELEASE" && -z $main_uri ]]; then
            main_uri=${uris%% *}
            main_signed=$signed
        fi
    done
    if [[ " $types " != *" deb-src "* ]]; then
        src_stanzas+="Types: deb-src
URIs: $uris
Suites: $suites
Components: $comps
${signed:+Signed-By: $signed
}
"
    fi
done < <(stanzas)

if [[ -z $main_uri ]]; then
    log "no stanza with suite $RELEASE in $SOURCES"
    exit 1
fi

bpo_content="Types: deb deb-src
URIs: $main_uri
Suites: $BPO
Components: main
${main_signed:+Signed-By: $main_signed}"
# Another file may already configure backports; only add ours if none does.
if grep -rqs -- "$BPO" /etc/apt/sources.list.d/ --exclude="$(basename "$OURS_BPO")" --exclude='*.disabled*' \
    || grep -qs -- "$BPO" /etc/apt/sources.list 2>/dev/null; then
    :
elif write_if_changed "$OURS_BPO" "$bpo_content"; then
    need_update=1
fi

src_content=${src_stanzas%$'\n'}
if [[ -n $src_content ]]; then
    if write_if_changed "$OURS_SRC" "$src_content"; then need_update=1; fi
fi

if [[ -z $UBOOT_SUITE ]]; then
    log "no suite in images/uboot/source.toml"
    exit 1
fi
uboot_src_content="Types: deb-src
URIs: $main_uri
Suites: $UBOOT_SUITE
Components: main
${main_signed:+Signed-By: $main_signed}"
if write_if_changed "$OURS_UBOOT_SRC" "$uboot_src_content"; then need_update=1; fi

if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    dpkg --add-architecture arm64
    log "added foreign architecture arm64"
    need_update=1
fi

# Lists that must exist: backports binaries, arm64 binaries, sources.
lists=/var/lib/apt/lists
shopt -s nullglob
# shellcheck disable=SC2206  # $1 is a glob, expanded on purpose
have() { local f=("$lists"/$1); [[ ${#f[@]} -gt 0 ]]; }
have "*_dists_${BPO}_main_binary-amd64_Packages*" || need_update=1
have "*_dists_${RELEASE}_main_binary-arm64_Packages*" || need_update=1
have "*_dists_${RELEASE}_main_source_Sources*" || need_update=1
have "*_dists_${UBOOT_SUITE}_main_source_Sources*" || need_update=1
shopt -u nullglob

export DEBIAN_FRONTEND=noninteractive
if [[ $need_update -eq 1 ]]; then
    log "apt-get update"
    apt-get update -qq
fi

# ---------------------------------------------------------------------------------------------
# packages

missing() {
    local p
    for p in "$@"; do
        if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
            printf '%s\n' "$p"
        fi
    done
}

mapfile -t miss_host < <(missing "${HOST_PKGS[@]}")
mapfile -t miss_bpo < <(missing "${BPO_PKGS[@]}")

if [[ ${#miss_bpo[@]} -gt 0 ]]; then
    log "installing from $BPO: ${miss_bpo[*]}"
    apt-get install -y -q --no-install-recommends -t "$BPO" "${miss_bpo[@]}"
fi
if [[ ${#miss_host[@]} -gt 0 ]]; then
    log "installing: ${miss_host[*]}"
    apt-get install -y -q --no-install-recommends "${miss_host[@]}"
fi

for tool in qemu-system-aarch64 aarch64-linux-gnu-gcc arm-linux-gnueabihf-gcc sfdisk mkfs.ext4 cpio dpkg-source chromium; do
    command -v "$tool" >/dev/null || { log "missing $tool after install"; exit 1; }
done
# cargo-fuzz, for scripts/fuzz-smoke.sh.
if ! cargo fuzz --version >/dev/null 2>&1; then
    log "installing cargo-fuzz"
    cargo install cargo-fuzz --locked
fi

log "ok ($(qemu-system-aarch64 --version | head -n1))"
