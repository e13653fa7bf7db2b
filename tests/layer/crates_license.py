#!/usr/bin/env python3
"""The LICENSE of the perfguide recipe, from the licenses the crates declare.

usage: crates_license.py METADATA_JSON      (prints perfguide-license.inc)

METADATA_JSON is `cargo metadata --format-version 1 --locked
--filter-platform <target>` of the workspace (`-` for stdin). The crates
linked into the recipe's binaries are the workspace's packages that have a
binary target, and everything they reach through normal dependencies
(`dep_kinds` kind null) on that platform; a proc-macro crate runs in the
compiler, is not linked, and its dependencies are only followed through it
when something linked needs them too. Each crate's SPDX expression is turned
into OE's LICENSE syntax (OR `|`, AND `&`, `A WITH B` as OE's
common-licenses names it); the recipe's LICENSE is the `&` of the distinct
expressions, sorted, each parenthesised when it has an operator.

Exit status 1, naming the crate, when a linked crate declares no license (a
`license-file` only) or uses an SPDX name this script has no OE name for:
the recipe cannot then state what it links, and the crate's license must be
looked at by a person and added to OE_NAMES (and, when OE's
common-licenses lacks it, to NO_GENERIC_LICENSE in the recipe).

tests/layer/check.sh compares the output with
meta-perfguide/recipes-devtools/perfguide/perfguide-license.inc.
"""
import json
import re
import sys

# SPDX names as crates write them -> OE's (meta/files/common-licenses and
# SPDXLICENSEMAP). A name not here is an error: see the docstring.
OE_NAMES = {
    "0BSD": "0BSD",
    "Apache-2.0": "Apache-2.0",
    "Apache-2.0 WITH LLVM-exception": "Apache-2.0-with-LLVM-exception",
    "BSD-2-Clause": "BSD-2-Clause",
    "BSD-3-Clause": "BSD-3-Clause",
    "BSL-1.0": "BSL-1.0",
    "CC0-1.0": "CC0-1.0",
    "GPL-3.0": "GPL-3.0-only",
    "ISC": "ISC",
    "MIT": "MIT",
    "MPL-2.0": "MPL-2.0",
    "Unicode-DFS-2016": "Unicode-DFS-2016",
    "Unlicense": "Unlicense",
    "Zlib": "Zlib",
}

TOKEN = re.compile(r"\s*(\(|\)|[A-Za-z0-9.+-]+(?:\s+WITH\s+[A-Za-z0-9.+-]+)?)")


class LicenseError(Exception):
    pass


def oe_expression(spdx: str, crate: str) -> str:
    """`MIT OR Apache-2.0` -> `MIT | Apache-2.0`; `/` (old Cargo style) is OR."""
    text = spdx.replace("/", " OR ")
    out = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = TOKEN.match(text, pos)
        if not m:
            raise LicenseError("%s: cannot read license %r at %r" % (crate, spdx, text[pos:]))
        tok = re.sub(r"\s+", " ", m.group(1))
        pos = m.end()
        if tok in ("(", ")"):
            out.append(tok)
        elif tok == "OR":
            out.append("|")
        elif tok == "AND":
            out.append("&")
        elif tok in OE_NAMES:
            out.append(OE_NAMES[tok])
        else:
            raise LicenseError(
                "%s: license %r has no OE name in tests/layer/crates_license.py OE_NAMES; "
                "read the crate's license, add it there and, if OE's common-licenses "
                "lacks it, to NO_GENERIC_LICENSE in perfguide_git.bb" % (crate, tok))
    expr = " ".join(out).replace("( ", "(").replace(" )", ")")
    if not expr:
        raise LicenseError("%s: empty license %r" % (crate, spdx))
    return expr


def linked(meta: dict) -> list:
    """The packages linked into the workspace's binaries, by id."""
    by_id = {p["id"]: p for p in meta["packages"]}
    nodes = {n["id"]: n for n in meta["resolve"]["nodes"]}

    def is_proc_macro(pkg):
        return any("proc-macro" in t["kind"] for t in pkg["targets"])

    roots = [pid for pid in meta["workspace_members"]
             if any("bin" in t["kind"] for t in by_id[pid]["targets"])]
    seen = set()
    todo = list(roots)
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        for dep in nodes[pid]["deps"]:
            if not any(k["kind"] is None for k in dep["dep_kinds"]):
                continue
            if is_proc_macro(by_id[dep["pkg"]]):
                continue
            todo.append(dep["pkg"])
    return sorted((by_id[pid] for pid in seen), key=lambda p: (p["name"], p["version"]))


def license_inc(meta: dict) -> str:
    exprs = {}
    for pkg in linked(meta):
        crate = "%s %s" % (pkg["name"], pkg["version"])
        if not pkg.get("license"):
            raise LicenseError("%s: declares no SPDX license (license-file %r)"
                               % (crate, pkg.get("license_file")))
        expr = oe_expression(pkg["license"], crate)
        if any(op in expr for op in ("|", "&")):
            expr = "(%s)" % expr
        exprs.setdefault(expr, []).append(pkg["name"])
    count = sum(len(v) for v in exprs.values())
    out = ["# The licenses of the %d crates linked into perfguide and sbl-instrument" % count,
           "# (the workspace's own is MIT), from their Cargo metadata. Generated:",
           "#   cargo metadata --format-version 1 --locked \\",
           "#     --filter-platform aarch64-unknown-linux-gnu | tests/layer/crates_license.py -",
           "LICENSE = \"\\"]
    for expr in sorted(exprs):
        out.append("    %s \\" % expr if expr == sorted(exprs)[0] else "    & %s \\" % expr)
    out.append("\"")
    return "\n".join(out) + "\n"


def main(argv):
    if len(argv) != 2:
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    try:
        src = sys.stdin if argv[1] == "-" else open(argv[1], encoding="utf-8")
        meta = json.load(src)
        sys.stdout.write(license_inc(meta))
    except (OSError, ValueError) as e:
        sys.stderr.write("crates_license.py: %s: %s\n" % (argv[1], e))
        return 1
    except LicenseError as e:
        sys.stderr.write("crates_license.py: %s\n" % e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
