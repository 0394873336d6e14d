"""One stored game as a value: a row of the ``game`` table."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from ..errors import GamedbError
from ..safe_text import shown
from .damage import DamagedGame, checked_game_row, damaged, readable
from .status import DAMAGED, SOLVED

if TYPE_CHECKING:
    from ..games.base import Game


@dataclass
class GameRecord:
    """One row of the ``game`` table."""

    id: int
    name: str
    family: str
    parameters: dict[str, Any]
    rules_version: int
    impartial: bool
    status: str
    start_code: int
    start_position: str
    positions: int | None
    moves: int | None
    created_at: str
    solved_at: str | None
    enumerate_seconds: float | None
    solve_seconds: float | None
    gamedb_version: str
    info: dict[str, Any] | None
    progress: dict[str, Any] | None
    #: the solving strategy that stored it (:data:`gamedb.solvers.choice.STRATEGIES`)
    strategy: str
    #: what is wrong with a damaged row (then only ``id``, ``name`` and ``family`` mean anything;
    #: only :func:`record_or_damaged` makes such records, for listing)
    problem: str | None = None

    @property
    def symmetry(self) -> int:
        """The size of the symmetry group its rows are canonical under (1: every reachable position is stored)."""
        group: int = ((self.info or {}).get("symmetry") or {}).get("group", 1)
        return group

    @property
    def reachable(self) -> int | None:
        """The positions reachable from the start: the stored ones, or with symmetry the count the solve noted."""
        if self.symmetry == 1:
            return self.positions
        count: int | None = (self.info or {})["symmetry"].get("reachable")
        return count

    @property
    def solved(self) -> bool:
        return self.status == SOLVED

    def rules(self, game_classes: Collection[str] = ()) -> Game:
        """The game's rules, rebuilt from the stored parameters."""
        from ..errors import FamilyLoadError, StoredCodeRefused, UnknownFamily, marked_text

        try:
            cls = self._family(game_classes)
        except (StoredCodeRefused, UnknownFamily, FamilyLoadError) as exc:
            raise type(exc)(f"game {shown(self.name)}: {marked_text(exc)}") from None
        return self._from_parameters(cls)

    def rules_or_reason(self, game_classes: Collection[str] = ()) -> tuple[Game | None, str | None]:
        """(rules, None), or (None, why not) when the family is not available here: the reason with its parameter marks
        (:func:`~gamedb.errors.said_as`), so the advice names what to pass in the caller's words (``game_classes=`` in
        Python, ``--game`` on the command line) wherever it is said."""
        from ..errors import FamilyLoadError, StoredCodeRefused, UnknownFamily, marked_text

        try:
            cls = self._family(game_classes)
        except (StoredCodeRefused, UnknownFamily, FamilyLoadError) as exc:
            return None, marked_text(exc)
        return self._from_parameters(cls), None

    def _family(self, game_classes: Collection[str]) -> type[Game]:
        from ..games import stored_family

        if self.problem is not None:
            raise DamagedGame(self.problem)
        return stored_family(self.family, game_classes)

    def _from_parameters(self, cls: type[Game]) -> Game:
        from ..games.json_option import stored_parameters

        try:
            with stored_parameters():  # data from the file: never a path to open
                return cls.from_parameters(self.parameters)
        except Exception as exc:  # the family's own check of parameters that came from a file, whatever it raises
            raise damaged(self.name, f"its parameters do not make a {shown(self.family)} game: {exc}") from None

    def list_json(self) -> dict[str, Any]:
        """What ``gamedb list --json`` shows of the game (and ``gamedb serve``'s games list)."""
        return {
            "name": self.name,
            "family": self.family,
            "status": self.status,
            "positions": self.positions,
            "moves": self.moves,
            "start": self.start_position,
            "solved_at": self.solved_at,
            **({"problem": self.problem} if self.problem is not None else {}),
        }

    def require_solved(self) -> None:
        if not self.solved:
            raise GamedbError(
                f"game {self.name!r} is not fully solved (status: {self.status}); "
                "run the same `gamedb solve` command again to finish it"
            )


#: the columns of the ``game`` table (every field but ``problem``)
_STORED = tuple(f.name for f in fields(GameRecord) if f.name != "problem")


def record_from_mapping(data: Mapping[Any, Any]) -> GameRecord:
    """A checked :class:`GameRecord` from a game row as a mapping; raises :class:`~gamedb.store.damage.DamagedGame`."""
    values = checked_game_row({key: data.get(key) for key in _STORED})
    return GameRecord(**values)


def record_or_damaged(data: Mapping[Any, Any]) -> GameRecord:
    """The record of a game row, or for a damaged row a record that says what is wrong (for listing)."""
    try:
        return record_from_mapping(data)
    except DamagedGame as exc:
        name, family = data.get("name"), data.get("family")
        return GameRecord(
            id=data.get("id"),  # type: ignore[arg-type]  # whatever the file holds; only shown
            name=readable(name) if isinstance(name, str) else str(name),  # shown, never looked up
            family=family if isinstance(family, str) else str(family),
            parameters={}, rules_version=0, impartial=False, status=DAMAGED, start_code=0, start_position="",
            positions=None, moves=None, created_at="", solved_at=None, enumerate_seconds=None, solve_seconds=None,
            gamedb_version="", info=None, progress=None, strategy="", problem=str(exc),
        )
