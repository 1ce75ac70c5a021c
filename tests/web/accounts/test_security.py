"""Rate limits on log-in, sign-up and password reset; production settings and cookies;
an admin that only staff reach, and seeding only for staff allowed to seed."""

from __future__ import annotations

import datetime
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib import admin
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db.models import Model
from django.test import Client, override_settings
from django.urls import URLResolver, reverse
from django.urls.resolvers import RoutePattern

from puzzles.accounts import limits
from puzzles.accounts import views as accounts
from puzzles.learn import examples, guide
from puzzles.models import (
    DailyPuzzle,
    Game,
    Move,
    PoolTarget,
    Preferences,
    SeedJob,
    TechniqueExample,
)
from puzzles.pools import seeding

from ...harness import manage
from ..helpers import post, start

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[3]


def login(client: Client, username: str, password: str, ip: str = "10.0.0.1"):
    return client.post(
        "/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=ip
    )


def test_an_account_is_locked_after_repeated_failures_from_any_client(alice):
    for i in range(limits.LOGIN_PER_ACCOUNT.count):
        assert login(Client(), "alice", "wrong", ip=f"10.0.1.{i}").status_code == 200
    response = login(Client(), "alice", "wonderland-42", ip="10.9.9.9")
    assert response.status_code == 429
    assert b"Too many attempts" in response.content
    assert "_auth_user_id" not in response.client.session
    assert (
        login(Client(), "bob-does-not-exist", "x", ip="10.9.9.9").status_code == 200
    )  # others fine


def test_a_client_is_slowed_down_after_many_failures_across_accounts(alice):
    for i in range(limits.LOGIN_PER_CLIENT.count):
        login(Client(), f"user{i}", "wrong", ip="10.0.0.7")
    assert login(Client(), "alice", "wonderland-42", ip="10.0.0.7").status_code == 429
    assert login(Client(), "alice", "wonderland-42", ip="10.0.0.8").status_code == 302


def test_a_good_login_clears_its_clients_counter_on_the_account(alice):
    for _ in range(limits.LOGIN_PER_PAIR.count - 1):
        login(Client(), "alice", "wrong")
    assert login(Client(), "alice", "wonderland-42").status_code == 302
    for _ in range(limits.LOGIN_PER_PAIR.count - 1):
        login(Client(), "alice", "wrong")
    assert login(Client(), "alice", "wonderland-42").status_code == 302


def signup(username: str, email: str = "", ip: str = "10.1.1.1", password: str = "x"):
    """One sign-up attempt; with the default password, one that fails validation."""
    fields = {"username": username, "email": email, "password1": password}
    return Client().post("/accounts/signup/", fields, REMOTE_ADDR=ip)


GOOD_PASSWORD = "a-long-pass-phrase"


def test_sign_ups_are_limited_per_client(django_user_model):
    for i in range(limits.SIGNUP_PER_CLIENT.count):
        assert signup(f"u{i}", ip="10.1.1.1").status_code == 200  # refused by the validators
    refused = signup("late", ip="10.1.1.1", password=GOOD_PASSWORD)
    assert refused.status_code == 429
    assert accounts.TOO_MANY in refused.content.decode()
    assert not django_user_model.objects.filter(username="late").exists()
    assert signup("late", ip="10.1.1.2", password=GOOD_PASSWORD).status_code == 302


def test_sign_ups_are_limited_per_username_from_any_client(django_user_model):
    for i in range(limits.SIGNUP_PER_ACCOUNT.count):
        assert signup("carol", ip=f"10.4.0.{i}").status_code == 200
    refused = signup("carol", ip="10.4.1.1", password=GOOD_PASSWORD)
    assert refused.status_code == 429
    page = refused.content.decode()
    assert accounts.TOO_MANY_FOR_ACCOUNT in page
    assert re.search(r'<form[^>]*>.*role="alert">Too many attempts to sign up', page, re.S)
    assert 'value="carol"' in page  # the form keeps what was typed, checks nothing
    assert not django_user_model.objects.filter(username="carol").exists()
    assert signup("CAROL", ip="10.4.1.2", password=GOOD_PASSWORD).status_code == 429
    assert signup("dave", ip="10.4.1.1", password=GOOD_PASSWORD).status_code == 302  # others fine


