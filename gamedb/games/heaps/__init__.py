"""Heap games: impartial games on sums of heaps, given by rules (:class:`HeapRule`): take ``take`` tokens from one heap
and leave 0 heaps (it had exactly ``take``), 1 (the rest) or 2 (the rest split, unequal parts when ``unequal``). Only
heaps 0..N are stored (code: the size); a sum's value is the XOR of its heaps'. Move labels: ``I:REST``, heap I (from
1) becomes ``0``, a size or ``A+B``; a heap's options in rule order, splits by smaller part."""

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Any, ClassVar

from ...errors import InputError, PositionError, param
from ...values import LOSE
from ..base import Capabilities, Game, Param, State, require_int, short_number

#: the largest --max a heap game accepts (move order keys must fit 63 bits)
MAX_HEAP_LIMIT = 1_000_000

_SEPARATORS = re.compile(r"[\s,]+")

#: one option of a heap: (rule index, heaps left) -- () / (m,) / (a, b) with a <= b
Option = tuple[int, tuple[int, ...]]


@dataclass(frozen=True, order=True)
class HeapRule:
    """From one heap remove ``take`` tokens and leave ``parts`` heaps."""

    take: int
    parts: int
    unequal: bool = False


def max_param(default: int, help: str = "Largest heap solved: heaps 0..MAX are stored and answer any sum of them.") -> Param:
    """The ``--max`` option of a heap family."""
    return Param("max", int, help, default=default)


