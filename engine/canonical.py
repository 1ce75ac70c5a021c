"""A key equal for two puzzles exactly when one is a transformation of the other.

The key is the lexicographically smallest image of the puzzle under every transformation
(transpose, band and row order, stack and column order) with digits relabelled in order of
first appearance, blanks ordered after every digit so that full rows lead and narrow the
search. It is built row by row, keeping only the partial images that tie for the smallest
prefix; numpy evaluates all column orders of a partial image at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations

import numpy as np

from .grid import parse

BLANK = 10


def _column_orders() -> np.ndarray:
    orders = []
    for stacks in permutations(range(3)):
        for a in permutations(range(3)):
            for b in permutations(range(3)):
                for c in permutations(range(3)):
                    within = (a, b, c)
                    orders.append(
                        [s * 3 + within[i][j] for i, s in enumerate(stacks) for j in range(3)]
                    )
    return np.array(orders, dtype=np.int64)


COLUMN_ORDERS = _column_orders()  # (1296, 9)
_WEIGHTS = 11 ** np.arange(8, -1, -1, dtype=np.int64)


@dataclass
class _Partial:
    """Images that agree on the rows chosen so far, one per surviving column order."""

    grid: np.ndarray  # (9, 9) source digits, transposed or not
    rows: tuple[int, ...]  # source rows placed so far
    orders: np.ndarray  # (n, 9) column orders still tied
    labels: np.ndarray  # (n, 10) source digit -> new label, 0 while unseen
    next_label: np.ndarray  # (n,)

    def next_rows(self) -> list[int]:
        """Source rows that may come next: the rest of the band, or a row of an unused band."""
        k = len(self.rows)
        if k % 3:
            band = self.rows[-1] // 3
            return [r for r in range(band * 3, band * 3 + 3) if r not in self.rows]
        used = {r // 3 for r in self.rows}
        return [r for r in range(9) if r // 3 not in used]

    def image_of(self, row: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each order's relabelled image of the source row, with its updated labels."""
        values = self.grid[row][self.orders]
        labels = self.labels.copy()
        next_label = self.next_label.copy()
        index = np.arange(values.shape[0])
        image = np.empty_like(values)
        for j in range(9):
            v = values[:, j]
            label = labels[index, v]
            new = (v > 0) & (label == 0)
            labels[index[new], v[new]] = next_label[new]
            label = np.where(new, next_label, label)
            next_label = next_label + new
            image[:, j] = np.where(v > 0, label, BLANK)
        return image, labels, next_label


def _rest_is_blank(partial: _Partial, row: int) -> bool:
    used = {*partial.rows, row}
    return not partial.grid[[r for r in range(9) if r not in used]].any()


def canonical(puzzle: str) -> str:
    """The canonical form of a puzzle (or grid): equal for isomorphic puzzles only."""
    source = np.array([int(ch) for ch in parse(puzzle)], dtype=np.int64).reshape(9, 9)
    n = len(COLUMN_ORDERS)
    partials = [
        _Partial(g, (), COLUMN_ORDERS, np.zeros((n, 10), np.int64), np.ones(n, np.int64))
        for g in (source, source.T.copy())
    ]
    rows_out: list[np.ndarray] = []
    all_blank = int(np.full(9, BLANK) @ _WEIGHTS)
    for _ in range(9):
        best_key = None
        best: list[tuple[_Partial, int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
        for partial in partials:
            for row in partial.next_rows():
                image, labels, next_label = partial.image_of(row)
                keys = image @ _WEIGHTS
                key = keys.min()
                if best_key is not None and key > best_key:
                    continue
                if best_key is None or key < best_key:
                    best_key, best = key, []
                best.append((partial, row, keys == key, image, labels, next_label))
        if best_key == all_blank and all(_rest_is_blank(p, row) for p, row, *_ in best):
            # Every row left is empty, so is the rest of the image, whatever the order.
            rows_out.extend(np.full(9, BLANK) for _ in range(9 - len(rows_out)))
            break
        partials = [
            _Partial(p.grid, (*p.rows, row), p.orders[keep], labels[keep], next_label[keep])
            for p, row, keep, _, labels, next_label in best
        ]
        _, _, keep, image, _, _ = best[0]
        rows_out.append(image[keep][0])
    flat = np.concatenate(rows_out)
    flat[flat == BLANK] = 0
    return "".join(map(str, flat.tolist()))
