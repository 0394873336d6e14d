"""The in-memory solver (``graph-memory``): enumerate and solve on numpy arrays, then write the tables once.

For a game that fits in memory this is much faster than the SQL solver
(:mod:`gamedb.solvers.graph_sql`), and it writes exactly the same ``position`` and
``move`` rows (a test compares them row by row):

1. Enumerate breadth first from the start (:mod:`gamedb.solvers.graph_arrays`).
2. Retrograde analysis level by level with the SQL solver's exact rules and
   tie-breaks (see :mod:`gamedb.solvers.graph_sql`): each level gathers the parents of
   the frontier through a reverse CSR table; win = first move (lowest order)
   to a ``lose`` child of the level, lose when the counter of moves to ``win``
   children reaches zero (best move: first move into the level), then ties,
   then draws (best move: first move to a drawing child).
3. Write the position rows (ordered by code) and the move rows in one
   transaction: a killed solve leaves no rows and simply starts again.

The course is :func:`gamedb.solvers.graph_solution.solve`, written once for
every store; this strategy hands it the database's sink
(:class:`~gamedb.store.sql_sink.SqlSink`). A game that outgrows the memory
budget raises :class:`TooLarge` before anything is written, and the caller
falls back to the SQL solver, whose memory stays bounded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..store.sql_sink import SqlSink
from . import graph_answer, graph_solution, graph_verify
from .graph_arrays import estimate_bytes, estimate_game_bytes
from .graph_solution import retrograde
from .protocol import Solved, SolveJob, TooLarge

if TYPE_CHECKING:
    import sqlalchemy as sa

__all__ = ["GraphMemory", "TooLarge", "estimate_bytes", "estimate_game_bytes", "retrograde"]


class GraphMemory:
    """The ``graph-memory`` strategy (see :mod:`gamedb.solvers.protocol`); verifies and answers like ``graph-sql``."""

    engine = "memory"
    verify = staticmethod(graph_verify.verify_graph)
    probe_many = staticmethod(graph_answer.probe_many)

    def solve(self, db: sa.Engine, job: SolveJob) -> Solved:
        """Enumerate, solve and write the game in memory: the game row (created by ``job.begin``), the rows
        and the finished status are committed together, so a killed or failed solve leaves the database as
        it was. Raises :class:`TooLarge`, with nothing written, when the game outgrows the memory limit."""
        with SqlSink(db, job.begin, resumed=job.record is not None) as sink:
            return graph_solution.solve(sink, job.game, memory_limit=job.memory_limit, progress=job.progress)
