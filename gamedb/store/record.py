"""One stored game as a value: a row of the ``game`` table.

Kept free of SQLAlchemy so that the light read path (:mod:`gamedb.cli.quick`)
builds the same record from a plain ``sqlite3`` row as the full path does
from a SQLAlchemy one.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from ..errors import GamedbError

if TYPE_CHECKING:
    from ..games.base import Game

#: status of a game row (the same strings as :mod:`.schema`, which takes them from here)
SOLVED = "solved"
ENUMERATING = "enumerating"


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

    @property
    def solved(self) -> bool:
        return self.status == SOLVED

    def rules(self) -> Game:
        """The game's rules, rebuilt from the stored parameters.

        Raises :class:`~gamedb.errors.UnknownFamily` or
        :class:`~gamedb.errors.FamilyLoadError` when the family that made the
        game is not available here (a plugin that is not installed).
        """
        from ..games import game_from_parameters

        return game_from_parameters(self.family, self.parameters)

    def rules_or_reason(self) -> tuple[Game | None, str | None]:
        """(rules, None), or (None, why not) when the family is not available here.

        A game solved with a plugin can be handed to someone who does not
        have it: its stored rows still answer (:func:`gamedb.query.probe_without_rules`).
        """
        from ..errors import FamilyLoadError, UnknownFamily

        try:
            return self.rules(), None
        except (UnknownFamily, FamilyLoadError) as exc:
            return None, str(exc)

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
        }

    def require_solved(self) -> None:
        if not self.solved:
            raise GamedbError(
                f"game {self.name!r} is not fully solved (status: {self.status}); "
                "run the same `gamedb solve` command again to finish it"
            )


_FIELDS = tuple(f.name for f in fields(GameRecord))


def record_from_mapping(data: Mapping[Any, Any]) -> GameRecord:
    """A :class:`GameRecord` from a game row as a mapping, JSON columns parsed or still text.

    SQLAlchemy hands JSON columns over parsed and booleans as ``bool``; plain
    ``sqlite3`` gives text and 0/1. Both end as the same record.
    """
    values = {key: data[key] for key in _FIELDS}
    for key in ("parameters", "info", "progress"):
        if isinstance(values[key], str):
            values[key] = json.loads(values[key])
    values["impartial"] = bool(values["impartial"])
    return GameRecord(**values)
