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

A game that outgrows the memory budget raises :class:`TooLarge` before
anything is written, and the caller falls back to the SQL solver, whose
memory stays bounded.
"""

from __future__ import annotations

import time

import numpy as np
import sqlalchemy as sa

from ..games.base import TokenMoves
from ..progress import Progress
from ..store.bulk import copy_rows, indexes_built_after
from ..store.schema import move, position
from . import choice, graph_answer, graph_verify, token_moves
from .graph_arrays import GameGraph, enumerate_graph, estimate_bytes, estimate_game_bytes
from .graph_solution import MOVE_COLUMNS, POSITION_COLUMNS, Solution, move_rows, position_rows, retrograde
from .protocol import Solved, SolveJob, TooLarge

__all__ = ["GraphMemory", "TooLarge", "estimate_bytes", "estimate_game_bytes", "retrograde", "write"]


# --- 3. writing the tables ----------------------------------------------------------------------


def write(
    conn: sa.Connection, game_id: int, graph: GameGraph, solution: Solution, *, tokens: TokenMoves | None = None, progress: Progress | None = None
) -> None:
    """Insert every position and move row of ``game_id`` (inside the caller's transaction).

    Rows go in primary-key order, a chunk at a time, straight to the driver.
    A two-token game (``tokens``, :mod:`gamedb.solvers.token_moves`) keeps its move
    lists instead of the move rows.
    """
    total = graph.positions + (graph.moves if tokens is None else 0)  # rows to write
    order = np.argsort(graph.codes, kind="stable")  # rows go in primary-key order
    written = 0
    if progress:
        progress("write", 0, total)
    with indexes_built_after(conn, position, graph.positions):
        for rows in position_rows(graph, solution, order):
            copy_rows(conn, position, POSITION_COLUMNS, rows, game_id=game_id)
            written += len(rows)
            if progress:
                progress("write", written, total)
    if tokens is not None:  # a two-token game keeps its move lists, not a row per move
        token_moves.store(conn, game_id, tokens)
        if progress:
            progress("write", total, total)
    else:
        with indexes_built_after(conn, move, graph.moves):
            for rows in move_rows(graph, order):
                copy_rows(conn, move, MOVE_COLUMNS, rows, game_id=game_id)
                written += len(rows)
                if progress:
                    progress("write", written, total)


class GraphMemory:
    """The ``graph-memory`` strategy (see :mod:`gamedb.solvers.protocol`); verifies and answers like ``graph-sql``."""

    engine = "memory"
    verify = staticmethod(graph_verify.verify_graph)
    probe_many = staticmethod(graph_answer.probe_many)

    def solve(self, db: sa.Engine, job: SolveJob) -> Solved:
        """Enumerate, solve and write the game in memory.

        The game row (created by ``job.begin`` in the same transaction), the
        rows and the finished status are committed together, so a killed or
        failed solve leaves the database as it was. Raises :class:`TooLarge`,
        with nothing written, when the game outgrows the memory limit.
        """
        from ..store import catalog
        from ..store.status import SOLVED

        game, progress = job.game, job.progress
        t0 = time.perf_counter()
        graph = enumerate_graph(game, memory_limit=job.memory_limit, progress=progress)
        t1 = time.perf_counter()
        solution = retrograde(graph, progress=progress)
        with db.begin() as conn:
            record = job.begin(conn)
            write(conn, record.id, graph, solution, tokens=choice.move_lists(game), progress=progress)
            t2 = time.perf_counter()
            catalog.update(
                conn,
                record,
                status=SOLVED,
                positions=graph.positions,
                moves=graph.moves,
                enumerate_seconds=round(t1 - t0, 3),
                solve_seconds=round(t2 - t1, 3),
                solved_at=catalog.now(),
                progress=solution.progress,
            )
        return Solved(graph.positions, graph.moves)
