"""The technique guide, its examples and practice games, and the skill profile."""

from __future__ import annotations

import datetime
import re
from unittest import mock

import pytest
from django.test import Client
from django.utils import timezone
from django.utils.html import escape

import engine
from engine.techniques.table import TABLE
from puzzles.accounts.players import Player
from puzzles.learn import guide
from puzzles.learn.examples import EXAMPLES_PER_TECHNIQUE, refresh_examples
from puzzles.learn.skills import skills as skill_profile
from puzzles.models import Difficulty, Game, Puzzle, TechniqueExample
from puzzles.play import starting
from puzzles.play.sharing import share_code, share_path
from puzzles.play.stats import by_difficulty
from puzzles.pools import stock
from puzzles.pools.daily import dailies_of, today
from puzzles.pools.stock import claim_fresh_puzzle

from ...engine.helpers import load
from ..helpers import graded, play_to_the_end, post, start, state
from ..learning import covered_slugs, store_technique_puzzles

pytestmark = pytest.mark.django_db


@pytest.fixture
def examples(stocked) -> dict[str, TechniqueExample]:
    """Puzzles of every tier in store, the technique fixtures' among them, and the
    examples the task finds in them."""
    store_technique_puzzles()
    refresh_examples(scans=200)
    first: dict[str, TechniqueExample] = {}
    for example in TechniqueExample.objects.order_by("id"):
        first.setdefault(example.slug, example)  # the guide shows the first found
    return first


def practise(client, slug: str) -> Game:
    response = client.post(f"/practice/{slug}/")
    assert response.status_code == 302, response
    return Game.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))


def example_of(game: Game) -> TechniqueExample:
    return TechniqueExample.objects.get(slug=game.practice, puzzle=game.puzzle_id)


def cells_marked(html: str, part: str) -> set[int]:
    return {int(c) for c in re.findall(rf'data-cell="(\d+)" [^>]*data-hint="{part}"', html)}


def test_the_guide_has_a_page_for_every_technique_of_the_graders_table(client, db):
    index = client.get("/techniques/").content.decode()
    for entry in TABLE:
        assert f'href="/techniques/{entry.slug}/"' in index
        response = client.get(f"/techniques/{entry.slug}/")
        assert response.status_code == 200
        html = response.content.decode()
        assert escape(entry.plain) in html and escape(entry.summary) in html
        # Nothing stored yet: every page says so, and there is nothing to practise.
        assert "No example yet" in html and "data-no-example" in html
    assert client.get("/techniques/no-such-thing/").status_code == 404
    assert client.post("/practice/no-such-thing/").status_code == 404
    assert client.post("/practice/x-wing/").status_code == 404
    assert not Game.objects.exists()


def test_every_example_is_a_position_where_the_technique_is_the_next_step(client, examples):
    assert set(examples) == covered_slugs()  # the fixtures' puzzles need these techniques
    for slug, example in examples.items():
        puzzle = example.puzzle
        assert puzzle.source != Puzzle.Source.PLAYER and not puzzle.dailies.exists()
        assert puzzle.served_at is not None  # out of the pool: never a fresh game
        complete = [v == "0" for v in example.values]
        step = engine.next_step(
            example.values, example.candidates, puzzle=puzzle.givens, complete=complete
        )
        assert guide.slug_of(step) == slug
        told = engine.tell(step, 3)
        html = client.get(f"/techniques/{slug}/").content.decode()
        assert "No example yet" not in html and 'data-action="practise"' in html
        # Drawn as the whole step: the targets, then the cause, then the region.
        assert cells_marked(html, "target") == set(told["target"])
        assert cells_marked(html, "cause") == set(told["cause"]) - set(told["target"])
        assert cells_marked(html, "region") == set(told["region"]) - set(told["cause"]) - set(
            told["target"]
        )
        for cell in range(81):
            assert f'data-cell="{cell}" data-value="{example.values[cell]}"' in html
        assert puzzle.solution not in html


def test_a_technique_not_in_any_stored_puzzle_has_no_example(client, stocked):
    easy = stocked["easy"][0]
    Puzzle.objects.exclude(pk=easy.pk).delete()
    refresh_examples()
    have = set(TechniqueExample.objects.values_list("slug", flat=True))
    assert have and have <= {"full-house", "hidden-single", "naked-single"}
    assert "No example yet" in client.get("/techniques/jellyfish/").content.decode()
    assert client.post("/practice/jellyfish/").status_code == 404
    assert client.post("/practice/hidden-single/").status_code == 302


