#
# SPDX-License-Identifier: MIT
#
"""What testimage's perfguide_bench case does, apart from oeqa.

The case (perfguide_bench.py) runs the runner's quick selection on the
booted image and hands the capture to the build host's perfguide, whose
`perfguide bench check` applies the bench parser's own rules: the framing is
whole, every benchmark that ran exited 0 and gave figures, and every
benchmark the image promises (PERFGUIDE_TEST_BENCHMARKS) ran.

`run` is a target's run method as oeqa's targets have it:
run(command, timeout) -> (status, output). Run as a script, this module does
the same through ssh with the options of oeqa's OESSHTarget, so the logic
can be exercised against a board without oeqa:

  python3 perfguide_quick.py --host 127.0.0.1 --port 2222 \\
      --perfguide target/debug/perfguide --expect "stress-ng/cpu openssl/sha256"
"""
import argparse
import os
import shutil
import subprocess
import sys

# The runner's quick selection (perfguide-bench help: quick).
COMMAND = "perfguide-bench run quick"
# Seconds the quick selection may take on a slow (emulated) board.
TIMEOUT = 900


def tool(td):
    """The host's perfguide: PERFGUIDE_TEST_TOOL of the test data (the image
    recipe points it at perfguide-native), else the one on PATH, else None."""
    path = (td.get("PERFGUIDE_TEST_TOOL") or "").strip()
    if path and os.access(path, os.X_OK):
        return path
    return shutil.which("perfguide")


def expected(td):
    """The benchmarks the image promises, from PERFGUIDE_TEST_BENCHMARKS."""
    return (td.get("PERFGUIDE_TEST_BENCHMARKS") or "").split()


def check(run, perfguide, expect, save=None):
    """Runs the quick selection through `run` and judges its capture with
    `perfguide bench check`. Returns (passed, message); the message holds
    the check's summary and each problem with its capture line, and where the
    capture was saved."""
    status, output = run(COMMAND, TIMEOUT)
    if isinstance(output, bytes):
        output = output.decode("utf-8", "replace")
    if not output.endswith("\n"):
        output += "\n"
    where = ""
    source = "-"
    if save:
        with open(save, "w", encoding="utf-8") as f:
            f.write(output)
        where = "capture: %s\n" % save
        source = save
    argv = [perfguide, "bench", "check"]
    for e in expect:
        argv += ["--expect", e]
    argv.append(source)
    judged = subprocess.run(argv, input=None if save else output, capture_output=True,
                            text=True, check=False)
    message = "%s (runner exit status %d)\n%s%s%s" % (
        COMMAND, status, judged.stdout, judged.stderr, where)
    if judged.returncode not in (0, 1):
        return False, "perfguide bench check could not judge the capture:\n" + message
    return judged.returncode == 0, message


def ssh_run(host, port, user="root"):
    """A run(command, timeout) like oeqa's OESSHTarget.run."""
    ssh = ["ssh", "-l", user, "-o", "ServerAliveCountMax=2", "-o", "ServerAliveInterval=30",
           "-o", "UserKnownHostsFile=/dev/null", "-o", "StrictHostKeyChecking=no",
           "-o", "LogLevel=ERROR"]
    if port:
        ssh += ["-p", str(port)]

    def run(command, timeout):
        argv = ssh + [host, "export PATH=/usr/sbin:/sbin:/usr/bin:/bin; %s" % command]
        try:
            p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               timeout=timeout, check=False)
        except subprocess.TimeoutExpired as e:
            return -15, (e.output or b"").decode("utf-8", "replace")
        return p.returncode, p.stdout.decode("utf-8", "replace").rstrip()
    return run


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--host", required=True, help="the target's address")
    ap.add_argument("--port", type=int, default=22, help="its ssh port (default 22)")
    ap.add_argument("--perfguide", default=shutil.which("perfguide"),
                    help="the host's perfguide (default: the one on PATH)")
    ap.add_argument("--expect", action="append", default=[],
                    help="benchmarks the image promises (ids or suites; repeatable, "
                         "space-separated)")
    ap.add_argument("--save", help="write the capture here")
    a = ap.parse_args(argv)
    if not a.perfguide:
        ap.error("no perfguide on PATH: give --perfguide")
    expect = [e for v in a.expect for e in v.split()]
    passed, message = check(ssh_run(a.host, a.port), a.perfguide, expect, a.save)
    sys.stdout.write(message)
    print("perfguide_bench: %s" % ("PASS" if passed else "FAIL"))
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
