"""Reading commands: the families (games), the stored games (list), query, stats, verify."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from ..games import family, family_names
from .common import handle_errors, open_database, out, err, show_json
from .render import ProgressBars, moves_table, value_text


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
    db = open_database(ctx, readonly=True)
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
        show_json(rows)
        return
    if not rows:
        err("No games in this database yet.")
        return
    width = max(len(r["name"]) for r in rows)
    for r in rows:
        count = f"{r['positions']:,} positions" if r["positions"] is not None else "positions not counted yet"
        status = r["status"] if r["status"] == "solved" else f"UNFINISHED ({r['status']})"
        out(f"{r['name']:<{width}}  {r['family']:<10}  {status:<10}  {count}")



@handle_errors
def query_command(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="Name of a solved game (see `gamedb list`).")],
    position: Annotated[Optional[str], typer.Argument(help="Position text; omitted means the start position.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Show the value of a position and of every move from it, best move first."""
    db = open_database(ctx, readonly=True)
    record, game = db.rules(name)
    answer = db.probe(name, position)
    # a family may add its own reading of the value (cat-mouse-grid: LeetCode's turn limit)
    verdict = game.verdict(answer.result, answer.remoteness, answer.player)
    if as_json:
        show_json({**answer.to_json(impartial=record.impartial), **verdict})
        return
    winner = f" ({answer.winner} wins)" if answer.winner else ""
    out(f"game       {answer.game}")
    out(f"position   {answer.position}")
    if answer.board:
        for line in answer.board.splitlines():
            out(f"           {line}")
    out(f"to move    {answer.player}")
    out(f"value      {value_text(answer.result, answer.remoteness)}{winner}")
    if answer.grundy is not None:
        out(f"grundy     {answer.grundy}")
    out(f"best move  {answer.best_move if answer.best_move is not None else '-'}")
    for key, value in verdict.items():
        out(f"{key.replace('_', ' ')}: {value}")
    if answer.moves:
        out(f"moves (best first; value for {answer.player}):")
        for line in moves_table(answer):
            out(line)


@handle_errors
def stats_command(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="Name of a stored game.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Counts of positions by result, the start position's value, timings."""
    db = open_database(ctx, readonly=True)
    data = db.stats(name)
    if as_json:
        show_json(data)
        return
    lines = [
        ("game", f"{data['game']} ({data['family']}, {data['status']})"),
        ("positions", f"{data['positions'] or 0:,} ({data['primitive'] or 0:,} primitive)"),
        ("moves", f"{data['moves'] or 0:,}"),
        *((f"  {result}", f"{count:,}") for result, count in data["results"].items()),
    ]
    start = data["start"]
    if start["result"]:
        lines.append(("start", f"{start['position']}: {value_text(start['result'], start['remoteness'])}"))
    known_only = " (of the positions with a known remoteness: see remoteness)" if data.get("remoteness_unknown") else ""
    lines.append(("max remoteness", f"{data['max_remoteness']}{known_only}"))
    lines += [(key.replace("_", " "), f"{data[key]:.2f}") for key in ("enumerate_seconds", "solve_seconds") if data.get(key) is not None]
    lines += [(key, str(value)) for key, value in (data.get("extra") or {}).items()]
    width = max(len(label) for label, _ in lines) + 2
    for label, value in lines:
        out(f"{label:<{width}}{value}")


@handle_errors
def verify_command(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="Name of a solved game.")],
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Recheck every stored value against the rules; exit 1 naming the first wrong position."""
    db = open_database(ctx, readonly=True)
    with ProgressBars(quiet) as bars:
        report = db.verify(name, progress=bars)
    out(f"OK: {report.positions:,} positions of {report.game} agree with the rules.")


def register(app: typer.Typer) -> None:
    """Add these commands to the root command, in the order ``--help`` lists them."""
    app.command("games", epilog="Example:  gamedb games --json")(games_command)
    app.command("list", epilog="Example:  gamedb --db games.sqlite list")(list_command)
    app.command(
    "query",
    epilog="Example:  gamedb query tictactoe X...O....    gamedb query cat-mouse mouse=1,cat=2,turn=mouse --json",
)(query_command)
    app.command("stats", epilog="Example:  gamedb stats tictactoe --json")(stats_command)
    app.command("verify", epilog="Example:  gamedb verify tictactoe")(verify_command)
