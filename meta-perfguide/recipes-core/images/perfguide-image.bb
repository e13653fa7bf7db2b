SUMMARY = "perfguide measurement image"
DESCRIPTION = "A small image for boot-time and benchmark measurements with perfguide: \
               the perfguide-bench runner, the benchmarks whose layers are present, and boot \
               loaders and kernel that report their own timing when the perfguide-instrument override \
               is enabled (DISTROOVERRIDES:append = \":perfguide-instrument\")."
# nooelint: oelint.vars.homepageping - the project has no public address yet (example.invalid, as in Cargo.toml)
HOMEPAGE = "https://example.invalid/perfguide"
BUGTRACKER = "https://example.invalid/perfguide/issues"
SECTION = "image"
# An image is not a product with CVEs of its own; its packages have theirs.
CVE_PRODUCT = ""
LICENSE = "MIT"

inherit core-image perfguide-instrument

# Each benchmark packagegroup only exists when the layer that holds its
# recipes is in BBLAYERS (see BBFILES_DYNAMIC in conf/layer.conf).
PERFGUIDE_PACKAGEGROUPS = "\
    packagegroup-perfguide \
    ${@bb.utils.contains('BBFILE_COLLECTIONS', 'openembedded-layer', 'packagegroup-perfguide-oe', '', d)} \
    ${@bb.utils.contains('BBFILE_COLLECTIONS', 'networking-layer', 'packagegroup-perfguide-networking', '', d)} \
    ${@bb.utils.contains('BBFILE_COLLECTIONS', 'meta-arago-test', 'packagegroup-perfguide-arago', '', d)} \
"

IMAGE_INSTALL = "packagegroup-core-boot ${PERFGUIDE_PACKAGEGROUPS} ${CORE_IMAGE_EXTRA_INSTALL}"
IMAGE_FEATURES += "ssh-server-dropbear"
IMAGE_LINGUAS = ""

# Kernel command line additions (printk.time, optional initcall_debug) for
# images booted with runqemu.
QB_KERNEL_CMDLINE_APPEND:append = " ${PERFGUIDE_KERNEL_ARGS}"
