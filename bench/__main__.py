"""Run the benchmarks: python -m bench [section [--option ...] ...]; every section when none
is named. Options after a section's name go to that section (python -m bench human
--players 250,500 --seconds 30)."""

from __future__ import annotations

import importlib
import sys

SECTIONS = ["engine", "pool", "web", "load", "human", "tap", "first_tap", "analyse", "languages"]


def main(argv: list[str]) -> None:
    runs: list[tuple[str, list[str]]] = []
    for word in argv:
        if word in SECTIONS:
            runs.append((word, []))
        elif runs:
            runs[-1][1].append(word)  # an option of the section before, or its value
        else:
            sys.exit(f"unknown section {word!r}; choose from {', '.join(SECTIONS)}")
    for name, options in runs or [(name, []) for name in SECTIONS]:
        module = importlib.import_module(f"bench.{name}")
        module.main(options) if options else module.main()


main(sys.argv[1:])
