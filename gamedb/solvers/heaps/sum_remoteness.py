"""Remoteness of sums of heaps, by searching the sum.

The remoteness of a sum of two or more heaps that have moves is not
determined by the components' values (Grundy value, remoteness): play
interleaves the components, so it is found only by searching the positions
of the sum itself. A position of the sum is the sorted tuple of its heaps
that have moves (heaps without moves change nothing). Its outcome is known
from the XOR of the heaps' Grundy values; only remoteness is searched, with
the Gamesman rule: a win (XOR non-zero) is 1 + the least remoteness of its
zero-valued options, a loss 1 + the greatest remoteness of all its options,
a position without moves 0. A win therefore only looks at its zero-valued
options, which keeps the search small.

The search is exponential in the heap size (the positions below heap n are
about the partitions of the numbers up to n), so it runs under a budget of
sum positions; :class:`SearchExhausted` says the budget is spent.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ...games.heaps import HeapGame

#: sum positions a solve searches, at most, to find the remoteness of small heaps
#: (Kayles is then exact to heap 32, Dawson's chess to 43, Grundy's game to 39; its time: docs/performance.md)
SEARCH_BUDGET = 10_000


#: plies deep the search goes, at most: each level is a Python call, and a sum of thousands of
#: small heaps (a long line of ``gamedb query nim -``) would otherwise exceed the recursion limit
SEARCH_MAX_DEPTH = 400


class SearchExhausted(Exception):
    """The search needs more sum positions than its budget."""


class SumSearch:
    """Remoteness of sums of heaps, searched with the Grundy values and single-heap remoteness known so far.

    ``grundy`` and ``degree`` cover every heap the search may meet;
    ``remoteness`` is read for single heaps, so a sum of total ``t`` needs the
    single heaps below ``t`` (the caller fills them in order).
    """

    def __init__(
        self,
        game: HeapGame,
        grundy: Sequence[int],
        degree: Sequence[int],
        remoteness: Sequence[int | None],
        budget: int = SEARCH_BUDGET,
        max_visits: int | None = None,
        options: dict[int, dict[int, list[tuple[int, ...]]]] | None = None,
    ):
        self.game, self.grundy, self.degree, self.remoteness = game, grundy, degree, remoteness
        self.budget = budget
        #: sum positions looked at (memoized or not), at most ``max_visits`` (None: no limit) -- a query's bound on
        #: its time, where ``budget`` alone would let a sum of hundreds of heaps descend hundreds of plies per move
        self.visits = 0
        self.max_visits = max_visits
        self.memo: dict[tuple[int, ...], int] = {}
        #: the options of each heap by value (:meth:`_options_of`); a dict given by the caller is shared between searches
        self._options: dict[int, dict[int, list[tuple[int, ...]]]] = {} if options is None else options

    def live(self, parts: Iterable[int]) -> tuple[int, ...]:
        """The heaps of ``parts`` that have moves, sorted: the position of the sum that matters."""
        return tuple(sorted(p for p in parts if self.degree[p]))

    def of(self, heaps: tuple[int, ...], depth: int = 0) -> int:
        """Remoteness of the sum of ``heaps`` (sorted, all with moves); may raise :class:`SearchExhausted`.

        ``depth``: plies from the position first asked about (at most :data:`SEARCH_MAX_DEPTH`)."""
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
        total = 0
        for h in heaps:
            total ^= self.grundy[h]
        best = None
        for i, h in enumerate(heaps):
            if i and heaps[i - 1] == h:
                continue  # the same heap again: the same options
            others = heaps[:i] + heaps[i + 1 :]
            by_value = self._options_of(h)
            groups = [by_value.get(total ^ self.grundy[h], ())] if total else by_value.values()
            for group in groups:
                for parts in group:
                    r = self.of(tuple(sorted(others + parts)), depth + 1)
                    if best is None or (r < best if total else r > best):
                        best = r
        assert best is not None  # a sum of live heaps has moves, and a win has a zero-valued one
        result = 1 + best
        self.memo[heaps] = result
        return result

    def _options_of(self, n: int) -> dict[int, list[tuple[int, ...]]]:
        """Options of one heap of ``n``: value -> the live heaps each option leaves."""
        return options_by_value(self.game, self.grundy, self.degree, n, self._options)


def options_by_value(
    game: HeapGame, grundy: Sequence[int], degree: Sequence[int], n: int, known: dict[int, dict[int, list[tuple[int, ...]]]]
) -> dict[int, list[tuple[int, ...]]]:
    """Options of one heap of ``n``: value -> the live heaps (sorted) each option leaves, in move order; kept in ``known``."""
    found = known.get(n)
    if found is None:
        found = {}
        for _, parts in game.heap_options(n):
            value = 0
            for p in parts:
                value ^= grundy[p]
            found.setdefault(value, []).append(tuple(sorted(p for p in parts if degree[p])))
        known[n] = found
    return found
