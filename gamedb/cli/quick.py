"""The ``gamedb`` console script: a plain query without Typer, everything else through Typer.

A ``gamedb query`` process would spend most of its time importing Typer and
pydantic (about 0.12 s), not answering. When the command line is a plain
query (``gamedb [--db DB] query NAME [POSITION|-] [--json|--format F]``),
this module reads it and runs the command's own body
(:func:`gamedb.cli.query_run.run_query`, which Typer's command runs too) on
the database opened as every command opens it; a failure is reported as
Typer's commands report it (:func:`gamedb.cli.common.report_failure`).
Anything else -- another command, help, ``--game``, an option it does not
know or a clash of options -- goes to the full command line
(:mod:`gamedb.cli.app`), which reads it or says what is wrong in its usual words.
"""

from __future__ import annotations

import gc
import sys
from dataclasses import dataclass

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


def try_quick(argv: list[str]) -> bool:
    """Answer ``argv`` on the light path and return True (ending the process on a failure, said as the
    full path says it), or return False having done nothing: the full command line reads it."""
    request = parse_query(argv)
    if request is None:
        return False
    from .common import database_at, report_failure
    from .query_run import run_query

    try:
        db = database_at(request.db, readonly=True, short=True)
        gc.enable()  # (disabled while importing, by main) answering many positions makes garbage, error tracebacks cycles
        run_query(db, request.name, request.position, request.fmt, request.stdin)
    except BaseException as exc:  # reported as Typer's commands report it (handle_errors)
        code = report_failure(exc)
        if code is None:
            raise
        sys.exit(code)
    return True


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
