"""The ``gamedb`` command line: thin — parse, call the library, print.

Data goes to stdout, messages and progress bars to stderr. Errors raised by
the library (:mod:`gamedb.errors`) become one-line ``Error: ...`` messages
in one place (:func:`gamedb.cli.common.handle_errors`): exit 1 for
operational errors, 2 for malformed input. One module per command group
registers its commands (``register``); the root builds a command, importing its module, only when
it is called or help lists it (:data:`COMMANDS`, :mod:`.lazy`).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Annotated, Any, Optional

import typer

from ..games import family_names
from ..store.location import DEFAULT_PATH
from .argv import hoist_global_options
from .common import ARGS_KEY, EXIT_INTERRUPTED, Settings, err, out
from .help_format import use_plain_argument_names
from .lazy import LazyGroup, commands_of

use_plain_argument_names()

#: each command -> the module (``gamedb.cli.NAME``) whose ``register`` adds it, in the order ``gamedb --help`` lists them
COMMANDS = {
    **dict.fromkeys(("games", "list", "query", "stats", "verify"), "info"),
    **dict.fromkeys(("copy", "compact", "export"), "data"),
    "play": "play",
    "solve": "solve",
    "db": "maintenance",
    "serve": "serve",
}


class OneLineErrors(LazyGroup):
    """The root command: usage mistakes (unknown command, bad option value) as one ``Error:`` line, exit 2.

    Click would print the usage block, a hint and the error on four lines;
    gamedb's contract is one line on stderr for every mistake. Help and
    ``--version`` behave as usual.
    """

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        args = hoist_global_options(list(sys.argv[1:] if args is None else args))  # `gamedb stats NAME --db FILE`
        if not windows_expand_args:  # Click 8.0.0 has no such parameter: passed on only when asked for
            extra["windows_expand_args"] = False
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        errors = _click_exceptions()
        no_args = getattr(errors, "NoArgsIsHelpError", ())
        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except no_args as exc:  # `gamedb` or `gamedb solve` alone: the help
            exc.show()
            sys.exit(exc.exit_code)
        except errors.UsageError as exc:
            err(f"Error: {usage_message(exc)}")
            sys.exit(2)
        except errors.ClickException as exc:
            err(f"Error: {exc.format_message()}")
            sys.exit(exc.exit_code)
        except typer.Abort:
            err("Aborted.")
            sys.exit(EXIT_INTERRUPTED)
        sys.exit(rv if isinstance(rv, int) else 0)


    def names(self) -> list[str]:
        return list(COMMANDS)

    def build(self, name: str) -> Any:
        return commands_of(command_group(COMMANDS[name]).register).get(name)

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        ctx.meta[ARGS_KEY] = list(args)  # the command line as typed (after hoisting): `query NAME -- -` reads it
        return super().parse_args(ctx, args)


def command_group(group: str) -> ModuleType:
    """The module of a command group (:data:`COMMANDS`), imported now: plain imports, which a reader can follow."""
    if group == "info":
        from . import info

        return info
    if group == "data":
        from . import data

        return data
    if group == "play":
        from . import play

        return play
    if group == "solve":
        from . import solve

        return solve
    if group == "maintenance":
        from . import maintenance

        return maintenance
    if group == "serve":
        from . import serve

        return serve
    raise KeyError(group)


def _click_exceptions() -> ModuleType:
    """Click's exception module: Typer >= 0.20 carries its own copy of Click, older ones use Click."""
    try:
        return importlib.import_module("typer._click.exceptions")
    except ImportError:
        return importlib.import_module("click.exceptions")


def usage_message(exc: Any) -> str:  # a UsageError of _click_exceptions()
    """One line for a usage mistake, naming the command and where to read its help."""
    message = " ".join(exc.format_message().split())
    path = exc.ctx.command_path if exc.ctx is not None else "gamedb"
    if message.startswith("No such command") and path.endswith(" solve"):
        message += f" Known families: {', '.join(family_names())}; or --game module:Class."
    return f"{message} (see '{path} --help')"


app = typer.Typer(
    name="gamedb",
    cls=OneLineErrors,
    help="Strongly solve finite two-player games and keep every answer in SQL.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},  # inherited by every subcommand
    epilog="\b\nExamples:\n  gamedb solve tictactoe\n  gamedb query tictactoe X...O....\n  gamedb list",
)


# --- global options ------------------------------------------------------------

def _version(value: bool) -> None:
    if value:
        from .. import __version__

        out(f"gamedb {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    ctx: typer.Context,
    db: Annotated[
        str,
        typer.Option(
            "--db", metavar="PATH|URL",
            envvar="GAMEDB_DB",
            help="Database: a SQLite file path, a DuckDB file (*.duckdb) or a SQLAlchemy URL (postgresql+psycopg://...). Also GAMEDB_DB.",
        ),
    ] = DEFAULT_PATH,
    version: Annotated[
        Optional[bool], typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit.")
    ] = None,
) -> None:
    """Strongly solve finite two-player games and keep every answer in SQL.

    Example:

        gamedb solve tictactoe

        gamedb query tictactoe X...O....
    """
    ctx.obj = Settings(db=db)


def main() -> None:
    """Console-script entry point."""
    app(prog_name="gamedb")
