"""The ``heaps`` strategy: impartial heap games (:mod:`gamedb.games.heaps`) solved, checked and answered per heap.

One position per heap size 0..N (:mod:`.solver`), the values checked again
heap by heap (:mod:`.verify`), any sum of heaps answered by XOR of the
stored components (:mod:`.sums`), and the period of the values found and
proven where the Guy-Smith theorem applies (:mod:`.periodicity`).
"""

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
    probe = staticmethod(sums.probe_sum)

    def solve(self, db: sa.Engine, job: SolveJob) -> Solved:
        game = cast(HeapGame, job.game)  # the heaps strategy requires heap_rules (gamedb.solvers.choice)
        return solve_in_stages(
            db,
            job,
            lambda record: Solved(*solver.fill(db, record.id, game)),
            lambda record: solver.propagate(db, record.id, game, progress=job.progress),
        )
