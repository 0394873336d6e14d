"""The take-away game, as a gamedb plugin.

``matches`` matches lie on the table; Alice and Bob alternate, Alice first,
each removing 1 to ``max_take`` matches; whoever takes the last match wins
(so the player to move with no matches left has lost).

Position text: ``matches=N,turn=alice|bob``. Move labels: how many matches
are taken (``1``, ``2``, ...).

Tiers (for the tier solver): the matches taken so far; every move goes to a
later tier. Array rules (:class:`TakeAwayArrays`): the same rules on numpy
arrays of codes, so a whole tier is expanded at once.
"""

from __future__ import annotations

import re

from gamedb.errors import InputError, PositionError
from gamedb.games.base import Capabilities, Examples, Game, Param
from gamedb.games.tier_rules import TierArrayRules
from gamedb.games.vector import LOSE, UNDECIDED, Expansion, ranks_within

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
    #: small options and positions gamedb's generic tests (and yours) run the family on
    examples = Examples(
        options={"matches": 12, "max_take": 3},
        positions=["matches=5,turn=bob"],
        bad_positions=[("matches=x", "bad take-away position")],
    )
    #: tiers (the matches taken) and array rules: solved by the tier solver
    capabilities = Capabilities(tiers=True, array_rules=True)

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

    # --- for the tier solver (optional) ----------------------------------------------
    def tier(self, state) -> int:
        return self.matches - state[0]

    def array_rules(self):
        return TakeAwayArrays(self)

    def describe(self, state) -> str:
        return "|" * state[0] if state[0] <= 60 else f"{state[0]} matches"


class TakeAwayArrays(TierArrayRules):
    """The take-away rules on numpy arrays of codes (``matches * 2 + turn``); they must agree with the class above."""

    def __init__(self, game: TakeAway):
        self.game = game
        self.code_limit = (game.matches + 1) * 2

    def expand(self, codes):
        import numpy as np

        codes = np.asarray(codes, dtype=np.int64)
        left, turn = codes >> 1, codes & 1
        primitive = np.where(left == 0, LOSE, UNDECIDED).astype(np.int8)
        degree = np.minimum(left, self.game.max_take)
        parent = np.repeat(np.arange(len(codes)), degree)
        taken = ranks_within(degree) + 1  # moves in order: take 1, 2, ...
        children = (left[parent] - taken) * 2 + (1 - turn[parent])
        return Expansion(player=turn.astype(np.int8), primitive=primitive, degree=degree, children=children)

    def labels(self, parents, children):
        return [str(p - c) for p, c in zip((parents >> 1).tolist(), (children >> 1).tolist(), strict=True)]

    def texts(self, codes):
        return [self.game.format(self.game.decode(code)) for code in codes.tolist()]

    def tiers(self, codes):
        return self.game.matches - (codes >> 1)
