"""The canonical key: the same across every validity-preserving transformation, and only
then."""

from __future__ import annotations

import random
from itertools import permutations, product

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import engine

from .helpers import load, valid_solution


def transformed(puzzle: str, rng: random.Random) -> str:
    """A random isomorph, built here from the definitions rather than by the engine."""
    grid = [list(puzzle[r * 9 : r * 9 + 9]) for r in range(9)]

    def shuffled_lines() -> list[int]:
        bands = rng.sample(range(3), 3)
        return [b * 3 + i for b in bands for i in rng.sample(range(3), 3)]

    rows, cols = shuffled_lines(), shuffled_lines()
    grid = [[grid[r][c] for c in cols] for r in rows]
    if rng.random() < 0.5:
        grid = [list(col) for col in zip(*grid, strict=True)]
    labels = dict(zip("123456789", rng.sample("123456789", 9), strict=True))
    labels["0"] = "0"
    return "".join(labels[ch] for row in grid for ch in row)


SAMPLES = load("17clue_500")[:100] + load("top95") + load("easy_kaggle_1000")[:100]


@given(st.sampled_from(SAMPLES), st.randoms(use_true_random=False))
@settings(max_examples=150, deadline=None)
def test_canonical_is_invariant_under_random_transformations(puzzle, rng):
    assert engine.canonical(transformed(puzzle, rng)) == engine.canonical(puzzle)


def test_full_grids_have_invariant_keys_too():
    rng = random.Random(3)
    for solution in load("easy_kaggle_1000_solutions")[:20]:
        assert engine.canonical(transformed(solution, rng)) == engine.canonical(solution)


def isomorphic(a: str, b: str) -> bool:
    """Brute force over every row and column arrangement, independent of the engine."""
    bands = [list(p) for p in permutations(range(3))]
    lines = [
        [s * 3 + w[i][j] for i, s in enumerate(st) for j in range(3)]
        for st in bands
        for w in product(bands, repeat=3)
    ]
    target = np.array([int(ch) for ch in b])
    for source in (np.array([int(ch) for ch in a]).reshape(9, 9),):
        for g in (source, source.T):
            for rows in lines:
                images = g[rows][:, lines].transpose(1, 0, 2).reshape(len(lines), 81)
                for image in images[((images > 0) == (target > 0)).all(axis=1)]:
                    pairs = {(int(x), int(y)) for x, y in zip(image, target, strict=True) if x}
                    if len(pairs) == len({x for x, _ in pairs}) == len({y for _, y in pairs}):
                        return True
    return False


def test_the_seventeen_clue_list_of_distinct_puzzles_gets_distinct_keys():
    puzzles = load("17clue_500")
    assert len({engine.canonical(p) for p in puzzles}) == len(puzzles)


def test_puzzles_that_share_a_key_really_are_isomorphic():
    by_key: dict[str, list[str]] = {}
    for puzzle in load("top95"):
        by_key.setdefault(engine.canonical(puzzle), []).append(puzzle)
    shared = [group for group in by_key.values() if len(group) > 1]
    assert len(shared) == 1  # top95 lists one puzzle twice, bands swapped
    for first, *rest in shared:
        assert all(isomorphic(first, other) for other in rest)
    a = load("top95")[0]
    assert not isomorphic(a, load("top95")[1])


def test_one_given_more_or_less_changes_the_key():
    puzzle = load("top95")[0]
    solution = engine.solve(puzzle)
    cell = puzzle.index("0")
    more = puzzle[:cell] + solution[cell] + puzzle[cell + 1 :]
    assert engine.canonical(more) != engine.canonical(puzzle)


def test_the_key_is_a_transformation_of_the_puzzle():
    for puzzle in SAMPLES[:30]:
        key = engine.canonical(puzzle)
        assert key.count("0") == puzzle.count("0")
        assert engine.canonical(key) == key
        assert engine.count_solutions(key) == 1


# A grid's print -------------------------------------------------------------------------


def test_a_grids_print_is_the_same_for_every_transformation_and_tells_grids_apart():
    rng = random.Random(5)
    grids = load("easy_kaggle_1000_solutions")[:120]
    for grid in grids[:40]:
        assert engine.grid_print(transformed(grid, rng)) == engine.grid_print(grid)
    prints = {engine.grid_print(grid) for grid in grids}
    keys = {engine.canonical(grid) for grid in grids}
    assert len(prints) == len(keys)


def test_the_grids_near_a_puzzle_hold_its_solution_with_a_given_out_or_a_digit_added():
    rng = random.Random(9)
    made = engine.make_puzzle("hard", seed=rng)
    puzzle, solution = made.puzzle, made.solution
    near = engine.near_grids(puzzle)
    assert near[0] == solution and len(set(near)) == len(near) <= engine.NEAR_MOST
    # Each fits every given but one: the solution, then those with a given changed.
    assert all(
        sum(p not in ("0", g) for p, g in zip(puzzle, grid, strict=True)) == 1 for grid in near[1:]
    )
    assert all(valid_solution(grid, "0" * 81) for grid in near)
    blank = puzzle.index("0")
    for digit in range(1, 10):
        copy = puzzle[:blank] + str(digit) + puzzle[blank + 1 :]
        if not engine.conflicts(copy):
            assert solution in engine.near_grids(copy), digit
    given = next(c for c in range(81) if puzzle[c] != "0")
    fewer = puzzle[:given] + "0" + puzzle[given + 1 :]
    if engine.count_solutions(fewer, engine.NEAR_LIMIT + 1) <= engine.NEAR_LIMIT:
        assert solution in engine.near_grids(fewer)
    several = engine.solutions(fewer, 5)
    assert len(set(several)) == len(several) and all(engine.is_solution(g, fewer) for g in several)


def with_digit(puzzle: str, cell: int, digit: int) -> str:
    return puzzle[:cell] + str(digit) + puzzle[cell + 1 :]


def test_a_copy_with_a_given_out_and_a_wrong_digit_added_is_near_the_solution_as_the_right_one():
    # The copy with the right digit has the solution among its own (when it has at most
    # NEAR_LIMIT); with a wrong digit, whatever number of solutions that leaves it, the
    # solution is among those of the copy with that digit changed, the right copy.
    kinds = set()
    for puzzle in load("easy_kaggle_1000")[:2] + load("top95")[:2]:
        solution = engine.solve(puzzle)
        givens = [c for c in range(81) if puzzle[c] != "0"]
        for out in givens[::4]:
            fewer = with_digit(puzzle, out, 0)
            options = engine.candidates(fewer)
            for cell in [c for c in range(81) if fewer[c] == "0" and c != out][::7]:
                right = with_digit(fewer, cell, int(solution[cell]))
                if engine.count_solutions(right, engine.NEAR_LIMIT + 1) > engine.NEAR_LIMIT:
                    continue
                assert solution in engine.near_grids(right)
                for digit in set(options[cell]) - {int(solution[cell])}:
                    wrong = with_digit(fewer, cell, digit)
                    assert solution in engine.near_grids(wrong), (wrong, solution)
                    kinds.add(min(engine.count_solutions(wrong, 3), 2))
    assert kinds == {0, 1, 2}  # no solution, one, several


def test_solutions_lists_every_solution_once_up_to_the_limit():
    for puzzle in load("multi_solution_200")[:20]:
        count = engine.count_solutions(puzzle, 300)
        listed = engine.solutions(puzzle, 300)
        assert len(listed) == len(set(listed)) == count
        assert all(valid_solution(grid, puzzle) for grid in listed)
        assert engine.solutions(puzzle, 2) == listed[:2]  # a fixed order
