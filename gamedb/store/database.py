"""Opening a database (URLs, SQLite settings, schema checks, migrations), and vacuuming it."""

from __future__ import annotations

import contextlib
import functools
import os
import sqlite3
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy import event

from ..errors import DatabaseError, InputError, NoDatabase
from ..safe_text import shown
from .file_check import check_file, check_schema, set_budget
from .location import DEFAULT_PATH, Location, locate
from .locking import finish_file
from .schema import metadata
from .sqlite_file import check_sqlite_version, file_of, installed_migrations_dir, newest_revision
from .sqlite_file import readonly_uri as _readonly_uri

if TYPE_CHECKING:
    from alembic.config import Config

def _create_server_engine(url: str, db: Location) -> sa.Engine:
    try:
        return sa.create_engine(url)
    except sa.exc.NoSuchModuleError:
        raise DatabaseError(f"{db.shown}: SQLAlchemy has no driver for {url.split('://', 1)[0]!r}") from None
    except (sa.exc.ArgumentError, ValueError):
        raise DatabaseError(f"{db.shown} is not a database URL (e.g. postgresql+psycopg://user@host/dbname)") from None
    except ImportError as exc:
        extra = " (pip install 'gamedb[postgres]')" if url.startswith("postgresql+psycopg://") else ""
        raise DatabaseError(f"{db.shown}: the database driver is not installed: {exc}{extra}") from None


def _sqlite_pragmas(dbapi_conn: Any, _record: object) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA busy_timeout = 30000")
    cur.execute("PRAGMA foreign_keys = ON")
    cur.execute("PRAGMA cache_size = -131072")  # 128 MiB page cache
    cur.execute("PRAGMA temp_store = MEMORY")
    cur.execute("PRAGMA trusted_schema = OFF")  # no function with side effects runs from the file's schema
    cur.close()


def _with_budget(engine: sa.Engine, seconds: float | None) -> None:
    """Give every connection of ``engine`` a time budget per statement (SQLite: a progress handler; servers: ``statement_timeout``)."""
    if seconds is None:
        return

    def budget(dbapi_conn: Any, record: Any) -> None:
        record.info["gamedb_budget"] = seconds
        if engine.dialect.name == "sqlite":
            set_budget(dbapi_conn, seconds)
        else:
            cur = dbapi_conn.cursor()
            cur.execute(f"SET statement_timeout = {max(1, round(seconds * 1000))}")
            cur.close()
            dbapi_conn.commit()

    event.listen(engine, "connect", budget)


@contextlib.contextmanager
def dropped_if_lost(conn: sa.Connection) -> Iterator[None]:
    """Work on ``conn``'s driver connection directly (past SQLAlchemy): when it fails because the connection is lost (a
    server stopped or restarted), the connection is dropped, as SQLAlchemy drops one lost under its own statements; else
    the pool's rollback of the dead connection logged a traceback on stderr beside the command's one-line error."""
    try:
        yield
    except conn.dialect.loaded_dbapi.Error as exc:
        if not conn.invalidated and conn.dialect.is_disconnect(exc, conn.connection.dbapi_connection, None):
            conn.invalidate(exc)
        raise


@contextlib.contextmanager
def without_budget(conn: sa.Connection) -> Iterator[None]:
    """Lift the time budget of ``conn`` for a read known to scan a whole game (linear in its rows on a checked file)."""
    seconds = conn.info.get("gamedb_budget")
    if seconds is None:
        yield
        return
    driver = conn.connection.driver_connection
    if isinstance(driver, sqlite3.Connection):
        set_budget(driver, None)
        try:
            yield
        finally:
            set_budget(driver, seconds)
        return
    conn.exec_driver_sql("SET statement_timeout = 0")
    try:
        yield
    finally:
        conn.exec_driver_sql(f"SET statement_timeout = {max(1, round(seconds * 1000))}")


def _migrations_dir() -> str:
    return str(installed_migrations_dir() or "migrations")


def alembic_config(connection: sa.Connection | None = None) -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", _migrations_dir())
    cfg.set_main_option("path_separator", "os")
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


@functools.lru_cache(maxsize=1)
def head_revision() -> str:
    """The newest schema revision this gamedb knows (read once per process: the migrations ship with the code)."""
    head = newest_revision()  # without importing Alembic (fast queries)
    if head is not None:
        return head
    from alembic.script import ScriptDirectory

    found = ScriptDirectory.from_config(alembic_config()).get_current_head()
    if found is None:
        raise DatabaseError("gamedb's migrations have no head revision: the installation is broken")
    return found


def current_revision(conn: sa.Connection) -> str | None:
    inspector = sa.inspect(conn)
    if not inspector.has_table("alembic_version"):
        return None
    row = conn.execute(sa.text("SELECT version_num FROM alembic_version")).first()
    return row[0] if row else None


def upgrade(conn: sa.Connection) -> None:
    """Bring the schema to the newest revision (creates it in an empty database)."""
    from alembic import command

    command.upgrade(alembic_config(conn), "head")


def create_schema(conn: sa.Connection) -> None:
    """Create the newest schema in an empty SQLite database and stamp it at the newest revision."""
    from .sqlite_file import STAMP, new_file_statements

    # Python's sqlite3 runs DDL outside a transaction (one commit, one fsync, per
    # statement): one explicit transaction makes the new file in one commit
    driver = conn.connection.driver_connection
    assert driver is not None  # an open connection
    if not driver.in_transaction:
        conn.exec_driver_sql("BEGIN")
    for statement in new_file_statements():  # metadata.create_all's statements, written out (it compiles them each time)
        conn.exec_driver_sql(statement)
    conn.exec_driver_sql(STAMP, (head_revision(),))


