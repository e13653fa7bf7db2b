# oe-core's u-boot (qemu, Raspberry Pi with RPI_USE_U_BOOT, ...).
# Inert unless the build opts in with DISTROOVERRIDES:append = ":perfguide-instrument".
# u-boot-configure.inc merges the .cfg fragments listed in SRC_URI.
FILESEXTRAPATHS:prepend:perfguide-instrument := "${THISDIR}/files:"
SRC_URI:append:perfguide-instrument = " file://perfguide-bootstage.cfg"
# PERFGUIDE_CONSOLE = "quiet" (layer.conf): the silent console as well.
SRC_URI:append:perfguide-instrument = " ${@'file://perfguide-silent.cfg' if d.getVar('PERFGUIDE_CONSOLE') == 'quiet' else ''}"
# extlinux.conf written by U-Boot's recipe (UBOOT_EXTLINUX = "1").
UBOOT_EXTLINUX_KERNEL_ARGS:append:perfguide-instrument = " ${PERFGUIDE_KERNEL_ARGS}"
