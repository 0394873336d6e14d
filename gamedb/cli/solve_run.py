"""Running ``gamedb solve`` once its command line is read: one definition for both ways of reading it.

The full command line (:mod:`gamedb.cli.solve`, Typer) and the light solve
path (:mod:`gamedb.cli.quick_solve`, no Typer) both end here, so they check,
solve and report alike. No Typer here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .common import err, out
from .render import ProgressBars

if TYPE_CHECKING:
    from ..answers import Answer


def run_solve(db: str, game: Any, name: str | None, force: bool, quiet: bool, strategy: str = "auto", memory_limit: str | None = None) -> None:
    """Solve ``game`` into the database ``db`` (a path or URL) and print the one-line report."""
    from ..api import Database
    from ..solvers.choice import check_choice
    from ..store.sink import check_name
    from ..store.tuning import parse_size

    strategy = getattr(strategy, "value", strategy)
    check_choice(strategy)  # before a new database file is created
    limit = None if memory_limit is None else parse_size(memory_limit)
    if name is not None:
        check_name(name)  # before a new database file is created
    if not quiet:
        say_memory(game, strategy, limit)
    with Database(db, create=True) as database:
        with ProgressBars(quiet) as bars:
            report = database.solve(game, name, force=force, progress=bars, strategy=strategy, memory_limit=limit)
        if name is None and report.name != game.default_name():
            taken = game.default_name()
            err(
                f"Note: {taken} holds another game in this database; this one is stored as {report.name}: query it by that name "
                f"(--name chooses the name; --name {taken} --force replaces {taken} with this game)."
            )
        if report.already_solved:
            out(f"{report.name} is already solved in {database.location} ({report.positions:,} positions); --force solves it again.")
            return
        if not database.is_duckdb and "ix_position_text" in database.missing_indexes():  # (a large tier solve leaves it out; DuckDB never has it)
            err("Note: this large tier solve left the position table's text index out; `gamedb db index` builds it for lookups by text in plain SQL.")
        answer = database.probe(report.name)
    out(solved_line(report.name, report.positions, report.moves, report.seconds, answer))


def solved_line(name: str, positions: int, moves: int, seconds: float, start: Answer) -> str:
    """The line that reports a solve: its size and time, and the start's value (``start``, its stored answer)."""
    value = start.result if start.remoteness is None else f"{start.result} in {start.remoteness}"
    return f"Solved {name}: {positions:,} positions, {moves:,} moves in {seconds:.2f} s. Start {start.position}: {start.player} to move, {value}."


def say_memory(game: Any, strategy: str, limit: int | None) -> None:
    """Before a solve: what the strategy that solves it says first (the tier solver: the memory it needs at most)."""
    from ..solvers.choice import announcement
    from ..store.tuning import default_memory_limit

    note = announcement(game, strategy, limit if limit is not None else default_memory_limit())
    if note is not None:
        err(note)
