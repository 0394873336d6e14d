"""Solving a game end to end: record it, enumerate, propagate, finish the file."""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass

import sqlalchemy as sa

from ..errors import GamedbError, GameExists, InputError
from ..games.base import Game
from ..progress import Progress
from ..store import catalog
from ..store.damage import DamagedGame
from ..store.database import file_unfinished, finish_file, sqlite_file
from ..store.locking import others_solving, solve_lock, solve_tag
from ..store.record import GameRecord
from ..store.sink import check_name
from ..store.tuning import default_memory_limit, human_size, solve_settings
from . import choice
from .protocol import SolveJob, TooLarge


@dataclass
class SolveReport:
    name: str
    positions: int
    moves: int
    seconds: float
    already_solved: bool = False
    resumed: bool = False
    #: the strategy that solved it (:data:`gamedb.solvers.choice.STRATEGIES`; empty when it was already solved)
    strategy: str = ""


def solve(
    engine: sa.Engine,
    game: Game,
    name: str | None = None,
    *,
    force: bool = False,
    progress: Progress | None = None,
    batch: int = 20000,
    strategy: str = choice.AUTO,
    memory_limit: int | None = None,
) -> SolveReport:
    """Solve ``game`` into the database under ``name`` (default: the family's name).

    A game already solved with the same rules is left alone; an unfinished
    solve of the same game resumes; another game of that name is refused
    unless ``force`` (which deletes it first). A second solve of the same
    game while one runs is refused (:class:`~gamedb.store.locking.SolveInProgress`).

    ``strategy`` picks the solver (``--strategy``, :data:`gamedb.solvers.choice.CHOICES`): ``sql``
    (retrograde analysis inside the database, memory bounded), ``memory`` (numpy,
    :mod:`gamedb.solvers.graph_memory`), ``tiers`` (:mod:`gamedb.solvers.tiers`) or ``auto``: the
    strategies in the order of :data:`gamedb.solvers.choice.STRATEGIES` (in memory when the game fits
    ``memory_limit`` bytes, default half the available memory, else SQL). All write identical position rows.

    Before anything is written, a family that can estimate its size
    (:meth:`Game.estimate <gamedb.games.base.Game.estimate>`) is checked
    against the free space beside a SQLite file (:class:`NotEnoughSpace`)
    and, for a strategy that holds it in memory, against the memory limit
    (:class:`~gamedb.solvers.graph_memory.TooLarge`). Every refusal (these, a
    different game of the same name, a bad option) leaves the file untouched.
    """
    strategies = choice.candidates(game, strategy)  # a choice that cannot take the game: refused before anything is read
    if engine.dialect.name == "duckdb" and [s.name for s in strategies] == ["graph-sql"]:  # (300 s for tic-tac-toe there)
        raise InputError("the SQL strategy does not run on a DuckDB file (far too slow there): use --strategy auto, tiers or memory, or a SQLite file")
    if memory_limit is not None and (isinstance(memory_limit, bool) or not isinstance(memory_limit, int) or memory_limit <= 0):
        raise InputError(f"--memory-limit must be a number of bytes more than 0, got {memory_limit!r}")
    if name is None:
        name = free_default_name(engine, game)
    check_name(name)
    # what is stored decides first, read only: a refusal must not touch the file (WAL mode, locks)
    with engine.connect() as conn:
        try:
            record = catalog.find(conn, name, damaged=force)  # --force replaces a damaged game too
        except DamagedGame as exc:
            raise DamagedGame(f"{exc}; --force replaces it") from None
    if record is not None and not force:
        _check_stored(record, game, name)
        if record.solved:
            return _already_solved(engine, record, name)
        choice.plan(engine, record, game, strategy)  # refuses a choice that cannot resume the stored solve
    limit = memory_limit if memory_limit is not None else default_memory_limit()  # read once for the whole solve
    if record is None or force:
        check_size(engine, game, name, strategy=strategy, memory_limit=limit, chosen=memory_limit is not None)
    with solve_lock(engine, name), solve_settings(engine, limit, solve_tag(name)):
        return _solve_locked(engine, game, name, force=force, progress=progress, batch=batch, strategy=strategy, memory_limit=limit)


def distinct_name(game: Game) -> str:
    """The family's default name with a digest of what the game is (family, rules version, parameters).

    Two different games never share it; the same game always gets it.
    """
    import hashlib

    return f"{game.default_name()}-{hashlib.sha256(catalog.game_key(game).encode()).hexdigest()[:8]}"


