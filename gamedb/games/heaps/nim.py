"""Nim: remove any number of tokens from one heap; a heap's value is its size (Bouton). The rules grow with the
heap, so no period is looked for."""

from ..base import Examples, require_int
from . import MAX_HEAP_LIMIT, HeapGame, HeapRule, max_param


class Nim(HeapGame):
    family = "nim"
    summary = "Nim: remove any number of tokens from one heap; sums of heaps answered by XOR"
    examples = Examples(options={"max": 7}, positions=["3 5 7", "1 2 3", "0"], bad_positions=[("3.5", "is not a heap size"), (", ,", "empty heap position")])
    params = (max_param(100),)
    periodic_rules = False
    rules_name = "Nim"

    def __init__(self, max: int = 100) -> None:
        top = require_int("max", max, 1, MAX_HEAP_LIMIT)
        super().__init__(top, [HeapRule(k, parts) for k in range(1, top + 1) for parts in (0, 1)])
