"""The in-memory solver (``graph-memory``): enumerate and solve on numpy arrays, then write the tables once.

Its course, :func:`gamedb.solvers.graph_solution.solve`, runs once for every
store; this strategy hands it the database's sink
(:class:`~gamedb.store.sql_sink.SqlSink`). A game that outgrows the memory
budget raises :class:`TooLarge` before anything is written, and the caller
falls back to the SQL solver, whose memory stays bounded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..games.base import Game
from ..store.sql_sink import SqlSink
from ..store.tuning import human_size
from . import graph_solution, graph_verify
from .graph_arrays import estimate_bytes, estimate_game_bytes
from .graph_solution import retrograde
from .protocol import Solved, SolveJob, TooLarge

if TYPE_CHECKING:
    import sqlalchemy as sa

__all__ = ["GraphMemory", "TooLarge", "estimate_bytes", "estimate_game_bytes", "retrograde"]


def memory_need(game: Game, name: str) -> tuple[int, str, str] | None:
    """The strategy's memory hook (:data:`gamedb.solvers.choice.STRATEGIES`): (bytes, what needs them, advice)."""
    estimate = game.estimate()
    if estimate is None:
        return None
    need = estimate_game_bytes(game, estimate.positions, estimate.moves)
    words = f"{name} needs up to {estimate.positions:,} positions and {estimate.moves:,} moves (~{human_size(need)} of memory in the in-memory solver)"
    return need, words, "use --strategy sql (or auto), or a larger --memory-limit"


class GraphMemory:
    """The ``graph-memory`` strategy (see :mod:`gamedb.solvers.protocol`); verifies and answers like ``graph-sql``."""

    verify = staticmethod(graph_verify.verify_graph)

    def solve(self, db: sa.Engine, job: SolveJob) -> Solved:
        """Enumerate, solve and write the game in memory: the game row (created by ``job.begin``), the rows
        and the finished status are committed together, so a killed or failed solve leaves the database as
        it was. Raises :class:`TooLarge`, with nothing written, when the game outgrows the memory limit."""
        with SqlSink(db, job.begin, resumed=job.record is not None) as sink:
            return graph_solution.solve(sink, job.game, memory_limit=job.memory_limit, progress=job.progress)
