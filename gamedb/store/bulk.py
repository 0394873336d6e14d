"""Bulk writes that work on SQLite and PostgreSQL alike."""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa

from .insert_sql import DEFER_INDEXES_FROM, column_inserts, names_values


def insert_ignore(conn: sa.Connection, table: sa.Table) -> sa.Insert:
    """``INSERT ... ON CONFLICT DO NOTHING`` for the connection's dialect."""
    if conn.dialect.name in ("postgresql", "duckdb"):
        from sqlalchemy.dialects import postgresql

        return postgresql.insert(table).on_conflict_do_nothing()
    from sqlalchemy.dialects import sqlite

    return sqlite.insert(table).on_conflict_do_nothing()


def insert_rows(conn: sa.Connection, table: sa.Table, rows: list[dict[str, Any]], *, ignore: bool = False) -> None:
    """One executemany for a batch of rows (nothing when the batch is empty)."""
    if not rows:
        return
    stmt = insert_ignore(conn, table) if ignore else table.insert()
    conn.execute(stmt, rows)


def executemany(conn: sa.Connection, sql: str, rows: Sequence[Sequence[Any]]) -> None:
    """Run ``sql`` (with ``?`` placeholders) once per row tuple, straight through the driver.

    Tuples go to the DBAPI ``executemany`` without SQLAlchemy's per-row
    processing, which is most of the cost of bulk writes. ``?`` becomes
    ``%s`` for drivers with the ``format``/``pyformat`` style (psycopg).
    Callers pass batches of some ten thousand rows.
    """
    if not rows:
        return
    if conn.dialect.paramstyle in ("format", "pyformat") and conn.dialect.name != "duckdb":
        sql = sql.replace("%", "%%").replace("?", "%s")
    conn.exec_driver_sql(sql, rows)


def copy_rows(conn: sa.Connection, table: sa.Table, columns: Sequence[str], rows: Iterable[Sequence[Any]], *, game_id: int | None = None) -> None:
    """Append ``rows`` (tuples in ``columns`` order, any iterable) to ``table``, no conflicts expected.

    With ``game_id``, the tuples leave the ``game_id`` column out and every
    row gets this one. PostgreSQL gets the rows through ``COPY ... FROM
    STDIN`` (several times faster than any INSERT); other databases through
    :func:`executemany`. Runs inside the connection's transaction.
    """
    constants = {} if game_id is None else {"game_id": game_id}
    if conn.dialect.name == "postgresql":
        _copy_in(conn, table.name, columns, rows, constants)
        return
    if conn.dialect.name == "duckdb":
        rows = list(rows)
        if rows:
            copy_columns(conn, table, dict(zip(columns, zip(*rows, strict=True), strict=True)), game_id=game_id)
        return
    names, values = names_values(columns, constants)
    with _no_garbage_collection():  # the batch's tuples hold no cycles; collecting them cost 20 % of the write
        executemany(conn, f"INSERT INTO {table.name} ({names}) VALUES ({values})", rows if isinstance(rows, list) else list(rows))


