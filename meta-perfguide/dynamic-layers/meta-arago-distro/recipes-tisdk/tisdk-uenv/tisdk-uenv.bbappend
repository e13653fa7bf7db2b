# The arago distro ships its own uEnv.txt: arago.conf adds it to
# IMAGE_BOOT_FILES and makes do_image_wic depend on this recipe's deploy. Two
# recipes cannot deploy one file (sstate stops the second: "trying to install
# files into a shared area"), so with the perfguide-instrument override on TI
# K3 machines perfguide's uenvcmd goes into this uEnv.txt, from the same
# template perfguide-uenv uses, and perfguide-image leaves perfguide-uenv out
# (dynamic-layers/meta-ti-bsp/recipes-core/images/perfguide-image.bbappend).
FILESEXTRAPATHS:prepend:perfguide-instrument:k3 := "${PERFGUIDE_LAYERDIR}/dynamic-layers/meta-ti-bsp/recipes-bsp/perfguide-uenv/files:"
SRC_URI:append:perfguide-instrument:k3 = " file://uEnv.txt.in"

do_deploy:append:perfguide-instrument:k3() {
    sed -e 's|@PERFGUIDE_KERNEL_ARGS@|${PERFGUIDE_KERNEL_ARGS}|g' ${S}/uEnv.txt.in >>${DEPLOYDIR}/uEnv.txt
}
