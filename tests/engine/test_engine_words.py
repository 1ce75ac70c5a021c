"""The engine's words in another language: a catalog of a few sentences, compiled, makes a
hint on a real position German, while without it the same hint is the English it was, and
a translation may put the placeholders in its own order."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

import engine
import engine.i18n
from engine.i18n import speaking

from .helpers import load

PUZZLE = load("top95")[0]
SOLUTION = engine.solve(PUZZLE)
# The solution with its first cell emptied: row 1 has one empty cell left.
GRID = "0" + SOLUTION[1:]

GERMAN_PO = r"""msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"
"Language: de\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

msgid "row {row}, column {column}"
msgstr "Zeile {row}, Spalte {column}"

msgid "row {number}"
msgstr "Zeile {number}"

msgid "{unit} has one empty cell left and one digit missing."
msgstr "{unit} hat noch eine leere Zelle, und eine Ziffer fehlt."

msgid "So {place} is {digit}."
msgstr "Also kommt {digit} nach {place}."

msgid "Last empty cell"
msgstr "Letzte leere Zelle"
"""


@pytest.fixture
def german(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A German catalog of a few of the engine's sentences, the engine pointed at it."""
    folder = tmp_path / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "engine.po").write_text(GERMAN_PO, encoding="utf-8")
    subprocess.run(
        ["/usr/bin/msgfmt", "-o", str(folder / "engine.mo"), str(folder / "engine.po")],
        check=True,
    )
    monkeypatch.setattr(engine.i18n, "LOCALE_DIR", tmp_path)
    engine.i18n.catalog.cache_clear()
    yield
    engine.i18n.catalog.cache_clear()


def test_english_hint_as_before() -> None:
    step = engine.next_step(GRID)
    told = engine.tell(step, 3)
    assert told["technique"] == "Last empty cell (full house)"
    assert engine.tell(step, 2)["text"] == "Row 1 has one empty cell left and one digit missing."
    assert step.result == f"So row 1, column 1 is {SOLUTION[0]}."


def test_german_hint(german: None) -> None:
    with speaking("de"):
        step = engine.next_step(GRID)
        level2 = engine.tell(step, 2)
        level3 = engine.tell(step, 3)
    assert level2["text"] == "Zeile 1 hat noch eine leere Zelle, und eine Ziffer fehlt."
    # The formal name has no translation: it stays as an English sentence writes it.
    assert level3["technique"] == "Letzte leere Zelle (full house)"
    # The same catalog, outside speaking("de"): English.
    english = engine.next_step(GRID)
    assert engine.tell(english, 2)["text"] == (
        "Row 1 has one empty cell left and one digit missing."
    )


def test_placeholders_in_the_translation_s_order(german: None) -> None:
    digit = SOLUTION[0]
    with speaking("de"):
        step = engine.next_step(GRID)
        assert step.result == f"Also kommt {digit} nach Zeile 1, Spalte 1."
    assert engine.next_step(GRID).result == f"So row 1, column 1 is {digit}."


def test_a_refused_puzzle_in_german(german: None, tmp_path: Path) -> None:
    """A language without the sentence says it in English."""
    with speaking("de"), pytest.raises(engine.InvalidPuzzle, match="a puzzle has 81 cells"):
        engine.parse("123")
