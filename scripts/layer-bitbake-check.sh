#!/usr/bin/env bash
# Developer tool: checks meta-perfguide with real bitbake runs against the
# layers of its kas files. Not part of tests/layer/check.sh; no test needs it.
#
#   scripts/layer-bitbake-check.sh [options] [LAYERS_DIR]
#
# LAYERS_DIR (or $PERFGUIDE_LAYERS_DIR) holds work trees of the kas files'
# repositories under their kas names, at the commits the kas files pin: poky,
# meta-openembedded, meta-raspberrypi (poky.yml); bitbake, openembedded-core,
# meta-openembedded, meta-arm, meta-clang, meta-ti, meta-arago (ti-sdk.yml).
# One directory serves one release (the two pin meta-openembedded apart).
# Nothing is fetched. bitbake runs from poky, or from openembedded-core with
# bitbake next to it, whichever the machine's kas file names. For each meta-perfguide/kas/<machine>.yml it writes a build
# directory as kas would (bblayers.conf: the repositories' layers, sorted;
# local.conf: the local_conf_header sections sorted by name, MACHINE, DISTRO)
# plus a check section (DL_DIR and SSTATE_DIR under the work directory,
# BB_NO_NETWORK), and runs bitbake in two variants:
#
#   on   the kas file as it is (DISTROOVERRIDES:append = ":perfguide-instrument")
#   off  the same without that line
#
# In each: `bitbake -n perfguide-image` (dry run; in "on" also `-c testimage`,
# which must build perfguide-native, and `-c populate_sdk`, which must package
# nativesdk-perfguide) and `bitbake -e` of the global
# configuration, virtual/kernel, virtual/bootloader, perfguide-image and,
# where the machine has them, mc:k3r5:virtual/bootloader (TI K3's R5 SPL),
# perfguide-uenv, trusted-firmware-a, optee-os, rpi-cmdline. It prints per
# machine what reaches the kernel and the firmware (SRC_URI fragments,
# KERNEL_CONFIG_FRAGMENTS, kernel arguments in extlinux.conf / uEnv.txt /
# cmdline.txt / runqemu, TF-A LOG_LEVEL, OP-TEE CFG_TEE_CORE_LOG_LEVEL) and
# checks:
#   - both dry runs succeed;
#   - on: the kernel recipe takes perfguide-boottime.cfg (in SRC_URI, and in
#     KERNEL_CONFIG_FRAGMENTS for recipes without kernel-yocto); the kernel
#     arguments are in at least one place that reaches the kernel; TF-A's
#     LOG_LEVEL >= 20 and OP-TEE's CFG_TEE_CORE_LOG_LEVEL >= 2 when built;
#   - off: no recipe of another layer names anything of perfguide (values and
#     functions of its bitbake -e, layer bookkeeping and the PERFGUIDE_*
#     definitions of layer.conf aside).
#
# Options:
#   -w DIR    work directory: build directories, downloads, sstate, logs
#             (default: LAYERS_DIR/../perfguide-bitbake-check; refused inside
#             the repository)
#   -m LIST   machines, space separated (default: every kas/<machine>.yml)
#   -V LIST   variants (default: "on off")
#   -u USER   when started as root: the user bitbake runs as (it refuses
#             root); created when missing (default: builder)
#   -n        no `bitbake -n` dry runs
#   -s        only `bitbake -n perfguide-image`: no testimage / populate_sdk dry
#             runs (each is minutes more per machine)
#   -r        report only: no bitbake run, the summary and checks of the logs
#             a previous run left in WORK/logs (or WORK/logs-quick with -q)
#   -q        quick: no full parse (so no dry run); the dumps come from
#             bitbake's tinfoil API instead of `bitbake -e`: the configuration
#             parsed once, each recipe file parsed with the bbappends bitbake
#             would apply (BBFILES order, % matching) and written with the
#             variables and functions as `bitbake -e` lists them. The recipe file
#             is chosen by PREFERRED_PROVIDER/PREFERRED_VERSION as read from
#             the file names; seconds per machine instead of a full parse
#   -h        this help
#
# PERFGUIDE_CHECK_EXTRA_CONF=FILE appends FILE to every local.conf (for
# instance PREMIRRORS to local git mirrors before a `bitbake -c unpack` by
# hand in WORK/build/<machine>).
#
# As root it first installs the host tools bitbake's sanity check asks for
# on Debian/Ubuntu (apt-get: chrpath diffstat gawk lz4 locales, iproute2
# iputils-ping procps openssh-client for testimage's host tools, and the
# en_US.UTF-8 locale) and hands the work directory to the user.
#
# Output: one block per machine, and the bitbake logs under
# WORK/logs/<machine>/<variant>/ (-q: WORK/logs-quick/). Exit status 0 when every run and check
# passed.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SELF=$REPO/scripts/$(basename "${BASH_SOURCE[0]}")

usage() {
	sed -n '2,/^set -euo/p' "$SELF" | sed '$d' | sed 's/^# \{0,1\}//'
}

