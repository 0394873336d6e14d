"""Reading commands: the families (games), the stored games (list), query, stats, verify."""

from __future__ import annotations

import gc
import shlex
import sys
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from ..answers import value_text
from ..errors import BeyondSolvedRange, GamedbError, InputError, marked_text
from ..games import family, family_names
from ..plural import counted
from ..safe_text import NOTE_LIMIT
from ..store.location import locate
from .common import GameClassOption, command_args, err, handle_errors, open_database, out, settings, show_json, stored_name
from .render import ProgressBars

if TYPE_CHECKING:
    from ..api import Database


@handle_errors
def games_command(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")] = False,
) -> None:
    """List the game families, their options and position syntax."""
    # no database is opened, but a --db (or GAMEDB_DB) no command could open is refused as every other command refuses it
    # (exit 2, one line) rather than passed over in silence; locate() reads the text only (no driver, no SQLAlchemy for a file)
    locate(settings(ctx).db)
    rows: list[dict[str, Any]] = []
    for name in family_names():
        cls = family(name)
        options = [{"option": p.flag, "type": p.type.__name__, "required": p.required, "default": p.default, "help": p.help} for p in cls.params]
        rows.append({"family": name, "summary": cls.summary, "impartial": cls.impartial, "options": options, "position": cls.position_syntax})
    if as_json:
        show_json(rows)
        return
    for row in rows:
        out(f"{row['family']}: {row['summary']}")
        for opt in row["options"]:
            need = "required" if opt["required"] else f"default {opt['default']}"
            out(f"    {opt['option']} ({need}): {opt['help']}")
        out(f"    position: {row['position']}")
        out("")



