"""The ``gamedb`` console script: answers a query on a SQLite file without the heavy imports.

A ``gamedb query`` process spends most of its time importing SQLAlchemy,
Typer and pydantic, not answering. When the command line is a plain query
(``gamedb [--db FILE] query NAME [POSITION] [--json]``) on a SQLite file at
the newest schema, whose game is solved with a built-in family, this module
answers it with the standard library's ``sqlite3`` (read-only URI), through
the same code that builds and prints every answer (:mod:`gamedb.query`,
:mod:`gamedb.answer`). Anything else -- another command, help, a server URL,
a file that needs migrating, a plugin's game, any error -- goes to the full
command line (:mod:`gamedb.cli.app`), which then says what is wrong in its usual
words. Nothing is printed before the light path knows it can answer.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from dataclasses import dataclass
from pathlib import Path


@dataclass
class QueryRequest:
    """A plain ``query`` command line."""

    db: str
    name: str
    position: str | None
    as_json: bool


def parse_query(argv: list[str]) -> QueryRequest | None:
    """The request if ``argv`` is a plain query the light path can answer, else None."""
    db = os.environ.get("GAMEDB_DB") or "gamedb.sqlite"
    args = list(argv)
    while args and args[0] != "query":  # global options before the command
        if args[0] == "--db" and len(args) >= 2:
            db, args = args[1], args[2:]
        elif args[0].startswith("--db="):
            db, args = args[0][len("--db=") :], args[1:]
        else:
            return None
    if not args:
        return None
    positional: list[str] = []
    as_json = False
    for arg in args[1:]:
        if arg == "--json":
            as_json = True
        elif arg.startswith("-"):  # help, another option, a position that looks like one: the full parser decides
            return None
        else:
            positional.append(arg)
    if not 1 <= len(positional) <= 2:
        return None
    return QueryRequest(db, positional[0], positional[1] if len(positional) == 2 else None, as_json)


def answer_text(request: QueryRequest) -> tuple[str, str] | None:
    """(stdout, stderr) of the query, or None when the full path must answer it."""
    if "://" in request.db:
        return None
    path = Path(request.db).expanduser().absolute()
    if not path.is_file():
        return None
    from ..store.revisions import head_from_files
    from ..store.sqlite_file import check_sqlite_version, installed_migrations_dir, readonly_uri

    check_sqlite_version()
    migrations = installed_migrations_dir()
    head = head_from_files(migrations) if migrations is not None else None
    if head is None:
        return None
    conn = sqlite3.connect(readonly_uri(path), uri=True, timeout=30)
    try:
        return _answer_on(conn, head, request)
    finally:
        conn.close()


def _answer_on(conn: sqlite3.Connection, head: str, request: QueryRequest) -> tuple[str, str] | None:
    from ..answer import answer_lines, rules_missing_note
    from ..games import BUILTIN
    from ..query import answer_positions
    from ..store.readers import SqliteReader
    from ..store.record import record_from_mapping

    revision = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    if revision is None or revision[0] != head:
        return None
    reader = SqliteReader(conn)
    row = reader.game_row(request.name)
    if row is None:
        return None
    record = record_from_mapping(row)
    if not record.solved or record.family not in BUILTIN:
        return None
    (answer,) = answer_positions(reader, record, record.rules(), None, [request.position])
    if isinstance(answer, Exception):
        return None
    if request.as_json:
        return json.dumps(answer.to_json(), indent=2, ensure_ascii=False) + "\n", ""
    note = rules_missing_note(answer)
    return "".join(line + "\n" for line in answer_lines(answer)), (note + "\n" if note else "")


def try_quick(argv: list[str]) -> bool:
    """Answer ``argv`` on the light path and return True, or return False having printed nothing."""
    request = parse_query(argv)
    if request is None:
        return False
    try:
        found = answer_text(request)
    except Exception:  # whatever went wrong, the full path reports it in its own words
        return False
    if found is None:
        return False
    out, err = found
    try:
        sys.stdout.write(out)
        sys.stdout.flush()
    except BrokenPipeError:  # `gamedb query ... | head`: the reader has had enough
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    if err:
        sys.stderr.write(err)
        sys.stderr.flush()
    return True


def main() -> None:
    """Console-script entry point: the light path for plain queries, else the full command line."""
    if try_quick(sys.argv[1:]):
        sys.exit(0)
    from .app import main as full_main

    full_main()
