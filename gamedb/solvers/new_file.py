"""A small game solved straight into a new SQLite file, without SQLAlchemy.

``gamedb solve nim --max 13`` into a new file spent most of its time
importing SQLAlchemy (issue 12 asks for 0.3 s; the import alone took 0.30 to
0.38 s on the reference machine). A game that the full path would solve in
memory and write in one transaction, into a file that does not exist yet,
is solved here by the same code and written with
:class:`~gamedb.store.new_sqlite_file.NewSqliteFile`:

- a **heap game** of at most one write batch
  (:data:`~gamedb.solvers.heaps.rows.WRITE_BATCH` heaps): values from
  :func:`~gamedb.solvers.heaps.values.compute`, rows from
  :mod:`gamedb.solvers.heaps.rows`;
- a **partisan game without tiers** (cat and mouse, on a graph or a grid)
  whose estimate is at most :data:`~gamedb.store.insert_sql.DEFER_INDEXES_FROM`
  positions (the full path keeps its indexes for such a load too): the graph
  from :func:`~gamedb.solvers.graph_arrays.enumerate_graph`, values and rows
  from :mod:`gamedb.solvers.graph_solution`, as the in-memory solver has them.

The game row and player rows come from :mod:`gamedb.store.game_rows`, as the
catalog's do. ``tests/test_new_file_solve.py`` solves games of both kinds both
ways and compares the files row by row.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from ..games.base import Game
from ..games.heaps import HeapGame
from ..progress import Progress
from ..store.game_rows import new_game_row, now, player_rows
from ..store.insert_sql import DEFER_INDEXES_FROM
from ..store.new_sqlite_file import NewSqliteFile
from ..store.status import SOLVED
from .choice import STRATEGIES, move_lists

#: memory the enumeration of a game this small may take at most (it takes a few MB)
MEMORY_LIMIT = 1 << 30


@dataclass
class NewFileSolve:
    positions: int
    moves: int
    seconds: float


def fits(game: Game) -> bool:
    """Whether ``game`` is solved this way into a new file (see the module) with the default engine."""
    if STRATEGIES["heaps"].accepts(game):
        from .heaps.rows import WRITE_BATCH

        return cast(HeapGame, game).max_heap + 1 <= WRITE_BATCH  # heap rules: a heap game
    if STRATEGIES["tiers"].accepts(game) or not STRATEGIES["graph-memory"].accepts(game):
        return False  # the default engine solves it by tiers (or not in memory)
    estimate = game.estimate()
    return estimate is not None and estimate.positions <= DEFER_INDEXES_FROM


def solve_new_file(path: Path, name: str, game: Game, revision: str, *, progress: Progress | None = None) -> NewFileSolve:
    """Solve ``game`` (one that :func:`fits`) into the new file ``path`` (schema ``revision``) under ``name``.

    Raises :class:`~gamedb.store.new_sqlite_file.TargetTaken` when ``path``
    appeared meanwhile, and whatever else went wrong; either way ``path`` was
    not touched.
    """
    write = _heaps if STRATEGIES["heaps"].accepts(game) else _graph
    t0 = time.perf_counter()
    with NewSqliteFile(path, revision) as new:
        game_id = new.insert_game(new_game_row(name, game))
        new.insert_rows("player", player_rows(game_id, game))
        finished = write(new, game_id, game, t0, progress)
        new.update_game(game_id, {"status": SOLVED, "solved_at": now(), **finished})
    return NewFileSolve(finished["positions"], finished["moves"], time.perf_counter() - t0)


def _heaps(new: NewSqliteFile, game_id: int, game: Game, t0: float, progress: Progress | None) -> dict[str, Any]:
    """A heap game's rows, as :mod:`gamedb.solvers.heaps.solver` writes them; the game row's last values."""
    from .heaps.rows import counts, done_progress, final_info, position_columns, rule_rows
    from .heaps.values import compute

    heaps = cast(HeapGame, game)
    new.insert_rows("heap_rule", rule_rows(game_id, heaps))
    positions, moves = counts(heaps)
    t1 = time.perf_counter()
    values = compute(heaps)
    new.insert_columns("position", position_columns(heaps, values, 0, positions), game_id=game_id)
    info, _ = final_info(heaps, values)
    if progress:
        progress("heaps", positions, positions)
    return {
        "positions": positions,
        "moves": moves,
        "enumerate_seconds": round(t1 - t0, 3),
        "solve_seconds": round(time.perf_counter() - t1, 3),
        "info": info,
        "progress": done_progress(heaps),
    }


def _graph(new: NewSqliteFile, game_id: int, game: Game, t0: float, progress: Progress | None) -> dict[str, Any]:
    """A game's rows as the in-memory solver (:mod:`gamedb.solvers.graph_memory`) writes them; the game row's last values."""
    import numpy as np

    from .graph_arrays import enumerate_graph
    from .graph_solution import MOVE_COLUMNS, POSITION_COLUMNS, move_rows, position_rows, retrograde, token_rows

    graph = enumerate_graph(game, memory_limit=MEMORY_LIMIT, progress=progress)
    t1 = time.perf_counter()
    solution = retrograde(graph, progress=progress)
    order = np.argsort(graph.codes, kind="stable")  # rows go in primary-key order
    for rows in position_rows(graph, solution, order):
        new.insert_tuples("position", POSITION_COLUMNS, rows, game_id=game_id)
    tokens = move_lists(game)
    if tokens is not None:  # a two-token game keeps its move lists, not a row per move
        board, moves = token_rows(game_id, tokens)
        new.insert_rows("token_board", board)
        new.insert_rows("token_move", moves)
    else:
        for rows in move_rows(graph, order):
            new.insert_tuples("move", MOVE_COLUMNS, rows, game_id=game_id)
    return {
        "positions": graph.positions,
        "moves": graph.moves,
        "enumerate_seconds": round(t1 - t0, 3),
        "solve_seconds": round(time.perf_counter() - t1, 3),
        "progress": solution.progress,
    }
