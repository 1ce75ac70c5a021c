"""Hostile input: random and malformed bodies, headers and ids on every endpoint and form.
Never a 5xx, never a change to another player's data; import files of garbage are refused
line by line with reasons, in bounded memory."""

from __future__ import annotations

import gzip
import os
import tracemalloc

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzles import seeding
from puzzles.models import Game, Preferences, SeedJob

from .conftest import start

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

GAME_ACTIONS = [
    "",
    "/moves",
    "/undo",
    "/redo",
    "/hint",
    "/reveal",
    "/check",
    "/pause",
    "/resume",
    "/give-up",
    "/path",
]
FORMS = [
    "/play/easy/",
    "/play/{text}/",
    "/daily/2026-01-01/easy/",
    "/daily/{text}/{text}/",
    "/settings/",
    "/accounts/signup/",
    "/accounts/login/",
    "/accounts/password_reset/",
    "/accounts/password_change/",
    "/accounts/logout/",
    "/admin/pool/",
    "/history/",
    "/stats/",
    "/daily/{text}/",
    "/healthz",
]

wild_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=40),
)
json_values = st.recursive(
    wild_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
game_bodies = st.fixed_dictionaries(
    {},
    optional={
        "cell": st.one_of(st.integers(-5, 90), wild_scalars),
        "digit": st.one_of(st.integers(-2, 12), wild_scalars),
        "mode": st.one_of(st.sampled_from(["value", "note"]), wild_scalars),
        "version": st.one_of(st.integers(-1, 5), wild_scalars),
        "level": st.one_of(st.integers(-1, 5), wild_scalars),
    },
)
raw_bodies = st.one_of(
    st.binary(max_size=200),
    json_values.map(lambda v: __import__("json").dumps(v)),
    game_bodies.map(lambda v: __import__("json").dumps(v, default=str)),
)
content_types = st.sampled_from(
    [
        "application/json",
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=zz",
        "",
        "application/json; charset=latin-1",
        "\x00bad",
    ]
)
headers = st.dictionaries(
    st.sampled_from(
        [
            "HTTP_X_FORWARDED_FOR",
            "HTTP_ACCEPT",
            "HTTP_X_CSRFTOKEN",
            "HTTP_COOKIE",
            "HTTP_RANGE",
            "HTTP_HOST",
        ]
    ),
    st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=60),
    max_size=3,
)
ids = st.one_of(st.integers(min_value=-(10**25), max_value=10**25), st.text(max_size=12))


def snapshot(game: Game) -> tuple:
    game.refresh_from_db()
    return (
        game.values,
        game.notes,
        game.version,
        game.status,
        game.hints,
        game.reveals,
        game.mistakes,
        list(game.moves.values_list("number", "changes")),
    )


@pytest.fixture
def players(alice, bob, stocked):
    mine, theirs = Client(), Client()
    mine.force_login(alice)
    theirs.force_login(bob)
    return mine, start(theirs)


@FUZZ
@given(
    action=st.sampled_from(GAME_ACTIONS),
    method=st.sampled_from(["get", "post", "put", "delete", "patch"]),
    body=raw_bodies,
    content_type=content_types,
    extra=headers,
    target=st.one_of(st.just("own"), st.just("theirs"), ids),
)
def test_the_game_api_never_fails_and_never_touches_another_players_game(
    players, action, method, body, content_type, extra, target
):
    mine, bobs_game = players
    before = snapshot(bobs_game)
    own = Game.objects.filter(user__username="alice").first() or start(mine)
    game_id = (
        {"own": own.pk, "theirs": bobs_game.pk}.get(target, target)
        if isinstance(target, str)
        else target
    )
    url = f"/api/games/{game_id}{action}"
    raw = body if isinstance(body, bytes) else body.encode()
    response = mine.generic(method.upper(), url, data=raw, content_type=content_type, **extra)
    assert response.status_code < 500, (url, body, response.content[:300])
    assert snapshot(bobs_game) == before


@FUZZ
@given(
    path=st.sampled_from(FORMS),
    text=st.text(max_size=30),
    data=st.dictionaries(st.text(max_size=12), st.text(max_size=40), max_size=6),
    method=st.sampled_from(["get", "post"]),
    extra=headers,
)
def test_pages_and_forms_never_fail_on_random_input(players, path, text, data, method, extra):
    mine, bobs_game = players
    before = snapshot(bobs_game)
    safe = "".join(ch for ch in text if ch.isprintable() and ch not in "/?#%")
    url = path.replace("{text}", safe or "x")
    response = getattr(mine, method)(url, data, **extra)
    assert response.status_code < 500, (url, data, response.content[:300])
    assert snapshot(bobs_game) == before
    assert not SeedJob.objects.exists()  # a player never starts one
    assert Preferences.objects.filter(user__username="bob").count() == 0


@pytest.mark.parametrize(
    "name, content",
    [
        ("garbage.txt", os.urandom(4096)),
        ("lines.txt", b"\n".join([b"x" * 5000, b"1" * 81, b"." * 80, "é".encode() * 100])),
        ("nothing-valid.txt", (b"0" * 80 + b"\n") * 12_900),  # about 1 MB
        ("bomb.txt", gzip.compress(b"0" * 50_000_000)),
    ],
)
def test_import_uploads_of_garbage_are_refused_or_rejected_line_by_line(
    client, staff, name, content
):
    client.force_login(staff)
    response = client.post(
        "/admin/pool/", {"import": "1", "import-file": SimpleUploadedFile(name, content)}
    )
    assert response.status_code in (200, 302)
    job = SeedJob.objects.first()
    if job is None:
        assert b"errorlist" in response.content  # refused outright, with the reason
        return
    tracemalloc.start()
    while seeding.run_chunk(job.pk):
        pass
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    job.refresh_from_db()
    assert job.state == "done" and job.done == 0
    assert job.rejected == job.requested
    assert all(reason for _, reason in job.reasons)
    assert peak < 80 * 1024 * 1024, peak


def test_a_huge_line_is_rejected_with_its_length(db):
    job = seeding.create_import_job("7" * 100_000 + "\n", "long.txt")
    seeding.run_chunk(job.pk)
    job.refresh_from_db()
    assert job.reasons == [[1, "the line is too long (100000 characters)"]]
