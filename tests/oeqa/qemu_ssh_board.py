#!/usr/bin/env python3
"""The QEMU reference board reachable by ssh, as oeqa's ssh target needs it.

    qemu_ssh_board.py [--perfguide PATH] [--port N] [--log FILE] [-- COMMAND...]

Boots the built reference image (`perfguide image build --board qemu-arm64`)
with the command line `perfguide image argv` prints, plus a forwarded port
(127.0.0.1:N -> the board's 22) on its user network. On the console it logs
in as root, brings up eth0 (QEMU's user network: 10.0.2.15/24) and starts
dropbear with on-demand host keys and blank-password logins (`-R -B`, the
image's root has no password). Once `ssh -p N root@127.0.0.1 true` answers
it runs COMMAND with PERFGUIDE_SSH_PORT=N in its environment and stops the
board; without a COMMAND it prints the ssh address and holds the board until
interrupted (Ctrl-C), e.g. for poky's `oe-test runtime --target-ip
127.0.0.1:N`. Exit status: COMMAND's, or 1 with the reason on stderr when the
board does not come up (the console is in --log).
"""
import argparse
import contextlib
import json
import os
import select
import shutil
import socket
import subprocess
import sys
import time

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
LOGIN_TIMEOUT = 180
SSH_TIMEOUT = 60
READY = "PGSSH-READY"
# Console commands after login: eth0 up (the modules ship in the initramfs, unloaded) and
# dropbear in the background. The marker is echoed split so that the echo of the command
# line does not match it.
SETUP = ("modprobe virtio_mmio && modprobe virtio_net && ip link set eth0 up && "
         "ip addr add 10.0.2.15/24 dev eth0 && mkdir -p /etc/dropbear /root && "
         "dropbear -R -B -p 22 && echo PGSSH-\"\"READY")

SSH_OPTIONS = ["-o", "UserKnownHostsFile=/dev/null", "-o", "StrictHostKeyChecking=no",
               "-o", "LogLevel=ERROR", "-o", "ConnectTimeout=10"]


class BoardError(Exception):
    pass


def free_port():
    with contextlib.closing(socket.socket()) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def board_argv(perfguide, port):
    out = subprocess.run([perfguide, "image", "argv", "--board", "qemu-arm64"],
                         capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise BoardError("perfguide image argv: %s" % out.stderr.strip())
    argv = json.loads(out.stdout)
    for i, a in enumerate(argv):
        if a.startswith("user,") and argv[i - 1] == "-netdev":
            argv[i] = a + ",hostfwd=tcp:127.0.0.1:%d-:22" % port
            return argv
    raise BoardError("the board's QEMU command line has no -netdev user,...: %s" % argv)


class Board:
    """A running QEMU board and its console."""

    def __init__(self, argv, log):
        self.log = open(log, "wb")
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT)
        self.seen = b""

    def wait_for(self, text, timeout):
        deadline = time.monotonic() + timeout
        want = text.encode()
        while want not in self.seen:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BoardError("no %r on the console within %d s" % (text, timeout))
            ready, _, _ = select.select([self.proc.stdout], [], [], min(left, 1.0))
            if not ready:
                continue
            chunk = os.read(self.proc.stdout.fileno(), 4096)
            if not chunk:
                raise BoardError("QEMU exited (status %s) before %r" % (self.proc.wait(), text))
            self.log.write(chunk)
            self.log.flush()
            self.seen += chunk
        self.seen = self.seen[self.seen.index(want) + len(want):]

    def send(self, line):
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self.log.close()


def ssh_argv(port, command):
    return ["ssh", "-l", "root", "-p", str(port)] + SSH_OPTIONS + ["127.0.0.1", command]


def wait_for_ssh(port, timeout):
    deadline = time.monotonic() + timeout
    last = ""
    while time.monotonic() < deadline:
        p = subprocess.run(ssh_argv(port, "true"), capture_output=True, text=True,
                           timeout=30, check=False)
        if p.returncode == 0:
            return
        last = p.stderr.strip()
        time.sleep(1)
    raise BoardError("ssh to 127.0.0.1:%d did not answer within %d s: %s" % (port, timeout, last))


@contextlib.contextmanager
def ssh_board(perfguide, port=None, log="qemu-ssh-console.log"):
    """Yields the forwarded port of a booted board reachable by ssh; stops it after."""
    for tool in ("ssh",):
        if not shutil.which(tool):
            raise BoardError("%s is not installed (scripts/setup-host.sh installs it)" % tool)
    port = port or free_port()
    board = Board(board_argv(perfguide, port), log)
    try:
        board.wait_for("login:", LOGIN_TIMEOUT)
        board.send("root")
        board.wait_for("# ", 30)
        board.send(SETUP)
        board.wait_for(READY, 60)
        wait_for_ssh(port, SSH_TIMEOUT)
        yield port
    finally:
        board.stop()


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--perfguide", default=os.path.join(REPO, "target", "debug", "perfguide"))
    ap.add_argument("--port", type=int, help="host port forwarded to the board's 22 "
                    "(default: a free one)")
    ap.add_argument("--log", default="qemu-ssh-console.log", help="the console, as captured")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args(argv)
    command = a.command[1:] if a.command[:1] == ["--"] else a.command
    try:
        with ssh_board(a.perfguide, a.port, a.log) as port:
            if not command:
                print("board up: ssh -p %d root@127.0.0.1 (oe-test: --target-ip 127.0.0.1:%d); "
                      "Ctrl-C stops it" % (port, port), flush=True)
                with contextlib.suppress(KeyboardInterrupt):
                    while True:
                        time.sleep(3600)
                return 0
            env = dict(os.environ, PERFGUIDE_SSH_PORT=str(port))
            return subprocess.run(command, env=env, check=False).returncode
    except BoardError as e:
        sys.stderr.write("qemu_ssh_board: %s (console: %s)\n" % (e, a.log))
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
