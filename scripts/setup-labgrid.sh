#!/usr/bin/env bash
# The board farm the labgrid test drives: labgrid (pinned, a release with the gRPC coordinator)
# in a venv under the perfguide cache, ${PERFGUIDE_CACHE:-$HOME/.cache/perfguide}/labgrid-venv.
# Its exporter serves serial ports through ser2net, which scripts/setup-host.sh installs.
# Idempotent; a no-op when the pin is met.
set -euo pipefail
LABGRID_VERSION=25.0.1
CACHE=${PERFGUIDE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/perfguide}
VENV=$CACHE/labgrid-venv
want="labgrid==$LABGRID_VERSION"
stamp=$VENV/.perfguide-pins
if [ -x "$VENV/bin/labgrid-client" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
	exit 0
fi
if ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
	echo "setup-labgrid: apt-get install python3-venv" >&2
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
fi
echo "setup-labgrid: venv $VENV ($want)" >&2
mkdir -p "$CACHE"
rm -rf "$VENV"
python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --disable-pip-version-check "$want"
echo "$want" >"$stamp"
