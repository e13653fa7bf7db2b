#!/usr/bin/env bash
# A Python venv under the perfguide cache holding pinned packages, for the tools the tests
# drive: `pinned-venv.sh NAME REQUIREMENT...` makes ${PERFGUIDE_CACHE:-$HOME/.cache/perfguide}/NAME
# with `pip install REQUIREMENT...`. Idempotent; a no-op when the pins are met (they are kept in
# NAME/.perfguide-pins), remade when they change.
set -euo pipefail
name=$1
shift
CACHE=${PERFGUIDE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/perfguide}
VENV=$CACHE/$name
want="$*"
stamp=$VENV/.perfguide-pins
if [ -x "$VENV/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
	exit 0
fi
if ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
	echo "pinned-venv: apt-get install python3-venv" >&2
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
fi
echo "pinned-venv: $VENV ($want)" >&2
mkdir -p "$CACHE"
rm -rf "$VENV"
python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --disable-pip-version-check "$@"
echo "$want" >"$stamp"
