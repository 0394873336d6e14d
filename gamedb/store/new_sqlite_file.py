"""The sink of a new SQLite file, written with ``sqlite3`` alone (SQLAlchemy's import is longer than a small solve).

Built as ``.NAME.PID.new``, finished (``ANALYZE``), synced and linked to its name with ``os.link``, which never replaces
a file made meanwhile (:class:`TargetTaken`); anything that goes wrong removes it: the target never exists half written.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from .sink import JSON_COLUMNS, Begun, Column, column_inserts, new_game_row, player_rows
from .sqlite_file import ANALYSIS_LIMIT, STAMP, new_file_statements

if TYPE_CHECKING:
    from ..games.base import Game


class TargetTaken(Exception):
    """The file appeared while the new one was written: nothing was put in its place."""


def _encoded(row: dict[str, Any]) -> dict[str, Any]:
    """A ``game`` row's values as stored: JSON columns as text."""
    return {k: json.dumps(v) if k in JSON_COLUMNS else v for k, v in row.items()}


class NewSqliteFile:
    """``with NewSqliteFile(path, revision, name, game, strategy) as sink: ...``; see the module."""

    def __init__(self, path: Path, revision: str, name: str, game: Game, strategy: str) -> None:
        self.path = path
        self.revision = revision
        self.name = name
        self.game = game
        self.strategy = strategy
        self.temp = path.with_name(f".{path.name}.{os.getpid()}.new")
        self._conn: sqlite3.Connection | None = None
        self._id: int | None = None

    @property
    def conn(self) -> sqlite3.Connection:
        assert self._conn is not None, "used outside its with block"
        return self._conn

    @property
    def game_id(self) -> int:
        assert self._id is not None, "used before begin()"
        return self._id

    def __enter__(self) -> NewSqliteFile:
        self.temp.unlink(missing_ok=True)  # a killed solve of this process id's predecessor
        self._conn = sqlite3.connect(self.temp, isolation_level=None)
        try:
            self.conn.execute("PRAGMA journal_mode = OFF")  # private until linked: a failure deletes it
            self.conn.execute("PRAGMA synchronous = OFF")
            self.conn.execute("BEGIN")
            for statement in new_file_statements():
                self.conn.execute(statement)
            self.conn.execute(STAMP, (self.revision,))
        except BaseException:
            self.abort()
            raise
        return self

    def begin(self) -> Begun:
        row = new_game_row(self.name, self.game, self.strategy)
        cursor = self.conn.execute(f"INSERT INTO game ({', '.join(row)}) VALUES ({', '.join(':' + k for k in row)})", _encoded(row))
        assert cursor.lastrowid is not None
        self._id = cursor.lastrowid
        self.rows("player", player_rows(self._id, self.game))
        return Begun(self._id, row["status"], {}, False)

    def clear(self, tables: Sequence[str]) -> None:
        for name in tables:
            self.conn.execute(f"DELETE FROM {name} WHERE game_id = ?", (self.game_id,))

    def rows(self, table: str, rows: list[dict[str, Any]]) -> None:
        if rows:
            names = list(rows[0])
            self.conn.executemany(f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join(':' + k for k in names)})", rows)

    def columns(self, table: str, columns: Mapping[str, Column]) -> None:
        for sql, rows in column_inserts(table, columns, {"game_id": self.game_id}):
            self.conn.executemany(sql, rows)

    def loading(self, table: str, rows: int, notes: dict[str, Any] | None = None) -> AbstractContextManager[None]:
        return nullcontext()  # a small solve into empty tables: the indexes are kept

    def update(self, **values: Any) -> None:
        sets = ", ".join(f"{k} = :{k}" for k in values)
        self.conn.execute(f"UPDATE game SET {sets} WHERE id = :id_", {**_encoded(values), "id_": self.game_id})

    def commit(self) -> None:
        """Nothing to do: the file is written whole, and put in place by :meth:`finish`."""

    def finish(self, **values: Any) -> None:
        """The last update, then the file finished (statistics, rollback-journal mode), synced and linked to its name."""
        self.update(**values)
        try:
            self.conn.execute("COMMIT")
            self.conn.execute(f"PRAGMA analysis_limit = {ANALYSIS_LIMIT}")
            self.conn.execute("ANALYZE")
            self.conn.close()
            self._conn = None
            with open(self.temp, "rb+") as f:
                os.fsync(f.fileno())
            try:
                os.link(self.temp, self.path)
            except FileExistsError:
                raise TargetTaken(f"{self.path} was created while the solve ran") from None
            _sync_folder(self.path.parent)
        finally:
            self.abort()

    def abort(self) -> None:
        """The temporary file removed (once linked, the file stands under its name)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        self.temp.unlink(missing_ok=True)

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.abort()


def _sync_folder(folder: Path) -> None:
    """The new name made durable: ``fsync`` of the folder (where the system allows it)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
