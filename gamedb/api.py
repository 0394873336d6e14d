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
from typing import Iterator

from . import catalog
from .catalog import GameRecord
from .games.base import Game
from .query import Answer, positions, probe, stats
from .solve import Progress, SolveReport, solve
from .store.database import DEFAULT_PATH, open_engine
from .verify import VerifyReport, verify


class Database:
    """A gamedb database: a SQLite path (default ``gamedb.sqlite``) or a SQLAlchemy URL.

    ``create=True`` creates the file and schema if missing (solving needs
    it); ``readonly=True`` opens a SQLite file read-only for queries.
    """

    def __init__(self, db: str | os.PathLike = DEFAULT_PATH, *, create: bool = False, readonly: bool = False):
        self.location = os.fspath(db)
        self.engine = open_engine(db, create=create, readonly=readonly)

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
        record = self.game(name)
        return record, record.rules()

    # --- work -------------------------------------------------------------
    def solve(self, game: Game, name: str | None = None, *, force: bool = False, progress: Progress | None = None) -> SolveReport:
        return solve(self.engine, game, name, force=force, progress=progress)

    def probe(self, name: str, position: str | None = None) -> Answer:
        record, game = self.rules(name)
        record.require_solved()
        with self.engine.connect() as conn:
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
        record, game = self.rules(name)
        return verify(self.engine, record, game, progress=progress)
