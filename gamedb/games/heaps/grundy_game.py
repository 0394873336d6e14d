"""Grundy's game: split one heap into two heaps of different sizes; periodicity is an open problem (Guy), so heaps
above --max are not answered."""

from ..base import Examples
from . import HeapGame, HeapRule, max_param


class GrundyGame(HeapGame):
    family = "grundy"
    summary = "Grundy's game: split a heap into two unequal heaps; sums of heaps answered by XOR"
    examples = Examples(options={"max": 20}, positions=["7 4"], bad_positions=[("3 x", "'x' is not a heap size")])
    params = (max_param(1000),)
    periodic_rules = False
    rules_name = "Grundy's game"

    def __init__(self, max: int = 1000) -> None:
        super().__init__(max, [HeapRule(0, 2, unequal=True)])
