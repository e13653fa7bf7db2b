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
LICENSE = "MIT"
LIC_FILES_CHKSUM = "file://meta-perfguide/COPYING.MIT;md5=3cef7a38135a5fc310a964b65b4906a4"

# By default the sources come from the git repository that holds this layer
# (no network needed for them). Point PERFGUIDE_SRC_URI at a published
# repository to build from there instead. SRCREV and perfguide-crates.inc go
# together: after moving SRCREV run `bitbake -c update_crates perfguide`
# (or tests/layer/crates_inc.py on that commit's Cargo.lock).
PERFGUIDE_SRC_URI ??= "git://${PERFGUIDE_SRCDIR};protocol=file;branch=main"
PV = "0.1.0+git"
SRC_URI = "${PERFGUIDE_SRC_URI}"
SRCREV = "4d4daa734645b7bf404144950131dd84c1fcd908"

S = "${WORKDIR}/git"

inherit cargo cargo-update-recipe-crates

require ${BPN}-crates.inc

# Build every binary of the workspace (perfguide, sbl-instrument).
CARGO_BUILD_FLAGS:append = " --workspace --bins"

BBCLASSEXTEND = "native"

# The minimum Rust: 1.75, oe-core scarthgap's. The workspace declares
# rust-version 1.75, so clippy's incompatible_msrv rejects newer std APIs in
# its code, and Cargo.lock was resolved for it (cargo's MSRV-aware resolver,
# lockfile version 3). tests/layer/msrv_lock.py checks every locked crate
# (declared rust-version <= 1.75, no edition 2024; the crates that declare
# none were reviewed) and that this value equals the workspace's; see
# docs/yocto.md. Re-check when SRCREV moves. Older Rust: skip the recipe with
# a clear reason instead of failing in do_compile.
PERFGUIDE_MIN_RUST ??= "1.75"
# nooelint: oelint.task.noanonpython - a parse-time check is the only way to skip the recipe on a too old Rust
python () {
    rust = (d.getVar('RUSTVERSION') or '').rstrip('%').strip()
    if rust and bb.utils.vercmp_string_op(rust, d.getVar('PERFGUIDE_MIN_RUST'), '<'):
        raise bb.parse.SkipRecipe("perfguide needs Rust >= %s, this build has RUSTVERSION %s; "
                                  "use a release whose oe-core has it (scarthgap and newer) or a layer "
                                  "with a newer Rust toolchain"
                                  % (d.getVar('PERFGUIDE_MIN_RUST'), rust))
}
