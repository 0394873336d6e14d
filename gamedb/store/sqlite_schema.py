"""The statements that make an empty SQLite file a gamedb database: :func:`new_file_statements` and :data:`STAMP`."""

from __future__ import annotations

from pathlib import Path

#: the table Alembic keeps the schema revision in, as Alembic creates it
ALEMBIC_VERSION = (
    "CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL, "
    "CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num))"
)

#: the one row of :data:`ALEMBIC_VERSION`: the newest revision (``?``: it is read from the migrations)
STAMP = "INSERT INTO alembic_version (version_num) VALUES (?)"

#: the generated DDL, beside this module
GENERATED = Path(__file__).with_name("sqlite_ddl.sql")
#: what the generated file says first
HEADER = (
    "-- Generated from gamedb/store/schema.py by `python -m gamedb.store.sqlite_schema`: do not edit.\n"
    "-- The SQLite DDL of the SQLAlchemy tables, as SQLAlchemy compiles it (see gamedb/store/sqlite_schema.py):\n"
    "-- each table in dependency order, then its indexes by name.\n"
)


def new_file_statements() -> tuple[str, ...]:
    """Every statement that makes an empty SQLite file a gamedb database, in order, but :data:`STAMP`:
    the tables and indexes, the views, the revision's table."""
    from .views import VIEWS

    return (*generated_statements(), *VIEWS, ALEMBIC_VERSION)


def generated_statements() -> list[str]:
    """The statements of the generated file, in order."""
    text = "".join(line for line in GENERATED.read_text().splitlines(keepends=True) if not line.startswith("--"))
    return [statement.strip() for statement in text.split(";") if statement.strip()]


def compiled_statements() -> list[str]:
    """What ``metadata.create_all`` runs on SQLite: each table (in dependency order) and then its indexes (by name)."""
    import sqlalchemy as sa
    from sqlalchemy.dialects import sqlite

    from .schema import metadata

    dialect = sqlite.dialect()
    found = []
    for table in metadata.sorted_tables:
        found.append(str(sa.schema.CreateTable(table).compile(dialect=dialect)))
        for index in sorted(table.indexes, key=lambda ix: ix.name or ""):
            found.append(str(sa.schema.CreateIndex(index).compile(dialect=dialect)))
    return ["\n".join(line.rstrip().replace("\t", "    ") for line in sql.strip().splitlines()) for sql in found]


def generated_text() -> str:
    """The text of the generated file, from the tables as they are now."""
    return HEADER + "".join(f"\n{sql};\n" for sql in compiled_statements())


if __name__ == "__main__":
    GENERATED.write_text(generated_text())
    print(f"wrote {GENERATED}")
