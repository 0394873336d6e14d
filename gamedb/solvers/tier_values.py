"""Values of one tier's positions from the values of their children."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..games.vector import DRAW, LOSE, TIE, UNDECIDED, WIN, ranks_within
from .array_levels import Levels, reverse_moves

#: remoteness values fit below this (keys of the one-pass minimum)
_SPAN = np.int64(1) << 31
#: move orders fit below this (the low bits of the keys)
_ORDER_BITS = 20


@dataclass
class TierValues:
    """Result, remoteness (-1: draw) and best move order (-1: none) of a tier's positions."""

    result: np.ndarray  # int8
    remoteness: np.ndarray  # int32
    best: np.ndarray  # int32


def from_children(primitive: np.ndarray, degree: np.ndarray, child_result: np.ndarray, child_remoteness: np.ndarray) -> TierValues:
    """Values of positions whose children's values are all known (``child_*``: one entry per move, grouped by parent)."""
    n = len(primitive)
    if len(degree) and int(degree.max(initial=0)) >= 1 << _ORDER_BITS:
        raise ValueError("a position has more than a million moves")
    # one key per move, smaller is better for the mover: lose children (by remoteness), tie children
    # (by remoteness), drawing children, win children (by greatest remoteness): a base and a sign by result code
    if np.any(child_result == UNDECIDED):
        raise ValueError("a child's value is not known")
    base, sign = np.zeros(5, dtype=np.int64), np.zeros(5, dtype=np.int64)
    base[[LOSE, TIE, DRAW, WIN]] = 0, _SPAN, 2 * _SPAN, 4 * _SPAN - 1
    sign[[LOSE, TIE, WIN]] = 1, 1, -1
    key = base[child_result] + sign[child_result] * child_remoteness
    key = (key << _ORDER_BITS) | ranks_within(degree)
    result = primitive.copy()
    remoteness = np.where(primitive != UNDECIDED, 0, -1).astype(np.int32)
    best = np.full(n, -1, dtype=np.int32)
    moving = np.flatnonzero(degree > 0)
    if len(moving):
        starts = np.concatenate(([0], np.cumsum(degree)[:-1]))[moving]
        least = np.minimum.reduceat(key, starts)
        best[moving] = (least & ((1 << _ORDER_BITS) - 1)).astype(np.int32)
        k = least >> _ORDER_BITS
        kind = k // _SPAN
        within = k % _SPAN
        result[moving] = np.array([WIN, TIE, DRAW, LOSE], dtype=np.int8)[kind]
        remoteness[moving] = np.where(kind == 3, _SPAN - within, np.where(kind == 2, -1, within + 1))
    return TierValues(result, remoteness, best)


def leveled(primitive: np.ndarray, degree: np.ndarray, child: np.ndarray, outer_result: np.ndarray, outer_remoteness: np.ndarray) -> TierValues:
    """Values of a tier whose moves may stay inside it."""
    n = len(primitive)
    total = n + len(outer_result)
    result = np.concatenate((primitive, outer_result)).astype(np.int8)
    remoteness = np.concatenate((np.where(primitive != UNDECIDED, 0, -1), outer_remoteness)).astype(np.int32)
    best = np.full(n, -1, dtype=np.int32)
    parent_of_move = np.repeat(np.arange(n, dtype=np.int64), degree)
    order_of_move = ranks_within(degree).astype(np.int32)
    levels = Levels(result, remoteness, best, degree.astype(np.int32), reverse_moves(child, parent_of_move, order_of_move, total))
    known = result != UNDECIDED  # decided before the levels start: primitives and later tiers, by remoteness

    def entering(kinds: tuple[int, ...], level: int) -> np.ndarray:
        return np.flatnonzero(known & np.isin(result, kinds) & (remoteness == level))

    last = int(remoteness[known].max(initial=0))
    frontier, k = entering((WIN, LOSE), 0), 0
    while len(frontier) or k < last:
        decided = levels.win_lose(frontier, k)
        k += 1
        frontier = np.concatenate((decided, entering((WIN, LOSE), k)))
    frontier, t = entering((TIE,), 0), 0
    while len(frontier) or t < last:
        ties = levels.ties(frontier, t)
        t += 1
        frontier = np.concatenate((ties, entering((TIE,), t)))
    own = result[:n]
    own[own == UNDECIDED] = DRAW
    drawing = np.flatnonzero((own[parent_of_move] == DRAW) & (result[child] == DRAW) & (primitive[parent_of_move] == UNDECIDED))
    parents, first = np.unique(parent_of_move[drawing], return_index=True)
    best[parents] = order_of_move[drawing[first]]
    return TierValues(own.copy(), remoteness[:n].copy(), best)
