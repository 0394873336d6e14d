"""Part files: rows written by a cluster worker, loaded by the one writer of the database.

Into SQLite, a code range of rows as a SQLite file: the worker pays what binding Python values costs (about 0.5 µs a
row); the writer copies the rows inside SQLite (``ATTACH`` + ``INSERT ... SELECT``: 0.45 µs a row, against 0.9 µs for
``executemany``). Into DuckDB, a slice's rows as a Parquet file, written as the slice is solved: the writer reads a code
range of every part at once, sorted, on all its threads (15.8·10^6 rows: 2.9 s on 2 threads, against 4.3 s from numpy
columns on the one thread DuckDB scans them with). A part is written under a temporary name and renamed (a task run
twice keeps the first one's).
"""

from __future__ import annotations

import gc
import os
import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import closing, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .duckdb_file import quoted
from .duckdb_rewrite import ROW_GROUP  # (a part's row groups: DuckDB's; the writer skips those outside its code range)
from .sink import Column, LabelColumn, column_inserts

if TYPE_CHECKING:
    import sqlalchemy as sa

#: the table of a part file (its columns: those given to :func:`write_part`, untyped, in row order)
PART_TABLE = "part"
#: a SQLite part's rows a statement (its sqlite3 binds 32766 values), its page size, and the garbage collector off: 0.62 to
#: 0.87 µs a row with 100 rows a statement and pages of 4 KiB, 0.47 so (2^19 rows)
PART_ROWS_PER_INSERT = 1000
PART_PAGE = 65536


def parts_for(dialect: str) -> str | None:
    """The part files a database of ``dialect`` loads: ``sqlite`` (a code range's rows a file), ``parquet`` (a slice's rows a
    file, read by code range), or None (none: PostgreSQL takes columns)."""
    return {"sqlite": "sqlite", "duckdb": "parquet"}.get(dialect)


def write_part(path: Path, columns: Mapping[str, Column]) -> None:
    """Write ``columns`` as the part file ``path``, atomically."""
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
            conn.execute("COMMIT")
    finally:
        if was:
            gc.enable()
    tmp.replace(path)


#: the labels of a part's best moves (text) that the game has no id for yet, numbered on from its last (in name order)
_NEW_LABELS = """INSERT INTO move_label (game_id, id, name)
SELECT {g}, (SELECT coalesce(max(id) + 1, 0) FROM move_label WHERE game_id = {g}) + row_number() OVER (ORDER BY name) - 1, name
FROM (SELECT DISTINCT best_move AS name FROM {source} WHERE best_move IS NOT NULL{within}
      EXCEPT SELECT name FROM move_label WHERE game_id = {g}) AS d"""
#: a part's best move (text) as the id of its label
_LABEL_ID = "(SELECT l.id FROM move_label l WHERE l.game_id = {g} AND l.name = best_move)"


def _labels_numbered(execute: Any, names: Sequence[str], source: str, within: str, game_id: int) -> list[str]:
    """What to select of each of a part's columns ``names`` in ``source`` (the rows ``within``: `` AND ...``): a best move
    given as text numbered among the game's labels (revision 0008) and read as its id; the others as they are."""
    if "best_move" not in names:
        return list(names)
    execute(_NEW_LABELS.format(g=int(game_id), source=source, within=within))
    return [_LABEL_ID.format(g=int(game_id)) if name == "best_move" else name for name in names]


