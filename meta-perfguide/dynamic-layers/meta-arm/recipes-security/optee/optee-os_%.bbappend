# meta-arm's optee-os (BL32 on TI K3). perfguide times OP-TEE by its
# "I/TC: OP-TEE version: ..." and "I/TC: Primary CPU switching to normal world
# boot" lines, printed at CFG_TEE_CORE_LOG_LEVEL 2 (info), optee_os' default.
# meta-ti builds AM62x, AM62A, AM62D, AM62L, AM62P and J722S with level 1
# (errors only): replaced by 2. No higher level (debug lines cost boot time).
# Inert unless the build opts in with DISTROOVERRIDES:append = ":perfguide-instrument".
EXTRA_OEMAKE:remove:perfguide-instrument = "CFG_TEE_CORE_LOG_LEVEL=0 CFG_TEE_CORE_LOG_LEVEL=1"
EXTRA_OEMAKE:append:perfguide-instrument = " CFG_TEE_CORE_LOG_LEVEL=2"
