"""Remoteness of sums of heaps, by searching the positions of the sum (the sorted tuple of its heaps with moves): play
interleaves the components, so it is not theirs; the positions grow like partitions of the heap sizes, hence a budget."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import reduce
from operator import xor
from typing import TypeVar

from ...games.heaps import HeapGame

#: sum positions a solve searches, at most, to find the remoteness of small heaps
#: (Kayles is then exact to heap 32, Dawson's chess to 43, Grundy's game to 39; its time: docs/performance.md)
SEARCH_BUDGET = 10_000

#: plies deep the search goes, at most: each is a Python call, and a sum of thousands of heaps would pass the recursion limit
SEARCH_MAX_DEPTH = 400

#: the options of each heap by value (:func:`sum_children`), kept by heap size
OptionsByValue = dict[int, dict[int, list[tuple[int, ...]]]]
T = TypeVar("T")


class SearchExhausted(Exception):
    """The search needs more sum positions than its budget."""


def nim_sum(values: Iterable[int]) -> int:
    """The XOR of ``values``: the Grundy value of a sum whose components have them."""
    return reduce(xor, values, 0)


def best_option(options: Iterable[tuple[int, int | None, T]], win: bool) -> tuple[int | None, T] | None:
    """(remoteness, payload) of the option a position plays, of its options (value, remoteness or None, payload) in move
    order: a win the quickest zero-valued one, a loss the slowest, ties to the first; with any remoteness unknown, the first."""
    wanted = [option for option in options if option[0] == 0 or not win]
    if not wanted:
        return None
    remoteness = [option[1] for option in wanted]
    if None in remoteness:
        return None, wanted[0][2]
    best = min(remoteness) if win else max(remoteness)  # type: ignore[type-var]
    return best, wanted[remoteness.index(best)][2]  # the first of them: the lowest move order


class SumSearch:
    """Remoteness of sums of heaps from the Grundy values, degrees and single-heap remoteness known so far."""

    def __init__(
        self, game: HeapGame, grundy: Sequence[int], degree: Sequence[int], remoteness: Sequence[int | None],
        budget: int = SEARCH_BUDGET, max_visits: int | None = None, options: OptionsByValue | None = None,
    ):
        self.game, self.grundy, self.degree, self.remoteness = game, grundy, degree, remoteness
        self.budget = budget
        #: sum positions looked at, memoized or not, at most ``max_visits`` (None: no limit): a query's bound on its time
        self.visits, self.max_visits = 0, max_visits
        self.memo: dict[tuple[int, ...], int] = {}
        #: a dict given by the caller is shared between searches
        self._options: OptionsByValue = {} if options is None else options

    def of(self, heaps: tuple[int, ...], depth: int = 0) -> int:
        """Remoteness of the sum of ``heaps`` (sorted, all with moves), ``depth`` plies below the first ask; may raise :class:`SearchExhausted`."""
        if not heaps:
            return 0
        if len(heaps) == 1:
            found = self.remoteness[heaps[0]]
            if found is None:
                raise SearchExhausted(f"heap {heaps[0]} has no known remoteness")
            return found
        known = self.memo.get(heaps)
        if known is not None:
            return known
        self.visits += 1
        if self.max_visits is not None and self.visits > self.max_visits:
            raise SearchExhausted(f"more than {self.max_visits} sum positions looked at")
        if len(self.memo) >= self.budget:
            raise SearchExhausted(f"more than {self.budget} sum positions")
        if depth + len(heaps) > SEARCH_MAX_DEPTH:  # every live heap is moved in at least once before the end
            raise SearchExhausted(f"more than {SEARCH_MAX_DEPTH} plies deep")
        total = nim_sum(self.grundy[h] for h in heaps)
        best = None
        for child in sum_children(self.game, self.grundy, self.degree, heaps, total, self._options):
            r = self.of(child, depth + 1)
            if best is None or (r < best if total else r > best):
                best = r
        assert best is not None  # a sum of live heaps has moves, and a win has a zero-valued one
        self.memo[heaps] = result = 1 + best
        return result


def sum_children(
    game: HeapGame, grundy: Sequence[int], degree: Sequence[int], heaps: tuple[int, ...], total: int, known: OptionsByValue
) -> Iterator[tuple[int, ...]]:
    """The options a search of ``heaps`` (grundy ``total``) looks at, in move order: a win's zero-valued ones, a loss's all."""
    for i, h in enumerate(heaps):
        if i and heaps[i - 1] == h:
            continue  # the same heap again: the same options
        others = heaps[:i] + heaps[i + 1 :]
        by_value = known.get(h)
        if by_value is None:  # heap h's options: value -> the live heaps (sorted) each leaves, in move order
            by_value = known[h] = {}
            for _, parts in game.heap_options(h):
                by_value.setdefault(nim_sum(grundy[p] for p in parts), []).append(tuple(sorted(p for p in parts if degree[p])))
        for group in [by_value.get(total ^ grundy[h], [])] if total else by_value.values():
            for parts in group:
                yield tuple(sorted(others + parts))

