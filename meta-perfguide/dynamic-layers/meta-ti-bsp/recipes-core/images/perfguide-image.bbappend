# TI K3 boards, with the perfguide-instrument override: the kernel arguments.
# The K3 U-Boot (u-boot-ti-staging 2025.01) boots with "run envboot; run
# bootcmd_ti_mmc; bootflow scan -lb": envboot imports uEnv.txt from the SD
# card's boot partition and runs its uenvcmd (perfguide's line, from
# perfguide-uenv/files/uEnv.txt.in: appends the arguments to optargs); bootcmd_ti_mmc then boots /boot/Image of the root
# partition with bootargs made from optargs. Should that fail, bootflow scan
# starts GRUB from the EFI boot partition (meta-ti's sdimage-2part-efi.wks.in),
# whose kernel line ends with TI_WKS_BOOTLOADER_APPEND.
# k3 is meta-ti's override of its K3 machines (SOC_FAMILY in k3.inc).
# nooelint: oelint.vars.mispell.unknown - TI_WKS_BOOTLOADER_APPEND is meta-ti's (k3.inc)
TI_WKS_BOOTLOADER_APPEND:append:perfguide-instrument:k3 = " ${PERFGUIDE_KERNEL_ARGS}"

# The uEnv.txt: perfguide-uenv's, unless the distro ships one (arago:
# tisdk-uenv, which then carries perfguide's lines,
# dynamic-layers/meta-arago-distro); one file, one recipe deploying it.
# nooelint: oelint.task.noanonpython - which recipe deploys uEnv.txt depends on what the distro put in do_image_wic[depends], known only once parsed
python __anonymous() {
    if not {'perfguide-instrument', 'k3'} <= set(d.getVar('OVERRIDES').split(':')):
        return
    wic_deps = (d.getVarFlag('do_image_wic', 'depends') or '').split()
    if 'tisdk-uenv:do_deploy' in wic_deps:
        return
    if 'uEnv.txt' in (d.getVar('IMAGE_BOOT_FILES') or '').split():
        bb.warn('perfguide-image: IMAGE_BOOT_FILES already has a uEnv.txt, not deployed by '
                'perfguide-uenv or tisdk-uenv; PERFGUIDE_KERNEL_ARGS reach the kernel only if '
                'that file appends them to optargs (perfguide-uenv/files/uEnv.txt.in)')
        return
    d.appendVar('IMAGE_BOOT_FILES', ' uEnv.txt')
    d.appendVarFlag('do_image_wic', 'depends', ' perfguide-uenv:do_deploy')
}
