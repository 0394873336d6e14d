"""The values of heaps 0..N of a heap game, computed in memory in one pass over n = 0..N.

A Python loop over the rules leaving at most one heap, numpy over splits; games without splits go to
:mod:`.single_heap`. Per heap: grundy the mex of its options' values, a win iff > 0; remoteness and best move
by :func:`.sum_remoteness.best_option`, an option leaving two live heaps being a sum, searched
(:mod:`.sum_remoteness`) heap by heap while the budget lasts (``searched_to``), unknown (NULL) above.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...games.heaps import HeapGame
from ...values import mex
from .single_heap import single_heap_values
from .sum_remoteness import SEARCH_BUDGET, SearchExhausted, SumSearch, best_option, nim_sum

if TYPE_CHECKING:
    import numpy as np

#: a heap's grundy value, remoteness (None: undetermined) and best option (None without moves)
_HeapValue = tuple[int, int | None, tuple[int, int] | None]

#: remoteness of an option that is a sum of two live heaps, not searched
_SUM = -2
#: an unknown remoteness in the numpy mirror of the remoteness list
_UNKNOWN = -1


@dataclass
class HeapValues:
    """grundy, remoteness (None: undetermined) and best option per heap 0..N."""

    grundy: list[int]
    remoteness: Sequence[int | None]  # a list
    #: (rule index, smaller part of a split or 0) of the best move; None without moves
    best: list[tuple[int, int] | None]
    degree: list[int]
    #: every heap up to this one has its exact remoteness
    searched_to: int
    #: the heaps from this one on repeat earlier ones, as a repeating window proves (:mod:`.single_heap`); None: none
    repeated_from: int | None = None


def compute(game: HeapGame, *, search_budget: int = SEARCH_BUDGET, searched_to: int | None = None) -> HeapValues:
    """Values of the heaps 0..N. ``searched_to`` (None: as far as ``search_budget`` reaches) fixes where the sum search stops."""
    top = game.max_heap
    degree = game.heap_degrees()
    simple = [(i, r.take, r.parts) for i, r in enumerate(game.rules) if r.parts < 2]
    splits = [(i, r.take, int(r.unequal)) for i, r in enumerate(game.rules) if r.parts == 2]
    if not splits:
        one_grundy, one_remoteness, one_best, repeated_from = single_heap_values(top, simple)
        return HeapValues(one_grundy, one_remoteness, one_best, degree, top, repeated_from)
    import numpy as np  # only splits need it (and it takes a tenth of a second to import)

    degree_np = np.array(degree, dtype=np.int64)
    grundy: list[int] = []
    remoteness: list[int | None] = []
    best: list[tuple[int, int] | None] = []
    grundy_np = np.zeros(top + 1, dtype=np.int64)
    remoteness_np = np.full(top + 1, _UNKNOWN, dtype=np.int64)
    search = SumSearch(game, grundy, degree, remoteness, budget=search_budget)
    limit = top if searched_to is None else min(searched_to, top)
    reached = -1  # the last heap whose options' sums were all searched
    for n in range(top + 1):
        found: _HeapValue | None = None
        if n <= limit and reached == n - 1:
            try:
                found = _searched_heap(game, n, grundy, search)
                reached = n
            except SearchExhausted:
                search.memo.clear()  # from here on, sums are unknown
        if found is None:
            found = _heap(n, simple, splits, grundy, remoteness, grundy_np, remoteness_np, degree_np, game.stride)
        g, r, b = found
        grundy.append(g)
        remoteness.append(r)
        best.append(b)
        grundy_np[n] = g
        remoteness_np[n] = _UNKNOWN if r is None else r
    return HeapValues(grundy, remoteness, best, degree, reached)


def _searched_heap(game: HeapGame, n: int, grundy: list[int], search: SumSearch) -> _HeapValue:
    """grundy, remoteness and best option of heap ``n``, every option's remoteness known (sums searched)."""
    options = []  # (value, remoteness, (rule index, smaller part of a split or 0)) in move order
    for idx, parts in game.heap_options(n):
        live = tuple(sorted(p for p in parts if search.degree[p]))
        options.append((nim_sum(grundy[p] for p in parts), search.of(live), (idx, parts[0] if len(parts) == 2 else 0)))
    g = mex(value for value, _, _ in options)
    found = best_option(options, g != 0)
    if found is None:
        return g, 0, None
    assert found[0] is not None  # every option's remoteness is searched here
    return g, 1 + found[0], found[1]


def _heap(
    n: int, simple: list[tuple[int, int, int]], splits: list[tuple[int, int, int]], grundy: list[int], remoteness: list[int | None],
    grundy_np: np.ndarray, remoteness_np: np.ndarray, degree_np: np.ndarray, stride: int,
) -> _HeapValue:
    """grundy, remoteness (None if a needed sum is unknown) and best option of heap ``n``; sums are unknown."""
    import numpy as np
    mask = 0
    plain: list[tuple[int, int | None, int]] = []  # (value, remoteness or None, order key) of the options leaving at most one heap
    for idx, take, parts in simple:
        rest = n - take
        if parts == 0:
            if rest == 0:
                plain.append((0, 0, idx * stride))
                mask |= 1
        elif rest >= 1:
            v = grundy[rest]
            plain.append((v, remoteness[rest], idx * stride))
            mask |= 1 << v
    split_values = []  # per split rule: (rule index, rest, values of a = 1..amax)
    for idx, take, unequal in splits:
        rest = n - take
        amax = (rest - unequal) // 2
        if amax >= 1:
            values = grundy_np[1 : amax + 1] ^ grundy_np[rest - amax : rest][::-1]
            split_values.append((idx, rest, values))
            for v in np.flatnonzero(np.bincount(values)).tolist():
                mask |= 1 << v
    g = (~mask & (mask + 1)).bit_length() - 1
    if not plain and not split_values:
        return g, 0, None
    # per rule, the candidate options (win: zero-valued; loss: all) as (unknown?, first order, best remoteness, its order)
    candidates: list[tuple[bool, int, Any, Any]] = [(r is None, order, r, order) for v, r, order in plain if not (g and v)]
    for idx, rest, values in split_values:
        a = np.flatnonzero(values == 0) + 1 if g else np.arange(1, len(values) + 1)
        if not len(a):
            continue
        b = rest - a
        rems = np.where(degree_np[a] == 0, remoteness_np[b], np.where(degree_np[b] == 0, remoteness_np[a], _SUM))
        base = idx * stride
        if (rems < 0).any():
            candidates.append((True, base + int(a[0]), None, None))
        else:
            k = int(np.argmin(rems) if g else np.argmax(rems))  # the first of the least / greatest: lowest order
            candidates.append((False, base + int(a[0]), int(rems[k]), base + int(a[k])))
    first = min(c[1] for c in candidates)
    if any(c[0] for c in candidates):
        return g, None, divmod(first, stride)
    sign = 1 if g else -1  # a win's quickest option, a loss's slowest; ties to the lowest order
    signed, order = min((sign * c[2], c[3]) for c in candidates)
    return g, 1 + sign * signed, divmod(order, stride)
