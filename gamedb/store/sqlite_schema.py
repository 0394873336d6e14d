"""The generator of ``sqlite_ddl.sql`` (tables from the SQLAlchemy tables, views from the migrations) and older revisions' objects."""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

from .file_check import Objects, objects_of
from .sqlite_file import GENERATED, READABLE_OLDER, older_ddl

#: what the generated file says first
HEADER = (
    "-- Generated from gamedb/store/schema.py and migrations/ by `python -m gamedb.store.sqlite_schema`: do not edit.\n"
    "-- Each table in dependency order, then its indexes by name; then the views and alembic_version as the migrations make them.\n"
)


def compiled_statements() -> list[str]:
    """What ``metadata.create_all`` runs on SQLite, then the views and ``alembic_version`` of the newest revision."""
    import sqlalchemy as sa
    from sqlalchemy.dialects import sqlite

    from .database import head_revision
    from .schema import metadata

    dialect = sqlite.dialect()
    found = []
    for table in metadata.sorted_tables:
        found.append(str(sa.schema.CreateTable(table).compile(dialect=dialect)))
        for index in sorted(table.indexes, key=lambda ix: ix.name or ""):
            found.append(str(sa.schema.CreateIndex(index).compile(dialect=dialect)))
    with migrated(head_revision()) as conn:
        found += [sql for (sql,) in conn.execute("SELECT sql FROM sqlite_master WHERE type = 'view' ORDER BY rowid")]
        found += [sql for (sql,) in conn.execute("SELECT sql FROM sqlite_master WHERE name = 'alembic_version'")]
    return ["\n".join(line.rstrip().replace("\t", "    ") for line in sql.strip().splitlines()) for sql in found]


@contextmanager
def migrated(revision: str) -> Iterator[sqlite3.Connection]:
    """An in-memory SQLite database the migrations bring from empty to ``revision``."""
    import sqlalchemy as sa
    from alembic import command

    from .database import alembic_config

    engine = sa.create_engine("sqlite://", poolclass=sa.pool.StaticPool)
    try:
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), revision)
            driver = conn.connection.driver_connection
            assert driver is not None
            yield driver
    finally:
        engine.dispose()


@functools.cache
def objects_at(revision: str) -> Objects:
    """The objects of a SQLite file the migrations bring from empty to ``revision`` (every file below the newest was made so)."""
    with migrated(revision) as conn:
        return objects_of(conn)


def generated_text() -> str:
    """The text of the generated file, from the tables and migrations as they are now."""
    return HEADER + "".join(f"\n{sql};\n" for sql in compiled_statements())


def older_text(revision: str) -> str:
    """The statements that make the objects of a file at an older ``revision``, as the migrations leave them."""
    with migrated(revision) as conn:
        found = [sql for (sql,) in conn.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid")]
    return HEADER.replace("Each table", f"Revision {revision}'s objects as the migrations make them: each table") + "".join(f"\n{sql};\n" for sql in found)


if __name__ == "__main__":
    GENERATED.write_text(generated_text())
    print(f"wrote {GENERATED}")
    for rev in READABLE_OLDER:
        older_ddl(rev).write_text(older_text(rev))
        print(f"wrote {older_ddl(rev)}")
