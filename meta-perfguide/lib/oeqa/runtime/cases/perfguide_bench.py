#
# SPDX-License-Identifier: MIT
#
"""testimage case: the image's benchmarks run and print what perfguide reads.

TEST_SUITES += "perfguide_bench" (perfguide-image does it). The logic is in
perfguide_quick.py next to this file.
"""
import os

from oeqa.core.decorator.depends import OETestDepends
from oeqa.runtime.case import OERuntimeTestCase
from oeqa.runtime.decorator.package import OEHasPackage

import perfguide_quick


class PerfguideBenchTest(OERuntimeTestCase):

    @OETestDepends(['ssh.SSHTest.test_ssh'])
    @OEHasPackage(['perfguide-bench'])
    def test_perfguide_bench_quick(self):
        perfguide = perfguide_quick.tool(self.td)
        if not perfguide:
            self.skipTest("no perfguide on the build host: perfguide-native is built when "
                          "PERFGUIDE_SRC_URI names its source (PERFGUIDE_TEST_TOOL: %s)"
                          % self.td.get("PERFGUIDE_TEST_TOOL"))
        expect = perfguide_quick.expected(self.td)
        logdir = self.td.get("TEST_LOG_DIR") or os.getcwd()
        os.makedirs(logdir, exist_ok=True)
        save = os.path.join(logdir, "perfguide-bench-quick.log")
        passed, message = perfguide_quick.check(self.target.run, perfguide, expect, save)
        self.logger.info(message)
        self.assertTrue(passed, msg="the image's benchmarks (expected: %s):\n%s"
                        % (" ".join(expect) or "none", message))
