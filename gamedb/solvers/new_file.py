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
from ..store.sink import Sink
from .choice import new_file_solver
from .protocol import Solved

#: memory the enumeration of a game this small may take at most (it takes a few MB)
MEMORY_LIMIT = 1 << 30


def fits(game: Game) -> bool:
    """Whether ``game`` is solved this way into a new file (see the module) with ``--strategy auto``."""
    return new_file_solver(game) is not None


def solve_new_file(path: Path, name: str, game: Game, revision: str, *, progress: Progress | None = None) -> Solved:
    """Solve ``game`` (one that :func:`fits`) into the new file ``path`` (schema ``revision``) under ``name``.

    Raises :class:`~gamedb.store.new_sqlite_file.TargetTaken` when ``path``
    appeared meanwhile, and whatever else went wrong; either way ``path`` was
    not touched.
    """
    found = new_file_solver(game)
    assert found is not None, "a game that fits"
    strategy, solve = found
    with NewSqliteFile(path, revision, name, game, strategy) as sink:
        solved: Solved = solve(sink, game, progress)
        return solved


# --- the strategies' hooks (named by their rows in gamedb.solvers.choice.STRATEGIES) ------------


def heaps_fit(game: Game) -> bool:
    """A heap game of at most one write batch."""
    from .heaps.solver import WRITE_BATCH

    return cast(HeapGame, game).max_heap + 1 <= WRITE_BATCH


def solve_heaps(sink: Sink, game: Game, progress: Progress | None) -> Solved:
    from .heaps.solver import solve

    return solve(sink, cast(HeapGame, game), progress=progress)


def graph_fits(game: Game) -> bool:
    """A game of at most :data:`~gamedb.store.insert_sql.DEFER_INDEXES_FROM` positions by its estimate."""
    estimate = game.estimate()
    return estimate is not None and estimate.positions <= DEFER_INDEXES_FROM


def solve_graph(sink: Sink, game: Game, progress: Progress | None) -> Solved:
    from .graph_solution import solve

    return solve(sink, game, memory_limit=MEMORY_LIMIT, progress=progress)
