"""DuckDB files (``--db games.duckdb``): hardened connections, the catalog check, the DDL rules DuckDB needs.

``position`` has no index there, not even its key (ART indexes were 83 of 94 bytes a position); zone maps find a code."""

from __future__ import annotations

import functools
import os
import threading
import weakref
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import DatabaseError, InputError, NoDatabase
from ..safe_text import shown
from .file_check import check_file, refuse
from .sink import Column

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

#: the settings of a new file's writer (``connect(synced=False)``), each left out where this DuckDB does not know it:
#: no ``fsync`` of its own (DuckDB >= 2: a file nothing reads before its writer syncs it; 9 of them, ~15 ms each, in a
#: new file of 2·10^6 rows), and the row groups of its appends compressed and written one at a time (DuckDB's default,
#: five at once, left up to five for each COMMIT to write: three COMMITs of 0.04-0.09 s at the end of a cat-mouse solve
#: of 2·10^6 positions, while a core idled; now 0.01-0.03 s); integers bit-packed without trying DuckDB's other ways
#: (``force_compression``, this session's: nothing in the file; types bit-packing cannot take keep DuckDB's choice):
#: cat-mouse's 2·10^6 rows, the same file, 8 % less of DuckDB's CPU (0.409 -> 0.377 s)
NEW_FILE: dict[str, Any] = {"fsync_mode": "none", "write_buffer_row_group_count": 1, "force_compression": "bitpacking"}

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
#: DuckDB >= 2's triggers too: a trigger in a file fires when gamedb writes into it (a solve into the file, an upgrade)
_TRIGGERS = "UNION ALL SELECT 'trigger', trigger_name, sql FROM duckdb_triggers() WHERE database_name = current_database()\n"


def connect(
    path: Path | str, *, read_only: bool, threads: int | None = None, attach: Mapping[str, Path] | None = None, memory_limit: str | None = None,
    synced: bool = True, readable: Sequence[Path] = (),
) -> duckdb.DuckDBPyConnection:
    """A hardened connection to a DuckDB file (``:memory:`` too); ``threads``, ``memory_limit``: DuckDB's (default: one a
    core; 80 % of the memory, :func:`reader_memory_limit` read-only); ``attach``: alias -> a DuckDB file attached read-only
    before the hardening closes the file system;
    ``synced`` False: a new file's writer (:data:`NEW_FILE`); ``readable``: folders its SQL may still read and write (``allowed_directories``)."""
    try:
        import _duckdb as duckdb  # duckdb >= 2's engine without its Python layer (relations, Arrow): 0.06 s of `gamedb query`
    except ImportError:
        try:
            import duckdb  # type: ignore[no-redef]
        except ImportError:
            raise DatabaseError("DuckDB files need the duckdb package: pip install 'gamedb[duckdb]'") from None
    if read_only and memory_limit is None:
        memory_limit = reader_memory_limit()
    config = dict(HARDENED, **({} if threads is None else {"threads": threads}), **({} if memory_limit is None else {"memory_limit": memory_limit}))
    late = {k: config.pop(k) for k in ("enable_external_access", "lock_configuration")} if attach or readable else {}
    conn = None
    try:
        extra = {} if synced else dict(NEW_FILE)
        while conn is None:
            try:
                conn = duckdb.connect(str(path), read_only=read_only, config=dict(config, **extra))
            except duckdb.Error as exc:
                unknown = [k for k in extra if k in str(exc)]  # (an older DuckDB does not know the setting: without it then)
                if not unknown:
                    raise
                del extra[unknown[0]]
        for alias, other in (attach or {}).items():
            conn.execute(f"ATTACH {quoted(str(other))} AS {alias} (READ_ONLY)")
        if attach or readable:  # long statements: the library never prints (DuckDB draws a bar past 2 s; a session's setting)
            conn.execute("SET enable_progress_bar = false")
        if readable:
            conn.execute(f"SET allowed_directories = [{', '.join(quoted(str(folder) + os.sep) for folder in readable)}]")
        for key, value in late.items():
            conn.execute(f"SET {key} = {str(value).lower()}")
        return conn
    except duckdb.Error as exc:
        if conn is not None:
            conn.close()
        raise DatabaseError(f"cannot open {shown(str(path))} as a DuckDB database: {(str(exc) or type(exc).__name__).splitlines()[0]}") from None


@functools.lru_cache(maxsize=1)
def reader_memory_limit() -> str:
    """DuckDB's memory for a read-only connection: an eighth of the memory available when the process first opens one
    (a quarter of gamedb's default limit; 256 MiB at least), one value a process (DuckDB refuses a second configuration
    for a file it has open). Its default, 80 % of the machine, left verify (arrays of up to half the memory available)
    unbounded beside it (6x5's verify peaked at 13.3 GiB of a 24 GB machine; 5x6's at 10.24 GiB with this bound or without)."""
    from ..sizes import default_memory_limit

    return f"{max(default_memory_limit() // 4, 256 << 20)}B"


