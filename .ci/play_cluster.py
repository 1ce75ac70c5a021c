"""The cluster pass's player (see .ci/cluster): through nginx, with the two web hosts behind
it, it plays a guest's game as the page does (its changes in batches, each change with an
id, a batch sent again when no answer came), kills one web host's gunicorn and one worker
host's worker with SIGKILL a third of the way in, and plays on. Then it checks that every
acknowledged move is in the database, that both web hosts served the game, that the pool
drained by new games is refilled by the worker left, that /healthz/workers names the
dead worker by its host name, and that the beat started by mistake sent nothing; and
prints a summary.

Runs on the runtime requirements alone: the standard library, the engine (to solve the
puzzle it is given, as a player would) and the tests' HTTP player.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import signal
import ssl
import subprocess
import time
from pathlib import Path

import engine
from tests.harness import Player, wait_until

WORK = Path(os.environ["CLUSTER_WORK"])
HTTP_PORT = int(os.environ["CLUSTER_HTTP_PORT"])
HTTPS_PORT = int(os.environ["CLUSTER_HTTPS_PORT"])
WEB_HOSTS = ("web-a", "web-b")
RESENDS = 20  # a batch sent again at most this often before the player gives up


def say(text: str) -> None:
    print(f"cluster: {text}", flush=True)


def running() -> bool:
    """True while every process the pass started and did not kill runs (CLUSTER_PROCESSES:
    pid:name pairs); fail at once, naming it, when one has exited."""
    killed = {os.environ["CLUSTER_KILL_WEB"], os.environ["CLUSTER_KILL_WORKER"]}
    killed = {int(entry.split(":")[1]) for entry in killed}
    for entry in os.environ["CLUSTER_PROCESSES"].split():
        pid, name = entry.split(":", 1)
        if int(pid) in killed:
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            raise AssertionError(f"the {name} exited (its log is below)") from None
    return True


def monitor(path: str) -> tuple[int, dict]:
    """A health check over plain HTTP through nginx, from this machine: a monitor's answer."""
    status, _, body = Player(HTTP_PORT, timeout=60).send("GET", path)
    return status, json.loads(body)


def browser() -> Player:
    """A guest's browser on HTTPS through nginx, one connection kept open (as a browser
    does), nginx's certificate trusted."""
    tls = ssl.create_default_context(cafile=str(WORK / "tls.crt"))
    # nginx hands the site its own Host ($host, which names no port): the browser's Origin
    # is the one the site sees, as on port 443.
    origin = {"Origin": "https://127.0.0.1"}
    return Player(HTTPS_PORT, keep_alive=True, headers=origin, tls=tls)


def kill(entry: str) -> str:
    """SIGKILL a host's process group (host:pid); the host's name."""
    host, pid = entry.split(":")
    os.killpg(int(pid), signal.SIGKILL)
    return host


def send_batch(player: Player, game: int, batch: dict) -> tuple[dict, int]:
    """POST a batch of changes as the page does: sent again, the same batch, while no answer
    comes (a host killed under the request: nginx's 502, or the connection dropped). The
    answer, and how often the batch was sent again."""
    for resend in range(RESENDS):
        try:
            status, _, body = player.send("POST", f"/api/games/{game}/changes", batch)
        except OSError:
            status, body = None, ""
        if status == 200:
            return json.loads(body), resend
        if status not in (None, 502, 503, 504):
            raise AssertionError(f"the batch answered {status}: {body[:300]}")
        time.sleep(0.5)
    raise AssertionError(f"no answer to a batch after {RESENDS} sends")


def play(player: Player) -> tuple[int, list[tuple[int, int]], int, list[str]]:
    """A guest's easy game to the end, one change a batch, the hosts killed a third of the
    way; the game, the moves acknowledged, the batches sent again and the hosts killed."""
    game = player.start_game("easy")
    status, _, body = player.send("GET", f"/api/games/{game}")
    state = json.loads(body)
    assert status == 200 and state["status"] == "playing", state
    solution = engine.solve(state["puzzle"])
    empty = [cell for cell, given in enumerate(state["puzzle"]) if given == "0"]
    device = secrets.token_urlsafe(12)
    acknowledged: list[tuple[int, int]] = []
    resent, killed = 0, []
    for number, cell in enumerate(empty):
        if number == len(empty) // 3:
            killed = [kill(os.environ["CLUSTER_KILL_WEB"]), kill(os.environ["CLUSTER_KILL_WORKER"])]
            say(f"killed with SIGKILL, {number} moves in: web-a's gunicorn, wrk-b's worker")
        change = {"id": f"c-{number}", "kind": "move", "cell": cell, "mode": "value"}
        change |= {"digit": int(solution[cell]), "base": state["version"]}
        change["at"] = int(time.time() * 1000)
        answer, again = send_batch(player, game, {"device": device, "changes": [change]})
        resent += again
        assert answer["applied"] == [change["id"]] and not answer["refused"], answer
        acknowledged.append((cell, int(solution[cell])))
        state = answer["state"]
    assert state["status"] == "solved", state["status"]
    return game, acknowledged, resent, killed


