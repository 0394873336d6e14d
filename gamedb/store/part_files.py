"""Part files: rows written by a cluster worker, loaded by the one writer of the database.

Into SQLite, a code range of rows as a SQLite file: the worker pays what binding Python values costs (about 0.5 µs a
row); the writer copies the rows inside SQLite (``ATTACH`` + ``INSERT ... SELECT``: 0.45 µs a row, against 0.9 µs for
``executemany``). Into DuckDB, a slice's rows as a Parquet file, written as the slice is solved: the writer reads a code
range of every part at once, sorted, on all its threads (15.8·10^6 rows: 2.9 s on 2 threads, against 4.3 s from numpy
columns on the one thread DuckDB scans them with). A part is written under a temporary name and renamed (a task run
twice keeps the first one's).

A part's best moves are indices into a list of label names it carries (:class:`~.move_labels.LabelList`: a SQLite
part's table ``part_label``, a Parquet part's key-value metadata): the writer numbers them through its
:class:`~.move_labels.MoveLabels`, as it numbers the labels of any rows, and the load maps the indices to those ids.
"""

from __future__ import annotations

import gc
import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import closing, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import GamedbError
from .duckdb_file import quoted
from .duckdb_rewrite import ROW_GROUP  # (a part's row groups: DuckDB's; the writer skips those outside its code range)
from .move_labels import LabelList
from .sink import Column, LabelColumn, column_inserts, values_of

if TYPE_CHECKING:
    import sqlalchemy as sa

#: the table of a part file (its columns: those given to :func:`write_part`, untyped, in row order), and that of its
#: label names (``name``, ``first``: :class:`~.move_labels.LabelList`, by rowid)
PART_TABLE = "part"
PART_LABELS = "part_label"
#: a Parquet part's key-value metadata that holds its label names (JSON: ``names``, ``firsts``)
LABELS_KEY = "gamedb_labels"
#: a SQLite part's rows a statement (its sqlite3 binds 32766 values), its page size, and the garbage collector off: 0.62 to
#: 0.87 µs a row with 100 rows a statement and pages of 4 KiB, 0.47 so (2^19 rows)
PART_ROWS_PER_INSERT = 1000
PART_PAGE = 65536


def parts_for(dialect: str) -> str | None:
    """The part files a database of ``dialect`` loads: ``sqlite`` (a code range's rows a file), ``parquet`` (a slice's rows a
    file, read by code range), or None (none: PostgreSQL takes columns)."""
    return {"sqlite": "sqlite", "duckdb": "parquet"}.get(dialect)