def quoted(text: str | Path) -> str:
    """``text`` as a SQL string literal."""
    return "'" + str(text).replace("'", "''") + "'"


def label_of(column: str, labels: Sequence[str]) -> tuple[str, dict[str, list[str]]]:
    """(SQL, its parameter) for the label whose id ``column`` holds (an index into ``labels``; -1 or out of them: NULL): the
    labels one list parameter, read once by a scalar subquery (2·10^6 ids of 7,999 labels: 0.06 s; the list itself in
    the expression 0.175 s, copied into every vector of rows; a CASE over 680 labels 0.78 s; the list written into each
    INSERT of a new file's 2·10^6 rows, 0.1 s more in the whole process)."""
    return f"(SELECT CAST(${column}_labels AS VARCHAR[]))[{column} + 1]", {f"{column}_labels": list(labels)}


def _checked_path(where: Location, *, create: bool = False) -> Path:
    """The file ``where`` names, checked as any file before DuckDB opens it."""
    if where.path is None or not where.is_duckdb:
        raise InputError(f"{shown(where.text)} is a DuckDB database in memory, gone when the command ends: give a file path")
    if not where.path.exists() and not create:
        raise NoDatabase(f"no database at {where.path}")
    check_file(where.path, where.text, duckdb=True)
    if where.path.exists() and where.path.stat().st_size == 0:  # (DuckDB: "exists, but it is not a valid DuckDB database file!")
        if not create or where.path.with_name(where.path.name + ".wal").exists():
            raise DatabaseError(f"{shown(where.text)} is an empty file, not a DuckDB database yet: no game has been solved in it")
        where.path.unlink()  # it holds nothing: the database is made in its place, as SQLite makes one in an empty file
    return where.path


def create_engine(where: Location, *, readonly: bool, create: bool = False) -> sa.Engine:
    """The SQLAlchemy engine (``duckdb-engine``) of a DuckDB file on :func:`connect`'s connections."""
    import sqlalchemy as sa

    path = _checked_path(where, create=create)
    try:
        from duckdb_engine import ConnectionWrapper
    except ImportError:
        raise DatabaseError("DuckDB files need the duckdb-engine package: pip install 'gamedb[duckdb]'") from None
    engine = sa.create_engine(
        "duckdb://", creator=lambda: ConnectionWrapper(connect(path, read_only=readonly, readable=_READABLE.get(path, ()), memory_limit=_LIMITS.get(path))),
        poolclass=sa.pool.SingletonThreadPool)
    _PATHS[engine] = path
    return engine


#: the file of each engine :func:`create_engine` made, the folders its connections may read while :func:`reading` runs,
#: and DuckDB's memory limit for them while :func:`limited` runs
_PATHS: weakref.WeakKeyDictionary[sa.Engine, Path] = weakref.WeakKeyDictionary()
_READABLE: dict[Path, tuple[Path, ...]] = {}
_LIMITS: dict[Path, str] = {}


def path_of(engine: sa.Engine) -> Path | None:
    """The file of an engine :func:`create_engine` made (None: another's)."""
    return _PATHS.get(engine)


@contextmanager
def limited(engine: sa.Engine, memory_limit: int) -> Iterator[None]:
    """The connections the DuckDB ``engine`` opens in the block keep DuckDB's memory within ``memory_limit`` bytes (its
    default: 80 % of the machine's); its open connections are closed before and after, as in :func:`reading`."""
    path = path_of(engine)
    if path is None:  # (an engine made elsewhere)
        yield
        return
    engine.dispose()
    _LIMITS[path] = f"{max(int(memory_limit), 64 << 20)}B"
    try:
        yield
    finally:
        engine.dispose()
        _LIMITS.pop(path, None)


@contextmanager
def reading(engine: sa.Engine, folder: Path) -> Iterator[None]:
    """The connections the DuckDB ``engine`` opens in the block may read files in ``folder`` (a cluster's Parquet parts); its
    open connections are closed before and after (DuckDB fixes a file's settings when its first connection opens it)."""
    path = _PATHS[engine]
    engine.dispose()
    _READABLE[path] = (folder,)
    try:
        yield
    finally:
        engine.dispose()
        _READABLE.pop(path, None)


def new_file_statements() -> list[str]:
    """The statements that make an empty DuckDB file a gamedb database at the newest revision (but the stamp): :data:`DDL`
    without the position table's indexes (``db index`` builds them; rows in code order are found by zone maps)."""
    statements = [s.strip() for s in DDL.read_text(encoding="utf-8").split(";\n") if s.strip()]
    return [s for s in statements if not (s.startswith(("CREATE INDEX", "CREATE UNIQUE INDEX")) and ' ON "position"(' in s)]


