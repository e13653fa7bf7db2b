# linux-raspberrypi uses linux-yocto.inc (kernel-yocto), which merges the .cfg
# fragments listed in SRC_URI.
# Inert unless the build opts in with DISTROOVERRIDES:append = ":perfguide".
FILESEXTRAPATHS:prepend:perfguide := "${THISDIR}/../../../../recipes-kernel/linux/files:"
SRC_URI:append:perfguide = " file://perfguide-boottime.cfg"
