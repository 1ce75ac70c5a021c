"""Hostile input: random and malformed bodies, headers and ids on every URL of the site and
every form, the admin's seed and import forms included. Never a 5xx, never a change to
another player's data; import files of garbage are refused line by line with reasons, in
bounded memory."""

from __future__ import annotations

import datetime
import gzip
import json
import os
import re
import tracemalloc
from urllib.parse import quote, urlsplit

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import URLResolver, get_resolver
from django.urls.converters import IntConverter, PathConverter
from django.urls.resolvers import RoutePattern
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzles.accounts import limits
from puzzles.models import Difficulty, Game, Move, Preferences, SeedJob
from puzzles.pools import seeding
from puzzles.pools.daily import today

from ..helpers import post, start

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


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
    json_values.map(json.dumps),
    game_bodies.map(lambda v: json.dumps(v, default=str)),
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

# URL arguments. {own}, {theirs}, {bobs_uid}... stand for real ids, filled in per test.
STAND_IN = re.compile(r"\{(\w+)\}")
game_ids = st.one_of(
    st.sampled_from(["{own}", "{theirs}", "{theirs_over}"]),
    st.integers(min_value=0, max_value=10**20).map(str),
)
ARGUMENTS = {
    "pk": game_ids,
    "date": st.one_of(
        st.just("{today}"), st.dates().map(datetime.date.isoformat), st.text(max_size=12)
    ),
    "difficulty": st.one_of(
        st.sampled_from([*Difficulty.values, "", "EASY", "impossible"]), st.text(max_size=8)
    ),
    "uidb64": st.one_of(st.sampled_from(["{bobs_uid}", "{alices_uid}"]), st.text(max_size=12)),
    "token": st.one_of(st.just("set-password"), st.text(max_size=40)),
    "object_id": st.one_of(game_ids, st.text(max_size=20)),
}
FIELDS = st.one_of(
    st.sampled_from(
        [
            "username",
            "password",
            "password1",
            "password2",
            "email",
            "old_password",
            "new_password1",
            "new_password2",
            "theme",
            "mark_mistakes",
            "auto_remove_notes",
            "show_timer",
            "next",
            "csrfmiddlewaretoken",
            "seed",
            "seed-difficulty",
            "seed-count",
            "import",
            "is_staff",
        ]
    ),
    st.text(max_size=12),
)
form_data = st.dictionaries(
    FIELDS,
    st.one_of(st.text(max_size=40), st.sampled_from(["bob", "bob@example.com", "//evil.example/"])),
    max_size=6,
)


def _routes() -> list[list]:
    """Every URL pattern of the site, each as its chain of patterns from the root."""
    found: list[list] = []

    def walk(patterns: list, chain: list) -> None:
        for entry in patterns:
            if isinstance(entry, URLResolver):
                walk(entry.url_patterns, [*chain, entry.pattern])
            else:
                found.append([*chain, entry.pattern])

    walk(get_resolver().url_patterns, [])
    return found


def _argument(name: str, converter: object) -> st.SearchStrategy[str]:
    """Values for one URL argument: the interesting ones for its name, else any of its kind,
    percent-quoted so that they reach the resolver as drawn."""
    if name in ARGUMENTS:
        values = ARGUMENTS[name]
    elif isinstance(converter, IntConverter):
        values = game_ids
    else:
        values = st.text(max_size=20)
    keep = "/" if isinstance(converter, PathConverter) else ""
    return values.map(lambda v: v if STAND_IN.fullmatch(v) else quote(v, safe=keep))


def _piece(pattern: object) -> st.SearchStrategy[str]:
    """The text of one pattern of a chain: a route with its arguments drawn, or a string the
    regular expression matches."""
    if not isinstance(pattern, RoutePattern):
        regex = pattern.regex.pattern.removeprefix("^")
        return st.from_regex(regex, fullmatch=True).map(lambda v: quote(v, safe="/"))
    parts = re.split(r"<(?:\w+:)?(\w+)>", str(pattern))
    literals, names = parts[0::2], parts[1::2]

    def join(drawn: tuple[str, ...]) -> str:
        return literals[0] + "".join(v + lit for v, lit in zip(drawn, literals[1:], strict=True))

    return st.tuples(*(_argument(n, pattern.converters[n]) for n in names)).map(join)


