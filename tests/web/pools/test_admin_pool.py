"""The admin's pool page: staff only, seeding and imports queue jobs, bad files refused."""

from __future__ import annotations

import base64
import contextlib
import datetime
import gzip
import json
import tracemalloc
from collections.abc import Iterator

import pytest
import redis
import time_machine
from celery import Celery
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from puzzles.models import Difficulty, PoolTarget, Puzzle, SeedJob
from puzzles.pools import broker, seeding
from puzzles.pools.tasks import resume_stalled_seed_jobs
from sudokusite.celery import app

from ...engine.helpers import load

pytestmark = pytest.mark.django_db


def test_the_pool_page_shows_stock_targets_and_forms_to_staff(client, staff):
    client.force_login(staff)
    page = client.get("/admin/pool/")
    assert page.status_code == 200
    html = page.content.decode()
    for difficulty in ("Easy", "Medium", "Hard", "Expert", "Master", "Extreme"):
        assert difficulty in html
    assert 'id="seed-form"' in html and 'id="import-form"' in html
    assert "Puzzle pools" in client.get("/admin/").content.decode()


def test_players_and_visitors_cannot_reach_the_pool_page_or_seed(client, alice):
    for url in ("/admin/pool/", "/admin/pool/status.json"):
        assert client.get(url).status_code == 302  # to the admin login
    client.force_login(alice)
    for url in ("/admin/pool/", "/admin/pool/status.json"):
        response = client.get(url)
        assert response.status_code == 302 and "/admin/login/" in response["Location"]
    client.post("/admin/pool/", {"seed": "1", "seed-difficulty": "hard", "seed-count": "5"})
    assert SeedJob.objects.count() == 0


def test_seeding_queues_a_job_and_the_status_feed_reports_it(client, staff):
    client.force_login(staff)
    response = client.post(
        "/admin/pool/", {"seed": "1", "seed-difficulty": "hard", "seed-count": "50"}
    )
    assert response.status_code == 302
    job = SeedJob.objects.get()
    assert (job.kind, job.difficulty, job.requested, job.state) == (
        "generate",
        "hard",
        50,
        "queued",
    )
    status = client.get("/admin/pool/status.json").json()
    assert status["jobs"][0]["id"] == job.pk
    assert {p["difficulty"] for p in status["pools"]} == set(Difficulty.values)


@pytest.mark.parametrize(
    "form",
    [
        {"seed-difficulty": "impossible", "seed-count": "5"},
        {"seed-difficulty": "hard", "seed-count": "0"},
        {"seed-difficulty": "hard", "seed-count": "many"},
        {"seed-difficulty": "hard", "seed-count": "100000"},
    ],
)
def test_bad_seed_requests_are_refused_with_a_message(client, staff, form):
    client.force_login(staff)
    response = client.post("/admin/pool/", {"seed": "1", **form})
    assert response.status_code == 200
    assert b"errorlist" in response.content
    assert SeedJob.objects.count() == 0


def test_an_upload_queues_an_import_job(client, staff):
    client.force_login(staff)
    text = "quizzes,solutions\n" + "\n".join(load("top95")[:10])
    upload = SimpleUploadedFile("top.csv", text.encode())
    response = client.post("/admin/pool/", {"import": "1", "import-file": upload})
    assert response.status_code == 302
    job = SeedJob.objects.get()
    assert (job.kind, job.requested, job.filename) == ("import", 10, "top.csv")


@pytest.mark.parametrize(
    "content, message",
    [
        (gzip.compress(b"0" * 10_000_000), b"not a text file"),
        (b"\n\n# only a comment\n", b"no puzzle lines"),
        (b"1" * (6 * 1024 * 1024), b"the limit is"),
        (b"0" * 81 + b"\n" + b"." * 200_000 + b"\x00\n", b"not a text file"),
    ],
    ids=["zip bomb named .txt", "empty", "too big", "a NUL byte far into the file"],
)
def test_bad_files_are_refused_before_any_job(client, staff, settings, content, message):
    client.force_login(staff)
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = None
    upload = SimpleUploadedFile("puzzles.txt", content)
    response = client.post("/admin/pool/", {"import": "1", "import-file": upload})
    assert response.status_code == 200
    assert message in response.content
    assert SeedJob.objects.count() == 0


