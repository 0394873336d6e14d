"""The :class:`~gamedb.store.sink.Sink` of a database opened through SQLAlchemy: SQLite or PostgreSQL.

Rows go through the bulk paths of :mod:`gamedb.store.bulk` (multi-row INSERTs
on SQLite, ``COPY`` on PostgreSQL), on one connection whose transaction is
committed where the solver commits: what it committed survives a killed
solve, the rest is rolled back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import TracebackType
from typing import Any

import sqlalchemy as sa

from . import catalog
from .bulk import copy_columns, copy_rows, indexes_built_after, insert_rows
from .record import GameRecord
from .schema import metadata
from .sink import Begun


class SqlSink:
    """``with SqlSink(engine, begin, resumed=...) as sink: ...``; ``begin(conn)`` gives the game row to fill,
    made inside the sink's first transaction (:meth:`gamedb.solvers.protocol.SolveJob.begin`), or the stored
    one of an unfinished solve (``resumed``)."""

    def __init__(self, engine: sa.Engine, begin: Callable[[sa.Connection], GameRecord], *, resumed: bool) -> None:
        self.engine = engine
        self._begin = begin
        self._resumed = resumed
        self._conn: sa.Connection | None = None
        self._record: GameRecord | None = None

    @property
    def conn(self) -> sa.Connection:
        assert self._conn is not None, "used outside its with block"
        return self._conn

    @property
    def record(self) -> GameRecord:
        assert self._record is not None, "used before begin()"
        return self._record

    def __enter__(self) -> SqlSink:
        self._conn = self.engine.connect()
        return self

    def begin(self) -> Begun:
        self._record = record = self._begin(self.conn)
        return Begun(record.id, record.status, dict(record.progress or {}), self._resumed)

    def clear(self, tables: Sequence[str]) -> None:
        for name in tables:
            self.conn.execute(sa.text(f"DELETE FROM {name} WHERE game_id = :g"), {"g": self.record.id})

    def rows(self, table: str, rows: list[dict[str, Any]]) -> None:
        insert_rows(self.conn, metadata.tables[table], rows)

    def tuples(self, table: str, columns: Sequence[str], rows: list[tuple[Any, ...]]) -> None:
        copy_rows(self.conn, metadata.tables[table], columns, rows, game_id=self.record.id)

    def columns(self, table: str, columns: dict[str, list[Any]]) -> None:
        copy_columns(self.conn, metadata.tables[table], columns, game_id=self.record.id)

    @contextmanager
    def loading(self, table: str, rows: int) -> Iterator[None]:
        with indexes_built_after(self.conn, metadata.tables[table], rows):
            yield

    def update(self, **values: Any) -> None:
        catalog.update(self.conn, self.record, **values)

    def commit(self) -> None:
        self.conn.commit()

    def finish(self, **values: Any) -> None:
        self.update(**values)
        self.commit()
        self._close()

    def abort(self) -> None:
        if self._conn is not None:
            self._conn.rollback()
        self._close()

    def _close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.abort()
