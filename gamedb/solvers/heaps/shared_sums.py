"""Remoteness of sums shared between answers: each sum position searched once for a whole stream.

A query searches sums under a budget per answer (the same answer alone or in a stream). :class:`SharedSums`
keeps per sum position what does not depend on the answer: remoteness, *reach* (the positions a search from
it memoizes, a bit each) and depth. While the union of the reaches an answer asked about fits the budget,
its own search would have found the same; beyond, :class:`AnswerSums` follows where that search stops or runs it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence

from ...games.heaps import HeapGame
from .sum_remoteness import SEARCH_MAX_DEPTH, OptionsByValue, SearchExhausted, SumSearch, nim_sum, sum_children

#: of one sum position: (remoteness, reach as a bit set, greatest depth + heaps of a search from it, its bit, its reach's size)
Facts = tuple[int, int, int, int, int]

#: about the most memory the kept facts take (a position: 8 bytes a heap, its reach's bits and 120 bytes of dict slot and
#: tuple); 32 MiB holds the 8,000-odd sums of ``query nim -`` over heaps up to 13 several times over
CACHE_BYTES = 32 * 1024 * 1024

_MISSING = object()


class _Spent(Exception):
    """A followed search spent its budget (:meth:`SharedSums.spent`)."""


class _Abandoned(Exception):
    """This ask would add more than its allowance, or more than the cache holds: the answer searches itself."""


class SharedSums:
    """Facts of sum positions of one game (columns of heaps 0..searched_to; ``limit``: a query's budget), thread-safe."""

    def __init__(
        self, game: HeapGame, grundy: Sequence[int], degree: Sequence[int], remoteness: Sequence[int | None], limit: int, max_bytes: int = CACHE_BYTES
    ):
        self.game, self.grundy, self.degree, self.remoteness, self.limit = game, grundy, degree, remoteness, limit
        self.max_bytes, self.bytes = max_bytes, 0
        #: changes whenever the kept facts are emptied (their reach bits then mean other positions)
        self.generation = 0
        self._known: dict[tuple[int, ...], Facts | None] = {}
        #: the memo a query's search from an empty memo stops with, spent (:meth:`spent`), by the sum searched
        self._frozen: dict[tuple[int, ...], int | None] = {}
        self._next_bit = self._allowance = 0
        self._options: OptionsByValue = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._known)

    def facts(self, heaps: tuple[int, ...], since: int | None, allowance: int) -> tuple[Facts | None, int, int]:
        """(facts of ``heaps`` or None, their generation, positions searched): at most ``allowance`` searched; none from a
        generation other than ``since`` (None: the answer's first ask, which empties a full cache)."""
        with self._lock:
            if since is None and self.bytes > self.max_bytes:
                self.generation += 1  # first: a reader without the lock checks it after reading
                self._known, self._frozen = {}, {}
                self.bytes = self._next_bit = 0
            elif since is not None and since != self.generation:
                return None, self.generation, 0
            if heaps in self._known:
                return self._known[heaps], self.generation, 0
            self._allowance = allowance
            try:
                facts = self._search(heaps, 0)
            except _Abandoned:
                facts = None
            return facts, self.generation, allowance - self._allowance

    def known(self, heaps: tuple[int, ...], since: int) -> Facts | None:
        """The facts of ``heaps`` if kept in generation ``since`` (no search): None if not kept, or not that generation."""
        with self._lock:
            return self._known.get(heaps) if since == self.generation else None

    def spent(self, heaps: tuple[int, ...], memo: int, since: int | None, max_visits: int) -> tuple[int | None, int]:
        """(the memo a query's search of ``heaps`` from ``memo`` stops with when it spends its budget, or None; generation):
        the answer's later sums are then their kept remoteness when in it, null otherwise."""
        with self._lock:
            if since is not None and since != self.generation:
                return None, self.generation
            if not memo and heaps in self._frozen:
                return self._frozen[heaps], self.generation
            return self._spend(heaps, memo, max_visits), self.generation

    def _spend(self, heaps: tuple[int, ...], memo: int, max_visits: int) -> int | None:
        """The search of :meth:`spent`, followed as :class:`SumSearch` runs it, skipping each option whose kept reach fits."""
        self._allowance = max_visits  # the facts of options met on the way
        first = not memo
        entered = memo.bit_count()

        def enter(u: tuple[int, ...], depth: int) -> None:
            nonlocal memo, entered
            entered += 1
            if entered > max_visits or memo.bit_count() >= self.limit:
                raise _Spent
            if depth + len(u) > SEARCH_MAX_DEPTH:
                raise _Abandoned  # stopped by depth: not spent
            for child in self._children(u):
                if len(child) < 2:
                    if len(child) == 1 and self.remoteness[child[0]] is None:
                        raise _Abandoned  # the search stops on a heap without remoteness: not spent
                    continue
                facts = self._known[child] if child in self._known else self._search(child, 0)
                if facts is not None:
                    if memo >> facts[3] & 1:
                        continue  # memoized: the search takes its remoteness
                    new = (facts[1] & ~memo).bit_count()
                    if memo.bit_count() + new <= self.limit and entered + new <= max_visits and depth + 1 + facts[2] <= SEARCH_MAX_DEPTH:
                        memo |= facts[1]  # the search of this option succeeds and memoizes its whole reach
                        entered += new
                        continue
                enter(child, depth + 1)
            facts = self._known.get(u)
            if facts is None:
                raise _Abandoned  # cannot happen: a position whose search succeeded has a reach within the budget
            memo |= facts[1]

        try:
            enter(heaps, 0)
            frozen = None  # the search succeeds: nothing frozen
        except _Spent:
            frozen = memo
        except _Abandoned:
            return None  # not kept: the cache is full, or the search stops for another reason
        if first:
            self._frozen[heaps] = frozen
            self.bytes += 120 + 8 * len(heaps) + (frozen.bit_length() // 8 if frozen else 0)
        return frozen

    def _children(self, heaps: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        grundy = self.grundy
        return sum_children(self.game, grundy, self.degree, heaps, nim_sum(grundy[h] for h in heaps), self._options)

    def _search(self, heaps: tuple[int, ...], depth: int) -> Facts | None:
        """Facts of ``heaps`` (not kept yet) from those of its options, searched first; kept before returning."""
        if depth + len(heaps) > SEARCH_MAX_DEPTH:
            raise _Abandoned  # deeper than any answer's search goes from where this began (not kept: depth is relative)
        self._allowance -= 1
        if self._allowance < 0 or self.bytes > self.max_bytes:
            raise _Abandoned
        remoteness, known = self.remoteness, self._known
        total = nim_sum(self.grundy[h] for h in heaps)
        best: int | None = None
        reach = 0
        deepest = len(heaps)
        for child in sum_children(self.game, self.grundy, self.degree, heaps, total, self._options):
            r: int | None
            if len(child) > 1:
                facts = known[child] if child in known else self._search(child, depth + 1)
                if facts is None:
                    return self._keep(heaps, None)
                r = facts[0]
                reach |= facts[1]
                deepest = max(deepest, facts[2] + 1)
            else:
                r = remoteness[child[0]] if child else 0
                if r is None:
                    return self._keep(heaps, None)
            if best is None or (r < best if total else r > best):
                best = r
        assert best is not None  # a sum of live heaps has moves, and a win has a zero-valued one
        size = reach.bit_count() + 1
        if size > self.limit:
            return self._keep(heaps, None)
        bit = self._next_bit
        self._next_bit += 1
        return self._keep(heaps, (1 + best, reach | 1 << bit, deepest, bit, size))

    def _keep(self, heaps: tuple[int, ...], facts: Facts | None) -> Facts | None:
        self._known[heaps] = facts
        self.bytes += 120 + 8 * len(heaps) + (facts[1].bit_length() // 8 if facts else 0)
        return facts


#: the facts of the game answered last, by what they depend on (the rules and the stored columns)
_shared: tuple[object, SharedSums] | None = None
_shared_lock = threading.Lock()


def shared_sums(game: HeapGame, grundy: Sequence[int], degree: Sequence[int], remoteness: Sequence[int | None], limit: int) -> SharedSums:
    """The kept facts for these rules and columns: the same object for every batch of a stream (one game kept at a time)."""
    global _shared
    key = (type(game), game.rules, tuple(grundy), tuple(degree), tuple(remoteness), limit)
    with _shared_lock:
        if _shared is None or _shared[0] != key:
            _shared = (key, SharedSums(game, list(grundy), list(degree), list(remoteness), limit, CACHE_BYTES))
        return _shared[1]


class AnswerSums:
    """The searches of sums of one answer: what its own budgeted search (``new_search``) would find, from the shared facts."""

    def __init__(self, shared: SharedSums, new_search: Callable[[], SumSearch], max_visits: int):
        self.shared, self.new_search, self.max_visits = shared, new_search, max_visits
        #: the most positions the memo of the answer's own search can hold with every search succeeding
        self.fits = min(shared.limit, max_visits)
        #: every sum asked about, in order (replayed by the answer's own search if it has to run)
        self.asked: list[tuple[int, ...]] = []
        #: the union of the reaches of the sums asked: the memo of the answer's own search; at least its size
        self.reach = self.size = 0
        #: the answer's first search spent its budget with this memo (:meth:`SharedSums.spent`)
        self.spent: int | None = None
        self.generation: int | None = None
        self.own: SumSearch | None = None
        #: shared positions this answer may still search (a bound on its time, like the own search's entries)
        self.allowance = max_visits

    def of(self, heaps: tuple[int, ...]) -> int | None:
        """Remoteness of the sum ``heaps`` (sorted, at least two, all with moves), None when the answer's search cannot tell."""
        if self.own is None:
            shared = self.shared
            if self.spent is None and self.generation is not None:
                # the common case without the lock: a dict read is atomic, and emptying changes the generation first
                facts = shared._known.get(heaps)
                if facts is not None and shared.generation == self.generation and facts[2] <= SEARCH_MAX_DEPTH:
                    joined = self.reach | facts[1]
                    size = self.size + facts[4]  # the sum of the sizes, never less than that of the union: counted when over
                    if size > self.fits:
                        size = joined.bit_count()
                    if size <= self.fits:
                        self.reach, self.size = joined, size
                        self.asked.append(heaps)
                        return facts[0]
            found = self._told(heaps)
            if found is not _MISSING:
                self.asked.append(heaps)
                return found  # type: ignore[return-value]
            self.own = self.new_search()
            self.allowance = 0
            for earlier in self.asked:  # the memo and the count the answer's search would have had
                try:
                    self.own.of(earlier)
                except SearchExhausted:
                    pass
        try:
            return self.own.of(heaps)
        except SearchExhausted:
            return None

    def _told(self, heaps: tuple[int, ...]) -> int | None | object:
        """What the answer's own search would give for ``heaps`` (int or None) from the shared facts, or _MISSING."""
        shared = self.shared
        if self.spent is not None:
            assert self.generation is not None
            facts = shared.known(heaps, self.generation)
            if shared.generation != self.generation:
                return _MISSING
            return facts[0] if facts is not None and self.spent >> facts[3] & 1 else None
        facts, generation, searched = shared.facts(heaps, self.generation, self.allowance)
        self.allowance -= searched
        if facts is not None:
            remoteness, reach, deepest, bit, _ = facts
            if self.reach >> bit & 1:
                return remoteness  # memoized by an earlier search of this answer
            joined = self.reach | reach
            size = joined.bit_count()
            if deepest <= SEARCH_MAX_DEPTH and size <= self.fits:
                self.generation, self.reach, self.size = generation, joined, size
                return remoteness
        elif self.generation is not None and generation != self.generation:
            return _MISSING
        # the search of this sum does not fit what is left of the budget: follow it to where it stops
        spent, generation = shared.spent(heaps, self.reach, generation, self.max_visits)
        if spent is None:
            return _MISSING
        self.spent, self.generation = spent, generation
        return None
