# meta-ti's linux-ti-staging does not inherit kernel-yocto: its do_configure
# (setup-defconfig.inc) merges the absolute paths listed in
# KERNEL_CONFIG_FRAGMENTS, not the .cfg files of SRC_URI.
# Inert unless the build opts in with DISTROOVERRIDES:append = ":perfguide-instrument".
FILESEXTRAPATHS:prepend:perfguide-instrument := "${THISDIR}/../../../../recipes-kernel/linux/files:"
SRC_URI:append:perfguide-instrument = " file://perfguide-boottime.cfg"
KERNEL_CONFIG_FRAGMENTS:append:perfguide-instrument = " ${WORKDIR}/perfguide-boottime.cfg"
