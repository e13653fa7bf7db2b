SUMMARY = "perfguide target-side benchmark runner"
DESCRIPTION = "perfguide-bench lists the benchmarks installed on the target, runs \
               a suite or a benchmark with the invocations of TI's Processor SDK Linux \
               Performance Guides, and frames every result between marker lines that the \
               perfguide host tool cuts apart (docs/bench-framing.md)."
# nooelint: oelint.vars.homepageping - the project has no public address yet (example.invalid, as in Cargo.toml)
HOMEPAGE = "https://example.invalid/perfguide"
BUGTRACKER = "https://example.invalid/perfguide/issues"
SECTION = "benchmark"
LICENSE = "MIT"
LIC_FILES_CHKSUM = "file://perfguide-bench;beginline=15;endline=15;md5=b2dccaa94b3629a08bfb4f983cad6f89"
CVE_PRODUCT = "perfguide"

# files/perfguide-bench is the runner's one copy: the perfguide repository's
# QEMU reference image and Buildroot package take it from here.
SRC_URI = "file://perfguide-bench"

S = "${WORKDIR}"

inherit allarch

# No native/nativesdk variant: a script for the target only; the host side is the perfguide tool
BBCLASSEXTEND = ""

do_configure[noexec] = "1"
do_compile[noexec] = "1"

do_install() {
    install -D -m 0755 ${S}/perfguide-bench ${D}${bindir}/perfguide-bench
}
