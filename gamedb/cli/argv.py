"""The command line around the command, read without Typer: the global options on either side of the command.

The root command's options (``--db``, ``--version``) may come before the
command (``gamedb --db x.sqlite stats tictactoe``) or anywhere after it, up
to ``--`` (``gamedb stats tictactoe --db x.sqlite``). :func:`hoist_global_options`
moves the latter before the command for Typer (:mod:`.app`); the light paths
(:mod:`.quick`, :mod:`.quick_solve`) read them with :func:`global_options`.
"""

from __future__ import annotations

import os

from ..store.location import DEFAULT_PATH

#: the root command's options that take a value / take none
GLOBAL_VALUE_OPTIONS = ("--db",)
GLOBAL_FLAGS = ("--version",)


def hoist_global_options(args: list[str]) -> list[str]:
    """``args`` with the global options given after the command moved before it (``--`` ends the search).

    ``gamedb stats tictactoe --db x.sqlite`` becomes ``gamedb --db x.sqlite
    stats tictactoe``. Anything before the command is left as it is: a
    mistake there is the root parser's to report.
    """
    i = 0
    while i < len(args) and args[i].startswith("-"):  # the options before the command
        i += 2 if args[i] in GLOBAL_VALUE_OPTIONS else 1
    if i >= len(args):
        return list(args)
    before, command, rest = list(args[:i]), args[i], args[i + 1 :]
    moved: list[str] = []
    kept: list[str] = []
    j = 0
    while j < len(rest):
        arg = rest[j]
        if arg == "--":
            kept.extend(rest[j:])
            break
        if arg in GLOBAL_VALUE_OPTIONS and j + 1 < len(rest):  # (without its value it stays, for the command to refuse)
            moved.extend(rest[j : j + 2])
            j += 2
            continue
        if arg in GLOBAL_FLAGS or arg.startswith(tuple(f"{flag}=" for flag in GLOBAL_VALUE_OPTIONS)):
            moved.append(arg)
        else:
            kept.append(arg)
        j += 1
    return [*before, *moved, command, *kept]


def global_options(argv: list[str], command: str) -> tuple[str, list[str]] | None:
    """(the database, ``argv`` from ``command`` on without the global options) when ``argv`` runs ``command``
    with no global option but ``--db`` (before or after the command), else None."""
    db = os.environ.get("GAMEDB_DB") or DEFAULT_PATH
    args = hoist_global_options(list(argv))
    while args and args[0] != command:  # global options before the command
        if args[0] == "--db" and len(args) >= 2:
            db, args = args[1], args[2:]
        elif args[0].startswith("--db="):
            db, args = args[0][len("--db=") :], args[1:]
        else:
            return None
    return (db, args) if args else None


def dash_reads_stdin(args: list[str], value_options: tuple[str, ...] = ()) -> bool:
    """Whether a ``-`` among ``args`` (a command's arguments) stands for stdin: it comes before ``--`` as an argument
    (not as the value of one of ``value_options``). After ``--`` every argument is taken as written."""
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            return False
        if arg == "-":
            return True
        i += 2 if arg in value_options else 1
    return False
