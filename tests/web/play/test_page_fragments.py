"""The game page's parts the same for every player in a language (its tools, panels and
help) are rendered once a process and kept ({% cache ... using="fragments" %}, settings'
CACHES["fragments"], on where DEBUG is off): a page built from them is the page built
without them, in every language and for every preference they vary on."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.cache import caches
from django.test import override_settings

from ..helpers import start

pytestmark = pytest.mark.django_db

KEPT = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "kept"}
NONE = {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}
# What differs from one answer to the next: a CSRF token is masked afresh, the owner mark
# with its times and the game's state (its clock) are stamped with the time.
TOKEN = re.compile(
    r'(name="csrfmiddlewaretoken" value="|name="csrf-token" content="'
    r'|data-owner-(?:issued|expires)=")'
    r'[^"]+|(<script id="game-state" type="application/json">).*?</script>'
)


def page(client, path: str, fragments: dict) -> str:
    with override_settings(CACHES={**settings.CACHES, "fragments": fragments}):
        response = client.get(path)
        assert response.status_code == 200
    return TOKEN.sub(r"\1\2-", response.content.decode())


def digit_first(client, on: bool) -> None:
    session = client.session
    session["preferences"] = {**session.get("preferences", {}), "digit_first": on}
    session.save()


def test_a_page_of_kept_parts_is_the_page_built_afresh_in_each_language_and_way(client, stocked):
    game = start(client)
    ways = [("", False), ("/de", False), ("/ja", False), ("", True), ("/de", True)]
    kept = {}
    with override_settings(CACHES={**settings.CACHES, "fragments": KEPT}):
        caches["fragments"].clear()
        for prefix, first in ways:  # each way after the others: none takes another's parts
            digit_first(client, first)
            kept[prefix, first] = page(client, f"{prefix}/games/{game.pk}/", KEPT)
        assert len(caches["fragments"]._cache) >= 5  # the parts were kept, not built again
    for prefix, first in ways:
        digit_first(client, first)
        assert kept[prefix, first] == page(client, f"{prefix}/games/{game.pk}/", NONE)
    assert "Rückgängig" in kept["/de", False]
    assert "Tap a digit, then cells" in kept["", True]
    assert "Tap a cell, then a digit" in kept["", False]


@pytest.mark.parametrize(("debug", "backend"), [("0", "LocMemCache"), ("1", "DummyCache")])
def test_the_parts_are_kept_where_debug_is_off(debug, backend):
    """Production (DJANGO_DEBUG=0) keeps them; a development site builds them on every page,
    as its templates are edited while it runs."""
    env = {**os.environ, "DJANGO_DEBUG": debug, "DJANGO_SECRET_KEY": "k" * 50}
    code = "from django.conf import settings; print(settings.CACHES['fragments']['BACKEND'])"
    found = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        env={**env, "DJANGO_SETTINGS_MODULE": "sudokusite.settings"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert found.stdout.strip().endswith(backend)
