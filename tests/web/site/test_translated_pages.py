"""Every shipped language's pages with no English left: the home page, a game, the daily,
history, statistics, settings, sign-up, the guide and a technique's page are read as a
player sees them (their text, and the labels a screen reader reads), and no message of the
English catalogs that the language translates shows there in English."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.utils.translation import to_locale

from puzzles.models import Game

from .test_catalogs import LOCALE

pytestmark = pytest.mark.django_db

OTHERS = [code for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
ENGINE_LOCALE = Path(settings.BASE_DIR) / "engine" / "locale"
PAGES = [
    "/",
    "/daily/",
    "/history/",
    "/stats/",
    "/settings/",
    "/accounts/signup/",
    "/accounts/login/",
    "/techniques/",
    "/techniques/x-wing/",
    "/how-to-play/",
    "game",
]
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\w+\}|<[^>]*>|&\w+;")
LABELS = re.compile(r'\b(?:aria-label|title|placeholder|alt)="([^"]*)"')


def entries(po: Path) -> list[tuple[str, str]]:
    """(msgid, msgstr) of a catalog, plural entries by their singular and first form."""
    found = []
    for block in po.read_text().split("\n\n"):
        lines = [line for line in block.splitlines() if not line.startswith("#")]
        text = "\n".join(lines)
        msgid = re.search(r'^msgid ((?:".*"\n?)+)', text, re.M)
        msgstr = re.search(r'^msgstr(?:\[0\])? ((?:".*"\n?)+)', text, re.M)
        if msgid and msgstr:
            found.append((_joined(msgid.group(1)), _joined(msgstr.group(1))))
    return [(i, s) for i, s in found if i]


def _joined(block: str) -> str:
    return "".join(re.findall(r'"(.*)"', block)).replace('\\"', '"').replace("\\n", " ")


@functools.cache
def english_pieces(code: str) -> list[re.Pattern]:
    """The English words of every message the language translates otherwise: each run of
    words between placeholders and tags, of two words or more (or one long word)."""
    locale = to_locale(code)
    catalogs = [LOCALE / locale / "LC_MESSAGES" / f"{d}.po" for d in ("django", "djangojs")]
    catalogs.append(ENGINE_LOCALE / locale / "LC_MESSAGES" / "engine.po")
    pieces, translations = set(), []
    for po in catalogs:
        if not po.exists():
            continue
        for msgid, msgstr in entries(po):
            translations.append(msgstr)
            if msgstr == msgid:
                continue
            for piece in PLACEHOLDER.split(msgid):
                words = re.findall(r"[A-Za-z][A-Za-z'’-]*", piece)
                if len(words) >= 2 or (len(words) == 1 and len(words[0]) >= 6):
                    pieces.add(r"\b" + r"\W+".join(re.escape(w) for w in words) + r"\b")
    # Words the language's own translations use as they are ("X-Wing", "Expert") are its.
    theirs = "\n".join(translations)
    return [re.compile(p) for p in sorted(pieces) if not re.search(p, theirs)]


def seen(html: str) -> str:
    """A page's text as a player sees and hears it."""
    html = re.sub(r"<script\b.*?</script>|<style\b.*?</style>", " ", html, flags=re.S)
    labels = " ".join(LABELS.findall(html))
    text = re.sub(r"<[^>]*>", " ", html)
    return re.sub(r"\s+", " ", f"{text} {labels}")


@pytest.mark.parametrize("code", OTHERS)
def test_no_english_is_left_on_a_translated_page(client, stocked, code):
    client.post(f"/{code}/play/easy/")
    game = Game.objects.get()
    english = english_pieces(code)
    assert english, f"no catalog for {code}"
    left = {}
    for page in PAGES:
        path = f"/{code}/games/{game.pk}/" if page == "game" else f"/{code}{page}"
        response = client.get(path)
        assert response.status_code == 200, path
        text = seen(response.content.decode())
        found = sorted({m.group(0) for p in english for m in [p.search(text)] if m})
        if found:
            left[path] = found
    assert left == {}
