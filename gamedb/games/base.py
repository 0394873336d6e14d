"""The protocol every game family implements: a subclass of :class:`Game`, its rules on its own state values."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from ..errors import InputError, param

if TYPE_CHECKING:
    from .tier_rules import TierArrayRules
    from .vector import VectorRules

State = Any  # any hashable value; Any, so that each family's methods may name their own type
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
    """Cheap upper bounds on the reachable positions, their moves and (optional) the positions of each tier."""

    positions: int
    moves: int
    tiers: dict[int, int] | None = None
    classes: tuple[int, int] | None = None  # (positions, moves) with one position per class (:meth:`Game.canonical`)


@dataclass(frozen=True)
class TokenMoves:
    """A two-token game's moves (codes ``(token0 * nodes + token1) * 2 + turn``) as rows ``(player, node, order, target,
    label)``; primitive positions have no moves whatever they say."""

    nodes: int
    rows: list[tuple[int, int, int, int, str]]


@dataclass(frozen=True)
class Capabilities:
    """What a family provides beyond the required rules; which strategy needs which: :data:`gamedb.solvers.choice.STRATEGIES`."""

    heap_rules: bool = False  # a sum of heaps with moves given as rules (:class:`gamedb.games.heaps.HeapGame`)
    vector_rules: bool = False  # :meth:`Game.vector`: the rules on numpy arrays
    token_moves: bool = False  # :meth:`Game.token_moves`: two-token move lists (not for impartial games)
    tiers: bool = False  # :meth:`Game.tier`: a tier no move decreases
    array_rules: bool = False  # :meth:`Game.array_rules`: the rules on numpy arrays with tiers


class Expanded(NamedTuple):
    """One position as the rules give it (:meth:`Game.expand`)."""

    player: int
    text: str
    primitive: str | None
    moves: list[tuple[str, int]]  # (label, child code) in move order


@dataclass(frozen=True)
class Examples:
    """What a family shows the generic tests (tests/registry.py): ``options`` that solve in well under a second, texts a
    user mistypes with a phrase of their error, its help example's options (needed with required options)."""

    options: Mapping[str, Any] = field(default_factory=dict)
    positions: Sequence[str] = ()
    bad_positions: Sequence[tuple[str, str]] = ()
    command_line: str = ""


