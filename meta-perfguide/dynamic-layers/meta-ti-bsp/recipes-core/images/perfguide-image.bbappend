# TI K3 boards, with the perfguide-instrument override: the kernel arguments.
# The K3 U-Boot (u-boot-ti-staging 2025.01) boots with "run envboot; run
# bootcmd_ti_mmc; bootflow scan -lb": envboot imports uEnv.txt from the SD
# card's boot partition and runs its uenvcmd (perfguide-uenv: appends the
# arguments to optargs); bootcmd_ti_mmc then boots /boot/Image of the root
# partition with bootargs made from optargs. Should that fail, bootflow scan
# starts GRUB from the EFI boot partition (meta-ti's sdimage-2part-efi.wks.in),
# whose kernel line ends with TI_WKS_BOOTLOADER_APPEND.
# k3 is meta-ti's override of its K3 machines (SOC_FAMILY in k3.inc).
IMAGE_BOOT_FILES:append:perfguide-instrument:k3 = " uEnv.txt"
# nooelint: oelint.vars.mispell.unknown - TI_WKS_BOOTLOADER_APPEND is meta-ti's (k3.inc)
TI_WKS_BOOTLOADER_APPEND:append:perfguide-instrument:k3 = " ${PERFGUIDE_KERNEL_ARGS}"
do_image_wic[depends] += "${@'perfguide-uenv:do_deploy' if {'perfguide-instrument', 'k3'} <= set(d.getVar('OVERRIDES').split(':')) else ''}"
