"""The Python API: one object per database file or server.

>>> from gamedb import Database, make_game
>>> db = Database("ttt.sqlite", create=True)
>>> db.solve(make_game("tictactoe")).positions
5478
>>> db.probe("tictactoe").result
'tie'
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Iterable, Iterator

import sqlalchemy as sa

from .store import catalog
from .store.catalog import GameRecord
from .games.base import Game
from .query import Answer, positions, probe, stats
from .store.database import DEFAULT_PATH, open_engine

if TYPE_CHECKING:  # solving, verifying and sharing are imported when used: a query process starts faster
    from .store.compact import CompactReport
    from .progress import Progress
    from .solvers.solve import SolveReport
    from .store.transfer import CopyReport
    from .solvers.checks import VerifyReport


_GAME_ROW = sa.text("SELECT * FROM game WHERE name = :n")


class Database:
    """A gamedb database: a SQLite path (default ``gamedb.sqlite``) or a SQLAlchemy URL.

    ``create=True`` creates the file and schema if missing (solving needs
    it); ``readonly=True`` opens a SQLite file read-only for queries.
    ``game_classes`` are the ``module:Class`` game classes the caller trusts
    a stored game to name (a file never chooses code on its own); a game
    this object solves from such a class is trusted too.
    """

    def __init__(
        self,
        db: str | os.PathLike = DEFAULT_PATH,
        *,
        create: bool = False,
        readonly: bool = False,
        game_classes: Iterable[str] = (),
    ):
        self.location = os.fspath(db)
        self.game_classes = set(game_classes)
        self.engine = open_engine(db, create=create, readonly=readonly)
        # (family, rules version, parameters) -> the rules: building them (a
        # large graph validated) costs more than a query
        self._rules: dict[str, tuple[tuple, GameRecord, Game]] = {}  # name -> (game row, record, rules)

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> "Database":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- games ------------------------------------------------------------
    def games(self) -> list[GameRecord]:
        with self.engine.connect() as conn:
            return catalog.all_games(conn)

    def game(self, name: str) -> GameRecord:
        with self.engine.connect() as conn:
            return catalog.get(conn, name)

    def rules(self, name: str) -> tuple[GameRecord, Game]:
        """The stored game and its rules.

        The row is read afresh; the rules are kept between calls for the
        same family, rules version and parameters: rebuilding them (parsing
        and validating a large graph) costs far more than answering a query.
        """
        with self.engine.connect() as conn:
            return self._rules_on(conn, name)

    def _rules_on(self, conn, name: str) -> tuple[GameRecord, Game]:
        # one read of the game row, its JSON left as stored: while the row is unchanged the
        # record and the rules (parsing and validating a large graph) come from the cache
        row = conn.execute(_GAME_ROW, {"n": name}).first()
        if row is None:
            catalog.get(conn, name)  # raises GameNotFound, naming the stored games
        cached = self._rules.get(name)
        if cached is not None and cached[0] == tuple(row):
            return cached[1], cached[2]
        record = catalog.record_from_row(row)
        game = record.rules(self.game_classes)
        self._rules[name] = (tuple(row), record, game)
        return record, game

    # --- work -------------------------------------------------------------
    def solve(
        self,
        game: Game,
        name: str | None = None,
        *,
        force: bool = False,
        progress: Progress | None = None,
        engine: str = "auto",
        memory_limit: int | str | None = None,
    ) -> SolveReport:
        """Solve ``game``; ``engine`` is ``auto``, ``sql`` or ``memory`` (see :func:`gamedb.solvers.solve.solve`)."""
        from .solvers.solve import solve
        from .store.tuning import parse_size

        limit = None if memory_limit is None else parse_size(memory_limit)
        key = catalog.family_key(game)
        if ":" in key:  # the caller handed us this class: its stored games may load it again
            self.game_classes.add(key)
        return solve(self.engine, game, name, force=force, progress=progress, method=engine, memory_limit=limit)

    def probe(self, name: str, position: str | None = None) -> Answer:
        with self.engine.connect() as conn:  # one connection for the game's rules and the lookups
            record, game = self._rules_on(conn, name)
            record.require_solved()
            return probe(conn, record, game, position)

    def stats(self, name: str) -> dict:
        record = self.game(name)
        with self.engine.connect() as conn:
            return stats(conn, record)

    def positions(self, name: str) -> Iterator[dict]:
        record = self.game(name)
        record.require_solved()
        return positions(self.engine, record)

    def verify(self, name: str, *, progress: Progress | None = None) -> VerifyReport:
        from .solvers.checks import verify

        record, game = self.rules(name)
        return verify(self.engine, record, game, progress=progress)

    # --- sharing ------------------------------------------------------------
    def compact(self, name: str) -> "CompactReport":
        """Drop the solved game's move rows (queries and verify do not read them) and reclaim the space."""
        from .store.compact import compact

        return compact(self.engine, self.game(name))

    def copy_to(
        self, other: "Database", names: Iterable[str] | None = None, *, force: bool = False, progress: Progress | None = None
    ) -> "CopyReport":
        """Copy solved games (all, or those named) into another database, e.g. SQLite -> PostgreSQL."""
        from .store.transfer import copy_games

        return copy_games(self.engine, other.engine, names, force=force, progress=progress)