@contextmanager
def part_loaded(conn: sa.Connection, table: str, path: Path, game_id: int) -> Iterator[int]:
    """Insert the rows of the part file ``path`` into ``table`` as game ``game_id``'s, uncommitted, and give their count: the
    caller commits in the block (SQLite attaches a file only outside a transaction, and detaches it after)."""
    raw = conn.connection.driver_connection
    assert raw is not None and not raw.in_transaction, "a part is loaded after a commit"
    raw.execute("ATTACH DATABASE ? AS gamedb_part", (str(path),))
    raw.execute("PRAGMA foreign_keys = OFF")  # every row's game_id is the game's: no lookup a row (0.53 -> 0.45 µs a row)
    try:
        names = [row[1] for row in raw.execute(f"PRAGMA gamedb_part.table_info({PART_TABLE})")]
        source = f"gamedb_part.{PART_TABLE}"
        values = _labels_numbered(conn.exec_driver_sql, names, source, "", game_id)
        yield conn.exec_driver_sql(f"INSERT INTO {table} (game_id, {', '.join(names)}) SELECT {int(game_id)}, {', '.join(values)} FROM {source}").rowcount
    finally:
        if not conn.invalidated:  # (SQLAlchemy closes a connection a Ctrl-C interrupted: the attachment went with it)
            if raw.in_transaction:  # (an error before the caller's commit: what the part wrote is dropped)
                raw.rollback()
            raw.execute("DETACH DATABASE gamedb_part")
            raw.execute("PRAGMA foreign_keys = ON")


def write_parquet(path: Path, columns: Mapping[str, Column]) -> None:
    """Write ``columns`` (numpy arrays; text as objects; a :class:`~.sink.LabelColumn` as its ids, which
    :func:`parquet_loaded` reads back as labels) as the Parquet part ``path``, atomically, through this thread's
    in-memory DuckDB that may write only in the part's folder (a new one took 16 ms)."""
    import numpy as np

    tmp = path.with_name(f"{path.name}.{os.getpid()}-{threading.get_ident()}.tmp")
    conn = _parquet_writer(path.parent)
    arrays = {k: v.ids if isinstance(v, LabelColumn) else v if isinstance(v, np.ndarray) else np.asarray(v, dtype=object) for k, v in columns.items()}
    conn.register("gamedb_rows", arrays)
    try:  # (a slice of no labels: VARCHAR, not NULL-typed)
        typed = ", ".join(f"{k}::VARCHAR AS {k}" if v.dtype == object else k for k, v in arrays.items())
        conn.execute(f"COPY (SELECT {typed} FROM gamedb_rows) TO {quoted(tmp)} (FORMAT parquet, ROW_GROUP_SIZE {ROW_GROUP})")
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


@contextmanager
def parquet_loaded(
    conn: sa.Connection, table: str, paths: Sequence[Path], codes: tuple[int, int], game_id: int, label_ids: Sequence[int] | None = None
) -> Iterator[int]:
    """Insert the rows of the Parquet parts ``paths`` whose code is in ``codes`` (low, high: high excluded) into ``table`` as
    game ``game_id``'s, in code order, uncommitted, and give their count (the connection must be allowed to read them:
    :func:`~.duckdb_file.reading`). ``label_ids``: the parts' ``best_move`` is an index into them (-1: none), which gives
    its label's id; else it is the label, numbered among the game's here."""
    if not paths:
        yield 0
        return
    raw = conn.connection.driver_connection
    assert raw is not None
    names = [row[0] for row in raw.execute(f"DESCRIBE SELECT * FROM read_parquet({quoted(paths[0])})").fetchall()]
    listed = ", ".join(quoted(p) for p in paths)
    low, high = (int(c) for c in codes)
    source, within = f"read_parquet([{listed}])", f" AND code >= {low} AND code < {high}"
    if label_ids is not None:  # (a worker wrote strings at 0.04 µs a row more)
        values = ["(SELECT CAST($label_ids AS INTEGER[]))[best_move + 1]" if name == "best_move" else name for name in names]
    else:
        values = _labels_numbered(raw.execute, names, source, within, game_id)
    (count,) = raw.execute(
        f"INSERT INTO {table} (game_id, {', '.join(names)}) SELECT {int(game_id)}, {', '.join(values)} FROM {source} "
        f"WHERE true{within} ORDER BY code", {"label_ids": list(label_ids)} if label_ids is not None else None).fetchone()
    yield int(count)
