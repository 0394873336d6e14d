"""Dōbutsu shōgi (animal shogi, Kitao and Fujita) on 3 columns by 4 rows; draws by repetition.

Pieces: lion L (one step any way), giraffe G (one step orthogonally),
elephant E (one step diagonally), chick C (one step forward; it becomes a
hen H on reaching the far rank), hen (one step orthogonally or diagonally
forward). A captured piece goes to the captor's hand unpromoted (a hen
becomes a chick) and may be dropped on any empty square instead of a move
(a chick dropped on the far rank stays a chick). ``--pieces`` keeps only
some kinds besides the lions (reduced variants).

The end of the game, as positions (docs/dobutsu.md): the player to move who
can capture the other lion has won (primitive win: positions after a lion
capture are not positions); the player to move whose own lion stands on the
far rank has won (a try that survived the reply); the player to move facing
the other lion on its own back rank, which it cannot capture, has lost.

Squares: columns a-c left to right and rows 1-4 from the first player's far
side (the first player starts on row 4). Position text: the rows 1 to 4
joined by ``/`` (first player upper case, second lower case, ``.`` empty),
the hands (``-`` or e.g. ``Cg``) and the player to move:
``gle/.c./.C./ELG - first``. Labels: ``b3b2`` (from, to), drops ``C*b2``.

The code: 4 bits per square (square ``3*row + column``,
kind 1-5 for L G E C H, plus 8 for the second player), 2 bits per hand count
(first player's G E C, then the second's) from bit 48, the player to move at bit 60.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..errors import InputError, PositionError, param
from ..values import LOSE, WIN
from .base import Capabilities, Estimate, Examples, Game, Param
from .dobutsu_board import CHARS, CHICK, HAND, HAND_KINDS, HEN, LION, SECOND, TURN, hand_kind, mirrored, rotated, square_name, steps, target

if TYPE_CHECKING:
    from .dobutsu_arrays import DobutsuArrays

START = "gle/.c./.C./ELG - first"
_TEXT = re.compile(r"^([.LGECHlgech]{3})/([.LGECHlgech]{3})/([.LGECHlgech]{3})/([.LGECHlgech]{3}) +(-|[GECgec]{1,6}) +(first|second)$")


class Dobutsu(Game):
    family = "dobutsu"
    summary = "Dōbutsu shōgi (animal shogi) on 3x4; draws by repetition"
    position_syntax = "rows 1-4 joined by /, hands, player to move (e.g. gle/.c./.C./ELG - first)"
    players = ("first", "second")
    symmetries = 4  # the identity, the left-right mirror, the rotation that swaps the players, both
    capabilities = Capabilities(vector_rules=True)
    params = (Param("pieces", str, "Kinds besides the lions each player has: any of G, E, C (reduced variants).", default="GEC"),)
    examples = Examples(
        options={"pieces": ""},
        positions=["l../.../.../..L - first", ".l./.../L../... - second", "l../.../..L/... - second"],
        bad_positions=[("gle/.c./.C./ELG first", "expected rows"), ("l../.../.../... - first", "one lion each")],
        command_line="--pieces G",
    )

    def __init__(self, pieces: str = "GEC") -> None:
        if not isinstance(pieces, str) or any(ch not in HAND_KINDS for ch in pieces.upper()):
            raise InputError(f"{param('pieces')} must be letters among G, E, C, got {pieces!r}")
        self.pieces = "".join(ch for ch in HAND_KINDS if ch in pieces.upper())
        board, rest = START.split(" ", 1)
        self._start = self.parse(re.sub(f"[^Ll./{self.pieces}{self.pieces.lower()}]", ".", board) + " " + rest)
        self._arrays: DobutsuArrays | None = None

    def parameters(self) -> dict[str, Any]:
        return {"pieces": self.pieces}

    def default_name(self) -> str:
        return "dobutsu" if self.pieces == "GEC" else f"dobutsu-{self.pieces or 'lions'}"

    def estimate(self) -> Estimate:
        """The full game: the counts of docs/dobutsu.md (without and with the symmetries); a variant: each piece besides the lions on one of 12 squares
        for either player (a chick also as a hen) or in either hand, at most 60 moves a position."""
        if self.pieces == "GEC":
            return Estimate(987_146_084, 3_754_299_070, classes=(246_803_167, 938_671_869))
        states = 1
        for kind in self.pieces:
            states *= (50 if kind == "C" else 26) ** 2
        return Estimate(2 * 132 * states, 60 * 2 * 132 * states, classes=(2 * 132 * states, 60 * 2 * 132 * states))

    def vector(self) -> DobutsuArrays:
        if self._arrays is None:
            from .dobutsu_arrays import DobutsuArrays

            self._arrays = DobutsuArrays(self)
        return self._arrays

    # --- rules on codes (the state is the code) ---------------------------------------
    def start(self) -> int:
        return self._start

    def to_move(self, code: int) -> int:
        return code >> TURN

    def primitive(self, code: int) -> str | None:
        board, player = [(code >> 4 * s) & 15 for s in range(12)], code >> TURN
        own = SECOND * player
        theirs = board.index(LION | (SECOND - own))
        for s, value in enumerate(board):
            if value and value & SECOND == own and any(target(s, dr, dc) == theirs for _, dr, dc in steps(value)):
                return WIN  # the other lion can be captured
        if board.index(LION | own) // 3 == 3 * player:
            return WIN  # a try that survived the reply
        if theirs // 3 == 3 - 3 * player:
            return LOSE  # a try that cannot be stopped
        return None

    def moves(self, code: int) -> list[tuple[str, int]]:
        if self.primitive(code) is not None:
            return []
        board, player = [(code >> 4 * s) & 15 for s in range(12)], code >> TURN
        own, flip, far = SECOND * player, code ^ (1 << TURN), 3 * player
        hand = HAND + 6 * player
        out = []
        for s, value in enumerate(board):
            if not value or value & SECOND != own:
                continue
            for _, dr, dc in steps(value):
                t = target(s, dr, dc)
                if t is None or (board[t] and board[t] & SECOND == own):
                    continue
                new = HEN | own if value & 7 == CHICK and t // 3 == far else value
                child = flip - (value << 4 * s) + ((new - board[t]) << 4 * t)
                if board[t]:
                    child += 1 << (hand + 2 * hand_kind(board[t] & 7))
                out.append((square_name(s) + square_name(t), child))
        for k, letter in enumerate(HAND_KINDS):
            if (code >> (hand + 2 * k)) & 3:
                piece = (k + 2) | own
                out += [(f"{letter}*{square_name(t)}", flip - (1 << (hand + 2 * k)) + (piece << 4 * t)) for t in range(12) if not board[t]]
        return out

    def canonical(self, code: int) -> int:
        turned = rotated(code)
        return min(code, mirrored(code), turned, mirrored(turned))

    # --- codecs ------------------------------------------------------------------------------
    def encode(self, code: int) -> int:
        return code

    def decode(self, code: int) -> int:
        return code

    def format(self, code: int) -> str:
        chars = [CHARS[v & 7].lower() if v & SECOND else CHARS[v & 7] for v in ((code >> 4 * s) & 15 for s in range(12))]
        hands = "".join(
            (letter if p == 0 else letter.lower()) * ((code >> (HAND + 6 * p + 2 * k)) & 3) for p in (0, 1) for k, letter in enumerate(HAND_KINDS)
        )
        rows = "/".join("".join(chars[3 * r : 3 * r + 3]) for r in range(4))
        return f"{rows} {hands or '-'} {self.players[code >> TURN]}"

    def parse(self, text: str) -> int:
        match = _TEXT.match(text.strip()) if isinstance(text, str) else None
        if match is None:
            shown = text if len(text) <= 60 else text[:57] + "..."
            raise PositionError(f"bad dobutsu position {shown!r}: expected {self.position_syntax}")
        code = (match.group(6) == "second") << TURN
        squares = "".join(match.group(r) for r in range(1, 5))
        for s, ch in enumerate(squares):
            if ch != ".":
                code |= (CHARS.index(ch.upper()) | (0 if ch.isupper() else SECOND)) << 4 * s
        hands = "" if match.group(5) == "-" else match.group(5)
        for ch in hands:
            slot = HAND + (0 if ch.isupper() else 6) + 2 * HAND_KINDS.index(ch.upper())
            code += 1 << slot
        counts = (squares + hands).upper().replace("H", "C")
        if counts.count("L") != 2 or "L" not in squares or "l" not in squares:
            raise PositionError(f"bad dobutsu position {text!r}: the board needs one lion each (L and l)")
        for kind in HAND_KINDS:
            want = 2 if kind in self.pieces else 0
            if counts.count(kind) != want:
                raise PositionError(f"bad dobutsu position {text!r}: this game has {want} pieces of kind {kind} (hen counted as C), not {counts.count(kind)}")
        return code

    def describe(self, code: int) -> str:
        text = self.format(code)
        rows, hands, player = text.split(" ")
        lines = [f"{r + 1} " + " ".join(row) for r, row in enumerate(rows.split("/"))]
        return "\n".join(["  a b c", *lines, f"hands: {hands}", f"to move: {player}"])