WORK=${PERFGUIDE_CHECK_WORK:-}
MACHINES=${PERFGUIDE_CHECK_MACHINES:-}
VARIANTS=${PERFGUIDE_CHECK_VARIANTS:-on off}
RUN_USER=${PERFGUIDE_CHECK_USER:-builder}
DRY_RUN=${PERFGUIDE_CHECK_DRY_RUN:-1}
QUICK=${PERFGUIDE_CHECK_QUICK:-0}
REPORT_ONLY=${PERFGUIDE_CHECK_REPORT_ONLY:-0}
TASK_DRY=${PERFGUIDE_CHECK_TASK_DRY:-1}
while getopts "w:m:V:u:nsqrh" opt; do
	case $opt in
	w) WORK=$OPTARG ;;
	m) MACHINES=$OPTARG ;;
	V) VARIANTS=$OPTARG ;;
	u) RUN_USER=$OPTARG ;;
	n) DRY_RUN=0 ;;
	s) TASK_DRY=0 ;;
	q) QUICK=1 ;;
	r) REPORT_ONLY=1 ;;
	h)
		usage
		exit 0
		;;
	*)
		usage >&2
		exit 2
		;;
	esac
done
shift $((OPTIND - 1))
LAYERS=${1:-${PERFGUIDE_LAYERS_DIR:-}}
if [ -z "$LAYERS" ] || { [ ! -d "$LAYERS/poky/bitbake" ] && [ ! -d "$LAYERS/bitbake/lib" ]; }; then
	echo "layer-bitbake-check: give the directory holding poky/ (or bitbake/ and openembedded-core/), meta-openembedded/, ... (argument or PERFGUIDE_LAYERS_DIR)" >&2
	exit 2
