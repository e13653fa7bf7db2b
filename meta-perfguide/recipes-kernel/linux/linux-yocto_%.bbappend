# Inert unless the build opts in with DISTROOVERRIDES:append = ":perfguide-instrument".
# kernel-yocto merges the .cfg fragments listed in SRC_URI.
FILESEXTRAPATHS:prepend:perfguide-instrument := "${THISDIR}/files:"
SRC_URI:append:perfguide-instrument = " file://perfguide-boottime.cfg"
