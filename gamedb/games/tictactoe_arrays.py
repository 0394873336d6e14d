"""Tic-tac-toe on numpy arrays (:mod:`.tictactoe`): a mark in cell ``i`` adds ``mark * 3**i`` to the code."""

from typing import Any

import numpy as np

from .tier_rules import TierArrayRules
from .vector import LOSE, TIE, UNDECIDED, Expansion

_POWERS = 3 ** np.arange(9, dtype=np.int64)
X, O = 1, 2  # noqa: E741 (O is the mark) -- the family's cell values


class TicTacToeArrays(TierArrayRules):
    code_limit = 3**9

    def __init__(self, game: Any) -> None:  # game: the TicTacToe family (it imports this module)
        self.game = game

    @staticmethod
    def cells(codes: np.ndarray) -> np.ndarray:
        """The nine cells of every position: int64 [n, 9] of 0 (empty), 1 (X), 2 (O)."""
        codes = np.asarray(codes, dtype=np.int64)
        return (codes[:, None] // _POWERS[None, :]) % 3

    def expand(self, codes: np.ndarray) -> Expansion:
        codes = np.asarray(codes, dtype=np.int64)
        cells = self.cells(codes)
        xs, os_ = (cells == X).sum(axis=1), (cells == O).sum(axis=1)
        player = (xs != os_).astype(np.int8)  # 0: X to move
        last = np.where(player == 0, O, X)[:, None]  # who just moved
        line = np.zeros(len(codes), dtype=bool)
        for a, b, c in self.game.lines:
            line |= (cells[:, a] == last[:, 0]) & (cells[:, b] == last[:, 0]) & (cells[:, c] == last[:, 0])
        primitive = np.full(len(codes), UNDECIDED, dtype=np.int8)
        primitive[(cells != 0).all(axis=1)] = TIE
        primitive[line] = LOSE
        legal = (cells == 0) & (primitive == UNDECIDED)[:, None]
        mark = np.where(player == 0, X, O).astype(np.int64)[:, None]
        children = codes[:, None] + mark * _POWERS[None, :]
        return Expansion(player=player, primitive=primitive, degree=legal.sum(axis=1).astype(np.int64), children=children[legal])

    def labels(self, parents: np.ndarray, children: np.ndarray) -> list[str]:
        diff = np.asarray(children, dtype=np.int64) - np.asarray(parents, dtype=np.int64)
        cell = np.searchsorted(_POWERS, diff, side="right") - 1  # diff is 3**i or 2 * 3**i
        return [str(i + 1) for i in cell.tolist()]

    def texts(self, codes: np.ndarray) -> list[str]:
        chars = np.frombuffer(self.game.chars.encode(), dtype=np.uint8)[self.cells(codes)]
        texts: list[str] = np.ascontiguousarray(chars, dtype=np.uint8).view("S9").ravel().astype(str).tolist()
        return texts

    def canonical(self, codes: np.ndarray) -> np.ndarray:
        cells = self.cells(codes)
        images = [cells[:, list(perm)] @ _POWERS for perm in self.game.symmetry_perms]
        least: np.ndarray = np.minimum.reduce(images)
        return least

    def tiers(self, codes: np.ndarray) -> np.ndarray:
        stones: np.ndarray = (self.cells(codes) != 0).sum(axis=1)
        return stones
