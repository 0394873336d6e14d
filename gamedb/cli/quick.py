"""The ``gamedb`` console script: answers a query on a SQLite file without the heavy imports.

A ``gamedb query`` process spends most of its time importing SQLAlchemy,
Typer and pydantic, not answering. When the command line is a plain query
(``gamedb [--db FILE] query NAME [POSITION|-] [--json|--format F]``) on a SQLite file at
the newest schema, whose game is solved with a built-in family, this module
answers it with the standard library's ``sqlite3`` (read-only URI), through
the same code that builds and prints every answer (:mod:`gamedb.query`,
:mod:`gamedb.answers`). Anything else -- another command, help, a server URL,
a file that needs migrating, a plugin's game, any error -- goes to the full
command line (:mod:`gamedb.cli.app`), which then says what is wrong in its usual
words. Nothing is printed before the light path knows it can answer.
"""

from __future__ import annotations

import functools
import gc
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..answers import Answer
    from ..errors import GamedbError
    from .stored_read import Prepared

from .argv import global_options


@dataclass
class QueryRequest:
    """A plain ``query`` command line."""

    db: str
    name: str
    position: str | None
    fmt: str = "table"
    #: ``gamedb query NAME -``: positions one per line on stdin
    stdin: bool = False


def parse_query(argv: list[str]) -> QueryRequest | None:
    """The request if ``argv`` is a plain query the light path can answer, else None.

    Reads the same options as the full command (``--json``, ``--format``,
    ``--position``, ``--``); anything else, or a mistake, is left to the
    full parser to report.
    """
    found = global_options(argv, "query")
    if found is None:
        return None
    db, args = found
    from ..answer_output import FORMATS
    positional: list[str] = []
    options: dict[str, str] = {}
    literal = 0  # how many of the positionals came after --, taken as written (`-` is then a position)
    rest = iter(args[1:])
    for arg in rest:
        if arg == "--":
            tail = list(rest)
            positional.extend(tail)
            literal = len(tail)
        elif arg == "--json":
            options["json"] = "json"
        elif arg in ("--format", "--position", "-f", "-p"):
            key = {"-f": "format", "-p": "position"}.get(arg, arg[2:])
            value = next(rest, None)
            if value is None or key in options:
                return None
            options[key] = value
        elif arg.startswith(("--format=", "--position=")):
            key, _, value = arg[2:].partition("=")
            if key in options:
                return None
            options[key] = value
        elif arg.startswith("-") and arg != "-":  # help, another option: the full parser decides
            return None
        else:
            positional.append(arg)
    if not 1 <= len(positional) <= 2 or ("position" in options and len(positional) == 2):
        return None
    if "json" in options and options.get("format", "json") != "json":
        return None
    position = options.get("position", positional[1] if len(positional) == 2 else None)
    stdin = "position" not in options and position == "-" and literal == 0
    fmt = options.get("json") or options.get("format") or ("jsonl" if stdin else "table")
    if fmt not in FORMATS:
        return None
    return QueryRequest(db, positional[0], None if stdin else position, fmt, stdin)


def prepare(request: QueryRequest) -> Prepared | None:
    """(connection, reader, record, rules) when the light path can answer ``request``, else None."""
    from .stored_read import open_solved

    return open_solved(request.db, request.name)


def answer_text(request: QueryRequest) -> tuple[str, str] | None:
    """(stdout, stderr) of a query for one position, or None when the full path must answer it."""
    prepared = prepare(request)
    if prepared is None:
        return None
    conn, reader, record, game = prepared
    try:
        from ..answer_output import one_answer_text
        from ..answers import rules_missing_note
        from ..query import answer_positions
        from ..safe_text import NOTE_LIMIT
        from .common import family_note

        (answer,) = answer_positions(reader, record, game, None, [request.position])
        if isinstance(answer, Exception):
            return None
        note = rules_missing_note(answer) if request.fmt == "table" else None
        notes = (error_line(family_note(request.name, record.name)) if record.name != request.name else "") + (
            error_line(note, NOTE_LIMIT) if note else ""
        )
        return one_answer_text(answer, request.fmt), notes
    finally:
        conn.close()


def answer_stdin(request: QueryRequest, prepared: Prepared, stdin: IO[str], write: Callable[[str], object]) -> tuple[int, int]:
    """Answer the positions on ``stdin`` (``gamedb query NAME -``); returns (answered, failed)."""
    from ..answer_output import read_positions, write_many
    from ..errors import BeyondSolvedRange
    from ..query import answer_positions, name_holders
    from .common import family_note

    conn, reader, record, game = prepared
    if record.name != request.name:
        sys.stderr.write(error_line(family_note(request.name, record.name)))
    try:
        def answer_batch(batch: Sequence[str]) -> list[Answer | GamedbError]:
            answers = answer_positions(reader, record, game, None, batch, boards=False)
            if any(isinstance(answer, BeyondSolvedRange) for answer in answers):  # past its --max: which other game has it?
                answers = name_holders(reader, record, batch, answers)
            return answers

        return write_many(answer_batch, read_positions(stdin), request.fmt, write)
    finally:
        conn.close()


def try_quick(argv: list[str]) -> bool:
    """Answer ``argv`` on the light path and return True, or return False having printed nothing."""
    request = parse_query(argv)
    if request is None:
        return False
    write: Callable[[], None]
    try:
        if request.stdin:
            prepared = prepare(request)
            if prepared is None:
                return False
            write = functools.partial(_write_stdin, request, prepared)
        else:
            found = answer_text(request)
            if found is None:
                return False
            write = functools.partial(_write_text, *found)
    except Exception:  # whatever went wrong, the full path reports it in its own words
        return False
    gc.enable()  # (disabled while importing, by main) answering many positions makes garbage, error tracebacks cycles
    try:
        write()
    except BrokenPipeError:  # `gamedb query ... | head`: the reader has had enough
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return True


def _write_stdin(request: QueryRequest, prepared: Prepared) -> None:
    from ..errors import GamedbError
    from .collector import collect_less_often

    collect_less_often()
    try:
        done, failed = answer_stdin(request, prepared, sys.stdin, sys.stdout.write)
    except GamedbError as exc:  # a damaged row met half way: one line, as the full path says it
        sys.stdout.flush()
        sys.stderr.write(error_line(f"Error: {exc}"))
        sys.exit(1)
    sys.stdout.flush()
    if failed:
        sys.stderr.write(f"Error: {failed:,} of {done:,} positions could not be answered\n")
        sys.exit(1)


def _write_text(out: str, err: str) -> None:
    sys.stdout.write(out)
    sys.stdout.flush()
    if err:
        sys.stderr.write(err)
        sys.stderr.flush()


def error_line(message: str, limit: int = 400) -> str:
    """A message for stderr as the full path's :func:`gamedb.cli.common.err` writes it: escaped, cut, one line."""
    from ..safe_text import cut_middle, escaped

    return cut_middle(escaped(message), limit) + "\n"


def main() -> None:
    """Console-script entry point: the light path for plain queries, else the full command line.

    The garbage collector is off while the modules are imported (they make
    hundreds of thousands of long-lived objects, and every collection meanwhile
    scans them for nothing: 15-25% of SQLAlchemy's import); each path turns it
    on before its work starts.
    """
    gc.disable()
    if try_quick(sys.argv[1:]):
        sys.exit(0)
    if "solve" in sys.argv:
        from .quick_solve import try_solve

        try_solve(sys.argv[1:])  # exits when it solved (or refused) the game; returns when the full path must
    gc.enable()
    from .app import main as full_main

    full_main()
