# nooelint: oelint.bbclass.underscores - the class name is part of the documented interface (issue 5, docs/yocto.md); oe-core has hyphenated classes too (core-image, kernel-yocto)
# perfguide-instrument: report on the boot images an image build deploys.
#
# After the boot loaders and the kernel are deployed, runs the native
# sbl-instrument (from the perfguide recipe) on tiboot3.bin, tispl.bin,
# u-boot.img, sysfw.itb and the kernel image found in DEPLOY_DIR_IMAGE and
# writes into the deploy directory, next to the image:
#   <image>.perfguide-boot-images.json   sbl-instrument inspect --format json
#   <image>.perfguide-boot-images.txt    inspect --format table, and
#                                        estimate --medium M when
#                                        PERFGUIDE_BOOT_MEDIUM is set
#
# Used by perfguide-image. The task only runs when PERFGUIDE_INSTRUMENT is
# "1", or "auto" (the default) and the build opted in with the perfguide
# override (DISTROOVERRIDES:append = ":perfguide-instrument"), the build names
# perfguide's source (PERFGUIDE_SRC_URI, see the perfguide recipe) and its Rust
# toolchain can build perfguide-native. Otherwise the task is a no-op without
# dependencies.

PERFGUIDE_INSTRUMENT ??= "auto"
# Same minimum as the perfguide recipe (see the comment there).
PERFGUIDE_MIN_RUST ??= "1.75"

# Files looked up in DEPLOY_DIR_IMAGE; the ones not deployed are skipped.
PERFGUIDE_BOOT_IMAGES ??= "tiboot3.bin tispl.bin u-boot.img sysfw.itb ${KERNEL_IMAGETYPE}"
# A medium id of `sbl-instrument media` for `estimate --medium`; empty: no estimate.
PERFGUIDE_BOOT_MEDIUM ??= ""
PERFGUIDE_REPORT_BASENAME ??= "${IMAGE_NAME}.perfguide-boot-images"
PERFGUIDE_REPORT_LINK ??= "${IMAGE_LINK_NAME}.perfguide-boot-images"

def perfguide_instrument_enabled(d):
    # Said once, when the build parses; not again in each task's worker.
    warn = bb.warn if d.getVar('BB_WORKERCONTEXT') != '1' else (lambda msg: None)
    setting = (d.getVar('PERFGUIDE_INSTRUMENT') or 'auto').strip()
    if setting in ('0', 'no', 'false', ''):
        return False
    overrides = (d.getVar('OVERRIDES') or '').split(':')
    if 'k3r5' in overrides:
        # TI's R5 multiconfig parses images too but never builds one.
        return False
    if setting == 'auto':
        if 'perfguide-instrument' not in overrides:
            return False
        if not (d.getVar('PERFGUIDE_SRC_URI') or '').strip():
            warn("perfguide-instrument: no boot image report for %s: PERFGUIDE_SRC_URI is not set, "
                    "so perfguide-native is not built (set it to the perfguide repository, "
                    "meta-perfguide/README; or PERFGUIDE_INSTRUMENT = \"0\" to silence this)"
                    % d.getVar('PN'))
            return False
        rust = (d.getVar('RUSTVERSION') or '').rstrip('%').strip()
        if rust and bb.utils.vercmp_string_op(rust, d.getVar('PERFGUIDE_MIN_RUST'), '<'):
            warn("perfguide-instrument: no boot image report for %s: perfguide-native needs Rust >= %s, "
                    "RUSTVERSION is %s (set PERFGUIDE_INSTRUMENT = \"0\" to silence this)"
                    % (d.getVar('PN'), d.getVar('PERFGUIDE_MIN_RUST'), rust))
            return False
    return True

# nooelint: oelint.task.noanonpython - dependencies of the task depend on the configuration and must be added at parse time
python () {
    # Expanding PERFGUIDE_KERNEL_ARGS runs layer.conf's check of
    # PERFGUIDE_CONSOLE: an unknown value stops the parse here.
    d.getVar('PERFGUIDE_KERNEL_ARGS')
    if not perfguide_instrument_enabled(d):
        d.setVarFlag('do_perfguide_instrument', 'noexec', '1')
        return
    deps = ['perfguide-native:do_populate_sysroot']
    if d.getVar('PREFERRED_PROVIDER_virtual/kernel'):
        deps.append('virtual/kernel:do_deploy')
    if d.getVar('PREFERRED_PROVIDER_virtual/bootloader'):
        deps.append('virtual/bootloader:do_deploy')
    d.appendVarFlag('do_perfguide_instrument', 'depends', ' ' + ' '.join(deps))
    # TI K3: tiboot3.bin and sysfw.itb come from the R5 (k3r5) multiconfig.
    if 'k3r5' in (d.getVar('BBMULTICONFIG') or '').split():
        d.appendVarFlag('do_perfguide_instrument', 'mcdepends', ' mc::k3r5:virtual/bootloader:do_deploy')
}

do_perfguide_instrument() {
    set --
    for f in ${PERFGUIDE_BOOT_IMAGES}; do
        if [ -e "${DEPLOY_DIR_IMAGE}/$f" ]; then
            set -- "$@" "${DEPLOY_DIR_IMAGE}/$f"
        else
            bbnote "perfguide-instrument: $f is not in ${DEPLOY_DIR_IMAGE}, skipped"
        fi
    done
    if [ $# -eq 0 ]; then
        bbwarn "perfguide-instrument: none of '${PERFGUIDE_BOOT_IMAGES}' is deployed; no report"
        return 0
    fi
    json="${IMGDEPLOYDIR}/${PERFGUIDE_REPORT_BASENAME}.json"
    txt="${IMGDEPLOYDIR}/${PERFGUIDE_REPORT_BASENAME}.txt"
    sbl-instrument inspect --format json "$@" >"$json"
    sbl-instrument inspect --format table "$@" >"$txt"
    if [ -n "${PERFGUIDE_BOOT_MEDIUM}" ]; then
        printf '\n' >>"$txt"
        sbl-instrument estimate --medium "${PERFGUIDE_BOOT_MEDIUM}" "$@" >>"$txt"
    fi
    if [ -n "${PERFGUIDE_REPORT_LINK}" ] && [ "${PERFGUIDE_REPORT_LINK}" != "${PERFGUIDE_REPORT_BASENAME}" ]; then
        ln -sf "$(basename "$json")" "${IMGDEPLOYDIR}/${PERFGUIDE_REPORT_LINK}.json"
        ln -sf "$(basename "$txt")" "${IMGDEPLOYDIR}/${PERFGUIDE_REPORT_LINK}.txt"
    fi
}
do_perfguide_instrument[doc] = "Inspects the deployed boot images with sbl-instrument and writes a JSON and a text report next to the image"
do_perfguide_instrument[vardepsexclude] = "DATETIME"
addtask perfguide_instrument after do_image before do_image_complete
