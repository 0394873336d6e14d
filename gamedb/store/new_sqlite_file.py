"""The sink of a new SQLite file, written with ``sqlite3`` alone (SQLAlchemy's import is longer than a small solve).

Built as ``.NAME.PID.new`` (journal and syncs off: nothing reads it before it is complete), finished (``ANALYZE``), synced
and linked to its name with ``os.link``, which never replaces a file made meanwhile (:class:`TargetTaken`); anything that
goes wrong removes it: the target never exists half written. :class:`~gamedb.store.new_duckdb_file.NewDuckdbFile` is the same
for a DuckDB file.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from .location import remove_file
from .move_labels import MoveLabels, with_label_ids
from .sink import DEFER_INDEXES_FROM, JSON_COLUMNS, LEAVE_INDEXES_FROM, Begun, Column, column_inserts, new_game_row, player_rows
from .sqlite_file import ANALYSIS_LIMIT, STAMP, new_file_statements

if TYPE_CHECKING:
    from ..answers import Answer
    from ..games.base import Game
    from .rows import Reader

    #: what a new file's ``read_back`` gives the solve's summary: the start's stored answer and its stored reachable count
    StartRead = tuple[Answer, int | None]


class TargetTaken(Exception):
    """The file appeared while the new one was written: nothing was put in its place."""


def _encoded(row: dict[str, Any]) -> tuple[Any, ...]:
    """A ``game`` row's values as stored, in its order: JSON columns as text."""
    return tuple(json.dumps(v) if k in JSON_COLUMNS else v for k, v in row.items())


