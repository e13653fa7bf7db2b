#!/usr/bin/env python3
"""Check that every package of a Cargo.lock builds with the workspace's
minimum Rust (rust-version of the root Cargo.toml's [workspace.package]).

usage: msrv_lock.py [--verbose] [--msrv X.Y] [CARGO_LOCK [REGISTRY_SRC_DIR]]

  --msrv X.Y        the minimum to check against (default: the root Cargo.toml's)
  CARGO_LOCK        default: Cargo.lock next to the root Cargo.toml
  REGISTRY_SRC_DIR  default: every $CARGO_HOME/registry/src/*/ (run
                    `cargo fetch` first: it unpacks the crates of all targets)

The Yocto recipe builds with oe-core's Rust (1.75 on scarthgap), and cargo
reads the manifest of every crate the lock names, also crates only used on
other targets or only as dev-dependencies. So for each locked crate:

  - rust-version, when declared, is <= the minimum;
  - edition is not newer than the minimum knows (2024 needs 1.85), there is
    no `cargo-features` line, and `resolver` (if any) is "1" or "2";
  - a crate that declares no rust-version is in REVIEWED below (looked at by
    hand: edition and code old enough) - a new one fails until reviewed.

Also: the lock is `version = 3` or older when the minimum is below 1.78
(cargo before 1.78 cannot read version 4).

Prints one line per crate that declares rust-version (sorted, highest first)
with --verbose, and always a summary with the highest declared rust-version.
Exits 1 on any finding.
"""
import glob
import os
import sys
import tomllib

# Crates of the lock that declare no rust-version, reviewed by hand against
# Rust 1.75: edition 2015/2018/2021 and nothing newer than 1.75 used.
# Keyed by name, valued by the reviewed version: another version needs a new look.
def reviewed(name, version):
    """Whether this version of the crate is in REVIEWED (a version, or a tuple of them)."""
    v = REVIEWED.get(name)
    return version == v if isinstance(v, str) else version in (v or ())


REVIEWED = {
    # Compiled for Linux targets: edition <= 2021; no std API newer than 1.75 (clippy's
    # incompatible_msrv with msrv 1.75 run on them, tests/layer/clippy_msrv_deps.sh); no
    # syntax newer than 1.75 (grep: #[expect], const {}, &raw, c"", unsafe extern, use<>,
    # #[diagnostic], async closures, #[unsafe()], exclusive range patterns, cargo:: in build.rs).
    "adler2": "2.0.1", "anes": "0.1.6", "asn1-rs-derive": "0.6.0", "asn1-rs-impl": "0.2.0",
    "bit-set": "0.8.0", "bit-vec": "0.8.0", "bitflags": "1.3.2", "block-buffer": "0.10.4",
    "cast": "0.3.0", "cfg_aliases": "0.2.2", "cpufeatures": "0.2.17", "crc-catalog": "2.5.0",
    "criterion": "0.5.1",
    "criterion-plot": "0.5.0", "crypto-common": "0.1.7", "digest": "0.10.7", "duct": "0.13.7",
    "fnv": "1.0.7", "generic-array": "0.14.7", "itertools": "0.10.5", "lazy_static": "1.5.1",
    "lzma-rs": "0.3.0", "minimal-lexical": "0.2.1", "miniz_oxide": ("0.8.9", "0.9.1"),
    "number_prefix": "0.4.0",
    "oorandom": "11.1.5", "plain": "0.2.3", "quick-error": "1.2.3", "rusticata-macros": "4.1.0",
    "rusty-fork": "0.3.1", "ruzstd": "0.7.3", "same-file": "1.0.6", "scopeguard": "1.2.0",
    "scroll_derive": "0.12.1", "sha1": "0.10.7", "sha2": "0.10.9", "sigchld": "0.2.5",
    "simd-adler32": "0.3.10", "static_assertions": "1.1.0", "synstructure": "0.13.2",
    "tinytemplate": "1.2.1", "twox-hash": "1.6.3", "unarray": "0.1.4", "unescaper": "0.1.8",
    "utf8parse": "0.2.2", "version_check": "0.9.5", "wait-timeout": "0.2.1", "walkdir": "2.5.1",
    # Not compiled for Linux targets (x86_64, aarch64, armv7, musl checked): Windows, macOS,
    # wasm, hermit, Haiku, spirv only, or an optional feature left off. Cargo still reads
    # their manifests: edition <= 2021.
    "android_system_properties": "0.1.6", "core-foundation-sys": "0.8.7", "crunchy": "0.2.4",
    "encode_unicode": "1.0.0", "hermit-abi": "0.5.3", "iana-time-zone-haiku": "0.1.2",
    "io-kit-sys": "0.4.1", "mach2": "0.4.3", "wasi": "0.14.2+wasi-0.2.4",
    "winapi-util": "0.1.11", "wit-bindgen-rt": "0.39.0", "zerocopy-derive": "0.8.64",
}

