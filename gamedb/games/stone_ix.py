"""Stone game IX (LeetCode 2029): Alice first, each removes a stone; who makes the removed sum divisible by 3 loses,
and Bob wins when the stones run out. Position text: ``c0=2,c1=1,c2=0,sum=1,turn=bob`` (``,over`` after a losing
removal) or a stones list ``5,1,2,4,3``; ``--max N`` solves every start with up to N stones of each residue mod 3."""

import re
from itertools import product
from typing import Any, NamedTuple

from ..errors import LARGER_MAX, BeyondSolvedRange, PositionError, param
from ..values import LOSE, WIN
from .base import Capabilities, Examples, Game, Param, bounded_int, require_int, short_number

ALICE, BOB = 0, 1
_NAMES = ("alice", "bob")
_TEXT = re.compile(
    r"^\s*c0\s*=\s*(\d+)\s*,\s*c1\s*=\s*(\d+)\s*,\s*c2\s*=\s*(\d+)\s*,\s*sum\s*=\s*(\d+)\s*,"
    r"\s*turn\s*=\s*(alice|bob)\s*(,\s*over\s*)?$",
    re.IGNORECASE | re.ASCII,  # ASCII digits only: int() would also read other scripts' digits
)
_STONES = re.compile(r"^\s*\[?\s*(-?\d+(\s*[,\s]\s*-?\d+)*)?\s*,?\s*\]?\s*$", re.ASCII)
_STONE = re.compile(r"-?\d+", re.ASCII)


def _shorten(text: str, limit: int = 200) -> str:
    """Position text as it fits in a one-line message."""
    return text if len(text) <= limit else f"{text[:limit - 20]}... ({len(text)} characters)"


class State(NamedTuple):
    counts: tuple[int, int, int]  # stones left with value = 0, 1, 2 (mod 3)
    removed: int  # sum of the removed stones mod 3
    turn: int  # ALICE or BOB
    over: bool = False  # the last removal made the removed sum divisible by 3


class StoneIX(Game):
    examples = Examples(options={"max": 3}, positions=["5,1,2,4,3"], bad_positions=[("[]", "no stones"), ("1,-2,3", "not negative")])
    capabilities = Capabilities(tiers=True)
    family = "stone-ix"
    summary = "Stone game IX (LeetCode 2029): Alice and Bob remove stones; a sum divisible by 3 loses"
    position_syntax = "c0=2,c1=1,c2=0,sum=1,turn=bob (add ,over after a losing removal), or a stones list 5,1,2,4,3"
    params = (Param("max", int, "Most stones of each residue (mod 3): every start with up to MAX of each is solved.", default=20),)
    players = ("Alice", "Bob")

    def __init__(self, max: int = 20) -> None:
        self.max_count = require_int("max", max, 0, 1000)
        self.radix = self.max_count + 1

    def parameters(self) -> dict[str, Any]:
        return {"max": self.max_count}

    def start(self) -> State:
        return State((self.max_count,) * 3, 0, ALICE)

    def starts(self) -> list[State]:
        return [State((a, b, c), 0, ALICE) for a, b, c in product(range(self.radix), repeat=3)]

    def to_move(self, state: State) -> int:
        return state.turn

    def primitive(self, state: State) -> str | None:
        if state.over:  # the opponent's removal made the sum divisible by 3
            return WIN
        if not any(state.counts):  # every stone gone without that: Bob wins
            return WIN if state.turn == BOB else LOSE
        return None

    def moves(self, state: State) -> list[tuple[str, State]]:
        if self.primitive(state) is not None:
            return []
        result = []
        for residue in range(3):
            if state.counts[residue]:
                c0, c1, c2 = state.counts
                counts = (c0 - (residue == 0), c1 - (residue == 1), c2 - (residue == 2))
                removed = (state.removed + residue) % 3
                result.append((str(residue), State(counts, removed, 1 - state.turn, removed == 0)))
        return result

    def tier(self, state: State) -> int:
        """Stones taken so far (every move takes one)."""
        return 3 * self.max_count - sum(state.counts)

    def encode(self, state: State) -> int:
        c0, c1, c2 = state.counts
        return (((c0 * self.radix + c1) * self.radix + c2) * 4 + (3 if state.over else state.removed)) * 2 + state.turn

    def decode(self, code: int) -> State:
        rest, turn = divmod(code, 2)
        rest, removed = divmod(rest, 4)
        rest, c2 = divmod(rest, self.radix)
        c0, c1 = divmod(rest, self.radix)
        if removed == 3:
            return State((c0, c1, c2), 0, turn, True)
        return State((c0, c1, c2), removed, turn)

    def format(self, state: State) -> str:
        c0, c1, c2 = state.counts
        text = f"c0={c0},c1={c1},c2={c2},sum={state.removed},turn={_NAMES[state.turn]}"
        return text + ",over" if state.over else text

    def parse(self, text: str) -> State:
        match = _TEXT.match(text)
        if match:
            # a count with more digits than --max is refused here, a smaller one above --max below
            widest = 10 ** len(str(self.max_count)) - 1
            counts: list[int] = []
            for residue in range(3):
                count = bounded_int(match.group(residue + 1), widest)
                if count is None:
                    raise BeyondSolvedRange(f"stone-ix position {_shorten(text)!r} has {short_number(match.group(residue + 1).lstrip('0'))} "
                                            f"stones of residue {residue}; "
                                            f"this game was solved with {param('max', self.max_count)} ({LARGER_MAX})")
                counts.append(count)
            removed = bounded_int(match.group(4), 2)
            turn, over = _NAMES.index(match.group(5).lower()), bool(match.group(6))
            if removed is None:
                raise PositionError(f"bad stone-ix position {_shorten(text)!r}: sum is the removed sum mod 3 (0, 1 or 2)")
            if over and removed:
                raise PositionError(f"bad stone-ix position {_shorten(text)!r}: ',over' follows a removal that made the sum 0 (sum=0)")
            if removed == 0 and not over and turn == BOB:
                raise PositionError(f"bad stone-ix position {_shorten(text)!r}: with sum=0 nothing has been removed yet, so Alice moves "
                                    "(after a losing removal add ',over')")
            state = State((counts[0], counts[1], counts[2]), removed, turn, over)
        elif _STONES.match(text) and "=" not in text:
            values = _STONE.findall(text)  # kept as text: only the sign and the residue mod 3 matter
            if not values:
                raise PositionError(f"bad stones list {_shorten(text)!r}: no stones; give at least one stone value (e.g. 5,1,2,4,3), "
                                    "or a full state such as c0=0,c1=0,c2=0,sum=0,turn=alice")
            if any(v.startswith("-") and v.strip("-0") for v in values):
                raise PositionError(f"bad stones list {_shorten(text)!r}: stone values are not negative")
            residues = [sum(map(int, v.lstrip("-"))) % 3 for v in values]  # a number is its digit sum mod 3
            state = State((residues.count(0), residues.count(1), residues.count(2)), 0, ALICE)
        else:
            raise PositionError(f"bad stone-ix position {_shorten(text)!r}: expected {self.position_syntax}")
        for residue, count in enumerate(state.counts):
            if count > self.max_count:
                raise BeyondSolvedRange(f"stone-ix position {self.format(state)!r} has {count} stones of residue {residue}; "
                                        f"this game was solved with {param('max', self.max_count)} ({LARGER_MAX})")
        return state
