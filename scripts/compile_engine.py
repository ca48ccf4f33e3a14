"""Compile the engine's hot modules with mypyc, in place (``make compile``).

The compiled extensions sit beside their sources, and the runtime library they share is the
module ``engine._native``, so an installed ``feltwatch`` finds it without the repository on the
path. ``make uncompile`` removes them; everything runs as plain Python without them.

    .venv/bin/python scripts/compile_engine.py engine/hand.py ...
"""

from __future__ import annotations

import os
import sys
import tempfile

from mypyc.build import mypycify
from setuptools import setup


def main() -> int:
    sources = sys.argv[1:]
    if not sources:
        print("usage: compile_engine.py MODULE.py...", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="feltwatch-mypyc-") as build:
        os.environ.setdefault("MYPYC_OPT_LEVEL", "3")
        setup(
            name="feltwatch-engine-native",
            ext_modules=mypycify(sources, separate=[(sources, "engine._native")], target_dir=build),
            script_args=[
                "build_ext",
                "--inplace",
                "--build-temp",
                build,
                "--build-lib",
                build,
                "--quiet",
            ],
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
