"""A family's optional fast path (:meth:`Game.vector <gamedb.games.base.Game.vector>`): the rules on a whole array of
codes, which must agree exactly with ``expand`` (tests/test_conformance.py). numpy is imported only where used.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import values
from ..values import RESULT_CODES as RESULT_CODES
from ..values import RESULT_NAMES as RESULT_NAMES  # re-exported

if TYPE_CHECKING:
    import numpy as np

    from ..errors import GamedbError

UNDECIDED = 0
WIN, LOSE, TIE, DRAW = (RESULT_CODES[result] for result in (values.WIN, values.LOSE, values.TIE, values.DRAW))


@dataclass
class Expansion:
    """The rules applied to ``codes``: ``children`` grouped by parent in move order, ``degree[i]`` of them for ``codes[i]``."""

    player: np.ndarray  # int8, index of the player to move
    primitive: np.ndarray  # int8, UNDECIDED or WIN/LOSE/TIE for the player to move
    degree: np.ndarray  # int64, number of legal moves
    children: np.ndarray  # int64, child code of every move


@dataclass
class MovesInOrder:
    """The rules applied to ``codes`` as :class:`Expansion`, the children asked for one move order at a time."""

    player: np.ndarray  # int8, index of the player to move
    primitive: np.ndarray  # int8, UNDECIDED or WIN/LOSE/TIE for the player to move
    degree: np.ndarray  # integers (any width), number of legal moves
    #: ``child(order, which)``: the child code of move ``order`` (0 first) of each position ``codes[which]``, whose degree is above it
    child: Callable[[int, np.ndarray], np.ndarray]


class VectorRules(ABC):
    """A family's rules on numpy arrays of codes."""

    #: every code of the game is below this bound (up to 2**32 the solvers index arrays by code, above it they sort)
    code_limit: int
    #: ``canonical(codes)``: :meth:`Game.canonical <gamedb.games.base.Game.canonical>` on an array; None: no symmetry
    canonical: Callable[[np.ndarray], np.ndarray] | None = None
    #: ``class_sizes(codes)``: the positions in each canonical code's class (a solver then expands canonical positions only)
    class_sizes: Callable[[np.ndarray], np.ndarray] | None = None
    #: whether no position has two moves to the same child (a solver then counts a position's moves as they are)
    distinct_moves: bool = False

    @abstractmethod
    def expand(self, codes: np.ndarray) -> Expansion:
        """Player, primitive value and moves of every position in ``codes``."""

    @abstractmethod
    def texts(self, codes: np.ndarray) -> list[str]:
        """The text form of every position in ``codes``."""

    @abstractmethod
    def labels(self, parents: np.ndarray, children: np.ndarray) -> list[str]:
        """The label of every move ``parents[i] -> children[i]``."""

    def codes_of(self, texts: list[str]) -> np.ndarray:
        """The code of every text the rules read at once (optional), -1 where the family's ``parse`` reads it (an error,
        another spelling): ``parse`` then encoded gives the same code."""
        import numpy as np
        return np.full(len(texts), -1, dtype=np.int64)

    def primitive(self, codes: np.ndarray) -> np.ndarray:
        """The primitive value (``Expansion.primitive``) of every position in ``codes`` without its moves (optional: a
        solver then counts the moves into positions the next player wins at once when it counts moves, instead of
        visiting those positions' parents)."""
        raise NotImplementedError

    def in_order(self, codes: np.ndarray) -> MovesInOrder:
        """:meth:`expand` with the children asked for one move order at a time (optional: a solver that looks for the
        first move of each position to a child of some value then makes the children of the first moves only)."""
        raise NotImplementedError

    def parents(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Un-moves (optional): ``(which, parent)``, every position ``parent[j]`` with a legal move to
        ``codes[which[j]]``, each distinct pair once (unreachable parents allowed)."""
        raise NotImplementedError


def has_parents(rules: VectorRules) -> bool:
    """Whether ``rules`` implement :meth:`VectorRules.parents`."""
    return type(rules).parents is not VectorRules.parents


def has_in_order(rules: VectorRules) -> bool:
    """Whether ``rules`` implement :meth:`VectorRules.in_order`."""
    return type(rules).in_order is not VectorRules.in_order


def has_primitive(rules: VectorRules) -> bool:
    """Whether ``rules`` implement :meth:`VectorRules.primitive`."""
    return type(rules).primitive is not VectorRules.primitive


def ranks_within(lengths: np.ndarray) -> np.ndarray:
    """For groups of ``lengths`` items laid end to end, each item's rank within its group (0, 1, ...)."""
    import numpy as np
    lengths = np.asarray(lengths, dtype=np.int64)
    some = lengths[lengths > 0]
    steps = np.ones(int(some.sum()), dtype=np.int64)  # +1 within a group, back to 0 at each group's first item
    if len(some):
        steps[0] = 0
        steps[np.cumsum(some)[:-1]] = 1 - some[:-1]
    ranks: np.ndarray = np.cumsum(steps)
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

