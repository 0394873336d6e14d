"""The ``position`` row: one type, one column list taken from the schema, and the readers.

Every reader of stored positions gets :class:`PositionRow` values from the
functions here (one position, some codes, a range, pages of the whole
game), all built on :func:`position_select`. Bulk paths that must stay
fast (verify's vector pass reading the driver's tuples, the writers) use
plain tuples in :data:`POSITION_COLUMNS` order, or a part of it named by
:func:`columns_except`. A new column of ``position`` is added to the
table in :mod:`gamedb.store.schema`, to :class:`PositionRow` (a test holds
the two equal) and to a revision in ``migrations/``.
"""

from __future__ import annotations

from contextlib import closing
from typing import TYPE_CHECKING, Iterable, Iterator, NamedTuple, Sequence

import sqlalchemy as sa

from .schema import position

if TYPE_CHECKING:
    from .catalog import GameRecord

#: the columns of a stored position, in the table's order (``game_id``, the key every reader gives, left out)
POSITION_COLUMNS: tuple[str, ...] = tuple(column.name for column in position.columns if column.name != "game_id")

#: codes asked for in one statement
CHUNK = 10000


class PositionRow(NamedTuple):
    """One stored position; the fields are :data:`POSITION_COLUMNS`, in that order."""

    code: int
    text: str
    player: int
    result: str | None
    remoteness: int | None
    degree: int
    best_move: str | None
    grundy: int | None


def columns_except(*left_out: str) -> tuple[str, ...]:
    """:data:`POSITION_COLUMNS` without ``left_out`` (columns a writer leaves NULL), in the table's order."""
    unknown = set(left_out) - set(POSITION_COLUMNS)
    if unknown:
        raise ValueError(f"not columns of position: {sorted(unknown)}")
    return tuple(name for name in POSITION_COLUMNS if name not in left_out)


def position_select(where: str, columns: Sequence[str] = POSITION_COLUMNS) -> str:
    """``SELECT <columns> FROM position WHERE <where>``: the one query every reader of position rows is built on."""
    return f"SELECT {', '.join(columns)} FROM position WHERE {where}"


def _fetch(conn: sa.Connection, where: str, params: Sequence[object]) -> list[PositionRow]:
    """The rows :func:`position_select` ``where`` (``?`` placeholders) finds, read through the driver's cursor.

    Plain tuples from the driver, no SQLAlchemy row objects: readers such as
    ``verify`` go through every row of a game and their children's rows.
    """
    sql = position_select(where)
    if conn.dialect.paramstyle in ("format", "pyformat"):  # psycopg
        sql = sql.replace("?", "%s")
    driver = conn.connection.driver_connection
    assert driver is not None  # an open connection
    with closing(driver.cursor()) as cursor:
        cursor.execute(sql, tuple(params))
        return list(map(PositionRow._make, cursor.fetchall()))


def read_position(conn: sa.Connection, record: GameRecord, code: int) -> PositionRow | None:
    """The stored row of one position, or None."""
    rows = _fetch(conn, "game_id = ? AND code = ?", (record.id, code))
    return rows[0] if rows else None


def read_positions(conn: sa.Connection, record: GameRecord, codes: Iterable[int]) -> dict[int, PositionRow]:
    """code -> stored row for those of ``codes`` that are stored, asked for in chunks."""
    wanted = list(dict.fromkeys(codes))
    found: dict[int, PositionRow] = {}
    for i in range(0, len(wanted), CHUNK):
        chunk = wanted[i : i + CHUNK]
        for row in _fetch(conn, f"game_id = ? AND code IN ({', '.join('?' * len(chunk))})", (record.id, *chunk)):
            found[row.code] = row
    return found


def read_range(conn: sa.Connection, record: GameRecord, low: int = 0, high: int | None = None) -> list[PositionRow]:
    """The stored rows with codes from ``low`` to ``high`` (None: every one above ``low``), ordered by code."""
    if high is None:
        return _fetch(conn, "game_id = ? AND code >= ? ORDER BY code", (record.id, low))
    return _fetch(conn, "game_id = ? AND code BETWEEN ? AND ? ORDER BY code", (record.id, low, high))


def read_page(conn: sa.Connection, record: GameRecord, after: int, limit: int) -> list[PositionRow]:
    """At most ``limit`` stored rows with codes above ``after``, ordered by code."""
    return _fetch(conn, "game_id = ? AND code > ? ORDER BY code LIMIT ?", (record.id, after, limit))


def stream_positions(engine: sa.Engine, record: GameRecord, *, batch: int = 10000) -> Iterator[PositionRow]:
    """Every stored row of a game, ordered by code, read in pages of ``batch`` (one short connection each)."""
    after = -1  # codes are non-negative
    while True:
        with engine.connect() as conn:
            rows = read_page(conn, record, after, batch)
        if not rows:
            return
        yield from rows
        after = rows[-1].code