class Game(ABC):
    """Rules of one game with fixed parameters: legal moves in a fixed order with unique labels, none when primitive.

    Threads may share one object (``gamedb serve``): ``parse``, ``format``, ``encode``, ``decode`` and ``moves`` change
    no shared state, or only safely (a cache replaced, never iterated while another thread adds)."""

    family: ClassVar[str]  # the name on the command line (``cat-mouse``)
    summary: ClassVar[str] = ""  # one line for ``gamedb games``
    position_syntax: ClassVar[str] = ""  # how positions are written, for ``gamedb games`` and error messages
    params: ClassVar[Sequence[Param]] = ()
    impartial: ClassVar[bool] = False  # impartial games get Sprague-Grundy values
    rules_version: ClassVar[int] = 1  # bump when the rules or encodings change
    capabilities: ClassVar[Capabilities] = Capabilities()
    examples: ClassVar[Examples] = Examples()
    players: tuple[str, str] = ("first", "second")
    #: the size of the group of symmetries :meth:`canonical` maps through (1: none); each preserves every value
    symmetries: ClassVar[int] = 1

    @classmethod
    def from_options(cls, **options: Any) -> Game:
        """Build from command-line options; raise :class:`InputError` if invalid (an option it does not take, too)."""
        try:
            return cls(**options)
        except TypeError:  # (checked only then: a solve's start pays nothing)
            check_option_names(cls, options)
            raise

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

    @abstractmethod
    def start(self) -> State:
        """The start position."""

    def play_start(self) -> State:
        """Where ``gamedb play`` starts when no position is given."""
        return self.start()

    def starts(self) -> Iterable[State]:
        """Every position enumeration starts from (stone-ix: every stone count up to --max)."""
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

    def canonical(self, code: int) -> int:
        """The least code of the position's class under the game's symmetries (default: the code itself)."""
        return code

    def describe(self, state: State) -> str | None:
        """Optional extra picture of the position (a board) for ``query``."""
        return None

    def parse_move(self, state: State, text: str) -> str | None:
        """Map what a user typed to a move label (default: the label itself)."""
        text = text.strip()
        return text if text in [label for label, _ in self.moves(state)] else None

    def estimate(self) -> Estimate | None:
        """Upper bounds on what is reachable from :meth:`starts` (None: unknown), checked before anything is written."""
        return None

    def move_codes(self, state: State) -> list[tuple[str, int]]:
        """The legal moves as (label, child code) (a family may compute them without building each child)."""
        encode = self.encode
        return [(label, encode(child)) for label, child in self.moves(state)]

    def expand(self, code: int) -> Expanded:
        """Player, text, primitive value and moves (label, child code) of one position."""
        state = self.decode(code)
        prim = self.primitive(state)
        moves = [] if prim is not None else self.move_codes(state)
        return Expanded(self.to_move(state), self.format(state), prim, moves)

    def vector(self) -> VectorRules:
        """The rules on numpy arrays: implement with ``capabilities.vector_rules`` set."""
        raise NotImplementedError(f"{self.family} declares no vector rules")

    def tier(self, state: State) -> int | None:
        """The position's tier (no move goes to a smaller one): implement with ``capabilities.tiers`` set."""
        return None

    def array_rules(self) -> TierArrayRules | None:
        """The rules on numpy arrays with tiers: implement with ``capabilities.array_rules`` set."""
        return None

    def player_name(self, index: int) -> str:
        return self.players[index]

    def token_moves(self) -> TokenMoves:
        """The moves as two-token move lists: implement with ``capabilities.token_moves`` set."""
        raise NotImplementedError(f"{self.family} declares no move lists")

    def verdict(self, result: str, remoteness: int | None, player: int | str) -> dict[str, Any]:
        """The family's own reading of a stored value, added to ``query``'s answer (cat-mouse-grid's turn limit)."""
        return {}

    def winner(self, player: int, result: str, remoteness: int | None) -> str | None:
        """Who wins from a position whose stored value is ``result`` for ``player`` (None: tie or draw)."""
        return self.player_name(player if result == "win" else 1 - player) if result in ("win", "lose") else None

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.parameters().items())
        return f"{type(self).__name__}({args})"


def check_option_names(cls: type[Game], options: Mapping[str, Any]) -> None:
    """Refuse options the family's constructor does not take, or a required one left out, naming its options (the
    Python API's ``make_game("nim", maxx=3)``: a TypeError of ``Nim.__init__`` before); nothing if they fit it."""
    import inspect

    signature = inspect.signature(cls)
    try:
        signature.bind(**options)
    except TypeError as exc:
        takes = [name for name, p in signature.parameters.items() if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
        said = f"its options: {', '.join(takes)}" if takes else "it takes no options"
        raise InputError(f"the {cls.family} family: {exc} ({said})") from None


def require_int(name: str, value: Any, low: int | None = None, high: int | None = None) -> int:
    """Validate an integer option, with a message naming it (``name`` as Python or the command line spells it)."""
    option = param(name.replace("-", "_"))
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise InputError(f"{option} must be a whole number, got {value!r}") from None
    if low is not None and number < low:
        raise InputError(f"{option} must be at least {low}, got {number}")
    if high is not None and number > high:
        raise InputError(f"{option} must be at most {high}, got {number}")
    return number


def short_number(digits: str) -> str:
    """A long number as it fits in a message: its first digits and how many there are."""
    return digits if len(digits) <= 20 else f"{digits[:12]}... ({len(digits)} digits)"


def bounded_int(digits: str, limit: int) -> int | None:
    """The value of the decimal ``digits``, or None when it is above ``limit``."""
    digits = digits.lstrip("0") or "0"
    if len(digits) > len(str(limit)):  # before int(), which refuses thousands of digits
        return None
    value = int(digits)
    return value if value <= limit else None
