"""What a family declares for the tier solver: :meth:`Game.tier <gamedb.games.base.Game.tier>` (no move goes to a
smaller tier; moves may stay inside one) and optionally :class:`TierArrayRules`, its rules on numpy arrays, agreeing
exactly with ``expand`` (else :class:`PositionRules`). With :attr:`TierArrayRules.path_texts` (Connect-Four) texts are
the smallest move sequences, which the solver builds from the parents' and the family formats.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .vector import RESULT_CODES, UNDECIDED, Expansion, VectorRules

if TYPE_CHECKING:
    import numpy as np


class TierArrayRules(VectorRules):
    """A family's rules on numpy arrays, with the tier of every code."""

    path_texts: bool = False
    label_count: int = 0  # with ``path_texts``: label ids are ``0 .. label_count - 1``
    label_table: tuple[str, ...] = ()  # with ``path_texts``: the label of each id

    def tiers(self, codes: np.ndarray) -> np.ndarray:
        """The tier (int64) of every position in ``codes``."""
        raise NotImplementedError

    def label_ids(self, parents: np.ndarray, children: np.ndarray) -> np.ndarray:
        """With ``path_texts``: the label id of every move; ids order moves as texts compare."""
        raise NotImplementedError

    def format_paths(self, paths: np.ndarray) -> list[str]:
        """With ``path_texts``: the texts of positions reached by the label ids ``paths`` (uint8 [n, length])."""
        raise NotImplementedError


class PositionRules(TierArrayRules):
    """Any family with tiers, one position at a time through its per-position rules (``expand``)."""

    def __init__(self, game: Any) -> None:  # game: a Game (base imports this module)
        self.game = game
        self.code_limit = 1 << 63
        self._labels: dict[tuple[int, int], str] = {}

    def expand(self, codes: np.ndarray) -> Expansion:
        import numpy as np
        players, prims, degree, children = [], [], [], []
        for code in np.asarray(codes).tolist():
            player, _text, prim, moves = self.game.expand(code)
            players.append(player)
            prims.append(RESULT_CODES[prim] if prim is not None else UNDECIDED)
            degree.append(len(moves))
            for label, child in moves:
                children.append(child)
                self._labels[(code, child)] = label
        return Expansion(player=np.array(players, dtype=np.int8), primitive=np.array(prims, dtype=np.int8),
                         degree=np.array(degree, dtype=np.int64), children=np.array(children, dtype=np.int64))

    def labels(self, parents: np.ndarray, children: np.ndarray) -> list[str]:
        found = []
        for parent, child in zip(parents.tolist(), children.tolist(), strict=True):
            label = self._labels.get((parent, child))
            if label is None:
                label = next(lb for lb, c in self.game.moves(self.game.decode(parent)) if self.game.encode(c) == child)
            found.append(label)
        self._labels.clear()  # asked for once per page, after its expansion
        return found

    def texts(self, codes: np.ndarray) -> list[str]:
        game = self.game
        return [game.format(game.decode(code)) for code in codes.tolist()]

    def tiers(self, codes: np.ndarray) -> np.ndarray:
        import numpy as np
        game = self.game
        return np.array([game.tier(game.decode(code)) for code in codes.tolist()], dtype=np.int64)
