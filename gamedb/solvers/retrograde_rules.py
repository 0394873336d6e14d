"""The retrograde solver's view of a game on arrays: its reachable positions as slots, the moves into a level."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ..games.base import Expanded, Game
from ..games.vector import RESULT_CODES, UNDECIDED, Expansion, VectorRules, check_moves, ranks_within
from ..progress import Progress
from .protocol import TooLarge

#: positions handled at once (expansions, level scans, rows)
BLOCK = 1 << 14
#: codes looked up at once (a larger batch of sorted needles costs fewer cache misses per lookup)
LOOKUP = 1 << 20
#: a level of the dense enumeration with more than 1/SCAN_FROM as many codes as the bitmap: found by a scan of it, not a sort
SCAN_FROM = 32
#: codes per reachable position up to which the arrays are indexed by code (no sorted code array, no search)
DENSE_CODES_PER_POSITION = 2

Edges = Iterator[tuple[np.ndarray, np.ndarray]]  # (child slots, parent slots) of moves, a chunk at a time


def first_of_runs(x: np.ndarray) -> np.ndarray:
    """The indices where a sorted ``x`` changes value (the first of each run of equal values)."""
    return np.flatnonzero(np.concatenate(([True], x[1:] != x[:-1]))) if len(x) else np.zeros(0, dtype=np.int64)


def unique(x: np.ndarray) -> np.ndarray:
    """The distinct values of ``x``, sorted (numpy 2's hashing np.unique is several times slower here)."""
    x = np.sort(x)
    out: np.ndarray = x[first_of_runs(x)]
    return out


class OneByOne(VectorRules):
    """:meth:`Game.expand` on arrays, each position's expansion kept (families without vector rules)."""

    code_limit = 0

    def __init__(self, game: Game) -> None:
        self.game = game
        self.kept: dict[int, Expanded] = {}

    def _get(self, codes: np.ndarray) -> list[Expanded]:
        kept, expand = self.kept, self.game.expand
        return [kept.get(c) or kept.setdefault(c, expand(c)) for c in codes.tolist()]

    def expand(self, codes: np.ndarray) -> Expansion:
        got = self._get(codes)
        return Expansion(
            player=np.array([e.player for e in got], dtype=np.int8),
            primitive=np.array([RESULT_CODES[e.primitive] if e.primitive else UNDECIDED for e in got], dtype=np.int8),
            degree=np.array([len(e.moves) for e in got], dtype=np.int64),
            children=np.array([c for e in got for _, c in e.moves], dtype=np.int64),
        )

    def texts(self, codes: np.ndarray) -> list[str]:
        return [e.text for e in self._get(codes)]

    def labels(self, parents: np.ndarray, children: np.ndarray) -> list[str]:
        return [next(label for label, c in self.kept[p].moves if c == child) for p, child in zip(parents.tolist(), children.tolist(), strict=True)]

    def move_labels(self, codes: np.ndarray) -> list[str]:
            return [label for e in self._get(codes) for label, _ in e.moves]


class Classes(VectorRules):
    """The rules on classes of positions under the game's symmetries: every child and parent is its class's
    representative (:meth:`VectorRules.canonical`), each (position, parent class) pair once."""

    def __init__(self, rules: VectorRules) -> None:
        assert rules.canonical is not None, "a family with symmetries gives VectorRules.canonical"
        self.rules, self.code_limit, self.canonical_of = rules, rules.code_limit, rules.canonical

    def expand(self, codes: np.ndarray) -> Expansion:
        exp = self.rules.expand(codes)
        return Expansion(exp.player, exp.primitive, exp.degree, self.canonical_of(exp.children))

    def primitive(self, codes: np.ndarray) -> np.ndarray:
        return self.rules.primitive(codes)  # (a position's symmetric images end alike)

    def parents(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        which, parent = self.rules.parents(codes)
        parent = self.canonical_of(parent)
        order = np.lexsort((parent, which))
        which, parent = which[order], parent[order]
        new = np.concatenate(([True], (which[1:] != which[:-1]) | (parent[1:] != parent[:-1]))) if len(which) else np.zeros(0, dtype=bool)
        return which[new], parent[new]

    def texts(self, codes: np.ndarray) -> list[str]:
        return self.rules.texts(codes)

    def labels(self, parents: np.ndarray, children: np.ndarray) -> list[str]:
        return self.rules.labels(parents, children)


class Slots:
    """The reachable positions, each a slot of the value arrays: its code (dense codes, ``reach`` a bitmap
    over them) or its rank in the sorted ``codes`` (sparse)."""

    def __init__(self, codes: np.ndarray, reach: np.ndarray | None) -> None:
        self.codes, self.reach = codes, reach
        self.positions = len(codes) if reach is None else int(reach.sum())
        self.size = len(codes) if reach is None else len(reach)

    def code(self, slots: np.ndarray) -> np.ndarray:
        return slots if self.reach is not None else self.codes[slots]

    def find(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(slot, reachable) of every code."""
        if self.reach is not None:
            slot = np.where(codes < self.size, codes, 0)
            return slot, (codes < self.size) & self.reach[slot]
        order = np.argsort(codes, kind="stable")  # sorted needles: 3-10x fewer cache misses in a large array
        slot = np.empty(len(codes), dtype=np.int64)
        slot[order] = np.minimum(np.searchsorted(self.codes, codes[order]), self.positions - 1)
        return slot, self.codes[slot] == codes

    def slot(self, codes: np.ndarray) -> np.ndarray:
        """The slot of every code, each known reachable."""
        return codes if self.reach is not None else self.find(codes)[0]

    def blocks(self, size: int = BLOCK) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """(slots, codes) of every reachable position in code order, ``size`` slots at a time."""
        for a in range(0, self.size, size):
            slots = a + (np.flatnonzero(self.reach[a : a + size]) if self.reach is not None else np.arange(min(size, self.size - a)))
            yield slots, self.code(slots)


def reachable(game: Game, rules: VectorRules, canonical: Callable[[np.ndarray], np.ndarray], positions_limit: int,
              visit: Callable[[np.ndarray, Expansion], None] | None, progress: Progress | None) -> Slots:
    """Every position reachable from the start (``canonical``: its slot code), breadth first; :class:`TooLarge` beyond
    ``positions_limit``. With ``visit`` (called with every expansion) the codes are dense: they are the slots, kept in a bitmap."""
    starts = np.array([game.encode(state) for state in game.starts()], dtype=np.int64)
    frontier = unique(canonical(starts))
    dense = visit is not None
    reach = np.zeros(rules.code_limit if dense else 0, dtype=bool)
    new = np.zeros_like(reach)  # dense: the codes found in this level, distinct by one scan when they are many
    runs: list[np.ndarray] = []  # sparse: sorted disjoint runs of known codes, each at most half the one before

    def known(codes: np.ndarray) -> np.ndarray:
        seen = np.zeros(len(codes), dtype=bool)
        for run in runs:
            seen |= run[np.minimum(np.searchsorted(run, codes), len(run) - 1)] == codes
        return seen

    if dense:
        reach[frontier] = True
    count = 0
    while len(frontier):
        if not dense:
            runs.append(frontier)
            while len(runs) > 1 and len(runs[-2]) < 2 * len(runs[-1]):
                merged = np.concatenate(runs[-2:])
                del runs[-2:]  # (sorted in place once the two runs are gone: twice their size at most, not three times)
                merged.sort()
                runs.append(merged)
        count += len(frontier)
        if count > positions_limit:
            raise TooLarge(f"more than {positions_limit:,} positions")
        found = []
        for a in range(0, len(frontier), BLOCK):
            page = frontier[a : a + BLOCK]
            exp = rules.expand(page)
            check_moves(game, page, exp.primitive, exp.degree)
            if visit is not None:
                visit(page, exp)
                fresh = exp.children[~reach[exp.children]]
                reach[fresh] = new[fresh] = True
                found.append(fresh)
            else:
                fresh = unique(exp.children)
                found.append(fresh[~known(fresh)])
        if dense:
            many = sum(map(len, found)) * SCAN_FROM >= len(new)
            frontier = np.flatnonzero(new) if many else unique(np.concatenate(found))
            new[frontier] = False
        else:
            frontier = unique(np.concatenate(found))
        del found
        if progress:
            progress("enumerate", count, None)
    codes = np.concatenate(runs) if runs else frontier
    runs.clear()
    codes.sort()  # in place: the runs are gone
    return Slots(codes, reach if dense else None)


def distinct_degree(exp: Expansion, *, moves: bool = True, distinct: bool = False) -> tuple[tuple[np.ndarray, np.ndarray], np.ndarray]:
    """(parent index, child code) of an expansion's distinct moves (``moves`` False: the parents left empty; in no
    particular order when some position has moves that do not rise), and each parent's number of them; ``distinct``:
    the rules' moves are (:attr:`~gamedb.games.vector.VectorRules.distinct_moves`), taken as they are."""
    child, degree = exp.children, exp.degree
    if distinct:  # (cat-mouse's 2·10^6 positions: 11 ms less of their count)
        return (np.repeat(np.arange(len(degree)), degree) if moves else child[:0], child), degree
    ends = np.cumsum(degree)[:-1]
    rises = child[1:] > child[:-1]
    rises[ends[(ends > 0) & (ends < len(child))] - 1] = True  # a position's first move after another's last
    if rises.all():  # increasing within every position: distinct as they are
        return (np.repeat(np.arange(len(degree)), degree) if moves else child[:0], child), degree
    parent = np.repeat(np.arange(len(degree)), degree)
    # by child, stably: a pair's repeats are next to each other, their parents in order (one sort where lexsort's
    # two took 1.5 s of Dōbutsu GC's count of children, with its symmetry classes' children in no order)
    order = np.argsort(child, kind="stable")
    parent, child = parent[order], child[order]
    new = np.concatenate(([True], (child[1:] != child[:-1]) | (parent[1:] != parent[:-1])))
    parent, child = parent[new], child[new]
    return (parent, child), np.bincount(parent, minlength=len(degree))


#: the progress phase within a level: its positions whose parents have been looked up, of all of them (Dōbutsu's first
#: level, the un-moves of 147·10^6 positions over at once, took 15 minutes that showed no progress)
LEVEL_PHASE = "this level"


def frontier_scan(
    remoteness: np.ndarray, wanted: Callable[[np.ndarray], np.ndarray], k: int, progress: Progress | None = None
) -> Iterator[np.ndarray]:
    """The slots decided at level ``k`` whose result is ``wanted``, a block at a time (one scan of the array); ``progress``
    told of each block once it is done (:data:`LEVEL_PHASE`)."""
    slots = np.flatnonzero(remoteness == k)
    slots = slots[wanted(slots)]
    for a in range(0, len(slots), BLOCK):
        yield slots[a : a + BLOCK]
        if progress:
            progress(LEVEL_PHASE, min(a + BLOCK, len(slots)), len(slots))


def by_unmoves(
    rules: VectorRules, slots: Slots, state: Any, wanted: Callable[[np.ndarray], np.ndarray], k: int, progress: Progress | None = None
) -> Edges:
    """The moves into the level, by the family's un-moves (:meth:`VectorRules.parents`)."""
    child: list[np.ndarray] = []
    parent: list[np.ndarray] = []
    for frontier in frontier_scan(state.remoteness, wanted, k, progress):
        which, codes = rules.parents(slots.code(frontier))
        child.append(frontier[which])
        parent.append(codes)
        if slots.reach is not None or sum(map(len, parent)) >= LOOKUP:  # (dense codes: no search to batch)
            yield from _found(slots, child, parent)
    yield from _found(slots, child, parent)


def _found(slots: Slots, child: list[np.ndarray], parent: list[np.ndarray]) -> Edges:
    """The moves gathered into ``child`` and ``parent`` (codes) whose parent is reachable, as slots; the lists emptied."""
    if parent:
        into, (slot, found) = np.concatenate(child), slots.find(np.concatenate(parent))
        child.clear()
        parent.clear()
        yield into[found], slot[found]


class ReverseIndex:
    """The distinct moves into every slot (int32 parents grouped by child), from the forward moves."""

    #: bytes per distinct move while it is built (int64 sort keys, twice while they are joined; measured:
    #: 2.1 s of CPU and 80 bytes per position on bench/loopy_vs_plain.py's graph, against 4.1 s and 16 bytes
    #: for re-expanding the undecided positions at each of its 14 levels)
    BYTES_PER_MOVE = 16

    def __init__(self) -> None:
        self.keys: list[np.ndarray] = []

    def add(self, child: np.ndarray, parent: np.ndarray) -> None:
        self.keys.append(child.astype(np.int64) << 32 | parent)

    def build(self, size: int) -> None:
        key = np.concatenate(self.keys) if self.keys else np.zeros(0, dtype=np.int64)
        self.keys = []
        key.sort()
        self.offset = np.searchsorted(key, np.arange(size + 1, dtype=np.int64) << 32)
        np.bitwise_and(key, 0xFFFFFFFF, out=key)
        self.parent = key.astype(np.int32)

    def edges(
        self, rules: VectorRules, slots: Slots, state: Any, wanted: Callable[[np.ndarray], np.ndarray], k: int, progress: Progress | None = None
    ) -> Edges:
        for frontier in frontier_scan(state.remoteness, wanted, k, progress):
            starts, lengths = self.offset[frontier], self.offset[frontier + 1] - self.offset[frontier]
            yield np.repeat(frontier, lengths), self.parent[np.repeat(starts, lengths) + ranks_within(lengths)]


def by_expanding(
    rules: VectorRules, slots: Slots, state: Any, wanted: Callable[[np.ndarray], np.ndarray], k: int, progress: Progress | None = None
) -> Edges:
    """The moves into the level, found by expanding every undecided position again (no memory per move; ``progress``: the
    positions looked at, of all of them, :data:`LEVEL_PHASE`)."""
    for i, (block, code) in enumerate(slots.blocks(BLOCK)):
        open_ = state.result[block] == UNDECIDED
        block, code = block[open_], code[open_]
        (parent, child), _ = distinct_degree(rules.expand(code))
        child, _ = slots.find(child)
        into = state.remoteness[child] == k
        into[into] = wanted(child[into])
        yield child[into], block[parent[into]]
        if progress:
            progress(LEVEL_PHASE, min((i + 1) * BLOCK, slots.size), slots.size)
