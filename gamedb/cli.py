"""The ``gamedb`` command line: thin — parse, call the library, print.

Data goes to stdout, messages and progress bars to stderr. Errors raised by
the library (:mod:`gamedb.errors`) become one-line ``Error: ...`` messages
here, in one place: exit 1 for operational errors, 2 for malformed input.
"""

from __future__ import annotations

import functools
import inspect
import json
import os
import sys
from typing import Annotated, Any, Optional

import typer

from .errors import GamedbError, InputError, UnknownFamily
from .safe_text import cut_middle, escaped, json_escaped
from .games import family, family_names

class OneLineErrors(typer.core.TyperGroup):
    """The root command: usage mistakes (unknown command, bad option value) as one ``Error:`` line, exit 2.

    Click would print the usage block, a hint and the error on four lines;
    gamedb's contract is one line on stderr for every mistake. Help and
    ``--version`` behave as usual.
    """

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
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
            _err(f"Error: {usage_message(exc)}")
            sys.exit(2)
        except errors.ClickException as exc:
            _err(f"Error: {exc.format_message()}")
            sys.exit(exc.exit_code)
        except typer.Abort:
            _err("Aborted.")
            sys.exit(EXIT_INTERRUPTED)
        sys.exit(rv if isinstance(rv, int) else 0)


def _click_exceptions():
    """Click's exception module: Typer >= 0.20 carries its own copy of Click, older ones use Click."""
    try:
        from typer._click import exceptions
    except ImportError:
        from click import exceptions
    return exceptions


def usage_message(exc) -> str:
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
)
solve_app = typer.Typer(
    help="Solve a game: enumerate every reachable position and store its value. One subcommand per family.",
    rich_markup_mode=None,
)
app.add_typer(solve_app, name="solve")

EXIT_INTERRUPTED = 130


# --- plumbing ----------------------------------------------------------------

def _err(message: str) -> None:
    """One message on stderr: text from a file or a user is escaped, a long input cut to its ends."""
    print(cut_middle(escaped(message)), file=sys.stderr, flush=True)


def _out(text: str) -> None:
    """Lines of data on stdout; names from a file never reach the terminal as escape sequences."""
    print(escaped(text, keep="\n"), flush=True)


