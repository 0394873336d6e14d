"""Running ``gamedb solve`` once Typer has read its command line: check, solve, report."""

from __future__ import annotations

import gc
from typing import TYPE_CHECKING, Any

from .common import err, out
from .render import ProgressBars

if TYPE_CHECKING:
    from ..answers import Answer
    from ..solvers.solve import SolveReport


def run_solve(db: str, game: Any, name: str | None, force: bool, quiet: bool, strategy: str = "auto", memory_limit: str | None = None) -> None:
    """Solve ``game`` into the database ``db`` (a path or URL) and print the one-line report."""
    from ..api import Database
    from ..solvers.choice import announcement, check_choice
    from ..solvers.solve import new_file, solve
    from ..store.sink import check_name

    strategy = getattr(strategy, "value", strategy)
    check_choice(strategy)  # before a new database file is created
    if name is not None:
        check_name(name)  # before a new database file is created
    gc.freeze()  # what start-up made lives to the end: the collections of a long solve need not scan it
    from ..sizes import default_memory_limit, parse_size

    limit = None if memory_limit is None else parse_size(memory_limit)
    if not quiet:  # what the strategy says first (the tier solver: the memory it needs at most)
        note = announcement(game, strategy, limit if limit is not None else default_memory_limit())
        if note is not None:
            err(note)
    target = new_file(db, game, strategy) if memory_limit is None else None
    if target is not None:  # a game solved whole into a file not there yet: written without SQLAlchemy
        try:
            with ProgressBars(quiet) as bars:
                report = solve(target, game, name if name is not None else game.default_name(), progress=bars)
        except Exception:  # another process made the file meanwhile, ...: nothing was left behind; the general path decides
            pass
        else:
            _without_texts(report.positions)
            with Database(target.path, readonly=True) as database:  # read back as `gamedb query` reads it
                line = solved_line(report, database.probe(report.name))
            out(line)
            return
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
        _without_texts(report.positions)
        line = solved_line(report, database.probe(report.name))
    out(line)


def _without_texts(positions: int) -> None:
    """The note of a game stored without its position texts."""
    from ..store.rows import stores_texts

    if not stores_texts(positions):
        err(f"Note: a game of {positions:,} positions is stored without position texts (they follow from the codes); "
            "gamedb shows them everywhere, and plain SQL finds a position by its code (`gamedb export` lists both).")


def solved_line(report: SolveReport, start: Answer) -> str:
    """The line that reports a solve: its size and time, and the start's value (``start``, its stored answer)."""
    value = start.result if start.remoteness is None else f"{start.result} in {start.remoteness}"
    return (f"Solved {report.name}: {report.positions:,} positions, {report.moves:,} moves in {report.seconds:.2f} s. "
            f"Start {start.position}: {start.player} to move, {value}.")
