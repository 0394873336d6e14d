"""DuckDB files (``--db games.duckdb``): hardened connections, the catalog check, the DDL DuckDB lacks, appends from arrays.

A shared file is data (:mod:`gamedb.store.file_check`): every connection opens with :data:`HARDENED`,
and before a row is read the file's catalog must be the one gamedb's revisions create (:func:`check_catalog`,
against :data:`DDL` as DuckDB prints it; a test holds the file to the migrations). On DuckDB the tables have
no foreign keys (DuckDB refuses to delete the rows they point to) and ``position`` has no index, not even its
key: ART indexes cost 83 of the 94 bytes a Connect-Four 4x4 position took; rows go in once in code order and
DuckDB's zone maps find a code (``gamedb db index`` builds the text and remoteness indexes, whole).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import DatabaseError, NoDatabase
from ..safe_text import shown
from .file_check import check_file, refuse

if TYPE_CHECKING:
    import duckdb
    import sqlalchemy as sa

    from .location import Location

#: the settings of every DuckDB connection gamedb opens: SQL in a file reaches nothing outside it
HARDENED: dict[str, Any] = {
    "enable_external_access": False,  # no read_text/read_csv/COPY/ATTACH of other files, no network
    "autoload_known_extensions": False,
    "autoinstall_known_extensions": False,
    "allow_community_extensions": False,
    "integer_division": True,  # `/` on integers as on SQLite and PostgreSQL (the views, the SQL solver)
    "lock_configuration": True,  # nothing in a session can SET them back
}

#: the catalog of a DuckDB file at the newest revision, as DuckDB prints it (generated: see the module)
DDL = Path(__file__).with_name("duckdb_ddl.sql")

_CATALOG = """
SELECT 'table', table_name, sql FROM duckdb_tables() WHERE database_name = current_database()
UNION ALL SELECT 'view', view_name, sql FROM duckdb_views() WHERE NOT internal AND database_name = current_database()
UNION ALL SELECT 'index', index_name, sql FROM duckdb_indexes() WHERE database_name = current_database()
UNION ALL SELECT 'sequence', sequence_name, NULL FROM duckdb_sequences() WHERE database_name = current_database()
UNION ALL SELECT 'macro', function_name, macro_definition FROM duckdb_functions() WHERE NOT internal AND database_name = current_database()
UNION ALL SELECT 'type', type_name, NULL FROM duckdb_types() WHERE NOT internal AND database_name = current_database()
UNION ALL SELECT 'schema', schema_name, sql FROM duckdb_schemas() WHERE NOT internal AND database_name = current_database()
    AND schema_name <> 'main'
