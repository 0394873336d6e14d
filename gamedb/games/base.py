"""The protocol every game family implements.

A family is a subclass of :class:`Game`. It declares its name, its options
(:class:`Param`), its players, and implements the rules on its own state
values (any hashable). The solvers see only integer codes (:meth:`encode`)
and the text form (:meth:`format`); it knows nothing about any family.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from ..errors import InputError

if TYPE_CHECKING:
    from .tier_rules import TierArrayRules
    from .vector import VectorRules

# A position as a family holds it: any hashable value (a tuple, a named tuple, an
# int). Any, not Hashable, so that each family's methods may name their own type.
State = Any
Move = tuple[str, State]  # (label, child state)


@dataclass(frozen=True)
class Param:
    """One option of a family (``--graph``, ``--max``), as the CLI shows it."""

    name: str
    type: type
    help: str
    default: Any = None
    required: bool = False

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


class Estimate(NamedTuple):
    """Upper bounds on the size of a game, known before enumerating it.

    ``positions`` bounds the reachable positions, ``moves`` the moves out of
    them, and ``tiers`` (a family with tiers, optional) the positions of each
    tier, from which the tier solver's memory is estimated. The solver checks
    them against the free disk space and the memory limit before it writes
    anything, so they should be cheap to compute and not much larger than
    the truth.
    """

    positions: int
    moves: int
    tiers: dict[int, int] | None = None


@dataclass(frozen=True)
class TokenMoves:
    """Every move of a two-token game, as the players' move lists on a board of ``nodes`` nodes.

    The family's codes must be ``(token0 * nodes + token1) * 2 + turn``, the
    player to move (``turn``, 0 or 1) moving its own token; ``rows`` are
    ``(player, node, order, target, label)``: from ``node`` that player's
    move number ``order`` (the family's move order) goes to ``target``.
    Primitive positions have no moves whatever the lists say.
    """

    nodes: int
    rows: list[tuple[int, int, int, int, str]]


@dataclass(frozen=True)
class Capabilities:
    """What a family provides beyond the required rules, declared as data on the class.

    Which solving strategy needs which capability -- required, or optional
    and what happens without it -- is the table
    :data:`gamedb.solvers.choice.STRATEGIES`; the solvers never probe a game
    for a method. In the spirit of OpenSpiel's ``GameType`` and GamesmanOne's
    per-solver function tables.
    """

    #: the game is a sum of heaps with moves given as rules (:class:`gamedb.games.heaps.HeapGame`):
    #: required by the heap solver, which then stores one position per heap size
    heap_rules: bool = False
    #: :meth:`Game.vector` returns the rules on numpy arrays: optional for the graph solvers
    #: (without: one :meth:`Game.expand` per position) and for verify's fast pass (without: the exact pass only)
    vector_rules: bool = False
    #: :meth:`Game.token_moves` returns two-token move lists, stored instead of move rows: optional
    #: for the graph solvers (without: one ``move`` row per move); not allowed for impartial games
    token_moves: bool = False
    #: :meth:`Game.tier` gives every position a tier no move decreases: required by the tier solver
    #: (:mod:`gamedb.solvers.tiers`, the default strategy of such a family)
    tiers: bool = False
    #: :meth:`Game.array_rules` returns the rules on numpy arrays with tiers: optional for the tier
    #: solver (without: one :meth:`Game.expand` per position)
    array_rules: bool = False


class Expanded(NamedTuple):
    """One position as the rules give it (:meth:`Game.expand`)."""

    player: int
    text: str
    #: ``win``/``lose``/``tie`` for the player to move if the game is over, else None
    primitive: str | None
    #: (label, child code) in the family's move order
    moves: list[tuple[str, int]]


@dataclass(frozen=True)
class Examples:
    """What a family shows the generic tests (tests/registry.py runs every suite on every family's examples).

    ``options``: small options (the game solves in well under a second);
    ``positions``: position texts worth asking about beyond the start and
    its moves; ``bad_positions``: texts a user will mistype, each with a
    phrase of the one-line error ``gamedb query`` must give (exit 2);
    ``command_line``: the options of the example in ``gamedb solve FAMILY
    --help``, as a user types them (needed when the family has required
    options; a test runs every help's example as written).
    """

    options: Mapping[str, Any] = field(default_factory=dict)
    positions: Sequence[str] = ()
    bad_positions: Sequence[tuple[str, str]] = ()
    command_line: str = ""


class Game(ABC):
    """Rules of one game, with fixed parameters.

    Subclasses set the class attributes and implement the abstract methods.
    ``moves`` must return the legal moves in a fixed order with unique
    labels; a position with a primitive value has no moves.

    One object may answer several threads at once (a shared
    :class:`~gamedb.api.Database`, ``gamedb serve``): ``parse``, ``format``,
    ``encode``, ``decode`` and ``moves`` must not change shared state, or
    only in ways that are safe when threads interleave (a cache that is
    replaced, never iterated while another thread may add to it).
    """

    #: family name used on the command line (``cat-mouse``)
    family: ClassVar[str]
    #: one line for ``gamedb games``
    summary: ClassVar[str] = ""
    #: how positions are written, for ``gamedb games`` and error messages
    position_syntax: ClassVar[str] = ""
    #: the family's options
    params: ClassVar[Sequence[Param]] = ()
    #: impartial games get Sprague-Grundy values
    impartial: ClassVar[bool] = False
    #: bump when the rules or encodings of the family change
    rules_version: ClassVar[int] = 1
    #: what the family provides beyond the required rules (see :class:`Capabilities`)
    capabilities: ClassVar[Capabilities] = Capabilities()
    #: small options and positions the generic tests run the family on (see :class:`Examples`)
    examples: ClassVar[Examples] = Examples()

    players: tuple[str, str] = ("first", "second")

    # --- construction -------------------------------------------------
    @classmethod
    def from_options(cls, **options: Any) -> Game:
        """Build from command-line options; raise :class:`InputError` if invalid."""
        return cls(**options)

    @classmethod
    def from_parameters(cls, parameters: dict[str, Any]) -> Game:
        """Rebuild from the JSON stored in the ``game`` table."""
        return cls(**parameters)

    def parameters(self) -> dict[str, Any]:
        """Canonical, JSON-serialisable parameters (stored with the game)."""
        return {}

    def default_name(self) -> str:
        """Name a solved game gets when the user gives none."""
        return self.family

    # --- rules ----------------------------------------------------------
    @abstractmethod
    def start(self) -> State:
        """The start position."""

    def play_start(self) -> State:
        """Where ``gamedb play`` starts when no position is given: :meth:`start` unless the family says otherwise."""
        return self.start()

    def starts(self) -> Iterable[State]:
        """Every position enumeration starts from: :meth:`start`, and for a
        family that solves a whole range of starts (stone-ix: every stone
        count up to --max) the others too. Queries default to :meth:`start`."""
        return [self.start()]

    @abstractmethod
    def moves(self, state: State) -> list[Move]:
        """Legal moves as (label, child) in a fixed order."""

    @abstractmethod
    def primitive(self, state: State) -> str | None:
        """``win``/``lose``/``tie`` for the player to move if the game is over, else None."""

    @abstractmethod
    def to_move(self, state: State) -> int:
        """Index (0 or 1) of the player to move."""

    # --- codecs -----------------------------------------------------------
    @abstractmethod
    def encode(self, state: State) -> int:
        """A non-negative integer below 2**63, unique per position."""

    @abstractmethod
    def decode(self, code: int) -> State:
        """Inverse of :meth:`encode`."""

    @abstractmethod
    def format(self, state: State) -> str:
        """The position's text form (unique per position)."""

    @abstractmethod
    def parse(self, text: str) -> State:
        """Inverse of :meth:`format`; raise :class:`~gamedb.errors.PositionError`."""

    def describe(self, state: State) -> str | None:
        """Optional extra picture of the position (a board) for ``query``."""
        return None

    def parse_move(self, state: State, text: str) -> str | None:
        """Map what a user typed to a move label (default: the label itself)."""
        text = text.strip()
        labels = [label for label, _ in self.moves(state)]
        return text if text in labels else None

    # --- size ------------------------------------------------------------
    def estimate(self) -> Estimate | None:
        """Upper bounds on the positions and moves reachable from :meth:`starts`, or None if unknown.

        Cheap (no enumeration); the solver refuses a game whose bounds cannot
        fit the disk or the memory limit before writing anything.
        """
        return None

    # --- helpers for the solvers -------------------------------------------
    def move_codes(self, state: State) -> list[tuple[str, int]]:
        """The legal moves as (label, child code): :meth:`moves` with each child encoded, as the stored
        rows are looked up (``gamedb query``). A family may compute the codes without building each child."""
        encode = self.encode
        return [(label, encode(child)) for label, child in self.moves(state)]

    def expand(self, code: int) -> Expanded:
        """Player, text, primitive value and moves (label, child code) of one position."""
        state = self.decode(code)
        prim = self.primitive(state)
        moves = [] if prim is not None else self.move_codes(state)
        return Expanded(self.to_move(state), self.format(state), prim, moves)

    def vector(self) -> VectorRules:
        """The rules on numpy arrays: implement with ``capabilities.vector_rules`` set.

        A family whose moves are simple arithmetic on codes offers this fast
        path to the solvers (see :class:`Capabilities`).
        """
        raise NotImplementedError(f"{self.family} declares no vector rules")

    def tier(self, state: State) -> int | None:
        """The position's tier for the tier solver: implement with ``capabilities.tiers`` set.

        No move may go to a smaller tier; see :mod:`gamedb.games.tier_rules`.
        """
        return None

    def array_rules(self) -> TierArrayRules | None:
        """The rules on numpy arrays with tiers (:class:`~gamedb.games.tier_rules.TierArrayRules`):
        implement with ``capabilities.array_rules`` set."""
        return None

    def player_name(self, index: int) -> str:
        return self.players[index]

    def token_moves(self) -> TokenMoves:
        """The moves as two-token move lists (see :class:`TokenMoves`): implement with ``capabilities.token_moves`` set."""
        raise NotImplementedError(f"{self.family} declares no move lists")

    def verdict(self, result: str, remoteness: int | None, player: int | str) -> dict[str, Any]:
        """The family's own reading of a stored value, added to ``query``'s answer (default: none).

        ``cat-mouse-grid`` adds LeetCode 1728's turn-limited answer here.
        """
        return {}

    def winner(self, player: int, result: str, remoteness: int | None) -> str | None:
        """Who wins from a position whose stored value is ``result`` for ``player`` (None: tie or draw).

        A reading of the value under extra rules (the turn limit of
        ``cat-mouse-grid``) goes in :meth:`verdict`, not here.
        """
        if result == "win":
            return self.player_name(player)
        if result == "lose":
            return self.player_name(1 - player)
        return None

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.parameters().items())
        return f"{type(self).__name__}({args})"


def require_int(name: str, value: Any, low: int | None = None, high: int | None = None) -> int:
    """Validate an integer option, with a message naming it."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise InputError(f"--{name} must be a whole number, got {value!r}") from None
    if low is not None and number < low:
        raise InputError(f"--{name} must be at least {low}, got {number}")
    if high is not None and number > high:
        raise InputError(f"--{name} must be at most {high}, got {number}")
    return number


def short_number(digits: str) -> str:
    """A long number as it fits in a message: its first digits and how many there are."""
    return digits if len(digits) <= 20 else f"{digits[:12]}... ({len(digits)} digits)"


def bounded_int(digits: str, limit: int) -> int | None:
    """The value of the decimal ``digits``, or None when it is above ``limit``.

    Lengths are compared before ``int()``, which refuses texts of thousands
    of digits (``sys.get_int_max_str_digits``); leading zeros do not count.
    """
    digits = digits.lstrip("0") or "0"  # int() counts leading zeros too
    if len(digits) > len(str(limit)):
        return None
    value = int(digits)
    return value if value <= limit else None
