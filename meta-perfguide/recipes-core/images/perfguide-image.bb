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

# What the packagegroups above promise of the runner's quick selection
# (`perfguide-bench run quick`): the benchmarks testimage's perfguide_bench
# case expects to run and give figures.
PERFGUIDE_TEST_BENCHMARKS = "\
    openssl/sha256 stress-ng/cpu \
    ${@bb.utils.contains('BBFILE_COLLECTIONS', 'openembedded-layer', 'lmbench/lat_syscall-null dhrystone/dhry whetstone/whetstone linpack/linpack_dp', '', d)} \
    ${@bb.utils.contains('BBFILE_COLLECTIONS', 'meta-arago-test', 'stream/stream', '', d)} \
"

# bitbake perfguide-image -c testimage (with IMAGE_CLASSES += "testimage"):
# oe-core's suites and the layer's perfguide_bench case
# (lib/oeqa/runtime/cases/perfguide_bench.py). The case runs the quick
# selection over ssh and judges the capture on the build host with
# perfguide-native's `perfguide bench check`.
TEST_SUITES:append = " perfguide_bench"
PERFGUIDE_TEST_TOOL = "${COMPONENTS_DIR}/${BUILD_ARCH}/perfguide-native${bindir_native}/perfguide"
do_testimage[depends] += "${@'perfguide-native:do_populate_sysroot' if d.getVar('PERFGUIDE_SRC_URI') else ''}"

# The perfguide CLI in the image's SDK (bitbake perfguide-image -c populate_sdk),
# when the build names perfguide's source (the perfguide recipe).
PERFGUIDE_SDK_TOOLS = "${@'nativesdk-perfguide' if d.getVar('PERFGUIDE_SRC_URI') else ''}"
TOOLCHAIN_HOST_TASK:append = " ${PERFGUIDE_SDK_TOOLS}"
IMAGE_FEATURES += "ssh-server-dropbear"
IMAGE_LINGUAS = ""

# Kernel command line additions (printk.time, optional initcall_debug) for
# runqemu's direct boot (-kernel ... -append).
QB_KERNEL_CMDLINE_APPEND:append = " ${PERFGUIDE_KERNEL_ARGS}"

# qemuarm64 with the perfguide-instrument override: runqemu boots through
# U-Boot, so that bootstage times it. QEMU starts oe-core's U-Boot
# (qemu_arm64_defconfig) as its firmware (-bios u-boot.bin); the disk is a wic
# image (wic/perfguide-qemuarm64.wks) on virtio: a FAT boot partition with the
# kernel and the extlinux.conf U-Boot's recipe writes (kernel arguments:
# recipes-bsp/u-boot/u-boot_%.bbappend), then the root file system. runqemu
# treats wic as a disk image and passes no -kernel.
# nooelint: oelint.vars.mispell.unknown - oe-core's qemuboot.bbclass and runqemu read it
QB_DEFAULT_BIOS:perfguide-instrument:qemuarm64 = "u-boot.bin"
QB_DEFAULT_FSTYPE:perfguide-instrument:qemuarm64 = "wic"
QB_DRIVE_TYPE:perfguide-instrument:qemuarm64 = "/dev/vd"
IMAGE_FSTYPES:append:perfguide-instrument:qemuarm64 = " wic"
WKS_FILE:perfguide-instrument:qemuarm64 = "perfguide-qemuarm64.wks"
IMAGE_BOOT_FILES:perfguide-instrument:qemuarm64 = "${KERNEL_IMAGETYPE} extlinux.conf;extlinux/extlinux.conf"
EXTRA_IMAGEDEPENDS:append:perfguide-instrument:qemuarm64 = " u-boot"
do_image_wic[depends] += "${@'u-boot:do_deploy virtual/kernel:do_deploy' if {'perfguide-instrument', 'qemuarm64'} <= set(d.getVar('OVERRIDES').split(':')) else ''}"
