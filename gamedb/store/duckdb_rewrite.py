"""A DuckDB file written afresh (``gamedb compact``): no free blocks, every position table row group in the dense order.

The dense order keeps row groups of :data:`ROW_GROUP` rows consecutive in code order (their zone maps still find a code)
and puts, inside each, the rows without a best move (positions over at once) before the others, each part in code order:
their result, remoteness, degree and best move become runs that DuckDB stores as constants (Dōbutsu shōgi: 6.64 -> 5.49
bytes a row, docs/performance.md)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..errors import DatabaseError
from .duckdb_file import catalog, connect, create_schema
from .location import remove_file
from .rows import POSITION_COLUMNS

#: DuckDB's rows per row group (its default ``ROW_GROUP_SIZE``), the unit of the dense order
ROW_GROUP = 122_880
#: rows of one game read and written by one statement: whole row groups
RANGE_ROWS = 8 * ROW_GROUP
#: a solve into a new DuckDB file of this many positions or more ends with :func:`rewrite` (Dōbutsu shōgi: 17 % of
#: the bytes; 8 min for its 2.5·10^8 rows on a loaded box, which 10^7 rows' games are spared)
DENSE_FROM = 10_000_000
#: the cap of the rewrite's sorts (past it DuckDB spills to a temporary folder beside the file), lowered to a solve's
#: own memory limit when that is less
MEMORY_LIMIT = 4 * 2**30

_COLUMNS = ", ".join(("game_id", *POSITION_COLUMNS))


def dense_order(offset: int) -> str:
    """The ``ORDER BY`` of rows read in code order that are appended after ``offset`` rows of the table: the dense order."""
    return f"({offset} + row_number() OVER (ORDER BY code) - 1) // {ROW_GROUP}, best_move IS NOT NULL, code"


def require_newest(revision: str | None, where: str | os.PathLike[str]) -> None:
    """Refuse a file below the newest schema revision (checked before anything is deleted or written); the newest read
    from the migrations as a new file is created at it, SQLAlchemy and Alembic not imported (a large solve's rewrite)."""
    from .sqlite_file import newest_revision

    newest = newest_revision()
    if newest is None:  # no migrations folder beside the code: Alembic's search
        from .database import head_revision

        newest = head_revision()
    if revision != newest:
        from .location import upgrade_command

        raise DatabaseError(f"the file is at schema revision {revision}: run `{upgrade_command(where)}` before compacting it")


def rewrite(path: Path, memory_limit: int | None = None) -> None:
    """Write the DuckDB file ``path`` afresh beside it (``.NAME.PID.new``), then put it in its place; DuckDB's memory
    capped at :data:`MEMORY_LIMIT` or ``memory_limit`` bytes, the less."""
    cap = f"{min(MEMORY_LIMIT, memory_limit or MEMORY_LIMIT)}B"
    temp = path.with_name(f".{path.name}.{os.getpid()}.new")
    remove_file(temp)
    try:
        conn = connect(temp, read_only=False, threads=1, attach={"src": path}, memory_limit=cap)  # one thread: row groups filled in order
        try:
            _copy(conn, path)
        finally:
            conn.close()
        with open(temp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(temp, path)
        Path(f"{path}.wal").unlink(missing_ok=True)  # read through the attach: in the new file already
    finally:
        remove_file(temp)


def _copy(conn: Any, path: Path) -> None:
    """Every row of the attached ``src`` into the empty ``conn`` at its revision, in one transaction; then a checkpoint."""
    execute = conn.execute
    (revision,) = execute("SELECT version_num FROM src.alembic_version").fetchone()
    require_newest(revision, path)
    create_schema(conn, revision)
    execute("BEGIN TRANSACTION")
    for kind, name in catalog(conn):
        if kind == "table" and name not in ("alembic_version", "position"):
            execute(f'INSERT INTO main."{name}" SELECT * FROM src."{name}"')
    (last,) = execute("SELECT coalesce(max(last_value), 0) FROM duckdb_sequences() WHERE database_name = 'src' AND sequence_name = 'game_id_seq'").fetchone()
    (top,) = execute("SELECT coalesce(max(id), 0) FROM game").fetchone()
    if max(last, top):  # new games' ids go on from the source's
        execute(f"SELECT max(nextval('game_id_seq')) FROM range({max(last, top)})")
    offset = 0
    for (game_id,) in execute("SELECT DISTINCT game_id FROM src.position ORDER BY 1").fetchall():
        numbered = "SELECT code, row_number() OVER (ORDER BY code) AS n FROM src.position WHERE game_id = ?"
        starts = [code for (code,) in execute(f"SELECT code FROM ({numbered}) WHERE n % {RANGE_ROWS} = 1 ORDER BY code", [game_id]).fetchall()]
        for low, high in zip(starts, [*starts[1:], None], strict=True):
            upper = "" if high is None else f" AND code < {int(high)}"
            (added,) = execute(f"INSERT INTO main.position ({_COLUMNS}) SELECT {_COLUMNS} FROM src.position WHERE game_id = ? AND code >= ?{upper} "
                               f"ORDER BY {dense_order(offset)}", [game_id, low]).fetchone()
            offset += added
    for (sql,) in execute("SELECT sql FROM duckdb_indexes() WHERE database_name = 'src' AND table_name = 'position'").fetchall():
        execute(sql)  # the position table's indexes `db index` built
    execute("COMMIT")
    execute("CHECKPOINT")