def test_refreshing_keeps_a_few_examples_a_technique_and_never_uses_dailies_or_players(
    client, stocked
):
    stored = store_technique_puzzles()
    Puzzle.objects.filter(pk=stored[0].pk).update(source=Puzzle.Source.PLAYER)
    client.get("/")  # picks today's dailies
    refresh_examples(scans=200)
    again = refresh_examples(scans=200)
    assert again == {} or all(v > 0 for v in again.values())
    used = TechniqueExample.objects.values_list("puzzle", flat=True)
    assert not Puzzle.objects.filter(pk__in=used, dailies__isnull=False).exists()
    assert stored[0].pk not in set(used)
    for slug in guide.SLUGS:
        assert TechniqueExample.objects.filter(slug=slug).count() <= EXAMPLES_PER_TECHNIQUE


def _found(client, game) -> dict:
    return state(client, game)["practice"]


def test_practice_finds_a_placement_exactly_when_it_is_made(client, examples):
    slug = "naked-single"
    game = practise(client, slug)
    example = example_of(game)
    assert game.practice == slug and game.values == example.values
    first = state(client, game)
    assert first["practice"] == {
        "technique": guide.GUIDE[slug].label,
        "name": "Naked Single",
        "slug": slug,
        "found": False,
        "unaided": False,
        "taken_out": [],  # a placement: nothing to take out
        "next": {"slug": "pointing", "technique": guide.GUIDE["pointing"].label},
    }
    assert first["complete"] == "".join("1" if v == "0" else "0" for v in example.values)
    assert "solution" not in first
    (cell, digit), *_ = example.hint["placements"]
    solution = game.puzzle.solution
    # Another right digit elsewhere is not the step.
    other = next(
        c
        for c in range(81)
        if example.values[c] == "0" and c not in {p[0] for p in example.hint["placements"]}
    )
    answer = post(
        client,
        game,
        "moves",
        {"cell": other, "digit": int(solution[other]), "mode": "value", "version": 0},
    ).json()
    assert answer["practice"]["found"] is False
    # The step's digit as a note is not the step either.
    answer = post(
        client, game, "moves", {"cell": cell, "digit": 0, "mode": "note", "version": 1}
    ).json()
    assert answer["practice"]["found"] is False
    answer = post(
        client, game, "moves", {"cell": cell, "digit": digit, "mode": "value", "version": 2}
    ).json()
    assert answer["practice"] == {**answer["practice"], "found": True, "unaided": True}
    # Taking it back and making it again changes nothing: it was found.
    post(client, game, "undo", {"version": 3})
    assert _found(client, game)["found"] is True


def test_practice_finds_eliminations_when_the_last_one_is_made(client, examples):
    slug = "x-wing"
    game = practise(client, slug)
    example = example_of(game)
    eliminations = [tuple(e) for e in example.hint["eliminations"]]
    assert eliminations and not example.hint["placements"]
    version = 0
    # A note taken out of a cell the step does not touch: not found.
    other = next(
        c
        for c in range(81)
        if game.values[c] == "0"
        and c not in {e[0] for e in eliminations}
        and len(game.notes[c]) > 1
    )
    digit = (
        game.notes[other][-1]
        if int(game.puzzle.solution[other]) != game.notes[other][-1]
        else game.notes[other][0]
    )
    answer = post(
        client, game, "moves", {"cell": other, "digit": digit, "mode": "note", "version": version}
    ).json()
    version = answer["version"]
    assert answer["practice"]["found"] is False
    for i, (cell, digit) in enumerate(eliminations):
        answer = post(
            client,
            game,
            "moves",
            {"cell": cell, "digit": digit, "mode": "note", "version": version},
        ).json()
        version = answer["version"]
        assert answer["practice"]["found"] is (i == len(eliminations) - 1)


def test_a_step_found_after_a_hint_is_found_but_not_unaided(client, examples):
    game = practise(client, "pointing")
    hint = post(client, game, "hint", {"level": 3, "version": 0}).json()["hint"]
    assert hint["slug"] == "pointing"
    answer = post(client, game, "apply-hint", {"version": 0}).json()
    assert answer["practice"]["found"] is True and answer["practice"]["unaided"] is False


def test_practice_games_are_apart_in_the_history_and_never_ranked(player, examples):
    game = practise(player, "hidden-single")
    final = play_to_the_end(player, game)
    assert final["status"] == "solved" and final["clean"] is False
    game.refresh_from_db()
    assert not game.clean and not Game.objects.ranked().filter(pk=game.pk).exists()
    assert not Game.objects.human_solves().filter(pk=game.pk).exists()
    ordinary = player.get("/history/").content.decode()
    assert f'href="/games/{game.pk}/"' not in ordinary
    apart = player.get("/history/?kind=practice").content.decode()
    assert f'href="/games/{game.pk}/"' in apart and "found" in apart
    assert all(row.played == 0 for row in by_difficulty(Player(user=game.user)))
    stats = player.get("/stats/").content.decode()
    assert 'data-skill="hidden-single" data-practised="1" data-unaided="1"' in stats
    # Practise next: the easiest technique not yet found unaided.
    assert 'data-practise-next="full-house"' in stats


