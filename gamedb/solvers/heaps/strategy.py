"""The ``heaps`` strategy (:class:`HeapSolver`): solve, verify and answer heap games (see the package)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ...games.heaps import HeapGame
from ...store.sql_sink import SqlSink
from ..protocol import Solved, SolveJob
from . import solver, verify

if TYPE_CHECKING:
    import sqlalchemy as sa


class HeapSolver:
    """The ``heaps`` strategy (see :mod:`gamedb.solvers.protocol`): :func:`gamedb.solvers.heaps.solver.solve` into the database."""

    verify = staticmethod(verify.verify_heaps)

    def solve(self, db: sa.Engine, job: SolveJob) -> Solved:
        game = cast(HeapGame, job.game)  # the heaps strategy requires heap_rules (gamedb.solvers.choice)
        with SqlSink(db, job.begin, resumed=job.record is not None) as sink:
            return solver.solve(sink, game, progress=job.progress)
