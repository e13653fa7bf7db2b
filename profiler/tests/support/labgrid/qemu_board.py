#!/usr/bin/env python3
"""The QEMU reference board as the hardware of a labgrid place.

What a lab bench has, with QEMU as the board:
- a serial adapter that stays when the board is off: a pty pair held by this process; the slave
  (``/dev/pts/N``) is the ``RawSerialPort`` that labgrid's exporter serves through ser2net, the
  master is the board's UART (QEMU's ``-serial stdio`` has it as stdin and stdout);
- a network relay: labgrid's ``NetworkPowerPort`` with ``model: rest`` (``PUT`` ``1``/``0`` to
  ``http://HOST:PORT/relay/0/value``, ``GET`` reads the state). Switching on starts the QEMU
  process, switching off kills it.

Usage: ``qemu_board.py --argv FILE --state FILE [--log FILE]``. ``--argv`` is a JSON list, the
QEMU command line; ``--state`` is written once serving, as JSON: ``{"tty": "/dev/pts/N",
"power_url": "http://127.0.0.1:PORT/relay/{index}/value", "pid": PID}``. Every switch is
appended to ``--log`` as ``on`` / ``off``. Ends on SIGTERM, killing QEMU. QEMU runs off the
host's transparent huge pages, as perfguide's own QEMU power driver starts it
(``without_host_huge_pages`` in ``profiler/src/process.rs`` says why).
"""

import argparse
import ctypes
import http.server
import json
import os
import signal
import subprocess
import sys
import threading
import tty


class Board:
    def __init__(self, argv, log):
        self.argv = argv
        self.log = log
        self.lock = threading.Lock()
        self.qemu = None
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.tty = os.ttyname(self.slave)

    def is_on(self):
        return self.qemu is not None and self.qemu.poll() is None

    def switch(self, on):
        with self.lock:
            self._note("on" if on else "off")
            if on and not self.is_on():
                self.qemu = subprocess.Popen(
                    self.argv,
                    stdin=self.master,
                    stdout=self.master,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,
                )
            elif not on:
                self._kill()

    def _kill(self):
        if self.qemu is not None:
            if self.qemu.poll() is None:
                os.killpg(self.qemu.pid, signal.SIGKILL)
            self.qemu.wait()
            self.qemu = None

    def _note(self, what):
        if self.log:
            with open(self.log, "a") as f:
                f.write(what + "\n")

    def stop(self):
        with self.lock:
            self._kill()


def handler(board):
    class Relay(http.server.BaseHTTPRequestHandler):
        def _path_ok(self):
            if self.path.rstrip("/") != "/relay/0/value":
                self.send_error(404, "only relay 0")
                return False
            return True

        def do_GET(self):
            if self._path_ok():
                self._reply(b"1" if board.is_on() else b"0")

        def do_PUT(self):
            if not self._path_ok():
                return
            body = self.rfile.read(int(self.headers.get("Content-Length", "0"))).strip()
            if body not in (b"0", b"1"):
                self.send_error(400, "body must be 0 or 1")
                return
            board.switch(body == b"1")
            self._reply(body)

        def _reply(self, body):
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    return Relay


PR_SET_THP_DISABLE = 41


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--argv", required=True)
    ap.add_argument("--state", required=True)
    ap.add_argument("--log")
    a = ap.parse_args()
    # Inherited by every QEMU this process starts.
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) != 0:
        sys.exit(f"prctl(PR_SET_THP_DISABLE): {os.strerror(ctypes.get_errno())}")
    with open(a.argv) as f:
        argv = json.load(f)
    board = Board(argv, a.log)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler(board))
    port = server.server_address[1]

    def stop(*_):
        board.stop()
        threading.Thread(target=server.shutdown).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    state = {
        "tty": board.tty,
        "power_url": f"http://127.0.0.1:{port}/relay/{{index}}/value",
        "pid": os.getpid(),
    }
    tmp = a.state + ".tmp"
    with open(tmp, "w") as f:
        json.dump(state, f)
    os.replace(tmp, a.state)
    server.serve_forever()
    board.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
