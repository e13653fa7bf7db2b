SUMMARY = "perfguide benchmarks from meta-arago-test"
DESCRIPTION = "Benchmarks that TI keeps in meta-arago-test: STREAM, and coremark \
               where the release has it."
# nooelint: oelint.vars.homepageping - the project has no public address yet (example.invalid, as in Cargo.toml)
HOMEPAGE = "https://example.invalid/perfguide"
BUGTRACKER = "https://example.invalid/perfguide/issues"
SECTION = "benchmark"
LICENSE = "MIT"

inherit packagegroup

RDEPENDS:${PN} = "\
    ${PERFGUIDE_ARAGO_EXTRA_BENCHMARKS} \
    stream \
"

# coremark is in meta-arago-test from TI Processor SDK 11.02 on; 11.01.08,
# which kas/ti-sdk.yml builds, has none. With a later meta-arago:
#   PERFGUIDE_ARAGO_EXTRA_BENCHMARKS = "coremark"
PERFGUIDE_ARAGO_EXTRA_BENCHMARKS ??= ""