def test_sign_ups_are_limited_per_email_address_across_usernames(django_user_model):
    for i in range(limits.SIGNUP_PER_ACCOUNT.count):
        signup(f"name{i}", "erin@example.com", ip=f"10.5.0.{i}")
    refused = signup("erin", "Erin@Example.com", ip="10.5.1.1", password=GOOD_PASSWORD)
    assert refused.status_code == 429
    assert accounts.TOO_MANY_FOR_ACCOUNT in refused.content.decode()
    assert not django_user_model.objects.filter(username="erin").exists()
    fine = signup("erin", "erin@example.org", ip="10.5.1.1", password=GOOD_PASSWORD)
    assert fine.status_code == 302


def test_password_reset_mails_are_limited_per_address(alice, mailoutbox):
    for _ in range(limits.RESET_PER_ACCOUNT.count + 2):
        Client().post(
            "/accounts/password_reset/", {"email": "alice@example.com"}, REMOTE_ADDR="10.2.2.2"
        )
    assert len(mailoutbox) == limits.RESET_PER_ACCOUNT.count


def test_forwarded_addresses_count_only_behind_trusted_proxies(settings, alice):
    settings.TRUSTED_PROXIES = 1
    for i in range(limits.LOGIN_PER_CLIENT.count):
        Client().post(
            "/accounts/login/",
            {"username": f"x{i}", "password": "no"},
            REMOTE_ADDR="10.3.3.3",
            HTTP_X_FORWARDED_FOR="1.2.3.4",
        )
    other = Client().post(
        "/accounts/login/",
        {"username": "alice", "password": "wonderland-42"},
        REMOTE_ADDR="10.3.3.3",
        HTTP_X_FORWARDED_FOR="5.6.7.8",
    )
    assert other.status_code == 302  # the same proxy, another player behind it


def test_limits_fail_open_when_the_cache_is_down(alice):
    dead = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 0.2},
        }
    }
    with override_settings(CACHES=dead):
        for _ in range(limits.LOGIN_PER_ACCOUNT.count + 1):
            assert login(Client(), "alice", "wrong").status_code == 200
        assert login(Client(), "alice", "wonderland-42").status_code == 302


def test_clearing_the_counters_lifts_every_limit_and_keeps_the_rest_of_the_cache(alice):
    for i in range(limits.LOGIN_PER_ACCOUNT.count):
        login(Client(), "alice", "wrong", ip=f"10.6.0.{i}")
    assert login(Client(), "alice", "wonderland-42").status_code == 429
    cache.set("unrelated", "kept")
    limits.clear_all()
    assert login(Client(), "alice", "wonderland-42").status_code == 302
    assert cache.get("unrelated") == "kept"


def test_check_deploy_passes_under_production_settings():
    env = {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"},
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "k" * 20 + "-production-secret-with-enough-variety-0123456789",
        "DJANGO_ALLOWED_HOSTS": "sudoku.example.com",
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "mail.example.com",
    }
    assert "no issues" in manage(env, "check", "--deploy", "--fail-level", "WARNING")


PRODUCTION_SETTINGS = [
    "SESSION_COOKIE_SECURE",
    "SESSION_COOKIE_HTTPONLY",
    "SESSION_COOKIE_SAMESITE",
    "CSRF_COOKIE_SECURE",
    "CSRF_COOKIE_HTTPONLY",
    "CSRF_COOKIE_SAMESITE",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
]


