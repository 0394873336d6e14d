"""The light solve path: ``gamedb solve FAMILY [options]`` without Typer.

Typer reads a command line through pydantic (about 0.15 s of imports and
validators for a dozen options), and interpreter shutdown with SQLAlchemy
loaded costs another 0.05 s or so: together about half of a small solve
(``gamedb solve nim --max 13``, issue 12). When the command line is a plain
solve of a built-in family -- only ``--db`` before ``solve``; ``--name``,
``--force``, ``--quiet`` before or after the family; the family's own
options, ``--strategy`` and ``--memory-limit`` after it (the deprecated ``--engine``: the full path, which says so); every value plain --
this module reads it from the family's declared options
(:attr:`gamedb.games.base.Game.params`, the same list Typer's command is built
from) and runs the one solve of both paths (:func:`gamedb.cli.solve_run.run_solve`).
Anything else -- help, ``--game``/``--set``, a plugin's family, an unknown or
repeated option, a value that is not plainly an integer where one is
expected, a missing required option -- goes to the full command line, which
reads it or says what is wrong in its usual words.

A small game solved into a file that does not exist yet (a heap game, or
cat and mouse) does not import SQLAlchemy at all: it is written by
:func:`gamedb.solvers.solve.solve` into a new file's sink
(the same rows, from the same row builders, a test compares them) and its
report line is the full path's (:func:`gamedb.cli.solve_run.solved_line`),
from the start's answer read back as ``gamedb query`` reads it.
"""

from __future__ import annotations

import gc
import os
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .argv import global_options

if TYPE_CHECKING:
    from ..games.base import Game

#: options of every family's solve command that take a value, and the flags
VALUE_OPTIONS = ("--name", "--strategy", "--memory-limit")
FLAGS = {"--force": "force", "--quiet": "quiet", "-q": "quiet"}
_INTEGER = re.compile(r"[0-9]+")


@dataclass
class SolveRequest:
    """A plain ``solve`` command line of a built-in family."""

    db: str
    family: str
    options: dict[str, Any] = field(default_factory=dict)
    name: str | None = None
    force: bool = False
    quiet: bool = False
    strategy: str = "auto"
    memory_limit: str | None = None


def _split(args: list[str], i: int, value_flags: set[str]) -> tuple[str, str | None, int] | None:
    """(flag, value, next index) of the option at ``args[i]``; None for anything but a known flag with a plain value."""
    arg = args[i]
    flag, eq, value = arg.partition("=")
    if eq:
        return (flag, value, i + 1) if flag in value_flags and not value.startswith("-") else None
    if arg in FLAGS:
        return arg, None, i + 1
    if arg in value_flags and i + 1 < len(args) and not args[i + 1].startswith("-"):
        return arg, args[i + 1], i + 2
    return None


def parse_solve(argv: list[str]) -> SolveRequest | None:
    """The request if ``argv`` is a plain solve of a built-in family, else None (the full parser decides)."""
    from ..games import BUILTIN, family

    found = global_options(argv, "solve")
    if found is None:
        return None
    db, args = found
    given: dict[str, str | None] = {}
    i = 1
    while i < len(args) and args[i].startswith("-"):  # --name, --force, --quiet before the family
        step = _split(args, i, {"--name"})
        if step is None or step[0] in given:
            return None
        given[step[0]], i = step[1], step[2]
    if i >= len(args) or args[i] not in BUILTIN:
        return None
    fam = args[i]
    cls = family(fam)
    params = {p.flag: p for p in cls.params}
    before, given = given, {}
    i += 1
    while i < len(args):
        step = _split(args, i, {*params, *VALUE_OPTIONS})
        if step is None or step[0] in given:
            return None
        given[step[0]], i = step[1], step[2]
    options: dict[str, Any] = {}
    for flag, p in params.items():
        text = given.get(flag)
        if text is None:
            if p.required:
                return None
            if p.default is not None:
                options[p.name] = p.default  # as Typer passes an option left out
        elif p.type is int and _INTEGER.fullmatch(text):
            options[p.name] = int(text)
        elif p.type is str:
            options[p.name] = text
        else:
            return None
    return _request(db, fam, options, before, given)


def _request(db: str, fam: str, options: dict[str, Any], before: dict[str, str | None], after: dict[str, str | None]) -> SolveRequest | None:
    from ..solvers.choice import AUTO, CHOICES

    names = {before.get("--name"), after.get("--name")} - {None}
    strategy = after.get("--strategy") or AUTO
    if len(names) > 1 or strategy not in CHOICES:
        return None
    flags = {FLAGS[flag] for flag in (*before, *after) if flag in FLAGS}
    return SolveRequest(
        db, fam, options, name=next(iter(names), None), force="force" in flags, quiet="quiet" in flags,
        strategy=strategy, memory_limit=after.get("--memory-limit"),
    )


def try_solve(argv: list[str]) -> None:
    """Solve on the light path and end the process, or return having done nothing (the full path takes over)."""
    try:
        request = parse_solve(argv)
    except Exception:  # whatever went wrong, the full path reports it in its own words
        return
    if request is None:
        return
    from ..games import family
    from .common import report_failure

    try:
        game = family(request.family).from_options(**request.options)
        target = new_file_target(request, game)
        if target is None:
            from .. import api  # noqa: F401 (SQLAlchemy and the solver, imported while the collector is off: see quick.main)
            from ..solvers import solve  # noqa: F401
        gc.enable()
        gc.freeze()  # what start-up made lives to the end: later collections of a long solve need not scan it
        if target is None or not solve_into_new_file(request, game, *target):
            from .solve_run import run_solve

            run_solve(request.db, game, request.name, request.force, request.quiet, request.strategy, request.memory_limit)
        code = 0
    except BaseException as exc:
        found = report_failure(exc)
        if found is None:
            raise
        code = found
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:  # the reader has gone; what was written stands
        pass
    # everything is written and the database closed: skip the interpreter's teardown of every module (~0.05 s)
    os._exit(code)


def new_file_target(request: SolveRequest, game: Game) -> tuple[Path, str] | None:
    """(file, schema revision) when the solve can go straight into a new SQLite file without SQLAlchemy
    (:func:`gamedb.solvers.solve.solve` into a new file's sink): a small game it takes, a plain path that does not exist yet in a
    folder that does, the default strategy and memory limit. None: the full path solves it."""
    from ..solvers.solve import new_file

    return None if request.memory_limit is not None else new_file(request.db, game, request.strategy)


def solve_into_new_file(request: SolveRequest, game: Game, path: Path, revision: str) -> bool:
    """Solve into the new file and print the full path's report; False (nothing printed, nothing
    left behind) when that could not be done and the full path must solve it."""
    from ..api import Database
    from ..solvers.solve import NewFile, solve
    from ..store.sink import check_name
    from .common import out
    from .render import ProgressBars
    from .solve_run import solved_line

    name = request.name if request.name is not None else game.default_name()
    check_name(name)  # refused as the full path refuses it
    t0 = time.perf_counter()
    try:
        with ProgressBars(request.quiet) as bars:
            done = solve(NewFile(path, revision), game, name, progress=bars)
    except Exception:  # another process made the file meanwhile, a folder that will not take it, ...: the full path decides
        return False
    with Database(path, readonly=True) as db:  # read back as `gamedb query` reads it
        start = db.probe(name)
    out(solved_line(name, done.positions, done.moves, time.perf_counter() - t0, start))
    return True
