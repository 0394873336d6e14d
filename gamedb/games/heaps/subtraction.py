"""Subtraction games: ``--set 1,2,5`` removes 1, 2 or 5 tokens from one heap; the period is proven (octal theorem)."""

from typing import Any

from ...errors import InputError, param
from ..base import Examples, Param, bounded_int, short_number
from . import MAX_HEAP_LIMIT, HeapGame, HeapRule, max_param


class Subtraction(HeapGame):
    family = "subtraction"
    summary = "Subtraction games: remove a number of tokens from a set, e.g. --set 1,2,5; periods proven"
    examples = Examples(options={"set": "1,2,5", "max": 20}, positions=["4 9"], bad_positions=[("4 x", "is not a heap size")], command_line="--set 1,2,5")
    params = (Param("set", str, "The numbers of tokens a move may remove, e.g. 1,2,5.", required=True), max_param(1000))

    def __init__(self, set: object, max: int = 1000) -> None:
        self.takes = parse_set(set)
        self.rules_name = f"subtraction game {{{','.join(map(str, self.takes))}}}"
        super().__init__(max, [HeapRule(k, parts) for k in self.takes for parts in (0, 1)])

    def parameters(self) -> dict[str, Any]:
        return {"set": ",".join(map(str, self.takes)), "max": self.max_heap}

    def default_name(self) -> str:
        return f"subtraction-{','.join(map(str, self.takes))}"


def parse_set(value: object) -> list[int]:
    """The sorted distinct take sizes of ``--set`` (``1,2,5``, ``1 2 5`` or a list); an empty entry (``1,,2``) is
    refused: it usually means a number went missing."""
    if isinstance(value, (list, tuple)):
        entries = [str(item) for item in value]
    else:
        text = str(value)
        if not text.strip():
            raise InputError(f"{param('set')} is empty: give the numbers of tokens a move may remove, e.g. 1,2,5")
        entries = text.split(",")
    items = []
    for position, entry in enumerate(entries, 1):
        words = entry.split()
        if not words:
            raise InputError(f"{param('set', value, quote=True)}: entry {position} is empty (expected numbers separated by commas, e.g. 1,2,5)")
        items.extend(words)
    takes = set()
    for text in items:
        if not (text.isascii() and text.isdigit()) or not text.strip("0"):
            raise InputError(f"{param('set')}: {text!r} is not a positive whole number (expected e.g. 1,2,5)")
        take = bounded_int(text, MAX_HEAP_LIMIT)
        if take is None:
            raise InputError(f"{param('set')}: {short_number(text)} is larger than {MAX_HEAP_LIMIT}")
        takes.add(take)
    if not takes:
        raise InputError(f"{param('set')} is empty: give the numbers of tokens a move may remove, e.g. 1,2,5")
    return sorted(takes)
