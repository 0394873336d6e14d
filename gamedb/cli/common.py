"""Plumbing shared by every command: output, errors -> exit codes, the database option."""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Optional, TypeVar

import typer

from ..errors import GamedbError
from ..safe_text import cut_middle, escaped, json_escaped

if TYPE_CHECKING:
    from ..api import Database

EXIT_INTERRUPTED = 130

F = TypeVar("F", bound=Callable[..., Any])


@dataclass
class Settings:
    """The root command's options, kept on Typer's context object (``ctx.obj``) for every command."""

    db: str = "gamedb.sqlite"


def err(message: str, limit: int = 400) -> None:
    """One message on stderr: text from a file or a user is escaped, a long input cut to its ends (at ``limit``)."""
    print(cut_middle(escaped(message), limit), file=sys.stderr, flush=True)


def out(text: str) -> None:
    """Lines of data on stdout; names from a file never reach the terminal as escape sequences."""
    print(escaped(text, keep="\n"), flush=True)


def handle_errors(fn: F) -> F:
    """Turn gamedb's errors (and database errors) into one line and an exit code."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except GamedbError as exc:
            err(f"Error: {exc}")
            raise typer.Exit(exc.exit_code) from None
        except KeyboardInterrupt:
            err("Interrupted. Work committed so far is kept; run the same command again to resume.")
            raise typer.Exit(EXIT_INTERRUPTED) from None
        except BrokenPipeError:  # `gamedb export ... | head`: the reader has had enough
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            raise typer.Exit(0) from None
        except OSError as exc:  # a file we cannot read or write
            where = f": {exc.filename}" if exc.filename else ""
            err(f"Error: {exc.strerror or exc}{where}")
            raise typer.Exit(1) from None
        except Exception as exc:  # database driver errors: one line, never a traceback
            if type(exc).__module__.split(".")[0] in ("sqlalchemy", "sqlite3", "psycopg"):
                reason = getattr(exc, "orig", None) or exc
                err(f"Error: database error: {str(reason).splitlines()[0]}")
                raise typer.Exit(1) from None
            raise

    return wrapper  # type: ignore[return-value]


def settings(ctx: typer.Context) -> Settings:
    """The root options of the running command (defaults when a command runs without the root callback)."""
    root = ctx.find_root()
    if not isinstance(root.obj, Settings):
        root.obj = Settings()
    return root.obj


def open_database(ctx: typer.Context, *, create: bool = False, readonly: bool = False, game_class: str | None = None) -> Database:
    """The database named by ``--db``; ``game_class``: the user's ``--game`` (see :data:`GameClassOption`)."""
    from ..api import Database

    db = settings(ctx).db
    classes = [game_class] if game_class else []
    return Database(db, create=create, readonly=readonly and "://" not in db, game_classes=classes)


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


def show_json(data: Any) -> None:
    out(json_escaped(json.dumps(data, indent=2, ensure_ascii=False)))
