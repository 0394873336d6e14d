"""Connect-Four on small boards: X first, stones fall to the lowest empty cell, a line of ``--connect`` wins.

Position text: the moves as column numbers (``4453``; ``-`` the start; commas past 9 columns), a board written as the
smallest legal sequence reaching it. Code: a bitboard, column ``c`` at bits ``c*(H+1)..`` holding ``1 << h`` above
its ``h`` stones plus a bit per X stone (so ``W*(H+1) <= 63``)."""

from __future__ import annotations

import re
from math import comb
from typing import TYPE_CHECKING, Any

from ..errors import InputError, PositionError, param
from ..values import LOSE, TIE
from .base import Capabilities, Estimate, Examples, Game, Param, bounded_int, require_int, short_number

#: (X stones, every stone) as bitboards, one bit per cell
Board = tuple[int, int]

if TYPE_CHECKING:
    from .connect4_arrays import Connect4Arrays

MAX_BITS = 63  # codes are signed 64-bit integers
#: the most boards of one stone count whose sequences are remembered (about 150 bytes each)
_REMEMBER = 2_000_000
#: the most texts :meth:`Connect4.format` remembers (a stream of answers formats the same children again: 52 % of them)
_TEXTS = 200_000
_SEPARATORS = re.compile(r"[,\s]+")


