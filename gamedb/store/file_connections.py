"""A SQLite file opened read-only with the standard library's ``sqlite3``: one connection per thread."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..errors import DatabaseError, NoDatabase
from .file_check import check_file, check_schema, set_budget
from .location import Location
from .sqlite_file import check_sqlite_version, readonly_uri

#: gamedb's settings of every SQLite connection (as :func:`gamedb.store.database.open_engine` sets them)
PRAGMAS = (
    "PRAGMA foreign_keys = ON",
    "PRAGMA cache_size = -131072",  # 128 MiB page cache at most
    "PRAGMA temp_store = MEMORY",
)


class FileConnections:
    """Connections to one SQLite file for reading, one per thread, all closed by :meth:`close`."""

    #: no game rows kept: another process may write the file meanwhile (:class:`~gamedb.store.duckdb_file.DuckDBConnections` keeps them)
    game_rows: dict[str, dict[str, Any]] | None = None

    def __init__(self, location: Location, *, budget: float | None) -> None:
        path = location.path
        assert location.is_file and path is not None
        check_sqlite_version()
        if not path.exists():
            raise NoDatabase(f"no database at {path}")
        check_file(path, location.text)  # before SQLite opens it: a FIFO would block the open
        self.uri = readonly_uri(path)  # nothing written, in the file or beside it
        self.budget = budget
        self._local = threading.local()
        self._opened: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        try:
            # (a file that is not SQLite's fails at the first pragma already)
            self.revision = check_schema(self.connection(), location.shown, budget=budget)  # nothing of the file runs before this
        except sqlite3.DatabaseError as exc:
            self.close()
            reason = str(exc)
            raise DatabaseError(f"cannot open {location.shown} as a gamedb database: {reason.splitlines()[0] if reason else reason}") from None
        except BaseException:
            self.close()
            raise

    def connection(self) -> sqlite3.Connection:
        """This thread's connection (opened on its first read)."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.uri, uri=True, timeout=30, check_same_thread=False)  # closed from any thread
            try:
                set_budget(conn, self.budget)  # trusted_schema off first
                for pragma in PRAGMAS:
                    conn.execute(pragma)
            except BaseException:
                conn.close()
                raise
            self._local.conn = conn
            with self._lock:
                self._opened.append(conn)
        return conn

    @contextmanager
    def unbudgeted(self) -> Iterator[sqlite3.Connection]:
        """This thread's connection without its time budget, for a read known to scan a whole game."""
        conn = self.connection()
        if self.budget is None:
            yield conn
            return
        set_budget(conn, None)
        try:
            yield conn
        finally:
            set_budget(conn, self.budget)

    def close(self) -> None:
        with self._lock:
            opened, self._opened = self._opened, []
        for conn in opened:
            conn.close()
        self._local = threading.local()
