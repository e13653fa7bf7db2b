#!/usr/bin/env python3
"""The layer's testimage case, its logic against the QEMU reference board.

    case_on_qemu.py [--perfguide PATH] [--work DIR]

meta-perfguide/lib/oeqa/runtime/cases/perfguide_bench.py does its work in
perfguide_quick.check(target.run, perfguide, expected). This runs that same
function with a run() that reaches the board as oeqa's ssh target does
(perfguide_quick.ssh_run: the same ssh options), on the booted reference
board (qemu_ssh_board.py), and asserts:

  1. the image as built passes: every benchmark of the quick selection that
     the reference image has (QEMU_EXPECTED) ran, exited 0 and gave figures;
  2. with stress-ng removed from the booted board the case fails, and its
     message names the benchmark and why (the runner skipped it: not
     installed);
  3. a benchmark that exits non-zero fails the case with its exit status.

Exit status 0 when all three hold; 1 otherwise, with what differed. The
captures and the console are kept in --work.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "meta-perfguide", "lib", "oeqa", "runtime", "cases"))
sys.path.insert(0, HERE)

import perfguide_quick  # noqa: E402
from qemu_ssh_board import BoardError, ssh_board  # noqa: E402

# The quick selection's benchmarks the reference image has (images/boards/qemu-arm64.toml
# bench_packages): what its test data's PERFGUIDE_TEST_BENCHMARKS would be.
QEMU_EXPECTED = ["openssl/sha256", "stress-ng/cpu", "sysbench/cpu", "mbw/mbw",
                 "cyclictest/cyclictest"]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[1])
    ap.add_argument("--perfguide", default=os.path.join(REPO, "target", "debug", "perfguide"))
    ap.add_argument("--work", default=os.path.join(REPO, "target", "oeqa-case"))
    a = ap.parse_args(argv)
    os.makedirs(a.work, exist_ok=True)
    failures = []

    def expect(what, cond, message):
        print("%s: %s" % ("ok" if cond else "FAILED", what))
        if not cond:
            failures.append("%s\n%s" % (what, message))

    try:
        with ssh_board(a.perfguide, log=os.path.join(a.work, "console.log")) as port:
            run = perfguide_quick.ssh_run("127.0.0.1", port)
            passed, message = perfguide_quick.check(
                run, a.perfguide, QEMU_EXPECTED, os.path.join(a.work, "quick.log"))
            print(message)
            expect("the reference image passes (%s)" % " ".join(QEMU_EXPECTED),
                   passed and "%d/%d expected present" % (len(QEMU_EXPECTED),
                                                          len(QEMU_EXPECTED)) in message,
                   message)

            status, out = run("rm /usr/bin/stress-ng", 30)
            expect("stress-ng removed from the board", status == 0, out)
            passed, message = perfguide_quick.check(
                run, a.perfguide, QEMU_EXPECTED, os.path.join(a.work, "quick-no-stress-ng.log"))
            print(message)
            want = ("stress-ng/cpu: expected, but the runner did not run it "
                    "(stress-ng/cpu: not-installed)")
            expect("without stress-ng the case fails and says why",
                   not passed and want in message, message)

            # mbw that exits 3: the runner frames the failure, the check names it.
            status, out = run("printf '#!/bin/sh\\necho broken\\nexit 3\\n' >/usr/bin/mbw && "
                              "chmod 755 /usr/bin/mbw", 30)
            expect("a failing mbw put on the board", status == 0, out)
            passed, message = perfguide_quick.check(
                run, a.perfguide, ["mbw/mbw"], os.path.join(a.work, "quick-mbw-fails.log"))
            print(message)
            expect("a benchmark that fails fails the case",
                   not passed and "mbw/mbw: failed, exit status 3" in message, message)
    except BoardError as e:
        failures.append("the board did not come up: %s" % e)
    if failures:
        sys.stderr.write("case_on_qemu: %d check(s) failed:\n%s\n"
                         % (len(failures), "\n".join(failures)))
        return 1
    print("case_on_qemu: the testimage case's logic holds on the QEMU reference board")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
