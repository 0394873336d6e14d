"""A small heap game solved straight into a new SQLite file, without SQLAlchemy.

``gamedb solve nim --max 13`` into a new file spends most of its time
importing SQLAlchemy (issue 12 asks for 0.3 s; the import alone took 0.30 to
0.38 s on the reference machine). A heap game of at most one write batch
(:data:`~gamedb.solvers.heaps.rows.WRITE_BATCH` heaps: the full path writes it
in one transaction too) is computed as the heap solver computes it
(:func:`~gamedb.solvers.heaps.values.compute`) and written with
:class:`~gamedb.store.new_sqlite_file.NewSqliteFile`: the same game row,
player rows, rule rows, position rows, info and progress as the solver's,
from the same row builders (:mod:`gamedb.store.game_rows`,
:mod:`gamedb.solvers.heaps.rows`). A test solves every heap family both ways
and compares the files row by row (``tests/test_new_file_solve.py``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from ...games.base import Game
from ...games.heaps import HeapGame
from ...progress import Progress
from ...store.game_rows import new_game_row, now, player_rows
from ...store.new_sqlite_file import NewSqliteFile
from ...store.status import SOLVED
from ..choice import STRATEGIES
from .rows import WRITE_BATCH, counts, done_progress, final_info, position_columns, rule_rows
from .values import compute


@dataclass
class NewFileSolve:
    positions: int
    moves: int
    seconds: float


def fits(game: Game) -> bool:
    """Whether ``game`` is a heap game small enough to be solved into a new file this way."""
    return STRATEGIES["heaps"].accepts(game) and cast(HeapGame, game).max_heap + 1 <= WRITE_BATCH  # heap rules: a heap game


def solve_new_file(path: Path, name: str, game: HeapGame, revision: str, *, progress: Progress | None = None) -> NewFileSolve:
    """Solve ``game`` into the new file ``path`` (schema ``revision``) under ``name``.

    Raises :class:`~gamedb.store.new_sqlite_file.TargetTaken` when ``path``
    appeared meanwhile, and whatever else went wrong; either way ``path`` was
    not touched.
    """
    t0 = time.perf_counter()
    with NewSqliteFile(path, revision) as new:
        game_id = new.insert_game(new_game_row(name, game))
        new.insert_rows("player", player_rows(game_id, game))
        new.insert_rows("heap_rule", rule_rows(game_id, game))
        positions, moves = counts(game)
        t1 = time.perf_counter()
        values = compute(game)
        new.insert_columns("position", position_columns(game, values, 0, positions), game_id=game_id)
        info, _ = final_info(game, values)
        t2 = time.perf_counter()
        new.update_game(
            game_id,
            {
                "status": SOLVED,
                "positions": positions,
                "moves": moves,
                "enumerate_seconds": round(t1 - t0, 3),
                "solve_seconds": round(t2 - t1, 3),
                "solved_at": now(),
                "info": info,
                "progress": done_progress(game),
            },
        )
    if progress:
        progress("heaps", positions, positions)
    return NewFileSolve(positions, moves, time.perf_counter() - t0)
