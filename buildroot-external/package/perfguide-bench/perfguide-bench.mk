################################################################################
#
# perfguide-bench
#
################################################################################

# The runner's one copy is the Yocto layer's, in the perfguide repository
# (perfguide.mk).
PERFGUIDE_BENCH_SITE = $(PERFGUIDE_SITE)
PERFGUIDE_BENCH_SITE_METHOD = $(PERFGUIDE_SITE_METHOD)
PERFGUIDE_BENCH_VERSION = $(PERFGUIDE_VERSION)
PERFGUIDE_BENCH_DL_SUBDIR = $(PERFGUIDE_DL_SUBDIR)
PERFGUIDE_BENCH_LAYER_FILES = meta-perfguide/recipes-benchmark/perfguide-bench/files
PERFGUIDE_BENCH_OVERRIDE_SRCDIR_RSYNC_EXCLUSIONS = $(call perfguide-rsync-only,$(PERFGUIDE_BENCH_LAYER_FILES))
PERFGUIDE_BENCH_LICENSE = MIT
PERFGUIDE_BENCH_LICENSE_FILES = $(PERFGUIDE_BENCH_LAYER_FILES)/perfguide-bench

PERFGUIDE_BENCH_SERVER = $(call qstrip,$(BR2_PACKAGE_PERFGUIDE_BENCH_SERVER))

define PERFGUIDE_BENCH_INSTALL_TARGET_CMDS
	$(INSTALL) -D -m 0755 $(@D)/$(PERFGUIDE_BENCH_LAYER_FILES)/perfguide-bench \
		$(TARGET_DIR)/usr/bin/perfguide-bench
endef

ifneq ($(PERFGUIDE_BENCH_SERVER),)
define PERFGUIDE_BENCH_INSTALL_SERVER_DEFAULT
	mkdir -p $(TARGET_DIR)/etc/default
	echo 'PERFGUIDE_BENCH_SERVER=$(PERFGUIDE_BENCH_SERVER)' > $(TARGET_DIR)/etc/default/perfguide-bench
endef
PERFGUIDE_BENCH_POST_INSTALL_TARGET_HOOKS += PERFGUIDE_BENCH_INSTALL_SERVER_DEFAULT
endif

$(eval $(generic-package))