def handle_errors(fn):
    """Turn gamedb's errors (and database errors) into one line and an exit code."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except GamedbError as exc:
            _err(f"Error: {exc}")
            raise typer.Exit(exc.exit_code) from None
        except KeyboardInterrupt:
            _err("Interrupted. Work committed so far is kept; run the same command again to resume.")
            raise typer.Exit(EXIT_INTERRUPTED) from None
        except BrokenPipeError:  # `gamedb export ... | head`: the reader has had enough
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            raise typer.Exit(0) from None
        except OSError as exc:  # a file we cannot read or write
            where = f": {exc.filename}" if exc.filename else ""
            _err(f"Error: {exc.strerror or exc}{where}")
            raise typer.Exit(1) from None
        except Exception as exc:  # database driver errors: one line, never a traceback
            if type(exc).__module__.split(".")[0] in ("sqlalchemy", "sqlite3", "psycopg"):
                reason = getattr(exc, "orig", None) or exc
                _err(f"Error: database error: {str(reason).splitlines()[0]}")
                raise typer.Exit(1) from None
            raise

    return wrapper


class _State:
    db: str = "gamedb.sqlite"


STATE = _State()


def _open(*, create: bool = False, readonly: bool = False, game_class: str | None = None):
    from .api import Database

    classes = [game_class] if game_class else []
    return Database(STATE.db, create=create, readonly=readonly and "://" not in STATE.db, game_classes=classes)


#: ``--game`` on a command that reads a stored game's rules
GameClassOption = Annotated[
    Optional[str],
    typer.Option(
        "--game",
        help="For a game solved from a Python class (solve --game module:Class): the same module:Class, "
        "which you trust to run. A database file never chooses code on its own.",
    ),
]


class ProgressBars:
    """Rich progress bars on stderr, one per phase, drawn only once work reports progress."""

    def __init__(self, quiet: bool):
        self.quiet = quiet
        self.bar = None
        self.tasks: dict[str, Any] = {}

    def __call__(self, phase: str, done: int, total: int | None) -> None:
        if self.quiet:
            return
        if self.bar is None:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self.bar = Progress(
                TextColumn("{task.description:>16}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=Console(stderr=True),
            )
            self.bar.start()
        if phase not in self.tasks:
            self.tasks[phase] = self.bar.add_task(phase, total=total)
        self.bar.update(self.tasks[phase], completed=done, total=total)

    def __enter__(self) -> "ProgressBars":
        return self

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.stop()


def _show_json(data: Any) -> None:
    _out(json_escaped(json.dumps(data, indent=2, ensure_ascii=False)))



# --- global options ------------------------------------------------------------

def _version(value: bool) -> None:
    if value:
        from . import __version__

        _out(f"gamedb {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    db: Annotated[
        str,
        typer.Option(
            "--db",
            envvar="GAMEDB_DB",
            help="Database: a SQLite file path or a SQLAlchemy URL (postgresql+psycopg://...). Also GAMEDB_DB.",
        ),
    ] = "gamedb.sqlite",
    version: Annotated[
        Optional[bool], typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit.")
    ] = None,
) -> None:
    """Strongly solve finite two-player games and keep every answer in SQL.

    Example:

        gamedb solve tictactoe

        gamedb query tictactoe X...O....
    """
    STATE.db = db


# --- games ---------------------------------------------------------------------

@app.command("games", epilog="Example:  gamedb games --json")
@handle_errors
def games_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")] = False,
) -> None:
    """List the game families, their options and position syntax."""
    rows = []
    for name in family_names():
        cls = family(name)
        rows.append(
            {
                "family": name,
                "summary": cls.summary,
                "impartial": cls.impartial,
                "options": [
                    {"option": p.flag, "type": p.type.__name__, "required": p.required, "default": p.default, "help": p.help}
                    for p in cls.params
                ],
                "position": cls.position_syntax,
            }
        )
    if as_json:
        _show_json(rows)
        return
    for row in rows:
        _out(f"{row['family']}: {row['summary']}")
        for opt in row["options"]:
            need = "required" if opt["required"] else f"default {opt['default']}"
            _out(f"    {opt['option']} ({need}): {opt['help']}")
        _out(f"    position: {row['position']}")
        _out("")


# --- solve (one subcommand per family) ---------------------------------------------

def _run_solve(game, name: str | None, force: bool, quiet: bool, engine: str = "auto", memory_limit: str | None = None) -> None:
    from .solve import METHODS
    from .store.tuning import parse_size

    if engine not in METHODS:  # checked before a new database file is created
        raise InputError(f"--engine must be one of {', '.join(METHODS)}, got {engine!r}")
    limit = None if memory_limit is None else parse_size(memory_limit)
    db = _open(create=True)
    with ProgressBars(quiet) as bars:
        report = db.solve(game, name, force=force, progress=bars, engine=engine, memory_limit=limit)
    if report.already_solved:
        _err(f"{report.name} is already solved in {db.location} ({report.positions:,} positions); --force solves it again.")
        return
    answer = db.probe(report.name)
    value = answer.result if answer.remoteness is None else f"{answer.result} in {answer.remoteness}"
    _out(
        f"Solved {report.name}: {report.positions:,} positions, {report.moves:,} moves in {report.seconds:.2f} s. "
        f"Start {answer.position}: {answer.player} to move, {value}."
    )


@solve_app.callback(invoke_without_command=True, epilog="Example:  gamedb solve --game mypackage.games:TakeAway --set matches=21")
@handle_errors
def solve_plugin(
    ctx: typer.Context,
    game: Annotated[
        Optional[str],
        typer.Option("--game", help="Solve a game written in Python: package.module:ClassName (a gamedb.games.base.Game subclass)."),
    ] = None,
    settings: Annotated[
        Optional[list[str]], typer.Option("--set", help="Option of that game as KEY=VALUE (repeatable).")
    ] = None,
    name: Annotated[Optional[str], typer.Option("--name", help="Name to store the game under (default: its family name).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace a stored game of the same name.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bars.")] = False,
) -> None:
    """Solve a game: enumerate every reachable position and store its value. One subcommand per family."""
    if ctx.invoked_subcommand is not None:
        if game is not None:
            raise InputError("--game and a family name cannot be used together")
        return
    if game is None:
        _out(ctx.get_help())
        raise typer.Exit(0)
    try:
        cls = family(game)
    except UnknownFamily as exc:  # a --game value that names no game class: a bad option (a family that fails to load is exit 1)
        raise InputError(str(exc)) from None
    options = _parse_settings(cls, settings or [])
    _run_solve(cls.from_options(**options), name, force, quiet)


def _parse_settings(cls, settings: list[str]) -> dict[str, Any]:
    """--set KEY=VALUE pairs, converted with the family's declared option types."""
    types = {p.name: p.type for p in cls.params}
    options: dict[str, Any] = {}
    for item in settings:
        key, sep, value = item.partition("=")
        key = key.strip().lstrip("-").replace("-", "_")
        if not sep or not key:
            raise InputError(f"--set takes KEY=VALUE, got {item!r}")
        if key not in types:
            known = ", ".join(types) or "none"
            raise InputError(f"{cls.family} has no option {key!r} (options: {known})")
        try:
            options[key] = types[key](value)
        except ValueError:
            raise InputError(f"--set {key}: {value!r} is not a valid {types[key].__name__}") from None
    return options


