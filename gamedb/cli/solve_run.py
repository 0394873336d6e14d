"""Running ``gamedb solve`` once its command line is read: one definition for both ways of reading it.

The full command line (:mod:`gamedb.cli.solve`, Typer) and the light solve
path (:mod:`gamedb.cli.quick_solve`, no Typer) both end here, so they check,
solve and report alike. No Typer here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import InputError
from .common import err, out
from .render import ProgressBars

if TYPE_CHECKING:
    from ..answers import Answer


def run_solve(db: str, game: Any, name: str | None, force: bool, quiet: bool, engine: str = "auto", memory_limit: str | None = None) -> None:
    """Solve ``game`` into the database ``db`` (a path or URL) and print the one-line report."""
    from ..api import Database
    from ..solvers.choice import ENGINES
    from ..store.sink import check_name
    from ..store.tuning import parse_size

    engine = getattr(engine, "value", engine)
    if engine not in ENGINES:  # checked before a new database file is created
        raise InputError(f"--engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    limit = None if memory_limit is None else parse_size(memory_limit)
    if name is not None:
        check_name(name)  # before a new database file is created
    if not quiet:
        say_tier_memory(game, engine, limit)
    with Database(db, create=True) as database:
        with ProgressBars(quiet) as bars:
            report = database.solve(game, name, force=force, progress=bars, engine=engine, memory_limit=limit)
        if name is None and report.name != game.default_name():
            taken = game.default_name()
            err(
                f"Note: {taken} holds another game in this database; this one is stored as {report.name}: query it by that name "
                f"(--name chooses the name; --name {taken} --force replaces {taken} with this game)."
            )
        if report.already_solved:
            out(f"{report.name} is already solved in {database.location} ({report.positions:,} positions); --force solves it again.")
            return
        if report.engine == "tiers" and "ix_position_text" in database.missing_indexes():
            err("Note: this large tier solve left the position table's text index out; `gamedb db index` builds it for lookups by text in plain SQL.")
        answer = database.probe(report.name)
    out(solved_line(report.name, report.positions, report.moves, report.seconds, answer))


def solved_line(name: str, positions: int, moves: int, seconds: float, start: Answer) -> str:
    """The line that reports a solve: its size and time, and the start's value (``start``, its stored answer)."""
    value = start.result if start.remoteness is None else f"{start.result} in {start.remoteness}"
    return f"Solved {name}: {positions:,} positions, {moves:,} moves in {seconds:.2f} s. Start {start.position}: {start.player} to move, {value}."


def say_tier_memory(game: Any, engine: str, limit: int | None) -> None:
    """Before a tier solve: the memory it needs at most (from the family's bounds on its tiers) and the limit."""
    from ..solvers.choice import STRATEGIES
    from ..store.tuning import default_memory_limit, human_size

    if engine not in ("auto", "tiers") or not STRATEGIES["tiers"].accepts(game):
        return
    from ..solvers.tiers import memory_estimate

    estimate = memory_estimate(game)
    if estimate is not None:
        need, largest, second = estimate
        err(
            f"The tier solver needs up to ~{human_size(need)} of memory (its two largest tiers: up to {largest:,} and {second:,} positions); "
            f"memory limit {human_size(limit if limit is not None else default_memory_limit())}."
        )
