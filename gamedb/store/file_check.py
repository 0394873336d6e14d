"""What gamedb checks in a SQLite file before it reads a row: SQLite runs code stored in a file (views, triggers).

A regular file with no stray ``-wal`` (:func:`check_file`), exactly the schema objects gamedb creates
(:func:`check_schema`), read with ``trusted_schema`` off and a time budget per statement.
"""

from __future__ import annotations

import functools
import os
import re
import sqlite3
import stat
import time
from pathlib import Path

from ..errors import DatabaseError
from ..safe_text import shown

#: seconds one statement of a short read (query, list, play, serve) may run (``GAMEDB_READ_BUDGET`` changes it; 0: none)
READ_BUDGET = 5.0

#: seconds the schema check's own statements may run, whatever the command
CHECK_BUDGET = 5.0

#: the tables SQLite itself adds to a file (``ANALYZE``), with the text it gives them: allowed, never required
SQLITE_OWN = {
    ("table", "sqlite_stat1"): ("sqlite_stat1", "CREATE TABLE sqlite_stat1(tbl,idx,stat)"),
    ("table", "sqlite_stat4"): ("sqlite_stat4", "CREATE TABLE sqlite_stat4(tbl,idx,neq,nlt,ndlt,sample)"),
}

#: (type, name) -> (table, SQL as stored, None for SQLite's own indexes): a schema as :func:`check_schema` compares it
Objects = dict[tuple[str, str], tuple[str, str | None]]


def read_budget() -> float | None:
    """The time budget of a short read's statements, in seconds (None: no budget), from ``GAMEDB_READ_BUDGET``."""
    text = os.environ.get("GAMEDB_READ_BUDGET")
    if text is None:
        return READ_BUDGET
    try:
        value = float(text)
    except ValueError:
        return READ_BUDGET
    return value if value > 0 else None


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def _kind(mode: int) -> str:
    return next((what for test, what in _KINDS if test(mode)), "not a regular file")


#: the first bytes of a SQLite file, and DuckDB's magic at bytes 8-12 of its file
SQLITE_HEADER = b"SQLite format 3\x00"
DUCKDB_MAGIC = b"DUCK"


