#!/usr/bin/env bash
# The board farm the labgrid test drives: labgrid (pinned, a release with the gRPC coordinator)
# in a venv under the perfguide cache, ${PERFGUIDE_CACHE:-$HOME/.cache/perfguide}/labgrid-venv.
# Its exporter serves serial ports through ser2net, which scripts/setup-host.sh installs.
# Idempotent.
exec bash "$(dirname "$0")/pinned-venv.sh" labgrid-venv "labgrid==25.0.1"
