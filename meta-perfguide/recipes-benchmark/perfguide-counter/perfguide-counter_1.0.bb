SUMMARY = "perfguide-counter: the arm64 generic timer read into the kernel log"
DESCRIPTION = "Reads the arm64 generic timer (CNTVCT_EL0, the clock of U-Boot's \
               bootstage marks) and writes the reading to /dev/kmsg and standard \
               output, so that perfguide places a quiet boot's bootstage marks on the \
               host clock (perfguide boot-loop --console quiet)."
# nooelint: oelint.vars.homepageping - the project has no public address yet (example.invalid, as in Cargo.toml)
HOMEPAGE = "https://example.invalid/perfguide"
BUGTRACKER = "https://example.invalid/perfguide/issues"
SECTION = "benchmark"
LICENSE = "MIT"
LIC_FILES_CHKSUM = "file://perfguide-counter.c;beginline=1;endline=1;md5=234d7d4edd08962c0144e4604050e0b6"
CVE_PRODUCT = "perfguide"

# files/perfguide-counter.c is the program's one copy: the perfguide
# repository's QEMU reference image builds it from here.
SRC_URI = "file://perfguide-counter.c"

S = "${WORKDIR}"

# It reads an arm64 system register.
COMPATIBLE_HOST = "aarch64.*-linux"

# No native/nativesdk variant: a program for the target only
BBCLASSEXTEND = ""

# Freestanding (no C library, its own _start), static: the compiler's hardening
# options that would call into a C library (stack protector, PIE start-up) are
# turned off; the linker flags are the distribution's.
do_compile() {
    ${CC} -O2 -static -nostdlib -ffreestanding -fno-stack-protector -fno-pie -no-pie \
        ${LDFLAGS} -o ${B}/perfguide-counter ${S}/perfguide-counter.c
}

do_install() {
    install -D -m 0755 ${B}/perfguide-counter ${D}${bindir}/perfguide-counter
}
