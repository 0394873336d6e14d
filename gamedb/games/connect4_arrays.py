"""Connect-Four on numpy arrays: the array rules of :mod:`.connect4` for the tier solver.

Codes are the family's bitboards (see :mod:`.connect4`): column ``c`` holds
``1 << h`` (the sentinel above its ``h`` stones) plus a bit per X stone. So
dropping a stone in column ``c`` adds ``1 << (c*(H+1) + h)`` to the code
when O moves (the sentinel moves up) and twice that when X moves (the
sentinel moves up and the old sentinel bit stays, as an X stone). A whole
array of positions is expanded with a handful of array operations per
column and per line direction.

The tier of a position is its number of stones: every move goes to the
next tier. The position text is the smallest legal move sequence, which
the tier solver builds tier by tier from the parents' sequences
(:attr:`path_texts`): this module only formats those sequences.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .tier_rules import TierArrayRules
from .vector import LOSE, TIE, UNDECIDED, Expansion


class Connect4Arrays(TierArrayRules):
    """The rules of one :class:`~gamedb.games.connect4.Connect4` board on arrays of codes."""

    #: texts are smallest move sequences, built from the parents' (see :mod:`gamedb.solvers.tiers`)
    path_texts = True

    def __init__(self, game: Any) -> None:  # game: the Connect4 family (it imports this module)
        self.game = game
        w, h = self.width, self.height = game.width, game.height
        s = self.stride = h + 1
        self.code_limit = 1 << (w * s)
        self.label_count = w
        self._bottom_all = np.int64(sum(1 << (c * s) for c in range(w)))
        self._full = np.int64(sum(((1 << h) - 1) << (c * s) for c in range(w)))
        self._shifts = [tuple(d * i for i in range(1, game.connect)) for d in (1, s, s + 1, s - 1)]
        self._chunk = np.int64((1 << s) - 1)

    # --- board ------------------------------------------------------------------
    def heights(self, codes: np.ndarray) -> np.ndarray:
        """Stones in every column: int64 [n, width]."""
        codes = np.asarray(codes, dtype=np.int64)
        out = np.zeros((len(codes), self.width), dtype=np.int64)
        for c in range(self.width):
            chunk = (codes >> (c * self.stride)) & self._chunk
            for r in range(1, self.height + 1):
                out[:, c] += chunk >= (1 << r)
        return out

    def _board(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        heights = self.heights(codes)
        mask = np.zeros(len(codes), dtype=np.int64)
        for c in range(self.width):
            mask |= ((np.int64(1) << heights[:, c]) - 1) << (c * self.stride)
        x = codes - mask - self._bottom_all
        return heights, x, mask

    def _has_line(self, stones: np.ndarray) -> np.ndarray:
        found = np.zeros(len(stones), dtype=bool)
        for shifts in self._shifts:
            m = stones.copy()
            for shift in shifts:
                m &= stones >> shift
            found |= m != 0
        return found

    # --- the rules -----------------------------------------------------------------
    def expand(self, codes: np.ndarray) -> Expansion:
        codes = np.asarray(codes, dtype=np.int64)
        heights, x, mask = self._board(codes)
        stones = heights.sum(axis=1)
        x_moves = (stones & 1) == 0
        last = np.where(x_moves, mask ^ x, x)  # the stones of the player who moved last
        primitive = np.full(len(codes), UNDECIDED, dtype=np.int8)
        primitive[mask == self._full] = TIE
        primitive[self._has_line(last)] = LOSE  # a line made with the last stone wins even on a full board
        legal = (heights < self.height) & (primitive == UNDECIDED)[:, None]
        step = np.where(x_moves, 2, 1).astype(np.int64)[:, None]
        offsets = np.arange(self.width, dtype=np.int64) * self.stride
        children = codes[:, None] + (step << (heights + offsets[None, :]))
        return Expansion(
            player=(stones & 1).astype(np.int8),
            primitive=primitive,
            degree=legal.sum(axis=1).astype(np.int64),
            children=children[legal],
        )

    def labels(self, parents: np.ndarray, children: np.ndarray) -> list[str]:
        labels = self.game._labels
        return [labels[c] for c in self.label_ids(parents, children).tolist()]

    def label_ids(self, parents: np.ndarray, children: np.ndarray) -> np.ndarray:
        """The 0-based column of every move ``parents[i] -> children[i]``."""
        diff = np.asarray(children, dtype=np.int64) - np.asarray(parents, dtype=np.int64)
        bit = np.log2(diff.astype(np.float64)).astype(np.int64)  # diff is a power of two: exact
        column: np.ndarray = bit // self.stride
        return column

    def texts(self, codes: np.ndarray) -> list[str]:
        game = self.game
        return [game.format(game.decode(code)) for code in np.asarray(codes).tolist()]

    def format_paths(self, paths: np.ndarray) -> list[str]:
        """Texts of positions given their smallest move sequences (uint8 [n, stones] of 0-based columns)."""
        n, k = paths.shape
        if k == 0:
            return ["-"] * n
        if self.width <= 9:
            digits = np.ascontiguousarray(paths + ord("1"), dtype=np.uint8)
            texts: list[str] = digits.view(f"S{k}").ravel().astype(str).tolist()
            return texts
        labels = self.game._labels
        return [",".join(labels[c] for c in row) for row in paths.tolist()]

    def tiers(self, codes: np.ndarray) -> np.ndarray:
        stones: np.ndarray = self.heights(codes).sum(axis=1)
        return stones
