SUMMARY = "perfguide benchmarks from oe-core"
DESCRIPTION = "The perfguide-bench runner and the benchmarks whose recipes are in \
               oe-core: openssl speed (openssl-bin) and stress-ng; on arm64 also \
               perfguide-counter (a quiet boot's bootstage clock)."
# nooelint: oelint.vars.homepageping - the project has no public address yet (example.invalid, as in Cargo.toml)
HOMEPAGE = "https://example.invalid/perfguide"
BUGTRACKER = "https://example.invalid/perfguide/issues"
SECTION = "benchmark"
LICENSE = "MIT"

# Its dependencies differ by architecture (perfguide-counter is arm64 only).
PACKAGE_ARCH = "${TUNE_PKGARCH}"

inherit packagegroup

RDEPENDS:${PN} = "\
    openssl-bin \
    perfguide-bench \
    stress-ng \
"
RDEPENDS:${PN}:append:aarch64 = " perfguide-counter"
