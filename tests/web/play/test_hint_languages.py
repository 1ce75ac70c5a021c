"""The engine's words in the player's language, through the site: a hint at levels 1-3, the
walkthrough of a game over and the refusal of a typed-in puzzle, in German and Japanese,
with no English message of the catalogs left; in English, the same words as before."""

from __future__ import annotations

import pytest

from ..helpers import post, start
from ..site.test_translated_pages import english_pieces

pytestmark = pytest.mark.django_db

# Easter Monster with a row's digit twice: refused, the unit and the cells named.
TWICE = "11......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"


def english_left(code: str, text: str) -> list[str]:
    return sorted({m.group(0) for p in english_pieces(code) for m in [p.search(text)] if m})


@pytest.mark.parametrize("code", ["de", "ja"])
@pytest.mark.parametrize("difficulty", ["easy", "expert"])
def test_a_hint_at_every_level_is_in_the_pages_language(client, stocked, code, difficulty):
    game = start(client, difficulty)
    for level in (1, 2, 3):
        english = post(client, game, "hint", {"level": level, "version": game.version})
        theirs = post(
            client,
            game,
            "hint",
            {"level": level, "version": game.version},
            HTTP_ACCEPT_LANGUAGE=code,
        )
        assert theirs.status_code == 200 and theirs["Content-Language"] == code
        hint, said = english.json()["hint"], theirs.json()["hint"]
        # The same step, told in another language.
        assert said["slug"] == hint["slug"] and said.get("target") == hint.get("target")
        for key in ("technique", "summary", "text"):
            assert said[key] and said[key] != hint[key], (level, key)
            assert english_left(code, said[key]) == [], (level, key, said[key])


@pytest.mark.parametrize("code", ["de", "ja"])
def test_the_walkthrough_is_in_the_pages_language(client, stocked, code):
    game = start(client, "hard")
    assert post(client, game, "give-up", {"version": game.version}).status_code == 200
    english = client.get(f"/api/games/{game.pk}/path").json()
    theirs = client.get(f"/api/games/{game.pk}/path", HTTP_ACCEPT_LANGUAGE=code).json()
    assert len(theirs["path"]) == len(english["path"]) > 0
    for mine, other in zip(english["path"], theirs["path"], strict=True):
        assert other["name"] != mine["name"]
        words = " ".join(str(other.get(k, "")) for k in ("name", "reason", "explanation"))
        assert english_left(code, words) == [], words


@pytest.mark.parametrize(("code", "word"), [("de", "Zeile"), ("ja", "行")])
def test_a_typed_in_puzzle_is_refused_in_the_pages_language(client, code, word):
    response = client.post(f"/{code}/play/custom/", {"puzzle": TWICE})
    assert response.status_code == 400
    page = response.content.decode()
    assert word in page
    english = client.post("/play/custom/", {"puzzle": TWICE}).content.decode()
    assert "has the digit 1 twice" in english
    assert "has the digit 1 twice" not in page
