SUMMARY = "uEnv.txt adding perfguide's kernel arguments on TI K3 boards"
DESCRIPTION = "Deploys a uEnv.txt whose uenvcmd appends PERFGUIDE_KERNEL_ARGS \
               (printk.time=1, initcall_debug with PERFGUIDE_INITCALL_DEBUG = \"1\", quiet \
               with PERFGUIDE_CONSOLE = \"quiet\") to optargs. The K3 U-Boot's bootcmd runs \
               envboot, which imports uEnv.txt from the boot partition and runs uenvcmd, then \
               bootcmd_ti_mmc, whose args_all and args_mmc put optargs into bootargs."
# nooelint: oelint.vars.homepageping - the project has no public address yet (example.invalid, as in Cargo.toml)
HOMEPAGE = "https://example.invalid/perfguide"
BUGTRACKER = "https://example.invalid/perfguide/issues"
SECTION = "bootloader"
# A generated boot file, not a product with CVEs of its own.
CVE_PRODUCT = ""
LICENSE = "MIT"
# nooelint: oelint.var.licenseremotefile - uEnv.txt is generated here, there is no upstream source to take a license file from
LIC_FILES_CHKSUM = "file://${COMMON_LICENSE_DIR}/MIT;md5=0835ade698e0bcf8506ecda2f7b4f302"

SRC_URI = "file://uEnv.txt.in"

S = "${WORKDIR}"

inherit deploy nopackages

# sed is all it needs: no compiler, no C library.
INHIBIT_DEFAULT_DEPS = "1"

COMPATIBLE_MACHINE = "k3"
PACKAGE_ARCH = "${MACHINE_ARCH}"

# No native/nativesdk variant: deploys a boot file for the target machine only
BBCLASSEXTEND = ""

do_configure[noexec] = "1"

do_compile() {
    sed -e 's|@PERFGUIDE_KERNEL_ARGS@|${PERFGUIDE_KERNEL_ARGS}|g' ${S}/uEnv.txt.in >${B}/uEnv.txt
}

do_install[noexec] = "1"

do_deploy() {
    install -m 0644 ${B}/uEnv.txt ${DEPLOYDIR}/uEnv.txt
}
addtask deploy after do_compile before do_build
