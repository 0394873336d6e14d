"""The ``heaps`` strategy (:class:`HeapSolver`): solve, verify and answer heap games (see the package)."""

from __future__ import annotations

from typing import cast

import sqlalchemy as sa

from ...games.heaps import HeapGame
from ..protocol import Solved, SolveJob, solve_in_stages
from . import solver, sums, verify


class HeapSolver:
    """The ``heaps`` strategy (see :mod:`gamedb.solvers.protocol`)."""

    engine = "sql"
    verify = staticmethod(verify.verify_heaps)
    probe_many = staticmethod(sums.probe_many)

    def solve(self, db: sa.Engine, job: SolveJob) -> Solved:
        game = cast(HeapGame, job.game)  # the heaps strategy requires heap_rules (gamedb.solvers.choice)
        return solve_in_stages(
            db,
            job,
            lambda record: Solved(*solver.fill(db, record.id, game)),
            lambda record: solver.propagate(db, record.id, game, progress=job.progress),
        )
