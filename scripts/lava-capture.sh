#!/bin/bash
# A real LAVA job log of the QEMU reference board: LAVA's own dispatcher (lava-run, Debian
# bookworm's lava-dispatcher 2023.01) boots the board with the job `perfguide lava job`
# writes, posts its log to scripts/lava-log-receiver.py, which writes it as lava-server does
# (log.yaml), while QEMU writes the raw serial bytes of the same boots (raw.log).
#
# lava-dispatcher is not installed (apt refuses it here: libguestfs0 wants qemu-system-x86,
# which conflicts with backports' QEMU): its packages are unpacked into WORK and run with
# PYTHONPATH; `guestfs`, which it imports but the qemu boot never calls, is a stub module.
# The device dictionary is LAVA's qemu device type (lava-server's qemu.jinja2) rendered with
# the job's context, as lava-server renders it, plus a `serial` option logging QEMU's serial
# to raw.log.
#
# usage: scripts/lava-capture.sh OUT_DIR [CYCLES]   (as root; the image must be built:
#        perfguide image build --board qemu-arm64)
set -euo pipefail
OUT=$(realpath -m "${1:?usage: lava-capture.sh OUT_DIR [CYCLES]}")
CYCLES=${2:-2}
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d /tmp/perfguide-lava.XXXXXX)
trap 'kill "${RECEIVER:-}" 2>/dev/null || true; rm -rf "$WORK"' EXIT
mkdir -p "$OUT"
rm -f "$OUT/log.yaml" "$OUT/log.yaml.xz" "$OUT/raw.log"

apt-get install -y --no-install-recommends lava-common python3-jinja2 python3-tz \
    python3-setproctitle python3-requests python3-pexpect python3-magic python3-netifaces \
    python3-pyudev python3-configobj python3-aiohttp ipxe-qemu >/dev/null
(cd "$WORK" && apt-get download lava-dispatcher lava-dispatcher-host lava-server >/dev/null 2>&1)
for deb in "$WORK"/lava-dispatcher_*.deb "$WORK"/lava-dispatcher-host_*.deb; do
    dpkg-deb -x "$deb" "$WORK/root"
done
dpkg-deb -x "$WORK"/lava-server_*.deb "$WORK/server"
mkdir -p "$WORK/stubs"
echo '"""Stub: imported by lava_dispatcher at load time, never called by a qemu boot."""' \
    > "$WORK/stubs/guestfs.py"

perfguide() { cargo run -q --manifest-path "$HERE/../Cargo.toml" -p perfguide --bin perfguide -- "$@"; }
perfguide lava job --board qemu-arm64 --cycles "$CYCLES" -o "$OUT/job.yaml"

/usr/bin/python3 - "$OUT/job.yaml" "$WORK/server/usr/share/lava-server/device-types" \
    "$OUT/raw.log" > "$OUT/device.yaml" <<'PY'
import sys, yaml, jinja2
job, templates, raw = sys.argv[1:]
context = dict(yaml.safe_load(open(job)).get("context", {}))
context["serial"] = ("-chardev stdio,id=s0,signal=off,logfile=%s,logappend=on "
                     "-serial chardev:s0" % raw)
env = jinja2.Environment(loader=jinja2.FileSystemLoader(templates), trim_blocks=True,
                         autoescape=False)
print(env.from_string("{% extends 'qemu.jinja2' %}").render(**context))
PY

PORT=$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
/usr/bin/python3 "$HERE/lava-log-receiver.py" "$PORT" "$OUT/log.yaml" &
RECEIVER=$!
sleep 1
PYTHONPATH="$WORK/stubs:$WORK/root/usr/lib/python3/dist-packages" /usr/bin/python3 \
    "$WORK/root/usr/bin/lava-run" --device "$OUT/device.yaml" --job-id 1 \
    --output-dir "$WORK/out" --url "http://127.0.0.1:$PORT" --token perfguide \
    --job-log-interval 1 "$OUT/job.yaml" 2>"$OUT/lava-run.stderr" || {
    echo "lava-run failed; its log: $OUT/lava-run.stderr" >&2; exit 1; }
kill "$RECEIVER"; RECEIVER=
xz -k -9 "$OUT/log.yaml"
echo "$OUT: job.yaml device.yaml log.yaml log.yaml.xz raw.log"
