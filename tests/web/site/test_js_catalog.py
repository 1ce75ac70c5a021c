"""The game page's script speaks the player's language: the `djangojs` catalog of a
language (puzzles/site/js_catalog.py) from the project's LOCALE_PATHS, with its plural
rule, handed to the page as a JSON data block (no script: the policy stays strict);
English has an empty catalog, the words as the script writes them."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from django.test import override_settings
from django.utils import translation
from django.utils.html import json_script

from puzzles.site import js_catalog as catalogs

from ..helpers import start

PO = r"""
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"
"Language: de\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

msgid "No mistakes so far."
msgstr "Bisher keine Fehler."

msgid "%(count)s cell selected"
msgid_plural "%(count)s cells selected"
msgstr[0] "%(count)s Zelle ausgewählt"
msgstr[1] "%(count)s Zellen ausgewählt"

msgctxt "game status"
msgid "Solved"
msgstr "Gelöst"
"""


@pytest.fixture
def german(tmp_path: Path):
    """A tiny German djangojs catalog, compiled into LOCALE_PATHS; no catalog kept from before."""
    folder = tmp_path / "locale" / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "djangojs.po").write_text(PO, encoding="utf-8")
    subprocess.run(
        ["/usr/bin/msgfmt", "-o", str(folder / "djangojs.mo"), str(folder / "djangojs.po")],
        check=True,
    )
    catalogs.clear_cache()
    with override_settings(LOCALE_PATHS=[str(tmp_path / "locale")]):
        yield
    catalogs.clear_cache()


def test_a_language_gets_its_translations_and_its_plural_rule(german):
    got = catalogs.js_catalog("de")
    assert got["catalog"]["No mistakes so far."] == "Bisher keine Fehler."
    assert got["catalog"]["%(count)s cell selected"] == [
        "%(count)s Zelle ausgewählt",
        "%(count)s Zellen ausgewählt",
    ]
    assert got["catalog"]["game status\u0004Solved"] == "Gelöst"
    assert got["plural"] == "(n != 1)"
    assert catalogs.js_catalog("de") is got  # built once


def test_english_has_an_empty_catalog(german):
    assert catalogs.js_catalog("en") == {"catalog": {}, "plural": "(n != 1)"}
    assert catalogs.js_catalog("en-gb")["catalog"] == {}


def page_catalog(html: str) -> dict:
    found = re.search(r'<script id="js-catalog" type="application/json">(.*?)</script>', html, re.S)
    assert found, "the page carries no catalog"
    return json.loads(found.group(1))


@pytest.mark.django_db
def test_the_game_page_carries_the_catalog_before_its_script(player, stocked, german):
    game = start(player)
    html = player.get(f"/games/{game.pk}/").content.decode()
    assert page_catalog(html) == {"catalog": {}, "plural": "(n != 1)"}
    assert html.index('id="js-catalog"') < html.index("js/dist/game")


def test_the_context_gives_the_requests_language(german, rf):
    request = rf.get("/")
    request.LANGUAGE_CODE = "de"  # as LocaleMiddleware sets it
    given = catalogs.js_catalog_context(request)["js_catalog"]
    assert page_catalog(given())["catalog"]["No mistakes so far."] == "Bisher keine Fehler."
    with translation.override("de"):  # no middleware: the active language
        given = catalogs.js_catalog_context(rf.get("/"))["js_catalog"]
    assert page_catalog(given())["catalog"]["game status\u0004Solved"] == "Gelöst"


def test_the_catalogs_block_is_json_script_s_written_once_a_language(german):
    block = catalogs.js_catalog_block("de")
    assert block == json_script(catalogs.js_catalog("de"), "js-catalog")
    assert catalogs.js_catalog_block("de") is block
    assert page_catalog(catalogs.js_catalog_block("en")) == {"catalog": {}, "plural": "(n != 1)"}


@pytest.mark.django_db
def test_a_page_without_the_catalog_never_builds_it(client, german, monkeypatch):
    built = []
    monkeypatch.setattr(catalogs, "js_catalog", lambda language: built.append(language) or {})
    assert client.get("/").status_code == 200
    assert built == []
