"""Positions of the two cat-and-mouse families: ``(mouse * n + cat) * 2 + turn`` on ``n`` nodes, the layout
:class:`~gamedb.games.base.TokenMoves` generates moves from, written once: :func:`code_of`, :func:`code_sql`, :func:`tokens_sql`.
"""

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple, TypeVar

if TYPE_CHECKING:
    import numpy as np

#: the players, and the turn of a position: index 0 is the mouse, 1 the cat
MOUSE, CAT = 0, 1
#: cat-mouse's hole: node 0 (the mouse wins there; the cat may not enter it)
HOLE = 0

#: integers, or numpy arrays of them
Codes = TypeVar("Codes", int, "np.ndarray")


class State(NamedTuple):
    mouse: int  # node (or cell number row * cols + col)
    cat: int
    turn: int  # 0: the mouse moves, 1: the cat


def code_of(token0: Codes, token1: Codes, turn: int | Codes, n: int) -> Codes:
    """The code of the position with the tokens on ``token0`` and ``token1`` of ``n`` nodes (integers or arrays)."""
    code: Codes = (token0 * n + token1) * 2 + turn
    return code


def code_sql(token0: str, token1: str, turn: int, n: str) -> str:
    """:func:`code_of` as an SQL expression over the SQL operands ``token0``, ``token1`` and ``n``."""
    return f"({token0} * {n} + {token1}) * 2" + (f" + {turn}" if turn else "")


def tokens_sql(code: str, n: str) -> tuple[str, str]:
    """The SQL expressions of token0 and token1 of the position coded ``code`` (no modulo operator: portable)."""
    return f"{code} / 2 / {n}", f"({code} / 2 - {code} / 2 / {n} * {n})"


class TwoTokenCodes:
    """Codes, turn and moves of a family with ``self.n`` nodes and ``self._jumps`` (mixed in before :class:`Game`)."""

    n: int
    _jumps: Sequence[list[list[tuple[str, int]]]]  # by player: every node's moves (label, node) in move order

    def primitive(self, state: State) -> str | None:
        raise NotImplementedError

    def to_move(self, state: State) -> int:
        return state.turn

    def moves(self, state: State) -> list[tuple[str, State]]:
        if self.primitive(state) is not None:
            return []
        if state.turn == MOUSE:
            return [(label, State(cell, state.cat, CAT)) for label, cell in self._jumps[MOUSE][state.mouse]]
        return [(label, State(state.mouse, cell, MOUSE)) for label, cell in self._jumps[CAT][state.cat]]

    def encode(self, state: State) -> int:
        return code_of(state.mouse, state.cat, state.turn, self.n)

    def decode(self, code: int) -> State:
        rest, turn = divmod(code, 2)
        mouse, cat = divmod(rest, self.n)
        return State(mouse, cat, turn)


def reach(moves: Sequence[Iterable[int]], start: int, stop: int | None = None) -> set[int]:
    """Nodes reachable from ``start`` along ``moves`` (node -> its targets), not leaving ``stop``."""
    seen, todo = {start}, [start]
    while todo:
        a = todo.pop()
        if a == stop:
            continue
        for b in moves[a]:
            if b not in seen:
                seen.add(b)
                todo.append(b)
    return seen
