"""The validity-preserving transformations of a Sudoku, as a cell map plus a digit map."""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True)
class Transform:
    """Output cell i takes the digit of input cell cells[i], relabelled through digits."""

    cells: tuple[int, ...]
    digits: tuple[int, ...]  # digits[d] is the new label of d; digits[0] == 0

    def apply(self, puzzle: str) -> str:
        """The transformed 81-character puzzle or grid."""
        return "".join(str(self.digits[int(puzzle[c])]) for c in self.cells)


def line_order(rng: random.Random) -> list[int]:
    """A random order of 9 lines that keeps bands (or stacks) together."""
    bands = rng.sample(range(3), 3)
    return [band * 3 + i for band in bands for i in rng.sample(range(3), 3)]


def random_transform(rng: random.Random) -> Transform:
    """A transformation drawn uniformly from the 2 * 6^8 * 9! of them."""
    rows, cols = line_order(rng), line_order(rng)
    transpose = rng.random() < 0.5
    cells = []
    for r in range(9):
        for c in range(9):
            src_r, src_c = rows[r], cols[c]
            if transpose:
                src_r, src_c = src_c, src_r
            cells.append(src_r * 9 + src_c)
    labels = rng.sample(range(1, 10), 9)
    return Transform(tuple(cells), (0, *labels))
