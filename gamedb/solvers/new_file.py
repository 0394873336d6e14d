"""A small game solved straight into a new SQLite file: its solver, handed the new file's sink.

A game that the full path would solve in memory and write in one
transaction, into a file that does not exist yet, is solved by the same
solver with the new file's sink (:class:`~gamedb.store.new_sqlite_file.NewSqliteFile`,
no SQLAlchemy: ``gamedb solve nim --max 13`` within 0.3 s): a heap game of at
most one write batch (:func:`gamedb.solvers.heaps.solver.solve`), or a partisan
game without tiers of at most :data:`~gamedb.store.insert_sql.DEFER_INDEXES_FROM`
positions by its estimate (:func:`gamedb.solvers.graph_solution.solve`).
``tests/test_new_file_solve.py`` compares such files with the full path's row by row.
"""

from __future__ import annotations

from pathlib import Path
from typing import cast

from ..games.base import Game
from ..games.heaps import HeapGame
from ..progress import Progress
from ..store.insert_sql import DEFER_INDEXES_FROM
from ..store.new_sqlite_file import NewSqliteFile
from .choice import STRATEGIES
from .protocol import Solved

#: memory the enumeration of a game this small may take at most (it takes a few MB)
MEMORY_LIMIT = 1 << 30


def fits(game: Game) -> bool:
    """Whether ``game`` is solved this way into a new file (see the module) with the default engine."""
    if STRATEGIES["heaps"].accepts(game):
        from .heaps.solver import WRITE_BATCH

        return cast(HeapGame, game).max_heap + 1 <= WRITE_BATCH  # heap rules: a heap game
    if STRATEGIES["tiers"].accepts(game) or not STRATEGIES["graph-memory"].accepts(game):
        return False  # the default engine solves it by tiers (or not in memory)
    estimate = game.estimate()
    return estimate is not None and estimate.positions <= DEFER_INDEXES_FROM


def solve_new_file(path: Path, name: str, game: Game, revision: str, *, progress: Progress | None = None) -> Solved:
    """Solve ``game`` (one that :func:`fits`) into the new file ``path`` (schema ``revision``) under ``name``.

    Raises :class:`~gamedb.store.new_sqlite_file.TargetTaken` when ``path``
    appeared meanwhile, and whatever else went wrong; either way ``path`` was
    not touched.
    """
    with NewSqliteFile(path, revision, name, game) as sink:
        if STRATEGIES["heaps"].accepts(game):
            from .heaps.solver import solve

            return solve(sink, cast(HeapGame, game), progress=progress)
        from .graph_solution import solve as solve_graph

        return solve_graph(sink, game, memory_limit=MEMORY_LIMIT, progress=progress)
