# TI boards: put uEnv.txt (perfguide's kernel arguments) in the boot
# partition. Only with the perfguide-instrument override and a TI machine.
IMAGE_BOOT_FILES:append:perfguide-instrument:ti-soc = " uEnv.txt"
do_image_wic[depends] += "${@'perfguide-uenv:do_deploy' if {'perfguide-instrument', 'ti-soc'} <= set(d.getVar('OVERRIDES').split(':')) else ''}"
