"""Connect-Four on numpy arrays (:mod:`.connect4`): a stone in column ``c`` adds ``1 << (c*(H+1) + h)`` to the code
(O: the sentinel moves up), twice that for X (the old sentinel bit stays as an X stone). Texts are move sequences,
built by the tier solver from the parents' (:attr:`path_texts`)."""

from typing import Any

import numpy as np

from .tier_rules import TierArrayRules
from .vector import LOSE, TIE, UNDECIDED, Expansion


class Connect4Arrays(TierArrayRules):
    """The rules of one :class:`~gamedb.games.connect4.Connect4` board on arrays of codes."""

    path_texts = True

    def __init__(self, game: Any) -> None:  # game: the Connect4 family (it imports this module)
        self.game = game
        w, h = self.width, self.height = game.width, game.height
        s = self.stride = h + 1
        self.code_limit = 1 << (w * s)
        self.label_count = w
        self._bottom_all, self._full, self._shifts = np.int64(game._bottom_all), np.int64(game._full), game._shifts
        self._chunk = np.int64((1 << s) - 1)

    def heights(self, codes: np.ndarray) -> np.ndarray:
        """Stones in every column: int64 [n, width]."""
        codes = np.asarray(codes, dtype=np.int64)
        out = np.empty((len(codes), self.width), dtype=np.int64)
        for c in range(self.width):
            chunk = (codes >> (c * self.stride)) & self._chunk  # the sentinel is the column's highest bit
            out[:, c] = np.maximum(np.frexp(chunk.astype(np.float64))[1] - 1, 0)  # exact: chunk < 2**53
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
        return Expansion(player=(stones & 1).astype(np.int8), primitive=primitive, degree=legal.sum(axis=1).astype(np.int64), children=children[legal])

    def labels(self, parents: np.ndarray, children: np.ndarray) -> list[str]:
        found: list[str] = np.array(self.game._labels, dtype=object)[self.label_ids(parents, children)].tolist()
        return found

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

    def canonical(self, codes: np.ndarray) -> np.ndarray:
        codes = np.asarray(codes, dtype=np.int64)
        mirror = np.zeros_like(codes)
        for c in range(self.width):
            mirror |= ((codes >> (c * self.stride)) & self._chunk) << ((self.width - 1 - c) * self.stride)
        least: np.ndarray = np.minimum(codes, mirror)
        return least

    def tiers(self, codes: np.ndarray) -> np.ndarray:
        stones: np.ndarray = self.heights(codes).sum(axis=1)
        return stones
