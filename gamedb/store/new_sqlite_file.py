"""A new gamedb SQLite file written with the standard library alone, and put in place only when complete.

The full path opens a file through SQLAlchemy, whose import alone takes
longer than a small solve's whole budget (issue 12: ``gamedb solve nim --max
13`` in 0.3 s). A solve small enough to be written in one transaction
(:mod:`gamedb.solvers.new_file`) into a file that does not exist yet
uses this instead:

- the file is built under a temporary name in the same folder
  (``.NAME.PID.new``), with the same statements as the full path's new file
  (:func:`~gamedb.store.sqlite_schema.new_file_statements`) and the rows the
  solver's own row builders give; no journal and no syncs while it is
  private, one ``fsync`` at the end;
- it is finished as the full path finishes a file (sampled ``ANALYZE``,
  rollback-journal mode) and then linked to its name with ``os.link``, which
  fails rather than replace a file another process made meanwhile
  (:class:`TargetTaken`: the caller goes the full way, which finds that file);
- anything that goes wrong removes the temporary file; the target never
  exists half written, and a reader never sees it before it is solved.

Values are encoded as SQLAlchemy encodes them for the ``game`` table (JSON
columns with ``json.dumps``, booleans as 0/1): ``tests/test_new_file_solve.py``
compares every row of such a file with the full path's.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from types import TracebackType
from typing import Any

from .game_rows import JSON_COLUMNS
from .insert_sql import column_inserts, names_values
from .sqlite_file import ANALYSIS_LIMIT
from .sqlite_schema import STAMP, new_file_statements


class TargetTaken(Exception):
    """The file appeared while the new one was written: nothing was put in its place."""


def _encoded(row: dict[str, Any]) -> dict[str, Any]:
    """A ``game`` row's values as stored: JSON columns as text."""
    return {k: json.dumps(v) if k in JSON_COLUMNS else v for k, v in row.items()}


class NewSqliteFile:
    """``with NewSqliteFile(path, revision) as new: new.insert_game(...) ...``: see the module."""

    def __init__(self, path: Path, revision: str) -> None:
        self.path = path
        self.revision = revision
        self.temp = path.with_name(f".{path.name}.{os.getpid()}.new")
        self._conn: sqlite3.Connection | None = None

    @property
    def conn(self) -> sqlite3.Connection:
        assert self._conn is not None, "used outside its with block"
        return self._conn

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
            self._discard()
            raise
        return self

    def insert_game(self, row: dict[str, Any]) -> int:
        """Insert the ``game`` row (values by column, as :func:`~gamedb.store.game_rows.new_game_row`); its id."""
        names = ", ".join(row)
        cursor = self.conn.execute(f"INSERT INTO game ({names}) VALUES ({', '.join(':' + k for k in row)})", _encoded(row))
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def update_game(self, game_id: int, values: dict[str, Any]) -> None:
        """Set columns of the ``game`` row."""
        sets = ", ".join(f"{k} = :{k}" for k in values)
        self.conn.execute(f"UPDATE game SET {sets} WHERE id = :id_", {**_encoded(values), "id_": game_id})

    def insert_rows(self, table: str, rows: list[dict[str, Any]]) -> None:
        """Insert rows given as dicts with the same keys."""
        if rows:
            names = list(rows[0])
            self.conn.executemany(f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join(':' + k for k in names)})", rows)

    def insert_tuples(self, table: str, columns: tuple[str, ...], rows: list[tuple[Any, ...]], *, game_id: int) -> None:
        """Insert rows given as tuples in ``columns`` order, every one with ``game_id``, as
        :func:`gamedb.store.bulk.copy_rows` does."""
        names, values = names_values(columns, {"game_id": game_id})
        self.conn.executemany(f"INSERT INTO {table} ({names}) VALUES ({values})", rows)

    def insert_columns(self, table: str, columns: dict[str, list[Any]], *, game_id: int) -> None:
        """Insert rows given column by column, as :func:`gamedb.store.bulk.copy_columns` does."""
        for sql, rows in column_inserts(table, columns, {"game_id": game_id}):
            self.conn.executemany(sql, rows)

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if kind is not None:
            self._discard()
            return
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
            self._discard()

    def _discard(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        self.temp.unlink(missing_ok=True)


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
