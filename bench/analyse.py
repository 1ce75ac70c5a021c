"""The analysis of a position (/analyse/, issue 35): the time of a whole request, from the
text sent to the page with every step listed and a page of them drawn, on Easter Monster,
on a puzzle with several solutions (refused), and on Easter Monster's position with pencil
marks (its path, and marks that took out a solution's digit: refused). Goal: under 2 s.

The site runs in this process (Django's test client, no network between), on a scratch
SQLite database with a stored pool of a few puzzles, so that the near-copy lookup a typed
puzzle gets has rows to look through; rate limits off. The first request of each case is
timed apart (the engine's kernel is warm by then: a worker warms it as it starts), then the
median and the worst of REPEAT more.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Sequence

from .common import line, site_in_process

EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
SEVERAL = "." * 40 + EASTER_MONSTER[40:]
GOAL = 2.0  # seconds a request, on this machine
REPEAT = 5


def cases() -> dict[str, tuple[str, int]]:
    """Each case's text and the status its page is to answer with."""
    import engine
    from puzzles.play import analyse

    puzzle = engine.parse(EASTER_MONSTER)
    solution = engine.solve(puzzle)
    marks = engine.candidates(puzzle)
    # Marks a player made: a wrong candidate out of each of the first ten empty cells.
    for cell in [c for c in range(81) if puzzle[c] == "0"][:10]:
        marks[cell] = [d for d in marks[cell] if d == int(solution[cell]) or d != marks[cell][0]]
    lost = engine.candidates(puzzle)
    lost[1] = [d for d in lost[1] if d != int(solution[1])]
    return {
        "easter monster": (EASTER_MONSTER, 200),
        "several solutions": (SEVERAL, 400),
        "pencil marks": (analyse.pencil_marks(analyse.Position(puzzle, marks)), 200),
        "marks without the answer": (analyse.pencil_marks(analyse.Position(puzzle, lost)), 400),
    }


def main(options: Sequence[str] = ()) -> None:
    if options:
        sys.exit("the analyse bench takes no options")
    print("== analyse")
    with site_in_process("analyse", "easy", 20) as client:
        measure(client)


def measure(client) -> None:
    for name, (text, status) in cases().items():
        times = []
        for _ in range(REPEAT + 1):
            started = time.perf_counter()
            response = client.get("/analyse/", {"puzzle": text})
            times.append(time.perf_counter() - started)
            assert response.status_code == status, (name, response.status_code)
        steps = response.content.decode().count("data-step=")
        worst = max(times)
        line(
            f"analyse {name}",
            f"first {times[0]:.2f} s",
            f"median {statistics.median(times[1:]):.2f} s",
            f"worst {worst:.2f} s",
            f"steps {steps}" if status == 200 else f"refused {status}",
            f"goal < {GOAL:.0f} s: {'met' if worst < GOAL else 'MISSED'}",
        )
