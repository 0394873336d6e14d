"""The ``gamedb`` command line (Typer): parse, call the library, print.

Data goes to stdout, messages and progress bars to stderr; every failure is
one ``Error: ...`` line (:func:`gamedb.cli.common.report_failure`): exit 1
for operational errors, 2 for malformed input. Each command group's module
registers its commands; the root builds one only when it is called or help
lists it (:class:`gamedb.cli.lazy.LazyGroup`).
"""

from __future__ import annotations

import gc
import os
import re
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Annotated, Any, Optional

import typer
import typer.core

from ..games import family_names
from ..store.location import DEFAULT_PATH
from .common import ARGS_KEY, EXIT_INTERRUPTED, Settings, err, out
from .lazy import LazyGroup, commands_of

try:  # Typer >= 0.26 carries its own copy of Click
    from typer._click import exceptions as click_errors
except ImportError:
    from click import exceptions as click_errors  # type: ignore[no-redef]



def _usage_pieces(self: Any, ctx: Any) -> list[str]:
    """An argument on the usage line as ``NAME``, ``[POSITION]``, ``[NAME]...`` (Typer 0.27 and 0.28 write ``{NAME}``)."""
    name = self.metavar if self.metavar is not None else (self.name or "").upper()
    return [(name if self.required else f"[{name}]") + ("..." if self.nargs != 1 else "")]


typer.core.TyperArgument.get_usage_pieces = _usage_pieces  # type: ignore[method-assign]

#: each command -> its group's module (:func:`command_group`), in the order ``gamedb --help`` lists them
COMMANDS = {
    **dict.fromkeys(("games", "list", "query", "stats", "verify"), "info"),
    **dict.fromkeys(("copy", "compact", "export"), "data"),
    "play": "play",
    "solve": "solve",
    "db": "maintenance",
    "serve": "serve",
}
#: the root command's options that take a value / take none (accepted after the command too)
GLOBAL_VALUE_OPTIONS = ("--db",)
GLOBAL_FLAGS = ("--version",)


class OneLineErrors(LazyGroup):
    """The root command: a usage mistake is one ``Error:`` line, exit 2 (Click would print four lines)."""

    def main(
        self, args: Sequence[str] | None = None, prog_name: str | None = None, complete_var: str | None = None,
        standalone_mode: bool = True, windows_expand_args: bool = True, **extra: Any,
    ) -> Any:
        args = hoist_global_options(list(sys.argv[1:] if args is None else args))
        if not windows_expand_args:  # Click 8.0.0 has no such parameter: passed on only when asked for
            extra["windows_expand_args"] = False
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        no_args = getattr(click_errors, "NoArgsIsHelpError", ())
        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except no_args as exc:  # `gamedb` or `gamedb solve` alone: the help
            exc.show()
            sys.exit(exc.exit_code)
        except click_errors.UsageError as exc:
            err(f"Error: {usage_message(exc, args)}")
            sys.exit(2)
        except click_errors.ClickException as exc:
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


def hoist_global_options(args: list[str]) -> list[str]:
    """``args`` with the global options given after the command moved before it, up to ``--``
    (``gamedb stats tictactoe --db x.sqlite`` is read as ``gamedb --db x.sqlite stats tictactoe``)."""
    i = 0
    while i < len(args) and args[i].startswith("-"):  # the options before the command
        i += 2 if args[i] in GLOBAL_VALUE_OPTIONS else 1
    if i >= len(args):
        return list(args)
    moved: list[str] = []
    kept: list[str] = []
    rest = iter(args[i + 1 :])
    for arg in rest:
        if arg == "--":
            kept += [arg, *rest]
        elif arg in GLOBAL_VALUE_OPTIONS:
            value = next(rest, None)
            if value is None:  # left for the command to refuse
                kept.append(arg)
            else:
                moved += [arg, value]
        elif arg in GLOBAL_FLAGS or arg.startswith(tuple(f"{flag}=" for flag in GLOBAL_VALUE_OPTIONS)):
            moved.append(arg)
        else:
            kept.append(arg)
    return [*args[:i], *moved, args[i], *kept]


