"""Independent oracle for Connect-Four on small boards.

Written from scratch for the tests; it imports nothing from ``gamedb``.

A board is a tuple of ``width`` strings, one per column, bottom to top, of
``"X"`` and ``"O"``. X moves first. A line of ``connect`` stones of the
player who just moved ends the game (``lose`` for the player to move, the
Gamesman convention); a full board without a line is a ``tie``.

Values follow the rules written in the design: win = 1 + min remoteness over
losing children, lose = 1 + max over all children, tie = 1 + min over tie
children; the best move is the lowest column among the moves that achieve
that remoteness.
"""

from __future__ import annotations

import sys
from functools import cache

WIN, LOSE, TIE = "win", "lose", "tie"


class Connect4Oracle:
    def __init__(self, width: int, height: int, connect: int):
        self.width, self.height, self.connect = width, height, connect
        # every line of `connect` cells on the board, as (column, row) pairs
        self.lines = []
        for col in range(width):
            for row in range(height):
                for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    cells = [(col + i * dc, row + i * dr) for i in range(connect)]
                    if all(0 <= c < width and 0 <= r < height for c, r in cells):
                        self.lines.append(cells)
        self._over: dict = {}

    # --- rules -------------------------------------------------------------
    def empty(self) -> tuple[str, ...]:
        return ("",) * self.width

    def mover(self, board) -> str:
        return "X" if sum(len(col) for col in board) % 2 == 0 else "O"

    def has_line(self, board, stone: str) -> bool:
        return any(all(r < len(board[c]) and board[c][r] == stone for c, r in line) for line in self.lines)

    def over(self, board) -> str | None:
        if board not in self._over:
            just_moved = "O" if self.mover(board) == "X" else "X"
            if self.has_line(board, just_moved):
                self._over[board] = LOSE
            elif all(len(col) == self.height for col in board):
                self._over[board] = TIE
            else:
                self._over[board] = None
        return self._over[board]

    def children(self, board) -> list[tuple[int, tuple[str, ...]]]:
        """(1-based column, child board) for every legal move, lowest column first."""
        if self.over(board) is not None:
            return []
        stone = self.mover(board)
        return [
            (c + 1, board[:c] + (board[c] + stone,) + board[c + 1 :])
            for c in range(self.width)
            if len(board[c]) < self.height
        ]

    def replay(self, text: str) -> tuple[str, ...]:
        """The board after a sequence like ``4453`` or ``10,3,12``; ``-`` is the empty board.

        Raises ValueError on an illegal sequence (full column, play after the end).
        """
        board = self.empty()
        if text == "-":
            return board
        tokens = text.split(",") if "," in text else list(text)
        for token in tokens:
            if self.over(board) is not None:
                raise ValueError(f"{text}: move after the game is over")
            col = int(token) - 1
            if not 0 <= col < self.width or len(board[col]) >= self.height:
                raise ValueError(f"{text}: illegal move {token}")
            board = board[:col] + (board[col] + self.mover(board),) + board[col + 1 :]
        return board

    # --- search --------------------------------------------------------------
    def reachable(self) -> set:
        seen = {self.empty()}
        todo = [self.empty()]
        while todo:
            for _, child in self.children(todo.pop()):
                if child not in seen:
                    seen.add(child)
                    todo.append(child)
        return seen

    def solver(self):
        """A memoised function board -> (result, remoteness, best column or None)."""
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

        @cache
        def value(board):
            end = self.over(board)
            if end is not None:
                return end, 0, None
            kids = [(col, value(child)) for col, child in self.children(board)]
            losing = [(rem, col) for col, (res, rem, _) in kids if res == LOSE]
            if losing:
                rem, col = min(losing)
                return WIN, rem + 1, col
            if all(res == WIN for _, (res, _, _) in kids):
                rem = max(rem for _, (_, rem, _) in kids)
                col = min(c for c, (_, r, _) in kids if r == rem)
                return LOSE, rem + 1, col
            rem, col = min((rem, col) for col, (res, rem, _) in kids if res == TIE)
            return TIE, rem + 1, col

        return value

    def first_sequences(self) -> dict:
        """board -> its lexicographically smallest legal move sequence (list of 1-based columns).

        Walks every legal move sequence in lexicographic order (depth first,
        lowest column first), so the first sequence that reaches a board is
        the smallest; only for boards small enough to enumerate every game.
        """
        first: dict = {}
        seq: list[int] = []

        def walk(board):
            if board not in first:
                first[board] = list(seq)
            for col, child in self.children(board):
                seq.append(col)
                walk(child)
                seq.pop()

        walk(self.empty())
        return first
