################################################################################
#
# perfguide-bench
#
################################################################################

# The script's one copy is the Yocto layer's (meta-perfguide, next to this
# tree in the perfguide repository), shared with the QEMU reference image.
PERFGUIDE_BENCH_VERSION = 1.0.0
PERFGUIDE_BENCH_SITE = $(BR2_EXTERNAL_PERFGUIDE_PATH)/../meta-perfguide/recipes-benchmark/perfguide-bench/files
PERFGUIDE_BENCH_SITE_METHOD = local
PERFGUIDE_BENCH_LICENSE = MIT
PERFGUIDE_BENCH_LICENSE_FILES = perfguide-bench

PERFGUIDE_BENCH_SERVER = $(call qstrip,$(BR2_PACKAGE_PERFGUIDE_BENCH_SERVER))

define PERFGUIDE_BENCH_INSTALL_TARGET_CMDS
	$(INSTALL) -D -m 0755 $(@D)/perfguide-bench $(TARGET_DIR)/usr/bin/perfguide-bench
endef

ifneq ($(PERFGUIDE_BENCH_SERVER),)
define PERFGUIDE_BENCH_INSTALL_SERVER_DEFAULT
	mkdir -p $(TARGET_DIR)/etc/default
	echo 'PERFGUIDE_BENCH_SERVER=$(PERFGUIDE_BENCH_SERVER)' > $(TARGET_DIR)/etc/default/perfguide-bench
endef
PERFGUIDE_BENCH_POST_INSTALL_TARGET_HOOKS += PERFGUIDE_BENCH_INSTALL_SERVER_DEFAULT
endif

$(eval $(generic-package))
