"""Moving data: copy between databases, compact, export."""

from __future__ import annotations

import sys
from typing import Annotated, Optional

import typer

from ..plural import counted
from .common import GameClassOption, err, handle_errors, handle_write_errors, open_database, out, show_json, stored_name
from .render import ProgressBars


@handle_write_errors
def copy_command(
    ctx: typer.Context,
    src: Annotated[str, typer.Argument(metavar="SRC", help="Database to copy from: a SQLite or DuckDB (.duckdb) file path, or a SQLAlchemy URL.")],
    dst: Annotated[str, typer.Argument(metavar="DST", help="Database to copy into, created if missing: a SQLite or DuckDB (.duckdb) file, or a URL.")],
    games: Annotated[Optional[list[str]], typer.Argument(metavar="NAME", help="Games to copy; none means every solved game.", show_default=False)] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace games of the same name already in the destination.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as one JSON object.")] = False,
) -> None:
    """Copy solved games with all their positions and moves from one database to another (SQLite, PostgreSQL, DuckDB, either way). --db is not used."""
    from ..api import Database
    from ..errors import GamedbError, NoDatabase, marked_text
    from ..store.location import locate

    source_at, there = locate(src), locate(dst).path
    here = source_at.path
    if here is not None and there is not None and here.is_file() and there.is_file() and here.samefile(there):
        raise GamedbError("the source and the destination are the same database: give another file or URL as DST")
    try:
        source = Database(source_at, readonly=source_at.kind in ("file", "duckdb"))
    except NoDatabase as exc:  # (not the usual advice: copy takes no --db)
        raise GamedbError(f"{marked_text(exc)}: SRC, the database to copy from, must exist (check its path)") from None
    for name in games or ():  # an unknown or unfinished game is refused before the destination is created
        source.game(name).require_solved()
    target = Database(dst, create=True)
    with ProgressBars(quiet) as bars:  # (nothing copied into a file made here: the file is removed)
        report = source.copy_to(target, games or None, force=force, progress=bars)
    for name in report.skipped:
        err(f"Skipped {name}: not fully solved.")
    for problem in report.damaged:
        err(f"Skipped: {problem}.")
    if report.already:
        err(f"Already in the destination, as copied before: {', '.join(report.already)}.")
    if as_json:
        show_json({key: getattr(report, key) for key in ("games", "skipped", "already", "damaged", "positions", "moves")})
        return
    if not report.games:  # (still a line on stdout, the command's result, as for solve of a game already solved)
        out("Copied nothing: every game is in the destination already." if report.already else "No solved games to copy.")
        return
    out(f"Copied {counted(len(report.games), 'game')} ({', '.join(report.games)}): {counted(report.positions, 'position')}, "
        f"{counted(report.moves, 'move')}.")


@handle_write_errors
def compact_command(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(metavar="NAME", help="Name of a solved game.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as one JSON object.")] = False,
) -> None:
    """Drop a solved game's move table rows, which queries do not need, and shrink the file.

    query, stats and verify still answer; the moves view is then empty for this game. A DuckDB file is written
    afresh (every game in it), its position rows packed tighter (the dense order: docs/performance.md).
    """
    from ..sizes import human_size

    db = open_database(ctx)
    report = db.compact(name)
    if as_json:
        show_json({key: getattr(report, key) for key in ("game", "moves_removed", "bytes_before", "bytes_after")})
        return
    before, after = report.bytes_before, report.bytes_after
    size = f"; file {human_size(before)} -> {human_size(after)}" if before is not None and after is not None else ""
    out(f"Compacted {report.game}: dropped {counted(report.moves_removed, 'move')}{size}.")


@handle_errors
def export_command(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(metavar="NAME", help="Name of a solved game.")],
    fmt: Annotated[Optional[str], typer.Option(
        "--format", "-f", metavar="[csv|jsonl]",
        help="csv (with a header line) or jsonl (one JSON object per line); default: jsonl for an --output FILE ending in .jsonl, else csv.",
        show_default=False)] = None,
    output: Annotated[Optional[str], typer.Option("--output", "-o", metavar="FILE", help="Write to this file instead of stdout (-: stdout).")] = None,
    game_class: GameClassOption = None,
) -> None:
    """Stream every position of a solved game with its values, as CSV or JSON lines."""
    from ..export import export_lines
    from .output_file import checked_output, written_whole

    output = None if output == "-" else output  # (-: stdout, as query reads positions from - as stdin)
    if fmt is None:  # (-o rows.jsonl wrote CSV into it)
        fmt = "jsonl" if output is not None and output.lower().endswith((".jsonl", ".ndjson")) else "csv"
    path = None if output is None else checked_output(output)  # before the database is read
    db = open_database(ctx, readonly=True, game_class=game_class)
    name = stored_name(db, name)
    record = db.game(name)
    lines = export_lines(db.read, record, fmt.lower(), db.game_classes)
    first = next(lines)  # raises before any output on a bad format or an unfinished game
    if path is None:
        sys.stdout.write(first)
        sys.stdout.writelines(lines)
        sys.stdout.flush()
        return
    count = 0
    with written_whole(path) as handle:
        handle.write(first)
        for line in lines:
            handle.write(line)
            count += 1
    out(f"Wrote {counted(count + (1 if fmt.lower() == 'jsonl' else 0), 'position')} of {name} to {output}.")


def register(app: typer.Typer) -> None:
    """Add these commands to the root command, in the order ``--help`` lists them."""
    app.command("copy", epilog="Example:  gamedb copy gamedb.sqlite postgresql+psycopg://me@127.0.0.1/games    "
                "gamedb copy postgresql+psycopg://me@127.0.0.1/games shared.sqlite tictactoe office")(copy_command)
    app.command("compact", epilog="Example:  gamedb compact tictactoe")(compact_command)
    app.command("export", epilog="Example:  gamedb export tictactoe --format csv > tictactoe.csv")(export_command)
