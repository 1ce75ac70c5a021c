"""Helpers of the engine's tests: the public sample files, an independent check of
solutions, and what a careful reader would stop at in a hint's words."""

from __future__ import annotations

import re
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


# The words of hints, read as a player reads them.
UNIT = re.compile(r"\b(?:row|column|box) \d\b")
FULL_CELL = re.compile(r"\brow (\d), column (\d)\b(?!,? (?:and|or) \d|, \d)")
CELL_COLUMNS = re.compile(r"\b(row \d), columns? \d(?:(?:, | and )\d)*")
# A plural noun before one number ("columns 3,"), a singular one before a list ("row 3 and 5").
PLURAL_OF_ONE = re.compile(r"\b(?:rows|columns|boxes|digits|cells) \d\b(?!,? (?:\d|and \d|or \d))")
SINGULAR_OF_MANY = re.compile(r"\b(?:row|column|box|digit|cell) \d(?:, \d)* (?:and|or) \d\b")
CLUMSY = ("or cannot hold it", "The cells row", "The cells rows", " ,", "  ", "..", "None")


def wording_faults(text: str) -> list[str]:
    """What a careful reader would stop at in a hint's text."""
    faults = []
    for clause in re.split(r"[.;:()]", text):
        # A unit named twice, or a cell named by its row and column after naming either;
        # two cells may share a row or column ("row 2, column 3 to row 4, column 3").
        clause = clause.lower()
        implied = {
            f"{kind} {n}"
            for r, c in FULL_CELL.findall(clause)
            for kind, n in (("row", r), ("column", c))
        }
        named = UNIT.findall(CELL_COLUMNS.sub(r"\1", FULL_CELL.sub("a cell", clause)))
        doubled = {name for name in named if named.count(name) > 1 or name in implied}
        if doubled:
            faults.append(f"{sorted(doubled)} named twice in {clause.strip()!r}")
    if re.search(r"\ba 8\b|\ban [1-79]\b", text):
        faults.append("a/an before a digit")
    if re.search(
        r"(?<!and )(?<!or )(?<!, )(?<!row )(?<!column )(?<!box )\b\d, the (?:digits|cells)\b", text
    ):
        faults.append("one digit called 'the digits'")
    faults += [f"plural for one: {m!r}" for m in PLURAL_OF_ONE.findall(text)]
    faults += [f"singular for several: {m!r}" for m in SINGULAR_OF_MANY.findall(text)]
    faults += [f"clumsy: {c!r}" for c in CLUMSY if c in text]
    if re.search(r"\b(\w+) \1\b", text, re.IGNORECASE):
        faults.append("a word twice in a row")
    if text and not text[0].isupper():
        faults.append("not a sentence")
    return faults
