"""The flip game (seed 003): turn two adjacent ``++`` into ``--``; who cannot move loses.

The ``+`` runs are independent: it is the octal game 0.07 on the runs (a run of 0 is written ``-``). Move labels:
the index, from 0, of the first ``+`` flipped.
"""

import re
from collections.abc import Iterator, Sequence

from ...errors import PositionError
from ..base import Examples
from . import HeapGame, max_param, octal_rules

_RUN = re.compile(r"\++")


class Flip(HeapGame):
    family = "flip"
    summary = "The flip game: turn ++ into -- (octal game 0.07 on the + runs); any +/- string answered"
    position_syntax = "a string of + and - (e.g. ++--+++); moves are the index (from 0) of the first + flipped"
    examples = Examples(options={"max": 12}, positions=["++--+++", "+--+"], bad_positions=[("++x", "'x' is not + or -")])
    params = (
        max_param(100, "Longest + run solved: runs of 0..MAX pluses are stored and answer any +/- string whose runs are "
                  "at most MAX long (longer runs too, once the period of 0.07 is proven within MAX)."),
    )
    rules_name = "the flip game (octal 0.07)"
    component_name = "+ run of length"
    max_limit = 10_000  # run n's stored text is n pluses; longer runs are answered by the period

    def __init__(self, max: int = 100) -> None:
        super().__init__(max, octal_rules([0, 0, 7]))

    def heaps(self, state: str) -> list[int]:
        return [len(run) for run in state.split("-") if run]

    def heap_state(self, n: int) -> str:
        return "+" * n if n else "-"

    def sum_state(self, sizes: Sequence[int]) -> str:
        return "-".join("+" * n for n in sizes if n) or "-"

    def heap_degree(self, n: int) -> int:
        return max(n - 1, 0)

    def heap_degrees(self) -> list[int]:
        return [0] + list(range(self.max_heap))

    def option_move(self, state: str, index: int, idx: int, parts: tuple[int, ...]) -> tuple[str, str]:
        # a split (a, b) with a <= b flips at offset a; one run or none left: at the run's start
        i = _runs(state)[index][0] + (parts[0] if len(parts) == 2 else 0)
        return str(i), state[:i] + "--" + state[i + 2 :]

    def heap_label(self, n: int, idx: int, parts: tuple[int, ...]) -> str:
        return str(parts[0]) if len(parts) == 2 else "0"  # option_move on the run alone

    def heap_texts(self, low: int, high: int) -> list[str]:
        return [self.heap_state(n) for n in range(low, high)]

    def best_labels(self, best: Sequence[tuple[int, int] | None], low: int, high: int) -> list[str | None]:
        chosen = (best[n] for n in range(low, high))
        return [None if c is None else self.heap_label(n, c[0], self.option_parts(n, *c)) for n, c in enumerate(chosen, low)]

    def sum_moves(self, state: str) -> Iterator[tuple[str, object, int, int, tuple[int, ...]]]:
        for index, (start, length) in enumerate(_runs(state)):
            for offset in range(length - 1):
                i = start + offset
                parts = tuple(x for x in (offset, length - 2 - offset) if x)
                yield str(i), state[:i] + "--" + state[i + 2 :], index, length, parts

    def format(self, state: str) -> str:
        return state

    def parse(self, text: str) -> str:
        state = text.strip()
        if not state:
            raise PositionError(f"empty flip position: expected {self.position_syntax}")
        if bad := set(state) - {"+", "-"}:
            raise PositionError(f"bad flip position {text!r}: {sorted(bad)[0]!r} is not + or -")
        return state


def _runs(state: str) -> list[tuple[int, int]]:
    """(start, length) of every + run, left to right."""
    return [(run.start(), len(run.group())) for run in _RUN.finditer(state)]
