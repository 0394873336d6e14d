"""What a solving strategy implements (a :class:`Solver`; one that computes inside the database: a :class:`DatabaseSolver`), and its job."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, Protocol

from ..errors import GamedbError
from ..games.base import Game
from ..progress import Progress

if TYPE_CHECKING:  # TooLarge is raised by enumerations that run without SQLAlchemy (a new file's solve)
    import sqlalchemy as sa

    from ..store.record import GameRecord
    from ..store.sink import Sink


class TooLarge(GamedbError):
    """The game does not fit the memory budget of a solver that holds it in memory (nothing was written)."""


class Solved(NamedTuple):
    """How big the solved game is."""

    positions: int
    moves: int


@dataclass
class Cluster:
    """Where a tier solve runs its slices (:mod:`.tier_cluster`): ``workers`` local worker processes or the Dask
    scheduler at ``scheduler``; the slices' files under ``work_dir`` (None: beside the database file)."""

    workers: int | None = None
    scheduler: str | None = None
    work_dir: str | None = None
    #: positions of a tier per slice (None: from the memory limit)
    slice_size: int | None = None


@dataclass
class SolveJob:
    """One solve, as the orchestration (:func:`gamedb.solvers.solve.solve`) hands it to a solver."""

    name: str
    game: Game
    #: the stored game row of an unfinished solve to resume, or None for a new game
    record: GameRecord | None
    #: a stored game that ``--force`` replaces (deleted when the new row is created)
    replace: GameRecord | None
    #: bytes the solve may use
    memory_limit: int
    #: positions per enumeration page
    batch: int
    progress: Progress | None = None
    #: the strategy solving it (:data:`gamedb.solvers.choice.STRATEGIES`), recorded in the game row
    strategy: str = ""
    #: the new file a solve writes whole (:func:`gamedb.solvers.solve.new_file`), beside which it keeps its work files
    new_file: Path | None = None
    #: a solve on a Dask cluster (the tier solver only), or None
    cluster: Cluster | None = None
    #: the symmetry group whose canonical positions are stored (1: every position), recorded in ``game.info``
    symmetry: int = 1

    def begin(self, conn: sa.Connection) -> GameRecord:
        """The game row to fill: the stored one, or one created now (a replaced game deleted first)."""
        from ..store import catalog

        if self.record is None:
            if self.replace is not None:
                catalog.delete(conn, self.replace)
                self.replace = None
            self.record = catalog.create(conn, self.name, self.game, self.strategy)
        elif self.record.strategy != self.strategy:  # taken over before anything of it was written
            catalog.update(conn, self.record, strategy=self.strategy)
            self.record.strategy = self.strategy
        return self.record


#: a strategy's solve into a sink (:mod:`gamedb.store.sink`): ``(sink, job) -> Solved``
IntoSink = Callable[["Sink", SolveJob], Solved]


class Solver(Protocol):
    """One solving strategy's check of what it stored."""

    def verify(self, conn: sa.Connection, record: GameRecord, game: Game, *, progress: Progress | None = None) -> int:
        """Re-derive every stored value from the rules; return the positions checked or raise VerifyError."""
        ...


class DatabaseSolver(Solver, Protocol):
    """A strategy that computes inside the database (or beside it, as the tier solver's work folder)."""

    def solve(self, db: sa.Engine, job: SolveJob) -> Solved:
        """Fill the tables for ``job`` (resuming what is stored) and mark the game solved."""
        ...


def solve_in_stages(
    db: sa.Engine,
    job: SolveJob,
    fill: Callable[[GameRecord], Solved],
    propagate: Callable[[GameRecord], object],
) -> Solved:
    """The SQL solver's course: ``fill`` the positions (``enumerating``), ``propagate`` values (``solving``), mark it solved."""
    from ..store import catalog
    from ..store.status import ENUMERATING, SOLVED, SOLVING

    t0 = time.perf_counter()
    with db.begin() as conn:
        record = job.begin(conn)
    if record.status == ENUMERATING:
        solved = fill(record)
        t1 = time.perf_counter()
        with db.begin() as conn:
            catalog.update(conn, record, status=SOLVING, positions=solved.positions, moves=solved.moves, enumerate_seconds=round(t1 - t0, 3))
    else:
        solved = Solved(record.positions or 0, record.moves or 0)
        t1 = t0
    propagate(record)
    t2 = time.perf_counter()
    with db.begin() as conn:
        catalog.update(conn, record, status=SOLVED, solved_at=catalog.now(), solve_seconds=round(t2 - t1, 3))
    return solved
