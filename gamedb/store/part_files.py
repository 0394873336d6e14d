"""Part files: a code range of rows written by a cluster worker, loaded by the one writer of the database.

For a SQLite database a part is a SQLite file: the worker pays what binding Python values costs (about 0.8 µs a row),
the writer copies the rows inside SQLite (``ATTACH`` + ``INSERT ... SELECT``: 0.45 µs a row, against 0.9 µs for
``executemany``). For DuckDB and PostgreSQL it is a folder of ``.npy`` columns (a masked column as values and mask,
strings as numbers into their list in ``strings.json``) that the sink takes as any batch of columns. A part is written
under a temporary name and renamed (a task run twice keeps the first one's).
"""

from __future__ import annotations

import gc
import json
import os
import shutil
import sqlite3
import threading
from collections.abc import Iterator, Mapping
from contextlib import closing, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .sink import Column, column_inserts

if TYPE_CHECKING:
    import sqlalchemy as sa

#: the table of a part file (its columns: those given to :func:`write_part`, untyped, in row order)
PART_TABLE = "part"
#: a SQLite part's rows a statement (its sqlite3 binds 32766 values), its page size, and the garbage collector off: 0.62 to
#: 0.87 µs a row with 100 rows a statement and pages of 4 KiB, 0.47 so (2^19 rows)
PART_ROWS_PER_INSERT = 1000
PART_PAGE = 65536


def write_part(path: Path, columns: Mapping[str, Column], *, sqlite: bool) -> None:
    """Write ``columns`` as the part ``path`` (``sqlite``: a SQLite file, else ``.npy`` columns), atomically."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}-{threading.get_ident()}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.unlink(missing_ok=True)
    if not sqlite:
        tmp.mkdir()
        strings: dict[str, list[Any]] = {}
        for name, values in columns.items():
            if np.ma.isMaskedArray(values):
                np.save(tmp / f"{name}.mask.npy", np.ma.getmaskarray(values))
            elif not isinstance(values, np.ndarray) or values.dtype == object:
                strings[name] = sorted({v for v in values if v is not None})
                index = {None: 0, **{v: i for i, v in enumerate(strings[name], 1)}}
                values = np.fromiter(map(index.__getitem__, values), dtype=np.int32, count=len(values))
            np.save(tmp / f"{name}.npy", np.ma.getdata(values))
        (tmp / "strings.json").write_text(json.dumps(strings))
        tmp.replace(path)
        return
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


def read_part(path: Path) -> dict[str, Column]:
    """The columns of an ``.npy`` part, as :func:`write_part` was given them (in the order of its files' names)."""
    strings: dict[str, list[Any]] = json.loads((path / "strings.json").read_text())
    columns: dict[str, Column] = {}
    for file in sorted(path.glob("*.npy")):
        name = file.name.removesuffix(".npy")
        if not name.endswith(".mask"):
            values = np.load(file)
            mask = path / f"{name}.mask.npy"
            columns[name] = (
                np.array([None, *strings[name]], dtype=object)[values] if name in strings
                else np.ma.masked_array(values, np.load(mask)) if mask.exists() else values
            )
    return columns


@contextmanager
def part_loaded(conn: sa.Connection, table: str, path: Path, game_id: int) -> Iterator[int]:
    """Insert the rows of the part file ``path`` into ``table`` as game ``game_id``'s, uncommitted, and give their count: the
    caller commits in the block (SQLite attaches a file only outside a transaction, and detaches it after)."""
    raw = conn.connection.driver_connection
    assert raw is not None and not raw.in_transaction, "a part is loaded after a commit"
    raw.execute("ATTACH DATABASE ? AS gamedb_part", (str(path),))
    raw.execute("PRAGMA foreign_keys = OFF")  # every row's game_id is the game's: no lookup a row (0.53 -> 0.45 µs a row)
    try:
        names = ", ".join(row[1] for row in raw.execute(f"PRAGMA gamedb_part.table_info({PART_TABLE})"))
        yield conn.exec_driver_sql(f"INSERT INTO {table} (game_id, {names}) SELECT {int(game_id)}, {names} FROM gamedb_part.{PART_TABLE}").rowcount
    finally:
        if raw.in_transaction:  # (an error before the caller's commit: what the part wrote is dropped)
            raw.rollback()
        raw.execute("DETACH DATABASE gamedb_part")
        raw.execute("PRAGMA foreign_keys = ON")
