"""Part files: a code range of rows written by a cluster worker as a SQLite file, loaded by the one writer of a SQLite database.

The worker pays what binding Python values costs (about 0.5 µs a row); the writer copies the rows inside SQLite
(``ATTACH`` + ``INSERT ... SELECT``: 0.45 µs a row, against 0.9 µs for ``executemany``). A part is written under a
temporary name and renamed (a task run twice keeps the first one's). DuckDB takes a batch of numpy columns as fast
from the command as from a part (4x6: the write 5.1 to 5.7 s either way), so it has none.
"""

from __future__ import annotations

import gc
import os
import sqlite3
import threading
from collections.abc import Iterator, Mapping
from contextlib import closing, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from .sink import Column, column_inserts

if TYPE_CHECKING:
    import sqlalchemy as sa

#: the table of a part file (its columns: those given to :func:`write_part`, untyped, in row order)
PART_TABLE = "part"
#: a SQLite part's rows a statement (its sqlite3 binds 32766 values), its page size, and the garbage collector off: 0.62 to
#: 0.87 µs a row with 100 rows a statement and pages of 4 KiB, 0.47 so (2^19 rows)
PART_ROWS_PER_INSERT = 1000
PART_PAGE = 65536


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
