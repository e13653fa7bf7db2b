SUMMARY = "perfguide benchmarks from meta-networking"
DESCRIPTION = "netperf (TCP_STREAM / TCP_MAERTS throughput, as in TI's \
               Performance Guides)."
# nooelint: oelint.vars.homepageping - the project has no public address yet (example.invalid, as in Cargo.toml)
HOMEPAGE = "https://example.invalid/perfguide"
BUGTRACKER = "https://example.invalid/perfguide/issues"
SECTION = "benchmark"
LICENSE = "MIT"

inherit packagegroup

RDEPENDS:${PN} = "netperf"
