"""The upgrade pass's players (see .ci/upgrade): several guests play at once over HTTP, as
browsers behind the proxy would, for as long as the upgrade takes and a while after it.
Each opens the home page, starts games, opens each game's page and a static file it links,
reads the game's state and makes moves; every answer's status is counted, and every move
the site acknowledged (200) is kept. When told to stop (the stop file appears), the
players finish and every acknowledged move is looked for in the database, in order.

Standard library only, and psql: it runs beside either release.

    python3 .ci/upgrade_load.py PORT STOP_FILE REPORT_FILE   (DATABASE_URL set)
"""

from __future__ import annotations

import collections
import http.client
import json
import os
import random
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

PLAYERS = 6
MOVES_PER_GAME = 120  # then a new game: its page is rendered again, by whichever release


class Player:
    """A guest's browser: its cookies, the page's CSRF token, one address of its own."""

    def __init__(self, port: int, number: int, tally: Tally) -> None:
        self.port, self.tally = port, tally
        self.cookies: dict[str, str] = {}
        self.token = ""
        self.headers = {
            "X-Forwarded-Proto": "https",
            "X-Forwarded-For": f"10.1.0.{number + 1}",
            "Origin": f"https://127.0.0.1:{port}",
        }

    def send(self, method: str, path: str, body: object = None) -> tuple[int, dict, str]:
        """One request on a new connection; a connection refused or cut counts as dropped."""
        headers = {**self.headers, "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        data = None
        if method == "POST":
            headers |= {"X-CSRFToken": self.token, "Content-Type": "application/json"}
            data = json.dumps(body or {})
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            connection.request(method, path, body=data, headers=headers)
            response = connection.getresponse()
            text = response.read().decode("utf-8", "replace")
        except (OSError, http.client.HTTPException) as error:
            self.tally.count(method, path, f"dropped: {type(error).__name__}")
            return 0, {}, ""
        finally:
            connection.close()
        self.tally.count(method, path, response.status, text)
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key.strip()] = rest.split(";", 1)[0]
        token = re.search(r'name="csrf-token" content="([^"]+)"', text)
        if token:
            self.token = token.group(1)
        return response.status, dict(response.getheaders()), text

    def new_game(self) -> int | None:
        if not self.token:
            self.send("GET", "/")
        status, headers, _ = self.send("POST", "/play/easy/")
        if status != 302:
            return None
        game = int(headers["Location"].rstrip("/").split("/")[-1])
        # The game's page, and a static file it links (by its hashed name).
        status, _, page = self.send("GET", f"/games/{game}/")
        linked = re.findall(r'(?:href|src)="(/static/[^"]+)"', page)
        if linked:
            self.send("GET", random.choice(linked))
        return game

    def play(self, stop: threading.Event) -> None:
        game = None
        while not stop.is_set():
            if game is None:
                game = self.new_game()
                made = 0
                if game is None:
                    time.sleep(1)
                    continue
            status, _, text = self.send("GET", f"/api/games/{game}")
            if status != 200:
                time.sleep(0.5)
                continue
            state = json.loads(text)
            if state["status"] != "playing" or made >= MOVES_PER_GAME:
                game = None
                continue
            open_cells = [i for i, given in enumerate(state["puzzle"]) if given == "0"]
            cell = random.choice(open_cells)
            # A digit other than the cell's own: the same digit again changes nothing.
            digit = random.choice([d for d in range(1, 10) if str(d) != str(state["values"][cell])])
            move = {"cell": cell, "digit": digit, "mode": "value", "version": state["version"]}
            status, headers, text = self.send("POST", f"/api/games/{game}/moves", move)
            if status == 200 and json.loads(text)["version"] > move["version"]:
                self.tally.acknowledged(game, move)
                made += 1
            elif status == 429:
                time.sleep(float(headers.get("Retry-After", "1")))
            time.sleep(random.uniform(0.05, 0.3))


class Tally:
    """Every answer's status, and the moves acknowledged, per game in order."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.statuses: collections.Counter[str] = collections.Counter()
        self.failures: list[str] = []
        self.moves: dict[int, list[tuple[str, int, int]]] = collections.defaultdict(list)

    def count(self, method: str, path: str, status: int | str, text: str = "") -> None:
        with self.lock:
            self.statuses[str(status)] += 1
            if not isinstance(status, int) or status >= 500:
                self.failures.append(f"{method} {path}: {status} {text[:200]!r}")

    def acknowledged(self, game: int, move: dict) -> None:
        with self.lock:
            self.moves[game].append(("value", move["cell"], move["digit"]))

    @property
    def served(self) -> int:
        return sum(n for status, n in self.statuses.items() if status.isdigit())


def stored_moves(games: list[int]) -> dict[int, list[tuple[str, int, int]]]:
    """The move log of these games, in order, as the database has it."""
    if not games:
        return {}
    query = (
        "SELECT game_id, kind, cell, digit FROM puzzles_move WHERE game_id IN "
        f"({','.join(str(g) for g in games)}) ORDER BY game_id, number"
    )
    out = subprocess.run(
        ["psql", os.environ["DATABASE_URL"], "-At", "-F", " ", "-c", query],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    found: dict[int, list[tuple[str, int, int]]] = collections.defaultdict(list)
    for line in out.splitlines():
        game, kind, cell, digit = line.split(" ")
        found[int(game)].append((kind, int(cell), int(digit)))
    return found


def main(port: int, stop_file: Path, report_file: Path) -> int:
    tally = Tally()
    stop = threading.Event()
    players = [Player(port, n, tally) for n in range(PLAYERS)]
    threads = [threading.Thread(target=p.play, args=(stop,), daemon=True) for p in players]
    for thread in threads:
        thread.start()
    progress = report_file.with_suffix(".progress")
    partial = report_file.with_suffix(".progress.partial")
    while not stop_file.exists():
        partial.write_text(f"{tally.served}\n")
        partial.replace(progress)  # whole: the pass never reads a file half written
        time.sleep(0.5)
    stop.set()
    for thread in threads:
        thread.join(timeout=120)
    stored = stored_moves(sorted(tally.moves))
    lost = 0
    for game, moves in tally.moves.items():
        # Acknowledged moves are the game's log in order (no one else plays these games).
        lost += sum(1 for i, move in enumerate(moves) if stored[game][i : i + 1] != [move])
    acknowledged = sum(len(moves) for moves in tally.moves.values())
    fivexx = sum(n for status, n in tally.statuses.items() if status.startswith("5"))
    dropped = sum(n for status, n in tally.statuses.items() if not status.isdigit())
    report = {
        "served": tally.served,
        "statuses": dict(sorted(tally.statuses.items())),
        "5xx": fivexx,
        "dropped": dropped,
        "games": len(tally.moves),
        "acknowledged": acknowledged,
        "lost": lost,
        "failures": tally.failures[:20],
    }
    report_file.write_text(json.dumps(report, indent=1))
    print(json.dumps(report), flush=True)
    return 0 if (fivexx, dropped, lost) == (0, 0, 0) and acknowledged else 1


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])))
