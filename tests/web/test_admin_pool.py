"""The admin's pool page: staff only, seeding and imports queue jobs, bad files refused."""

from __future__ import annotations

import gzip
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from puzzles.models import SeedJob

from ..engine.conftest import load

pytestmark = pytest.mark.django_db


def test_the_pool_page_shows_stock_targets_and_forms_to_staff(client, staff):
    client.force_login(staff)
    page = client.get("/admin/pool/")
    assert page.status_code == 200
    html = page.content.decode()
    for difficulty in ("Easy", "Medium", "Hard", "Expert"):
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
    assert {p["difficulty"] for p in status["pools"]} == {"easy", "medium", "hard", "expert"}


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
    ],
    ids=["zip bomb named .txt", "empty", "too big"],
)
def test_bad_files_are_refused_before_any_job(client, staff, settings, content, message):
    client.force_login(staff)
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = None
    upload = SimpleUploadedFile("puzzles.txt", content)
    response = client.post("/admin/pool/", {"import": "1", "import-file": upload})
    assert response.status_code == 200
    assert message in response.content
    assert SeedJob.objects.count() == 0


def test_a_seed_job_needs_the_broker_only_eventually(
    client, staff, settings, django_capture_on_commit_callbacks
):
    client.force_login(staff)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/admin/pool/", {"seed": "1", "seed-difficulty": "easy", "seed-count": "3"}
        )
    assert response.status_code == 302
    assert SeedJob.objects.get().state == "queued"
    assert io  # the page answered at once, whatever the broker did
