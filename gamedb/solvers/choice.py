"""The one place that picks a solving strategy for a game: :data:`STRATEGIES`, one row each with its lazily imported hooks."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

from ..errors import InputError, param
from ..games.base import Game
from ..safe_text import shown
from ..store.damage import damaged
from .capabilities import symmetry_group

if TYPE_CHECKING:  # imported by the light read path of `gamedb query`: no SQLAlchemy at import
    import sqlalchemy as sa

    from ..games.heaps import HeapGame
    from ..store.record import GameRecord
    from ..store.rows import Reader
    from .protocol import IntoSink, Solver


#: ``--strategy auto``: the first strategy, in the table's order, that takes the game
AUTO = "auto"


@dataclass(frozen=True)
class Need:
    """A capability a strategy uses: required, or optional with what happens without it."""

    capability: str
    required: bool
    without: str = "refused"


def _graph_answer() -> ModuleType:
    from . import graph_answer

    return graph_answer


@dataclass(frozen=True)
class Strategy:
    """One solving strategy and everything the rest of gamedb asks of it."""

    #: stored in ``game.strategy`` by every solve, and read to verify and answer the game
    name: str
    #: its :class:`~gamedb.solvers.protocol.Solver` (verify; and solve, for one that computes inside the database)
    load: Callable[[], Solver]
    needs: tuple[Need, ...] = ()
    #: False: refuses impartial games (they need Grundy values this strategy does not compute)
    impartial: bool = True
    #: the name ``--strategy`` takes for it; None: taken whenever it accepts the game
    choice: str | None = None
    #: what ``--strategy CHOICE`` does, in ``gamedb solve --help``
    help: str = ""
    #: with ``--strategy auto``: tried for a new game only
    auto_new_only: bool = False
    #: the only strategy for a game it accepts, whatever ``--strategy`` says
    exclusive: bool = False
    #: refuses with :class:`~gamedb.solvers.protocol.TooLarge` before writing anything: ``auto`` then tries the next
    gives_way: bool = False
    #: the module whose ``probe_many(reader, record, game, positions, boards=...)`` answers from its tables
    answerer: Callable[[], ModuleType] = _graph_answer
    #: ``(game, name) -> (bytes, what needs them, advice) | None``: checked before a solve it cannot give way in
    memory_need: Callable[[Game, str], tuple[int, str, str] | None] | None = None
    #: ``(game, limit) -> str | None``: what the command line says before a solve by this strategy starts
    announce: Callable[[Game, int], str | None] | None = None
    #: ``(db, record) -> bool``: it may take over another's unfinished solve (nothing of it written yet)
    takes_over: Callable[[sa.Engine, GameRecord], bool] | None = None
    #: ``(reader, record) -> dict``: what ``gamedb stats`` adds for a game this strategy stored
    summary: Callable[[Reader, GameRecord], dict[str, Any]] | None = None
    #: imports and gives its solve into any sink (:mod:`gamedb.store.sink`): the database's, or a new file's made after
    into_sink: Callable[[], IntoSink] | None = None
    #: ``game -> bool``: solved straight into a new file's sink (one transaction, no SQLAlchemy) when that file is new
    small: Callable[[Game], bool] | None = None
    #: stores one canonical position per symmetry class of a game that declares symmetries (``--symmetry``)
    symmetry: bool = False
    #: the capability a game needs for that (retrograde: ``vector_rules``; without it every position is stored)
    symmetry_needs: str | None = None

    def accepts(self, game: Game) -> bool:
        return self.refusal(game) is None

    def refusal(self, game: Game) -> str | None:  # why it cannot solve ``game`` (None: it can)
        missing = ", ".join(need.capability for need in self.needs if need.required and not getattr(game.capabilities, need.capability))
        impartial = None if self.impartial or not game.impartial else "it takes no impartial game"
        return f"the {game.family} family declares no {missing}" if missing else impartial


# --- the hooks: each imports its module when it runs ----------------------------------------


def _heap_solver() -> Solver:
    from .heaps.strategy import HeapSolver

    return cast("Solver", HeapSolver())  # its verify takes the HeapGame the strategy requires


def _heap_answer() -> ModuleType:
    from .heaps import sums

    return sums


def _heap_summary(reader: Reader, record: GameRecord) -> dict[str, Any]:
    from .heaps.sums import stats_summary

    return stats_summary(reader, record)


def _heaps_into() -> IntoSink:
    from .heaps.solver import solve

    return lambda sink, job: solve(sink, cast("HeapGame", job.game), progress=job.progress)


def _heaps_small(game: Game) -> bool:
    from .heaps.solver import WRITE_BATCH

    return cast("HeapGame", game).max_heap + 1 <= WRITE_BATCH  # (a heap game of at most one write batch)


def _tier_solver() -> Solver:
    from .tiers import TierSolver

    return TierSolver()


def _tier_memory_need(game: Game, name: str) -> tuple[int, str, str] | None:
    from .tier_memory import memory_need

    return memory_need(game, name)


def _tier_announce(game: Game, limit: int) -> str | None:
    from .tier_memory import memory_note

    return memory_note(game, limit)


def _tiers_into() -> IntoSink:
    from .tiers import into_new_file

    return into_new_file


def _tiers_small(game: Game) -> bool:
    from .tier_memory import fits_new_file

    return fits_new_file(game)


def _graph_memory_solver() -> Solver:
    from .graph_memory import GraphMemory

    return GraphMemory()


def _graph_memory_need(game: Game, name: str) -> tuple[int, str, str] | None:
    from .graph_memory import memory_need

    return memory_need(game, name)


def _nothing_enumerated(db: sa.Engine, record: GameRecord) -> bool:
    from .enumeration import nothing_enumerated

    return nothing_enumerated(db, record)


def _graph_into() -> IntoSink:
    from .graph_solution import solve

    return lambda sink, job: solve(sink, job.game, memory_limit=job.memory_limit, progress=job.progress)


def _graph_small(game: Game) -> bool:  # a game with an estimate, of any size: solved in memory and written in one commit
    return game.estimate() is not None  # (it has nothing to resume)


def _retrograde_solver() -> Solver:
    from .retrograde import Retrograde

    return Retrograde()


def _retrograde_memory_need(game: Game, name: str) -> tuple[int, str, str] | None:
    from .retrograde import memory_need

    return memory_need(game, name)


def _retrograde_into() -> IntoSink:
    from .retrograde import solve

    return lambda sink, job: solve(sink, job.game, memory_limit=job.memory_limit, progress=job.progress, symmetry=job.symmetry)


def _graph_sql_solver() -> Solver:
    from .graph_sql import GraphSql

    return GraphSql()


ONE_BY_ONE = "positions are expanded one by one in Python (Game.expand)"  # (a game with no array rules of either kind)

#: every strategy, in the order ``--strategy auto`` tries them
STRATEGIES: dict[str, Strategy] = {
    "heaps": Strategy(
        "heaps",
        _heap_solver,
        needs=(Need("heap_rules", required=True),),
        exclusive=True,
        answerer=_heap_answer,
        summary=_heap_summary,
        into_sink=_heaps_into,
        small=_heaps_small,
    ),
    "tiers": Strategy(
        "tiers",
        _tier_solver,
        needs=(
            Need("tiers", required=True),
            Need("array_rules", required=False, without=ONE_BY_ONE),
        ),
        impartial=False,
        choice="tiers",
        help="the tier solver (memory of the largest tiers, resumable tier by tier)",
        auto_new_only=True,
        memory_need=_tier_memory_need,
        announce=_tier_announce,
        into_sink=_tiers_into,
        small=_tiers_small,
        symmetry=True,
    ),
    "retrograde": Strategy(
        "retrograde",
        _retrograde_solver,
        needs=(
            Need("vector_rules", required=False, without=ONE_BY_ONE + ", each kept in memory"),
            Need("token_moves", required=False, without="one move row is written per move"),
        ),
        impartial=False,
        choice="retrograde",
        help="loopy games by levels on flat arrays (24 bytes per position at most)",
        gives_way=True,
        memory_need=_retrograde_memory_need,
        takes_over=_nothing_enumerated,
        into_sink=_retrograde_into,
        small=_graph_small,
        symmetry=True,
        symmetry_needs="vector_rules",
    ),
    "graph-memory": Strategy(
        "graph-memory",
        _graph_memory_solver,
        needs=(
            Need("vector_rules", required=False, without=ONE_BY_ONE),
            Need("token_moves", required=False, without="one move row is written per move"),
        ),
        impartial=False,
        choice="memory",
        help="in memory (numpy) or fail",
        gives_way=True,
        memory_need=_graph_memory_need,
        takes_over=_nothing_enumerated,
        into_sink=_graph_into,
        small=_graph_small,
    ),
    "graph-sql": Strategy(
        "graph-sql",
        _graph_sql_solver,
        needs=(
            Need("vector_rules", required=False, without=ONE_BY_ONE),
            Need("token_moves", required=False, without="one move row is written per move and the levels join through move(child)"),
        ),
        choice="sql",
        help="retrograde analysis inside the database (bounded memory, resumable level by level)",
    ),
}

#: the values of ``--strategy``
CHOICES = (AUTO, *(s.choice for s in STRATEGIES.values() if s.choice is not None))
#: ``--strategy``'s help, from the rows: ``auto`` tries them in this order
CHOICES_HELP = "; ".join([f"{AUTO}: the first of {', '.join(CHOICES[1:])} that takes the game and fits --memory-limit",
                          *(f"{s.choice}: {s.help}" for s in STRATEGIES.values() if s.choice is not None)])


def stored_by(record: GameRecord, game: Game | None = None) -> Strategy:
    """The strategy that stored ``record`` (its ``strategy`` column), which must take ``game`` (else the file was edited)."""
    strategy = STRATEGIES.get(record.strategy)
    if strategy is None:
        raise damaged(record.name, f"strategy {shown(record.strategy, 40)} is none of {', '.join(STRATEGIES)}")
    if game is not None and not strategy.accepts(game):
        raise damaged(record.name, f"its strategy {strategy.name} cannot solve a game of its family {shown(record.family, 40)}")
    return strategy


def answered_by(record: GameRecord, game: Game) -> ModuleType:
    """The module that answers queries on a stored ``game`` (its ``probe_many``), from the strategy that stored it."""
    return stored_by(record, game).answerer()


def check_choice(choice: str) -> None:
    """Refuse a ``--strategy`` that names no strategy."""
    if choice not in CHOICES:
        raise InputError(f"{param('strategy')} must be one of {', '.join(CHOICES)}, got {choice!r}")


def candidates(game: Game, choice: str, *, new: bool = True) -> list[Strategy]:
    """The strategies ``game`` is solved with under ``--strategy choice``, in order (one that gives way passes it on)."""
    check_choice(choice)
    chosen = next((s for s in STRATEGIES.values() if s.choice == choice), None)
    if chosen is not None and (why := chosen.refusal(game)) is not None:  # (said as typed: not the name the game row records)
        raise InputError(f"{param('strategy', choice)} cannot solve this game ({why})")
    for strategy in STRATEGIES.values():
        if strategy.exclusive and strategy.accepts(game):
            return [strategy]
    if chosen is not None:
        return [chosen]
    found: list[Strategy] = []
    for strategy in STRATEGIES.values():
        if strategy.accepts(game) and (new or not strategy.auto_new_only):
            found.append(strategy)
            if not strategy.gives_way:
                return found
    return found


def plan(db: sa.Engine, record: GameRecord | None, game: Game, choice: str) -> list[Strategy]:
    """The strategies to try, in order; a :class:`~gamedb.solvers.protocol.TooLarge` from one moves on to the next."""
    found = candidates(game, choice, new=record is None)
    if record is None or found[0].exclusive:
        return found
    begun = stored_by(record)
    taking = [s for s in found if s is not begun and s.gives_way and s.takes_over and s.takes_over(db, record)]
    if begun in found or choice == AUTO:
        return [*taking, begun]
    if taking:
        return taking
    raise InputError(f"an unfinished solve of this game by the {begun.name} strategy is stored; "
                     f"use {param('strategy', begun.choice or AUTO)} (or {AUTO}), or {param('force', True)}")


def symmetry(game: Game, choice: str, wanted: bool | None, record: GameRecord | None = None) -> int:
    """The symmetry group a solve stores through (1: none): ``wanted`` (None: where the strategy uses them), or ``record``'s."""
    group = symmetry_group(game)
    if record is not None:
        stored = record.symmetry
        if wanted is not None and wanted != (stored > 1):
            raise InputError(f"an unfinished solve of this game {'with' if stored > 1 else 'without'} symmetry is stored; "
                             f"run it again without {param('symmetry', stored <= 1)}, or use {param('force', True)}")
        return stored
    if wanted is False or (wanted is None and group == 1):
        return 1
    if group == 1:
        raise InputError(f"{param('symmetry', True)}: the {game.family} family declares no symmetries")
    needs = (strategy := candidates(game, choice)[0]).symmetry_needs
    if strategy.symmetry and (needs is None or getattr(game.capabilities, needs)):
        return group
    if wanted:
        keeping = [param("strategy", s.choice) for s in STRATEGIES.values() if s.symmetry and s.choice and s.accepts(game)
                   and (s.symmetry_needs is None or getattr(game.capabilities, s.symmetry_needs))]
        using = ([] if needs is None else [f"it uses symmetries only with {needs.replace('_', ' ')}"]) + \
            [f"one per symmetry class: {' or '.join(keeping)}" if keeping else "no strategy keeps one per class"]
        who = param("strategy", choice) if strategy.choice == choice else f"the {strategy.name} strategy"  # (as typed)
        raise InputError(f"{param('symmetry', True)}: {who} stores every position of this {game.family} game "
                         f"({'; '.join(using)}); use {param('symmetry', False)}")
    return 1