def create_schema(conn: Any, revision: str) -> None:
    """Make the empty database of ``conn`` (a DuckDB connection) a gamedb database at ``revision``, in one transaction,
    from :func:`new_file_statements` (running the revisions through Alembic took 0.9 s; this, 20 ms)."""
    conn.execute("BEGIN TRANSACTION")
    for statement in new_file_statements():
        conn.execute(statement)
    conn.execute("INSERT INTO alembic_version (version_num) VALUES (?)", [revision])
    conn.execute("COMMIT")


def append_columns(conn: Any, table: str, columns: Mapping[str, Column], constants: Mapping[str, int], *, new_by: Sequence[str] = ()) -> None:
    """Append rows given column by column: the numpy arrays scanned as they are (no Python object per row), in one INSERT;
    ``new_by`` (a key's columns): only the rows whose key is not stored yet."""
    from .sink import LabelColumn, rows_in, values_of

    n = rows_in(columns)
    if not n:
        return
    import numpy as np

    # label ids scanned, their names a list parameter (label_of); as strings when the names outnumber the rows
    labelled = {k: v for k, v in columns.items() if isinstance(v, LabelColumn) and len(v.names) <= n}
    widths = integer_widths(table)
    scanned = {k: _as_wide(v, widths.get(k)) if isinstance(v, np.ndarray) else np.asarray(values_of(v), dtype=object)
               for k, v in columns.items() if k not in labelled}
    conn.register("gamedb_rows", {k: labelled[k].ids if k in labelled else scanned[k] for k in columns})
    try:
        fixed = [str(int(v)) for v in constants.values()]
        made = {k: label_of(k, v.names) for k, v in labelled.items()}
        selected = [made[k][0] if k in made else k for k in columns]
        known = " AND ".join(f"t.{k} = {constants[k]}" if k in constants else f"t.{k} = gamedb_rows.{k}" for k in new_by)
        where = f" WHERE NOT EXISTS (SELECT 1 FROM {table} t WHERE {known})" if new_by else ""
        conn.execute(f"INSERT INTO {table} ({', '.join([*constants, *columns])}) SELECT {', '.join([*fixed, *selected])} FROM gamedb_rows{where}",
                     {name: value for _, parameter in made.values() for name, value in parameter.items()} or None)
    finally:
        conn.unregister("gamedb_rows")


#: DuckDB's integer types and their numpy dtypes
_INTEGERS = {"SMALLINT": "int16", "INTEGER": "int32", "BIGINT": "int64"}


@functools.lru_cache(maxsize=16)
def integer_widths(table: str) -> dict[str, str]:
    """column -> numpy dtype of each integer column of ``table`` at the newest revision (from :data:`DDL`)."""
    import re

    sql = generated_catalog().get(("table", table)) or ""
    body = sql[sql.find("(") + 1 : sql.rfind(")")]
    return {name: _INTEGERS[kind] for name, kind in re.findall(r'"?(\w+)"? (SMALLINT|INTEGER|BIGINT)\b', body)}


def _as_wide(values: Any, dtype: str | None) -> Any:
    """An integer array as its column's dtype (DuckDB's scan takes it as it is: cat-mouse's 2·10^6 rows appended with 0.03 s
    less CPU than when DuckDB cast int8 results and int64 degrees), masked entries kept; anything else as it is."""
    import numpy as np

    if dtype is None or values.dtype == dtype or values.dtype.kind not in "iu":
        return values
    if isinstance(values, np.ma.MaskedArray):
        return np.ma.MaskedArray(values.data.astype(dtype), mask=np.ma.getmaskarray(values))
    return values.astype(dtype)


def catalog(conn: Any) -> dict[tuple[str, str], str | None]:
    """(kind, name) -> SQL of every object in the connection's database, as DuckDB prints it (nothing runs); triggers
    where DuckDB has them (2.0 on: before, there are none to find)."""
    global _TRIGGERS
    if _TRIGGERS:
        try:
            found = conn.execute(_CATALOG + _TRIGGERS).fetchall()
        except Exception as exc:  # (the duckdb module's Error: the one this DuckDB raised for a function it lacks)
            if "duckdb_triggers" not in str(exc):
                raise
            _TRIGGERS = ""
        else:
            return {(str(kind), str(name)): sql for kind, name, sql in found}
    return {(str(kind), str(name)): sql for kind, name, sql in conn.execute(_CATALOG).fetchall()}


def older_ddl(revision: str) -> Path:
    """The generated catalog of a file at an older revision the readers answer from (``sqlite_file.READABLE_OLDER``)."""
    return DDL.with_name(f"duckdb_ddl_{revision}.sql")