def _solve_command(fam: str):
    cls = family(fam)

    def command(**kwargs) -> None:
        name = kwargs.pop("name")
        force = kwargs.pop("force")
        quiet = kwargs.pop("quiet")
        engine = kwargs.pop("engine")
        memory_limit = kwargs.pop("memory_limit")
        options = {k: v for k, v in kwargs.items() if v is not None}
        _run_solve(cls.from_options(**options), name, force, quiet, engine, memory_limit)

    params = []
    for p in cls.params:
        default = ... if p.required else p.default
        annotation = p.type if p.required else Optional[p.type]
        params.append(
            inspect.Parameter(
                p.name,
                inspect.Parameter.KEYWORD_ONLY,
                default=default,
                annotation=Annotated[annotation, typer.Option(p.flag, help=p.help, show_default=not p.required)],
            )
        )
    params += [
        inspect.Parameter(
            "name",
            inspect.Parameter.KEYWORD_ONLY,
            default=None,
            annotation=Annotated[Optional[str], typer.Option("--name", help="Name to store the game under (default: the family name, with the options that distinguish it).")],
        ),
        inspect.Parameter(
            "force",
            inspect.Parameter.KEYWORD_ONLY,
            default=False,
            annotation=Annotated[bool, typer.Option("--force", help="Replace a stored game of the same name.")],
        ),
        inspect.Parameter(
            "quiet",
            inspect.Parameter.KEYWORD_ONLY,
            default=False,
            annotation=Annotated[bool, typer.Option("--quiet", "-q", help="No progress bars.")],
        ),
        inspect.Parameter(
            "engine",
            inspect.Parameter.KEYWORD_ONLY,
            default="auto",
            annotation=Annotated[
                str,
                typer.Option(
                    "--engine",
                    help="auto: in memory (numpy) when the game fits --memory-limit, else in SQL; "
                    "sql: retrograde analysis inside the database (bounded memory, resumable level by level); "
                    "memory: in memory or fail. Both write the same tables.",
                ),
            ],
        ),
        inspect.Parameter(
            "memory_limit",
            inspect.Parameter.KEYWORD_ONLY,
            default=None,
            annotation=Annotated[
                Optional[str],
                typer.Option(
                    "--memory-limit",
                    help="Memory the solve may use, e.g. 2G or 500M (default: half the available memory); "
                    "also sizes SQLite's cache for the SQL engine.",
                ),
            ],
        ),
    ]
    command.__signature__ = inspect.Signature(params)
    command.__name__ = f"solve_{fam.replace('-', '_')}"
    example = " ".join([f"gamedb solve {fam}"] + [f"{p.flag} ..." for p in cls.params if p.required])
    doc = f"{cls.summary}.\n\nPosition syntax: {cls.position_syntax}"
    solve_app.command(fam, help=doc, epilog=f"Example:  {example}")(handle_errors(command))


for _fam in family_names():
    _solve_command(_fam)


