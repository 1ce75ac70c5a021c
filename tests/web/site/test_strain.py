"""A strained web process asks the pages for patience: while its requests wait for a thread
(their X-Request-Start stamp) BUSY_WAIT_MS or more on average, or while the machine's cores
are BUSY_CPU_PERCENT busy at normal priority, a batch's answer carries send_every, the
longer cadence (BUSY_SEND_EVERY_MS) each page then sends on until an answer says nothing
of it; the page keeps every change meanwhile (static/js/game/sync.js)."""

from __future__ import annotations

import os
import time

import pytest

from puzzles.site import shedding

from ...harness import settings_refuse
from ..helpers import post, start, state

pytestmark = pytest.mark.django_db


def stamp(seconds_ago: float) -> dict:
    return {"X-Request-Start": f"t={time.time() - seconds_ago:.3f}"}


@pytest.fixture(autouse=True)
def strain(settings):
    settings.SHED_AFTER_MS = 1000
    settings.BUSY_WAIT_MS = 50
    settings.BUSY_SEND_EVERY_MS = 20000
    settings.BUSY_CPU_PERCENT = 70
    shedding.STRAIN.forget()
    yield shedding.STRAIN
    shedding.STRAIN.forget()


def batch(client, game, cell: int, n: int, headers: dict | None = None):
    change = {"id": f"c{n}", "kind": "move", "cell": cell, "digit": (n % 9) + 1, "base": 0}
    body = {"device": "phone-0001", "changes": [change]}
    response = post(client, game, "changes", body, headers=headers or {})
    assert response.status_code == 200, response.content
    return response.json()


def test_an_unstrained_site_asks_for_no_other_cadence(client, stocked):
    game = start(client)
    cell = state(client, game)["values"].index("0")
    for n in range(5):
        assert "send_every" not in batch(client, game, cell, n, stamp(0.005))
    assert "send_every" not in batch(client, game, cell, 9)  # no stamp: nothing known


def test_requests_that_waited_make_the_batch_answers_ask_for_the_longer_cadence(client, stocked):
    game = start(client)
    cell = state(client, game)["values"].index("0")
    for n in range(4):
        answer = batch(client, game, cell, n, stamp(0.2))  # waited 200 ms, not shed
    assert answer["send_every"] == 20000
    assert answer["applied"] == ["c3"]


def test_the_strain_passes_with_the_waits(strain):
    now = 1000.0
    for n in range(20):
        strain.note(200, now + n * 0.1)
    assert strain.strained(now + 2)
    for n in range(200):
        strain.note(2, now + 2 + n * 0.05)
    assert not strain.strained(now + 12.5)
    assert not strain.strained(now + 60)  # nothing heard of late: not strained


def test_the_longer_cadence_is_off_with_zero(client, stocked, settings):
    settings.BUSY_SEND_EVERY_MS = 0
    game = start(client)
    cell = state(client, game)["values"].index("0")
    for n in range(4):
        answer = batch(client, game, cell, n, stamp(0.2))
    assert "send_every" not in answer


class Cores:
    """The machine's CPU time as /proc/stat would give it, reading by reading: (busy, all)
    ticks since boot, each reading the next of a list."""

    def __init__(self, *readings: tuple[int, int]) -> None:
        self.readings = list(readings)

    def __call__(self) -> tuple[int, int] | None:
        return self.readings.pop(0)


def test_the_machines_cores_are_read_from_proc_stat():
    read = shedding.machine_cpu()
    if not os.path.exists("/proc/stat"):
        assert read is None
        return
    busy, everything = read
    assert 0 < busy < everything
    time.sleep(0.05)
    later_busy, later_everything = shedding.machine_cpu()
    assert later_busy >= busy and later_everything > everything


