"""The board's cells as templatetags/sudoku.py builds them: a cell's notes written from the
slots kept once a process are the same as written one by one, chain marks or not."""

from __future__ import annotations

import random
import re

from django.utils import translation

from puzzles.templatetags.sudoku import _cell, _Words

NOTES = re.compile(r'<span class="notes" aria-hidden="true">(.*?)</span></div>$')


def slots_one_by_one(notes: list[int], on: list[int], off: list[int]) -> str:
    def mark(d: int) -> str:
        if d in on:
            return ' class="hint-on"'
        return ' class="hint-off"' if d in off else ""

    return " ".join(
        f'<span data-note="{d}"{mark(d)}>{d if d in notes else ""}</span>' for d in range(1, 10)
    )


def test_a_cells_note_slots_are_its_notes_with_or_without_a_chains_marks():
    rng = random.Random(3)
    with translation.override("en"):
        words = _Words()
        for index in range(300):
            notes = sorted(rng.sample(range(1, 10), rng.randint(0, 9)))
            on = sorted(rng.sample(notes, min(len(notes), rng.randint(0, 2)))) if index % 3 else []
            off = [d for d in notes if d not in on][: rng.randint(0, 2)] if index % 3 else []
            cell = {"index": index % 81, "row": 1, "col": 1, "value": 0, "given": False}
            html = _cell(cell | {"notes": notes, "on": on, "off": off}, words)
            (slots,) = NOTES.findall(html)
            assert slots == slots_one_by_one(notes, on, off), (notes, on, off)