@functools.lru_cache(maxsize=4)
def head_catalog(revision: str | None = None) -> dict[tuple[str, str], str | None]:
    """The catalog of a new file at the newest revision (or an older readable ``revision``): its DDL run in memory."""
    conn = connect(":memory:", read_only=False)
    try:
        return catalog(conn.execute((DDL if revision is None else older_ddl(revision)).read_text(encoding="utf-8")))
    finally:
        conn.close()


@functools.lru_cache(maxsize=1)
def generated_catalog() -> dict[tuple[str, str], str | None]:
    """:data:`DDL` read back as a catalog without DuckDB (its text is DuckDB's printing of the catalog)."""
    import re

    found: dict[tuple[str, str], str | None] = {}
    for statement in (s.strip() for s in DDL.read_text(encoding="utf-8").split(";\n")):
        named = re.match(r'CREATE (?:UNIQUE )?(TABLE|INDEX|VIEW|SEQUENCE) ("?)([^"(\s;]+)\2', statement)
        if named:
            kind = named.group(1).lower()
            found[(kind, named.group(3))] = None if kind == "sequence" else statement + ";"
    return found


def check_catalog(conn: Any, where: str, found: dict[tuple[str, str], str | None] | None = None) -> str | None:
    """Refuse a DuckDB file with objects gamedb did not create (below the newest revision: macros, types, schemas, triggers); its revision.
    ``found``: the file's :func:`catalog`, if read already."""
    found = catalog(conn) if found is None else found
    if not found:
        return None
    from .sqlite_file import READABLE_OLDER, newest_revision

    generated = generated_catalog()
    if ("table", "alembic_version") in found and all(generated.get(key, "") == sql for key, sql in found.items()):
        row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        if row is not None and str(row[0]) == newest_revision():  # each object as the DDL makes it: no DuckDB in memory to ask
            return str(row[0])
    expected = head_catalog()
    revision = None
    if found.get(("table", "alembic_version")) == expected[("table", "alembic_version")]:
        row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        revision = None if row is None else str(row[0])

    at_head = revision is not None and revision == newest_revision()
    if revision in READABLE_OLDER:  # read as it is: checked as closely as a newest file
        expected, at_head = head_catalog(revision), True
    problems = []
    names = {name: kind for kind, name in expected}
    for (kind, name), sql in sorted(found.items()):
        if (kind, name) in expected:
            if at_head and expected[(kind, name)] != sql:
                problems.append(f"its {kind} {shown(name)} is not the one gamedb creates (its SQL differs)")
        elif at_head or kind in ("macro", "type", "schema", "trigger"):
            where_ours = f" where gamedb creates a {names[name]}" if name in names else ", which gamedb never creates"
            problems.append(f"it has a {kind} {shown(name)}{where_ours}")
    if problems:
        raise refuse(where, problems)
    return revision


class DuckDBConnections:
    """A DuckDB file opened read-only and checked, a cursor per thread (as :class:`~gamedb.store.file_connections.FileConnections`)."""

    def __init__(self, location: Location, *, budget: float | None) -> None:
        self._base = connect(_checked_path(location), read_only=True)
        self._local = threading.local()
        #: the game rows read: no writer opens the file while this read-only connection holds its lock (one a thread: dict
        #: reads and writes are atomic); each ``SELECT`` of one took 0.3-3 ms, as much as an answer's lookup (issue 22)
        self.game_rows: dict[str, dict[str, Any]] = {}
        try:
            self.revision = check_catalog(self._base, location.shown)
        except BaseException:
            self.close()
            raise

    def connection(self) -> Any:
        """This thread's cursor (closed with the file's connection)."""
        if getattr(self._local, "conn", None) is None:
            self._local.conn = self._base.cursor()
        return self._local.conn

    def reading(self, *, scan: bool = False) -> AbstractContextManager[Any]:
        """This thread's cursor for one read (DuckDB files have no time budget: ``scan`` changes nothing)."""
        return nullcontext(self.connection())

    def close(self) -> None:
        self._base.close()


def install_ddl_rules() -> None:
    """No foreign keys on DuckDB (it refuses to delete rows they point to), no key on ``position``, floats as DOUBLE."""
    from sqlalchemy import Float
    from sqlalchemy.ext.compiler import compiles
    from sqlalchemy.schema import ForeignKeyConstraint, PrimaryKeyConstraint

    @compiles(PrimaryKeyConstraint, "duckdb")
    def _key(element: PrimaryKeyConstraint, compiler: Any, **kw: Any) -> str | None:
        return None if element.table.name == "position" else str(compiler.visit_primary_key_constraint(element, **kw))

    compiles(Float, "duckdb")(lambda element, compiler, **kw: "DOUBLE")
    compiles(ForeignKeyConstraint, "duckdb")(lambda element, compiler, **kw: None)