def test_cores_nearly_full_strain_the_process_until_they_ease_well_below(settings):
    # Busy shares from the first reading on: 90%, 65%, 50%, 65%, 80%.
    cores = Cores((0, 0), (90, 100), (130, 200), (150, 300), (260, 400), (400, 500))
    strain = shedding.Strain(cpu=cores)
    strain.SAMPLE_SECONDS = 0  # a new reading each time it is asked
    assert strain.cores_busy() is None  # one reading: nothing to compare yet
    assert [strain.strained() for _ in range(5)] == [True, True, False, False, True]


def test_cores_read_no_more_than_once_a_second():
    cores = Cores((0, 0), (90, 100))
    strain = shedding.Strain(cpu=cores)
    assert strain.cores_busy(now=10.0) is None
    assert strain.cores_busy(now=10.5) is None  # too soon: not read again
    assert strain.cores_busy(now=11.0) == 90.0
    assert strain.cores_busy(now=11.2) == 90.0 and not cores.readings


def test_old_readings_are_let_go_so_the_share_is_of_the_last_seconds():
    # Idle for a minute, then 10 s of full cores: the share is of the last 10 s or so.
    readings = [(0, 0), (0, 6000)] + [(100 * n, 6000 + 100 * n) for n in range(1, 12)]
    strain = shedding.Strain(cpu=Cores(*readings))
    strain.cores_busy(now=0.0)
    strain.cores_busy(now=60.0)
    for n in range(1, 12):
        busy = strain.cores_busy(now=60.0 + n)
    assert busy > 90


def test_a_batch_answer_asks_for_the_longer_cadence_while_the_cores_are_full(
    client, stocked, monkeypatch
):
    game = start(client)
    cell = state(client, game)["values"].index("0")
    cores = Cores(*[(95 * n, 100 * n) for n in range(10)])
    monkeypatch.setattr(shedding.STRAIN, "cpu", cores)
    monkeypatch.setattr(shedding.STRAIN, "SAMPLE_SECONDS", 0)
    batch(client, game, cell, 0)  # the first reading: nothing to compare yet
    answer = batch(client, game, cell, 1)  # no stamp: the cores alone say it
    assert answer["send_every"] == 20000 and answer["applied"] == ["c1"]


def test_the_cores_are_not_looked_at_with_zero(client, stocked, settings, monkeypatch):
    settings.BUSY_CPU_PERCENT = 0
    game = start(client)
    cell = state(client, game)["values"].index("0")
    cores = Cores(*[(95 * n, 100 * n) for n in range(10)])
    monkeypatch.setattr(shedding.STRAIN, "cpu", cores)
    monkeypatch.setattr(shedding.STRAIN, "SAMPLE_SECONDS", 0)
    for n in range(3):
        assert "send_every" not in batch(client, game, cell, n)
    assert len(cores.readings) == 10  # not read at all


@pytest.mark.parametrize(("value", "said"), [("101", "0 (off) to 100"), ("-5", "0 (off) to 100")])
def test_a_wrong_busy_cpu_percent_stops_the_site_with_a_clear_error(value, said):
    assert f"BUSY_CPU_PERCENT must be {said}" in settings_refuse("BUSY_CPU_PERCENT", value)


def test_a_game_page_served_strained_starts_the_page_on_the_longer_cadence(
    client, stocked, monkeypatch
):
    game = start(client)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'data-send-every="8000"' in page and "data-send-every-asked" not in page
    stamped = stamp(0.2)  # the requests waited 200 ms: strained, not shed
    for _ in range(3):
        page = client.get(f"/games/{game.pk}/", headers=stamped).content.decode()
    assert 'data-send-every="8000"' in page and 'data-send-every-asked="20000"' in page
    monkeypatch.setattr(shedding.STRAIN, "cpu", Cores(*[(95 * n, 100 * n) for n in range(10)]))
    monkeypatch.setattr(shedding.STRAIN, "SAMPLE_SECONDS", 0)
    shedding.STRAIN.forget()
    client.get(f"/games/{game.pk}/")  # the first reading: nothing to compare yet
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'data-send-every-asked="20000"' in page  # the cores alone say it