class HeapGame(Game):
    """Base of the heap families; a subclass sets ``family``, ``params`` and passes its rules."""

    impartial = True
    capabilities = Capabilities(heap_rules=True)
    players = ("first", "second")
    position_syntax = "heap sizes separated by spaces, e.g. 3 5 7 (0 is the empty position)"
    #: the rules are a fixed finite octal-style code, so the Guy-Smith periodicity theorem applies (not to Nim)
    periodic_rules: ClassVar[bool] = True
    rules_name: str = "this heap game"  # in messages ("octal game 0.77")
    component_name: ClassVar[str] = "heap"  # in messages ("heap 12")
    max_limit: ClassVar[int] = MAX_HEAP_LIMIT

    def __init__(self, max_heap: int, rules: Sequence[HeapRule]) -> None:
        self.max_heap = require_int("max", max_heap, 1, self.max_limit)
        seen = set()
        for rule in rules:
            if rule.parts not in (0, 1, 2) or rule.take < 0 or (rule.take == 0 and rule.parts != 2):
                raise InputError(f"invalid heap rule: {rule}")
            if (rule.take, rule.parts) in seen:
                raise InputError(f"two heap rules take {rule.take} and leave {rule.parts} heaps")
            seen.add((rule.take, rule.parts))
        self.rules: tuple[HeapRule, ...] = tuple(sorted(rules))
        self.max_take = max((r.take for r in self.rules), default=0)
        # move order key of an option: rule index * stride + smaller part
        self.stride = self.max_heap + 1
        self.order_span = max(len(self.rules), 1) * self.stride
        self.max_remoteness = 2 * self.max_heap + 2
        if (self.max_remoteness + 2) * self.order_span >= 2**62:
            raise InputError(f"{param('max', self.max_heap)} is too large for {len(self.rules)} move rules")

    @property
    def theorem_applies(self) -> bool:
        """Whether the octal periodicity theorem (Guy and Smith) covers these rules."""
        return self.periodic_rules and not any(r.unequal for r in self.rules)

    def heaps(self, state: State) -> list[int]:
        """The components of a position: its heap sizes, in order."""
        return list(state)

    def heap_state(self, n: int) -> State:
        """The position made of one heap of ``n``."""
        return (n,) if n else ()

    def heap_options(self, n: int) -> Iterator[Option]:
        """Every option of one heap of ``n``, in move order."""
        for idx, rule in enumerate(self.rules):
            rest = n - rule.take
            if rule.parts == 0 and rest == 0:
                yield idx, ()
            elif rule.parts == 1 and rest >= 1:
                yield idx, (rest,)
            elif rule.parts == 2:
                for a in range(1, (rest - rule.unequal) // 2 + 1):
                    yield idx, (a, rest - a)

    def heap_degree(self, n: int) -> int:
        """The number of moves from one heap of ``n`` (closed form: any size)."""
        count = 0
        for rule in self.rules:
            rest = n - rule.take
            if rule.parts == 0:
                count += rest == 0
            elif rule.parts == 1:
                count += rest >= 1
            elif rest >= 2:
                count += (rest - rule.unequal) // 2
        return count

    def heap_degrees(self) -> list[int]:
        """:meth:`heap_degree` of every heap 0..N, rule by rule (overridden together)."""
        top = self.max_heap
        steps = [0] * (top + 2)  # rules leaving at most one heap: +1 from where each applies, -1 where it stops
        for rule in self.rules:
            if rule.parts == 0 and rule.take <= top:
                steps[rule.take] += 1
                steps[rule.take + 1] -= 1
            elif rule.parts == 1 and rule.take < top:
                steps[rule.take + 1] += 1
        degree = list(accumulate(steps[: top + 1]))
        for rule in self.rules:
            if rule.parts == 2:
                low = rule.take + 2
                degree[low:] = [d + (n - rule.take - rule.unequal) // 2 for n, d in enumerate(degree[low:], low)]
        return degree

    def option_parts(self, n: int, idx: int, smaller: int) -> tuple[int, ...]:
        """The heaps left by option (rule ``idx``, smaller part) of a heap of ``n``."""
        rule = self.rules[idx]
        rest = n - rule.take
        return () if rule.parts == 0 else (rest,) if rule.parts == 1 else (smaller, rest - smaller)

    def option_move(self, state: State, index: int, idx: int, parts: tuple[int, ...]) -> tuple[str, State]:
        """(label, child) of the move playing option (``idx``, ``parts``) on component ``index`` of ``state``."""
        heaps = tuple(state)
        return _label(index, parts), heaps[:index] + parts + heaps[index + 1 :]

    @property
    def plain_texts(self) -> bool:
        """Whether texts and labels are this class's own (a sum's moves are then written from the heaps' texts)."""
        cls = type(self)
        return cls.option_move is HeapGame.option_move and cls.format is HeapGame.format and cls.heaps is HeapGame.heaps

    def option_texts(self, state: State, index: int, options: Sequence[Option]) -> list[tuple[str, str]]:
        """(label, text of the position left) of each option played on component ``index``."""
        return [(label, self.format(child)) for label, child in (self.option_move(state, index, idx, parts) for idx, parts in options)]

    def heap_label(self, n: int, idx: int, parts: tuple[int, ...]) -> str:
        """Label of an option as a move from one heap of ``n`` (overridden with :meth:`option_move`)."""
        return _label(0, parts)

    def heap_texts(self, low: int, high: int) -> list[str]:
        """``format(heap_state(n))`` of heaps low..high-1 (overridden with :meth:`format`)."""
        return list(map(str, range(low, high)))

    def best_labels(self, best: Sequence[tuple[int, int] | None], low: int, high: int) -> list[str | None]:
        """:meth:`heap_label` of ``best[n]`` (rule index, smaller part) of heaps low..high-1 (written out for speed)."""
        rules = self.rules
        labels: list[str | None] = []
        for n in range(low, high):
            chosen = best[n]
            if chosen is None:
                labels.append(None)
                continue
            rule = rules[chosen[0]]
            rest = n - rule.take
            labels.append("1:0" if rule.parts == 0 else f"1:{rest}" if rule.parts == 1 else f"1:{chosen[1]}+{rest - chosen[1]}")
        return labels

    def sum_moves(self, state: State) -> Iterator[tuple[str, object, int, int, tuple[int, ...]]]:
        """Every move of a position: (label, child, component index, heap, heaps left), in move order."""
        for i, n in enumerate(self.heaps(state)):
            for idx, parts in self.heap_options(n):
                label, child = self.option_move(state, i, idx, parts)
                yield label, child, i, n, parts

    def parameters(self) -> dict[str, Any]:
        return {"max": self.max_heap}

    def start(self) -> State:
        return self.heap_state(self.max_heap)

    PLAY_HEAPS: ClassVar[tuple[int, ...]] = (3, 4, 5)

    def play_start(self) -> State:
        """Heaps 3 4 5 (each at most --max): :meth:`start`, one heap of --max, is the end of the range, not an opening."""
        return self.sum_state([min(n, self.max_heap) for n in self.PLAY_HEAPS])

    def sum_state(self, sizes: Sequence[int]) -> State:
        """The position made of components of these sizes, in this order."""
        return tuple(n for n in sizes if n)

    def moves(self, state: State) -> list[tuple[str, State]]:
        return [(label, child) for label, child, _, _, _ in self.sum_moves(state)]

    def primitive(self, state: State) -> str | None:
        return None if any(self.heap_degree(n) for n in self.heaps(state)) else LOSE

    def to_move(self, state: State) -> int:
        return 0

    def is_component(self, state: State) -> bool:
        """Whether ``state`` is one stored component (a single heap, or empty)."""
        heaps = self.heaps(state)
        return len(heaps) <= 1 and state == self.heap_state(heaps[0] if heaps else 0)

    def encode(self, state: State) -> int:
        if not self.is_component(state):
            raise PositionError(f"{self.format(state)!r} has no code: only single components are stored "
                                "(query answers a position by the XOR of its components' values)")
        heaps = self.heaps(state)
        return heaps[0] if heaps else 0

    def decode(self, code: int) -> State:
        return self.heap_state(code)

    def format(self, state: State) -> str:
        return " ".join(map(str, state)) if state else "0"

    def parse(self, text: str) -> State:
        tokens = [t for t in _SEPARATORS.split(text.strip()) if t]
        if not tokens:
            raise PositionError(f"empty heap position {text!r}: write 0 for the empty position; expected {self.position_syntax}")
        heaps = []
        for token in tokens:
            if not (token.isascii() and token.isdigit()):
                raise PositionError(f"bad heap position {text!r}: {token!r} is not a heap size; expected {self.position_syntax}")
            try:
                size = int(token)
            except ValueError:  # more digits than Python converts (sys.get_int_max_str_digits)
                raise PositionError(f"bad heap position: heap size {short_number(token)} is too large") from None
            if size:
                heaps.append(size)
        return tuple(heaps)


def _label(index: int, parts: tuple[int, ...]) -> str:
    return f"{index + 1}:{'+'.join(map(str, parts)) if parts else '0'}"


def octal_rules(digits: Sequence[int]) -> list[HeapRule]:
    """Rules of the octal game whose code digits are ``digits`` (d0 before the point, d1, d2, ...)."""
    rules = []
    for take, digit in enumerate(digits):
        for bit, parts in ((1, 0), (2, 1), (4, 2)):
            if digit & bit and not (take == 0 and parts != 2):
                rules.append(HeapRule(take, parts))
    return rules
