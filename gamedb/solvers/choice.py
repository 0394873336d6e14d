"""The one place that picks a solving strategy for a game, from its declared capabilities.

Every strategy is a row of :data:`STRATEGIES`: the solver class that
implements :class:`~gamedb.solvers.protocol.Solver`, the capabilities of
:class:`~gamedb.games.base.Capabilities` it requires, the optional ones it
uses and what happens without them, its place in the order ``--strategy
auto`` tries, and its hooks (memory need, what the command line says first,
taking over another's unfinished solve, the stats summary, the answerer, a
solve into a new file). The game's class declares what it provides; nothing
here or anywhere else asks a game object what it is, and no module but this
one names a strategy. :func:`plan` picks the strategies for a solve (with
``--strategy``); the game row records which one stored it, and
:func:`stored_by` reads that to verify and answer; :func:`vector_rules` /
:func:`move_lists` hand the optional capabilities to the solvers that use them.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..errors import GamedbError, InputError
from ..games.base import Game, TokenMoves
from ..safe_text import shown
from ..store.damage import damaged

if TYPE_CHECKING:  # this module is imported by the light read path of `gamedb query`: no SQLAlchemy at import
    import sqlalchemy as sa

    from ..games.tier_rules import TierArrayRules
    from ..games.vector import VectorRules
    from ..store.record import GameRecord
    from ..store.rows import Reader
    from .protocol import Solver

#: values of ``--strategy``: ``auto`` picks (the first strategy, in the table's order, that takes the game), else
#: the ``choice`` of a row: ``tiers`` the tier solver, ``sql`` and ``memory`` a graph solver
AUTO = "auto"


@dataclass(frozen=True)
class Need:
    """A capability a strategy uses: required, or optional with what happens without it."""

    capability: str
    required: bool
    without: str = "refused"


@dataclass(frozen=True)
class Strategy:
    """One solving strategy and everything the rest of gamedb asks of it (the hooks are ``module:function``
    names, imported on first use: numpy and SQLAlchemy stay unloaded until a hook that needs them runs)."""

    #: stored in ``game.strategy`` by every solve, and read to verify and answer the game
    name: str
    #: ``module:Class`` of the :class:`~gamedb.solvers.protocol.Solver`
    solver: str
    needs: tuple[Need, ...] = ()
    #: False: refuses impartial games (they need Grundy values this strategy does not compute)
    impartial: bool = True
    #: the name ``--strategy`` takes for it; None: not chosen by name (taken whenever it accepts the game)
    choice: str | None = None
    #: with ``--strategy auto``: tried for a new game only (a stored game not begun by it keeps its own strategy)
    auto_new_only: bool = False
    #: the only strategy for a game it accepts, whatever ``--strategy`` says
    exclusive: bool = False
    #: refuses with :class:`~gamedb.solvers.protocol.TooLarge` before writing anything: ``auto`` then tries the next
    gives_way: bool = False
    #: the module whose ``probe_many(reader, record, game, positions, boards=...)`` answers from its tables (no SQLAlchemy)
    answerer: str = "gamedb.solvers.graph_answer"
    #: ``(game, name) -> (bytes, what needs them, advice) | None``: checked before a solve it cannot give way in
    memory_need: str | None = None
    #: ``(game, limit) -> str | None``: what the command line says before a solve by this strategy starts
    announce: str | None = None
    #: ``(db, record) -> bool``: it may take over another's unfinished solve (nothing of it written yet)
    takes_over: str | None = None
    #: ``(conn, record) -> dict``: what ``gamedb stats`` adds for a game this strategy stored
    summary: str | None = None
    #: ``game -> bool`` and ``(sink, game, progress) -> Solved``: it solves a small game into a new file (:mod:`.new_file`)
    new_file: tuple[str, str] | None = None

    def accepts(self, game: Game) -> bool:
        declared = game.capabilities
        return all(getattr(declared, need.capability) for need in self.needs if need.required) and (self.impartial or not game.impartial)

    def load(self) -> Solver:
        solver: Solver = hook(self.solver)()
        return solver


def hook(spec: str) -> Any:
    """The function (or class) a strategy row names as ``module:name``, imported now."""
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name)


#: what a solver does when a game offers no array rules of either kind
ONE_BY_ONE = "positions are expanded one by one in Python (Game.expand)"

#: every strategy, in the order ``--strategy auto`` tries them
STRATEGIES: dict[str, Strategy] = {
    "heaps": Strategy(
        "heaps",
        "gamedb.solvers.heaps.strategy:HeapSolver",
        needs=(Need("heap_rules", required=True),),
        exclusive=True,
        answerer="gamedb.solvers.heaps.sums",
        summary="gamedb.solvers.heaps.sums:stats_summary",
        new_file=("gamedb.solvers.new_file:heaps_fit", "gamedb.solvers.new_file:solve_heaps"),
    ),
    "tiers": Strategy(
        "tiers",
        "gamedb.solvers.tiers:TierSolver",
        needs=(
            Need("tiers", required=True),
            Need("array_rules", required=False, without=ONE_BY_ONE),
        ),
        impartial=False,
        choice="tiers",
        auto_new_only=True,
        memory_need="gamedb.solvers.tier_memory:memory_need",
        announce="gamedb.solvers.tier_memory:memory_note",
    ),
    "retrograde": Strategy(
        "retrograde",
        "gamedb.solvers.retrograde:Retrograde",
        needs=(
            Need("vector_rules", required=False, without=ONE_BY_ONE + ", each kept in memory"),
            Need("token_moves", required=False, without="one move row is written per move"),
        ),
        impartial=False,
        choice="retrograde",
        gives_way=True,
        memory_need="gamedb.solvers.retrograde:memory_need",
        takes_over="gamedb.solvers.enumeration:nothing_enumerated",
        new_file=("gamedb.solvers.new_file:graph_fits", "gamedb.solvers.retrograde:solve_new_file"),
    ),
    "graph-memory": Strategy(
        "graph-memory",
        "gamedb.solvers.graph_memory:GraphMemory",
        needs=(
            Need("vector_rules", required=False, without=ONE_BY_ONE),
            Need("token_moves", required=False, without="one move row is written per move"),
        ),
        impartial=False,
        choice="memory",
        gives_way=True,
        memory_need="gamedb.solvers.graph_memory:memory_need",
        takes_over="gamedb.solvers.enumeration:nothing_enumerated",
        new_file=("gamedb.solvers.new_file:graph_fits", "gamedb.solvers.new_file:solve_graph"),
    ),
    "graph-sql": Strategy(
        "graph-sql",
        "gamedb.solvers.graph_sql:GraphSql",
        needs=(
            Need("vector_rules", required=False, without=ONE_BY_ONE),
            Need("token_moves", required=False, without="one move row is written per move and the levels join through move(child)"),
        ),
        choice="sql",
    ),
}

#: the values of ``--strategy``
CHOICES = (AUTO, *(s.choice for s in STRATEGIES.values() if s.choice is not None))


def stored_by(record: GameRecord, game: Game | None = None) -> Strategy:
    """The strategy that stored ``record`` (its ``strategy`` column): its verifier and answerer read the game
    (``game``, its rules: which the strategy must take, else the file was edited)."""
    strategy = STRATEGIES.get(record.strategy)
    if strategy is None:
        raise damaged(record.name, f"strategy {shown(record.strategy, 40)} is none of {', '.join(STRATEGIES)}")
    if game is not None and not strategy.accepts(game):
        raise damaged(record.name, f"its strategy {strategy.name} cannot solve a game of its family {shown(record.family, 40)}")
    return strategy


def answered_by(record: GameRecord, game: Game) -> ModuleType:
    """The module that answers queries on a stored ``game`` (its ``probe_many``), from the strategy that stored it."""
    return importlib.import_module(stored_by(record, game).answerer)


def check_choice(choice: str) -> None:
    """Refuse a ``--strategy`` that names no strategy."""
    if choice not in CHOICES:
        raise InputError(f"--strategy must be one of {', '.join(CHOICES)}, got {choice!r}")


def candidates(game: Game, choice: str, *, new: bool = True) -> list[Strategy]:
    """The strategies ``game`` is solved with under ``--strategy choice``, in order (one that gives way passes
    the game on to the next); refuses a choice that cannot take the game. ``new`` False: for a stored game."""
    check_choice(choice)
    chosen = next((s for s in STRATEGIES.values() if s.choice == choice), None)
    if chosen is not None and not chosen.accepts(game):
        missing = [need.capability for need in chosen.needs if need.required and not getattr(game.capabilities, need.capability)]
        why = f"the {game.family} family declares no {', '.join(missing)}" if missing else "it takes no impartial game"
        raise InputError(f"the {chosen.name} strategy cannot solve this game ({why})")
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
    """The strategies to try, in order; a :class:`~gamedb.solvers.protocol.TooLarge` from one moves on to the next.

    A new game (``record`` None): :func:`candidates`. An unfinished one: the strategy that began it
    (``record.strategy``), which resumes it, after one that may take it over because nothing of it is
    written yet; ``--strategy`` must name one of them (or be ``auto``).
    """
    found = candidates(game, choice, new=record is None)
    if record is None or found[0].exclusive:
        return found
    begun = stored_by(record)
    taking = [s for s in found if s is not begun and s.gives_way and s.takes_over and hook(s.takes_over)(db, record)]
    if begun in found or choice == AUTO:
        return [*taking, begun]
    if taking:
        return taking
    raise InputError(
        f"an unfinished solve of this game by the {begun.name} strategy is stored; "
        f"use --strategy {begun.choice or AUTO} (or {AUTO}), or --force"
    )


def memory_need(game: Game, name: str, choice: str) -> tuple[int, str, str] | None:
    """(bytes, what needs them, advice) of the strategy that solves a new ``game`` and cannot give way, or None."""
    found = candidates(game, choice)
    strategy = found[0]
    if strategy.memory_need is None or (strategy.gives_way and len(found) > 1):
        return None
    need: tuple[int, str, str] | None = hook(strategy.memory_need)(game, name)
    return need


def announcement(game: Game, choice: str, limit: int) -> str | None:
    """What the command line says before ``game`` is solved under ``--strategy choice`` (the memory it needs)."""
    strategy = candidates(game, choice)[0]
    return None if strategy.announce is None else hook(strategy.announce)(game, limit)


def summary(reader: Reader, record: GameRecord) -> dict[str, Any]:
    """What ``gamedb stats`` adds for ``record`` from the strategy that stored it."""
    strategy = stored_by(record)
    return {} if strategy.summary is None else hook(strategy.summary)(reader, record)


def new_file_solver(game: Game) -> tuple[str, Any] | None:
    """(strategy, function) that solves ``game`` straight into a new SQLite file's sink (see :mod:`.new_file`), or
    None: the strategy ``--strategy auto`` tries first, when it has one and the game fits it."""
    strategy = candidates(game, AUTO)[0]
    if strategy.new_file is None:
        return None
    fits, solve = strategy.new_file
    return (strategy.name, hook(solve)) if hook(fits)(game) else None


# --- the optional capabilities, handed to the solvers that use them ----------------------------


def array_rules(game: Game) -> TierArrayRules | None:
    """The game's rules on numpy arrays with tiers, or None when it declares none."""
    return game.array_rules() if game.capabilities.array_rules else None


def vector_rules(game: Game) -> VectorRules | None:
    """The game's rules on numpy arrays, or None when it declares none."""
    return game.vector() if game.capabilities.vector_rules else None


def move_lists(game: Game) -> TokenMoves | None:
    """The game's two-token move lists, or None for a game stored with move rows."""
    if not game.capabilities.token_moves:
        return None
    if game.impartial:
        raise GamedbError(f"{game.family}: an impartial game cannot keep move lists (its Grundy values are computed from move rows)")
    return game.token_moves()
