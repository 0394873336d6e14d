"""The :class:`~gamedb.store.sink.Sink` of a database opened through SQLAlchemy (bulk rows, committed where the writer commits)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from types import TracebackType
from typing import Any

import sqlalchemy as sa

from . import catalog
from .bulk import build_secondary_indexes, copy_columns, drop_secondary_indexes, insert_rows, rows_before_load
from .move_labels import LabelList, MoveLabels, stored_labels, with_label_ids
from .part_files import parquet_labels, parquet_loaded, part_labels, part_loaded, parts_for
from .record import GameRecord
from .schema import metadata
from .sink import LEAVE_INDEXES_FROM, Begun, Column


class SqlSink:
    """``with SqlSink(engine, begin, resumed=...) as sink: ...``; ``begin(conn)`` gives the game row to fill (or the stored one).
    ``ids_given``: the best moves handed are ids of labels already written (a copy writes ``move_label`` first), kept."""

    def __init__(self, engine: sa.Engine, begin: Callable[[sa.Connection], GameRecord], *, resumed: bool, ids_given: bool = False) -> None:
        self.engine = engine
        self._begin = begin
        self._resumed = resumed
        self._ids_given = ids_given
        self.conn: sa.Connection  # set on entering the with block
        self.record: GameRecord  # set by begin()
        self._labels: MoveLabels | None = None  # the game's move labels, read when first needed (a solve resumed has some)
        self._part_labels: dict[Path, LabelList] = {}  # the label lists of the part files loaded

    def __enter__(self) -> SqlSink:
        self.conn = self.engine.connect()
        return self

    def begin(self) -> Begun:
        self.record = record = self._begin(self.conn)
        return Begun(record.id, record.status, dict(record.progress or {}), self._resumed)

    def clear(self, tables: Sequence[str]) -> None:
        if "position" in tables:  # (their best moves' labels go with them)
            tables = [*tables, "move_label"]
            self._labels = None
        for name in tables:
            self.conn.execute(sa.text(f"DELETE FROM {name} WHERE game_id = :g"), {"g": self.record.id})

    def rows(self, table: str, rows: list[dict[str, Any]]) -> None:
        insert_rows(self.conn, metadata.tables[table], rows)

    def columns(self, table: str, columns: Mapping[str, Column]) -> None:
        if table == "position" and "best_move" in columns and not self._ids_given:
            columns = with_label_ids(self._stored_labels(), table, columns)
            self._write_labels()
        copy_columns(self.conn, metadata.tables[table], columns, game_id=self.record.id)

    def _stored_labels(self) -> MoveLabels:
        """The game's move labels (:mod:`.move_labels`): those stored, read when first needed (a resumed solve has some)."""
        if self._labels is None:
            found = self.conn.execute(sa.text("SELECT id, name FROM move_label WHERE game_id = :g"), {"g": self.record.id}).all()
            self._labels = MoveLabels(stored_labels(found))
        return self._labels

    def _write_labels(self) -> None:
        """The labels met since the last call written (as columns: DuckDB's executemany runs a statement a row)."""
        assert self._labels is not None
        new = self._labels.unwritten()
        if new is not None:
            copy_columns(self.conn, metadata.tables["move_label"], new, game_id=self.record.id)

    @property
    def parts(self) -> str | None:
        """The part files (:mod:`.part_files`) this database loads: ``sqlite`` (a code range's rows a file), ``parquet`` (a
        slice's rows a file, read by code range), or None (none: it takes columns)."""
        return parts_for(self.engine.dialect.name)

    def part(self, table: str, paths: Sequence[Path], codes: tuple[int, int]) -> AbstractContextManager[int]:
        """The rows of the part files ``paths`` (:attr:`parts`: one SQLite file; Parquet files, those of ``codes``, low to
        high excluded, loaded in code order) inserted into ``table``, their count given to the block, which commits them.
        Their best moves index the label lists they carry: numbered here among the game's labels, written before the rows."""
        parquet = self.parts == "parquet"
        lists = []
        for path in paths:  # (a Parquet part is read by every range it overlaps: its footer once)
            if path not in self._part_labels:
                self._part_labels.update(zip(paths, parquet_labels(self.conn, paths) if parquet else [part_labels(path)], strict=True))
            lists.append(self._part_labels[path])
        ids = self._stored_labels().in_parts(lists, codes)
        if parquet:
            self._write_labels()
            return parquet_loaded(self.conn, table, paths, codes, self.record.id, ids)
        (path,) = paths
        del self._part_labels[path]  # (loaded once)
        return part_loaded(self.conn, table, path, self.record.id, ids[0], before=self._write_labels)  # (once attached)

    @property
    def writes_outside_gil(self) -> bool:
        return bool(self.engine.dialect.name == "duckdb")

    @contextmanager
    def loading(self, table: str, rows: int, notes: dict[str, Any] | None = None) -> Iterator[None]:
        """Secondary indexes dropped for a load that outnumbers the table's rows and built after it (PostgreSQL: over several commits)."""
        conn, t = self.conn, metadata.tables[table]
        dialect = conn.dialect.name
        spans = notes is not None
        notes = {} if notes is None else notes
        if "indexes_dropped" not in notes:
            existing = rows_before_load(conn, t, rows) if dialect == "sqlite" or (spans and dialect == "postgresql") else None
            if existing is not None:
                drop_secondary_indexes(conn, t)
            notes.update(indexes_dropped=existing is not None, indexes_left_out=spans and dialect == "sqlite" and existing == 0 and rows >= LEAVE_INDEXES_FROM)
        yield
        if notes["indexes_dropped"] and not notes["indexes_left_out"]:
            build_secondary_indexes(conn, t)

    def update(self, **values: Any) -> None:
        catalog.update(self.conn, self.record, **values)

    def commit(self) -> None:
        self.conn.commit()

    def finish(self, **values: Any) -> None:
        if values:
            self.update(**values)
        self.commit()

    def abort(self) -> None:
        self.conn.rollback()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.conn.close()  # what was not committed is rolled back
