#!/usr/bin/env bash
# The document checker the tests use: Sphinx (pinned) in a venv under the perfguide cache,
# ${PERFGUIDE_CACHE:-$HOME/.cache/perfguide}/docs-venv. Idempotent.
exec bash "$(dirname "$0")/pinned-venv.sh" docs-venv "sphinx==8.1.3"
