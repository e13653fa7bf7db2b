################################################################################
#
# perfguide-counter
#
################################################################################

# The program's one copy is the Yocto layer's, in the perfguide repository
# that BR2_PERFGUIDE_SITE names: a local directory (an absolute path once make
# has expanded it, e.g. $(BR2_EXTERNAL_PERFGUIDE_PATH)/..) or a git URL,
# fetched at BR2_PERFGUIDE_VERSION.
PERFGUIDE_COUNTER_SITE = $(call qstrip,$(BR2_PERFGUIDE_SITE))
ifneq ($(filter /%,$(PERFGUIDE_COUNTER_SITE)),)
PERFGUIDE_COUNTER_VERSION = 1.0
PERFGUIDE_COUNTER_SITE_METHOD = local
else
PERFGUIDE_COUNTER_VERSION = $(call qstrip,$(BR2_PERFGUIDE_VERSION))
PERFGUIDE_COUNTER_SITE_METHOD = git
# one clone for both perfguide packages
PERFGUIDE_COUNTER_DL_SUBDIR = perfguide
endif
PERFGUIDE_COUNTER_LAYER_FILES = meta-perfguide/recipes-benchmark/perfguide-counter/files
# From a local directory (or a perfguide-counter OVERRIDE_SRCDIR) only the
# program's folder is copied: the repository also holds cargo's build tree.
PERFGUIDE_COUNTER_OVERRIDE_SRCDIR_RSYNC_EXCLUSIONS = \
	--include='/meta-perfguide/' \
	--include='/meta-perfguide/recipes-benchmark/' \
	--include='/meta-perfguide/recipes-benchmark/perfguide-counter/' \
	--include='/$(PERFGUIDE_COUNTER_LAYER_FILES)/***' \
	--exclude='*'
PERFGUIDE_COUNTER_LICENSE = MIT
PERFGUIDE_COUNTER_LICENSE_FILES = $(PERFGUIDE_COUNTER_LAYER_FILES)/perfguide-counter.c

# Fetching or building needs the site (and from git a version); make
# menuconfig, savedefconfig, printvars work without.
ifeq ($(BR2_PACKAGE_PERFGUIDE_COUNTER),y)
ifneq ($(BR_BUILDING)$(filter source %-source legal-info %-legal-info,$(MAKECMDGOALS)),)
ifeq ($(PERFGUIDE_COUNTER_SITE),)
$(error perfguide-counter: BR2_PERFGUIDE_SITE is empty: set it (External options -> perfguide) to a local directory holding the perfguide repository, e.g. $$(BR2_EXTERNAL_PERFGUIDE_PATH)/.., or to its git URL)
endif
ifeq ($(PERFGUIDE_COUNTER_SITE_METHOD)$(PERFGUIDE_COUNTER_VERSION),git)
$(error perfguide-counter: BR2_PERFGUIDE_SITE is the git URL $(PERFGUIDE_COUNTER_SITE) and BR2_PERFGUIDE_VERSION is empty: set it to the commit or tag to build)
endif
endif
endif

# Freestanding (no C library, its own _start), static, as the Yocto recipe
# builds it: the wrapper's hardening that would call into a C library (stack
# protector, PIE start-up) is turned off; the linker flags are Buildroot's.
define PERFGUIDE_COUNTER_BUILD_CMDS
	$(TARGET_CC) -O2 -static -nostdlib -ffreestanding -fno-stack-protector -fno-pie -no-pie \
		$(TARGET_LDFLAGS) -o $(@D)/perfguide-counter \
		$(@D)/$(PERFGUIDE_COUNTER_LAYER_FILES)/perfguide-counter.c
endef

define PERFGUIDE_COUNTER_INSTALL_TARGET_CMDS
	$(INSTALL) -D -m 0755 $(@D)/perfguide-counter $(TARGET_DIR)/usr/bin/perfguide-counter
endef

$(eval $(generic-package))
