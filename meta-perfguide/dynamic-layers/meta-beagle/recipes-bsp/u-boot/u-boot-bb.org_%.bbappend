# meta-beagle's u-boot-bb.org (the BeagleBone's U-Boot with meta-beagle's
# default TI_PREFERRED_BSP, bb_org-6_12): the same instrumentation as TI's
# U-Boot recipes (recipes-bsp/u-boot/perfguide-uboot-ti.inc; the BeagleBone is
# ti33x: U-Boot proper's report, the MLO's own).
# Inert unless the build opts in with DISTROOVERRIDES:append = ":perfguide-instrument".
require recipes-bsp/u-boot/perfguide-uboot-ti.inc

# ti33x.inc sets UBOOT_EXTLINUX = "1": the recipe writes extlinux.conf, which
# the board's distro boot reads from the SD card's boot partition. The kernel
# arguments go on its APPEND line.
UBOOT_EXTLINUX_KERNEL_ARGS:append:perfguide-instrument = " ${PERFGUIDE_KERNEL_ARGS}"
