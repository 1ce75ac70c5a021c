"""Sample puzzles and an independent check of solutions, for the engine's tests."""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data"


def load(name: str) -> list[str]:
    """The puzzles of a sample file, one a line, '.' turned into '0'."""
    lines = (DATA / f"{name}.txt").read_text().split()
    return [line.replace(".", "0") for line in lines]


def valid_solution(grid: str, puzzle: str) -> bool:
    """Checked from first principles, sharing nothing with the engine."""
    if len(grid) != 81 or set(grid) - set("123456789"):
        return False
    rows = [grid[r * 9 : r * 9 + 9] for r in range(9)]
    cols = ["".join(row[c] for row in rows) for c in range(9)]
    boxes = [
        "".join(rows[r][c] for r in range(br, br + 3) for c in range(bc, bc + 3))
        for br in (0, 3, 6)
        for bc in (0, 3, 6)
    ]
    if any(len(set(unit)) != 9 for unit in rows + cols + boxes):
        return False
    return all(p == "0" or p == g for p, g in zip(puzzle, grid, strict=True))
