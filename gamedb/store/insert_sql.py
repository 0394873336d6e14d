"""INSERT statements for rows given column by column, as SQL text and parameter tuples.

The SQLite text both SQLite sinks (:mod:`gamedb.store.sink`) write with, kept
free of SQLAlchemy: the database's (through :func:`gamedb.store.bulk.copy_columns`,
on SQLAlchemy's driver connection) and a new file's
(:mod:`gamedb.store.new_sqlite_file`, on ``sqlite3`` itself).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

#: loads smaller than this keep a table's secondary indexes up to date as they go
#: (:func:`gamedb.store.bulk.indexes_built_after`; a new file's small solve never drops them)
DEFER_INDEXES_FROM = 50_000

#: rows per INSERT statement of :func:`column_inserts` (bound values stay under SQLite's oldest limit, 999)
ROWS_PER_INSERT = 100


def names_values(columns: Sequence[str], constants: dict[str, int]) -> tuple[str, str]:
    """The column list and the VALUES list of an INSERT: the constants written in, a ``?`` per column."""
    names = ", ".join([*constants, *columns])
    values = ", ".join([*(str(int(value)) for value in constants.values()), *["?"] * len(columns)])
    return names, values


def column_inserts(table: str, columns: dict[str, list[Any]], constants: dict[str, int]) -> Iterator[tuple[str, list[tuple[Any, ...]]]]:
    """(statement, parameter tuples) pairs that insert the rows of ``columns`` (lists of equal length,
    by column name) into ``table``, every row with the ``constants`` too.

    :data:`ROWS_PER_INSERT` rows per ``INSERT ... VALUES (...), (...)``
    statement: binding a flat list of values costs about half as much per
    row as one statement per row (docs/performance.md). Call with the
    garbage collector off for large batches (the values hold no cycles).
    """
    names = list(columns)
    values = list(columns.values())
    n = len(values[0]) if values else 0
    if not n:
        return
    width = len(names)
    row_names, row_values = names_values(names, constants)
    flat: list[Any] = [None] * (n * width)
    for k, column in enumerate(values):
        flat[k::width] = column
    step = ROWS_PER_INSERT * width
    whole = len(flat) - len(flat) % step
    if whole:
        sql = f"INSERT INTO {table} ({row_names}) VALUES " + ", ".join([f"({row_values})"] * ROWS_PER_INSERT)
        yield sql, [tuple(flat[i : i + step]) for i in range(0, whole, step)]
    if whole < len(flat):
        rest = (len(flat) - whole) // width
        sql = f"INSERT INTO {table} ({row_names}) VALUES " + ", ".join([f"({row_values})"] * rest)
        yield sql, [tuple(flat[whole:])]
