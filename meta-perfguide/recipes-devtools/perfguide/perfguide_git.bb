SUMMARY = "perfguide boot-time and performance profiler tools"
DESCRIPTION = "The perfguide command line (boot loops, console capture, \
               statistics, Performance Guide reports) and sbl-instrument (boot image \
               inspection and load-time estimates for TI K3 boot images). The native \
               variant is what the perfguide-instrument class runs on deployed boot images."
# nooelint: oelint.vars.homepageping - the project has no public address yet (example.invalid, as in Cargo.toml)
HOMEPAGE = "https://example.invalid/perfguide"
BUGTRACKER = "https://example.invalid/perfguide/issues"
SECTION = "devel"
CVE_PRODUCT = "perfguide"
LIC_FILES_CHKSUM = "file://meta-perfguide/COPYING.MIT;md5=3cef7a38135a5fc310a964b65b4906a4"
# LICENSE: the workspace's MIT and the license of every crate linked in.
require ${BPN}-license.inc

# The sources: the perfguide repository, named by the build. This layer does
# not assume where it sits; the kas files of the perfguide repository point
# PERFGUIDE_SRC_URI at the repository around them. Elsewhere set, e.g.
#   PERFGUIDE_SRC_URI = "git://git.example.com/perfguide.git;protocol=https;branch=main"
# PERFGUIDE_SRCREV is the commit built; perfguide-crates.inc and
# perfguide-license.inc list that commit's crates, and
# tests/layer/check.sh keeps the three in step with the workspace (its
# Cargo.lock equals the workspace's). After moving it run
# `bitbake -c update_crates perfguide` (or tests/layer/crates_inc.py and
# tests/layer/crates_license.py on that commit).
PERFGUIDE_SRC_URI ??= ""
PERFGUIDE_SRCREV ??= "e12a1af1428bb33509d115fc7ccde4d0a653708c"
PV = "0.1.0+git"
SRC_URI = "${PERFGUIDE_SRC_URI}"
SRCREV = "${PERFGUIDE_SRCREV}"

S = "${WORKDIR}/git"

inherit cargo cargo-update-recipe-crates

require ${BPN}-crates.inc

# Build every binary of the workspace (perfguide, sbl-instrument).
CARGO_BUILD_FLAGS:append = " --workspace --bins"

# native: the perfguide-instrument class reports on deployed boot images and
# testimage's perfguide case reads the benchmark output with it; nativesdk:
# the CLI in the image's SDK (TOOLCHAIN_HOST_TASK of perfguide-image).
BBCLASSEXTEND = "native nativesdk"

# The minimum Rust: 1.75, oe-core scarthgap's. The workspace declares
# rust-version 1.75, so clippy's incompatible_msrv rejects newer std APIs in
# its code, and Cargo.lock was resolved for it (cargo's MSRV-aware resolver,
# lockfile version 3). tests/layer/msrv_lock.py checks every locked crate
# (declared rust-version <= 1.75, no edition 2024; the crates that declare
# none were reviewed) and that this value equals the workspace's; see
# docs/yocto.md. Re-check when SRCREV moves. Older Rust: skip the recipe with
# a clear reason instead of failing in do_compile.
PERFGUIDE_MIN_RUST ??= "1.75"
# nooelint: oelint.task.noanonpython - a parse-time check is the only way to skip the recipe on a too old Rust or no source
python () {
    if not (d.getVar('PERFGUIDE_SRC_URI') or '').strip():
        raise bb.parse.SkipRecipe("PERFGUIDE_SRC_URI is not set: set it (local.conf or your distro) to the "
                                  "perfguide repository, e.g. git://git.example.com/perfguide.git;"
                                  "protocol=https;branch=main, and PERFGUIDE_SRCREV to a commit whose "
                                  "Cargo.lock perfguide-crates.inc lists (meta-perfguide/README)")
    rust = (d.getVar('RUSTVERSION') or '').rstrip('%').strip()
    if rust and bb.utils.vercmp_string_op(rust, d.getVar('PERFGUIDE_MIN_RUST'), '<'):
        raise bb.parse.SkipRecipe("perfguide needs Rust >= %s, this build has RUSTVERSION %s; "
                                  "use a release whose oe-core has it (scarthgap and newer) or a layer "
                                  "with a newer Rust toolchain"
                                  % (d.getVar('PERFGUIDE_MIN_RUST'), rust))
}