fi
LAYERS=$(cd "$LAYERS" && pwd)
WORK=${WORK:-$(dirname "$LAYERS")/perfguide-bitbake-check}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
case $WORK/ in
"$REPO"/*)
	echo "layer-bitbake-check: the work directory $WORK is inside the repository; use -w" >&2
	exit 2
	;;
esac

# bitbake refuses root: prepare the host, then run again as RUN_USER.
if [ "$(id -u)" = 0 ]; then
	missing=()
	# ip ping ps scp ssh stty: what oe-core adds to HOSTTOOLS when an image
	# inherits testimage (the kas files' IMAGE_CLASSES).
	for tool in chrpath diffstat gawk lz4c ip ping ps scp ssh stty; do
		if ! command -v $tool >/dev/null 2>&1; then
			case $tool in
			lz4c) missing+=(lz4) ;;
			ip) missing+=(iproute2) ;;
			ping) missing+=(iputils-ping) ;;
			ps) missing+=(procps) ;;
			scp | ssh) missing+=(openssh-client) ;;
			stty) missing+=(coreutils) ;;
			*) missing+=("$tool") ;;
			esac
		fi
	done
	locale -a 2>/dev/null | grep -qix 'en_US.utf8' || missing+=(locales)
	if [ ${#missing[@]} -gt 0 ]; then
		echo "layer-bitbake-check: apt-get install ${missing[*]}"
		apt-get update -qq
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
	fi
	if ! locale -a 2>/dev/null | grep -qix 'en_US.utf8'; then
		sed -i 's/^# *\(en_US.UTF-8 UTF-8\)/\1/' /etc/locale.gen
		locale-gen >/dev/null
	fi
	if ! id "$RUN_USER" >/dev/null 2>&1; then
		echo "layer-bitbake-check: useradd $RUN_USER"
		useradd -m -s /bin/bash "$RUN_USER"
	fi
	chown -R "$RUN_USER": "$WORK"
	exec runuser -u "$RUN_USER" -- env -i HOME="$(getent passwd "$RUN_USER" | cut -d: -f6)" \
		PATH=/usr/local/bin:/usr/bin:/bin LANG=en_US.UTF-8 LC_ALL=en_US.UTF-8 \
		PERFGUIDE_CHECK_WORK="$WORK" PERFGUIDE_CHECK_MACHINES="$MACHINES" \
		PERFGUIDE_CHECK_VARIANTS="$VARIANTS" PERFGUIDE_CHECK_DRY_RUN="$DRY_RUN" \
		PERFGUIDE_CHECK_QUICK="$QUICK" PERFGUIDE_CHECK_REPORT_ONLY="$REPORT_ONLY" \
		PERFGUIDE_CHECK_TASK_DRY="$TASK_DRY" \
		PERFGUIDE_CHECK_EXTRA_CONF="${PERFGUIDE_CHECK_EXTRA_CONF:-}" \
		bash "$SELF" "$LAYERS"
fi

export LANG=${LANG:-en_US.UTF-8} LC_ALL=${LC_ALL:-en_US.UTF-8}
export PERFGUIDE_CHECK_TASK_DRY=$TASK_DRY
# git refuses repositories of another owner (the layers, this repository):
# bitbake only reads their revisions.
git config --global --get-all safe.directory 2>/dev/null | grep -qx '\*' ||
	git config --global --add safe.directory '*'

# Debian's python3 (PyYAML); bitbake itself runs with whatever python3 is on PATH.
PY=/usr/bin/python3
"$PY" -c 'import yaml' 2>/dev/null || {
	echo "layer-bitbake-check: $PY cannot import yaml (apt-get install python3-yaml)" >&2
	exit 2
}

# The tinfoil helper of -q, run inside the build environment.
cat >"$WORK/tinfoil-env.py" <<'PYEOF'
"""Writes bitbake -e style dumps of the configuration and the checked recipes."""
import glob, os, re, sys
logdir = sys.argv[1]
sys.path.insert(0, os.environ["PERFGUIDE_BITBAKE_LIB"])
import bb.data, bb.tinfoil, bb.utils

def emit(f, d):
    """The variables and functions of d as bitbake -e writes them (no history:
    bb.data.emit_env cannot send it over tinfoil's connection)."""
    for k in sorted(d.keys()):
        if k.startswith("__") or ":" in k or not re.fullmatch(r"[A-Za-z0-9_\-./+${}@]+", k):
            continue
        try:
            if d.getVarFlag(k, "func", False):
                py = d.getVarFlag(k, "python", False)
                body = d.getVar(k, False) if py else d.getVar(k)
                f.write("%s%s() {\n%s\n}\n\n" % ("python " if py else "", k, (body or "").rstrip("\n")))
                continue
            v = d.getVar(k)
        except Exception as e:
            f.write("# %s: expansion failed: %s\n" % (k, str(e).splitlines()[0] if str(e) else type(e).__name__))
            continue
        if k == "_task_deps" and isinstance(v, dict):
            v = repr(v)  # as bitbake -e writes it
        if v is None or not isinstance(v, str):
            continue
        v = v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " \\\n")
        f.write('%s%s="%s"\n' % ("export " if d.getVarFlag(k, "export", False) else "", k, v))

def version_of(path, pn):
    b = os.path.basename(path)[:-3]
    return b[len(pn) + 1:] if b.startswith(pn + "_") else ""

def pick(recipes, pn, d):
    cands = [f for f in recipes if os.path.basename(f) == pn + ".bb" or os.path.basename(f).startswith(pn + "_")]
    if not cands:
        return None
    pref = (d.getVar("PREFERRED_VERSION_" + pn) or "").split(":")[-1]
    def best(fs):
        import functools
        return sorted(fs, key=functools.cmp_to_key(
            lambda a, b: bb.utils.vercmp_string(version_of(a, pn) or "0", version_of(b, pn) or "0")))[-1]
    if pref:
        pat = re.escape(pref).replace("%", ".*")
        exact = [f for f in cands if re.fullmatch(pat, version_of(f, pn))]
        if exact:
            return best(exact)
        stem = pref.rstrip("%").rstrip(".")
        near = [f for f in cands if version_of(f, pn) and (stem.startswith(version_of(f, pn)) or version_of(f, pn).startswith(stem))]
        if near:
            return best(near)
    return best(cands)

with bb.tinfoil.Tinfoil(tracking=False) as t:
    t.prepare(config_only=True, quiet=2)
    d = t.config_data
    masks = [re.compile(m) for m in (d.getVar("BBMASK") or "").split()]
    recipes, appends = [], []
    for pat in (d.getVar("BBFILES") or "").split():
        for f in sorted(glob.glob(pat)):
            if any(m.search(f) for m in masks):
                continue
            if f.endswith(".bb") and f not in recipes:
                recipes.append(f)
            elif f.endswith(".bbappend") and f not in appends:
                appends.append(f)
    def appends_of(fn):
        base = os.path.basename(fn)
        out = []
        for a in appends:
            b = os.path.basename(a)[:-len(".bbappend")] + ".bb"
            if b == base or ("%" in b and b.startswith(base[:b.index("%")])):
                out.append(a)
        return out
    overrides = (d.getVar("OVERRIDES") or "").split(":")
    colls = (d.getVar("BBFILE_COLLECTIONS") or "").split()
    boot = d.getVar("PREFERRED_PROVIDER_virtual/bootloader") or "u-boot"
    targets = [("kernel", "virtual/kernel", d.getVar("PREFERRED_PROVIDER_virtual/kernel"), ""),
               ("bootloader", "virtual/bootloader" if d.getVar("PREFERRED_PROVIDER_virtual/bootloader") else "u-boot", boot, ""),
               ("image", "perfguide-image", "perfguide-image", "")]
    if "k3r5" in (d.getVar("BBMULTICONFIG") or "").split():
        targets.append(("k3r5-bootloader", "mc:k3r5:virtual/bootloader", boot, "mc:k3r5:"))
    if "k3" in overrides and "meta-ti-bsp" in colls:
        targets.append(("uenv", "perfguide-uenv", "perfguide-uenv", ""))
    if "k3" in overrides and "meta-arago-distro" in colls:
        targets.append(("tisdk-uenv", "tisdk-uenv", "tisdk-uenv", ""))
    if "meta-arm" in colls and "k3" in overrides:
        targets += [("tfa", "trusted-firmware-a", "trusted-firmware-a", ""), ("optee", "optee-os", "optee-os", "")]
    if "raspberrypi" in colls and "rpi" in overrides:
        targets.append(("rpi-cmdline", "rpi-cmdline", "rpi-cmdline", ""))
    with open(os.path.join(logdir, "targets.txt"), "w") as tf:
        for key, target, pn, mc in targets:
            fn = pick(recipes, pn, d)
            tf.write("%s %s %s %s\n" % (key, target, pn, fn))
            path = os.path.join(logdir, key + ".env")
            if not fn:
                open(path, "w").write("# no recipe file for %s\n" % pn)
                continue
            try:
                rd = t.parse_recipe_file(mc + fn, appends=True, appendlist=appends_of(fn))
            except Exception as e:
                import traceback; open(path, "w").write("# %s: %r\n# %s\n" % (fn, e, traceback.format_exc().replace("\n", "\n# ")))
                continue
            with open(path, "w") as f:
                f.write("# tinfoil: %s%s with %s\n" % (mc, fn, " ".join(appends_of(fn))))
                emit(f, rd)
    # Last: expanding every variable of the configuration may set
    # __BBAUTOREV_SEEN in it (SRCREV = "${AUTOREV}" somewhere), which would
    # fail the parse of every recipe after it.
    with open(os.path.join(logdir, "global.env"), "w") as f:
        emit(f, d)
PYEOF

exec "$PY" - "$REPO" "$LAYERS" "$WORK" "$MACHINES" "$VARIANTS" "$DRY_RUN" "$QUICK" <<'PYEOF'
import ast, os, re, subprocess, sys, time
import yaml

repo, layers_dir, work, machines_arg, variants_arg, dry_run, quick = sys.argv[1:8]
kasdir = os.path.join(repo, "meta-perfguide", "kas")
variants = variants_arg.split()
OPTIN = 'DISTROOVERRIDES:append = ":perfguide-instrument"'
extra_conf = os.environ.get("PERFGUIDE_CHECK_EXTRA_CONF", "")
report_only = os.environ.get("PERFGUIDE_CHECK_REPORT_ONLY") == "1"

def load_kas(name):
    """A kas file merged with its includes, as kas merges them."""
    doc = yaml.safe_load(open(os.path.join(kasdir, name))) or {}
    out = {"repos": {}, "machine": None, "distro": None, "target": None, "local_conf_header": {}}
    for inc in (doc.get("header") or {}).get("includes") or []:
        sub = load_kas(inc)
        for r, spec in sub["repos"].items():
            out["repos"][r] = merge_repo(out["repos"].get(r), spec)
        for k in ("machine", "distro", "target"):
            out[k] = sub[k] or out[k]
        out["local_conf_header"].update(sub["local_conf_header"])
    for r, spec in (doc.get("repos") or {}).items():
        out["repos"][r] = merge_repo(out["repos"].get(r), spec or {})
    for k in ("machine", "distro", "target"):
        out[k] = doc.get(k, out[k])
    out["local_conf_header"].update(doc.get("local_conf_header") or {})
    return out

def merge_repo(old, new):
    m = dict(old or {})
    for k, v in (new or {}).items():
        if k == "layers":
            m["layers"] = dict(m.get("layers") or {}, **(v or {}))
        else:
            m[k] = v
    return m

def repo_path(name, spec):
    if not spec.get("url") and not spec.get("path"):
        return repo                      # the repository holding the kas file
    if spec.get("path") and os.path.isabs(spec["path"]):
        return spec["path"]
    return os.path.join(layers_dir, spec.get("path") or name)

def layer_paths(cfg):
    paths = []
    for name, spec in cfg["repos"].items():
        base = repo_path(name, spec)
        layers = spec.get("layers")
        if not layers:
            paths.append(base)           # kas: a repository without layers is one
        else:
            for l, v in layers.items():
                if v in ("disabled", "excluded"):
                    continue
                paths.append(os.path.normpath(os.path.join(base, l)))
    return sorted(paths)

def write_conf(builddir, cfg, variant):
    conf = os.path.join(builddir, "conf")
    os.makedirs(conf, exist_ok=True)
    missing = [p for p in layer_paths(cfg) if not os.path.isdir(p)]
    if missing:
        raise SystemExit("layer-bitbake-check: missing layers: %s" % " ".join(missing))
    with open(os.path.join(conf, "bblayers.conf"), "w") as f:
        f.write('BBLAYERS ?= " \\\n    ')
        f.write(' \\\n    '.join(layer_paths(cfg)))
        f.write('"\nBBPATH ?= "${TOPDIR}"\nBBFILES ??= ""\n')
    header = ""
    for key, value in sorted(cfg["local_conf_header"].items()):
        header += str(value) + "\n"
    if variant == "off":
        lines = header.splitlines(True)
        kept = [l for l in lines if l.strip() != OPTIN]
        if len(kept) == len(lines):
            raise SystemExit("layer-bitbake-check: no '%s' line in the kas files" % OPTIN)
        header = "".join(kept)
    with open(os.path.join(conf, "local.conf"), "w") as f:
        f.write(header)
        f.write('MACHINE ??= "%s"\n' % cfg["machine"])
        f.write('DISTRO ??= "%s"\n' % (cfg["distro"] or "nodistro"))
        f.write('BBMULTICONFIG ?= ""\n')
        f.write('\n# layer-bitbake-check (variant %s)\n' % variant)
        f.write('DL_DIR = "%s/downloads"\n' % work)
        f.write('SSTATE_DIR = "%s/sstate-cache"\n' % work)
        f.write('BB_NO_NETWORK = "1"\n')
        f.write('BB_SERVER_TIMEOUT = "120"\n')
        if extra_conf and os.path.exists(extra_conf):
            f.write(open(extra_conf).read())

CORE = {"dir": None}

def core_dir():
    """Where oe-init-build-env is: poky, or openembedded-core (bitbake next to it)."""
    return CORE["dir"]

def bitbake_lib():
    d = core_dir()
    lib = os.path.join(d, "bitbake", "lib")
    return lib if os.path.isdir(lib) else os.path.join(os.path.dirname(d), "bitbake", "lib")

def bitbake(builddir, args, log):
    """Runs bitbake in builddir; output to log; returns the exit status
    (report only: the status the log shows)."""
    if report_only:
        if not os.path.exists(log):
            return 1
        text = open(log, errors="replace").read()
        if args.startswith("-n"):
            return 0 if re.search(r"^NOTE: Tasks Summary: .* all succeeded", text, re.M) else 1
        return 1 if re.search(r"^ERROR: ", text, re.M) else 0
    poky = core_dir()
    cmd = 'cd "%s" && . ./oe-init-build-env "%s" >/dev/null && bitbake %s' % (poky, builddir, args)
    with open(log, "w") as f:
        p = subprocess.run(["bash", "-c", cmd], stdout=f, stderr=subprocess.STDOUT)
    return p.returncode

def stop_server(builddir):
    poky = core_dir()
    subprocess.run(["bash", "-c", 'cd "%s" && . ./oe-init-build-env "%s" >/dev/null && bitbake -m' % (poky, builddir)],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

def read_env(path):
    """Final values of a bitbake -e dump: {name: value} (functions as text)."""
    vals, funcs = {}, {}
    if not os.path.exists(path):
        return vals, funcs
    text = open(path, errors="replace").read()
    # variables: NAME="value" (exported ones with "export "), continued lines end in backslash
    for m in re.finditer(r'^(?:export )?([A-Za-z0-9_\-./:+${}@]+)="((?:[^"\\]|\\.|\\\n)*)"$', text, re.M):
        vals[m.group(1)] = m.group(2).replace("\\\n", " ")
    for m in re.finditer(r'^(?:python )?([A-Za-z0-9_\-:]+)\(\) \{\n(.*?)^\}$', text, re.M | re.S):
        funcs[m.group(1)] = m.group(2)
    return vals, funcs

def noncomment_lines(path):
    if not os.path.exists(path):
        return []
    return [l for l in open(path, errors="replace").read().splitlines() if not l.startswith("#")]

# A function of the layer's own (perfguide_*) is only defined, changing nothing,
# unless something else calls it: its definition is dropped, a use elsewhere
# still counts. So is an append to a task under the override, inactive without it.
OWN_FUNCTION = re.compile(r'^(?:python )?(?:perfguide_\w+|[\w-]+:[\w:-]*perfguide-instrument[\w:-]*)\(\) \{$')

def without_own_functions(lines):
    out, inside = [], False
    for l in lines:
        if inside:
            inside = l != "}"
        elif OWN_FUNCTION.match(l):
            inside = True
        else:
            out.append(l)
    return out

# Variables every recipe sees through layer.conf or that only book-keep
# layers: a recipe naming perfguide there is not changed by the layer.
BOOKKEEPING = re.compile(r'^(?:export )?(PERFGUIDE_\w+|BBLAYERS|BBFILES|BBFILES_DYNAMIC|BBPATH|BBFILE_\w+|LAYER\w+|'
                         r'BBINCLUDED|__BBAPPEND|BB_\w+|FILE_LAYERNAME|LICENSE_PATH|BBMASK|SIGGEN_\w+|'
                         r'BUILDCFG_\w*|METADATA_\w+)=')

def words(v, pattern):
    return [w for w in (v or "").split() if re.search(pattern, w)]

def last_level(v, name):
    got = re.findall(r'(?:^|\s)%s=(\d+)' % name, v or "")
    return int(got[-1]) if got else None

def summarize(machine, variant, logdir, targets, results, problems):
    """Prints what the variant's dumps show; appends failed checks to problems."""
    out = []
    g, _ = read_env(os.path.join(logdir, "global.env"))
    overrides = (g.get("OVERRIDES") or "").split(":")
    args = g.get("PERFGUIDE_KERNEL_ARGS", "")
    out.append("  [%s] DISTROOVERRIDES=%s" % (variant, g.get("DISTROOVERRIDES")))
    out.append("  [%s] PERFGUIDE_KERNEL_ARGS=%s" % (variant, args))
    for label, rc in results:
        out.append("  [%s] %s: %s" % (variant, label, rc))
    carriers = []
    kernel_fragment = False
    uenv_boot_file, uenv_args = None, {}
    for key, target, recipe in targets:
        path = os.path.join(logdir, key + ".env")
        v, f = read_env(path)
        if not v:
            out.append("  [%s] %s (%s): no bitbake -e output (see %s)" % (variant, target, recipe, path))
            continue
        pn = v.get("PN", recipe)
        name = "%s (%s)" % (target, pn) if target != pn else pn
        frags = words(v.get("SRC_URI"), r'perfguide|\.cfg$|\.patch$')
        if frags:
            out.append("  [%s] %s SRC_URI: %s" % (variant, name, " ".join(frags)))
        if key == "kernel":
            kyocto = "do_kernel_configme" in f or "kernel_configme" in v.get("__BBTASKS", "")
            kcf = v.get("KERNEL_CONFIG_FRAGMENTS")
            if kcf is not None:
                out.append("  [%s] %s KERNEL_CONFIG_FRAGMENTS=%s" % (variant, name, kcf.strip()))
            in_src = any("perfguide-boottime.cfg" in w for w in frags)
            in_kcf = "perfguide-boottime.cfg" in (kcf or "")
            out.append("  [%s] %s merges fragments by: %s" % (variant, name,
                       "kernel-yocto (.cfg of SRC_URI)" if kyocto else "KERNEL_CONFIG_FRAGMENTS (setup-defconfig.inc)"))
            kernel_fragment = in_src and (kyocto or in_kcf)
        if key in ("bootloader", "k3r5-bootloader"):
            ext = v.get("UBOOT_EXTLINUX", "")
            out.append("  [%s] %s UBOOT_EXTLINUX=%s" % (variant, name, ext))
            if ext == "1":
                for var in ("UBOOT_EXTLINUX_ROOT", "UBOOT_EXTLINUX_KERNEL_ARGS", "UBOOT_EXTLINUX_CONSOLE",
                            "UBOOT_EXTLINUX_KERNEL_IMAGE", "UBOOT_EXTLINUX_FDTDIR"):
                    out.append("  [%s] %s %s=%s" % (variant, name, var, v.get(var, "")))
                line = "%s %s %s" % (v.get("UBOOT_EXTLINUX_ROOT", ""), v.get("UBOOT_EXTLINUX_KERNEL_ARGS", ""),
                                     v.get("UBOOT_EXTLINUX_CONSOLE", ""))
                out.append("  [%s] %s extlinux.conf APPEND %s" % (variant, name, " ".join(line.split())))
                carriers.append(("extlinux.conf of %s" % pn, line))
        if key == "image":
            for var in ("IMAGE_BOOT_FILES", "IMAGE_EFI_BOOT_FILES", "WKS_FILE", "IMAGE_FSTYPES", "EXTRA_IMAGEDEPENDS",
                        "TI_WKS_BOOTLOADER_APPEND", "QB_DEFAULT_BIOS", "QB_DEFAULT_FSTYPE", "QB_DRIVE_TYPE",
                        "QB_FSINFO", "QB_KERNEL_CMDLINE_APPEND"):
                if var in v:
                    out.append("  [%s] %s %s=%s" % (variant, name, var, " ".join(v[var].split())))
            if "qemuall" in overrides and v.get("QB_DEFAULT_BIOS", "") in ("", "none"):
                carriers.append(("runqemu -append (QB_KERNEL_CMDLINE_APPEND)", v["QB_KERNEL_CMDLINE_APPEND"]))
            if "TI_WKS_BOOTLOADER_APPEND" in v and "sdimage-2part-efi" in v.get("WKS_FILE", ""):
                carriers.append(("grub.cfg of the EFI boot partition (bootloader --append)", v["TI_WKS_BOOTLOADER_APPEND"]))
            # which recipes' deploy the image's wic takes: one uEnv.txt, one recipe
            try:
                wic_deps = ast.literal_eval(v.get("_task_deps", "{}")).get("depends", {}).get("do_image_wic", "").split()
            except (ValueError, SyntaxError):
                wic_deps = []
            uenv_from = [r for r in ("perfguide-uenv", "tisdk-uenv") if r + ":do_deploy" in wic_deps]
            out.append("  [%s] %s do_image_wic takes uEnv.txt from: %s" % (variant, name, " ".join(uenv_from) or "(none)"))
            if len(uenv_from) > 1:
                problems.append("%s %s: uEnv.txt deployed by %s: sstate stops the second "
                                "(\"trying to install files into a shared area\")" % (machine, variant, " and ".join(uenv_from)))
            if "uEnv.txt" in v.get("IMAGE_BOOT_FILES", "").split():
                uenv_boot_file = uenv_from
        if key in ("uenv", "tisdk-uenv"):
            fn_name = "do_compile" if key == "uenv" else "do_deploy"
            body = " ".join((f.get(fn_name) or "").split())
            out.append("  [%s] %s %s: %s" % (variant, name, fn_name, body))
            sed = re.search(r"s\|@PERFGUIDE_KERNEL_ARGS@\|([^|]*)\|g", body)
            if sed and "file://uEnv.txt.in" in (v.get("SRC_URI") or "").split():
                uenv_args[pn] = sed.group(1)
        if key == "rpi-cmdline":
            out.append("  [%s] %s CMDLINE=%s" % (variant, name, " ".join(v.get("CMDLINE", "").split())))
            carriers.append(("cmdline.txt (rpi-cmdline CMDLINE)", v.get("CMDLINE", "")))
        if key == "tfa":
            eo = v.get("EXTRA_OEMAKE", "")
            lvl = last_level(eo, "LOG_LEVEL")
            out.append("  [%s] %s TFA_DEBUG=%s EXTRA_OEMAKE: %s -> LOG_LEVEL %s" % (
                variant, name, v.get("TFA_DEBUG"), " ".join(words(eo, r'LOG_LEVEL|^DEBUG=')) or "(no LOG_LEVEL/DEBUG)",
                lvl if lvl is not None else ("40 (debug default)" if v.get("TFA_DEBUG") == "1" else "20 (release default)")))
            eff = lvl if lvl is not None else (40 if v.get("TFA_DEBUG") == "1" else 20)
            if variant == "on" and eff < 20:
                problems.append("%s %s: TF-A LOG_LEVEL %s < 20 (NOTICE: the BL31 banner)" % (machine, variant, eff))
        if key == "optee":
            eo = v.get("EXTRA_OEMAKE", "")
            lvl = last_level(eo, "CFG_TEE_CORE_LOG_LEVEL")
            out.append("  [%s] %s EXTRA_OEMAKE: %s -> CFG_TEE_CORE_LOG_LEVEL %s" % (
                variant, name, " ".join(words(eo, r'LOG_LEVEL')) or "(none)",
                lvl if lvl is not None else "2 (optee_os default)"))
            eff = lvl if lvl is not None else 2
            if variant == "on" and eff < 2:
                problems.append("%s %s: OP-TEE CFG_TEE_CORE_LOG_LEVEL %s < 2 (the I/TC: OP-TEE version line)" % (machine, variant, eff))
        # off: nothing of perfguide in another layer's recipe
        if variant == "off" and key not in ("image", "uenv"):
            # NAME:perfguide-instrument...="..." lines are the override-qualified
            # assignments themselves, inactive without the override.
            hits = [l for l in without_own_functions(noncomment_lines(path)) if re.search(r'perfguide', l, re.I) and not BOOKKEEPING.match(l)
                    and not re.match(r'^(?:export )?[^=\s]*:perfguide-instrument[^=\s]*=', l)]
            if hits:
                problems.append("%s off: %s names perfguide: %s" % (machine, name, hits[0][:200]))
    if uenv_boot_file is not None:
        for r in uenv_boot_file or ["(no recipe of the image's do_image_wic)"]:
            carriers.append(("uEnv.txt in IMAGE_BOOT_FILES, from %s" % r, uenv_args.get(r, "")))
    reach = [c for c in carriers if args and all(a in c[1].split() for a in args.split())]
    for where, val in carriers:
        out.append("  [%s] kernel arguments via %s: %s" % (variant, where,
                   "yes" if (where, val) in reach else "no"))
    if variant == "on":
        if not reach:
            problems.append("%s on: the kernel arguments reach the kernel nowhere" % machine)
        if not kernel_fragment:
            problems.append("%s on: the kernel recipe does not merge perfguide-boottime.cfg" % machine)
    for label, rc in results:
        if rc != "ok":
            problems.append("%s %s: %s %s" % (machine, variant, label, rc))
    print("\n".join(out))

def pin_problems(cfg):
    """Work trees not at the commit the kas file pins."""
    out = []
    for name, spec in cfg["repos"].items():
        want = spec.get("commit")
        if not spec.get("url") or not want:
            continue
        path = repo_path(name, spec)
        head = subprocess.run(["git", "-C", path, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
        if head != want:
            out.append("%s is at %s, the kas file pins %s" % (path, head or "no git commit", want))
    return out

def run_machine(machine):
    cfg = load_kas(machine + ".yml")
    CORE["dir"] = os.path.join(layers_dir, "poky" if "poky" in cfg["repos"] else "openembedded-core")
    builddir = os.path.join(work, "build", machine + ("-quick" if quick == "1" else ""))
    problems = ["%s: %s" % (machine, p) for p in pin_problems(cfg)]
    print("== %s (kas/%s.yml): layers %s" % (machine, machine,
          " ".join(os.path.relpath(p, layers_dir) if p.startswith(layers_dir) else p for p in layer_paths(cfg))))
    sys.stdout.flush()
    for variant in variants:
        logdir = os.path.join(work, "logs" + ("-quick" if quick == "1" else ""), machine, variant)
        os.makedirs(logdir, exist_ok=True)
        if not report_only:
            write_conf(builddir, cfg, variant)
        results = []
        t0 = time.time()
        if quick == "1":
            log = os.path.join(logdir, "tinfoil.log")
            poky = core_dir()
            with open(log, "a" if report_only else "w") as f:
                rc = 0 if report_only else subprocess.run(["bash", "-c", 'cd "%s" && . ./oe-init-build-env "%s" >/dev/null && PERFGUIDE_BITBAKE_LIB="%s" python3 "%s/tinfoil-env.py" "%s"'
                                     % (poky, builddir, bitbake_lib(), work, logdir)], stdout=f, stderr=subprocess.STDOUT).returncode
            results.append(("tinfoil dumps", "ok" if rc == 0 else "FAILED (exit %d, %s)" % (rc, log)))
            targets = []
            if os.path.exists(os.path.join(logdir, "targets.txt")):
                for line in open(os.path.join(logdir, "targets.txt")):
                    key, target, pn, fn = line.split()
                    targets.append((key, target, pn))
            summarize(machine, variant, logdir, targets, results, problems)
            print("  [%s] %.0f s" % (variant, time.time() - t0))
            sys.stdout.flush()
            continue
        rc = bitbake(builddir, "-e", os.path.join(logdir, "global.env"))
        if rc:
            results.append(("bitbake -e", "FAILED (exit %d, %s/global.env)" % (rc, logdir)))
            summarize(machine, variant, logdir, [], results, problems)
            continue
        g, _ = read_env(os.path.join(logdir, "global.env"))
        overrides = (g.get("OVERRIDES") or "").split(":")
        colls = (g.get("BBFILE_COLLECTIONS") or "").split()
        targets = [("kernel", "virtual/kernel", g.get("PREFERRED_PROVIDER_virtual/kernel") or "virtual/kernel"),
                   ("bootloader", "virtual/bootloader", g.get("PREFERRED_PROVIDER_virtual/bootloader") or "u-boot"),
                   ("image", "perfguide-image", "perfguide-image")]
        if not g.get("PREFERRED_PROVIDER_virtual/bootloader"):
            targets[1] = ("bootloader", "u-boot", "u-boot")
        if "k3r5" in (g.get("BBMULTICONFIG") or "").split():
            targets.append(("k3r5-bootloader", "mc:k3r5:virtual/bootloader", "virtual/bootloader"))
        if "k3" in overrides and "meta-ti-bsp" in colls:
            targets.append(("uenv", "perfguide-uenv", "perfguide-uenv"))
        if "k3" in overrides and "meta-arago-distro" in colls:
            targets.append(("tisdk-uenv", "tisdk-uenv", "tisdk-uenv"))
        if "meta-arm" in colls and "k3" in overrides:
            targets.append(("tfa", "trusted-firmware-a", "trusted-firmware-a"))
            targets.append(("optee", "optee-os", "optee-os"))
        if "raspberrypi" in colls and "rpi" in overrides:
            targets.append(("rpi-cmdline", "rpi-cmdline", "rpi-cmdline"))
        for key, target, recipe in targets:
            rc = bitbake(builddir, "-e %s" % target, os.path.join(logdir, key + ".env"))
            if rc:
                results.append(("bitbake -e %s" % target, "FAILED (exit %d, %s/%s.env)" % (rc, logdir, key)))
        if dry_run == "1":
            log = os.path.join(logdir, "dry-run.log")
            rc = bitbake(builddir, "-n perfguide-image", log)
            summary = [l for l in open(log, errors="replace").read().splitlines()
                       if l.startswith(("NOTE: Tasks Summary", "Summary:"))]
            results.append(("bitbake -n perfguide-image", "ok" if rc == 0 else "FAILED (exit %d, %s)" % (rc, log)))
            for l in summary:
                results.append(("  " + l, "ok" if rc == 0 else "FAILED"))
            if variant == "on" and os.environ.get("PERFGUIDE_CHECK_TASK_DRY", "1") == "1":
                # The image's testimage (the layer's case needs perfguide-native) and SDK
                # (nativesdk-perfguide in it) resolve.
                # testimage needs perfguide-native in the sysroot; the SDK installs
                # nativesdk-perfguide's package.
                for task, recipe, made_by in (("testimage", "perfguide-native", "do_populate_sysroot"),
                                              ("populate_sdk", "nativesdk-perfguide", "do_package_write_")):
                    log = os.path.join(logdir, "dry-run-%s.log" % task)
                    rc = bitbake(builddir, "-n perfguide-image -c %s" % task, log)
                    text = open(log, errors="replace").read()
                    variant_of = "native" if recipe == "perfguide-native" else "nativesdk"
                    has = re.search(r"virtual:%s:\S*/perfguide_git\.bb:%s"
                                    % (variant_of, made_by), text) is not None
                    tasks = [l for l in text.splitlines() if l.startswith(("NOTE: Tasks Summary", "Summary:"))]
                    ok = rc == 0 and has
                    results.append(("bitbake -n perfguide-image -c %s: %s built" % (task, recipe),
                                    "ok" if ok else "FAILED (exit %d, %s in the task list: %s; %s)"
                                    % (rc, recipe, "yes" if has else "no", log)))
                    for l in tasks:
                        results.append(("  " + l, "ok" if ok else "FAILED"))
        summarize(machine, variant, logdir, targets, results, problems)
        print("  [%s] %.0f s" % (variant, time.time() - t0))
        sys.stdout.flush()
    if quick != "1" and not report_only:
        stop_server(builddir)
    for p in problems:
        print("  PROBLEM: " + p)
    print("  %s: %s" % (machine, "PASS" if not problems else "FAIL"))
    sys.stdout.flush()
    return problems

if machines_arg.split():
    machines = machines_arg.split()
else:
    machines = sorted(f[:-4] for f in os.listdir(kasdir)
                      if f.endswith(".yml") and (yaml.safe_load(open(os.path.join(kasdir, f))) or {}).get("machine"))
all_problems = []
for m in machines:
    all_problems += run_machine(m)
print("%d machines, %d problems" % (len(machines), len(all_problems)))
sys.exit(1 if all_problems else 0)
PYEOF
