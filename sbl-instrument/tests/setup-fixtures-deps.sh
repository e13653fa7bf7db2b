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
  [/usr/lib/u-boot/qemu_arm64/u-boot]=u-boot-qemu
)

missing=()
for tool in "${!PKG[@]}"; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("${PKG[$tool]}")
done
for f in "${!FILEPKG[@]}"; do
  [ -e "$f" ] || missing+=("${FILEPKG[$f]}")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup-fixtures-deps: all tools present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive

echo "setup-fixtures-deps: installing ${missing[*]}"
# Try with the current package lists first; update them only when that fails (a package
# unknown to the lists, or lists so old that the archive no longer has those versions).
if ! $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"; then
  echo "setup-fixtures-deps: install failed with the current lists; running apt-get update"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
echo "setup-fixtures-deps: done"
