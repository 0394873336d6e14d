"""Solving a game end to end, into the sink it chooses: the database's, or a new SQLite file's (no SQLAlchemy)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, cast

from ..errors import GamedbError, InputError, param
from ..games.base import Game
from ..progress import Progress
from ..store.sink import check_name
from . import capabilities, choice
from .protocol import Cluster, SolveJob, TooLarge

if TYPE_CHECKING:
    import sqlalchemy as sa

    from ..store.new_sqlite_file import StartRead
    from ..store.rows import Reader
    from .protocol import DatabaseSolver


@dataclass
class SolveReport:
    name: str
    positions: int
    moves: int
    seconds: float
    already_solved: bool = False
    resumed: bool = False
    #: the strategy that solved it (empty when it was already solved)
    strategy: str = ""
    #: what ``read_back`` gave (:func:`solve` into a :class:`NewFile`), else None
    read: StartRead | None = None


class NewFile(NamedTuple):
    """A SQLite or DuckDB file that does not exist yet, which a solve writes whole through its own sink (:func:`new_file`)."""

    path: Path
    revision: str
    duckdb: bool = False
    #: ``--strategy``
    strategy: str = choice.AUTO
    #: ``--memory-limit`` in bytes (None: the default)
    memory_limit: int | None = None


def new_file(db: str, game: Game, strategy: str = choice.AUTO, memory_limit: int | None = None) -> NewFile | None:
    """The new file ``db`` names when ``game`` is solved straight into it by ``strategy`` without SQLAlchemy (a plain new path)."""
    from ..errors import DatabaseError
    from ..store.location import locate
    from ..store.sqlite_file import check_sqlite_version, newest_revision

    location = locate(db)
    path = location.path
    if not (location.is_file or location.is_duckdb) or path is None:
        return None
    try:
        if choice.new_file_strategy(game, strategy) is None:
            return None
    except InputError:
        return None  # a strategy that refuses the game: the general path says so
    if os.path.lexists(path) or not path.parent.is_dir() or not os.access(path.parent, os.W_OK | os.X_OK):
        return None
    try:
        check_sqlite_version()
    except DatabaseError:
        return None  # the database's path says why not
    revision = newest_revision()
    return None if revision is None else NewFile(path, revision, location.is_duckdb, strategy, memory_limit)


def solve(
    db: sa.Engine | NewFile,
    game: Game,
    name: str | None = None,
    *,
    force: bool = False,
    progress: Progress | None = None,
    batch: int = 20000,
    strategy: str = choice.AUTO,
    memory_limit: int | None = None,
    cluster: Cluster | None = None,
    symmetry: bool | None = None,
    read_back: Callable[[Reader], StartRead] | None = None,
) -> SolveReport:
    """Solve ``game`` into the database ``db`` (or the :class:`NewFile`) under ``name`` (default: the family's name);
    ``cluster``: by the tier solver on a Dask cluster; ``symmetry`` (None: where the family and strategy have it) stores
    one position per symmetry class; ``read_back`` (a :class:`NewFile`): what reads the complete file before its writer
    closes it, its result in the report's ``read``."""
    if isinstance(db, NewFile):
        strategy = db.strategy
    if cluster is not None:
        from .cluster_options import check_cluster

        check_cluster(cluster, strategy)
        strategy = "tiers"
    strategies = choice.candidates(game, strategy)  # a choice that cannot take the game: refused before anything is read
    if cluster is None:
        group = choice.symmetry(game, strategy, symmetry)  # the group a new solve stores through (a stored unfinished one keeps its own)
    else:
        from .cluster_options import cluster_group

        group = cluster_group(game, symmetry)
    if memory_limit is not None and (isinstance(memory_limit, bool) or not isinstance(memory_limit, int) or memory_limit <= 0):
        raise InputError(f"{param('memory_limit')} must be a number of bytes more than 0, got {memory_limit!r}")
    if isinstance(db, NewFile):
        return _into_new_file(db, game, game.default_name() if name is None else name, progress, group, read_back)
    if db.dialect.name == "duckdb" and [s.name for s in strategies] == ["graph-sql"]:  # (300 s for tic-tac-toe there)
        raise InputError(f"the SQL strategy does not run on a DuckDB file (far too slow there): use {param('strategy', 'auto')}, tiers or memory, "
                         "or a SQLite file")
    from ..sizes import default_memory_limit
    from ..store.catalog import free_name, stored_for
    from ..store.locking import finish, solving
    from ..store.sql_sink import SqlSink

    with db.connect() as conn:  # what is stored decides first, read only: a refusal must not touch the file (WAL mode, locks)
        name = free_name(conn, game) if name is None else name
        record = stored_for(conn, name, game, force=force)
    if record is not None and not force:
        if record.solved:  # a file a killed solve left unfinished is finished now
            finish(db, name, if_unfinished=True)
            return SolveReport(name, record.positions or 0, record.moves or 0, 0.0, already_solved=True)
        choice.plan(db, record, game, strategy)  # refuses a choice that cannot resume the stored solve
        choice.symmetry(game, strategy, symmetry, record)  # and a --symmetry that is not the stored solve's
    limit = memory_limit if memory_limit is not None else default_memory_limit()  # read once for the whole solve
    if record is None or force:
        check_size(db, game, name, strategy=strategy, memory_limit=limit, chosen=memory_limit is not None, cluster=cluster is not None)
    with solving(db, name, limit):
        t0 = time.perf_counter()
        with db.connect() as conn:  # again, now that the lock is ours
            record = stored_for(conn, name, game, force=force)
        resumed = False
        replace = None  # a stored game --force replaces
        if record is not None:
            if force:
                replace, record = record, None
            elif record.solved:
                finish(db, name, if_unfinished=True)
                return SolveReport(name, record.positions or 0, record.moves or 0, 0.0, already_solved=True)
            else:
                resumed = True
        strategies = choice.plan(db, record, game, strategy)
        job = SolveJob(name, game, record, replace, memory_limit=limit, batch=batch, progress=progress, cluster=cluster,
                       symmetry=group if record is None else choice.symmetry(game, strategy, symmetry, record))
        for chosen in strategies:
            job.strategy = chosen.name
            try:
                solver = chosen.load()
                if cluster is not None:
                    from .tier_cluster import solve_on_cluster

                    solved = solve_on_cluster(db, job)
                elif chosen.into_sink is None or hasattr(solver, "solve"):  # (its own course in the database: resumable)
                    solved = cast("DatabaseSolver", solver).solve(db, job)
                else:
                    run = chosen.into_sink()
                    with SqlSink(db, job.begin, resumed=job.record is not None) as sink:
                        solved = run(sink, job)
                break
            except TooLarge:
                if chosen is strategies[-1]:
                    raise  # auto: the next strategy (in SQL) takes over; nothing was written
        finish(db, name)
        return SolveReport(name, solved.positions, solved.moves, time.perf_counter() - t0, resumed=resumed, strategy=chosen.name)


def _into_new_file(target: NewFile, game: Game, name: str, progress: Progress | None, symmetry: int,
                   read_back: Callable[[Reader], StartRead] | None = None) -> SolveReport:
    """The new file's sink handed to the strategy that writes into any sink; linked into place when complete."""
    from ..sizes import default_memory_limit
    from ..store.new_sqlite_file import NewSqliteFile

    chosen = choice.new_file_strategy(game, target.strategy)
    check_name(name)
    if chosen is None or chosen.into_sink is None:
        raise InputError(f"{name} is not a game that can be solved straight into a new file")
    sink_class = NewSqliteFile
    if target.duckdb:
        from ..store.new_duckdb_file import NewDuckdbFile

        sink_class = NewDuckdbFile
    t0 = time.perf_counter()
    job = SolveJob(name, game, None, None, memory_limit=target.memory_limit or default_memory_limit(), batch=0, progress=progress, strategy=chosen.name,
                   new_file=target.path, symmetry=symmetry)
    run = chosen.into_sink()  # (imported before the file's thread starts: both take Python's lock, and numpy's import
    # beside DuckDB's delayed cat-mouse's solve by 23 ms)
    with sink_class(target.path, target.revision, name, game, chosen.name, read_back) as sink:
        solved = run(sink, job)
    if target.duckdb:
        from ..store.duckdb_rewrite import DENSE_FROM, rewrite

        if solved.positions >= DENSE_FROM:  # in place: written afresh in the dense order, as `gamedb compact` leaves it
            if progress:  # (Dōbutsu shōgi: 8 minutes)
                progress("file written afresh (dense order)", 0, 1)
            rewrite(target.path, job.memory_limit)
            if progress:
                progress("file written afresh (dense order)", 1, 1)
    return SolveReport(name, solved.positions, solved.moves, time.perf_counter() - t0, strategy=chosen.name, read=sink.read)


# --- size limits ------------------------------------------------------------------------

#: bytes a solved game takes in a SQLite file per position and per move (tables and
#: indexes), measured on cat-mouse (about 10 moves per position: ~460 B/position),
#: Connect-Four 4x4 (~157 B/position) and tic-tac-toe, rounded up
DISK_BYTES_PER_POSITION = 90
DISK_BYTES_PER_MOVE = 40
#: free space a solve needs while it writes, as a multiple of the finished size: the rows
#: pass through the write-ahead log (or the SQL solver's work tables) before they settle
DISK_WORK_FACTOR = 2


class NotEnoughSpace(GamedbError):
    """The game will not fit the free space beside the database file."""


def disk_bytes(positions: int, moves: int) -> int:
    """Estimated size on disk of a solved game with this many positions and moves."""
    return positions * DISK_BYTES_PER_POSITION + moves * DISK_BYTES_PER_MOVE


def check_size(
    engine: sa.Engine, game: Game, name: str, *, strategy: str = choice.AUTO, memory_limit: int | None = None, chosen: bool = True,
    cluster: bool = False,
) -> None:
    """Refuse a game whose estimated size fits neither the disk (SQLite) nor the memory limit of a strategy that cannot give way
    (``cluster``: a solve on a cluster, whose memory is its slices', announced before: not the one-process solver's)."""
    import shutil

    from ..sizes import default_memory_limit, human_size
    from ..store.sqlite_file import file_of

    estimate = capabilities.stored_estimate(game)
    if estimate is None:
        return
    # one row per class and no move rows when solved with the family's symmetries (the default); move rows only by a strategy
    # that writes them where a game has no token move lists (the tier solver writes none)
    rows = any(need.capability == "token_moves" for found in choice.candidates(game, strategy) for need in found.needs)
    positions, moves = estimate.positions, 0 if estimate.classes is not None or not rows else estimate.moves
    size = f"{name} needs up to {positions:,} positions and {moves:,} moves"
    path = file_of(engine)
    if path is not None:
        folder = path.parent
        need = disk_bytes(positions, moves)
        try:
            free = shutil.disk_usage(folder).free
        except OSError:
            free = None
        if free is not None and need * DISK_WORK_FACTOR > free:
            raise NotEnoughSpace(
                f"{size} (~{human_size(need)} on disk, ~{human_size(need * DISK_WORK_FACTOR)} free while solving) "
                f"but only {human_size(free)} are free in {folder}"
            )
    found = None if cluster else choice.memory_need(game, name, strategy)
    if found is not None:
        need, words, advice = found
        limit = memory_limit if memory_limit is not None else default_memory_limit()
        if need > limit:
            raise TooLarge(f"{words} but {_limit_words(limit, memory_limit is not None and chosen)}; {advice}")


def _limit_words(limit: int, chosen: bool) -> str:
    """The memory limit as a refusal names it: the user's ``--memory-limit`` or the default."""
    from ..sizes import human_size

    return f"{param('memory_limit')} is {human_size(limit)}" if chosen else f"the memory limit is {human_size(limit)} (half the available memory)"
