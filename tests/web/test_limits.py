"""Log-in and sign-up limits keyed on the name Django authenticates, look-alike names refused
at sign-up, limits that slow an attacker without locking the owner out, and limits on
starting games."""

from __future__ import annotations

import re

import pytest
from django.test import Client, override_settings

from puzzles.accounts import limits
from puzzles.models import Game
from puzzles.pools.daily import today

pytestmark = pytest.mark.django_db

FULLWIDTH_ALICE = "ａｌｉｃｅ"  # NFKC turns it into "alice"
GOOD_PASSWORD = "a-long-pass-phrase"


def login(username: str, password: str, ip: str, client: Client | None = None):
    client = client or Client()
    return client.post(
        "/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=ip
    )


def signup(username: str, ip: str, password: str = "x", email: str = ""):
    fields = {"username": username, "email": email, "password1": password, "password2": password}
    return Client().post("/accounts/signup/", fields, REMOTE_ADDR=ip)


# Finding 3: the per-account limit keyed on the raw text ----------------------------------


def test_other_unicode_spellings_of_a_username_share_its_counter(alice):
    """Fullwidth letters, stray spaces and case are one account to Django's log-in, so they
    are one account to the limit: an attacker gets no fresh counter per spelling."""
    spellings = [FULLWIDTH_ALICE, " alice ", "ALICE", "Ａlice"]
    for i in range(limits.LOGIN_PER_ACCOUNT.count):
        name = spellings[i % len(spellings)]
        assert login(name, "wrong", ip=f"10.20.0.{i}").status_code == 200
    assert login(FULLWIDTH_ALICE, "wonderland-42", ip="10.20.1.1").status_code == 429
    assert login("alice", "wonderland-42", ip="10.20.1.2").status_code == 429


def test_a_look_alike_of_an_existing_name_is_refused_at_sign_up(django_user_model):
    django_user_model.objects.create_user("rtadmin", password="x")
    cyrillic_a = "rt\u0430dmin"
    response = signup(cyrillic_a, ip="10.21.0.1", password=GOOD_PASSWORD)
    assert response.status_code == 200
    assert "mixes alphabets" in response.content.decode()
    assert not django_user_model.objects.filter(username=cyrillic_a).exists()


@pytest.mark.parametrize(
    "name",
    [
        "\u0440\u043e\u0440",  # Cyrillic er, o, er: reads as "pop"
        "p0p",  # a zero for the o
        "POP",  # case
        "ｐｏｐ",  # fullwidth, which Django folds to "pop" before the form sees it
    ],
)
def test_a_name_that_reads_like_an_existing_one_is_refused(django_user_model, name):
    django_user_model.objects.create_user("pop", password="x")
    response = signup(name, ip="10.21.0.2", password=GOOD_PASSWORD)
    assert response.status_code == 200
    assert django_user_model.objects.count() == 1


@pytest.mark.parametrize("name", ["Алиса", "jürgen", "player_1", "東京", "mañana"])
def test_names_in_one_script_are_welcome(django_user_model, name):
    assert signup(name, ip="10.21.0.3", password=GOOD_PASSWORD).status_code == 302
    assert django_user_model.objects.filter(username=name).exists()


def test_a_mixed_script_name_is_refused_even_when_nobody_has_its_look_alike(django_user_model):
    response = signup("p\u0430ypal", ip="10.21.0.4", password=GOOD_PASSWORD)
    assert response.status_code == 200
    assert "mixes alphabets" in response.content.decode()
    assert not django_user_model.objects.exists()


# Finding 4: anyone could lock a known username out ------------------------------------


def test_the_owner_logs_in_from_a_known_address_while_the_account_is_under_attack(alice):
    assert login("alice", "wonderland-42", ip="10.30.0.1").status_code == 302
    for i in range(limits.LOGIN_PER_ACCOUNT.count):  # the account's limit, from anywhere
        login("alice", "wrong", ip=f"10.31.0.{i}")
    assert login("alice", "wonderland-42", ip="10.30.0.1").status_code == 302


def test_the_owner_logs_in_from_a_known_device_on_a_new_address(alice):
    device = Client()
    assert login("alice", "wonderland-42", ip="10.32.0.1", client=device).status_code == 302
    device.post("/accounts/logout/")
    for i in range(limits.LOGIN_PER_ACCOUNT.count):
        login("alice", "wrong", ip=f"10.33.0.{i}")
    assert login("alice", "wonderland-42", ip="10.32.9.9", client=device).status_code == 302
    assert login("alice", "wonderland-42", ip="10.32.9.8").status_code == 429  # not another


