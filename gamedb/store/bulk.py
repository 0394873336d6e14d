"""Bulk writes that work on SQLite and PostgreSQL alike."""

from __future__ import annotations

import gc
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import sqlalchemy as sa

from .sink import DEFER_INDEXES_FROM, Column, column_inserts, values_of


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
    """Run ``sql`` (with ``?`` placeholders) once per row tuple, straight through the driver."""
    if not rows:
        return
    if conn.dialect.paramstyle in ("format", "pyformat") and conn.dialect.name != "duckdb":
        sql = sql.replace("%", "%%").replace("?", "%s")
    conn.exec_driver_sql(sql, rows)


def copy_columns(conn: sa.Connection, table: sa.Table, columns: Mapping[str, Column], *, game_id: int | None = None) -> None:
    """Append rows given as columns (:data:`~gamedb.store.sink.Column`, by name) to ``table``, each with ``game_id``."""
    constants = {} if game_id is None else {"game_id": game_id}
    was = gc.isenabled()
    gc.disable()  # the batch's values hold no cycles; collecting them cost 20 % of the write
    try:
        if conn.dialect.name == "postgresql":
            _copy_in(conn, table.name, list(columns), zip(*map(values_of, columns.values()), strict=True), constants)
        elif conn.dialect.name == "duckdb":
            from .duckdb_file import append_columns

            append_columns(conn.connection.driver_connection, table.name, columns, constants)
        else:
            for sql, rows in column_inserts(table.name, columns, constants):
                executemany(conn, sql, rows)
    finally:
        if was:
            gc.enable()


def insert_new_rows(conn: sa.Connection, table: sa.Table, columns: tuple[str, ...], rows: list[tuple[Any, ...]], *, constants: dict[str, int]) -> None:
    """Insert ``rows`` (tuples in ``columns`` order), skipping any whose key is already stored."""
    if not rows:
        return
    names = ", ".join([*constants, *columns])
    if conn.dialect.name == "postgresql":
        stage = f"stage_{table.name}"  # one per session, emptied at every commit
        conn.exec_driver_sql(f"CREATE TEMP TABLE IF NOT EXISTS {stage} (LIKE {table.name}) ON COMMIT DELETE ROWS")
        _copy_in(conn, stage, columns, rows, constants)
        conn.exec_driver_sql(f"INSERT INTO {table.name} ({names}) SELECT {names} FROM {stage} ON CONFLICT DO NOTHING")
        conn.exec_driver_sql(f"TRUNCATE {stage}")
        return
    if conn.dialect.name == "duckdb":  # no key on DuckDB's position table (zone maps find its rows): new rows by the schema's key
        from .duckdb_file import append_columns

        by_column = {name: list(values) for name, values in zip(columns, zip(*rows, strict=True), strict=True)}
        append_columns(conn.connection.driver_connection, table.name, by_column, constants, new_by=[c.name for c in table.primary_key.columns])
        return
    values = ", ".join([*(str(int(v)) for v in constants.values()), *["?"] * len(columns)])
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


def rows_before_load(conn: sa.Connection, table: sa.Table, new_rows: int) -> int | None:
    """The rows ``table`` holds when a load of ``new_rows`` is worth dropping its secondary indexes for; None: keep them."""
    if new_rows < DEFER_INDEXES_FROM:
        return None
    existing: int = conn.exec_driver_sql(f"SELECT COUNT(*) FROM (SELECT 1 FROM {table.name} LIMIT {int(new_rows)}) AS head").scalar_one()
    return existing if existing < new_rows else None


def drop_secondary_indexes(conn: sa.Connection, table: sa.Table) -> None:
    """Drop ``table``'s secondary indexes that are there; :func:`build_secondary_indexes` builds them again."""
    for index in sorted(table.indexes, key=lambda index: str(index.name)):
        index.drop(conn, checkfirst=True)


def build_secondary_indexes(conn: sa.Connection, table: sa.Table) -> None:
    """Build ``table``'s missing secondary indexes (a killed load may have built some), partial where the revisions make them so."""
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
    """Create the indexes of ``tables`` (those named ``only``) that the database lacks; return their names."""
    built = []
    for index in missing_indexes(conn, tables):
        if only is None or index.name in only:
            conn.exec_driver_sql(create_index_sql(conn, index))
            built.append(str(index.name))
    return built


def create_index_sql(conn: sa.Connection, index: sa.Index) -> str:
    """``CREATE INDEX`` for ``index`` on the connection's database."""
    sql = str(sa.schema.CreateIndex(index).compile(dialect=conn.dialect))
    where = index.dialect_options["sqlite"]["where"]
    if conn.dialect.name == "postgresql" and where is not None:  # (DuckDB has no partial indexes)
        sql += f" WHERE {where}"
    return sql



