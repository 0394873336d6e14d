"""The DuckDB file at a path, followed by a long-lived reader (``gamedb serve``) as
:class:`~gamedb.store.file_connections.FileConnections` follows a SQLite file: a file moved into its place is checked
as the first one was and answered from then on; a removed one is said.

DuckDB keeps one database a path in a process (its instance cache): while any connection to the file first opened is
open, opening the path again answers from that file, even once another is at the path. So a switch waits until no read
is in progress, closes the old file's connections, then opens and checks the new file; reads begun meanwhile wait."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from .duckdb_file import DuckDBConnections
from .file_connections import file_at, require_readable

if TYPE_CHECKING:
    from .location import Location


class FollowedDuckDBFile:
    """:class:`~gamedb.store.duckdb_file.DuckDBConnections` of the file at the path when each read begins."""

    def __init__(self, location: Location, *, budget: float | None) -> None:
        assert location.path is not None
        self._location, self._budget = location, budget
        self._files: DuckDBConnections | None = DuckDBConnections(location, budget=budget)
        self._file: tuple[int, int] | None = file_at(location.path, location.shown)
        self.revision = self._files.revision
        self._changed = threading.Condition()  # held to switch files, to count reads in and out
        self._reads = 0  # reads in progress, all on self._files
        self._local = threading.local()  # this thread's reads in progress: a read within a read does not wait for itself

    @property
    def game_rows(self) -> dict[str, dict[str, Any]]:
        """The game rows read from the file read now (during a read: its file's)."""
        assert self._files is not None
        return self._files.game_rows

    @contextmanager
    def reading(self, *, scan: bool = False) -> Iterator[Any]:
        """This thread's cursor on the file at the path now, for one read (no switch before it ends)."""
        depth = getattr(self._local, "depth", 0)
        with self._changed:
            if not depth:
                self._follow()
            files = self._files
            assert files is not None
            self._reads += 1
        self._local.depth = depth + 1
        try:
            with files.reading(scan=scan) as conn:
                yield conn
        finally:
            self._local.depth = depth
            with self._changed:
                self._reads -= 1
                if not self._reads:
                    self._changed.notify_all()

    def _follow(self) -> None:
        """Switch to the file at the path if it is another (holding :attr:`_changed`): once no read is in progress."""
        assert self._location.path is not None
        while True:
            found = file_at(self._location.path, self._location.shown)
            if found == self._file and self._files is not None:
                return
            if not self._reads:
                break
            self._changed.wait()
        self.close()  # first: DuckDB would open the old file again while a connection to it is open
        files = DuckDBConnections(self._location, budget=self._budget)  # refused: each read tries again, the old file closed
        try:
            require_readable(files.revision, self._location.shown)
        except BaseException:
            files.close()
            raise
        self._files, self._file, self.revision = files, found, files.revision

    def close(self) -> None:
        files, self._files = self._files, None
        if files is not None:
            files.close()
