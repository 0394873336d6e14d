"""The take-away game, as a gamedb plugin.

``matches`` matches lie on the table; Alice and Bob alternate, Alice first,
each removing 1 to ``max_take`` matches; whoever takes the last match wins
(so the player to move with no matches left has lost).

Position text: ``matches=N,turn=alice|bob``. Move labels: how many matches
are taken (``1``, ``2``, ...).
"""

from __future__ import annotations

import re

from gamedb.errors import InputError, PositionError
from gamedb.games.base import Game, Param

_TEXT = re.compile(r"^\s*matches\s*=\s*(\d+)\s*,\s*turn\s*=\s*(alice|bob)\s*$", re.IGNORECASE)


class TakeAway(Game):
    family = "takeaway"
    summary = "Take-away: remove 1..K matches, whoever takes the last match wins"
    position_syntax = "matches=N,turn=alice|bob (e.g. matches=21,turn=alice)"
    params = (
        Param("matches", int, "Matches on the table at the start.", default=21),
        Param("max_take", int, "Most matches one move may take.", default=3),
    )
    players = ("alice", "bob")

    def __init__(self, matches: int = 21, max_take: int = 3):
        if not 0 <= int(matches) <= 1_000_000:
            raise InputError(f"--matches must be between 0 and 1000000, got {matches}")
        if not 1 <= int(max_take) <= 1000:
            raise InputError(f"--max-take must be between 1 and 1000, got {max_take}")
        self.matches, self.max_take = int(matches), int(max_take)

    def parameters(self) -> dict:
        return {"matches": self.matches, "max_take": self.max_take}

    # a state is (matches left, player to move)
    def start(self):
        return (self.matches, 0)

    def moves(self, state):
        left, turn = state
        return [(str(k), (left - k, 1 - turn)) for k in range(1, min(self.max_take, left) + 1)]

    def primitive(self, state):
        return "lose" if state[0] == 0 else None

    def to_move(self, state) -> int:
        return state[1]

    def encode(self, state) -> int:
        return state[0] * 2 + state[1]

    def decode(self, code: int):
        return divmod(code, 2)

    def format(self, state) -> str:
        return f"matches={state[0]},turn={self.players[state[1]]}"

    def parse(self, text: str):
        match = _TEXT.match(text)
        if not match:
            raise PositionError(f"bad take-away position {text!r}: expected {self.position_syntax}")
        left = int(match.group(1))
        if left > self.matches:
            raise PositionError(f"bad take-away position {text!r}: only {self.matches} matches in this game")
        return (left, self.players.index(match.group(2).lower()))

    def describe(self, state) -> str:
        return "|" * state[0] if state[0] <= 60 else f"{state[0]} matches"