def production_settings() -> dict:
    """The security settings as sudokusite.settings makes them in production."""
    env = {**os.environ, "DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": "s" * 60}
    env |= {"DJANGO_ALLOWED_HOSTS": "sudoku.example.com"}
    env.pop("DJANGO_HTTPS", None)
    code = (
        "import django, json, os; os.environ['DJANGO_SETTINGS_MODULE']='sudokusite.settings';"
        "django.setup(); from django.conf import settings as s;"
        f"print(json.dumps({{n: getattr(s, n) for n in {PRODUCTION_SETTINGS!r}}}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_production_cookies_are_secure_and_https_is_enforced(alice):
    production = production_settings()
    assert production["SECURE_HSTS_SECONDS"] > 0
    same_site = {production[f"{c}_COOKIE_SAMESITE"] for c in ("SESSION", "CSRF")}
    assert same_site <= {"Lax", "Strict"}  # never None: other sites' forms send no cookie
    with override_settings(**production):
        browser = Client(enforce_csrf_checks=True)
        plain = browser.get("/accounts/login/")
        assert plain.status_code == 301 and plain["Location"].startswith("https://")
        page = browser.get("/accounts/login/", secure=True)
        assert page["Strict-Transport-Security"].startswith("max-age=")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode())
        response = browser.post(
            "/accounts/login/",
            {"username": "alice", "password": "wonderland-42", "csrfmiddlewaretoken": token[1]},
            secure=True,
            HTTP_REFERER="https://testserver/accounts/login/",
        )
    assert response.status_code == 302  # logged in, over HTTPS, through the CSRF check
    session = response.cookies["sessionid"].OutputString()
    assert "; HttpOnly" in session
    assert "csrftoken" in response.cookies  # the token changes at log-in, as securely
    for cookie in (session, page.cookies["csrftoken"], response.cookies["csrftoken"]):
        text = cookie if isinstance(cookie, str) else cookie.OutputString()
        assert "; Secure" in text and re.search(r"; SameSite=(Lax|Strict)\b", text), text


# The admin: only staff get in, and only staff allowed to seed start seed jobs ------------


@pytest.fixture
def admin_objects(bob, stocked) -> dict[type[Model], Model]:
    """One object of every model the admin shows, for the admin URLs' arguments."""
    player = Client()
    player.force_login(bob)
    game = start(player)
    move = {"cell": game.puzzle.givens.index("0"), "digit": 5, "mode": "value", "version": 0}
    assert post(player, game, "moves", move).status_code == 200
    puzzle = stocked["medium"][0]
    daily = DailyPuzzle.objects.create(
        date=datetime.date(2026, 1, 1), difficulty="medium", puzzle=puzzle
    )
    target, _ = PoolTarget.objects.get_or_create(difficulty="easy", defaults={"low": 2, "high": 4})
    objects = {
        Game: game,
        DailyPuzzle: daily,
        type(puzzle): puzzle,
        PoolTarget: target,
        SeedJob: seeding.create_generate_job("easy", 5),
        type(bob): bob,
        Group: Group.objects.create(name="editors"),
    }
    examples.scan(stocked["easy"][0], set(guide.SLUGS))
    objects[TechniqueExample] = TechniqueExample.objects.first()
    assert set(objects) == set(admin.site._registry), "a model was added to the admin"
    return objects


def _admin_routes() -> list[tuple[str, list[str]]]:
    """Every named URL of the admin site, with the names of its arguments."""
    found = []

    def walk(patterns: list, params: list[str]) -> None:
        for entry in patterns:
            pattern = entry.pattern
            names = [
                *params,
                *(
                    pattern.converters
                    if isinstance(pattern, RoutePattern)
                    else pattern.regex.groupindex
                ),
            ]
            if isinstance(entry, URLResolver):
                walk(entry.url_patterns, names)
            elif entry.name:
                found.append((entry.name, names))

    walk(admin.site.urls[0], [])
    return found


def admin_urls(objects: dict[type[Model], Model]) -> list[str]:
    """Every admin URL, reversed by name with real objects, and the unnamed ones: the old
    form of a change page and the catch-all."""
    models = {f"{m._meta.app_label}_{m._meta.model_name}_": m for m in admin.site._registry}
    labels = sorted({m._meta.app_label for m in admin.site._registry})
    game = objects[Game]
    urls = [f"/admin/{m._meta.app_label}/{m._meta.model_name}/{o.pk}/" for m, o in objects.items()]
    urls.append("/admin/no-such-page/")
    for name, params in _admin_routes():
        model = next((m for prefix, m in models.items() if name.startswith(prefix)), None)
        if not params:
            urls.append(reverse(f"admin:{name}"))
        elif params == ["app_label"]:
            urls += [reverse(f"admin:{name}", kwargs={"app_label": label}) for label in labels]
        elif params in (["object_id"], ["id"]) and model is not None:
            urls.append(reverse(f"admin:{name}", kwargs={params[0]: objects[model].pk}))
        elif params == ["content_type_id", "object_id"]:
            kind = ContentType.objects.get_for_model(Game).pk
            urls.append(reverse(f"admin:{name}", args=[kind, game.pk]))
        else:
            raise AssertionError(f"admin:{name} takes {params}: give it arguments here")
    return urls


