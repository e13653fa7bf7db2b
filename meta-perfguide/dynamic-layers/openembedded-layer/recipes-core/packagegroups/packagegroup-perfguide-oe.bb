SUMMARY = "perfguide benchmarks from meta-oe"
DESCRIPTION = "Benchmarks from meta-oe used by TI's Processor SDK Linux \
               Performance Guides: lmbench, dhrystone, whetstone, linpack, iperf2, iperf3 and \
               fio. coremark is added on releases whose meta-oe has it (wrynose and later); \
               on scarthgap, meta-arago-test has it from TI SDK 11.02 on (packagegroup-perfguide-arago)."
# nooelint: oelint.vars.homepageping - the project has no public address yet (example.invalid, as in Cargo.toml)
HOMEPAGE = "https://example.invalid/perfguide"
BUGTRACKER = "https://example.invalid/perfguide/issues"
SECTION = "benchmark"
LICENSE = "MIT"

inherit packagegroup

RDEPENDS:${PN} = "\
    ${PERFGUIDE_OE_EXTRA_BENCHMARKS} \
    dhrystone \
    fio \
    iperf2 \
    iperf3 \
    linpack \
    lmbench \
    whetstone \
"

# coremark is in meta-oe from wrynose on, coremark-pro only on master: list
# them here when the meta-oe in use has them, e.g.
#   PERFGUIDE_OE_EXTRA_BENCHMARKS = "coremark coremark-pro"
PERFGUIDE_OE_EXTRA_BENCHMARKS ??= ""
