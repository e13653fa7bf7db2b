# meta-raspberrypi's rpi-cmdline writes cmdline.txt, the kernel command line
# the firmware puts in the device tree's /chosen/bootargs; with
# RPI_USE_U_BOOT = "1" U-Boot's boot.scr passes those bootargs on.
# Inert unless the build opts in with DISTROOVERRIDES:append = ":perfguide-instrument".
# nooelint: oelint.vars.mispell - CMDLINE is rpi-cmdline's own variable
CMDLINE:append:perfguide-instrument = " ${PERFGUIDE_KERNEL_ARGS}"