class NewSqliteFile:
    """``with NewSqliteFile(path, revision, name, game, strategy) as sink: ...``; see the module."""

    def __init__(self, path: Path, revision: str, name: str, game: Game, strategy: str, read_back: Callable[[Reader], StartRead] | None = None) -> None:
        self.path = path
        #: what reads the complete file on its writer's connection before it is closed (the solve's summary: the start's
        #: stored value, read as every reader reads it, without opening the file again: 0.06 s of a cat-mouse solve);
        #: its result in :attr:`read` once :meth:`finish` is done
        self.read_back = read_back
        self.read: StartRead | None = None
        self.revision = revision
        self.name = name
        self.game = game
        self.strategy = strategy
        self.temp = path.with_name(f".{path.name}.{os.getpid()}.new")
        self._conn: Any = None
        self._id: int | None = None
        self._updates: dict[str, Any] = {}  # the game row's columns to set at finish()
        self._staged: dict[str, str] = {}  # table -> the temporary table its load goes into first
        self._labels = MoveLabels()  # the game's move labels (a new file holds no other game)

    @property
    def conn(self) -> Any:
        assert self._conn is not None, "used outside its with block"
        return self._conn

    @property
    def game_id(self) -> int:
        assert self._id is not None, "used before begin()"
        return self._id

    def __enter__(self) -> NewSqliteFile:
        self._remove()  # a killed solve of this process id's predecessor
        try:
            self._conn = self._create()
        except BaseException:
            self.abort()
            raise
        return self

    def _create(self) -> Any:
        """The temporary file's connection, its schema made, inside the one transaction of the solve."""
        conn = sqlite3.connect(self.temp, isolation_level=None)
        self._conn = conn
        conn.execute("PRAGMA journal_mode = OFF")  # private until linked: a failure deletes it
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute("BEGIN")
        for statement in new_file_statements():
            conn.execute(statement)
        conn.execute(STAMP, (self.revision,))
        return conn

    def begin(self) -> Begun:
        row = new_game_row(self.name, self.game, self.strategy)
        found = self.conn.execute(f"INSERT INTO game ({', '.join(row)}) VALUES ({', '.join('?' * len(row))}) RETURNING id", _encoded(row)).fetchone()
        assert found is not None
        self._id = int(found[0])
        self.rows("player", player_rows(self._id, self.game))
        return Begun(self._id, row["status"], {}, False)

    def clear(self, tables: Sequence[str]) -> None:
        if "position" in tables:  # (their best moves' labels go with them)
            tables = [*tables, "move_label"]
            self._labels = MoveLabels()
        for name in tables:
            self.conn.execute(f"DELETE FROM {name} WHERE game_id = ?", (self.game_id,))

    def rows(self, table: str, rows: list[dict[str, Any]]) -> None:
        if rows:
            names = list(rows[0])
            self.conn.executemany(f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})", [tuple(r.values()) for r in rows])

    @property
    def writes_outside_gil(self) -> bool:
        return False

    def columns(self, table: str, columns: Mapping[str, Column]) -> None:
        for sql, rows in column_inserts(self._staged.get(table, table), self._with_label_ids(table, columns), {"game_id": self.game_id}):
            self.conn.executemany(sql, rows)

    def _with_label_ids(self, table: str, columns: Mapping[str, Column]) -> Mapping[str, Column]:
        """``columns`` with the best moves as label ids, the labels met first in them written (:mod:`.move_labels`)."""
        columns = with_label_ids(self._labels, table, columns)
        new = self._labels.unwritten()
        if new is not None:  # (most batches meet no new label)
            self._labels_written(new)
        return columns

    def _labels_written(self, new: Mapping[str, Column]) -> None:
        """The ``move_label`` columns ``new`` written (few rows: a statement for them all)."""
        for sql, rows in column_inserts("move_label", new, {"game_id": self.game_id}):
            self.conn.executemany(sql, rows)

    def loading(self, table: str, rows: int, notes: dict[str, Any] | None = None) -> AbstractContextManager[None]:
        return self._loading(table, rows, notes)

    @contextmanager
    def _loading(self, table: str, rows: int, notes: dict[str, Any] | None) -> Iterator[None]:
        """A large load goes in without the table's secondary indexes, built after it; from :data:`LEAVE_INDEXES_FROM` rows, left out."""
        indexes = [] if rows < DEFER_INDEXES_FROM else self.conn.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name", (table,)).fetchall()
        for name, _ in indexes:
            self.conn.execute(f"DROP INDEX {name}")
        left_out = bool(indexes) and rows >= LEAVE_INDEXES_FROM  # a game that large has no texts to index (`db index` builds them)
        if notes is not None:
            notes.update(indexes_dropped=bool(indexes), indexes_left_out=left_out)
        staged = bool(indexes) and self.conn.execute(f"SELECT NOT EXISTS (SELECT 1 FROM {table})").fetchone()[0]
        if staged:  # rows inserted in key order leave every b-tree page 88 % full; a copy into the empty table packs them
            sql = self.conn.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)).fetchone()[0]
            self.conn.execute(sql.replace(f"CREATE TABLE {table} (", f"CREATE TEMP TABLE {table}_load (", 1))
            self._staged[table] = f"temp.{table}_load"
        yield
        if staged:  # (SQLite's transfer optimization: pages filled in order, as VACUUM fills them; 22.0 -> 19.4 bytes a row)
            del self._staged[table]
            self.conn.execute(f"INSERT INTO main.{table} SELECT * FROM temp.{table}_load")
            self.conn.execute(f"DROP TABLE temp.{table}_load")
        if not left_out:
            for _, sql in indexes:
                self.conn.execute(sql)

    def update(self, **values: Any) -> None:
        """Kept until :meth:`finish`: nothing reads the row before the file is in place (a DuckDB UPDATE took 5 ms, 35 a solve)."""
        self._updates.update(values)

    def commit(self) -> None:
        """Nothing to do: the file is written whole, and put in place by :meth:`finish`."""

    def finish(self, **values: Any) -> None:
        """The last update, then the file finished (statistics, rollback-journal mode), synced and linked to its name."""
        self._updates.update(values)
        try:
            self._complete()
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

    def _update_game(self) -> None:
        """The game row's columns kept by :meth:`update` and :meth:`finish`, set in one UPDATE."""
        if self._updates:
            sets = ", ".join(f"{k} = ?" for k in self._updates)
            self.conn.execute(f"UPDATE game SET {sets} WHERE id = ?", (*_encoded(self._updates), self.game_id))

    def _complete(self) -> None:
        """The game row set; commit, leave the file as a finished one is left, and close it."""
        self._update_game()
        self.conn.execute("COMMIT")
        self.conn.execute(f"PRAGMA analysis_limit = {ANALYSIS_LIMIT}")
        self.conn.execute("ANALYZE")
        self._read_back()
        self.conn.close()

    def _read_back(self) -> None:
        """:attr:`read_back` on the complete file, committed (a failure is the solve's: nothing is linked)."""
        if self.read_back is not None:
            from .rows import Reader

            self.read = self.read_back(Reader(self.conn))

    def abort(self) -> None:
        """The temporary file removed (once linked, the file stands under its name)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        self._remove()

    def _remove(self) -> None:
        remove_file(self.temp)

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