@contextlib.contextmanager
def broker_unreachable(settings) -> Iterator[None]:
    """Tasks this thread sends go to a broker nobody listens at, as when Redis is down."""
    working = app.conf.broker_url  # read now: the site's app keeps the working broker
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # also what the page's check asks
    offline = Celery("offline", set_as_current=False)
    offline.config_from_object("django.conf:settings", namespace="CELERY")
    offline.set_current()  # the tasks' shared_task proxies send through the current app
    try:
        yield
    finally:
        app.set_current()
        settings.CELERY_BROKER_URL = working


def queued_runs(job: SeedJob) -> int:
    """run_seed_job messages for the job waiting in the broker's queue."""
    found = 0
    for raw in redis.Redis.from_url(app.conf.broker_url).lrange("celery", 0, -1):
        message = json.loads(raw)
        args = json.loads(base64.b64decode(message["body"]))[0]
        found += message["headers"]["task"] == "puzzles.pools.tasks.run_seed_job" and args == [
            job.pk
        ]
    return found


def test_with_the_broker_down_a_seed_job_is_kept_and_started_once_it_is_back(
    client, staff, settings, monkeypatch, django_capture_on_commit_callbacks
):
    for difficulty in Difficulty.values:  # no refills of their own
        PoolTarget.objects.update_or_create(
            difficulty=difficulty, defaults={"low": 0, "high": 0, "batch_size": 1}
        )
    app.control.purge()
    client.force_login(staff)
    # The send that fails holds back this process's sends a while: later tests start clean.
    monkeypatch.setattr(broker, "_down_until", broker._down_until)
    with broker_unreachable(settings):
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(
                "/admin/pool/", {"seed": "1", "seed-difficulty": "easy", "seed-count": "3"}
            )
        assert response.status_code == 302
        page = client.get(response["Location"])
        assert b"The broker (Redis) does not answer" in page.content
    job = SeedJob.objects.get()
    assert job.state == "queued" and queued_runs(job) == 0
    # Beat runs resume_stalled_seed_jobs in a worker, a process without this one's back-off.
    monkeypatch.setattr(broker, "_down_until", 0.0)
    resume_stalled_seed_jobs()
    assert queued_runs(job) == 0  # queued a moment ago: its own send may still come
    with time_machine.travel(timezone.now() + datetime.timedelta(minutes=2)):
        resume_stalled_seed_jobs()
    try:
        assert queued_runs(job) == 1
    finally:
        app.control.purge()
    job.refresh_from_db()
    assert job.state == "queued" and job.touched_at > job.created_at


def test_a_ten_thousand_line_upload_queues_the_work_and_does_none_of_it(client, staff):
    client.force_login(staff)
    text = "\n".join(load("easy_kaggle_1000") * 10).encode()
    upload = SimpleUploadedFile("ten-thousand.txt", text)
    response = client.post("/admin/pool/", {"import": "1", "import-file": upload})
    assert response.status_code == 302
    job = SeedJob.objects.get()
    assert (job.requested, job.state, job.done, job.rejected, job.position) == (
        10_000,
        "queued",
        0,
        0,
        0,
    )
    assert Puzzle.objects.count() == 0  # the work is the worker's


