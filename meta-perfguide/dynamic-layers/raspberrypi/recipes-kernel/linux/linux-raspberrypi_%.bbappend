# linux-raspberrypi uses linux-yocto.inc (kernel-yocto), which merges the .cfg
# fragments listed in SRC_URI.
# Inert unless the build opts in with DISTROOVERRIDES:append = ":perfguide-instrument".
FILESEXTRAPATHS:prepend:perfguide-instrument := "${THISDIR}/../../../../recipes-kernel/linux/files:"
SRC_URI:append:perfguide-instrument = " file://perfguide-boottime.cfg"
