"""Solving a game end to end: record it, enumerate, propagate, finish the file."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import sqlalchemy as sa

from . import catalog
from . import heap_engine
from .engine import propagate, propagate_grundy
from .enumerate import enumerate_game
from .errors import GameExists, InputError
from .games.base import Game
from .games.heap import HeapGame
from .locking import solve_lock
from .store.database import finish_file
from .store.schema import ENUMERATING, SOLVED, SOLVING
from .store.tuning import solve_settings

Progress = Callable[[str, int, "int | None"], None]


@dataclass
class SolveReport:
    name: str
    positions: int
    moves: int
    seconds: float
    already_solved: bool = False
    resumed: bool = False
    #: which engine solved it: ``memory`` or ``sql``
    engine: str = "sql"


def solve(
    engine: sa.Engine,
    game: Game,
    name: str | None = None,
    *,
    force: bool = False,
    progress: Progress | None = None,
    batch: int = 20000,
    method: str = "auto",
    memory_limit: int | None = None,
) -> SolveReport:
    """Solve ``game`` into the database under ``name`` (default: the family's name).

    A game already solved with the same rules is left alone; an unfinished
    solve of the same game resumes; another game of that name is refused
    unless ``force`` (which deletes it first). A second solve of the same
    game while one runs is refused (:class:`~gamedb.locking.SolveInProgress`).

    ``method`` picks the engine: ``sql`` (retrograde analysis inside the
    database, memory bounded), ``memory`` (numpy, :mod:`gamedb.memory_engine`)
    or ``auto``: in memory when the game fits ``memory_limit`` bytes (default:
    half the available memory), else SQL. Both write identical tables.
    """
    if method not in METHODS:
        raise InputError(f"--engine must be one of {', '.join(METHODS)}, got {method!r}")
    name = name or game.default_name()
    with solve_lock(engine, name), solve_settings(engine, memory_limit):
        return _solve_locked(engine, game, name, force=force, progress=progress, batch=batch, method=method, memory_limit=memory_limit)


def _solve_locked(engine, game, name, *, force, progress, batch, method, memory_limit) -> SolveReport:
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

    heaps = isinstance(game, HeapGame)
    if _in_memory(engine, record, game, method, heaps):
        from . import memory_engine  # numpy: imported only to solve

        try:
            n_pos, n_mov = memory_engine.solve_in_memory(engine, record, game, memory_limit=memory_limit, progress=progress)
        except memory_engine.TooLarge:
            if method == "memory":
                raise
        else:
            finish_file(engine)
            return SolveReport(name, n_pos, n_mov, time.perf_counter() - t0, resumed=resumed, engine="memory")
    if record.status == ENUMERATING:
        if heaps:  # one position per heap size, moves as rules: nothing to enumerate
            n_pos, n_mov = heap_engine.fill(engine, record.id, game)
        else:
            if memory_limit is not None:  # a page of positions and their moves takes a few kB per position
                batch = max(500, min(batch, memory_limit // 8192))
            n_pos, n_mov = enumerate_game(engine, record.id, game, batch=batch, progress=progress)
        t1 = time.perf_counter()
        with engine.begin() as conn:
            catalog.update(conn, record, status=SOLVING, positions=n_pos, moves=n_mov, enumerate_seconds=round(t1 - t0, 3))
    else:
        n_pos, n_mov = record.positions or 0, record.moves or 0
        t1 = t0
    if heaps:
        heap_engine.propagate(engine, record.id, game, progress=progress)
    else:
        propagate(engine, record.id, progress=progress)
        if game.impartial:
            propagate_grundy(engine, record.id, progress=progress)
    t2 = time.perf_counter()
    with engine.begin() as conn:
        catalog.update(conn, record, status=SOLVED, solved_at=catalog.now(), solve_seconds=round(t2 - t1, 3))
    finish_file(engine)
    return SolveReport(name, n_pos, n_mov, time.perf_counter() - t0, resumed=resumed)


#: values of ``method`` (``--engine``)
METHODS = ("auto", "sql", "memory")


def _in_memory(engine, record, game, method: str, heaps: bool) -> bool:
    """Whether to try the in-memory engine: asked for, or ``auto`` on a game not begun in SQL."""
    if method == "sql" or heaps or game.impartial or record.status != ENUMERATING:
        if method == "memory":
            raise InputError(
                "the in-memory engine cannot solve this game "
                + ("(impartial games get Grundy values from the SQL engine)" if game.impartial or heaps else "(an unfinished SQL solve of it is stored; use --engine sql or --force)")
            )
        return False
    with engine.connect() as conn:
        begun = conn.execute(sa.text("SELECT 1 FROM solve_queue WHERE game_id = :g LIMIT 1"), {"g": record.id}).first()
    if begun and method == "memory":
        raise InputError("the in-memory engine cannot resume an unfinished SQL solve; use --engine sql or --force")
    return not begun
