"""Running ``gamedb solve`` once Typer has read its command line: check, solve, report."""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..plural import counted
from .common import err, out
from .render import ProgressBars

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..answers import Answer
    from ..api import Database
    from ..games.base import Game
    from ..solvers.solve import SolveReport
    from ..store.rows import Reader


def _operational(exc: Exception) -> bool:
    """Whether a failure of the new-file path is one of its circumstances (the general path may still solve) and not a bug."""
    import sqlite3

    from ..errors import GamedbError
    from ..store.new_sqlite_file import TargetTaken

    return isinstance(exc, (TargetTaken, GamedbError, OSError, sqlite3.Error)) or type(exc).__module__.partition(".")[0] in ("duckdb", "_duckdb")


def run_solve(
    db: str, game: Any, name: str | None, force: bool, quiet: bool, strategy: str = "auto", memory_limit: str | None = None, cluster: Any = None,
    symmetry: bool | None = None,
) -> None:
    """Solve ``game`` into the database ``db`` (a path or URL) and print the one-line report."""
    from ..api import Database
    from ..solvers.choice import announcement, check_choice
    from ..solvers.solve import new_file, solve
    from ..store.sink import check_name

    strategy = getattr(strategy, "value", strategy)
    check_choice(strategy)  # before a new database file is created
    if cluster is not None:
        from ..solvers.cluster_options import check_cluster, cluster_group

        check_cluster(cluster, strategy)
        cluster_group(game, symmetry)  # (before the cluster's note: a game it cannot take is refused first)
    if name is not None:
        check_name(name)  # before a new database file is created
    gc.freeze()  # what start-up made lives to the end: the collections of a long solve need not scan it
    from ..allocator import keep_freed_arrays
    from ..sizes import default_memory_limit, parse_size

    limit = None if memory_limit is None else parse_size(memory_limit)
    keep_freed_arrays(limit)
    if not quiet:  # what the strategy says first (the tier solver: the memory it needs at most, in one process)
        note = announcement(game, strategy, limit if limit is not None else default_memory_limit()) if cluster is None else None
        if note is not None:
            err(note)
        if cluster is not None:
            from ..solvers.tier_memory import slice_note, slice_size_for

            size = cluster.slice_size or slice_size_for(limit if limit is not None else default_memory_limit(), cluster.workers or 1)
            err(slice_note(game, size))
    target = new_file(db, game, strategy, limit) if cluster is None else None
    if target is not None:  # a game solved whole into a file not there yet: written without SQLAlchemy
        try:
            with ProgressBars(quiet) as bars:
                chosen_name = name if name is not None else game.default_name()
                report = solve(target, game, chosen_name, progress=bars, symmetry=symmetry, read_back=_start_read(chosen_name, game))
        except Exception as exc:  # the file made meanwhile, too large for memory, a full disk...: nothing was left behind, and
            if not _operational(exc):  # the general path decides (it says why, if it cannot either); a bug is raised, not
                raise  # hidden behind a slower second solve
        else:
            assert report.read is not None  # (a new file's solve given read_back reads its start)
            start, reachable = report.read
            _note_without_texts(report)
            out(solved_line(report, start, reachable))
            return
    from ..store.location import locate
    from ..store.rows import stores_texts

    work_dir = None if cluster is None or cluster.work_dir is None else Path(cluster.work_dir)
    with _folders_removed_if_left_empty(work_dir), Database(db, create=True) as database:  # (a file it made is not left empty)
        with ProgressBars(quiet) as bars:
            report = database.solve(game, name, force=force, progress=bars, strategy=strategy, memory_limit=limit, cluster=cluster, symmetry=symmetry)
        if name is None and report.name != game.default_name():
            taken = game.default_name()
            err(
                f"Note: {taken} holds another game in this database; this one is stored as {report.name}: query it by that name "
                f"(--name chooses the name; --name {taken} --force replaces {taken} with this game)."
            )
        if report.already_solved:
            out(f"{report.name} is already solved in {locate(db).shown} ({counted(report.positions, 'position')}); --force solves it again.")
            return
        if stores_texts(report.positions) and not locate(db).is_duckdb and "ix_position_text" in database.missing_indexes():  # (DuckDB never has it)
            err("Note: this large tier solve left the position table's text index out; `gamedb db index` builds it for lookups by text in plain SQL.")
        line = _solved(report, database)
    out(line)


@contextmanager
def _folders_removed_if_left_empty(folder: Path | None) -> Iterator[None]:
    """``folder`` (``--work-dir``) and the folders above it that the solve makes, removed when it is over if they are
    empty: a solve removes its work folder inside once the rows are in (an interrupted one keeps it, to resume)."""
    made: list[Path] = []
    if folder is not None:
        here = folder.absolute()
        while not os.path.lexists(here) and here != here.parent:
            made.append(here)
            here = here.parent
    try:
        yield
    finally:
        for empty in made:  # the deepest first: each goes only if nothing is in it
            try:
                empty.rmdir()
            except OSError:
                break


def _solved(report: SolveReport, database: Database) -> str:
    """The line of a solve, after the note of a game stored without its position texts."""
    _note_without_texts(report)
    return solved_line(report, database.probe(report.name), database.game(report.name).reachable)


def _note_without_texts(report: SolveReport) -> None:
    """The note of a game stored without its position texts."""
    from ..store.rows import stores_texts

    if not stores_texts(report.positions):
        err(f"Note: a game of {report.positions:,} positions is stored without position texts (they follow from the codes); "
            "gamedb shows them everywhere, and plain SQL finds a position by its code (`gamedb export` lists both).")


def _start_read(name: str, game: Game) -> Callable[[Reader], tuple[Answer, int | None]]:
    """What reads a new file's start back for the summary, as ``gamedb query NAME`` reads it (the stored rows of the start
    and its moves, through a :class:`~gamedb.store.rows.Reader`), on its writer's connection before it is closed: opening
    the file again, checked as a file from anyone, was 0.06 s of a cat-mouse solve of 0.9 s. Its stored reachable count too."""
    def read(reader: Reader) -> tuple[Answer, int | None]:
        from ..answers import Answer
        from ..query import answer_positions

        record = reader.get(name)
        (start,) = answer_positions(reader, record, game, None, [None], boards=False)
        if not isinstance(start, Answer):
            raise start  # (never: the start is stored)
        return start, record.reachable

    return read


def solved_line(report: SolveReport, start: Answer, reachable: int | None = None) -> str:
    """The line that reports a solve: its size and time, and the start's value (``start``, its stored answer);
    ``reachable``, when more than the positions stored (symmetry), is said too."""
    value = start.result if start.remoteness is None else f"{start.result} in {start.remoteness}"
    stored = f" (one per symmetry class of {reachable:,} reachable)" if reachable is not None and reachable != report.positions else ""
    return (f"Solved {report.name}: {counted(report.positions, 'position')}{stored}, {counted(report.moves, 'move')} in {report.seconds:.2f} s. "
            f"Start {start.position}: {start.player} to move, {value}.")