def stored_moves(game: int) -> list[tuple[int, int]]:
    """The game's moves as the database holds them, in order."""
    query = f"SELECT cell, digit FROM puzzles_move WHERE game_id = {game} ORDER BY number"
    out = subprocess.run(
        ["psql", "-At", "-F", " ", "-d", os.environ["CLUSTER_ADMIN_DATABASE"], "-c", query],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return [tuple(map(int, line.split())) for line in out.splitlines() if line]


def served(game: int) -> dict[str, int]:
    """How many of the game's requests each web host's own log holds."""
    pattern = re.compile(rf" /(api/)?games/{game}/")
    counts = {}
    for host in WEB_HOSTS:
        lines = (WORK / f"web-{host}.log").read_text(errors="replace").splitlines()
        counts[host] = sum(1 for line in lines if pattern.search(line))
    return counts


def easy_stock() -> int:
    return monitor("/healthz")[1]["pools"]["easy"]


def refills(host: str) -> int:
    """The refill batches a worker host's worker has finished, from its log."""
    text = (WORK / f"worker-{host}.log").read_text(errors="replace")
    return len(re.findall(r"refill_pool\[[^]]+\] succeeded", text))


def drain_and_refill() -> tuple[int, int, int]:
    """New games take the easy pool below its low mark; the worker left fills it again.
    The stock drained to, the stock refilled to, the worker's batches since."""
    before = refills("wrk-a")
    drainer = browser()
    while easy_stock() >= 8:
        drainer.start_game("easy")
    low = easy_stock()
    wait_until(lambda: running() and easy_stock() >= 14, 180, "the easy pool refilled")
    return low, easy_stock(), refills("wrk-a") - before


def beats() -> dict[str, int]:
    """The tasks each beat sent, from its log."""
    sent = {}
    for host in ("wrk-a", "wrk-b"):
        text = (WORK / f"beat-{host}.log").read_text(errors="replace")
        sent[host] = text.count("Sending due task")
    return sent


def main() -> None:
    seen = lambda: running() and monitor("/healthz/workers")[1].get("worker", {}).get("alive") == 2  # noqa: E731
    wait_until(seen, 180, "both workers and beat")
    wait_until(lambda: running() and easy_stock() >= 14, 240, "the easy pool filled")
    say(f"both workers alive, the easy pool at {easy_stock()}")

    player = browser()
    player.open_home()
    game, acknowledged, resent, killed = play(player)
    say(f"game {game} solved: {len(acknowledged)} moves acknowledged, {resent} batches sent again")
    stored = stored_moves(game)
    lost = [move for move in acknowledged if move not in stored]
    assert not lost and len(stored) == len(acknowledged), (lost, stored, acknowledged)
    say(f"moves in the database: {len(stored)}, moves lost: {len(lost)}")
    counts = served(game)
    assert all(counts.values()), counts
    say(
        "the game's requests served by each web host: "
        + ", ".join(f"{h} {n}" for h, n in counts.items())
    )

    low, high, batches = drain_and_refill()
    assert batches > 0
    say(f"the easy pool drained to {low}, refilled to {high} by wrk-a's worker ({batches} batches)")

    gone = lambda: monitor("/healthz/workers")[1]["worker"]["gone_names"] == ["worker@wrk-b"]  # noqa: E731
    wait_until(lambda: running() and gone(), 60, "/healthz/workers naming the dead worker")
    status, body = monitor("/healthz/workers")
    worker = {k: body["worker"][k] for k in ("state", "alive", "gone", "gone_names")}
    say(f"/healthz/workers: {status} {json.dumps(worker)}")

    sent = beats()
    assert sent["wrk-a"] > 0 and sent["wrk-b"] == 0, sent
    standby = (WORK / "beat-wrk-b.log").read_text(errors="replace")
    assert "beat lock held by beat@wrk-a" in standby, standby[-2000:]
    say(f"beat: wrk-a sent {sent['wrk-a']} tasks, the second beat on wrk-b sent {sent['wrk-b']}")
    hosts = ", ".join(f"{host} {n}" for host, n in counts.items())
    say(f"summary: served {hosts}; killed {', '.join(killed)} mid-game; moves lost 0")


if __name__ == "__main__":
    main()