# --- list / query / stats / verify --------------------------------------------------

@app.command("list", epilog="Example:  gamedb --db games.sqlite list")
@handle_errors
def list_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """List the games stored in the database, solved or not."""
    db = _open(readonly=True)
    records = db.games()
    rows = [
        {
            "name": r.name,
            "family": r.family,
            "status": r.status,
            "positions": r.positions,
            "moves": r.moves,
            "start": r.start_position,
            "solved_at": r.solved_at,
        }
        for r in records
    ]
    if as_json:
        _show_json(rows)
        return
    if not rows:
        _err("No games in this database yet.")
        return
    width = max(len(r["name"]) for r in rows)
    for r in rows:
        count = f"{r['positions']:,} positions" if r["positions"] is not None else "positions not counted yet"
        status = r["status"] if r["status"] == "solved" else f"UNFINISHED ({r['status']})"
        _out(f"{r['name']:<{width}}  {r['family']:<10}  {status:<10}  {count}")


def _value(result: str, remoteness: int | None) -> str:
    return result if remoteness is None else f"{result} in {remoteness}"


@app.command(
    "query",
    epilog="Example:  gamedb query tictactoe X...O....    gamedb query cat-mouse mouse=1,cat=2,turn=mouse --json",
)
@handle_errors
def query_command(
    name: Annotated[str, typer.Argument(help="Name of a solved game (see `gamedb list`).")],
    position: Annotated[Optional[str], typer.Argument(help="Position text; omitted means the start position.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    game_class: GameClassOption = None,
) -> None:
    """Show the value of a position and of every move from it, best move first."""
    db = _open(readonly=True, game_class=game_class)
    record, game = db.rules(name)
    answer = db.probe(name, position)
    # a family may add its own reading of the value (cat-mouse-grid: LeetCode's turn limit)
    verdict = game.verdict(answer.result, answer.remoteness, answer.player) if hasattr(game, "verdict") else {}
    if as_json:
        _show_json({**answer.to_json(impartial=record.impartial), **verdict})
        return
    winner = f" ({answer.winner} wins)" if answer.winner else ""
    _out(f"game       {answer.game}")
    _out(f"position   {answer.position}")
    if answer.board:
        for line in answer.board.splitlines():
            _out(f"           {line}")
    _out(f"to move    {answer.player}")
    _out(f"value      {_value(answer.result, answer.remoteness)}{winner}")
    if answer.grundy is not None:
        _out(f"grundy     {answer.grundy}")
    _out(f"best move  {answer.best_move if answer.best_move is not None else '-'}")
    for key, value in verdict.items():
        _out(f"{key.replace('_', ' ')}: {value}")
    if answer.moves:
        _out(f"moves (best first; value for {answer.player}):")
        for line in _moves_table(answer):
            _out(line)


@app.command("stats", epilog="Example:  gamedb stats tictactoe --json")
@handle_errors
def stats_command(
    name: Annotated[str, typer.Argument(help="Name of a stored game.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Counts of positions by result, the start position's value, timings."""
    db = _open(readonly=True)
    data = db.stats(name)
    if as_json:
        _show_json(data)
        return
    lines = [
        ("game", f"{data['game']} ({data['family']}, {data['status']})"),
        ("positions", f"{data['positions'] or 0:,} ({data['primitive'] or 0:,} primitive)"),
        ("moves", f"{data['moves'] or 0:,}"),
        *((f"  {result}", f"{count:,}") for result, count in data["results"].items()),
    ]
    start = data["start"]
    if start["result"]:
        lines.append(("start", f"{start['position']}: {_value(start['result'], start['remoteness'])}"))
    lines.append(("max remoteness", str(data["max_remoteness"])))
    lines += [(key.replace("_", " "), f"{data[key]:.2f}") for key in ("enumerate_seconds", "solve_seconds") if data.get(key) is not None]
    lines += [(key, str(value)) for key, value in (data.get("extra") or {}).items()]
    width = max(len(label) for label, _ in lines) + 2
    for label, value in lines:
        _out(f"{label:<{width}}{value}")


@app.command("verify", epilog="Example:  gamedb verify tictactoe")
@handle_errors
def verify_command(
    name: Annotated[str, typer.Argument(help="Name of a solved game.")],
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    game_class: GameClassOption = None,
) -> None:
    """Recheck every stored value against the rules; exit 1 naming the first wrong position."""
    db = _open(readonly=True, game_class=game_class)
    with ProgressBars(quiet) as bars:
        report = db.verify(name, progress=bars)
    _out(f"OK: {report.positions:,} positions of {report.game} agree with the rules.")


# --- copy / compact -------------------------------------------------------------------

@app.command(
    "copy",
    epilog="Example:  gamedb copy gamedb.sqlite postgresql+psycopg://me@127.0.0.1/games    "
    "gamedb copy postgresql+psycopg://me@127.0.0.1/games shared.sqlite tictactoe office",
)
@handle_errors
def copy_command(
    src: Annotated[str, typer.Argument(help="Database to copy from: a SQLite file path or a SQLAlchemy URL.")],
    dst: Annotated[str, typer.Argument(help="Database to copy into, created if missing: a SQLite file path or a SQLAlchemy URL.")],
    games: Annotated[
        Optional[list[str]], typer.Argument(metavar="NAME", help="Games to copy; none means every solved game.", show_default=False)
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace games of the same name already in the destination.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Copy solved games with all their positions and moves from one database to another (SQLite <-> PostgreSQL). --db is not used."""
    from .api import Database

    source = Database(src, readonly="://" not in src)
    for name in games or ():  # an unknown name is refused before the destination is created
        source.game(name)
    target = Database(dst, create=True)
    with ProgressBars(quiet) as bars:
        report = source.copy_to(target, games or None, force=force, progress=bars)
    for name in report.skipped:
        _err(f"Skipped {name}: not fully solved.")
    if report.already:
        _err(f"Already in the destination, as copied before: {', '.join(report.already)}.")
    if not report.games:
        if not report.already:
            _err("No solved games to copy.")
        return
    _out(f"Copied {len(report.games)} game(s) ({', '.join(report.games)}): {report.positions:,} positions, {report.moves:,} moves.")


@app.command("compact", epilog="Example:  gamedb compact tictactoe")
@handle_errors
def compact_command(
    name: Annotated[str, typer.Argument(help="Name of a solved game.")],
) -> None:
    """Drop a solved game's move table rows, which queries do not need, and shrink the file. query, stats and verify still answer; the moves view is then empty for this game."""
    from .store.tuning import human_size

    db = _open()
    report = db.compact(name)
    size = f"; file {human_size(report.bytes_before)} -> {human_size(report.bytes_after)}" if report.bytes_before is not None else ""
    _out(f"Compacted {report.game}: dropped {report.moves_removed:,} moves{size}.")


@app.command("export", epilog="Example:  gamedb export tictactoe --format csv > tictactoe.csv")
@handle_errors
def export_command(
    name: Annotated[str, typer.Argument(help="Name of a solved game.")],
    fmt: Annotated[str, typer.Option("--format", "-f", help="csv or jsonl.")] = "csv",
    output: Annotated[Optional[str], typer.Option("--output", "-o", help="Write to this file instead of stdout.")] = None,
    game_class: GameClassOption = None,
) -> None:
    """Stream every position of a solved game with its values, as CSV or JSON lines."""
    from .export import export_lines

    db = _open(readonly=True, game_class=game_class)
    record = db.game(name)
    lines = export_lines(db.engine, record, fmt.lower(), db.game_classes)
    first = next(lines)  # raises before any output on a bad format or an unfinished game
    if output is None:
        sys.stdout.write(first)
        for line in lines:
            sys.stdout.write(line)
        sys.stdout.flush()
        return
    count = 0
    with open(output, "w", encoding="utf-8", newline="") as handle:
        handle.write(first)
        for line in lines:
            handle.write(line)
            count += 1
    _err(f"Wrote {count + (1 if fmt.lower() == 'jsonl' else 0):,} positions of {name} to {output}.")


def _moves_table(answer) -> list[str]:
    from .values import FOR_MOVER

    if not answer.moves:
        return []
    mw = max(len(m.move) for m in answer.moves)
    pw = max(len(m.position) for m in answer.moves)
    # seen from the player to move now: the move itself is one more ply
    lines = []
    for m in answer.moves:
        value = _value(FOR_MOVER[m.result], None if m.remoteness is None else m.remoteness + 1)
        grundy = f"  (grundy {m.grundy})" if m.grundy is not None else ""
        lines.append(f"  {m.move:<{mw}}  {m.position:<{pw}}  {value}{grundy}")
    if not answer.moves_complete:
        lines.append(f"  ... {answer.degree:,} moves in all; only the best is listed")
    return lines


def _show_position(answer) -> None:
    _out("")
    _out(f"position   {answer.position}")
    if answer.board:
        for line in answer.board.splitlines():
            _out(f"           {line}")
    winner = f" ({answer.winner} wins)" if answer.winner else ""
    _out(f"to move    {answer.player}: {_value(answer.result, answer.remoteness)}{winner}")
    if answer.moves:
        _out(f"moves (best first; value for {answer.player}):")
        for line in _moves_table(answer):
            _out(line)


@app.command(
    "play",
    epilog="Example:  gamedb play tictactoe --as O\n\nAt your turn type a move label, or hint, undo, quit.",
)
@handle_errors
def play_command(
    name: Annotated[str, typer.Argument(help="Name of a solved game.")],
    as_player: Annotated[
        Optional[str], typer.Option("--as", help="The player you play (default: the player who moves first).")
    ] = None,
    start: Annotated[Optional[str], typer.Option("--from", help="Start from this position instead of the start.")] = None,
    game_class: GameClassOption = None,
) -> None:
    """Play against perfect play in the terminal; the value of every move is shown after each move."""
    from .play import PlaySession

    db = _open(readonly=True, game_class=game_class)
    record, game = db.rules(name)
    players = list(game.players)
    if as_player is None:
        human = 0
    else:
        lowered = [p.lower() for p in players]
        if as_player.lower() not in lowered:
            raise InputError(f"--as must be one of {', '.join(players)}, got {as_player!r}")
        human = lowered.index(as_player.lower())
    session = PlaySession(db, name, human)
    answer = session.start(start)
    _out(f"You play {players[human]}; gamedb plays {players[1 - human]} perfectly. Type a move, hint, undo or quit.")
    while True:
        _show_position(answer)
        if not answer.moves:
            if answer.winner:
                verdict = "You win!" if answer.winner == players[human] else f"{answer.winner} wins."
            else:
                verdict = f"Game over: {answer.result}."
            _out(f"Game over. {verdict}")
            return
        if not session.humans_turn(answer):
            move = session.perfect_move(answer)
            _out(f"{answer.player} plays {move}")
            answer = session.play(answer, move)
            continue
        try:
            typed = input(escaped(f"{answer.player} to move> "))
        except EOFError:
            _out("")
            return
        command = typed.strip().lower()
        if typed.strip() in {m.move for m in answer.moves}:  # a move label wins over a command of the same name
            command = "move"
        if command in ("quit", "q", "exit"):
            return
        if command in ("hint", "h", "?"):
            _out(f"hint: {answer.best_move} ({_value(answer.result, answer.remoteness)} for {answer.player})")
            continue
        if command in ("undo", "u"):
            if not session.undo():
                _out("Nothing to undo.")
            answer = session.answer()
            continue
        if not command:
            continue
        try:
            answer = session.play(answer, typed)
        except InputError as exc:
            _out(str(exc))


db_app = typer.Typer(help="Database maintenance.", no_args_is_help=True, rich_markup_mode=None)
app.add_typer(db_app, name="db")


@db_app.command("upgrade", epilog="Example:  gamedb --db old.sqlite db upgrade")
@handle_errors
def db_upgrade_command() -> None:
    """Upgrade a database made by an older gamedb to the newest schema (a SQLite file is backed up first)."""
    from .store.upgrade import upgrade_database

    report = upgrade_database(STATE.db)
    if not report.changed:
        _out(f"{report.location} is already at the newest schema revision ({report.after}).")
        return
    backup = f"; backup at {report.backup}" if report.backup else ""
    _out(f"Upgraded {report.location} from schema revision {report.before} to {report.after}{backup}.")


def main() -> None:
    """Console-script entry point."""
    app(prog_name="gamedb")
