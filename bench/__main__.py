"""Run the benchmarks: python -m bench [section ...]; every section when none is named."""

from __future__ import annotations

import importlib
import sys

SECTIONS = ["engine", "pool", "web", "load"]


def main(argv: list[str]) -> None:
    for name in argv or SECTIONS:
        if name not in SECTIONS:
            sys.exit(f"unknown section {name!r}; choose from {', '.join(SECTIONS)}")
        importlib.import_module(f"bench.{name}").main()


main(sys.argv[1:])
