# meta-arm's trusted-firmware-a (BL31 on TI K3). perfguide times TF-A by its
# "NOTICE:  BL31: v..." banner, printed at LOG_LEVEL 20 (NOTICE): the level
# of a release build (TFA_DEBUG = "0", as meta-ti builds it). Pinned there so
# that the banner stays and a debug build adds no INFO lines to the boot.
# Inert unless the build opts in with DISTROOVERRIDES:append = ":perfguide-instrument".
EXTRA_OEMAKE:append:perfguide-instrument = " LOG_LEVEL=20"