def test_practising_a_puzzle_helps_any_game_of_the_players_on_it(player, examples):
    example = examples["xy-wing"]
    # No pool, daily or share link hands out an example's puzzle; typed in, it is played.
    assert player.post(f"/p/{share_code(example.puzzle_id)}").status_code == 404
    ordinary = player.post("/play/custom/", {"puzzle": example.puzzle.givens})
    assert ordinary.status_code == 302
    mine = Game.objects.get(pk=int(ordinary["Location"].strip("/").split("/")[-1]))
    assert mine.helped_at is None and not mine.practice
    TechniqueExample.objects.exclude(pk=example.pk).filter(slug="xy-wing").delete()
    practise(player, "xy-wing")
    mine.refresh_from_db()
    assert mine.helped_at is not None


def test_skill_profile_counts_found_unaided_only_without_help(player, examples):
    helped = practise(player, "naked-pair")
    post(player, helped, "hint", {"level": 1, "version": 0})
    skills, next_up = skill_profile(Player(user=helped.user))
    row = next(s for s in skills if s.technique.slug == "naked-pair")
    assert (row.practised, row.found, row.unaided) == (1, 0, 0)
    assert next_up.slug == "full-house"


def test_a_guests_practice_games_move_to_the_account_at_log_in(client, alice, examples):
    example = examples["claiming"]
    TechniqueExample.objects.filter(slug="claiming").exclude(pk=example.pk).delete()
    account = Client()
    account.force_login(alice)
    ordinary = account.post("/play/custom/", {"puzzle": example.puzzle.givens})
    mine = Game.objects.get(pk=int(ordinary["Location"].strip("/").split("/")[-1]))
    guest = practise(client, "claiming")
    found = practise(client, "claiming")  # practising twice: two games
    assert guest.pk != found.pk and guest.puzzle_id == mine.puzzle_id
    client.force_login(alice)
    assert set(Game.objects.filter(user=alice).values_list("pk", flat=True)) == {
        mine.pk,
        guest.pk,
        found.pk,
    }
    mine.refresh_from_db()
    assert mine.helped_at is not None and mine.set_aside_at is None
    assert state(client, mine)["status"] == "playing"
    assert state(client, guest)["practice"]["slug"] == "claiming"


def test_the_admin_lists_examples_and_practice_games(client, staff, examples):
    client.force_login(staff)
    assert client.get("/admin/puzzles/techniqueexample/").status_code == 200
    example = examples["x-wing"]
    assert client.get(f"/admin/puzzles/techniqueexample/{example.pk}/change/").status_code == 200
    assert client.get("/admin/puzzles/game/?practice=x-wing").status_code == 200


def test_statistics_grow_with_the_player(player, examples, stocked):
    fresh = player.get("/stats/").content.decode()
    assert "data-skill=" not in fresh  # a new player: no wall of techniques never met
    game = start(player, "easy")
    play_to_the_end(player, game)  # solved with no hint: its techniques are known now
    html = player.get("/stats/").content.decode()
    needed = [guide.slug_of_name(name) for name in game.puzzle.techniques]
    for slug in needed:
        assert f'data-skill="{slug}"' in html
    assert html.count("data-skill=") == len(set(needed))
    # What to practise next follows what the player solves: past what they already use.
    _, next_up = skill_profile(Player(user=game.user))
    assert next_up is not None and next_up.slug not in needed
    assert guide.SLUGS.index(next_up.slug) > min(guide.SLUGS.index(s) for s in needed)


def test_examples_never_come_from_a_puzzle_someone_has_in_play(db):
    stored = store_technique_puzzles("hard", "expert")
    playing = [starting.game_on(Player(guest_id=f"guest-{p.pk}"), p) for p in stored]
    refresh_examples(scans=200)
    assert not TechniqueExample.objects.filter(puzzle__in=stored).exists()
    for game in playing:
        game.refresh_from_db()
        assert game.helped_at is None


def test_no_pool_daily_new_game_or_share_hands_out_an_example_puzzle(client, stocked):
    store_technique_puzzles()
    refresh_examples(scans=200)
    used = set(TechniqueExample.objects.values_list("puzzle", flat=True))
    assert used
    # As if the pool still had them (an example found while a claim was under way).
    Puzzle.objects.filter(pk__in=used).update(served_at=None)
    handed = []
    for difficulty in Difficulty.values:
        while (puzzle := claim_fresh_puzzle(difficulty)) is not None:
            handed.append(puzzle.pk)
    assert not used & set(handed)
    picked = {d.puzzle_id for d in dailies_of(today() + datetime.timedelta(days=3)).values()}
    assert not used & picked
    fresh = [starting.new_game(Player(guest_id=f"g{i}"), "hard").puzzle_id for i in range(3)]
    assert not used & set(fresh)
    Puzzle.objects.filter(pk__in=used).update(served_at=timezone.now())
    for pk in used:
        assert client.get(share_path(pk)).status_code == 404


