# Inert unless the build opts in with DISTROOVERRIDES:append = ":perfguide".
# kernel-yocto merges the .cfg fragments listed in SRC_URI.
FILESEXTRAPATHS:prepend:perfguide := "${THISDIR}/files:"
SRC_URI:append:perfguide = " file://perfguide-boottime.cfg"