def test_the_owners_success_does_not_lift_the_lock_of_another_client(alice):
    device, attacker = Client(), "10.34.0.1"
    assert login("alice", "wonderland-42", ip="10.35.0.1", client=device).status_code == 302
    device.post("/accounts/logout/")
    for _ in range(limits.LOGIN_PER_ACCOUNT.count):
        login("alice", "wrong", ip=attacker)
    assert login("alice", "wonderland-42", ip="10.35.0.1", client=device).status_code == 302
    assert login("alice", "wonderland-42", ip=attacker).status_code == 429


def test_a_locked_out_owner_on_a_new_device_gets_in_by_resetting_the_password(alice, mailoutbox):
    for i in range(limits.LOGIN_PER_ACCOUNT.count):
        login("alice", "wrong", ip=f"10.37.0.{i}")
    owner, ip = Client(), "10.38.0.1"
    refused = login("alice", "wonderland-42", ip=ip, client=owner)
    assert refused.status_code == 429
    assert "reset your password" in refused.content.decode()
    owner.post("/accounts/password_reset/", {"email": "alice@example.com"}, REMOTE_ADDR=ip)
    link = re.search(r"https?://[^/\s]+(/accounts/reset/\S+/)", mailoutbox[0].body).group(1)
    form = owner.get(link, follow=True, REMOTE_ADDR=ip)
    new = {"new_password1": "down-the-rabbit-hole-3", "new_password2": "down-the-rabbit-hole-3"}
    assert owner.post(form.redirect_chain[-1][0], new, REMOTE_ADDR=ip).status_code == 302
    assert login("alice", "down-the-rabbit-hole-3", ip=ip, client=owner).status_code == 302


def test_a_few_sign_ups_elsewhere_do_not_block_a_username(django_user_model):
    for i in range(5):
        assert signup("carol", ip=f"10.40.0.{i}").status_code == 200  # weak password
    assert signup("carol", ip="10.40.1.1", password=GOOD_PASSWORD).status_code == 302


def test_one_client_retrying_one_username_is_slowed_down(django_user_model):
    for _ in range(limits.SIGNUP_PER_PAIR.count):
        assert signup("dora", ip="10.41.0.1").status_code == 200
    assert signup("dora", ip="10.41.0.1", password=GOOD_PASSWORD).status_code == 429
    assert signup("dora", ip="10.41.0.2", password=GOOD_PASSWORD).status_code == 302


# Finding 5 (second half): starting games had no limit -----------------------------------


def _starts_until_refused(url: str, tries: int = 200, **extra) -> int:
    """How many starts went through before the first 429 (tries when none came)."""
    for done in range(tries):
        response = Client().post(url, **extra)
        if response.status_code == 429:
            return done
        assert response.status_code == 302
    return tries


def test_a_script_starting_games_from_one_address_is_stopped(stocked):
    allowed = _starts_until_refused("/play/easy/", REMOTE_ADDR="10.50.0.1")
    assert allowed < 200
    refused = Client().post("/play/easy/", REMOTE_ADDR="10.50.0.1")
    assert refused.status_code == 429
    assert "Too many new games" in refused.content.decode()
    assert int(refused["Retry-After"]) > 0
    daily = Client().post(f"/daily/{today().isoformat()}/easy/", REMOTE_ADDR="10.50.0.1")
    assert daily.status_code == 429
    assert Client().post("/play/easy/", REMOTE_ADDR="10.50.0.2").status_code == 302


def test_starting_games_is_limited_per_account_from_any_address(stocked, alice, django_user_model):
    url = f"/daily/{today().isoformat()}/easy/"
    device = Client()
    device.force_login(alice)
    refused = None
    for i in range(200):
        response = device.post(url, REMOTE_ADDR=f"10.51.{i // 100}.{i % 100}")
        if response.status_code == 429:
            refused = i
            break
        assert response.status_code == 302
    assert refused is not None
    games = Game.objects.count()
    assert device.post("/play/easy/", REMOTE_ADDR="10.51.9.1").status_code == 429
    assert Game.objects.count() == games
    other = Client()
    other.force_login(django_user_model.objects.create_user("zed", password="x"))
    assert other.post("/play/easy/", REMOTE_ADDR="10.51.9.1").status_code == 302


def test_game_starts_are_not_limited_when_the_cache_is_down(stocked):
    dead = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 0.2},
        }
    }
    with override_settings(CACHES=dead):
        for _ in range(3):
            assert Client().post("/play/easy/", REMOTE_ADDR="10.52.0.1").status_code == 302
