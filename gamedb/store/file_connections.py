"""A SQLite file opened read-only with the standard library's ``sqlite3``: one connection per thread."""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any

from ..errors import DatabaseError, NoDatabase, param
from .file_check import check_file, check_schema, set_budget
from .location import Location, upgrade_command
from .sqlite_file import check_sqlite_version, readable, readonly_uri

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

    def __init__(self, location: Location, *, budget: float | None, follow_path: bool = False) -> None:
        """``follow_path`` (a server): each read reads the file at the path now (:meth:`_follow_path`); else a thread reads
        the file it opened to the end (a command's reads one file, even if another is moved into its place meanwhile)."""
        path = location.path
        assert location.is_file and path is not None
        check_sqlite_version()
        if not path.exists():
            raise NoDatabase(f"no database at {path}")
        check_file(path, location.text)  # before SQLite opens it: a FIFO would block the open
        self.path, self.shown, self._file, self.follow_path = path, location.shown, file_at(path, location.shown), follow_path
        self.uri = readonly_uri(path)  # nothing written, in the file or beside it
        self.budget = budget
        self._generation = 0  # one more each time another file is found at the path (:meth:`_follow_path`)
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
        """This thread's connection (opened on its first read; following the path, again once another file is there)."""
        if self.follow_path:
            self._follow_path()
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is not None and self._local.generation != self._generation:  # a connection to the file that was there
            with self._lock:
                if conn in self._opened:  # (unless close() closed it)
                    self._opened.remove(conn)
            conn.close()
            conn = None
        if conn is None:
            conn = sqlite3.connect(self.uri, uri=True, timeout=30, check_same_thread=False)  # closed from any thread
            try:
                set_budget(conn, self.budget)  # trusted_schema off first
                for pragma in PRAGMAS:
                    conn.execute(pragma)
            except BaseException:
                conn.close()
                raise
            self._local.conn, self._local.generation = conn, self._generation
            with self._lock:
                self._opened.append(conn)
        return conn

    def _follow_path(self) -> None:
        """Read the file at the path, as every thread does: a file moved into its place (``mv new.sqlite games.sqlite``)
        is checked as the first one was and read from then on; a removed file is said (a thread's connection to the
        old file would answer from it, and a thread opening one would not find it)."""
        found = file_at(self.path, self.shown)
        if found == self._file:
            return
        with self._lock:
            if found == self._file:
                return
            check_file(self.path, self.shown)
            uri = readonly_uri(self.path)
            conn = sqlite3.connect(uri, uri=True, timeout=30)
            try:
                revision = check_schema(conn, self.shown, budget=self.budget)
            except sqlite3.DatabaseError as exc:
                reason = str(exc).splitlines()[0] if str(exc) else str(exc)
                raise DatabaseError(f"cannot open {self.shown} as a gamedb database: {reason}") from None
            finally:
                conn.close()
            require_readable(revision, self.shown)
            self.uri, self.revision, self._file = uri, revision, found
            self._generation += 1

    def reading(self, *, scan: bool = False) -> AbstractContextManager[sqlite3.Connection]:
        """This thread's connection for one read; ``scan``: without its time budget (:meth:`unbudgeted`)."""
        return self.unbudgeted() if scan else nullcontext(self.connection())

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


def file_at(path: os.PathLike[str], shown: str) -> tuple[int, int]:
    """Which file is at ``path`` (its device and inode: another once a file is moved into its place); an error saying
    the file was removed if none is (``shown``: its name in the message)."""
    try:
        found = os.stat(path)
    except FileNotFoundError:
        raise NoDatabase(f"the database file {shown} was removed while it was being read (put it back, or start again with another {param('db')})") from None
    return found.st_dev, found.st_ino


def require_readable(revision: str | None, shown: str) -> None:
    """Refuse a file put in place of a followed one that the readers cannot answer from (an older schema)."""
    if not readable(revision):
        raise DatabaseError(f"cannot read {shown}, put in place while it was being read: run `{upgrade_command(shown)}`, then start again")