def free_default_name(engine: sa.Engine, game: Game) -> str:
    """The name a game gets when none is given: the family's default name, unless a different game holds it.

    Then :func:`distinct_name`: ``gamedb solve cat-mouse --graph A`` and then
    ``--graph B`` store two games (``cat-mouse`` and ``cat-mouse-1f0c2a9b``)
    instead of refusing the second; solving either again finds it.
    """
    name = game.default_name()
    with engine.connect() as conn:
        record = catalog.find(conn, name, damaged=True)
    if record is None or record.problem is not None or catalog.same_game(record, game):
        return name  # a damaged game there: the solve says so, and that --force replaces it
    return distinct_name(game)


def _check_stored(record: GameRecord, game: Game, name: str) -> None:
    if not catalog.same_game(record, game):
        raise GameExists(
            f"a different game named {name!r} is already stored ({record.family}); "
            "choose another --name, or --force to replace it"
        )


def _solve_locked(
    engine: sa.Engine, game: Game, name: str, *, force: bool, progress: Progress | None, batch: int, strategy: str, memory_limit: int
) -> SolveReport:
    t0 = time.perf_counter()
    with engine.connect() as conn:  # again, now that the lock is ours
        record = catalog.find(conn, name, damaged=force)  # --force replaces a damaged game too
    resumed = False
    replace = None  # a stored game --force replaces
    if record is not None:
        if force:
            replace, record = record, None
        else:
            _check_stored(record, game, name)
            if record.solved:
                return _already_solved(engine, record, name)
            resumed = True
    strategies = choice.plan(engine, record, game, strategy)
    job = SolveJob(name, game, record, replace, memory_limit=memory_limit, batch=batch, progress=progress)
    for chosen in strategies:
        job.strategy = chosen.name
        try:
            solved = chosen.load().solve(engine, job)
            break
        except TooLarge:
            if chosen is strategies[-1]:
                raise  # auto: the next strategy (in SQL) takes over; nothing was written
    _finish(engine, name)
    return SolveReport(name, solved.positions, solved.moves, time.perf_counter() - t0, resumed=resumed, strategy=chosen.name)


def _already_solved(engine: sa.Engine, record: GameRecord, name: str) -> SolveReport:
    """The game is solved; a solve killed while it finished the file (ANALYZE, WAL checkpoint) left
    the file unfinished: finish it now, where it can be written (a read-only share stays as it is)."""
    if file_unfinished(engine):
        try:
            _finish(engine, name)
        except sa.exc.OperationalError:
            pass
    return SolveReport(name, record.positions or 0, record.moves or 0, 0.0, already_solved=True)


def _finish(engine: sa.Engine, name: str) -> None:
    """:func:`finish_file`, waiting its usual while for other connections to close, but not at
    all while another game is being solved into the file (that solve finishes the file itself)."""
    if others_solving(engine, name):
        finish_file(engine, wait=0.0)
    else:
        finish_file(engine)


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
    engine: sa.Engine, game: Game, name: str, *, strategy: str = choice.AUTO, memory_limit: int | None = None, chosen: bool = True
) -> None:
    """Refuse a game whose estimated size cannot fit the disk (SQLite) or the memory limit of the strategy that
    solves it (one that cannot give way: :func:`gamedb.solvers.choice.memory_need`); the message gives the
    estimate. Families without :meth:`Game.estimate` pass.

    ``memory_limit`` None means the default; ``chosen`` False says a given one is the default too (for the message)."""
    estimate = game.estimate()
    if estimate is None:
        return
    positions, moves = estimate.positions, estimate.moves
    size = f"{name} needs up to {positions:,} positions and {moves:,} moves"
    path = sqlite_file(engine)
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
    found = choice.memory_need(game, name, strategy)
    if found is not None:
        need, words, advice = found
        limit = memory_limit if memory_limit is not None else default_memory_limit()
        if need > limit:
            raise TooLarge(f"{words} but {_limit_words(limit, memory_limit is not None and chosen)}; {advice}")


def _limit_words(limit: int, chosen: bool) -> str:
    """The memory limit as a refusal names it: the user's ``--memory-limit`` or the default."""
    return f"--memory-limit is {human_size(limit)}" if chosen else f"the memory limit is {human_size(limit)} (half the available memory)"
