################################################################################
#
# The perfguide repository, where the perfguide packages take their programs
# from (each one's single copy is in the Yocto layer,
# meta-perfguide/recipes-benchmark/<package>/files/). Included by external.mk
# before the packages, which set <PKG>_SITE = $(PERFGUIDE_SITE) and so on.
#
################################################################################

# BR2_PERFGUIDE_SITE: a local directory (an absolute path once make has
# expanded it, e.g. $(BR2_EXTERNAL_PERFGUIDE_PATH)/..) or a git URL, fetched
# at BR2_PERFGUIDE_VERSION.
PERFGUIDE_SITE = $(call qstrip,$(BR2_PERFGUIDE_SITE))
ifneq ($(filter /%,$(PERFGUIDE_SITE)),)
PERFGUIDE_SITE_METHOD = local
PERFGUIDE_VERSION = local
else
PERFGUIDE_SITE_METHOD = git
PERFGUIDE_VERSION = $(call qstrip,$(BR2_PERFGUIDE_VERSION))
endif
# one clone for every perfguide package (unused by the local method)
PERFGUIDE_DL_SUBDIR = perfguide

# $(call perfguide-parents,a/b/c): a a/b a/b/c
perfguide-parents = $(if $(filter-out .,$(1)),$(call perfguide-parents,$(patsubst %/,%,$(dir $(1)))) $(1))

# $(call perfguide-rsync-only,FOLDER): the <PKG>_OVERRIDE_SRCDIR_RSYNC_EXCLUSIONS
# that copy FOLDER of the repository and nothing else (from a local
# directory, or an OVERRIDE_SRCDIR: the repository also holds cargo's build
# tree).
perfguide-rsync-only = \
	$(foreach d,$(call perfguide-parents,$(patsubst %/,%,$(dir $(1)))),--include='/$(d)/') \
	--include='/$(1)/***' --exclude='*'

# Fetching or building needs the site (and from git a version); make
# menuconfig, savedefconfig, printvars work without.
ifneq ($(filter y,$(BR2_PACKAGE_PERFGUIDE_BENCH) $(BR2_PACKAGE_PERFGUIDE_COUNTER)),)
ifneq ($(BR_BUILDING)$(filter source %-source legal-info %-legal-info,$(MAKECMDGOALS)),)
ifeq ($(PERFGUIDE_SITE),)
$(error perfguide packages: BR2_PERFGUIDE_SITE is empty: set it (External options -> perfguide) to a local directory holding the perfguide repository, e.g. $$(BR2_EXTERNAL_PERFGUIDE_PATH)/.., or to its git URL)
endif
ifeq ($(PERFGUIDE_SITE_METHOD)$(PERFGUIDE_VERSION),git)
$(error perfguide packages: BR2_PERFGUIDE_SITE is the git URL $(PERFGUIDE_SITE) and BR2_PERFGUIDE_VERSION is empty: set it to the commit or tag to build)
endif
endif
endif
