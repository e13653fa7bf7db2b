#!/usr/bin/env bash
# Install the host tools the sbl-instrument integration tests build their fixtures with.
# Idempotent: does nothing when every tool is already there; runs `apt-get update` only
# when a package cannot be found in the current lists.
set -euo pipefail

# tool -> Debian package
declare -A PKG=(
  [arm-none-eabi-gcc]=gcc-arm-none-eabi
  [aarch64-linux-gnu-gcc]=gcc-aarch64-linux-gnu
  [mkimage]=u-boot-tools
  [dtc]=device-tree-compiler
  [openssl]=openssl
)
# files -> Debian package (no command to probe for)
declare -A FILEPKG=(
  [/usr/lib/u-boot/qemu_arm64/uboot.elf]=u-boot-qemu
)

missing=()
for tool in "${!PKG[@]}"; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("${PKG[$tool]}")
done
for f in "${!FILEPKG[@]}"; do
  [ -e "$f" ] || missing+=("${FILEPKG[$f]}")
done

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup-fixtures-deps: all tools present"
else
echo "setup-fixtures-deps: installing ${missing[*]}"
# Try with the current package lists first; update them only when that fails (a package
# unknown to the lists, or lists so old that the archive no longer has those versions).
if ! $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"; then
  echo "setup-fixtures-deps: install failed with the current lists; running apt-get update"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
fi

# The distribution's arm64 kernel `Image` (Debian's cloud arm64 kernel, a gzip'd Image as
# /boot/vmlinuz-*), unpacked into a cache directory the tests read:
#   ${SBL_FIXTURE_CACHE:-$HOME/.cache/perfguide-fixtures}/arm64/Image
CACHE="${SBL_FIXTURE_CACHE:-$HOME/.cache/perfguide-fixtures}/arm64"
if [ ! -s "$CACHE/Image" ]; then
  echo "setup-fixtures-deps: fetching the distribution's arm64 kernel Image"
  mkdir -p "$CACHE"
  if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    $SUDO dpkg --add-architecture arm64
    $SUDO apt-get update -qq
  fi
  meta=linux-image-cloud-arm64:arm64
  if ! apt-cache show "$meta" >/dev/null 2>&1; then $SUDO apt-get update -qq; fi
  pkg=$(apt-cache depends "$meta" | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
  pkg=${pkg%:arm64}
  [ -n "$pkg" ] || { echo "setup-fixtures-deps: cannot resolve $meta" >&2; exit 1; }
  tmp=$(mktemp -d)
  ( cd "$tmp" && apt-get download "$pkg:arm64" >/dev/null ) || {
    $SUDO apt-get update -qq; ( cd "$tmp" && apt-get download "$pkg:arm64" >/dev/null ); }
  deb=$(ls "$tmp"/*.deb | head -1)
  dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" --wildcards './boot/vmlinuz-*'
  vmlinuz=$(ls "$tmp"/boot/vmlinuz-* | head -1)
  if gzip -t "$vmlinuz" 2>/dev/null; then gzip -dc "$vmlinuz" > "$CACHE/Image.tmp"; else cp "$vmlinuz" "$CACHE/Image.tmp"; fi
  mv "$CACHE/Image.tmp" "$CACHE/Image"
  echo "$pkg" > "$CACHE/Image.package"
  rm -rf "$tmp"
fi
echo "setup-fixtures-deps: done"
