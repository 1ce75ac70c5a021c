"""The command line: python -m engine solve|count|grade|generate|hint|canonical."""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
from collections.abc import Callable, Iterator
from typing import TextIO

from .canonical import canonical
from .generator import SYMMETRIES, make_puzzle
from .grid import InvalidPuzzle, parse
from .hints import next_step
from .kernel import count_solutions, solve
from .logic import grade
from .techniques import DIFFICULTIES


def _lines(source: TextIO) -> Iterator[tuple[int, str]]:
    """The puzzle lines with their line numbers in the file, blank and # lines counted."""
    for number, line in enumerate(source, 1):
        line = line.strip()
        if line and not line.startswith("#"):
            yield number, line


def _positive(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _solve(text: str, args: argparse.Namespace) -> str:
    return solve(parse(text)) or "no solution"


def _count(text: str, args: argparse.Namespace) -> str:
    return str(count_solutions(parse(text), args.limit))


def _grade(text: str, args: argparse.Namespace) -> str:
    g = grade(text)
    used = ";".join(f"{name}:{n}" for name, n in g.techniques.items())
    return f"{g.difficulty},{g.score},{used}"


def _hint(text: str, args: argparse.Namespace) -> str:
    step = next_step(text)
    return "solved" if step is None else f"{step.technique}: {step.explanation}"


def _canonical(text: str, args: argparse.Namespace) -> str:
    return canonical(text)


PER_LINE: dict[str, Callable[[str, argparse.Namespace], str]] = {
    "solve": _solve,
    "count": _count,
    "grade": _grade,
    "hint": _hint,
    "canonical": _canonical,
}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    for name, handler in PER_LINE.items():
        sub = commands.add_parser(
            name, help=handler.__name__.strip("_") + " each puzzle, one a line"
        )
        sub.add_argument("file", nargs="?", default="-", help="puzzles one a line, or - for stdin")
        if name == "count":
            sub.add_argument(
                "--limit", type=_positive, default=2, help="stop counting here (default 2)"
            )
    gen = commands.add_parser("generate", help="print puzzle,solution,difficulty,score lines")
    gen.add_argument("--difficulty", choices=DIFFICULTIES, default="medium")
    gen.add_argument("--count", type=_positive, default=1)
    gen.add_argument("--seed", type=int, default=None)
    gen.add_argument("--symmetry", choices=SYMMETRIES, default="rotational")
    return parser


def _source(
    parser: argparse.ArgumentParser, name: str
) -> contextlib.AbstractContextManager[TextIO]:
    """The input to read: stdin for '-' (left open for whoever owns it), else the file."""
    if name == "-":
        return contextlib.nullcontext(sys.stdin)
    try:
        return open(name, encoding="utf-8")
    except OSError as error:
        parser.error(f"cannot read {name}: {error.strerror}")  # exits with status 2


def main(argv: list[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command; 0 when every line went through, 1 when some could not."""
    out = out or sys.stdout
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "generate":
        rng = random.Random(args.seed)
        for _ in range(args.count):
            g = make_puzzle(args.difficulty, seed=rng, symmetry=args.symmetry)
            print(f"{g.puzzle},{g.solution},{g.grade.difficulty},{g.grade.score}", file=out)
        return 0
    handler = PER_LINE[args.command]
    failed = False
    with _source(parser, args.file) as source:
        for number, line in _lines(source):
            try:
                print(handler(line, args), file=out)
            except InvalidPuzzle as error:
                print(f"error: line {number}: {error}", file=out)
                failed = True
    return 1 if failed else 0
