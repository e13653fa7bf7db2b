# oe-core's u-boot (qemu, Raspberry Pi with RPI_USE_U_BOOT, ...).
# Inert unless the build opts in with DISTROOVERRIDES:append = ":perfguide-instrument".
# u-boot-configure.inc merges the .cfg fragments listed in SRC_URI.
FILESEXTRAPATHS:prepend:perfguide-instrument := "${THISDIR}/files:"
SRC_URI:append:perfguide-instrument = " file://perfguide-bootstage.cfg"
# PERFGUIDE_CONSOLE = "quiet" (layer.conf): the silent console as well.
SRC_URI:append:perfguide-instrument = " ${@'file://perfguide-silent.cfg' if d.getVar('PERFGUIDE_CONSOLE') == 'quiet' else ''}"
# Kernel arguments on the APPEND line of the extlinux.conf U-Boot's recipe
# writes when UBOOT_EXTLINUX = "1".
UBOOT_EXTLINUX_KERNEL_ARGS:append:perfguide-instrument = " ${PERFGUIDE_KERNEL_ARGS}"
# qemuarm64: perfguide-image boots runqemu through this U-Boot (-bios
# u-boot.bin, bootflow finds extlinux/extlinux.conf on the wic image's boot
# partition, wic/perfguide-qemuarm64.wks). Root on the virtio disk's second
# partition, the PL011 console, swiotlb=0 as in runqemu's direct boot; no FDT
# line: U-Boot hands on QEMU's device tree.
# nooelint: oelint.vars.mispell - UBOOT_EXTLINUX is oe-core's (uboot-extlinux-config.bbclass, u-boot.inc)
UBOOT_EXTLINUX:perfguide-instrument:qemuarm64 = "1"
# nooelint: oelint.vars.mispell - oe-core's uboot-extlinux-config.bbclass
UBOOT_EXTLINUX_ROOT:perfguide-instrument:qemuarm64 = "root=/dev/vda2"
UBOOT_EXTLINUX_CONSOLE:perfguide-instrument:qemuarm64 = "console=ttyAMA0,115200"
UBOOT_EXTLINUX_FDTDIR:perfguide-instrument:qemuarm64 = ""
UBOOT_EXTLINUX_KERNEL_ARGS:append:perfguide-instrument:qemuarm64 = " swiotlb=0"
