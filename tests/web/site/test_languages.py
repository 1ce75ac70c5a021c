"""The player's language: the URL's prefix, then the account's setting, then the switcher's
choice, then Accept-Language; the switcher keeps the player on the same page; the API
answers in the language its request names; hreflang alternates; Arabic right to left."""

from __future__ import annotations

import re

import pytest
from django.conf import settings

from puzzles.models import Preferences

pytestmark = pytest.mark.django_db

SHIPPED = [code for code, _ in settings.LANGUAGES]


def html_tag(response) -> str:
    return re.search(r"<html[^>]*>", response.content.decode()).group(0)


def test_english_pages_have_no_prefix_and_say_their_language(client):
    response = client.get("/")
    assert response.status_code == 200
    assert 'lang="en"' in html_tag(response)
    assert 'dir="ltr"' in html_tag(response)
    assert response["Content-Language"] == "en"
    assert "Accept-Language" in response["Vary"]


@pytest.mark.parametrize("code", [c for c in SHIPPED if c != "en"])
def test_every_language_is_served_under_its_prefix(client, code):
    response = client.get(f"/{code}/")
    assert response.status_code == 200
    assert f'lang="{code}"' in html_tag(response)
    assert response["Content-Language"] == code
    # Every link of the site's own on the page keeps the language.
    content = response.content.decode()
    assert f'href="/{code}/daily/"' in content
    assert 'href="/daily/"' not in content


def test_a_browser_asking_for_german_is_sent_to_the_german_page(client):
    response = client.get("/daily/?x=1", HTTP_ACCEPT_LANGUAGE="de-AT,de;q=0.9,en;q=0.5")
    assert response.status_code == 302
    assert response["Location"] == "/de/daily/?x=1"
    assert "Cookie" in response["Vary"] and "Accept-Language" in response["Vary"]


def test_a_language_not_shipped_falls_to_the_next_one_asked_for_or_english(client):
    assert client.get("/", HTTP_ACCEPT_LANGUAGE="xx,fr;q=0.8")["Location"] == "/fr/"
    assert client.get("/", HTTP_ACCEPT_LANGUAGE="xx").status_code == 200


