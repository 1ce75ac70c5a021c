"""Sign-up in one screen: a name, one password (no confirmation field), an optional e-mail
address, and Django's password rules said in one line and still enforced."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db


def test_the_form_asks_a_name_one_password_and_an_optional_address(client):
    html = client.get("/accounts/signup/").content.decode()
    assert 'name="username"' in html and 'name="password1"' in html and 'name="email"' in html
    assert 'name="password2"' not in html and "confirmation" not in html.lower()
    assert "At least 8 characters, not too common, not all digits, not like your name." in html
    assert "<li>Your password" not in html  # Django's four-item list is gone
    assert "data-show-password" in html


def test_one_password_makes_the_account(client):
    response = client.post(
        "/accounts/signup/", {"username": "newt", "password1": "a-long-pass-phrase"}
    )
    assert response.status_code == 302
    assert User.objects.get(username="newt").check_password("a-long-pass-phrase")


@pytest.mark.parametrize(
    "password, why",
    [
        ("short1x", "too short"),
        ("password123", "too common"),
        ("8204719365", "entirely numeric"),
        ("newtnewt-1", "too similar"),
    ],
)
def test_django_s_password_rules_still_hold(client, password, why):
    response = client.post("/accounts/signup/", {"username": "newtnewt", "password1": password})
    assert response.status_code == 200
    assert why in response.content.decode()
    assert not User.objects.filter(username="newtnewt").exists()


def test_no_password_is_a_clear_refusal(client):
    response = client.post("/accounts/signup/", {"username": "newt", "email": "not an address"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "This field is required." in html and "Enter a valid email address." in html
    assert not User.objects.exists()