def check_file(path: Path, where: str | None = None, *, duckdb: bool = False) -> None:
    """Raise :class:`DatabaseError` unless ``path`` is a regular file (through symbolic links) with no stray ``-wal``,
    and not plainly a file of the other kind (``duckdb``: the path names a DuckDB file, else a SQLite one)."""
    where = where if where is not None else str(path)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        if not path.parent.is_dir():  # (to be made: SQLite said only "unable to open database file")
            raise DatabaseError(f"cannot make {where}: there is no folder {shown(str(path.parent))} (make it first, or give another path)") from None
        return
    except OSError as exc:
        raise DatabaseError(f"cannot read {where}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(mode):
        link = " (through a symbolic link)" if os.path.islink(path) else ""
        raise DatabaseError(f"{where} is not a regular file: it is {_kind(mode)}{link}; gamedb reads databases from regular files only")
    _check_kind(path, where, duckdb)
    wal = Path(f"{path}-wal")
    try:
        wal_size = os.lstat(wal).st_size
    except OSError:
        return
    if wal_size > 0 and not _header_says_wal(path):
        raise DatabaseError(
            f"{where} is in rollback-journal mode, yet a write-ahead log {wal.name} lies beside it, which SQLite would apply "
            "unseen: gamedb never leaves one there; remove it (or move it away) if you trust the file"
        )


def database_kind(path: Path) -> str | None:
    """"sqlite" or "duckdb" by the file's first bytes; None for any other file, or one that cannot be read."""
    try:
        with open(path, "rb") as f:
            head = f.read(16)
    except OSError:
        return None
    return "sqlite" if head == SQLITE_HEADER else "duckdb" if head[8:12] == DUCKDB_MAGIC else None


def _check_kind(path: Path, where: str, duckdb: bool) -> None:
    """Refuse a DuckDB file named as a SQLite one, or the other way round (the path's ending chooses the backend; a file
    that cannot be read: the database's own open says why)."""
    kind = database_kind(path)
    if not duckdb and kind == "duckdb":
        raise DatabaseError(f"{where} is a DuckDB file, but only a path ending in .duckdb is read as DuckDB: rename it to {path.stem}.duckdb")
    if duckdb and kind == "sqlite":
        raise DatabaseError(f"{where} is a SQLite file, but a path ending in .duckdb is read as DuckDB: rename it to {path.stem}.sqlite")


def _header_says_wal(path: Path) -> bool:
    from .sqlite_file import journal_is_wal

    return journal_is_wal(path)


#: a quoted string or identifier, kept as it is by :func:`normalized_sql` (patterns compiled when first used, by
#: ``re``'s cache: compiling them on import cost every query process about 2 ms, and most files never need them)
_QUOTED = r"""('(?:[^']|'')*'|"(?:[^"]|"")*"|`[^`]*`|\[[^\]]*\])"""


def normalized_sql(sql: str | None) -> str | None:
    """``sql`` with its whitespace outside quotes normalized: runs made one space, none around ``(``, ``)`` and ``,``."""
    if sql is None:
        return None
    parts = re.split(_QUOTED, sql)
    for i in range(0, len(parts), 2):  # the even parts lie outside quotes
        parts[i] = re.sub(r" ?([(),]) ?", r"\1", re.sub(r"\s+", " ", parts[i]))
    return "".join(parts).strip()


def objects_of(conn: sqlite3.Connection) -> Objects:
    """The schema objects of ``conn``'s main database, read from ``sqlite_master`` (no object runs)."""
    rows = conn.execute("SELECT type, name, tbl_name, sql FROM main.sqlite_master").fetchall()
    return {(str(kind), str(name)): (str(table), None if sql is None else str(sql)) for kind, name, table, sql in rows}


def same(want: tuple[str, str | None], got: tuple[str, str | None]) -> bool:
    """Whether two objects are on the same table with the same SQL, whitespace aside (:func:`normalized_sql`)."""
    return want[0] == got[0] and (want[1] == got[1] or normalized_sql(want[1]) == normalized_sql(got[1]))


@functools.lru_cache(maxsize=1)
def head_objects() -> Objects:
    """The schema objects of a file at the newest revision, built in memory with the statements a new file is made with."""
    return _objects_made_by(None)


@functools.lru_cache(maxsize=4)
def _objects_made_by(revision: str | None) -> Objects:
    """The schema objects the generated statements of ``revision`` (None: the newest) make in memory."""
    from .sqlite_file import GENERATED, new_file_statements, older_ddl

    conn = sqlite3.connect(":memory:")
    try:
        for statement in new_file_statements(GENERATED if revision is None else older_ddl(revision)):
            conn.execute(statement)
        return objects_of(conn)
    finally:
        conn.close()


def _article(kind: str) -> str:
    return f"an {kind}" if kind[:1] in "aeiou" else f"a {kind}"


def _name(kind: str, name: str, table: str) -> str:
    on = f" on {shown(table)}" if kind in ("index", "trigger") and table != name else ""
    return f"{_article(kind)} {shown(name)}{on}"


def differences(found: Objects, expected: Objects) -> list[str]:
    """What in ``found`` gamedb did not create, as phrases, the most telling first; empty when all is in ``expected``."""
    kinds = {name: kind for kind, name in expected}
    problems: list[tuple[int, str, str, str]] = []
    for (kind, name), (table, sql) in found.items():
        want = expected.get((kind, name)) or SQLITE_OWN.get((kind, name))
        if want is None and name in kinds:
            problems.append((0, kind, name, f"it has {_name(kind, name, table)} where gamedb creates {_article(kinds[name])}"))
        elif want is None:
            rank = {"trigger": 1, "view": 2}.get(kind, 3)
            problems.append((rank, kind, name, f"it has {_name(kind, name, table)}, which gamedb never creates"))
        elif not same(want, (table, sql)):
            problems.append((4, kind, name, f"its {kind} {shown(name)} is not the one gamedb creates (its SQL differs)"))
    return [phrase for *_, phrase in sorted(problems)]


def refuse(where: str, problems: list[str]) -> DatabaseError:
    """The one-line error for a file with objects gamedb did not create."""
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return DatabaseError(
        f"{where} is not a gamedb database as gamedb writes it: {problems[0]}{more}; "
        "gamedb reads no file with objects it did not create"
    )


def check_schema(conn: sqlite3.Connection, where: str, *, budget: float | None = None) -> str | None:
    """Check the schema of ``conn``'s file and return its revision (None: no ``alembic_version``, e.g. an empty file)."""
    from .sqlite_file import READABLE_OLDER, newest_revision

    set_budget(conn, CHECK_BUDGET)
    try:
        try:
            found = objects_of(conn)
        except sqlite3.DatabaseError as exc:
            raise DatabaseError(f"cannot open {where} as a gamedb database: {str(exc).splitlines()[0] if str(exc) else exc}") from None
        if not found:
            return None
        expected = head_objects()
        key = ("table", "alembic_version")
        if key not in found:
            if any(name == "alembic_version" for _, name in found):
                raise refuse(where, differences({k: v for k, v in found.items() if k[1] == "alembic_version"}, expected))
            return None
        if not same(expected[key], found[key]):
            raise refuse(where, [f"its table {shown('alembic_version')} is not the one gamedb creates (its SQL differs)"])
        row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        revision = str(row[0]) if row is not None else None
        if revision is not None and (revision == newest_revision() or revision in READABLE_OLDER):
            problems = differences(found, expected if revision == newest_revision() else _objects_made_by(revision))
            if problems:
                raise refuse(where, problems)
        return revision
    finally:
        set_budget(conn, budget)


def check_revision(conn: sqlite3.Connection, where: str, expected: Objects) -> None:
    """Refuse a file whose objects are not all among ``expected`` (the objects of its revision)."""
    problems = differences(objects_of(conn), expected)
    if problems:
        raise refuse(where, problems)


class _Budget:
    """A per-statement deadline: the trace callback starts each statement's clock, the progress handler stops it."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds

    def start(self, _statement: str) -> None:
        self.deadline = time.monotonic() + self.seconds

    def over(self) -> int:
        return 1 if time.monotonic() > self.deadline else 0


#: SQLite virtual machine steps between two looks at the clock (about a millisecond of work)
_STEPS = 20_000


def set_budget(conn: sqlite3.Connection, seconds: float | None) -> None:
    """Stop any statement on ``conn`` that runs longer than ``seconds`` (None: no budget); ``trusted_schema`` off either way."""
    conn.execute("PRAGMA trusted_schema = OFF")
    if seconds is None:
        conn.set_progress_handler(None, 0)
        conn.set_trace_callback(None)
        return
    budget = _Budget(seconds)
    conn.set_trace_callback(budget.start)
    conn.set_progress_handler(budget.over, _STEPS)


def budget_message() -> str:
    """What a user is told when a statement ran out of its time budget."""
    seconds = read_budget() or READ_BUDGET
    return (
        f"a statement ran longer than the {seconds:g} s gamedb gives one read and was stopped "
        "(a damaged file, or one made to be slow; GAMEDB_READ_BUDGET=SECONDS changes the budget)"
    )


#: the modules of the database drivers whose errors a user can cause (a damaged file, a server gone): said in one line
DRIVERS = ("sqlalchemy", "sqlite3", "psycopg", "duckdb", "_duckdb")


def driver_error_message(exc: BaseException) -> str | None:
    """The one line for a database driver's error (a statement out of its time budget: :func:`budget_message`); None for
    any other exception."""
    if not isinstance(exc, Exception) or type(exc).__module__.split(".")[0] not in DRIVERS:
        return None
    reason = getattr(exc, "orig", None) or exc
    if str(reason) == "interrupted":  # (sqlite3's progress handler stopped it)
        return budget_message()
    return f"database error: {str(reason).splitlines()[0]}{SERVER_HINTS.get(getattr(reason, 'sqlstate', None) or '', '')}"


#: what a server's error code adds to its one line, for the errors a user meets (keyed by SQLSTATE)
SERVER_HINTS = {
    "42501": " (the server's role in the URL lacks this privilege: grant it, or use a role that may write gamedb's tables)",
    "57P01": " (the server was stopped or restarted: run the command again once it is up; a solve resumes)",
}
