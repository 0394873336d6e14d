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