def indexed(columns: Mapping[str, Column]) -> tuple[dict[str, Column], LabelList | None]:
    """``columns`` (in code order) with the best moves as indices (-1: none) into the label list given beside them: a
    :class:`~.sink.LabelColumn`'s ids and names (a table), or labels as text in the order first met, each with its first code."""
    import numpy as np

    best = columns.get("best_move")
    if best is None:
        return dict(columns), None
    if isinstance(best, LabelColumn):
        return {**columns, "best_move": best.ids}, LabelList(list(best.names))
    labels = np.asarray(values_of(best), dtype=object)
    has = np.flatnonzero(labels != None)  # noqa: E711 (elementwise)
    names, first, inverse = np.unique(labels[has].astype(str), return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")  # (the names by the row that first meets each)
    rank = np.empty(len(order), dtype=np.int32)
    rank[order] = np.arange(len(order), dtype=np.int32)
    ids = np.full(len(labels), -1, dtype=np.int32)
    ids[has] = rank[inverse]
    firsts = np.asarray(columns["code"])[has[first[order]]]
    return {**columns, "best_move": ids}, LabelList(names[order].tolist(), firsts.tolist())


def write_part(path: Path, columns: Mapping[str, Column]) -> None:
    """Write ``columns`` as the part file ``path``, atomically (best moves: :func:`indexed`)."""
    columns, labels = indexed(columns)
    tmp = path.with_name(f"{path.name}.{os.getpid()}-{threading.get_ident()}.tmp")
    tmp.unlink(missing_ok=True)
    was = gc.isenabled()
    gc.disable()  # the rows' values hold no cycles
    try:
        with closing(sqlite3.connect(tmp, isolation_level=None)) as conn:
            conn.execute(f"PRAGMA page_size = {PART_PAGE}")
            conn.execute("PRAGMA journal_mode = OFF")  # private until renamed
            conn.execute("PRAGMA synchronous = OFF")
            conn.execute("BEGIN")
            conn.execute(f"CREATE TABLE {PART_TABLE} ({', '.join(columns)})")
            for sql, rows in column_inserts(PART_TABLE, columns, {}, PART_ROWS_PER_INSERT):
                conn.executemany(sql, rows)
            if labels is not None:
                conn.execute(f"CREATE TABLE {PART_LABELS} (name, first)")
                firsts = labels.firsts if labels.firsts is not None else [None] * len(labels.names)
                conn.executemany(f"INSERT INTO {PART_LABELS} VALUES (?, ?)", zip(labels.names, firsts, strict=True))
            conn.execute("COMMIT")
    finally:
        if was:
            gc.enable()
    tmp.replace(path)


def part_labels(path: Path) -> LabelList:
    """The label list of the SQLite part ``path`` (read on a connection of its own: the load attaches the part later)."""
    with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as conn:
        try:
            rows = conn.execute(f"SELECT name, first FROM {PART_LABELS} ORDER BY rowid").fetchall()
        except sqlite3.OperationalError:
            raise _other_version(path) from None
    names = [name for name, _ in rows]
    firsts = [first for _, first in rows]
    return LabelList(names, None if rows and firsts[0] is None else firsts)


def _other_version(path: Path) -> GamedbError:
    return GamedbError(f"the part file {path} holds no label names (a solve begun by another version of gamedb?): "
                       f"remove the folder {path.parent} and solve again")


#: what a load selects for a part's best move whose indices are the ids of their labels (a new game's label table, or the
#: first part's labels met): no lookup a row
AS_IT_IS = "nullif(best_move, -1)"


def _indices_are_ids(label_ids: Sequence[int]) -> bool:
    return list(label_ids) == list(range(len(label_ids)))


@contextmanager
def part_loaded(
    conn: sa.Connection, table: str, path: Path, game_id: int, label_ids: Sequence[int] = (), before: Callable[[], None] | None = None
) -> Iterator[int]:
    """Insert the rows of the part file ``path`` into ``table`` as game ``game_id``'s, uncommitted, and give their count: the
    caller commits in the block (SQLite attaches a file only outside a transaction, and detaches it after). ``label_ids``:
    the id of each of the part's label names (:func:`part_labels`; -1: none), which its best moves index; ``before``: what
    to write first in the same transaction (the labels new in the part)."""
    raw = conn.connection.driver_connection
    assert raw is not None and not raw.in_transaction, "a part is loaded after a commit"
    raw.execute("ATTACH DATABASE ? AS gamedb_part", (str(path),))
    raw.execute("PRAGMA foreign_keys = OFF")  # every row's game_id is the game's: no lookup a row (0.53 -> 0.45 µs a row)
    try:
        names = [row[1] for row in raw.execute(f"PRAGMA gamedb_part.table_info({PART_TABLE})")]
        if before is not None:
            before()
        best = AS_IT_IS
        if not _indices_are_ids(label_ids):  # the ids in a table: a lookup by rowid a row
            best = "(SELECT id FROM temp.gamedb_label_ids WHERE i = best_move)"
            conn.exec_driver_sql("CREATE TEMP TABLE IF NOT EXISTS gamedb_label_ids (i INTEGER PRIMARY KEY, id INTEGER)")
            conn.exec_driver_sql("DELETE FROM temp.gamedb_label_ids")
            conn.exec_driver_sql(f"INSERT INTO temp.gamedb_label_ids VALUES {', '.join(f'({i}, {int(v)})' for i, v in enumerate(label_ids))}")
        values = [best if name == "best_move" else name for name in names]
        yield conn.exec_driver_sql(f"INSERT INTO {table} (game_id, {', '.join(names)}) SELECT {int(game_id)}, {', '.join(values)} "
                                   f"FROM gamedb_part.{PART_TABLE}").rowcount
    finally:
        if not conn.invalidated:  # (SQLAlchemy closes a connection a Ctrl-C interrupted: the attachment went with it)
            if raw.in_transaction:  # (an error before the caller's commit: what the part wrote is dropped)
                raw.rollback()
            raw.execute("DETACH DATABASE gamedb_part")
            raw.execute("PRAGMA foreign_keys = ON")


def write_parquet(path: Path, columns: Mapping[str, Column]) -> None:
    """Write ``columns`` (numpy arrays; text as objects; best moves: :func:`indexed`, their label list in the file's
    key-value metadata) as the Parquet part ``path``, atomically, through this thread's in-memory DuckDB that may write
    only in the part's folder (a new one took 16 ms)."""
    import numpy as np

    columns, labels = indexed(columns)
    tmp = path.with_name(f"{path.name}.{os.getpid()}-{threading.get_ident()}.tmp")
    conn = _parquet_writer(path.parent)
    arrays = {k: v if isinstance(v, np.ndarray) else np.asarray(v, dtype=object) for k, v in columns.items()}
    conn.register("gamedb_rows", arrays)
    try:  # (a slice of no texts: VARCHAR, not NULL-typed)
        typed = ", ".join(f"{k}::VARCHAR AS {k}" if v.dtype == object else k for k, v in arrays.items())
        meta = "" if labels is None else f", KV_METADATA {{{LABELS_KEY}: {quoted(json.dumps(labels._asdict()))}}}"
        conn.execute(f"COPY (SELECT {typed} FROM gamedb_rows) TO {quoted(tmp)} (FORMAT parquet, ROW_GROUP_SIZE {ROW_GROUP}{meta})")
    finally:
        conn.unregister("gamedb_rows")
    tmp.replace(path)


_writers = threading.local()


def _parquet_writer(folder: Path) -> Any:
    """This thread's in-memory DuckDB connection that writes in ``folder`` (made anew for another folder)."""
    from .duckdb_file import connect

    if getattr(_writers, "folder", None) != folder:
        if getattr(_writers, "conn", None) is not None:
            _writers.conn.close()
        _writers.conn, _writers.folder = connect(":memory:", read_only=False, threads=1, readable=[folder]), folder
    return _writers.conn


def parquet_labels(conn: sa.Connection, paths: Sequence[Path]) -> list[LabelList]:
    """The label lists of the Parquet parts ``paths``, in their order (read from their footers)."""
    raw = conn.connection.driver_connection
    assert raw is not None
    found = dict(raw.execute(f"SELECT file_name, value FROM parquet_kv_metadata([{', '.join(quoted(p) for p in paths)}]) "
                             f"WHERE key = {quoted(LABELS_KEY)}").fetchall())
    lists = []
    for path in paths:
        value = found.get(str(path))
        if value is None:
            raise _other_version(path)
        lists.append(LabelList(**json.loads(value)))
    return lists


@contextmanager
def parquet_loaded(
    conn: sa.Connection, table: str, paths: Sequence[Path], codes: tuple[int, int], game_id: int, label_ids: Sequence[Sequence[int]] = ()
) -> Iterator[int]:
    """Insert the rows of the Parquet parts ``paths`` whose code is in ``codes`` (low, high: high excluded) into ``table`` as
    game ``game_id``'s, in code order, uncommitted, and give their count (the connection must be allowed to read them:
    :func:`~.duckdb_file.reading`). ``label_ids``: those of each part's label names (:func:`parquet_labels`; -1: none),
    which its best moves index."""
    if not paths:
        yield 0
        return
    raw = conn.connection.driver_connection
    assert raw is not None
    names = [row[0] for row in raw.execute(f"DESCRIBE SELECT * FROM read_parquet({quoted(paths[0])})").fetchall()]
    listed = ", ".join(quoted(p) for p in paths)
    low, high = (int(c) for c in codes)
    parts = sorted(set(map(tuple, label_ids)))  # (every part of a label table: the same)
    best, given = AS_IT_IS, {}
    if len(parts) == 1 and not _indices_are_ids(parts[0]):  # (a list constant for the statement: 0.04 µs a row)
        best, given = "(SELECT CAST($ids AS INTEGER[]))[best_move + 1]", {"ids": [None if i < 0 else i for i in parts[0]]}
    elif len(parts) > 1:  # the parts' lists end to end, each part's first index found by its file's
        starts = {ids: sum(map(len, parts[:k])) for k, ids in enumerate(parts)}
        best = "CASE WHEN best_move >= 0 THEN (SELECT CAST($ids AS INTEGER[]))[(SELECT CAST($starts AS INTEGER[]))[file_index::BIGINT + 1] + best_move + 1] END"
        given = {"ids": [None if i < 0 else i for ids in parts for i in ids], "starts": [starts[tuple(ids)] for ids in label_ids]}
    values = [best if name == "best_move" else name for name in names]
    (count,) = raw.execute(
        f"INSERT INTO {table} (game_id, {', '.join(names)}) SELECT {int(game_id)}, {', '.join(values)} FROM read_parquet([{listed}]) "
        f"WHERE code >= {low} AND code < {high} ORDER BY code", given or None).fetchone()
    yield int(count)
