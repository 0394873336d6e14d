"""Bulk writes that work on SQLite and PostgreSQL alike."""

from __future__ import annotations

import sqlalchemy as sa


def insert_ignore(conn, table: sa.Table):
    """``INSERT ... ON CONFLICT DO NOTHING`` for the connection's dialect."""
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    return insert(table).on_conflict_do_nothing()


def insert_rows(conn, table: sa.Table, rows: list[dict], *, ignore: bool = False) -> None:
    """One executemany for a batch of rows (nothing when the batch is empty)."""
    if not rows:
        return
    stmt = insert_ignore(conn, table) if ignore else table.insert()
    conn.execute(stmt, rows)


def executemany(conn, sql: str, rows: list[tuple]) -> None:
    """Run ``sql`` (with ``?`` placeholders) once per row tuple, straight through the driver.

    Tuples go to the DBAPI ``executemany`` without SQLAlchemy's per-row
    processing, which is most of the cost of bulk writes. ``?`` becomes
    ``%s`` for drivers with the ``format``/``pyformat`` style (psycopg).
    Callers pass batches of some ten thousand rows.
    """
    if not rows:
        return
    if conn.dialect.paramstyle in ("format", "pyformat"):
        sql = sql.replace("%", "%%").replace("?", "%s")
    conn.exec_driver_sql(sql, rows)


def copy_rows(conn, table: sa.Table, columns: list[str], rows: list[tuple]) -> None:
    """Append rows (tuples in ``columns`` order) to ``table``, no conflicts expected.

    PostgreSQL gets them through ``COPY ... FROM STDIN`` (several times
    faster than any INSERT); other databases through :func:`executemany`.
    Runs inside the connection's transaction.
    """
    if not rows:
        return
    names = ", ".join(columns)
    if conn.dialect.name == "postgresql":
        cursor = conn.connection.driver_connection.cursor()
        with cursor.copy(f"COPY {table.name} ({names}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
        return
    executemany(conn, f"INSERT INTO {table.name} ({names}) VALUES ({', '.join('?' * len(columns))})", rows)
