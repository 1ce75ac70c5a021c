"""Results of a search kept by what they depend on, for the positions that share it.

A step changes a few candidates, so most of what a finder looks at (one digit's places, one
unit's cells) is the same in the next position of a solve, or of the climb's next puzzle:
kept by those inputs, a search is done once for all of them. Steps are made anew from what
is kept, each worded as places are written when it is made.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

T = TypeVar("T")
_MISSING = object()


class Kept(Generic[T]):
    """Results by key, computed on first use; past `most` of them, all are forgotten."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._results: dict[Hashable, T] = {}

    def get(self, key: Hashable, compute: Callable[..., T], *args: Any) -> T:
        """The result for key, compute(*args) the first time."""
        results = self._results
        # One lookup, so that a thread clearing the results meanwhile costs a recomputation
        # at worst.
        result = results.get(key, _MISSING)
        if result is _MISSING:
            if len(results) >= self.most:
                results.clear()
            result = results[key] = compute(*args)
        return result  # type: ignore[return-value]
