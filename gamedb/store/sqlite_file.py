"""A SQLite file as gamedb reads and makes it, with the standard library only."""

from __future__ import annotations

import functools
import os
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import DatabaseError

if TYPE_CHECKING:
    import sqlalchemy as sa

MIN_SQLITE = (3, 33, 0)  # UPDATE ... FROM

#: rows SQLite's ANALYZE reads of each index at most (``PRAGMA analysis_limit``), when a solve finishes a file
ANALYSIS_LIMIT = 1000

#: the one row of ``alembic_version``: the newest revision (``?``: it is read from the migrations)
STAMP = "INSERT INTO alembic_version (version_num) VALUES (?)"

#: the generated DDL, beside this module
GENERATED = Path(__file__).with_name("sqlite_ddl.sql")

#: revisions below the newest whose files are answered without an upgrade (read-only commands: the readers decode both
#: the result words 0006 stores and the codes of 0007 on, and read the best moves' labels from the rows of both
#: (``rows.LABELS_IN_ROWS``) and from ``move_label`` from 0008); each one's objects, as the migrations make them, are
#: generated beside this module (``sqlite_ddl_REV.sql``) and a file of it is checked against them as a newest one is
#: against GENERATED
READABLE_OLDER = ("0006", "0007")


def older_ddl(revision: str) -> Path:
    """The generated statements that make the objects of a file at ``revision`` (one of :data:`READABLE_OLDER`)."""
    return GENERATED.with_name(f"sqlite_ddl_{revision}.sql")


def readable(revision: str | None) -> bool:
    """Whether the read-only commands answer from a file at ``revision`` (the newest, or one of :data:`READABLE_OLDER`)."""
    return revision is not None and (revision == newest_revision() or revision in READABLE_OLDER)


def new_file_statements(path: Path = GENERATED) -> list[str]:
    """Every statement that makes an empty SQLite file a gamedb database, in order, but :data:`STAMP`."""
    text = "".join(line for line in path.read_text().splitlines(keepends=True) if not line.startswith("--"))
    return [statement.strip() for statement in text.split(";") if statement.strip()]


def check_sqlite_version() -> None:
    found = tuple(int(x) for x in sqlite3.sqlite_version.split("."))
    if found < MIN_SQLITE:
        need = ".".join(map(str, MIN_SQLITE))
        raise DatabaseError(
            f"gamedb needs SQLite {need} or newer (UPDATE ... FROM); this Python has SQLite {sqlite3.sqlite_version}"
        )


def readonly_uri(path: Path) -> str:
    """The SQLite URI that reads ``path`` without writing anything, beside it or in it."""
    uri = f"file:{uri_path(path)}?mode=ro"
    if journal_is_wal(path) and not (os.access(path.parent, os.W_OK) and os.access(path, os.W_OK)):
        wal, shm = Path(f"{path}-wal"), Path(f"{path}-shm")
        if not shm.exists() and not (wal.exists() and wal.stat().st_size > 0):
            return uri + "&immutable=1"
        if not shm.exists():
            raise DatabaseError(
                f"cannot read {path}: it was left in WAL mode with unsaved changes in {wal.name}, and the folder is not "
                "writable here; someone who can write the folder must open it once (e.g. `gamedb list`)"
            )
    return uri


def journal_is_wal(path: Path) -> bool:
    """Whether the SQLite header of ``path`` says WAL mode (file format versions 2 at bytes 18 and 19)."""
    try:
        with open(path, "rb") as f:
            header = f.read(20)
    except OSError:
        return False
    return len(header) == 20 and header.startswith(b"SQLite format 3\x00") and header[18:20] == b"\x02\x02"


def uri_path(path: Path) -> str:
    """``path`` as the path part of a SQLite ``file:`` URI: ``%``, ``?`` and ``#`` escaped."""
    return str(path).replace("%", "%25").replace("?", "%3f").replace("#", "%23")


@functools.lru_cache(maxsize=1)
def newest_revision() -> str | None:
    """The newest schema revision, read from the migrations without Alembic (once per process); None without migrations."""
    from .revisions import head_from_files

    migrations = installed_migrations_dir()
    return head_from_files(migrations) if migrations is not None else None


def installed_migrations_dir() -> Path | None:
    """Where the migrations are, found without ``importlib.resources`` (a large part of a query's start-up: docs/performance.md)."""
    package = Path(__file__).resolve().parents[1]
    for candidate in (package / "migrations", package.parent / "migrations"):
        if (candidate / "versions").is_dir():
            return candidate
    return None


def file_of(engine: sa.Engine) -> Path | None:
    """The file of a SQLite engine's main database (None for servers and in-memory databases)."""
    if engine.dialect.name != "sqlite":
        return None
    with engine.connect() as conn:
        for _seq, name, file in conn.exec_driver_sql("PRAGMA database_list"):
            if name == "main":
                return Path(file) if file else None
    return None
