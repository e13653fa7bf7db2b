#!/usr/bin/python3
"""Validates LAVA job definitions with LAVA's own validator, in strict mode (unknown keys are
errors), as lava-server does on submission: lava_common.schemas.validate of Debian's
lava-common (`apt-get install lava-common`; it is not on PyPI).

usage: lava_validate.py JOB.yaml...
Prints `valid FILE` or `rejected FILE: ERROR` per file; exit 0 when every file is valid,
1 when one is rejected, 2 when lava_common cannot be imported.
"""
import sys

try:
    import yaml
    from lava_common.schemas import validate
    from lava_common.version import __version__
except ImportError as e:
    print(f"lava_common is not importable ({e}): apt-get install lava-common", file=sys.stderr)
    sys.exit(2)

status = 0
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        data = yaml.safe_load(f)
    try:
        validate(data, strict=True)
        print(f"valid {path} (lava-common {__version__})")
    except Exception as e:  # voluptuous.Invalid and its kin
        print(f"rejected {path}: {e}")
        status = 1
sys.exit(status)