def memory_need(game: Game, name: str, choice: str) -> tuple[int, str, str] | None:
    """(bytes, what needs them, advice) of the strategy that solves a new ``game`` and cannot give way, or None."""
    found = candidates(game, choice)
    strategy = found[0]
    if strategy.memory_need is None or (strategy.gives_way and len(found) > 1):
        return None
    return strategy.memory_need(game, name)


def announcement(game: Game, choice: str, limit: int) -> str | None:
    """What the command line says before ``game`` is solved under ``--strategy choice`` (the memory it needs)."""
    strategy = candidates(game, choice)[0]
    return None if strategy.announce is None else strategy.announce(game, limit)


def summary(reader: Reader, record: GameRecord) -> dict[str, Any]:
    """What ``gamedb stats`` adds for ``record`` from the strategy that stored it."""
    strategy = stored_by(record)
    return {} if strategy.summary is None else strategy.summary(reader, record)


def new_file_strategy(game: Game, choice: str = AUTO) -> Strategy | None:
    """The strategy that solves ``game`` into a new file's sink under ``--strategy choice`` (its first, if it writes into any sink
    and takes the game there), or None."""
    strategy = candidates(game, choice)[0]
    return strategy if strategy.into_sink is not None and strategy.small is not None and strategy.small(game) else None
