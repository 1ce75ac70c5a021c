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
    fields = {"username": username, "email": email, "password1": password}
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


# The admin's log-in: counted and limited as the site's -----------------------------------


def admin_login(username: str, password: str, ip: str, client: Client | None = None):
    client = client or Client()
    return client.post(
        "/admin/login/?next=/admin/", {"username": username, "password": password}, REMOTE_ADDR=ip
    )


def test_forty_wrong_admin_passwords_then_the_right_one_is_refused(staff):
    answers = [admin_login("root", "wrong", ip="10.60.0.1").status_code for _ in range(40)]
    allowed = limits.LOGIN_PER_PAIR.count
    assert answers[:allowed] == [200] * allowed and set(answers[allowed:]) == {429}
    refused = admin_login("root", "root-password-1", ip="10.60.0.1")
    assert refused.status_code == 429
    assert "Too many attempts" in refused.content.decode()
    assert "_auth_user_id" not in refused.wsgi_request.session
    # Another address may still try: the lock is on this client and this account.
    assert admin_login("root", "root-password-1", ip="10.60.0.2").status_code == 302


def test_the_admin_and_the_site_log_in_share_their_counters(staff):
    for _ in range(limits.LOGIN_PER_PAIR.count):
        assert login("root", "wrong", ip="10.61.0.1").status_code == 200
    assert admin_login("root", "root-password-1", ip="10.61.0.1").status_code == 429
    for i in range(limits.LOGIN_PER_ACCOUNT.count):
        admin_login("root", "wrong", ip=f"10.62.{i // 100}.{i % 100}")
    assert login("root", "root-password-1", ip="10.63.0.1").status_code == 429
    assert admin_login("root", "root-password-1", ip="10.63.0.1").status_code == 429


def test_many_wrong_admin_passwords_from_one_client_are_refused_across_accounts(staff):
    for i in range(limits.LOGIN_PER_CLIENT.count):
        admin_login(f"nobody{i}", "wrong", ip="10.64.0.1")
    assert admin_login("root", "root-password-1", ip="10.64.0.1").status_code == 429


def test_an_admin_log_in_makes_the_device_known_to_the_account(staff):
    device = Client()
    assert admin_login("root", "root-password-1", ip="10.65.0.1", client=device).status_code == 302
    device.cookies.pop("sessionid")  # logged out, the device cookie kept
    for i in range(limits.LOGIN_PER_ACCOUNT.count):
        admin_login("root", "wrong", ip=f"10.66.{i // 100}.{i % 100}")
    answer = admin_login("root", "root-password-1", ip="10.65.9.9", client=device)
    assert answer.status_code == 302


# The password-change form: guesses at the old password are limited -----------------------


def change_password(client: Client, old: str, new: str, ip: str):
    fields = {"old_password": old, "new_password1": new, "new_password2": new}
    return client.post("/accounts/password_change/", fields, REMOTE_ADDR=ip)


def test_guesses_at_the_old_password_are_limited_per_account(alice):
    session = Client()
    session.force_login(alice)
    allowed = limits.PASSWORD_CHANGE_PER_ACCOUNT.count
    answers = [
        change_password(session, f"guess-{i}", "a-new-pass-phrase-9", ip=f"10.70.0.{i}").status_code
        for i in range(allowed + 2)
    ]
    assert answers[:allowed] == [200] * allowed and answers[allowed:] == [429, 429]
    refused = change_password(session, "wonderland-42", "a-new-pass-phrase-9", ip="10.70.1.1")
    assert refused.status_code == 429 and "Too many attempts" in refused.content.decode()
    alice.refresh_from_db()
    assert alice.check_password("wonderland-42")  # not even checked, nor changed


