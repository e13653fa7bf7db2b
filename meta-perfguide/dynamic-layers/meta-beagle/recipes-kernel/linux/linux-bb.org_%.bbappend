# meta-beagle's linux-bb.org (the BeagleBone's kernel with meta-beagle's
# default TI_PREFERRED_BSP) configures with meta-ti's setup-defconfig.inc,
# like linux-ti-staging: it merges the absolute paths listed in
# KERNEL_CONFIG_FRAGMENTS, not the .cfg files of SRC_URI.
# Inert unless the build opts in with DISTROOVERRIDES:append = ":perfguide-instrument".
FILESEXTRAPATHS:prepend:perfguide-instrument := "${THISDIR}/../../../../recipes-kernel/linux/files:"
SRC_URI:append:perfguide-instrument = " file://perfguide-boottime.cfg"
KERNEL_CONFIG_FRAGMENTS:append:perfguide-instrument = " ${WORKDIR}/perfguide-boottime.cfg"
