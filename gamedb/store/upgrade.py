"""`gamedb db upgrade`: bring an older database to the newest schema, after a backup."""

from __future__ import annotations

import os
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa

from ..errors import DatabaseError, NoDatabase
from .database import current_revision, head_revision, upgrade
from .file_check import check_file, check_revision, check_schema
from .location import locate, upgrade_command
from .sqlite_file import check_sqlite_version


@dataclass
class UpgradeReport:
    location: str  # the database as it may be shown: a URL with its password hidden
    before: str | None
    after: str
    backup: str | None

    @property
    def changed(self) -> bool:
        return self.before != self.after


def upgrade_database(db: str) -> UpgradeReport:
    """Upgrade the schema of ``db`` to the newest revision; back a SQLite file up first."""
    location = locate(db)
    url = location.url
    path = None
    where = location.shown
    if location.is_sqlite and location.path is not None:
        check_sqlite_version()
        path = location.path
        if not path.exists():
            raise NoDatabase(f"no database at {path}")
        check_file(path, where)
    if location.is_duckdb:
        from .duckdb_file import create_engine

    engine = create_engine(location, readonly=False) if location.is_duckdb else sa.create_engine(url)
    try:
        with engine.connect() as conn:
            try:
                before = _revision(conn, where)
            except sa.exc.DatabaseError as exc:
                raise DatabaseError(f"cannot open {where} as a gamedb database: {exc.orig}") from None
        head = head_revision()
        if before is None:
            raise DatabaseError(f"{where} is not a gamedb database (no schema version); nothing to upgrade")
        if before == head:
            return UpgradeReport(where, before, head, None)
        from alembic.script import ScriptDirectory

        from .database import alembic_config

        known = {rev.revision for rev in ScriptDirectory.from_config(alembic_config()).walk_revisions()}
        if before not in known:
            raise DatabaseError(f"{where} has schema revision {before}, newer than this gamedb knows ({head}); upgrade gamedb")
        if path is not None:
            from .sqlite_schema import objects_at

            with engine.connect() as conn:
                check_revision(_driver(conn), where, objects_at(before))
        backup = backup_copy(path, before) if path is not None else None
        with engine.begin() as conn:
            upgrade(conn)
        if path is not None:  # a revision that rebuilt a table left the old one's pages free
            with engine.connect() as conn:
                conn.exec_driver_sql("VACUUM")
        return UpgradeReport(where, before, head, str(backup) if backup else None)
    finally:
        engine.dispose()


def _driver(conn: sa.Connection) -> sqlite3.Connection:
    driver = conn.connection.driver_connection
    assert isinstance(driver, sqlite3.Connection)
    return driver


def _revision(conn: sa.Connection, where: str) -> str | None:
    """The file's revision, read only once its ``alembic_version`` is known to be gamedb's table."""
    if conn.dialect.name == "sqlite":
        return check_schema(_driver(conn), where)
    if conn.dialect.name == "duckdb":
        from .duckdb_file import check_catalog

        return check_catalog(conn.connection.driver_connection, where)
    from .server_check import check_server_schema

    check_server_schema(conn, where)
    return current_revision(conn)


def backup_copy(path: Path, revision: str) -> Path:
    """Copy ``path`` to a new file ``PATH.backup-REVISION`` (``.1``, ``.2``, ... when taken) and return its name."""
    backup = path.with_name(f"{path.name}.backup-{revision}")
    n = 1
    while os.path.lexists(backup):
        backup = path.with_name(f"{path.name}.backup-{revision}.{n}")
        n += 1
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(backup, flags, 0o600)
    except FileExistsError:
        raise DatabaseError(f"cannot back {path.name} up: {backup.name} appeared meanwhile; run `{upgrade_command(path)}` again") from None
    except OSError as exc:
        raise DatabaseError(f"cannot back {path.name} up as {backup.name}: {exc.strerror or exc}") from None
    try:
        with open(path, "rb") as source, os.fdopen(fd, "wb") as target:
            shutil.copyfileobj(source, target, 1 << 20)
            target.flush()
            os.fsync(target.fileno())
            _copy_times(path, target.fileno())
    except BaseException:
        os.unlink(backup)
        raise
    return backup


def _copy_times(path: Path, fd: int) -> None:
    """The backup keeps the file's permissions and modification time, set through its descriptor (no path lookup)."""
    info = os.stat(path)
    os.fchmod(fd, info.st_mode & 0o777)
    if os.utime in os.supports_fd:
        os.utime(fd, ns=(info.st_atime_ns, info.st_mtime_ns))