@pytest.mark.parametrize(
    "content, message",
    [
        (b"1\n" * (2_600_000), b"more than 100,000 lines"),  # 5 MB of lines: refused
        ((b"x" * 50 + b"\n") * 100_000, b"Import job"),  # 100,000 lines of 5 MB: taken
    ],
    ids=["too many lines", "many long lines"],
)
def test_an_upload_of_many_junk_lines_takes_bounded_memory(client, staff, content, message):
    client.force_login(staff)
    upload = SimpleUploadedFile("junk.txt", content)
    del content
    tracemalloc.start()
    response = client.post("/admin/pool/", {"import": "1", "import-file": upload}, follow=True)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert message in response.content
    # The file is 5 MB, the request's copies a few more; a list of its lines would be 350 MB.
    assert peak < 48 * 1024 * 1024, peak


def test_the_pool_page_shows_why_lines_were_rejected(client, staff):
    client.force_login(staff)
    good = load("top95")[:2]
    lines = [good[0], "123", *good, "x" * 81, "1" * 81, "a,b,c"]
    job = seeding.create_import_job("\n".join(lines), "mixed.txt")
    while seeding.run_chunk(job.pk):
        pass
    html = client.get("/admin/pool/").content.decode()
    assert "line 2: a puzzle has 81 cells, this one has 3" in html
    assert "line 3: already stored" in html
    assert "line 5: character" in html
    assert "line 6:" not in html  # the first few only; the job's page has them all
    assert f'href="/admin/puzzles/seedjob/{job.pk}/change/"' in html
    assert "all 5 reasons" in html
    (row,) = client.get("/admin/pool/status.json").json()["jobs"]
    assert row["reasons"][0] == {"line": 2, "reason": "a puzzle has 81 cells, this one has 3"}
    assert (row["rejected"], row["url"]) == (5, f"/admin/puzzles/seedjob/{job.pk}/change/")
    assert row["reasons_link"] == "all 5 reasons"
    page = client.get(f"/admin/puzzles/seedjob/{job.pk}/change/").content.decode()
    assert all(f"line {n}:" in page for n in (2, 3, 5, 6, 7))  # every reason, readable
    assert 'name="offset"' not in page  # progress is the workers' to write, not an admin's


def test_the_pool_page_shows_heartbeats_last_beat_last_refill_queue_and_draws(
    client, staff, settings
):
    from puzzles.pools import activity
    from puzzles.pools import stock as pool

    from ..helpers import seen, stock

    settings.WORKER_GONE_SECONDS = 180
    clock = time_machine.travel(timezone.now(), tick=False)  # "4 s ago" stays 4 s
    clock.start()
    seen("worker", "w1@pools-host", 4)
    seen("worker", "w0@pools-host", 900)
    seen("beat", "beat@pools-host", 7)
    stock("easy", 3)
    pool.claim_fresh_puzzle("easy")
    pool.claim_fresh_puzzle("easy")
    activity.record_batch("easy", 5, 3.2)
    activity.record_batch("easy", 5, 4.8)
    app.control.purge()
    app.send_task("puzzles.tasks.refill_pools")  # no worker here: it waits in the queue
    try:
        client.force_login(staff)
        html = client.get("/admin/pool/").content.decode()
        status = client.get("/admin/pool/status.json").json()
    finally:
        app.control.purge()
        clock.stop()
    for text in ("w1@pools-host", "w0@pools-host", "beat@pools-host", "Last beat: "):
        assert text in html
    processes = {p["name"]: p for p in status["workers"]["processes"]}
    assert processes["w1@pools-host"]["state"] == "alive"
    assert processes["w1@pools-host"]["seen"] == "4 s ago"
    assert processes["w0@pools-host"]["state"] == "gone"
    assert status["workers"]["last_beat"] == "7 s ago"
    assert status["workers"]["queued"] == 1
    easy = next(p for p in status["pools"] if p["difficulty"] == "easy")
    assert (easy["drawn_last_hour"], easy["batches"], easy["batch_seconds"]) == (2, 2, "4.0 s")
    assert easy["last_refill"] == "0 s ago"
    hard = next(p for p in status["pools"] if p["difficulty"] == "hard")
    assert (hard["drawn_last_hour"], hard["batches"], hard["last_refill"]) == (0, 0, "never")