def open_engine(
    db: str | os.PathLike[str] | Location, *, create: bool = False, readonly: bool = False, budget: float | None = None
) -> sa.Engine:
    """Open (and if ``create``, create) a gamedb database and check its schema."""
    where = locate(db)
    url = where.url
    if where.is_sqlite:
        check_sqlite_version()
        path = where.path
        if path is None or str(path) in ("", ".", ":memory:") or "mode=memory" in url:
            raise InputError(
                f"{shown(where.text)} is a SQLite database in memory, gone when the command ends: give a file path"
            )
        if not path.exists() and not create:
            raise NoDatabase(f"no database at {path}")
        check_file(path, where.text)  # before SQLite opens it: a FIFO would block the open
        if readonly:
            uri = _readonly_uri(path)
            # a file's pool, not the in-memory one SQLAlchemy picks for a URL with no file (SingletonThreadPool would
            # close connections under serve's threads, which share one Database)
            engine = sa.create_engine(
                "sqlite://",
                creator=lambda: sqlite3.connect(uri, uri=True, check_same_thread=False),
                poolclass=sa.pool.QueuePool,
            )
        else:
            engine = sa.create_engine(url)
        event.listen(engine, "connect", _sqlite_pragmas)
    elif where.is_duckdb or url.startswith("duckdb"):
        from .duckdb_file import create_engine

        engine = create_engine(where, readonly=readonly, create=create)
    else:
        engine = _create_server_engine(url, where)
    _with_budget(engine, budget)
    try:
        with engine.begin() as conn:
            _check_schema(conn, where.shown, create=create and not readonly, budget=budget)
    except DatabaseError:
        engine.dispose()
        raise
    except sa.exc.DatabaseError as exc:
        engine.dispose()
        reason = str(exc.orig) if getattr(exc, "orig", None) is not None else str(exc)
        hint = ""
        if getattr(getattr(exc, "orig", None), "sqlstate", None) == "42501":  # (a server's role that may not read the tables)
            from .server_check import read_advice

            hint = read_advice(engine.url.username)
        raise DatabaseError(f"cannot open {where.shown} as a gamedb database: {reason.splitlines()[0] if reason else reason}{hint}") from None
    return engine


def _check_schema(conn: sa.Connection, where: str, *, create: bool, budget: float | None = None) -> None:
    head = head_revision()
    if conn.dialect.name == "sqlite":
        driver = conn.connection.driver_connection
        assert isinstance(driver, sqlite3.Connection)
        found = check_schema(driver, where, budget=budget)  # nothing of the file runs before this
        occupied = bool(found) or conn.exec_driver_sql("SELECT 1 FROM sqlite_master").first() is not None  # a lone view too
    elif conn.dialect.name == "duckdb":
        from .duckdb_file import catalog, check_catalog

        found = check_catalog(conn.connection.driver_connection, where)
        occupied = bool(found) or bool(catalog(conn.connection.driver_connection))
    else:
        from .server_check import check_server_schema

        check_server_schema(conn, where)  # before alembic_version is read: it is a table, with nothing attached
        found = current_revision(conn)
        occupied = found is not None or bool(sa.inspect(conn).get_table_names())
    if found == head:
        return
    if found is None:
        if occupied:
            raise DatabaseError(f"{where} is not a gamedb database (it has tables or views but no gamedb schema version)")
        if not create:
            raise DatabaseError("the database is empty: no game has been solved in it")
        if conn.dialect.name not in ("sqlite", "duckdb"):
            from .server_check import check_may_create

            check_may_create(conn, where)  # (PostgreSQL 15's schema public: its owner's alone)
        if conn.dialect.name == "sqlite":
            create_schema(conn)
        elif conn.dialect.name == "duckdb":
            from . import duckdb_file

            conn.commit()  # (the driver's own transaction below)
            duckdb_file.create_schema(conn.connection.driver_connection, head)
        else:
            upgrade(conn)
        return
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(alembic_config())
    known = {rev.revision for rev in script.walk_revisions()}
    if found not in known:
        raise DatabaseError(
            f"this database has schema revision {found}, newer than this gamedb knows ({head}); upgrade gamedb"
        )
    from .location import upgrade_advice

    raise DatabaseError(f"this database has an older schema revision ({found}, newest is {head}); {upgrade_advice(where)}")


def refresh_statistics(engine: sa.Engine, tables: tuple[str, ...] = ("position", "move", "token_move", "solve_counter", "solve_queue")) -> None:
    """ANALYZE the solver's tables on a server before the levels start."""
    if engine.dialect.name == "sqlite":
        return
    with engine.begin() as conn:  # (DuckDB analyzes one table or all)
        conn.exec_driver_sql("ANALYZE" if engine.dialect.name == "duckdb" else f"ANALYZE {', '.join(tables)}")


def vacuum(engine: sa.Engine, tables: tuple[str, ...] = ("position", "move")) -> None:
    """Give the space of deleted rows back: VACUUM the SQLite file, or VACUUM ANALYZE the tables on a server."""
    if engine.dialect.name == "sqlite":
        if file_of(engine) is not None:
            engine.dispose()
            with engine.connect() as conn:
                conn.exec_driver_sql("VACUUM")
                conn.commit()
        finish_file(engine)
        return
    if engine.dialect.name == "duckdb":  # DuckDB frees the row groups of deleted rows at a checkpoint
        with engine.connect() as conn:
            conn.exec_driver_sql("CHECKPOINT")
        return
    with engine.connect() as conn:
        conn = conn.execution_options(isolation_level="AUTOCOMMIT")  # VACUUM cannot run in a transaction
        conn.exec_driver_sql(f"VACUUM (ANALYZE) {', '.join(tables)}")


__all__ = ["open_engine", "upgrade", "metadata", "DEFAULT_PATH", "vacuum", "refresh_statistics"]