def everything() -> dict[str, list]:
    """Every row the admin or seeding could change."""
    models = [*admin.site._registry, Move, Preferences, Permission]
    return {m._meta.label: list(m.objects.order_by("pk").values()) for m in models}


def admin_posts(objects: dict[type[Model], Model]) -> dict:
    """A POST body that would change something on any admin page, for someone allowed."""
    game = objects[Game]
    return {
        "post": "yes",  # confirms a delete
        "action": "delete_selected",
        "_selected_action": [o.pk for o in objects.values()],
        "low": "0",
        "high": "1",
        "batch_size": "1",
        "username": "mallory",
        "password1": "a-long-pass-phrase",
        "password2": "a-long-pass-phrase",
        "is_staff": "on",
        "is_superuser": "on",
        "status": "solved",
        "values": game.puzzle.solution,
        "seed-difficulty": "easy",
        "seed-count": "5",
        "seed": "1",
    }


def test_regular_players_and_guests_reach_no_admin_url_and_change_nothing(alice, admin_objects):
    urls = admin_urls(admin_objects)
    job = admin_objects[SeedJob].pk
    assert {"/admin/", "/admin/puzzles/", "/admin/pool/", "/admin/pool/status.json"} <= set(urls)
    assert {f"/admin/puzzles/seedjob/{job}/change/", "/admin/auth/user/add/"} <= set(urls)
    player, guest = Client(), Client()
    player.force_login(alice)
    before = everything()
    upload = {"import": "1", "import-file": SimpleUploadedFile("p.txt", b"0" * 81 + b"\n")}
    for client in (player, guest):
        for url in urls:
            if url == reverse("admin:login"):
                continue  # the log-in form itself is for everyone
            for response in (
                client.get(url),
                client.post(url, admin_posts(admin_objects)),
                client.post(url, upload),
            ):
                where = (url, response.status_code, response.get("Location"))
                if url == reverse("admin:logout"):
                    assert response.status_code == 302 and response["Location"] == "/admin/", where
                else:
                    assert response.status_code in (302, 403), where
                    if response.status_code == 302:
                        assert response["Location"].startswith("/admin/login/?next="), where
    assert everything() == before
    assert list(SeedJob.objects.values_list("pk", flat=True)) == [job]


def test_a_staff_member_without_the_seed_permission_cannot_seed_or_import(
    client, django_user_model, admin_objects
):
    clerk = django_user_model.objects.create_user(
        "clerk", password="clerk-password-1", is_staff=True
    )
    clerk.user_permissions.add(Permission.objects.get(codename="view_seedjob"))
    client.force_login(clerk)
    page = client.get("/admin/pool/")
    assert page.status_code == 200 and not page.context["can_seed"]
    assert b'name="seed-count"' not in page.content
    before = everything()
    seed = client.post("/admin/pool/", {"seed": "1", "seed-difficulty": "easy", "seed-count": "5"})
    assert seed.status_code == 403
    upload = SimpleUploadedFile("p.txt", b"0" * 81 + b"\n")
    assert client.post("/admin/pool/", {"import": "1", "import-file": upload}).status_code == 403
    job = admin_objects[SeedJob]
    assert client.get(f"/admin/puzzles/seedjob/{job.pk}/change/").status_code == 200  # may look
    assert (
        client.post(f"/admin/puzzles/seedjob/{job.pk}/delete/", {"post": "yes"}).status_code == 403
    )
    assert client.get("/admin/puzzles/puzzle/").status_code == 403  # no other permission
    assert everything() == before