@handle_errors
def list_command(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """List the games stored in the database, solved or not."""
    db = open_database(ctx, readonly=True, short=True)
    records = db.games()
    rows = [r.list_json() for r in records]
    if as_json:
        show_json(rows)
        return
    if not rows:
        err("No games in this database yet.")
        return
    table = [("NAME", "FAMILY", "STATUS", "POSITIONS")]
    for r in rows:
        count = f"{r['positions']:,}" if r["positions"] is not None else "not counted yet"
        status = r["status"] if r["status"] == "solved" else f"UNFINISHED ({r['status']})"
        if r["status"] == "damaged":  # listed, never used: every other command refuses it with this line
            status, count = "DAMAGED", "-"
        table.append((r["name"], r["family"], status, count))
    widths = [max(len(row[i]) for row in table) for i in range(3)]
    for row in table:
        out("  ".join(cell.ljust(w) for cell, w in zip(row[:3], widths, strict=False)) + "  " + row[3].rjust(max(len(t[3]) for t in table)))
    for r in rows:
        if "problem" in r:
            err(r["problem"])


#: the query options that take a value (a `-` after one of them is its value)
QUERY_VALUE_OPTIONS = ("--position", "-p", "--format", "-f", "--game", "--db")


def dash_reads_stdin(args: list[str]) -> bool:
    """Whether a ``-`` among the typed ``args`` of ``query`` comes before ``--`` as an argument (not an option's value):
    it stands for stdin. After ``--`` every argument is taken as written (``query connect4 -- -`` is the start)."""
    i = 0
    while i < len(args) and args[i] != "--":
        if args[i] == "-":
            return True
        i += 2 if args[i] in QUERY_VALUE_OPTIONS else 1
    return False


@handle_errors
def query_command(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(metavar="NAME", help="Name of a solved game (see `gamedb list`), or a family's name when one game of it is stored.")],
    position: Annotated[
        Optional[str],
        typer.Argument(
            metavar="POSITION",
            help="Position text; omitted or empty means the start position; - reads positions one per line from stdin. "
            "Text that starts with - goes after -- or in --position (after --, - alone is a position too).",
        ),
    ] = None,
    position_option: Annotated[
        Optional[str], typer.Option("--position", "-p", metavar="TEXT", help="The position, whatever it starts with (--position -++- , --position -).")
    ] = None,
    fmt: Annotated[
        Optional[str],
        typer.Option(
            "--format",
            "-f",
            metavar="[table|json|jsonl|csv]",
            help="table: text to read (default for one position); json: one object (a list for stdin); "
            "jsonl: one object per line (default for stdin); csv: a header and one row per position.",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="The same as --format json.")] = False,
    game_class: GameClassOption = None,
) -> None:
    """Show the value of a position and of every move from it, best move first."""
    from ..answer_output import FORMATS

    if position_option is not None and position is not None:
        raise InputError("give the position once: as an argument or with --position")
    typed = command_args(ctx)  # after --, `-` is a position (Connect-Four's start), not stdin
    stdin = position_option is None and position == "-" and (typed is None or dash_reads_stdin(typed))
    position = position_option if position_option is not None else position
    if position is not None and not position.strip():  # '' or blanks: the start, as the web page takes an empty box or position=
        position = None  # (a family's own message for it, such as the heap games' "write 0", answers another question)
    if as_json and fmt not in (None, "json"):
        raise InputError(f"--json and --format {fmt} ask for different formats")
    fmt = "json" if as_json else fmt or ("jsonl" if stdin else "table")
    if fmt not in FORMATS:
        raise InputError(f"--format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    run_query(open_database(ctx, readonly=True, game_class=game_class, short=True), name, position, fmt, stdin)


def run_query(db: Database, name: str, position: str | None, fmt: str, stdin: bool) -> None:
    """Print the answer for ``position`` of the game ``name`` (a family's name: its one game) in ``fmt``, or,
    with ``stdin``, the answers for the positions read one per line from stdin; raise to fail."""
    from ..answer_output import one_answer_text, read_positions, write_many
    from ..answers import rules_missing_note

    name = stored_name(db, name)
    answer_batch = db.answerer(name, boards=not stdin, lines=stdin and fmt == "jsonl")  # the game checked before anything is read
    if stdin:
        # a batch's rows and answers hold no cycles: at the default 700 the collector scanned them again and again (12% of a stream)
        gc.set_threshold(100_000)
        done, failed = write_many(answer_batch, read_positions(sys.stdin), fmt, sys.stdout.write)
        sys.stdout.flush()
        if failed:
            raise GamedbError(f"{failed:,} of {counted(done, 'position')} could not be answered")
        return
    (answer,) = answer_batch([position])
    if isinstance(answer, BeyondSolvedRange) and answer.holders:  # another stored game holds it: the command that answers it
        asked = f" {shlex.quote(position)}" if position is not None else ""
        raise BeyondSolvedRange(f"{marked_text(answer)}: gamedb query {answer.holders[0]}{asked}", answer.holders)
    if isinstance(answer, GamedbError):
        raise answer
    assert not isinstance(answer, str), "lines only for a stream"
    note = rules_missing_note(answer) if fmt == "table" else None
    sys.stdout.write(one_answer_text(answer, fmt))
    sys.stdout.flush()
    if note:
        err(note, NOTE_LIMIT)


@handle_errors
def stats_command(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(metavar="NAME", help="Name of a stored game.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Counts of positions by result, the start position's value, timings."""
    db = open_database(ctx, readonly=True)
    data = db.stats(stored_name(db, name))
    if as_json:
        from ..stats import stats_json

        show_json(stats_json(data))
        return
    positions, moves, so_far = data["positions"], f"{data['moves'] or 0:,}", ""
    if positions is None:  # an unfinished solve counts its positions and moves when it is done: say what is stored so far
        positions, moves = sum(data["results"].values()), "not counted yet"
        so_far = " so far; unfinished: run the same `gamedb solve` command again to finish it"
    lines = [
        ("game", f"{data['game']} ({data['family']}, {data['status']})"),
        ("positions", f"{positions:,} ({data['primitive'] or 0:,} primitive){so_far}"),
        # (the stored positions': classes, with symmetry; None: not decided yet, an unfinished solve)
        *((f"  {'not decided yet' if result is None else result}", f"{count:,}") for result, count in data["results"].items()),
        *([("reachable", f"{data['reachable']:,} (one position stored per class of {data['symmetries']} symmetries)"
            if data["reachable"] is not None else  # (the retrograde solver enumerates classes only: Dōbutsu)
            f"not counted (one position stored per class of {data['symmetries']} symmetries)")]
          if data["symmetries"] > 1 else []),
        ("moves", moves),
    ]
    start = data["start"]
    if start["result"]:
        lines.append(("start", f"{start['position']}: {value_text(start['result'], start['remoteness'])}"))
    most = data["max_remoteness"]
    known_only = " (of the positions with a known remoteness: see remoteness)" if data.get("remoteness_unknown") else ""
    lines.append(("max remoteness", "none (no position has a remoteness)" if most is None else f"{most}{known_only}"))
    lines += [(key.replace("_", " "), f"{data[key]:.2f} s") for key in ("enumerate_seconds", "solve_seconds") if data.get(key) is not None]
    lines += [(key, "-" if value is None else str(value)) for key, value in (data.get("extra") or {}).items()]
    width = max(len(label) for label, _ in lines) + 2
    for label, value in lines:
        out(f"{label:<{width}}{value}")


@handle_errors
def verify_command(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(metavar="NAME", help="Name of a solved game.")],
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as one JSON object.")] = False,
    game_class: GameClassOption = None,
) -> None:
    """Recheck every stored value against the rules; exit 1 naming the first wrong position."""
    from ..allocator import keep_freed_arrays

    keep_freed_arrays()  # (cat-mouse of 2·10^6 positions: 1.44 -> 1.22 s; Connect-Four 5x4 1.51 -> 1.41 s)
    db = open_database(ctx, readonly=True, game_class=game_class)
    name = stored_name(db, name)
    with ProgressBars(quiet) as bars:
        report = db.verify(name, progress=bars)
    if as_json:
        show_json({"game": report.game, "positions": report.positions, "ok": True})
        return
    out(f"OK: {counted(report.positions, 'position')} of {report.game} {'agrees' if report.positions == 1 else 'agree'} with the rules.")


def register(app: typer.Typer) -> None:
    """Add these commands to the root command, in the order ``--help`` lists them."""
    app.command("games", epilog="Example:  gamedb games --json")(games_command)
    app.command("list", epilog="Example:  gamedb --db games.sqlite list")(list_command)
    app.command("query", epilog="\b\nExamples:\n  gamedb query tictactoe X...O....\n  gamedb query tictactoe X...O.... --format json\n"
                "  gamedb query flip -- -++-\n  printf '3 5\\n1 2 3\\n' | gamedb query nim -")(query_command)
    app.command("stats", epilog="Example:  gamedb stats tictactoe --json")(stats_command)
    app.command("verify", epilog="Example:  gamedb verify tictactoe")(verify_command)
