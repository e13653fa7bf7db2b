SUMMARY = "perfguide benchmarks from meta-arago-test"
DESCRIPTION = "Benchmarks that TI keeps in meta-arago-test: STREAM and coremark."
# nooelint: oelint.vars.homepageping - the project has no public address yet (example.invalid, as in Cargo.toml)
HOMEPAGE = "https://example.invalid/perfguide"
BUGTRACKER = "https://example.invalid/perfguide/issues"
SECTION = "benchmark"
LICENSE = "MIT"

inherit packagegroup

RDEPENDS:${PN} = "\
    coremark \
    stream \
"
