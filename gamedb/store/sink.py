"""The one interface solvers write through, a :class:`Sink` per store; and what every sink begins with.

A solver computes, a sink stores: the heap solver
(:func:`gamedb.solvers.heaps.solver.solve`) and the in-memory one
(:func:`gamedb.solvers.graph_solution.solve`) run once, into whichever sink
they are given: :class:`gamedb.store.sql_sink.SqlSink` (SQLite or PostgreSQL
through SQLAlchemy; rows through :mod:`gamedb.store.bulk`, committed where the
solver commits, so a killed solve resumes) or
:class:`gamedb.store.new_sqlite_file.NewSqliteFile` (a new file, ``sqlite3``
alone, linked into place when finished).

**A new store is one more sink and nothing else**: a class with the methods of
:class:`Sink` -- begin with the game row of :func:`new_game_row` and its
:func:`player_rows` (or find the stored one), append rows to the tables of
:mod:`gamedb.store.schema` by name (dicts, tuples or columns; each with the
game's id), set columns of the game row (the :data:`JSON_COLUMNS` as JSON),
commit, finish, abort -- and the place that hands it to a solver (as
:mod:`gamedb.solvers.new_file` hands the new file's). ``graph-sql`` computes
inside the database and so writes through SQLAlchemy; the tier solver still
writes its rows through :func:`gamedb.store.bulk.copy_columns`
(:func:`gamedb.solvers.tier_store.write_positions`, with its own index policy
across resumed solves): the next to move onto a sink. No SQLAlchemy here: the
new file's sink needs none.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from datetime import datetime, timezone
from typing import Any, NamedTuple, Protocol

from .. import __version__
from ..errors import InputError
from ..games.base import Game
from .status import ENUMERATING


class Begun(NamedTuple):
    """The game row a sink writes into, as :meth:`Sink.begin` found or made it."""

    id: int
    #: the row's status: ``enumerating`` for a new game (:mod:`gamedb.store.status`)
    status: str
    #: where an unfinished solve of it stopped (``game.progress``), {} for a new game
    progress: dict[str, Any]
    #: True when the row was stored before (a solve resumed): rows of it may be there
    resumed: bool


class Sink(Protocol):
    """Where a solver's rows go; see the module. Tables and columns are named as in :mod:`gamedb.store.schema`.

    Used as a context manager by whoever makes it: leaving the block drops
    what was not committed, as :meth:`abort` does.
    """

    def begin(self) -> Begun:
        """The game row to write into: created (with its player rows) or, resuming, the stored one."""
        ...

    def clear(self, tables: Sequence[str]) -> None:
        """Delete the game's rows from ``tables`` (a resumed solve writing them afresh)."""
        ...

    def rows(self, table: str, rows: list[dict[str, Any]]) -> None:
        """Append rows given as dicts with the same keys (``game_id`` among them): small tables."""
        ...

    def tuples(self, table: str, columns: Sequence[str], rows: list[tuple[Any, ...]]) -> None:
        """Append a batch of rows given as tuples in ``columns`` order; each row gets the game's id."""
        ...

    def columns(self, table: str, columns: dict[str, list[Any]]) -> None:
        """Append a batch of rows given column by column (lists of equal length); each row gets the game's id."""
        ...

    def loading(self, table: str, rows: int) -> AbstractContextManager[None]:
        """Around the appends of ``rows`` rows to ``table``: a store may build its indexes after them."""
        ...

    def update(self, **values: Any) -> None:
        """Set columns of the game row (status, counts, times, ``info``, ``progress``)."""
        ...

    def commit(self) -> None:
        """Make what was written so far survive a killed solve (a store written whole at :meth:`finish` may wait)."""
        ...

    def finish(self, **values: Any) -> None:
        """The game row's last :meth:`update` (status ``solved``, counts, times), then everything committed and in place."""
        ...

    def abort(self) -> None:
        """Drop what was written since the last :meth:`commit` (all of it, for a store written whole)."""
        ...


# --- what begin() writes: the game row and its player rows, as values ----------------------------

#: the ``game`` table's JSON columns (SQLAlchemy's JSON type writes them with ``json.dumps``)
JSON_COLUMNS = ("parameters", "info", "progress")


def family_key(game: Game) -> str:
    """What the ``family`` column stores: the family's name when that name finds
    this class again (built-in or installed plugin), else ``module:Class``."""
    from ..errors import UnknownFamily
    from ..games import family

    try:
        if family(game.family) is type(game):
            return game.family
    except UnknownFamily:
        pass
    return f"{type(game).__module__}:{type(game).__qualname__}"


def now() -> str:
    """The time a game row records (``created_at``, ``solved_at``): UTC, to the second."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def check_name(name: str) -> None:
    """Refuse a name no one could type back: empty, or spaces only."""
    if not isinstance(name, str) or not name.strip():
        raise InputError(f"a game's name (--name) must not be empty or blank, got {name!r}")


def new_game_row(name: str, game: Game, strategy: str) -> dict[str, Any]:
    """The ``game`` row of a game about to be solved (status ``enumerating``) by ``strategy``, by column."""
    start = game.start()
    return {
        "name": name,
        "family": family_key(game),
        "parameters": game.parameters(),
        "rules_version": game.rules_version,
        "impartial": game.impartial,
        "status": ENUMERATING,
        "start_code": game.encode(start),
        "start_position": game.format(start),
        "created_at": now(),
        "gamedb_version": __version__,
        "strategy": strategy,
    }


def player_rows(game_id: int, game: Game) -> list[dict[str, Any]]:
    """The game's ``player`` rows: its players' names by index."""
    return [{"game_id": game_id, "idx": i, "name": n} for i, n in enumerate(game.players)]
