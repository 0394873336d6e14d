"""The :class:`~gamedb.store.sink.Sink` of a database opened through SQLAlchemy: SQLite or PostgreSQL.

Rows go through the bulk paths of :mod:`gamedb.store.bulk` (multi-row INSERTs
on SQLite, ``COPY`` on PostgreSQL), on one connection whose transaction is
committed where the solver commits: what it committed survives a killed
solve, the rest is rolled back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
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
        self.conn: sa.Connection  # set on entering the with block
        self.record: GameRecord  # set by begin()

    def __enter__(self) -> SqlSink:
        self.conn = self.engine.connect()
        return self

    def begin(self) -> Begun:
        self.record = record = self._begin(self.conn)
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

    def loading(self, table: str, rows: int) -> AbstractContextManager[None]:
        return indexes_built_after(self.conn, metadata.tables[table], rows)

    def update(self, **values: Any) -> None:
        catalog.update(self.conn, self.record, **values)

    def commit(self) -> None:
        self.conn.commit()

    def finish(self, **values: Any) -> None:
        self.update(**values)
        self.commit()

    def abort(self) -> None:
        self.conn.rollback()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.conn.close()  # what was not committed is rolled back
