"""Optional fast path of a family: the rules applied to a whole array of positions.

A family whose rules are simple arithmetic on codes (graph games) may return
a :class:`VectorRules` from :meth:`Game.vector <gamedb.games.base.Game.vector>`.
The solvers then expand a page (SQL engine) or the whole game (memory
engine) with a few numpy operations instead of one Python call per position.
It must agree exactly with the family's per-position rules (``expand``):
same players, primitive values, moves in the same order, same text and
labels; tests/test_conformance.py compares the two (children along random
playouts, and every stored value) for every registered family that has them.

numpy is imported only by the modules that use this path.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import values
from ..values import RESULT_CODES as RESULT_CODES
from ..values import RESULT_NAMES as RESULT_NAMES  # re-exported: array rules and solvers read both spellings here

if TYPE_CHECKING:
    import numpy as np

    from ..errors import GamedbError

#: the result codes of the array paths, from the one spelling in :mod:`gamedb.values` (0: not decided)
UNDECIDED = 0
WIN, LOSE, TIE, DRAW = (RESULT_CODES[result] for result in (values.WIN, values.LOSE, values.TIE, values.DRAW))


@dataclass
class Expansion:
    """The rules applied to ``codes`` (one entry per position, moves flattened).

    ``children`` lists the child codes of every move, grouped by parent in
    the order of ``codes`` and, within a parent, in the family's move order;
    ``degree[i]`` moves belong to ``codes[i]``.
    """

    player: np.ndarray  # int8, index of the player to move
    primitive: np.ndarray  # int8, UNDECIDED or WIN/LOSE/TIE for the player to move
    degree: np.ndarray  # int64, number of legal moves
    children: np.ndarray  # int64, child code of every move


class VectorRules(ABC):
    """A family's rules on numpy arrays of codes."""

    #: every code of the game is below this bound (up to 2**32 the solvers index arrays by code, above it they sort)
    code_limit: int
    @abstractmethod
    def expand(self, codes: np.ndarray) -> Expansion:
        """Player, primitive value and moves of every position in ``codes``."""

    @abstractmethod
    def texts(self, codes: np.ndarray) -> list[str]:
        """The text form of every position in ``codes``."""

    @abstractmethod
    def labels(self, parents: np.ndarray, children: np.ndarray) -> list[str]:
        """The label of every move ``parents[i] -> children[i]``."""


def ranks_within(lengths: np.ndarray) -> np.ndarray:
    """For groups of ``lengths`` items laid end to end, each item's rank within its group (0, 1, ...)."""
    import numpy as np

    lengths = np.asarray(lengths, dtype=np.int64)
    ends = np.cumsum(lengths)
    ranks: np.ndarray = np.arange(int(ends[-1]) if len(ends) else 0, dtype=np.int64) - np.repeat(ends - lengths, lengths)
    return ranks


def check_moves(game: Any, codes: np.ndarray, primitive: np.ndarray, degree: np.ndarray) -> None:
    """Refuse rules that leave a position that is not over without a move (GamedbError naming it)."""
    stuck = ((primitive == UNDECIDED) & (degree == 0)).nonzero()[0]
    if len(stuck):
        raise stuck_error(game, game.format(game.decode(int(codes[stuck[0]]))))


def stuck_error(game: Any, text: str) -> GamedbError:  # game: a Game (base imports this module)
    """The error for a position ``text`` that is not over but has no move: the family's rules are incomplete."""
    from ..errors import GamedbError

    return GamedbError(f"position {text!r} has no legal moves but the game is not over; the {game.family} rules are incomplete")