EDITION_MIN_RUST = {"2015": (1, 0), "2018": (1, 31), "2021": (1, 56), "2024": (1, 85)}


def parse_version(text):
    parts = [int(p) for p in text.strip().split(".")]
    while len(parts) < 3:
        parts.append(0)
    return tuple(parts[:3])


def fmt(v):
    return "%d.%d.%d" % v if v[2] else "%d.%d" % v[:2]


def main(argv):
    verbose = "--verbose" in argv
    args = [a for a in argv if a != "--verbose"]
    msrv_arg = None
    if "--msrv" in args:
        i = args.index("--msrv")
        msrv_arg = args[i + 1]
        del args[i : i + 2]
    repo = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    lock_path = args[0] if args else os.path.join(repo, "Cargo.lock")
    if msrv_arg is None:
        with open(os.path.join(repo, "Cargo.toml"), "rb") as f:
            msrv_arg = tomllib.load(f)["workspace"]["package"]["rust-version"]
    msrv = parse_version(msrv_arg)
    if len(args) > 1:
        src_dirs = [args[1]]
    else:
        cargo_home = os.environ.get("CARGO_HOME", os.path.expanduser("~/.cargo"))
        src_dirs = sorted(glob.glob(os.path.join(cargo_home, "registry", "src", "*")))

    with open(lock_path, "rb") as f:
        lock = tomllib.load(f)
    bad = []
    lock_version = lock.get("version", 1)
    if msrv < (1, 78, 0) and lock_version > 3:
        bad.append("%s: lockfile version %d, cargo %s reads 3 at most" % (lock_path, lock_version, fmt(msrv)))

    declared = []  # (rust-version, name-version)
    undeclared = []
    for pkg in lock.get("package", []):
        if "registry+" not in pkg.get("source", ""):
            continue  # workspace members: checked through the root Cargo.toml
        nv = "%s-%s" % (pkg["name"], pkg["version"])
        manifest = None
        for d in src_dirs:
            p = os.path.join(d, nv, "Cargo.toml")
            if os.path.exists(p):
                manifest = p
                break
        if manifest is None:
            bad.append("%s: not unpacked under %s (run `cargo fetch`)" % (nv, " ".join(src_dirs) or "no registry"))
            continue
        try:
            with open(manifest, "rb") as f:
                man = tomllib.load(f)
        except tomllib.TOMLDecodeError as e:
            bad.append("%s: Cargo.toml does not parse: %s" % (nv, e))
            continue
        if "cargo-features" in man:
            bad.append("%s: cargo-features %s" % (nv, man["cargo-features"]))
        package = man.get("package", {})
        edition = str(package.get("edition", "2015"))
        if edition not in EDITION_MIN_RUST or EDITION_MIN_RUST[edition] > msrv[:2]:
            bad.append("%s: edition %s" % (nv, edition))
        resolver = str(package.get("resolver", "1"))
        if resolver not in ("1", "2"):
            bad.append("%s: resolver %s" % (nv, resolver))
        rv = package.get("rust-version")
        if rv is None:
            undeclared.append((pkg["name"], pkg["version"], nv, edition))
            continue
        v = parse_version(str(rv))
        declared.append((v, nv))
        if v > msrv:
            bad.append("%s: rust-version %s > %s" % (nv, rv, fmt(msrv)))

    declared.sort(reverse=True)
    if verbose:
        for v, nv in declared:
            print("%-8s %s" % (fmt(v), nv))
        for name, version, nv, edition in undeclared:
            ok = reviewed(name, version)
            print("%-8s %s (edition %s)%s" % ("-", nv, edition, "" if ok else " NOT REVIEWED"))
    unreviewed = 0
    for name, version, nv, edition in undeclared:
        if not reviewed(name, version):
            unreviewed += 1
            bad.append("%s: declares no rust-version (edition %s): review it and put it in REVIEWED in %s"
                       % (nv, edition, os.path.relpath(os.path.abspath(__file__), repo)))
    crates = len(declared) + len(undeclared)
    if declared:
        top = declared[0][0]
        tops = ", ".join(nv for v, nv in declared if v == top)
        print("%d crates in %s (lockfile v%d): %d declare rust-version, highest %s (%s); "
              "%d declare none (%d of them reviewed); minimum %s"
              % (crates, os.path.basename(lock_path), lock_version, len(declared), fmt(top), tops,
                 len(undeclared), len(undeclared) - unreviewed, fmt(msrv)))
    for b in bad:
        print("BAD:", b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
