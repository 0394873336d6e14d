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
from dataclasses import dataclass
from typing import Any

import numpy as np
import sqlalchemy as sa

from ..games.base import TokenMoves
from ..games.vector import DRAW, LOSE, RESULT_NAMES, TIE, UNDECIDED, WIN, ranks_within
from ..progress import Progress
from ..store.bulk import copy_rows, indexes_built_after
from ..store.rows import columns_except
from ..store.schema import move, position
from . import choice, graph_answer, graph_verify, token_moves
from .array_levels import Levels, reverse_moves
from .graph_arrays import GameGraph, enumerate_graph, estimate_bytes, estimate_game_bytes
from .protocol import Solved, SolveJob, TooLarge

__all__ = ["GraphMemory", "TooLarge", "estimate_bytes", "estimate_game_bytes", "retrograde", "write"]


#: rows per executemany while writing
WRITE_CHUNK = 50_000


@dataclass
class Solution:
    result: np.ndarray  # int8 [N], WIN/LOSE/TIE/DRAW
    remoteness: np.ndarray  # int32 [N], -1 for draws
    best: np.ndarray  # int32 [N], order of the best move, -1 for none
    progress: dict[str, Any]  # what the SQL engine leaves in game.progress



# --- 2. retrograde analysis --------------------------------------------------------------


def retrograde(graph: GameGraph, *, progress: Progress | None = None) -> Solution:
    """Result, remoteness and best move of every position, level by level like the SQL engine."""
    n = graph.positions
    degree = graph.degree
    parent_of_move = np.repeat(np.arange(n, dtype=graph.child.dtype), degree)
    order_of_move = ranks_within(degree).astype(np.int32)
    # reverse CSR: the moves into each position, grouped by child
    result = graph.primitive.copy()
    remoteness = np.where(result != UNDECIDED, 0, -1).astype(np.int32)
    best = np.full(n, -1, dtype=np.int32)
    levels = Levels(result, remoteness, best, degree.astype(np.int32), reverse_moves(graph.child, parent_of_move, order_of_move, n))

    # win/lose levels
    frontier = np.flatnonzero((result == WIN) | (result == LOSE))
    k = 0
    while True:
        frontier = levels.win_lose(frontier, k)
        k += 1
        if progress:
            progress("win/lose levels", k, None)
        if not len(frontier):
            break
    winlose_levels = k

    # tie levels
    frontier = np.flatnonzero(result == TIE)
    t = 0
    while True:
        frontier = levels.ties(frontier, t)
        t += 1
        if progress:
            progress("tie levels", t, None)
        if not len(frontier):
            break
    del levels  # the reverse moves

    # draws: best move is the first move to a drawing child
    result[result == UNDECIDED] = DRAW
    drawing = (result[parent_of_move] == DRAW) & (result[graph.child] == DRAW)
    moves_idx = np.flatnonzero(drawing)
    draw_parents, first = np.unique(parent_of_move[moves_idx], return_index=True)
    best[draw_parents] = order_of_move[moves_idx[first]]

    return Solution(
        result=result,
        remoteness=remoteness,
        best=best,
        progress={"phase": "done", "winlose_levels": winlose_levels, "tie_levels": t},
    )


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
    if progress:
        progress("write", 0, total)
    with indexes_built_after(conn, position, graph.positions):
        _write_positions(conn, game_id, graph, solution, order, total=total, progress=progress)
    if tokens is not None:  # a two-token game keeps its move lists, not a row per move
        token_moves.store(conn, game_id, tokens)
        if progress:
            progress("write", total, total)
    else:
        with indexes_built_after(conn, move, graph.moves):
            _write_moves(conn, game_id, graph, order, total=total, progress=progress)


def _write_positions(
    conn: sa.Connection, game_id: int, graph: GameGraph, solution: Solution, order: np.ndarray, *, total: int, progress: Progress | None
) -> None:
    columns = columns_except("grundy")  # the rows below, in this order; partisan games only: no grundy values
    codes, offset = graph.codes, graph.offset
    names = np.array(RESULT_NAMES, dtype=object)
    n = graph.positions
    for a in range(0, n, WRITE_CHUNK):
        idx = order[a : a + WRITE_CHUNK]
        pcodes = codes[idx]
        if graph.vector is not None:
            texts = graph.vector.texts(pcodes)
        else:
            assert graph.texts is not None  # a graph without array rules keeps its texts
            texts = [graph.texts[i] for i in idx.tolist()]
        # columns that may be NULL are built as object arrays: None where there is no value
        best = solution.best[idx]
        has_best = best >= 0
        best_col = np.full(len(idx), None, dtype=object)
        best_col[has_best] = _labels(graph, idx[has_best], offset[idx[has_best]] + best[has_best])
        remoteness = solution.remoteness[idx]
        rem_col = remoteness.astype(object)
        rem_col[remoteness < 0] = None
        rows = zip(
            pcodes.tolist(),
            texts,
            graph.player[idx].tolist(),
            names[solution.result[idx]].tolist(),
            rem_col.tolist(),
            (offset[idx + 1] - offset[idx]).tolist(),
            best_col.tolist(),
            strict=True,
        )
        copy_rows(conn, position, columns, rows, game_id=game_id)
        if progress:
            progress("write", a + len(idx), total)


def _write_moves(conn: sa.Connection, game_id: int, graph: GameGraph, order: np.ndarray, *, total: int, progress: Progress | None) -> None:
    columns = ("parent", "ord", "child", "label")
    codes, offset = graph.codes, graph.offset
    n = graph.positions
    written = n
    for a in range(0, n, WRITE_CHUNK):  # the moves of the same chunks of positions, in (parent code, order) order
        idx = order[a : a + WRITE_CHUNK]
        starts, lengths = offset[idx], offset[idx + 1] - offset[idx]
        within = ranks_within(lengths)
        moves = np.repeat(starts, lengths) + within
        parent_idx = np.repeat(idx, lengths)
        rows = zip(codes[parent_idx].tolist(), within.tolist(), codes[graph.child[moves]].tolist(), _labels(graph, parent_idx, moves), strict=True)
        copy_rows(conn, move, columns, rows, game_id=game_id)
        written += len(moves)
        if progress:
            progress("write", written, total)


def _labels(graph: GameGraph, parents: np.ndarray, moves: np.ndarray) -> list[str]:
    """Labels of the moves ``moves`` (indices into the move table) of positions ``parents``."""
    if graph.vector is not None:
        return graph.vector.labels(graph.codes[parents], graph.codes[graph.child[moves]])
    names, label_ids = graph.label_names, graph.label_ids
    assert label_ids is not None  # a graph without array rules keeps its labels
    return [names[i] for i in label_ids[moves].tolist()]


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
