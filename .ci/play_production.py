"""The production pass's player (see .ci/production): against the site under gunicorn on
the port given, with the worker and beat the docs start, it waits for both to be seen and
for every pool to fill, plays a game to the end over HTTP as a browser behind the proxy
would (cookies, CSRF token and all), and checks the health checks and the metrics. With
PRODUCTION_PLAYED set it writes the game played there (its id, version and the player's
cookies); `restored PORT` then checks, on the site restored from a backup, that the same
player finds that game as it was and can start another.

Runs on the runtime requirements alone: the standard library, the engine (to solve the
puzzle it is given, as a player would) and the tests' HTTP player.
"""

from __future__ import annotations

import json
import os
import sys

import engine
from tests.harness import Player, metric_value, wait_until

DIFFICULTIES = engine.DIFFICULTIES


def say(text: str) -> None:
    print(f"production: {text}", flush=True)


def get_json(player: Player, path: str) -> tuple[int, dict]:
    status, _, body = player.send("GET", path)
    return status, json.loads(body)


def status_of(player: Player, path: str) -> int | None:
    """The status of a GET, or None while the site cannot answer (not yet listening, or
    slower than the request's time-out)."""
    try:
        return player.send("GET", path)[0]
    except OSError:
        return None


def scrape(port: int) -> str:
    token = os.environ["METRICS_TOKEN"]
    scraper = Player(
        port, headers={"X-Forwarded-Proto": "https", "Authorization": f"Bearer {token}"}
    )
    status, _, text = scraper.send("GET", "/metrics")
    assert status == 200, (status, text[:300])
    return text


def per_difficulty(text: str, name: str) -> dict[str, int]:
    """A metric's value for every difficulty."""
    return {d: int(metric_value(text, name, difficulty=d)) for d in DIFFICULTIES}


def pools_full(port: int) -> bool:
    """Every pool holds at least its high mark."""
    text = scrape(port)
    stock = per_difficulty(text, "sudoku_pool_fresh_puzzles")
    high = per_difficulty(text, "sudoku_pool_high_mark")
    return all(stock[d] >= high[d] for d in DIFFICULTIES)


def check_plain_http(port: int) -> None:
    """The health checks answer plain HTTP from the proxy; every page redirects to HTTPS."""
    plain = Player(port)
    status, headers, _ = plain.send("GET", "/")
    assert status == 301 and headers["Location"].startswith("https://"), (status, headers)
    status, site = get_json(plain, "/healthz")
    assert status == 200 and site["database"] == "ok" and site["broker"] == "ok", site
    say(f"/healthz over plain HTTP: {status} {json.dumps(site)}")
    status, workers = get_json(plain, "/healthz/workers")
    assert status == 200 and workers["status"] == "ok", workers
    say(f"/healthz/workers over plain HTTP: {status} {json.dumps(workers)}")


def browser(port: int) -> dict[str, str]:
    """As a browser through the proxy: HTTPS, and an Origin that CSRF checks on HTTPS."""
    return {"X-Forwarded-Proto": "https", "Origin": f"https://127.0.0.1:{port}"}


def play_a_game(port: int) -> dict:
    """A guest's easy game from the home page to solved: its id, its version at the end,
    how many moves it took and the player's cookies."""
    player = Player(port, headers=browser(port))
    player.open_home()
    refused = Player(port, headers=browser(port), cookies=player.cookies)
    assert refused.send("POST", "/play/easy/")[0] == 403  # no CSRF token: refused
    game = player.start_game("easy")
    status, state = get_json(player, f"/api/games/{game}")
    assert status == 200 and state["status"] == "playing", state
    solution = engine.solve(state["puzzle"])
    assert solution and "solution" not in state
    moves = 0
    for cell, given in enumerate(state["puzzle"]):
        if given != "0":
            continue
        move = {"cell": cell, "digit": int(solution[cell]), "mode": "value"}
        move["version"] = state["version"]
        status, _, body = player.send("POST", f"/api/games/{game}/moves", move)
        assert status == 200, (status, body[:300])
        state, moves = json.loads(body), moves + 1
    assert state["status"] == "solved", state["status"]
    assert player.send("GET", f"/games/{game}/")[0] == 200
    say(f"played game {game} to the end: {moves} moves, status {state['status']}")
    return {"game": game, "version": state["version"], "moves": moves, "cookies": player.cookies}