"""


def import_duckdb() -> Any:
    """The ``duckdb`` module, or a one-line error saying how to install it."""
    try:
        import duckdb
    except ImportError:
        raise DatabaseError("DuckDB files need the duckdb package: pip install 'gamedb[duckdb]'") from None
    return duckdb


def connect(path: Path | str, *, read_only: bool) -> duckdb.DuckDBPyConnection:
    """A hardened connection to a DuckDB file (``:memory:`` too)."""
    module = import_duckdb()
    try:
        conn: duckdb.DuckDBPyConnection = module.connect(str(path), read_only=read_only, config=dict(HARDENED))
        return conn
    except module.Error as exc:
        raise DatabaseError(f"cannot open {shown(str(path))} as a DuckDB database: {_line(exc)}") from None


def create_engine(where: Location, *, readonly: bool) -> sa.Engine:
    """The SQLAlchemy engine (``duckdb-engine``'s dialect) of a DuckDB file, on :func:`connect`'s hardened connections."""
    import sqlalchemy as sa

    try:
        from duckdb_engine import ConnectionWrapper
    except ImportError:
        raise DatabaseError("DuckDB files need the duckdb-engine package: pip install 'gamedb[duckdb]'") from None
    assert where.path is not None
    path = where.path
    return sa.create_engine("duckdb://", creator=lambda: ConnectionWrapper(connect(path, read_only=readonly)), poolclass=sa.pool.SingletonThreadPool)


def _line(exc: BaseException) -> str:
    text = str(exc)
    return text.splitlines()[0] if text else type(exc).__name__


def catalog(conn: Any) -> dict[tuple[str, str], str | None]:
    """(kind, name) -> SQL of every object in the connection's database, as DuckDB prints it (nothing runs)."""
    return {(str(kind), str(name)): sql for kind, name, sql in conn.execute(_CATALOG).fetchall()}


@functools.lru_cache(maxsize=1)
def head_catalog() -> dict[tuple[str, str], str | None]:
    """The catalog of a new file at the newest revision: :data:`DDL` run in memory."""
    conn = connect(":memory:", read_only=False)
    try:
        for statement in DDL.read_text(encoding="utf-8").split(";\n"):
            if statement.strip():
                conn.execute(statement)
        return catalog(conn)
    finally:
        conn.close()


def check_catalog(conn: Any, where: str) -> str | None:
    """Refuse a DuckDB file with objects gamedb did not create; its schema revision (None: no ``alembic_version``).

    At another revision than the newest only macros, types and schemas are refused (the caller refuses the
    revision itself, or ``db upgrade`` migrates it)."""
    found = catalog(conn)
    if not found:
        return None
    expected = head_catalog()
    revision = None
    if found.get(("table", "alembic_version")) == expected[("table", "alembic_version")]:
        row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        revision = None if row is None else str(row[0])
    from .sqlite_file import newest_revision

    at_head = revision is not None and revision == newest_revision()
    problems = []
    names = {name: kind for kind, name in expected}
    for (kind, name), sql in sorted(found.items()):
        if (kind, name) in expected:
            if at_head and expected[(kind, name)] != sql:
                problems.append(f"its {kind} {shown(name)} is not the one gamedb creates (its SQL differs)")
        elif at_head or kind in ("macro", "type", "schema"):
            where_ours = f" where gamedb creates a {names[name]}" if name in names else ", which gamedb never creates"
            problems.append(f"it has a {kind} {shown(name)}{where_ours}")
    if problems:
        raise refuse(where, problems)
    return revision


class DuckDBConnections:
    """A DuckDB file opened read-only for reading, checked; a cursor per thread (:class:`gamedb.store.file_connections.FileConnections`' twin)."""

    def __init__(self, location: Location, *, budget: float | None) -> None:
        path = location.path
        assert path is not None
        if not path.exists():
            raise NoDatabase(f"no database at {path}")
        check_file(path, location.text)
        self._base = connect(path, read_only=True)
        self._local = threading.local()
        self._opened: list[Any] = []
        self._lock = threading.Lock()
        try:
            self.revision = check_catalog(self._base, location.shown)
            self.occupied = bool(catalog(self._base))
        except BaseException:
            self.close()
            raise

    def connection(self) -> Any:
        """This thread's cursor (a DuckDB connection is not shared between threads)."""
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = self._base.cursor()
            with self._lock:
                self._opened.append(conn)
        return conn

    @contextmanager
    def unbudgeted(self) -> Iterator[Any]:
        yield self.connection()

    def close(self) -> None:
        with self._lock:
            opened, self._opened = self._opened, []
        for conn in opened:
            conn.close()
        self._base.close()
        self._local = threading.local()


# --- DDL on DuckDB: what SQLAlchemy's PostgreSQL compiler would write that DuckDB refuses -----------------


def install_ddl_rules() -> None:
    """No foreign keys on DuckDB and no key on ``position`` (see the module), floats as DOUBLE (its FLOAT has 4 bytes);
    called by the migrations' environment."""
    from sqlalchemy import Float
    from sqlalchemy.ext.compiler import compiles
    from sqlalchemy.schema import ForeignKeyConstraint, PrimaryKeyConstraint

    @compiles(PrimaryKeyConstraint, "duckdb")
    def _key(element: PrimaryKeyConstraint, compiler: Any, **kw: Any) -> str | None:
        return None if element.table.name == "position" else str(compiler.visit_primary_key_constraint(element, **kw))

    @compiles(Float, "duckdb")
    def _double(element: Float[Any], compiler: Any, **kw: Any) -> str:
        return "DOUBLE"

    @compiles(ForeignKeyConstraint, "duckdb")
    def _no_foreign_key(element: ForeignKeyConstraint, compiler: Any, **kw: Any) -> None:
        return None
