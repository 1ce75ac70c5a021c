"""The technique guide's examples, found by a real Celery worker."""

from __future__ import annotations

import pytest

import engine
from puzzles.learn import guide
from puzzles.learn.tasks import refresh_technique_examples
from puzzles.models import Puzzle, TechniqueExample

from ..harness import wait_until
from ..web.learning import covered_slugs, store_technique_puzzles
from .helpers import set_targets

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def assert_each_example_is_its_techniques_next_step() -> None:
    for example in TechniqueExample.objects.select_related("puzzle"):
        step = engine.next_step(
            example.values,
            example.candidates,
            puzzle=example.puzzle.givens,
            complete=[v == "0" for v in example.values],
        )
        assert guide.slug_of(step) == example.slug


def test_a_worker_finds_an_example_of_every_technique(start_worker):
    set_targets()
    store_technique_puzzles()
    start_worker()
    refresh_technique_examples.delay()
    wait_until(
        lambda: set(TechniqueExample.objects.values_list("slug", flat=True)) == covered_slugs(),
        what="an example of every technique",
    )
    assert_each_example_is_its_techniques_next_step()
    # Puzzles that give examples leave the pool.
    used = TechniqueExample.objects.values_list("puzzle", flat=True)
    assert not Puzzle.objects.fresh().filter(pk__in=used).exists()


def test_a_fresh_site_s_worker_seeks_an_example_of_every_technique(start_worker):
    set_targets()  # no pool of any tier: every example must be sought
    start_worker()
    refresh_technique_examples.delay()
    # Every technique but those no puzzle made here needs (engine.UNSOUGHT: trial and error,
    # the level 2 nested chains), which are not sought.
    sought = {slug for slug in guide.SLUGS if guide.GUIDE[slug].name not in engine.UNSOUGHT}
    assert len(sought) == len(guide.SLUGS) - len(engine.UNSOUGHT)
    wait_until(
        lambda: set(TechniqueExample.objects.values_list("slug", flat=True)) == sought,
        what="an example of every technique, sought",
    )
    # One search at most per technique: no more puzzles stored than the guide has pages.
    assert Puzzle.objects.count() <= len(guide.SLUGS)
    assert_each_example_is_its_techniques_next_step()
    # None of them is in a pool, for a game or a daily to take.
    assert not Puzzle.objects.fresh().exists()


def test_a_worker_that_starts_looks_for_examples_at_once(start_worker):
    set_targets()
    store_technique_puzzles("hard")
    start_worker(start_checks=True)
    wait_until(TechniqueExample.objects.exists, what="examples found at start")
