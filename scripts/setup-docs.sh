#!/usr/bin/env bash
# The document checker the tests use: Sphinx (pinned) in a venv under the perfguide cache,
# ${PERFGUIDE_CACHE:-$HOME/.cache/perfguide}/docs-venv. Idempotent; a no-op when the pin is met.
set -euo pipefail
SPHINX_VERSION=8.1.3
CACHE=${PERFGUIDE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/perfguide}
VENV=$CACHE/docs-venv
want="sphinx==$SPHINX_VERSION"
stamp=$VENV/.perfguide-pins
if [ -x "$VENV/bin/sphinx-build" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
	exit 0
fi
if ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
	echo "setup-docs: apt-get install python3-venv" >&2
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
fi
echo "setup-docs: venv $VENV ($want)" >&2
mkdir -p "$CACHE"
python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --disable-pip-version-check "$want"
echo "$want" >"$stamp"