def command_group(group: str) -> ModuleType:
    """The module of a command group (:data:`COMMANDS`), imported now."""
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


def usage_message(exc: Any, args: Sequence[str] = ()) -> str:  # a click_errors.UsageError
    """One line for a usage mistake, naming the command and where to read its help (``args``: the command line, for a
    mistake Click reports without its command: an option's missing value)."""
    message = " ".join(exc.format_message().split())
    path = exc.ctx.command_path if exc.ctx is not None else typed_command(args)
    if message.startswith("No such command") and path.endswith(" solve"):
        message += f" Known families: {', '.join(family_names())}; or --game module:Class."
    if isinstance(exc, click_errors.NoSuchOption) and path.endswith(" query") and exc.ctx is not None:
        hint = dashed_position_hint(exc.ctx.meta.get(ARGS_KEY) or [], exc.option_name)
        if hint:  # (Click names the first two characters of -++-: `No such option: -+`)
            return hint
    return f"{message} (see '{path} --help')"


def typed_command(args: Sequence[str]) -> str:
    """``gamedb`` and the command named in ``args`` (a group's subcommand too: ``gamedb db upgrade``)."""
    words = [arg for arg in args if not arg.startswith("-")]
    named = next((k for k, word in enumerate(words) if word in COMMANDS), None)
    if named is None:
        return "gamedb"
    sub = words[named + 1 : named + 2] if words[named] == "db" else []  # (the one group of commands)
    return " ".join(["gamedb", words[named], *sub])


def dashed_position_hint(args: list[str], option: str) -> str | None:
    """The line for an unknown ``option`` of ``query`` that is a position starting with ``-`` (``-++-``, ``-3``) written
    as its argument, saying what to type; None when it reads as a mistyped option (``--jsn``)."""
    import shlex

    from .info import QUERY_VALUE_OPTIONS  # (imported already: the query command was being parsed)

    typed = [arg for arg in args if arg.startswith(option)][:1]
    if not typed or "query" not in args or re.fullmatch(r"--?[A-Za-z][A-Za-z-]*(=.*)?", typed[0]):
        return None
    rest, name = iter(args[args.index("query") + 1 :]), None
    for arg in rest:  # the game's name: the first argument that is not an option or an option's value
        if arg in QUERY_VALUE_OPTIONS:
            next(rest, None)
        elif not arg.startswith("-"):
            name = arg
            break
    if name is None:
        return None
    return (f"No such option: {typed[0]}; a position that starts with - goes after -- or in --position: "
            f"gamedb query {shlex.quote(name)} -- {shlex.quote(typed[0])}")


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


def _version(value: bool) -> None:
    if value:
        from ..version import __version__

        out(f"gamedb {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    ctx: typer.Context,
    db: Annotated[str, typer.Option(
        "--db", metavar="PATH|URL", envvar="GAMEDB_DB",
        help="Database: a SQLite file path, a DuckDB file (*.duckdb) or a server URL (postgresql://USER@HOST/DBNAME). Also GAMEDB_DB.")] = DEFAULT_PATH,
    version: Annotated[Optional[bool], typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit.")] = None,
) -> None:
    """The root options (its help is the app's)."""
    ctx.obj = Settings(db=db)


def main() -> None:
    """Console-script entry point. The garbage collector is off while the command's modules are imported (every
    collection would scan the many long-lived objects they make, for nothing) and on when the command runs (handle_errors);
    whatever is left when the command ends is frozen, so that the interpreter's exit does not collect it."""
    gc.disable()
    # numpy's OpenBLAS starts a thread per core at import, which spin for 0.1 s of CPU (half the import); gamedb does no
    # floating-point linear algebra (a user's own setting stands)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    try:
        app(prog_name="gamedb")
    finally:  # (the exit's collections scanned numpy's, DuckDB's and Typer's objects: 17-21 ms of every command, now ~5)
        gc.freeze()
