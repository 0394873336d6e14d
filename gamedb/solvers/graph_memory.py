"""The in-memory solver (``graph-memory``): its memory need (over budget: :class:`TooLarge`, and ``auto`` falls back to SQL)."""

from __future__ import annotations

from ..errors import param
from ..games.base import Game
from ..sizes import human_size
from . import graph_verify
from .graph_arrays import estimate_bytes, estimate_game_bytes
from .graph_solution import retrograde
from .protocol import TooLarge

__all__ = ["GraphMemory", "TooLarge", "estimate_bytes", "estimate_game_bytes", "retrograde"]


def memory_need(game: Game, name: str) -> tuple[int, str, str] | None:
    """The strategy's memory hook (:data:`gamedb.solvers.choice.STRATEGIES`): (bytes, what needs them, advice)."""
    estimate = game.estimate()
    if estimate is None:
        return None
    need = estimate_game_bytes(game, estimate.positions, estimate.moves)
    words = f"{name} needs up to {estimate.positions:,} positions and {estimate.moves:,} moves (~{human_size(need)} of memory in the in-memory solver)"
    return need, words, f"use {param('strategy', 'sql')} (or auto), or a larger {param('memory_limit')}"


class GraphMemory:
    """The ``graph-memory`` strategy: it writes into any sink (:func:`gamedb.solvers.graph_solution.solve`); verifies like ``graph-sql``."""

    verify = staticmethod(graph_verify.verify_graph)
