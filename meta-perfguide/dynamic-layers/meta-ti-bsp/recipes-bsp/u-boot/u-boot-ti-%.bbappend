# meta-ti's u-boot-ti-staging / -mainline / -next: the A-core U-Boot and, in
# the k3r5 multiconfig, the R5 SPL. The fragments and patches by core are in
# recipes-bsp/u-boot/perfguide-uboot-ti.inc (shared with u-boot-bb.org).
# Inert unless the build opts in with DISTROOVERRIDES:append = ":perfguide-instrument".
require recipes-bsp/u-boot/perfguide-uboot-ti.inc

# Kernel arguments on the APPEND line of the extlinux.conf the recipe writes
# where the machine sets UBOOT_EXTLINUX = "1" (ti33x, ti43x, omap-a15; the
# AM335x U-Boot boots it through distro boot). K3 machines write none.
UBOOT_EXTLINUX_KERNEL_ARGS:append:perfguide-instrument = " ${PERFGUIDE_KERNEL_ARGS}"
