"""Tic-tac-toe: X first, three in a row wins, a full board is a tie.

Position text: nine cells row by row (``X...O....``); move labels: the cell number 1-9.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import PositionError
from ..values import LOSE, TIE
from .base import Capabilities, Examples, Game

if TYPE_CHECKING:
    from .tictactoe_arrays import TicTacToeArrays

Board = tuple[int, ...]  # nine marks, row by row

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
EMPTY, X, O = 0, 1, 2  # noqa: E741 (O is the mark)
_CHARS = ".XO"
_POWERS = tuple(3**i for i in range(9))
_CELL = {ch: i for i, ch in enumerate(_CHARS)}
_LABELS = tuple(str(i + 1) for i in range(9))


def _turned(k: int, r: int, c: int) -> int:
    """The cell that cell (r, c) comes from under symmetry ``k`` (0-3: turns by a quarter; 4-7: mirrored, then turned)."""
    if k >= 4:
        c = 2 - c
    for _ in range(k % 4):
        r, c = c, 2 - r
    return 3 * r + c


#: the board's 8 symmetries (rotations and reflections) as cell permutations: cell ``i`` of the image is cell ``perm[i]``
SYMMETRIES = tuple(tuple(_turned(k, r, c) for r in range(3) for c in range(3)) for k in range(8))


def _has_line(board: Board, mark: int) -> bool:
    """Whether ``mark`` has three in a row (:data:`LINES` written out: this runs for every position a query reads)."""
    a, b, c, d, e, f, g, h, i = board
    return (
        (a == mark and (b == c == mark or d == g == mark or e == i == mark))
        or (e == mark and (d == f == mark or b == h == mark or c == g == mark))
        or (i == mark and (c == f == mark or g == h == mark))
    )


class TicTacToe(Game):
    capabilities = Capabilities(tiers=True, array_rules=True)
    lines = LINES  # for the array rules
    symmetry_perms = SYMMETRIES
    chars = _CHARS
    family = "tictactoe"
    summary = "Tic-tac-toe on a 3x3 board"
    position_syntax = "nine characters of X, O and . row by row (e.g. X...O....)"
    examples = Examples(options={}, positions=["X...O....", "XX.OO...."], bad_positions=[("XX.......", "X moves first"), ("XXX", "expected nine characters")])
    players = ("X", "O")
    symmetries = len(SYMMETRIES)

    def start(self) -> Board:
        return (EMPTY,) * 9

    def to_move(self, board: Board) -> int:
        return 0 if board.count(X) == board.count(O) else 1

    def primitive(self, board: Board) -> str | None:
        last = O if board.count(X) == board.count(O) else X  # the player who just moved
        if _has_line(board, last):
            return LOSE
        if EMPTY not in board:
            return TIE
        return None

    def moves(self, board: Board) -> list[tuple[str, Board]]:
        mover = self._mover(board)
        if not mover:
            return []
        return [(_LABELS[i], board[:i] + (mover,) + board[i + 1 :]) for i in range(9) if board[i] == EMPTY]

    def move_codes(self, board: Board) -> list[tuple[str, int]]:
        """:meth:`moves` with the children's codes: the mover's mark added to the code, cell by cell."""
        mover = self._mover(board)
        if not mover:
            return []
        code = self.encode(board)
        return [(_LABELS[i], code + mover * _POWERS[i]) for i in range(9) if board[i] == EMPTY]

    def _mover(self, board: Board) -> int:
        """The mark of the player to move, or EMPTY (0) when the game is over."""
        mover, last = (X, O) if board.count(X) == board.count(O) else (O, X)
        return EMPTY if EMPTY not in board or _has_line(board, last) else mover

    def tier(self, board: Board) -> int:
        """Marks on the board (every move adds one)."""
        return 9 - board.count(EMPTY)

    def array_rules(self) -> TicTacToeArrays:
        from .tictactoe_arrays import TicTacToeArrays  # numpy: imported only to solve
        return TicTacToeArrays(self)

    def encode(self, board: Board) -> int:
        c0, c1, c2, c3, c4, c5, c6, c7, c8 = board  # base 3, cell 0 the lowest digit; written out: a query encodes each position twice
        return c0 + 3 * (c1 + 3 * (c2 + 3 * (c3 + 3 * (c4 + 3 * (c5 + 3 * (c6 + 3 * (c7 + 3 * c8)))))))

    def decode(self, code: int) -> Board:
        return tuple(code // power % 3 for power in _POWERS)

    def canonical(self, code: int) -> int:
        board: Board = self.decode(code)
        return int(min(sum(board[p] * power for p, power in zip(perm, _POWERS, strict=True)) for perm in SYMMETRIES))

    def format(self, board: Board) -> str:
        return "".join(_CHARS[c] for c in board)

    def parse(self, text: str) -> Board:
        t = text.strip().upper().replace("-", ".").replace("_", ".")
        try:
            board = tuple(map(_CELL.__getitem__, t)) if len(t) == 9 else None
        except KeyError:
            board = None
        if board is None:
            raise PositionError(f"bad tic-tac-toe position {text!r}: expected {self.position_syntax}")
        xs, os_ = board.count(X), board.count(O)
        if not (xs == os_ or xs == os_ + 1):
            raise PositionError(f"bad tic-tac-toe position {text!r}: X moves first, so X has as many marks as O or one more")
        x_line, o_line = _has_line(board, X), _has_line(board, O)
        if x_line and o_line:
            raise PositionError(f"bad tic-tac-toe position {text!r}: both players have three in a row")
        mover = X if xs == os_ else O
        if x_line if mover == X else o_line:
            name, other = ("X", "O") if mover == X else ("O", "X")
            raise PositionError(f"bad tic-tac-toe position {text!r}: {name} is to move but already has three in a row, "
                                f"so the game ended before {other}'s last mark")
        return board

    def describe(self, board: Board) -> str:
        rows = ["".join(_CHARS[c] for c in board[r * 3 : r * 3 + 3]) for r in range(3)]
        return "\n".join(" ".join(row) for row in rows)