class Connect4(Game):
    examples = Examples(
        options={"width": 3, "height": 3, "connect": 3},
        positions=["2213"],
        bad_positions=[("4", "there is no column 4"), ("1111", "column 1 is full"), ("a", "is not a column number")],
    )
    capabilities = Capabilities(tiers=True, array_rules=True)
    family = "connect4"
    summary = "Connect-Four on a small board (gravity; X moves first; a line of --connect wins)"
    position_syntax = (
        "the moves from the empty board as column numbers, e.g. 4453; - is the start; "
        "any move order that reaches the board is accepted; boards wider than 9 separate moves with commas (10,3,12)"
    )
    params = (
        Param("width", int, "Number of columns.", default=4),
        Param("height", int, "Number of rows.", default=4),
        Param("connect", int, "Stones in a row needed to win.", default=4),
    )
    players = ("X", "O")
    symmetries = 2  # the left-right mirror

    def __init__(self, width: int = 4, height: int = 4, connect: int = 4):
        self.width = w = require_int("width", width, 1)
        self.height = h = require_int("height", height, 1)
        self.connect = k = require_int("connect", connect, 1)
        if w * (h + 1) > MAX_BITS:
            raise InputError(f"a {w}x{h} board is too large: positions are stored as 63-bit integers, "
                             f"which needs width x (height + 1) <= {MAX_BITS} (here {w * (h + 1)})")
        if k > max(w, h):
            raise InputError(f"{param('connect', k)} cannot fit on a {w}x{h} board (at most {max(w, h)})")
        self._stride = s = h + 1
        self._bottom = [1 << (c * s) for c in range(w)]
        self._top = [1 << (c * s + h - 1) for c in range(w)]
        self._column = [((1 << h) - 1) << (c * s) for c in range(w)]
        self._bottom_all = sum(self._bottom)
        self._full = sum(self._column)
        self._shifts = [tuple(d * i for i in range(1, k)) for d in (1, s, s + 1, s - 1)]
        self._labels = [str(c + 1) for c in range(w)]
        self._sep = "" if w <= 9 else ","
        self._layers: dict[int, dict[int, tuple[int, ...]]] = {}
        self._texts: dict[Board, str] = {}

    def parameters(self) -> dict[str, Any]:
        return {"width": self.width, "height": self.height, "connect": self.connect}

    def default_name(self) -> str:
        name = f"connect4-{self.width}x{self.height}"
        return name if self.connect == 4 else f"{name}-k{self.connect}"

    def estimate(self) -> Estimate:
        """Boards of column heights with C(k, ceil(k/2)) colourings of ``k`` stones (at most ``width**k``),
        ignoring that a line ends the game, and a move per open column of each."""
        w, h = self.width, self.height
        ways = {(0, 0): 1}  # (stones, full columns) -> number of height vectors
        for _ in range(w):
            grown: dict[tuple[int, int], int] = {}
            for (k, f), n in ways.items():
                for stones in range(h + 1):
                    key = (k + stones, f + (stones == h))
                    grown[key] = grown.get(key, 0) + n
            ways = grown
        boards: dict[int, int] = {}
        exits: dict[int, int] = {}
        for (k, f), n in ways.items():
            colourings = n * comb(k, (k + 1) // 2)
            boards[k] = boards.get(k, 0) + colourings
            exits[k] = exits.get(k, 0) + colourings * (w - f)
        tiers = {k: min(count, w**k) for k, count in sorted(boards.items())}  # the tier is the stones on the board
        moves = sum(min(count, w ** (k + 1)) for k, count in exits.items())
        return Estimate(sum(tiers.values()), moves, tiers)

    def start(self) -> Board:
        return (0, 0)

    def to_move(self, state: Board) -> int:
        return state[1].bit_count() & 1

    def primitive(self, state: Board) -> str | None:
        if self._has_line(_last_mover(*state)):
            return LOSE
        return TIE if state[1] == self._full else None

    def moves(self, state: Board) -> list[tuple[str, Board]]:
        if self.primitive(state) is not None:
            return []
        mask = state[1]
        return [(self._labels[c], self._drop(state, c)) for c in range(self.width) if not mask & self._top[c]]

    def _drop(self, state: Board, c: int) -> Board:
        """The board after the player to move drops a stone in column ``c`` (0-based; not full)."""
        x, mask = state
        cell = (mask + self._bottom[c]) & self._column[c]
        return (x if mask.bit_count() & 1 else x | cell, mask | cell)

    def tier(self, state: Board) -> int:
        """Stones on the board (every move adds one)."""
        return state[1].bit_count()

    def array_rules(self) -> Connect4Arrays:
        from .connect4_arrays import Connect4Arrays  # numpy: imported only to solve
        return Connect4Arrays(self)

    def encode(self, state: Board) -> int:
        x, mask = state
        return x + mask + self._bottom_all

    def canonical(self, code: int) -> int:
        s, w, chunk = self._stride, self.width, (1 << self._stride) - 1
        mirror = sum(((code >> (c * s)) & chunk) << ((w - 1 - c) * s) for c in range(w))
        return min(code, mirror)

    def decode(self, code: int) -> Board:
        x = mask = 0
        s = self._stride
        for c in range(self.width):
            chunk = (code >> (c * s)) & ((1 << s) - 1)
            h = chunk.bit_length() - 1
            mask |= ((1 << h) - 1) << (c * s)
            x |= (chunk ^ (1 << h)) << (c * s)
        return (x, mask)

    def format(self, state: Board) -> str:
        text = self._texts.get(state)
        if text is None:
            columns = self._sequence(state)
            if columns is None:
                raise PositionError(f"no legal sequence of moves reaches this {self.width}x{self.height} board")
            text = self._sep.join(self._labels[c] for c in columns) or "-"
            if len(self._texts) >= _TEXTS:  # replaced, never cleared in place: threads may format at once
                self._texts = {}
            self._texts[state] = text
        return text

    def parse(self, text: str) -> Board:
        tokens = self._tokens(text)
        quick = self._dropped(tokens)
        if quick is not None:
            return quick
        state = self.start()
        for i, token in enumerate(tokens, 1):
            column = bounded_int(token, self.width) if token.isascii() and token.isdigit() else None
            if not column:  # not a column number, or no such column
                raise PositionError(self._bad_move(text, i, token, column))
            over = self.primitive(state)
            if over is not None:
                where = f"bad connect4 position {text!r}: move {i} (column {column})"
                if over == LOSE:
                    winner = self.players[1 - self.to_move(state)]
                    raise PositionError(f"{where}: the game is over, {winner} made a line of {self.connect} at move {i - 1}")
                raise PositionError(f"{where}: the game is over, the board is full")
            if state[1] & self._top[column - 1]:
                raise PositionError(self._bad_move(text, i, token, column))
            state = self._drop(state, column - 1)
        return state

    def _dropped(self, tokens: list[str]) -> Board | None:
        """The board ``tokens`` reach when every move is a column with room and no line is on the final board (then
        no move came after the game was over: stones stay), else None (:meth:`parse` then finds the error, or the line)."""
        x = mask = 0
        bottom, column, top, width = self._bottom, self._column, self._top, self.width
        for i, token in enumerate(tokens):
            c = int(token) - 1 if token.isascii() and token.isdigit() and len(token) < 5 else -1
            if not 0 <= c < width or mask & top[c]:
                return None
            cell = (mask + bottom[c]) & column[c]
            mask |= cell
            if not i & 1:
                x |= cell
        return None if self._has_line(x) or self._has_line(mask ^ x) else (x, mask)

    def _bad_move(self, text: str, i: int, token: str, column: int | None) -> str:
        """Why move ``i`` (``token``) of ``text`` cannot be played."""
        where = f"bad connect4 position {text!r}: move {i}"
        if not (token.isascii() and token.isdigit()):
            return f"{where}: {token!r} is not a column number (1-{self.width})"
        if not column:  # above the width, or 0
            return f"{where}: there is no column {short_number(token.lstrip('0') or '0')} (columns are 1-{self.width})"
        return f"{where} (column {column}): column {column} is full"

    def describe(self, state: Board) -> str:
        x, mask = state
        bits = [[1 << (c * self._stride + r) for c in range(self.width)] for r in reversed(range(self.height))]
        rows = [" ".join("X" if x & bit else "O" if mask & bit else "." for bit in row) for row in bits]
        return "\n".join(rows + [" ".join(self._labels)] * (self.width <= 9))

    def _has_line(self, stones: int) -> bool:
        for shifts in self._shifts:
            m = stones
            for shift in shifts:
                m &= stones >> shift
                if not m:
                    break
            if m:
                return True
        return False

    def _tokens(self, text: str) -> list[str]:
        t = text.strip()
        if t in ("", "-"):
            return []
        if _SEPARATORS.search(t):
            return [tok for tok in _SEPARATORS.split(t) if tok]
        return list(t) if self.width <= 9 else [t]

    def _sequence(self, state: Board) -> list[int] | None:
        """The smallest legal move sequence (0-based columns) reaching ``state``, or None.

        It is the smallest of the legal parents' sequences plus one column; the last two stone counts' sequences
        are remembered (a breadth-first enumeration then finds almost every board's from its parents'), else searched.
        """
        x, mask = state
        stones = mask.bit_count()
        seq = self._from_parents(x, mask, stones)
        if seq is None:
            found = self._search(state)
            if found is None:
                return None
            seq = tuple(found)
        # threads may format boards at once (a shared Database): the memory is replaced, never iterated,
        # and a sequence found by two threads is the same sequence
        layers = self._layers
        layer = layers.get(stones)
        if layer is None:
            layer = {}
            below = layers.get(stones - 1)
            self._layers = {stones: layer} if below is None else {stones - 1: below, stones: layer}
        if len(layer) < _REMEMBER:
            layer[self.encode(state)] = seq
        return list(seq)

    def _from_parents(self, x: int, mask: int, stones: int) -> tuple[int, ...] | None:
        """The smallest sequence from the remembered parents'; None if a legal parent is not remembered."""
        if stones == 0:
            return ()
        parents = self._layers.get(stones - 1)
        if parents is None:
            return None
        last = _last_mover(x, mask)
        if self._has_line(mask ^ last):  # the other player's line would have ended the game before the last move
            return None
        best = None
        for c in range(self.width):
            column = mask & self._column[c]
            if not column:
                continue
            top = 1 << (column.bit_length() - 1)
            if not top & last or self._has_line(last ^ top):  # not the last mover's stone, or that parent was over
                continue
            seq = parents.get(self.encode((x & ~top, mask ^ top)))
            if seq is None:
                return None
            if best is None or seq + (c,) < best:
                best = seq + (c,)
        return best

    def _search(self, state: Board) -> list[int] | None:
        """The smallest legal sequence reaching ``state``, depth first (dead ends remembered by mask), or None."""
        x, target = state
        n = target.bit_count()
        check = self._has_line(x) or self._has_line(target ^ x)  # then a line may only appear with the last stone
        bottom, column, width = self._bottom, self._column, self.width
        failed: set[int] = set()
        seq: list[int] = []

        def extend(mask: int, k: int) -> bool:
            if k == n:
                return True
            if mask in failed:
                return False
            x_turn = not k & 1
            for c in range(width):
                cell = (mask + bottom[c]) & column[c]
                if not cell & target or bool(cell & x) != x_turn:
                    continue
                grown = mask | cell
                if check and k + 1 < n and self._has_line((x if x_turn else target ^ x) & grown):
                    continue
                seq.append(c)
                if extend(grown, k + 1):
                    return True
                seq.pop()
            failed.add(mask)
            return False

        return seq if extend(0, 0) else None


def _last_mover(x: int, mask: int) -> int:
    """The stones of the player who moved last."""
    return x if mask.bit_count() & 1 else mask ^ x