# top95, line 38 (tests/data/top95.txt): scored 7.2 by an alternating inference chain of
# base 6.6 whose length adds 0.6, beside an ALS-XZ step rated 7.1 in the table.
CHAIN_SCORED = (
    "...8....9.873...4.6..7.......85..97...........43..75.......3....3...145.4....2..1".replace(
        ".", "0"
    )
)


def test_the_hardest_technique_is_the_step_that_set_the_score_even_when_rated_by_length(db):
    stock.insert_new([stock.puzzle_row(graded(CHAIN_SCORED))])
    puzzle = Puzzle.objects.get(givens=CHAIN_SCORED)
    assert {"ALS-XZ", "Alternating Inference Chain"} <= set(puzzle.techniques)
    assert guide.hardest(puzzle).name == "Alternating Inference Chain"
    # Worked out once a puzzle: kept, not solved again on every call.
    with mock.patch.object(engine, "grade", side_effect=AssertionError("solved again")):
        assert guide.hardest(puzzle).name == "Alternating Inference Chain"
    # Where a technique's own rating is the score, no solve is needed.
    Puzzle.objects.filter(pk=puzzle.pk).update(score=7.1)
    puzzle.refresh_from_db()
    with mock.patch.object(engine, "grade", side_effect=AssertionError("solved")):
        assert guide.hardest(puzzle).name == "ALS-XZ"


def test_a_chains_example_is_drawn_and_told_link_by_link_even_when_stored_before(client, db):
    # Line 7 of top95 (tests/data/top95.txt): its solve takes a contradiction forcing chain.
    puzzle = load("top95")[6]
    stock.insert_new([stock.puzzle_row(graded(puzzle))])
    refresh_examples(scans=3)
    example = TechniqueExample.objects.get(slug="forcing-chain")
    # As an older telling stored it: no links, no notation.
    old = {
        k: v
        for k, v in example.hint.items()
        if k not in ("on", "off", "links", "chain", "notation", "told")
    }
    TechniqueExample.objects.filter(pk=example.pk).update(hint=old)
    html = client.get("/techniques/forcing-chain/").content.decode()
    assert "A guess that breaks the grid (contradiction forcing chain)" in html
    assert re.search(r'data-cell="1" [^>]*data-hint-on="7"', html)
    assert (
        len(
            re.findall(
                r'data-hint-link="(?:strong|weak)" data-from="\d+:\d" data-to="\d+:\d"', html
            )
        )
        >= 2
    )
    assert 'data-hint-link="weak" data-from="1:7" data-to="9:7"' in html
    assert "r1c2=7 -&gt; r2c1&lt;&gt;7" in html
    assert "<li>Row 3 is left with no place for 6.</li>" in html
    # Told again once, and kept.
    assert TechniqueExample.objects.get(pk=example.pk).hint["links"]


# Golden Nugget (tarek, 2007), the Enjoy Sudoku forum's hardest lists: its first step is a
# nested forcing chain (tests/engine/test_nested.py).
GOLDEN_NUGGET = ".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7....."


def test_a_nested_chains_example_stored_before_is_told_again_link_by_link(client, db):
    puzzle = GOLDEN_NUGGET.replace(".", "0")
    stock.insert_new([stock.puzzle_row(graded(puzzle))])
    refresh_examples(scans=3)
    example = TechniqueExample.objects.get(slug="nested-forcing-chain")
    assert example.hint["chain"] and " [" in example.hint["notation"][0]
    # As the telling before nested chains were told link by link stored it.
    old = {k: v for k, v in example.hint.items() if k not in ("chain", "notation")}
    TechniqueExample.objects.filter(pk=example.pk).update(hint=old | {"told": 2})
    html = client.get("/techniques/nested-forcing-chain/").content.decode()
    assert "if it were, an inner chain would" in html
    assert re.search(r"r\dc\d&lt;&gt;\d \[r\dc\d=\d -&gt; ", html)
    assert TechniqueExample.objects.get(pk=example.pk).hint["told"] == 3


def test_the_techniques_no_puzzle_made_needs_are_not_waited_for():
    # Trial and error and the level 2 nested chains: no puzzle is sought for them, so a run
    # of the examples task that found the rest does not send another for them.
    from puzzles.learn import examples

    missing = examples.missing_slugs()
    assert "trial-and-error" not in missing
    assert "nested-forcing-chain-level-2" not in missing
    assert "nested-forcing-chain" in missing