def _urls(chains: list[list]) -> st.SearchStrategy[str]:
    return st.one_of(*[st.tuples(*map(_piece, c)).map(lambda p: "/" + "".join(p)) for c in chains])


ROUTES = _routes()


def _game_actions() -> list[str]:
    """Every endpoint of the game API, from the URLconf: a new one is fuzzed unlisted."""
    prefix = "api/games/<int:pk>"
    routes = ["".join(str(p) for p in chain) for chain in ROUTES]
    return sorted(r.removeprefix(prefix) for r in routes if r.startswith(prefix))


GAME_ACTIONS = _game_actions()
# The admin has most of the patterns, but every one of them answers a player the same way:
# give the site's own pages three draws in four.
ADMIN = [chain for chain in ROUTES if str(chain[0]) == "admin/"]
SITE = [chain for chain in ROUTES if str(chain[0]) != "admin/"]
site_urls = st.sampled_from([_urls(SITE)] * 3 + [_urls(ADMIN)]).flatmap(lambda urls: urls)


@pytest.fixture(autouse=True)
def _fresh_counters():
    """Rate-limit counters start empty in every test, whatever ran before."""
    limits.clear_all()
    yield
    limits.clear_all()


@pytest.fixture
def world(alice, bob, staff, stocked) -> dict:
    """Alice with a game; Bob with preferences of his own, a game with moves and notes, and
    one he gave up; the ids the URL strategies stand for."""
    mine, theirs = Client(), Client()
    mine.force_login(alice)
    theirs.force_login(bob)
    Preferences.objects.create(user=bob, mark_mistakes=True, theme="dark")
    playing, over = start(theirs), start(theirs, "medium")
    cell = playing.puzzle.givens.index("0")
    for move in (
        {"cell": cell, "digit": 4, "mode": "note", "version": 0},
        {"cell": cell, "digit": 0, "mode": "note", "version": 1},
        {"cell": cell, "digit": int(playing.puzzle.solution[cell]), "mode": "value", "version": 2},
    ):
        assert post(theirs, playing, "moves", move).status_code == 200
    assert post(theirs, over, "give-up").status_code == 200
    return {
        "own": start(mine).pk,
        "theirs": playing.pk,
        "theirs_over": over.pk,
        "today": today().isoformat(),
        "bobs_uid": urlsafe_base64_encode(force_bytes(bob.pk)),
        "alices_uid": urlsafe_base64_encode(force_bytes(alice.pk)),
    }


def bobs_data() -> dict:
    """Everything of Bob's: his account row (password hash, e-mail, staff flags), groups,
    permissions, preferences, games and their move logs."""
    bob = User.objects.get(username="bob")
    return {
        "account": User.objects.filter(pk=bob.pk).values().get(),
        "groups": list(bob.groups.values_list("pk", flat=True)),
        "permissions": list(bob.user_permissions.values_list("pk", flat=True)),
        "preferences": list(Preferences.objects.filter(user=bob).values()),
        "games": list(Game.objects.filter(user=bob).order_by("pk").values()),
        "moves": list(Move.objects.filter(game__user=bob).order_by("game", "number").values()),
    }


def fill(url: str, world: dict) -> str:
    """The URL with its stand-ins replaced by the world's real ids."""
    return STAND_IN.sub(lambda m: str(world.get(m[1], m[0])), url)


def assert_nobody_else_touched(before: dict) -> None:
    """Bob's data is as it was; nobody became staff; no player started a seed job."""
    assert bobs_data() == before
    assert list(User.objects.filter(is_staff=True).values_list("username", flat=True)) == ["root"]
    assert not SeedJob.objects.exists()


def player(who: str) -> Client:
    """A fresh client: a guest, or logged in as Alice."""
    client = Client()
    if who == "alice":
        client.force_login(User.objects.get(username="alice"))
    return client


