"""Regenerate technique_positions.json: for every technique of the ladder, the first position
met while solving the samples (then generated puzzles) where it is the easiest step.

Run `python -m tests.engine.collect_positions` after changing a technique, read the diff of
the JSON, and check the new eliminations by hand before committing them.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from engine.board import Board
from engine.generator import make_puzzle
from engine.grid import DIGITS_OF
from engine.techniques import LADDER

from .conftest import load

OUT = Path(__file__).with_name("technique_positions.json")


def _puzzles():
    for name in ("top95", "hardest_200", "17clue_500"):
        yield from load(name)
    rng = random.Random(5)
    while True:
        yield make_puzzle(rng.choice(["hard", "expert"]), seed=rng).puzzle


def main() -> None:
    found: dict[int, dict] = {}
    for puzzle in _puzzles():
        board = Board.from_puzzle(puzzle)
        while not board.solved:
            index, step = next((i, s) for i, t in enumerate(LADDER) if (s := t.find(board)))
            if index not in found:
                found[index] = {
                    "technique": step.technique,
                    "rating": step.rating,
                    "puzzle": puzzle,
                    "grid": board.grid(),
                    "candidates": ["".join(map(str, DIGITS_OF[m])) for m in board.cands],
                    "placements": step.placements,
                    "eliminations": step.eliminations,
                }
            board.apply(step)
        if len(found) == len(LADDER):
            break
    OUT.write_text(json.dumps([found[i] for i in sorted(found)], indent=1) + "\n")


if __name__ == "__main__":
    main()