@contextmanager
def _no_garbage_collection() -> Iterator[None]:
    """Python's cyclic garbage collector off for a while (back on after, if it was on)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def copy_columns(conn: sa.Connection, table: sa.Table, columns: dict[str, Any], *, game_id: int | None = None) -> None:
    """:func:`copy_rows` for rows given as columns (lists of equal length, by column name; numpy arrays on DuckDB).

    SQLite gets the multi-row INSERT statements of
    :func:`~gamedb.store.insert_sql.column_inserts` (a hundred rows each);
    DuckDB one scan of the arrays (:func:`_append_columns`).
    """
    names = list(columns)
    values = list(columns.values())
    if conn.dialect.name == "duckdb":
        if len(values) and len(values[0]):
            _append_columns(conn.connection.driver_connection, table.name, columns, {} if game_id is None else {"game_id": game_id})
        return
    if conn.dialect.name == "postgresql" or not values or not values[0]:
        copy_rows(conn, table, names, zip(*values, strict=True), game_id=game_id)
        return
    constants = {} if game_id is None else {"game_id": game_id}
    with _no_garbage_collection():
        for sql, rows in column_inserts(table.name, columns, constants):
            executemany(conn, sql, rows)


def _append_columns(driver: Any, table: str, columns: Mapping[str, Sequence[Any]], constants: Mapping[str, int]) -> None:
    """Append rows given as columns (numpy arrays, or lists with None for NULL) to ``table``, each row with
    ``constants``: one ``INSERT ... SELECT`` from the arrays registered as a scan, no Python object per row."""
    import numpy as np

    data = {name: values if isinstance(values, np.ndarray) else np.asarray(values, dtype=object) for name, values in columns.items()}
    fixed = [str(int(value)) for value in constants.values()]
    driver.register("gamedb_rows", data)
    try:
        driver.execute(f"INSERT INTO {table} ({', '.join([*constants, *columns])}) SELECT {', '.join([*fixed, *columns])} FROM gamedb_rows")
    finally:
        driver.unregister("gamedb_rows")


def insert_new_rows(conn: sa.Connection, table: sa.Table, columns: tuple[str, ...], rows: list[tuple[Any, ...]], *, constants: dict[str, int]) -> None:
    """Insert ``rows`` (tuples in ``columns`` order), skipping any whose key is already stored.

    ``constants`` gives integer columns the same value in every row (the
    game id, a depth). SQLite: one :func:`executemany` of ``INSERT ... ON
    CONFLICT DO NOTHING``. PostgreSQL: the rows are copied (``COPY``) into a
    temporary staging table and inserted from it by one ``INSERT ... SELECT
    ... ON CONFLICT DO NOTHING``, several times faster than an INSERT per
    row. Runs inside the caller's transaction.
    """
    if not rows:
        return
    names, values = names_values(columns, constants)
    if conn.dialect.name == "postgresql":
        stage = f"stage_{table.name}"  # one per session, emptied at every commit
        conn.exec_driver_sql(f"CREATE TEMP TABLE IF NOT EXISTS {stage} (LIKE {table.name}) ON COMMIT DELETE ROWS")
        _copy_in(conn, stage, columns, rows, constants)
        conn.exec_driver_sql(f"INSERT INTO {table.name} ({names}) SELECT {names} FROM {stage} ON CONFLICT DO NOTHING")
        conn.exec_driver_sql(f"TRUNCATE {stage}")
        return
    executemany(conn, f"INSERT INTO {table.name} ({names}) VALUES ({values}) ON CONFLICT DO NOTHING", rows)


def _copy_in(conn: sa.Connection, table_name: str, columns: Sequence[str], rows: Iterable[Sequence[Any]], constants: dict[str, int]) -> None:
    """PostgreSQL: ``COPY`` the rows, each after the constants, into ``table_name``."""
    names = ", ".join([*constants, *columns])
    fixed = tuple(int(value) for value in constants.values())
    driver = conn.connection.driver_connection
    assert driver is not None  # an open connection
    cursor = driver.cursor()
    with cursor.copy(f"COPY {table_name} ({names}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(fixed + tuple(row))


@contextmanager
def indexes_built_after(conn: sa.Connection, table: sa.Table, new_rows: int) -> Iterator[None]:
    """Load ``new_rows`` rows into ``table`` with its secondary indexes built afterwards.

    On SQLite, when the rows about to be inserted outnumber those already
    there (:func:`rows_before_load`), the indexes are dropped and created
    again after the load: one sort builds an index several times faster than
    updating its B-tree row by row (the text index of 2 million positions, in
    random text order). Inside the caller's transaction, so a failed load
    rolls the indexes back with the rows. Servers, small loads and large
    tables keep their indexes.
    """
    if conn.dialect.name != "sqlite" or rows_before_load(conn, table, new_rows) is None:
        yield
        return
    drop_secondary_indexes(conn, table)
    yield
    build_secondary_indexes(conn, table)


def rows_before_load(conn: sa.Connection, table: sa.Table, new_rows: int) -> int | None:
    """The rows ``table`` holds when a load of ``new_rows`` rows is worth its secondary indexes being dropped
    (the load has :data:`DEFER_INDEXES_FROM` rows or more and outnumbers them); None: keep the indexes."""
    if new_rows < DEFER_INDEXES_FROM:
        return None
    existing: int = conn.exec_driver_sql(f"SELECT COUNT(*) FROM (SELECT 1 FROM {table.name} LIMIT {int(new_rows)}) AS head").scalar_one()
    return existing if existing < new_rows else None


def drop_secondary_indexes(conn: sa.Connection, table: sa.Table) -> None:
    """Drop ``table``'s secondary indexes, those that are there (a large tier solve may have left them out);
    :func:`build_secondary_indexes` builds them again as the schema has them."""
    for index in sorted(table.indexes, key=lambda index: str(index.name)):
        index.drop(conn, checkfirst=True)


def build_secondary_indexes(conn: sa.Connection, table: sa.Table) -> None:
    """Build ``table``'s secondary indexes that are missing (a killed load may have built some), as
    :func:`create_index_sql` gives them: partial where the schema's revisions make them partial."""
    create_missing_indexes(conn, [table])


def missing_indexes(conn: sa.Connection, tables: Sequence[sa.Table]) -> list[sa.Index]:
    """The indexes of ``tables`` that the database lacks (a large tier solve leaves the position table's out)."""
    inspector = sa.inspect(conn)
    missing = []
    for table in tables:
        if conn.dialect.name == "duckdb":  # (duckdb-engine reflects no indexes)
            have = set(conn.exec_driver_sql("SELECT index_name FROM duckdb_indexes() WHERE table_name = ?", (table.name,)).scalars())
        else:
            have = {ix["name"] for ix in inspector.get_indexes(table.name)}
        missing += [index for index in sorted(table.indexes, key=lambda index: str(index.name)) if index.name not in have]
    return missing


def create_missing_indexes(conn: sa.Connection, tables: Sequence[sa.Table], *, only: Sequence[str] | None = None) -> list[str]:
    """Create the indexes of ``tables`` (those named ``only``) that the database lacks; return their names.

    A large tier solve leaves the position table's secondary indexes out
    (:mod:`gamedb.solvers.tier_store`); ``gamedb db index`` and the SQL
    solver (whose levels read the remoteness index) build them back.
    """
    built = []
    for index in missing_indexes(conn, tables):
        if only is None or index.name in only:
            conn.exec_driver_sql(create_index_sql(conn, index))
            built.append(str(index.name))
    return built


def create_index_sql(conn: sa.Connection, index: sa.Index) -> str:
    """``CREATE INDEX`` for ``index`` on the connection's database.

    A partial index declares its condition once, for SQLite
    (``sqlite_where``: naming ``postgresql_where`` too would import that
    dialect in every process, :mod:`gamedb.store.schema`); a server gets the
    same condition, as revision 0004 gives it.
    """
    sql = str(sa.schema.CreateIndex(index).compile(dialect=conn.dialect))
    where = index.dialect_options["sqlite"]["where"]
    if conn.dialect.name == "postgresql" and where is not None:  # (DuckDB has no partial indexes)
        sql += f" WHERE {where}"
    return sql



