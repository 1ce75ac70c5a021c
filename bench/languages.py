"""A page and a hint in English and in another language (issue 36): the technique guide's
X-Wing page (its example told by the engine) and a level-3 hint on a game of the pool,
each way by turns in the same run, requests a second and their ratio. Goal: the other
language within 10% of English.

The site runs in this process (Django's test client, no network between) on a scratch
SQLite database, rate limits off, as the analyse bench does; what is measured is the
request's own work: the language's choice, the catalogs' lookups, the engine's words.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence

from .common import line, site_in_process

ROUNDS = 6  # turns of each language
PER_TURN = 0.5  # seconds a turn
GOAL = 0.10  # the other language at most this much slower
OTHERS = ("de", "ja")


def main(options: Sequence[str] = ()) -> None:
    if options:
        sys.exit("the languages bench takes no options")
    print("== languages")
    with site_in_process("languages", "hard", 4) as client:
        measure(client)


def per_second(work: Callable[[], object], seconds: float) -> tuple[int, float]:
    """How many times work ran in about `seconds`, and the time it took."""
    done, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        work()
        done += 1
    return done, elapsed


def measure(client) -> None:
    from puzzles.models import Game

    started = client.post("/play/hard/")
    game = Game.objects.get(pk=int(started["Location"].strip("/").split("/")[-1]))

    def page(code: str) -> Callable[[], object]:
        prefix = "" if code == "en" else f"/{code}"

        def get() -> None:
            response = client.get(f"{prefix}/techniques/x-wing/")
            assert response.status_code == 200, response.status_code

        return get

    def hint(code: str) -> Callable[[], object]:
        def ask() -> None:
            response = client.post(
                f"/api/games/{game.pk}/hint",
                {"level": 3, "version": game.version},
                content_type="application/json",
                HTTP_ACCEPT_LANGUAGE=code,
            )
            assert response.status_code == 200, response.content

        return ask

    for what, work in (("page", page), ("hint", hint)):
        for other in OTHERS:
            totals = {"en": [0, 0.0], other: [0, 0.0]}
            for code in ("en", other):  # warm both before timing
                per_second(work(code), 0.2)
            for _ in range(ROUNDS):
                for code in ("en", other):
                    done, took = per_second(work(code), PER_TURN)
                    totals[code][0] += done
                    totals[code][1] += took
            english, theirs = (totals[c][0] / totals[c][1] for c in ("en", other))
            slower = 1 - theirs / english
            line(
                f"languages {what} {other}",
                f"en {english:.0f}/s",
                f"{other} {theirs:.0f}/s",
                f"ratio {theirs / english:.2f}",
                f"goal within {GOAL:.0%}: {'met' if slower <= GOAL else 'MISSED'}",
            )