def test_the_switchers_choice_wins_over_accept_language(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert client.get("/", HTTP_ACCEPT_LANGUAGE="de").status_code == 200
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ja"
    assert client.get("/", HTTP_ACCEPT_LANGUAGE="de")["Location"] == "/ja/"


def test_the_accounts_setting_wins_over_the_cookie_and_accept_language(client, alice):
    client.force_login(alice)
    Preferences.objects.update_or_create(user=alice, defaults={"language": "fr"})
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    assert client.get("/stats/", HTTP_ACCEPT_LANGUAGE="es")["Location"] == "/fr/stats/"


def test_the_prefix_wins_over_everything(client, alice):
    client.force_login(alice)
    Preferences.objects.update_or_create(user=alice, defaults={"language": "fr"})
    response = client.get("/es/stats/", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200
    assert 'lang="es"' in html_tag(response)


@pytest.mark.parametrize("path", ["/healthz", "/robots.txt", "/sw.js", "/manifest.webmanifest"])
def test_what_is_not_a_page_is_never_sent_to_a_prefix(client, path):
    assert client.get(path, HTTP_ACCEPT_LANGUAGE="de").status_code != 302


def test_the_switcher_keeps_the_player_on_the_same_page_and_remembers(client):
    response = client.post("/i18n/setlang/", {"language": "de", "next": "/daily/"})
    assert response.status_code == 302
    assert response["Location"] == "/de/daily/"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"
    assert client.get("/history/")["Location"] == "/de/history/"
    back = client.post("/i18n/setlang/", {"language": "en", "next": "/de/history/"})
    assert back["Location"] == "/history/"
    assert client.get("/history/").status_code == 200


def test_the_switcher_keeps_a_signed_in_players_choice_on_the_account(client, alice):
    client.force_login(alice)
    client.post("/i18n/setlang/", {"language": "ja", "next": "/"})
    assert Preferences.objects.get(user=alice).language == "ja"
    # Another browser of the same player: no cookie, the account's language.
    other = type(client)()
    other.force_login(alice)
    assert other.get("/")["Location"] == "/ja/"


def test_the_switcher_refuses_a_language_not_shipped_and_changes_nothing(client, alice):
    client.force_login(alice)
    response = client.post("/i18n/setlang/", {"language": "xx", "next": "/daily/"})
    assert response.status_code == 302
    assert settings.LANGUAGE_COOKIE_NAME not in client.cookies
    assert Preferences.objects.filter(user=alice, language="xx").count() == 0


def test_the_switcher_is_on_the_page_with_every_language_and_the_current_marked(client):
    content = client.get("/de/daily/").content.decode()
    form = re.search(r"<form[^>]*data-languages.*?</form>", content, re.S).group(0)
    assert 'name="next" value="/de/daily/"' in form
    for code, name in settings.LANGUAGES:
        assert f'value="{code}" lang="{code}"' in form
        assert name in form
    assert re.search(r'value="de"[^>]*aria-current="true"', form)


def test_hreflang_alternates_name_every_language_and_a_default(client):
    content = client.get("/fr/techniques/").content.decode()
    for code in SHIPPED:
        path = "/techniques/" if code == "en" else f"/{code}/techniques/"
        assert f'hreflang="{code}" href="http://testserver{path}"' in content
    assert 'hreflang="x-default" href="http://testserver/techniques/"' in content


def test_arabic_reads_right_to_left_and_the_board_left_to_right(client, stocked):
    response = client.get("/ar/")
    assert 'dir="rtl"' in html_tag(response)
    client.post("/ar/play/easy/")
    game = client.get("/ar/history/")  # the game page itself
    assert game.status_code == 200
    from puzzles.models import Game

    page = client.get(f"/ar/games/{Game.objects.get().pk}/").content.decode()
    board = re.search(r"<[^>]*data-board[^>]*>", page) or re.search(r'<[^>]*id="board"[^>]*>', page)
    assert board is not None and 'dir="ltr"' in board.group(0)


def test_the_sitemap_names_every_public_page_in_every_language(client):
    response = client.get("/sitemap.xml")
    assert response.status_code == 200
    xml = response.content.decode()
    for code in SHIPPED:
        prefix = "" if code == "en" else f"/{code}"
        assert f"<loc>http://testserver{prefix}/techniques/</loc>" in xml
        assert f"<loc>http://testserver{prefix}/techniques/x-wing/</loc>" in xml
        assert f'hreflang="{code}" href="http://testserver{prefix}/daily/"' in xml
    assert 'hreflang="x-default" href="http://testserver/daily/"' in xml
    assert "/games/" not in xml
    assert "Sitemap: http://testserver/sitemap.xml" in client.get("/robots.txt").content.decode()


def test_the_api_answers_in_the_language_its_request_names(client, stocked):
    client.post("/play/easy/")
    from puzzles.models import Game

    game = Game.objects.get()
    for code in ("en", "de", "ja"):
        response = client.post(
            f"/api/games/{game.pk}/hint",
            {"level": 1, "version": game.version},
            content_type="application/json",
            HTTP_ACCEPT_LANGUAGE=code,
        )
        assert response.status_code == 200
        assert response["Content-Language"] == code
    # An address of the API is never sent on to a prefix, whatever the language.
    assert client.get(f"/api/games/{game.pk}", HTTP_ACCEPT_LANGUAGE="de").status_code == 200


def settings_form(**changes) -> dict:
    fields = {"theme": "system", "auto_remove_notes": "on", "show_timer": "on", "language": ""}
    return fields | changes


def test_the_settings_page_keeps_a_guests_language_in_the_cookie(client):
    page = client.get("/settings/").content.decode()
    assert '<select name="language"' in page and '<option value="ja">日本語</option>' in page
    response = client.post("/settings/", settings_form(language="ja"))
    assert response["Location"] == "/ja/settings/"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ja"
    assert client.get("/", HTTP_ACCEPT_LANGUAGE="de")["Location"] == "/ja/"
    # The browser's again: the cookie goes, Accept-Language rules.
    response = client.post("/ja/settings/", settings_form(language=""))
    assert response["Location"] == "/settings/"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == ""
    assert client.get("/", HTTP_ACCEPT_LANGUAGE="de")["Location"] == "/de/"


def test_the_settings_page_keeps_a_players_language_on_the_account(client, alice):
    client.force_login(alice)
    response = client.post("/settings/", settings_form(language="ar"))
    assert response["Location"] == "/ar/settings/"
    assert Preferences.objects.get(user=alice).language == "ar"


def test_the_settings_page_refuses_a_language_not_shipped_and_changes_nothing(client, alice):
    client.force_login(alice)
    response = client.post("/settings/", settings_form(language="xx"))
    assert response.status_code == 200
    assert "xx is not one of the available choices" in response.content.decode()
    assert Preferences.objects.get(user=alice).language == ""


# A page of each kind, with and without a query string.
PAGES = [
    "/",
    "/play/custom/",
    "/play/easy/",
    "/how-to-play/",
    "/techniques/",
    "/techniques/x-wing/",
    "/practice/x-wing/",
    "/analyse/?puzzle=1",
    "/analyse/games/12/",
    "/p/abc123",
    "/daily/",
    "/daily/2026-11-28/",
    "/daily/2026-11-28/hard/",
    "/games/12/",
    "/games/12/?level=2",
    "/history/?page=2",
    "/stats/",
    "/settings/",
    "/accounts/signup/",
    "/accounts/login/?next=/games/12/",
    "/accounts/password_reset/",
]


def test_a_pages_address_in_each_language_is_its_prefix_swapped_as_translate_url_finds(db):
    # The alternates swap the language prefix instead of resolving and reversing each
    # address (puzzles/site/languages.py): the same as translate_url while the paths are
    # the same in every language. A path translated one day makes this fail.
    from django.urls import translate_url
    from django.utils import translation

    from puzzles.site.languages import in_language

    for page in PAGES:
        for here, _name in settings.LANGUAGES:
            path = page if here == "en" else f"/{here}{page}"
            with translation.override(here):
                for code, _other in settings.LANGUAGES:
                    assert in_language(path, code) == translate_url(path, code), (path, code)