def test_guesses_at_the_old_password_are_limited_per_client(alice, bob, django_user_model):
    sessions = []
    for user in (alice, bob, django_user_model.objects.create_user("cy", password="cy-pass-1")):
        session = Client()
        session.force_login(user)
        sessions.append(session)
    answers = [
        change_password(sessions[i % 3], "guess", "a-new-pass-phrase-9", ip="10.71.0.1").status_code
        for i in range(limits.PASSWORD_CHANGE_PER_CLIENT.count + 1)
    ]
    assert set(answers[:-1]) == {200} and answers[-1] == 429


def test_the_owner_changes_the_password_in_a_few_tries(alice):
    session = Client()
    session.force_login(alice)
    assert (
        change_password(session, "typo", "a-new-pass-phrase-9", ip="10.72.0.1").status_code == 200
    )
    ok = change_password(session, "wonderland-42", "a-new-pass-phrase-9", ip="10.72.0.1")
    assert ok.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("a-new-pass-phrase-9")


# Sign-up makes the device known ------------------------------------------------------------


def test_a_new_account_logs_in_from_its_sign_up_browser_while_under_attack(django_user_model):
    device, ip = Client(), "10.73.0.1"
    fields = {"username": "newt", "password1": GOOD_PASSWORD}
    assert device.post("/accounts/signup/", fields, REMOTE_ADDR=ip).status_code == 302
    device.post("/accounts/logout/", REMOTE_ADDR=ip)
    for i in range(limits.LOGIN_PER_ACCOUNT.count):
        login("newt", "wrong", ip=f"10.74.{i // 100}.{i % 100}")
    assert login("newt", GOOD_PASSWORD, ip=ip, client=device).status_code == 302
    elsewhere = Client()
    assert login("newt", GOOD_PASSWORD, ip="10.73.0.9", client=elsewhere).status_code == 429


# Known devices forgotten when the password changes ----------------------------------------


def _attack(name: str, prefix: str) -> None:
    for i in range(limits.LOGIN_PER_ACCOUNT.count):
        login(name, "wrong", ip=f"{prefix}.{i // 100}.{i % 100}")


def test_a_password_change_forgets_the_other_devices_of_the_account(alice):
    old_device, owner = Client(), Client()
    assert login("alice", "wonderland-42", ip="10.75.0.1", client=old_device).status_code == 302
    assert login("alice", "wonderland-42", ip="10.75.0.2", client=owner).status_code == 302
    new = "a-new-pass-phrase-9"
    assert change_password(owner, "wonderland-42", new, ip="10.75.0.2").status_code == 302
    old_device.post("/accounts/logout/")
    owner.post("/accounts/logout/")
    _attack("alice", "10.76")
    # The device known before the change (cookie and address) is a stranger now ...
    assert login("alice", new, ip="10.75.0.1", client=old_device).status_code == 429
    # ... the one that changed it is still known.
    assert login("alice", new, ip="10.75.0.2", client=owner).status_code == 302


def test_a_password_reset_forgets_the_devices_known_before(alice, mailoutbox):
    old_device = Client()
    assert login("alice", "wonderland-42", ip="10.77.0.1", client=old_device).status_code == 302
    old_device.post("/accounts/logout/")
    owner, ip = Client(), "10.77.0.2"
    owner.post("/accounts/password_reset/", {"email": "alice@example.com"}, REMOTE_ADDR=ip)
    link = re.search(r"https?://[^/\s]+(/accounts/reset/\S+/)", mailoutbox[0].body).group(1)
    form = owner.get(link, follow=True, REMOTE_ADDR=ip)
    new = {"new_password1": "down-the-rabbit-hole-3", "new_password2": "down-the-rabbit-hole-3"}
    assert owner.post(form.redirect_chain[-1][0], new, REMOTE_ADDR=ip).status_code == 302
    _attack("alice", "10.78")
    assert (
        login("alice", "down-the-rabbit-hole-3", ip="10.77.0.1", client=old_device).status_code
        == 429
    )
    assert login("alice", "down-the-rabbit-hole-3", ip=ip, client=owner).status_code == 302
