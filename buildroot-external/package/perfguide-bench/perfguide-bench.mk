################################################################################
#
# perfguide-bench
#
################################################################################

# The runner's one copy is the Yocto layer's, in the perfguide repository
# that BR2_PERFGUIDE_SITE names: a local directory (an absolute path once make
# has expanded it, e.g. $(BR2_EXTERNAL_PERFGUIDE_PATH)/..) or a git URL,
# fetched at BR2_PERFGUIDE_VERSION.
PERFGUIDE_BENCH_SITE = $(call qstrip,$(BR2_PERFGUIDE_SITE))
ifneq ($(filter /%,$(PERFGUIDE_BENCH_SITE)),)
PERFGUIDE_BENCH_VERSION = 1.0.0
PERFGUIDE_BENCH_SITE_METHOD = local
else
PERFGUIDE_BENCH_VERSION = $(call qstrip,$(BR2_PERFGUIDE_VERSION))
PERFGUIDE_BENCH_SITE_METHOD = git
# one clone for both perfguide packages
PERFGUIDE_BENCH_DL_SUBDIR = perfguide
endif
PERFGUIDE_BENCH_LAYER_FILES = meta-perfguide/recipes-benchmark/perfguide-bench/files
# From a local directory (or a perfguide-bench OVERRIDE_SRCDIR) only the
# runner's folder is copied: the repository also holds cargo's build tree.
PERFGUIDE_BENCH_OVERRIDE_SRCDIR_RSYNC_EXCLUSIONS = \
	--include='/meta-perfguide/' \
	--include='/meta-perfguide/recipes-benchmark/' \
	--include='/meta-perfguide/recipes-benchmark/perfguide-bench/' \
	--include='/$(PERFGUIDE_BENCH_LAYER_FILES)/***' \
	--exclude='*'
PERFGUIDE_BENCH_LICENSE = MIT
PERFGUIDE_BENCH_LICENSE_FILES = $(PERFGUIDE_BENCH_LAYER_FILES)/perfguide-bench

# Fetching or building needs the site (and from git a version); make
# menuconfig, savedefconfig, printvars work without.
ifeq ($(BR2_PACKAGE_PERFGUIDE_BENCH),y)
ifneq ($(BR_BUILDING)$(filter source %-source legal-info %-legal-info,$(MAKECMDGOALS)),)
ifeq ($(PERFGUIDE_BENCH_SITE),)
$(error perfguide-bench: BR2_PERFGUIDE_SITE is empty: set it (External options -> perfguide) to a local directory holding the perfguide repository, e.g. $$(BR2_EXTERNAL_PERFGUIDE_PATH)/.., or to its git URL)
endif
ifeq ($(PERFGUIDE_BENCH_SITE_METHOD)$(PERFGUIDE_BENCH_VERSION),git)
$(error perfguide-bench: BR2_PERFGUIDE_SITE is the git URL $(PERFGUIDE_BENCH_SITE) and BR2_PERFGUIDE_VERSION is empty: set it to the commit or tag to build)
endif
endif
endif

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
