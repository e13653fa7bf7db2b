# meta-ti's u-boot-ti-staging / -mainline / -next, for the A-core U-Boot and
# (k3r5 multiconfig) the R5 SPL: files/k3r5/perfguide-bootstage.cfg replaces
# files/perfguide-bootstage.cfg there (FILESOVERRIDES has the k3r5 override).
# Inert unless the build opts in with DISTROOVERRIDES:append = ":perfguide-instrument".
FILESEXTRAPATHS:prepend:perfguide-instrument := "${THISDIR}/../../../../recipes-bsp/u-boot/files:"
SRC_URI:append:perfguide-instrument = " file://perfguide-bootstage.cfg"
# PERFGUIDE_CONSOLE = "quiet" (layer.conf): the silent console as well. There
# is no files/k3r5 variant: the R5 SPL takes the same fragment, whose
# SPL_SILENT_CONSOLE default drops its "Trying to boot from" lines (the SPL
# banner stays). U-Boot proper is only silent while "silent" is set in its
# environment (docs/yocto.md).
SRC_URI:append:perfguide-instrument = " ${@'file://perfguide-silent.cfg' if d.getVar('PERFGUIDE_CONSOLE') == 'quiet' else ''}"

# oe-core merges the .cfg files of SRC_URI in do_configure, but meta-ti's
# u-boot-mergeconfig.inc then re-runs "make <defconfig> <fragments>" when
# UBOOT_CONFIG_FRAGMENTS is set (e.g. falcon mode), which drops them: merge
# ours again after it.
do_configure:append:perfguide-instrument() {
    if [ -n "${UBOOT_CONFIG_FRAGMENTS}" ] && [ -n "${UBOOT_MACHINE}" ]; then
        merge_config.sh -m -O ${B} ${B}/.config ${@" ".join(find_cfgs(d))}
        oe_runmake -C ${S} O=${B} olddefconfig
    fi
}
