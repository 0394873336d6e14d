"""The command line before the command, read without Typer by the light paths (:mod:`.quick`, :mod:`.quick_solve`)."""

from __future__ import annotations

import os


def global_options(argv: list[str], command: str) -> tuple[str, list[str]] | None:
    """(the database, ``argv`` from ``command`` on) when only ``--db`` comes before ``command``, else None."""
    db = os.environ.get("GAMEDB_DB") or "gamedb.sqlite"
    args = list(argv)
    while args and args[0] != command:  # global options before the command
        if args[0] == "--db" and len(args) >= 2:
            db, args = args[1], args[2:]
        elif args[0].startswith("--db="):
            db, args = args[0][len("--db=") :], args[1:]
        else:
            return None
    return (db, args) if args else None
