"""One level of retrograde analysis on numpy arrays, for the in-memory graph solver and the tier solver."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..games.vector import LOSE, TIE, UNDECIDED, WIN, ranks_within

#: the moves into each position, grouped by child: (offset per position, parent, move order)
Reverse = tuple[np.ndarray, np.ndarray, np.ndarray]


def reverse_moves(child: np.ndarray, parent_of_move: np.ndarray, order_of_move: np.ndarray, positions: int) -> Reverse:
    """The moves (``child[j]``, ``parent_of_move[j]``, ``order_of_move[j]``) grouped by child, for ``positions`` children."""
    by_child = np.argsort(child, kind="stable")
    offset = np.concatenate(([0], np.cumsum(np.bincount(child, minlength=positions)))).astype(np.int64)
    return offset, parent_of_move[by_child], order_of_move[by_child]


@dataclass
class Levels:
    """The values being decided, in place, and what deciding them needs."""

    result: np.ndarray
    remoteness: np.ndarray
    best: np.ndarray
    counter: np.ndarray
    rev: Reverse

    def win_lose(self, frontier: np.ndarray, k: int) -> np.ndarray:
        """Decide the wins and losses of level ``k + 1`` from the wins and losses of ``frontier`` (level ``k``); the positions decided."""
        result = self.result
        wins = self.decide(*self.undecided_parents(frontier[result[frontier] == LOSE]), WIN, k + 1)
        parents, orders = self.undecided_parents(frontier[result[frontier] == WIN])
        hit, times = np.unique(parents, return_counts=True)
        self.counter[hit] -= times.astype(np.int32)
        done = self.counter[parents] == 0
        loses = self.decide(parents[done], orders[done], LOSE, k + 1)
        return np.concatenate((wins, loses))

    def ties(self, frontier: np.ndarray, t: int) -> np.ndarray:
        """Decide the ties of level ``t + 1`` from the ties of ``frontier`` (level ``t``); the positions decided."""
        return self.decide(*self.undecided_parents(frontier), TIE, t + 1)

    def undecided_parents(self, children: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(parent, move order) of every move into ``children`` from a position not decided yet."""
        parents, orders = _parents(self.rev, children)
        keep = self.result[parents] == UNDECIDED
        return parents[keep], orders[keep]

    def decide(self, parents: np.ndarray, orders: np.ndarray, value: int, level: int) -> np.ndarray:
        """Decide each of ``parents`` as ``value`` at ``level``, its best move its lowest-ordered one given."""
        decided, first = _first_move(parents, orders)
        self.result[decided] = value
        self.remoteness[decided] = level
        self.best[decided] = first
        return decided


def _parents(rev: Reverse, children: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(parent, move order) of every move into ``children``."""
    rev_offset, rev_parent, rev_order = rev
    starts = rev_offset[children]
    lengths = rev_offset[children + 1] - starts
    idx = np.repeat(starts, lengths) + ranks_within(lengths)
    return rev_parent[idx], rev_order[idx]


def _first_move(parents: np.ndarray, orders: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct parents and, for each, its lowest move order."""
    if not len(parents):
        return parents, orders
    key = parents.astype(np.int64) << 32 | orders.astype(np.int64)
    key = np.unique(key)
    p = key >> 32
    first = np.concatenate(([True], p[1:] != p[:-1]))
    return p[first], (key[first] & 0xFFFFFFFF).astype(np.int32)
