"""The one place that picks a solving strategy for a game, from its declared capabilities.

Every strategy is a row of :data:`STRATEGIES`: the solver class that
implements :class:`~gamedb.solvers.protocol.Solver`, the capabilities of
:class:`~gamedb.games.base.Capabilities` it requires, the optional ones it
uses and what happens without them. The game's class declares what it
provides; nothing here or anywhere else asks a game object what it is.
:func:`plan` picks the solvers for a solve (with ``--engine``),
:func:`stored_by` the one whose verifier and answerer read a stored game,
and :func:`vector_rules` / :func:`move_lists` hand the optional
capabilities to the solvers that use them.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING

from ..errors import GamedbError, InputError
from ..games.base import Game, TokenMoves
from ..store.status import ENUMERATING

if TYPE_CHECKING:  # this module is imported by the light read path of `gamedb query`: no SQLAlchemy at import
    import sqlalchemy as sa

    from ..games.tier_rules import TierArrayRules
    from ..games.vector import VectorRules
    from ..store.record import GameRecord
    from .protocol import Solver

#: values of ``--engine``: ``auto`` picks (tiers for a family that declares them, else by size),
#: ``tiers`` the tier solver, ``sql`` and ``memory`` a graph solver
ENGINES = ("auto", "tiers", "sql", "memory")


@dataclass(frozen=True)
class Need:
    """A capability a strategy uses: required, or optional with what happens without it."""

    capability: str
    required: bool
    without: str = "refused"


@dataclass(frozen=True)
class Strategy:
    name: str
    #: ``module:Class`` of the :class:`~gamedb.solvers.protocol.Solver`, imported on first use (numpy stays unloaded)
    solver: str
    needs: tuple[Need, ...] = ()
    #: False: refuses impartial games (they need Grundy values this strategy does not compute)
    impartial: bool = True
    #: the module whose ``probe_many(reader, record, game, positions, boards=...)`` answers from its tables
    #: (no SQLAlchemy in it: the light read path of ``gamedb query`` uses it too)
    answerer: str = "gamedb.solvers.graph_answer"

    def accepts(self, game: Game) -> bool:
        declared = game.capabilities
        return all(getattr(declared, need.capability) for need in self.needs if need.required) and (self.impartial or not game.impartial)

    def load(self) -> Solver:
        module, _, cls = self.solver.partition(":")
        solver: Solver = getattr(importlib.import_module(module), cls)()
        return solver


#: what a solver does when a game offers no array rules of either kind
ONE_BY_ONE = "positions are expanded one by one in Python (Game.expand)"

STRATEGIES: dict[str, Strategy] = {
    "heaps": Strategy(
        "heaps",
        "gamedb.solvers.heaps.strategy:HeapSolver",
        needs=(Need("heap_rules", required=True),),
        answerer="gamedb.solvers.heaps.sums",
    ),
    "tiers": Strategy(
        "tiers",
        "gamedb.solvers.tiers:TierSolver",
        needs=(
            Need("tiers", required=True),
            Need("array_rules", required=False, without=ONE_BY_ONE),
        ),
        impartial=False,
    ),
    "graph-memory": Strategy(
        "graph-memory",
        "gamedb.solvers.graph_memory:GraphMemory",
        needs=(
            Need("vector_rules", required=False, without=ONE_BY_ONE),
            Need("token_moves", required=False, without="one move row is written per move"),
        ),
        impartial=False,
    ),
    "graph-sql": Strategy(
        "graph-sql",
        "gamedb.solvers.graph_sql:GraphSql",
        needs=(
            Need("vector_rules", required=False, without=ONE_BY_ONE),
            Need("token_moves", required=False, without="one move row is written per move and the levels join through move(child)"),
        ),
    ),
}


def stored_by(game: Game) -> Solver:
    """The strategy whose tables hold ``game`` once solved: its verifier and answerer read them.

    Both graph strategies write the same tables, so the SQL one answers for both.
    """
    return STRATEGIES["heaps" if STRATEGIES["heaps"].accepts(game) else "graph-sql"].load()


def answered_by(game: Game) -> ModuleType:
    """The module that answers queries on a stored ``game`` (its ``probe_many``), from the strategy that stored it."""
    return importlib.import_module(STRATEGIES["heaps" if STRATEGIES["heaps"].accepts(game) else "graph-sql"].answerer)


def refuse_early(game: Game, engine: str) -> None:
    """Refuse an ``--engine`` choice the game cannot take, before anything is read or written."""
    if engine not in ENGINES:
        raise InputError(f"--engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    if engine == "memory" and not STRATEGIES["graph-memory"].accepts(game):
        raise InputError("the in-memory engine cannot solve this game (impartial games get Grundy values from the SQL engine)")


def plan(db: sa.Engine, record: GameRecord | None, game: Game, engine: str) -> list[Solver]:
    """The solvers to try, in order; a :class:`~gamedb.solvers.protocol.TooLarge` from one moves on to the next.

    Heap games: the heap solver. Others: in memory first when ``--engine``
    is ``memory``, or ``auto`` on a game not begun in SQL (``record`` None:
    a new game); then in SQL (not after an explicit ``memory``).
    """
    if STRATEGIES["heaps"].accepts(game):
        return [STRATEGIES["heaps"].load()]
    if by_tiers(record, game, engine):
        return [STRATEGIES["tiers"].load()]
    solvers = []
    if memory_first(db, record, game, engine):
        solvers.append(STRATEGIES["graph-memory"].load())
    if engine != "memory":
        solvers.append(STRATEGIES["graph-sql"].load())
    return solvers


def by_tiers(record: GameRecord | None, game: Game, engine: str) -> bool:
    """Whether the tier solver solves (or resumes) the game: ``--engine tiers``, or ``auto`` for a
    family that declares tiers (a new game, or one whose unfinished solve is the tier solver's)."""
    begun = None if record is None else (record.progress or {}).get("engine")
    tiered = STRATEGIES["tiers"].accepts(game)
    if engine == "tiers":
        if not tiered:
            raise InputError(f"the tier solver cannot solve this game (the {game.family} family declares no tiers)")
        if record is not None and begun != "tiers":
            raise InputError("an unfinished solve of this game by another engine is stored; use --engine auto or --force")
        return True
    if begun == "tiers":
        if engine != "auto":
            raise InputError("an unfinished tier solve of this game is stored; use --engine tiers (or auto), or --force")
        return True
    return engine == "auto" and tiered and record is None


def array_rules(game: Game) -> TierArrayRules | None:
    """The game's rules on numpy arrays with tiers, or None when it declares none."""
    return game.array_rules() if game.capabilities.array_rules else None


def memory_first(db: sa.Engine, record: GameRecord | None, game: Game, engine: str) -> bool:
    """Whether to try the in-memory solver: asked for, or ``auto`` on a game not begun in SQL.

    :func:`refuse_early` has already refused ``memory`` for a game the in-memory solver does not accept."""
    accepted = STRATEGIES["graph-memory"].accepts(game)
    if record is None:
        return engine != "sql" and accepted
    if engine == "sql" or not accepted or record.status != ENUMERATING:
        if engine == "memory":
            raise InputError("the in-memory engine cannot solve this game (an unfinished SQL solve of it is stored; use --engine sql or --force)")
        return False
    import sqlalchemy as sa

    with db.connect() as conn:
        begun = conn.execute(sa.text("SELECT 1 FROM solve_queue WHERE game_id = :g LIMIT 1"), {"g": record.id}).first()
    if begun and engine == "memory":
        raise InputError("the in-memory engine cannot resume an unfinished SQL solve; use --engine sql or --force")
    return not begun


# --- the optional capabilities, handed to the solvers that use them ----------------------------


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
