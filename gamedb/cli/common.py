"""Plumbing shared by every command: output, errors -> exit codes, the database option."""

from __future__ import annotations

import functools
import gc
import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Optional, TypeVar

import typer

from ..errors import GamedbError, NoDatabase, command_line_text
from ..safe_text import cut_middle, escaped, json_escaped
from ..store.location import DEFAULT_PATH, locate

if TYPE_CHECKING:
    from ..api import Database

EXIT_INTERRUPTED = 130
#: where the root command keeps the command line it parsed (``ctx.meta``, shared by every command's context)
ARGS_KEY = "gamedb.args"

F = TypeVar("F", bound=Callable[..., Any])

#: ``--game`` on a command that reads a stored game's rules
GameClassOption = Annotated[
    Optional[str],
    typer.Option(
        "--game",
        metavar="MODULE:CLASS",
        help="For a game solved from a Python class (solve --game module:Class): the same module:Class, "
        "which you trust to run. A database file never chooses code on its own.",
    ),
]


@dataclass
class Settings:
    """The root command's options, kept on Typer's context object (``ctx.obj``) for every command."""

    db: str = DEFAULT_PATH


def err(message: str, limit: int = 400) -> None:
    """One message on stderr: text from a file or a user is escaped, a long input cut to its ends (at ``limit``)."""
    print(cut_middle(escaped(message), limit), file=sys.stderr, flush=True)


def out(text: str) -> None:
    """Lines of data on stdout; names from a file never reach the terminal as escape sequences."""
    print(escaped(text, keep="\n"), flush=True)


#: what Ctrl+C says: a command that reads, one that writes (a solve, a copy, ...)
INTERRUPTED = "Interrupted."
INTERRUPTED_WRITING = "Interrupted. Work committed so far is kept; run the same command again to resume."


def handle_errors(fn: F, interrupted: str = INTERRUPTED) -> F:
    """Turn gamedb's errors (and database errors) into one line and an exit code (:func:`report_failure`)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        gc.enable()  # (off while the modules were imported: gamedb.cli.app.main)
        try:
            return fn(*args, **kwargs)
        except BaseException as exc:
            code = report_failure(exc, interrupted)
            if code is None:
                raise
            raise typer.Exit(code) from None

    return wrapper  # type: ignore[return-value]


def handle_write_errors(fn: F) -> F:
    """:func:`handle_errors` for a command that writes: an interrupt keeps what was committed, and the same command resumes
    (a command that only reads said so too, as if a query could be resumed)."""
    return handle_errors(fn, INTERRUPTED_WRITING)


def report_failure(exc: BaseException, interrupted: str = INTERRUPTED) -> int | None:
    """Say on stderr, in one line, why a command failed, and return its exit code; None: a bug, left to raise;
    ``interrupted``: the line for Ctrl+C."""
    if isinstance(exc, NoDatabase):  # the library names no command-line option; the command line does
        err(f"Error: {command_line_text(exc)} (solve a game first, or pass --db)")
        return exc.exit_code
    if isinstance(exc, GamedbError):  # its parameters named as flags (the library names them as Python does)
        err(f"Error: {command_line_text(exc)}")
        return exc.exit_code
    if isinstance(exc, KeyboardInterrupt):
        err(interrupted)
        return EXIT_INTERRUPTED
    if isinstance(exc, BrokenPipeError):  # `gamedb export ... | head`: the reader has had enough
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    from ..store.disk_full import is_disk_full

    if is_disk_full(exc):  # SQLite's "database or disk is full", ENOSPC: say it plainly
        err(
            "Error: no space left on device while writing the database; what was committed before is kept: "
            "free space on that disk and run the same command again"
        )
        return 1
    if isinstance(exc, OSError):  # a file we cannot read or write
        where = f": {exc.filename}" if exc.filename else ""
        err(f"Error: {exc.strerror or exc}{where}")
        return 1
    from ..store.file_check import driver_error_message

    if said := driver_error_message(exc):  # database driver errors: one line, never a traceback
        err(f"Error: {said}")
        return 1
    from ..games.plugin_code import failure_in_game_code

    if failed := failure_in_game_code(exc):  # a game class from --game or a plugin raised: its fault, said in one line
        err(f"Error: the game's own code failed: {failed}", 1000)
        return 1
    return None


def settings(ctx: typer.Context) -> Settings:
    """The root options of the running command (defaults when a command runs without the root callback)."""
    root = ctx.find_root()
    if not isinstance(root.obj, Settings):
        root.obj = Settings()
    return root.obj


def command_args(ctx: typer.Context) -> list[str] | None:
    """The running command's arguments as typed (after its name), or None when it runs without the root command."""
    args = ctx.meta.get(ARGS_KEY)
    if args is None:
        return None
    name = ctx.info_name
    return list(args[args.index(name) + 1 :]) if name in args else None


def open_database(
    ctx: typer.Context, *, create: bool = False, readonly: bool = False, game_class: str | None = None, short: bool = False
) -> Database:
    """The database named by ``--db``; ``game_class``: the user's ``--game``; ``short``: the command's reads are short
    (list, query, play), so each statement gets a time budget (:func:`gamedb.store.file_check.read_budget`)."""
    from ..api import Database
    from ..store.file_check import read_budget

    where = locate(settings(ctx).db)
    classes = [game_class] if game_class else []
    budget = read_budget() if short else None
    return Database(where, create=create, readonly=readonly and (where.is_file or where.is_duckdb), game_classes=classes, budget=budget)


def stored_name(db: Database, name: str) -> str:
    """The stored game a command's NAME stands for (:meth:`gamedb.api.Database.stored_name`); a family's name
    that stands for its one game is said on stderr, and so is a ``--game`` that this game does not use."""
    found = db.stored_name(name)
    if found != name:
        err(f"Note: using {found}, the one {name} game in this database.")
    if db.game_classes and ":" not in (family := db.game(found).family):  # (a class's game names it: used, or said not to be)
        err(f"Note: --game {', '.join(sorted(db.game_classes))} is not used: {found} is a game of the family {family}, whose rules "
            "need no class (--game is for a game solved from a Python class).")
    return found


def show_json(data: Any) -> None:
    out(json_escaped(json.dumps(data, indent=2, ensure_ascii=False)))