def check_static(port: int) -> None:
    """The favicon and static files, from whitenoise under gunicorn."""
    player = Player(port, headers={"X-Forwarded-Proto": "https"})
    status, headers, _ = player.send("GET", "/favicon.ico")
    assert status == 301, status
    location = headers["Location"]
    status, headers, _ = player.send("GET", location)
    assert status == 200 and headers["Content-Type"].startswith("image/svg+xml"), status
    say(f"/favicon.ico -> {location}: 200")


def running() -> bool:
    """True while every process the pass started runs (PRODUCTION_PROCESSES: pid:name
    pairs); fail at once, naming it, when one has exited."""
    for entry in os.environ.get("PRODUCTION_PROCESSES", "").split():
        pid, name = entry.split(":", 1)
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            raise AssertionError(f"the {name} exited (its log is below)") from None
    return True


def main(port: int) -> None:
    plain = Player(port)
    # A web process answers once it has warmed the engine up: on a busy machine that
    # outlasts one request's time-out, which is not yet an answer.
    seen = lambda: running() and status_of(plain, "/healthz/workers") == 200  # noqa: E731
    wait_until(seen, 120, "worker and beat")
    say("worker and beat seen alive")
    # The extreme pool takes longest: its puzzles take the worker some seconds each.
    wait_until(lambda: running() and pools_full(port), 480, "every pool filled to its high mark")
    stock = per_difficulty(scrape(port), "sudoku_pool_fresh_puzzles")
    say(f"pools filled: {json.dumps(stock)}")
    check_plain_http(port)
    played = play_a_game(port)
    moves = played["moves"]
    if os.environ.get("PRODUCTION_PLAYED"):
        with open(os.environ["PRODUCTION_PLAYED"], "w") as file:
            json.dump(played, file)
    check_static(port)
    text = scrape(port)
    assert metric_value(text, "sudoku_games_started_total", difficulty="easy") >= 1
    assert metric_value(text, "sudoku_moves_total", kind="value") == moves
    assert metric_value(text, "sudoku_workers_alive", kind="worker") == 1
    assert metric_value(text, "sudoku_workers_alive", kind="beat") == 1
    batches = sum(per_difficulty(text, "sudoku_refill_batches_total").values())
    assert batches > 0
    labels = {"method": "POST", "view": "puzzles:api_moves", "status": "200"}
    timed = metric_value(text, "sudoku_http_request_duration_seconds_count", **labels)
    assert timed == moves, timed
    say(f"/metrics: {batches} refill batches, {moves} moves timed, worker and beat alive")


def serving(port: int) -> bool:
    """Whether the site answers its health check yet."""
    return status_of(Player(port), "/healthz") == 200


def check_restored(port: int, played: dict) -> None:
    """The site restored from a backup: healthy, the game played before the backup there
    for the same player as it was, and a new game started (the restored tables written)."""
    wait_until(lambda: running() and serving(port), 120, "the restored site serving")
    status, site = get_json(Player(port), "/healthz")
    assert status == 200 and site["database"] == "ok", site
    say(f"restored: /healthz {status} {json.dumps(site)}")
    player = Player(port, headers=browser(port), cookies=played["cookies"])
    game = played["game"]
    status, state = get_json(player, f"/api/games/{game}")
    assert status == 200, (status, state)
    assert (state["status"], state["version"]) == ("solved", played["version"]), state
    assert player.send("GET", f"/games/{game}/")[0] == 200
    player.open_home()
    new_game = player.start_game("easy")
    status, state = get_json(player, f"/api/games/{new_game}")
    assert status == 200 and state["status"] == "playing" and new_game > game, (new_game, state)
    say(
        f"restored: the same player's game {game} solved at version {played['version']}, "
        f"a new game {new_game} started"
    )


if __name__ == "__main__":
    if sys.argv[1] == "restored":
        with open(sys.argv[3]) as file:
            check_restored(int(sys.argv[2]), json.load(file))
    else:
        main(int(sys.argv[1]))
