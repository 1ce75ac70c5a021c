"""Regenerate technique_positions.json: for every technique of the ladder, the first position
met while solving the samples (then generated puzzles) where it is the easiest step. The
techniques with public examples (public_examples.py) are kept when met, not waited for.

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

from .helpers import load
from .public_examples import EXAMPLES

OUT = Path(__file__).with_name("technique_positions.json")


# Public puzzles that need a technique neither the samples nor generated puzzles were seen
# to need: the givens of HoDoKu's regression library (reglib-1.3) line 652, a sashimi
# jellyfish. Each is solved for the techniques still missing once the samples are done.
RARE = ["000406000200000004100000036046300500001840000007020010005030041000000000000507320"]


def _puzzles():
    for name in ("top95", "hardest_200", "17clue_500"):
        yield from load(name)
    rng = random.Random(5)
    while True:
        yield make_puzzle(rng.choice(["hard", "expert"]), seed=rng).puzzle


def _position(puzzle: str, board: Board, step) -> dict:
    return {
        "technique": step.technique,
        "rating": step.rating,
        "puzzle": puzzle,
        "grid": board.grid(),
        "candidates": ["".join(map(str, DIGITS_OF[m])) for m in board.cands],
        "placements": step.placements,
        "eliminations": step.eliminations,
    }


def _solve(puzzle: str, found: dict[int, dict]) -> None:
    """Solve the puzzle, keeping each technique's first position not kept yet."""
    board = Board.from_puzzle(puzzle)
    while not board.solved:
        index, step = next((i, s) for i, t in enumerate(LADDER) if (s := t.find(board)))
        if index not in found:
            found[index] = _position(puzzle, board, step)
        board.apply(step)


def main() -> None:
    found: dict[int, dict] = {}
    elsewhere = {e.technique for e in EXAMPLES}
    for puzzle in _puzzles():
        _solve(puzzle, found)
        if all(i in found or t.name in elsewhere for i, t in enumerate(LADDER)):
            break
    for puzzle in RARE:
        _solve(puzzle, found)
    OUT.write_text(json.dumps([found[i] for i in sorted(found)], indent=1) + "\n")


if __name__ == "__main__":
    main()
