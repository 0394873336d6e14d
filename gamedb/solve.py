"""Solving a game end to end: record it, enumerate, propagate, finish the file."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import sqlalchemy as sa

from . import catalog
from .engine import propagate
from .enumerate import enumerate_game
from .errors import GameExists
from .games.base import Game
from .locking import solve_lock
from .store.database import finish_file
from .store.schema import ENUMERATING, SOLVED, SOLVING

Progress = Callable[[str, int, "int | None"], None]


@dataclass
class SolveReport:
    name: str
    positions: int
    moves: int
    seconds: float
    already_solved: bool = False
    resumed: bool = False


def solve(
    engine: sa.Engine,
    game: Game,
    name: str | None = None,
    *,
    force: bool = False,
    progress: Progress | None = None,
    batch: int = 20000,
) -> SolveReport:
    """Solve ``game`` into the database under ``name`` (default: the family's name).

    A game already solved with the same rules is left alone; an unfinished
    solve of the same game resumes; another game of that name is refused
    unless ``force`` (which deletes it first). A second solve of the same
    game while one runs is refused (:class:`~gamedb.locking.SolveInProgress`).
    """
    name = name or game.default_name()
    with solve_lock(engine, name):
        return _solve_locked(engine, game, name, force=force, progress=progress, batch=batch)


def _solve_locked(engine, game, name, *, force, progress, batch) -> SolveReport:
    t0 = time.perf_counter()
    with engine.begin() as conn:
        record = catalog.find(conn, name)
        resumed = False
        if record is not None:
            if force:
                catalog.delete(conn, record)
                record = None
            elif not catalog.same_game(record, game):
                raise GameExists(
                    f"a different game named {name!r} is already stored ({record.family}); "
                    "choose another --name, or --force to replace it"
                )
            elif record.solved:
                return SolveReport(name, record.positions or 0, record.moves or 0, 0.0, already_solved=True)
            else:
                resumed = True
        if record is None:
            record = catalog.create(conn, name, game)

    if record.status == ENUMERATING:
        n_pos, n_mov = enumerate_game(engine, record.id, game, batch=batch, progress=progress)
        t1 = time.perf_counter()
        with engine.begin() as conn:
            catalog.update(conn, record, status=SOLVING, positions=n_pos, moves=n_mov, enumerate_seconds=round(t1 - t0, 3))
    else:
        n_pos, n_mov = record.positions or 0, record.moves or 0
        t1 = t0
    propagate(engine, record.id, progress=progress)
    t2 = time.perf_counter()
    with engine.begin() as conn:
        catalog.update(conn, record, status=SOLVED, solved_at=catalog.now(), solve_seconds=round(t2 - t1, 3))
    finish_file(engine)
    return SolveReport(name, n_pos, n_mov, time.perf_counter() - t0, resumed=resumed)
