################################################################################
#
# perfguide-counter
#
################################################################################

# The program's one copy is the Yocto layer's, in the perfguide repository
# (perfguide.mk).
PERFGUIDE_COUNTER_SITE = $(PERFGUIDE_SITE)
PERFGUIDE_COUNTER_SITE_METHOD = $(PERFGUIDE_SITE_METHOD)
PERFGUIDE_COUNTER_VERSION = $(PERFGUIDE_VERSION)
PERFGUIDE_COUNTER_DL_SUBDIR = $(PERFGUIDE_DL_SUBDIR)
PERFGUIDE_COUNTER_LAYER_FILES = meta-perfguide/recipes-benchmark/perfguide-counter/files
PERFGUIDE_COUNTER_OVERRIDE_SRCDIR_RSYNC_EXCLUSIONS = $(call perfguide-rsync-only,$(PERFGUIDE_COUNTER_LAYER_FILES))
PERFGUIDE_COUNTER_LICENSE = MIT
PERFGUIDE_COUNTER_LICENSE_FILES = $(PERFGUIDE_COUNTER_LAYER_FILES)/perfguide-counter.c

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