@FUZZ
@given(
    action=st.sampled_from(GAME_ACTIONS),
    method=st.sampled_from(["get", "post", "put", "delete", "patch"]),
    body=raw_bodies,
    content_type=content_types,
    extra=headers,
    target=st.one_of(game_ids, ids.map(str)),
    who=st.sampled_from(["alice", "guest"]),
)
def test_the_game_api_never_fails_and_never_touches_another_players_game(
    world, action, method, body, content_type, extra, target, who
):
    limits.clear_all()
    before = bobs_data()
    url = fill(f"/api/games/{quote(target, safe='{}')}{action}", world)
    raw = body if isinstance(body, bytes) else body.encode()
    response = player(who).generic(
        method.upper(), url, data=raw, content_type=content_type, **extra
    )
    assert response.status_code < 500, (url, body, response.content[:300])
    assert_nobody_else_touched(before)


def test_every_url_of_the_site_is_fuzzed():
    """The strategy covers the URLconf as it is: a new URL is fuzzed without a list to edit."""
    assert {"", "/moves", "/hint", "/fill-notes", "/apply-hint", "/path"} <= set(GAME_ACTIONS)
    named = {str(chain[-1]) for chain in ROUTES}
    assert len(ROUTES) > 40
    for route in ("", "games/<int:pk>/", "daily/", "robots.txt", "healthz", "pool/", "login/"):
        assert route in named, route
    assert "reset/<uidb64>/<token>/" in named


@FUZZ
@given(
    url=site_urls,
    data=form_data,
    method=st.sampled_from(["get", "post", "put", "delete", "head", "options"]),
    extra=headers,
    who=st.sampled_from(["alice", "guest"]),
)
def test_every_url_and_form_never_fails_on_random_input(world, url, data, method, extra, who):
    limits.clear_all()
    before = bobs_data()
    url = fill(url, world)
    client = player(who)
    if method in ("get", "post", "head", "options"):
        response = getattr(client, method)(url, data, **extra)
    else:
        response = client.generic(method.upper(), url, json.dumps(data), **extra)
    if response.status_code == 503 and urlsplit(url).path.startswith("/healthz"):
        # A health check answers 503 while no worker has been seen, as in this test's world:
        # that is the site's state, said on purpose, not a failure from what the client sent.
        assert method == "head" or json.loads(response.content)["status"] == "down"
    else:
        assert response.status_code < 500, (url, data, response.content[:300])
    if 300 <= response.status_code < 400:
        assert urlsplit(response["Location"]).netloc in ("", "testserver"), response["Location"]
    assert_nobody_else_touched(before)


seed_fields = st.fixed_dictionaries(
    {},
    optional={
        "seed": st.sampled_from(["1", ""]),
        "seed-difficulty": st.one_of(st.sampled_from(Difficulty.values), st.text(max_size=10)),
        "seed-count": st.one_of(
            st.integers(min_value=1, max_value=5000).map(str),
            st.integers(min_value=-(10**12), max_value=10**12).map(str),
            st.text(max_size=10),
        ),
    },
)
import_files = st.one_of(
    st.binary(max_size=3000),
    st.lists(st.text(alphabet="0123456789.|-+ \t", min_size=0, max_size=100), max_size=30).map(
        lambda lines: "\n".join(lines).encode()
    ),
)


@FUZZ
@given(
    seed=seed_fields,
    upload=st.one_of(st.none(), st.tuples(st.text(max_size=300), import_files)),
    extra=headers,
)
def test_the_staff_seed_and_import_forms_never_fail_and_only_valid_jobs_start(
    world, seed, upload, extra
):
    before = bobs_data()
    SeedJob.objects.all().delete()
    staff = Client()
    staff.force_login(User.objects.get(username="root"))
    data = dict(seed)
    if upload is not None:
        name, content = upload
        name = name.replace("/", "_").replace("\\", "_")  # a name a browser could send
        name = "x" if name in ("", ".", "..") else name
        data = {"import": "1", "import-file": SimpleUploadedFile(name, content)}
    response = staff.post("/admin/pool/", data, **extra)
    assert response.status_code < 500, (data, response.content[:300])
    assert bobs_data() == before
    jobs = list(SeedJob.objects.all())
    if response.status_code != 302 or urlsplit(response["Location"]).path != "/admin/pool/":
        assert jobs == []  # refused: nothing started
        return
    (job,) = jobs
    if job.kind == SeedJob.Kind.GENERATE:
        assert job.difficulty == data["seed-difficulty"] and 1 <= job.requested <= 5000
    else:
        assert job.requested > 0 and job.payload  # the file is kept for the worker
    assert job.state == SeedJob.State.QUEUED and job.created_by.username == "root"


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
