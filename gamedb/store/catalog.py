"""The ``game`` table: creating, finding, listing and deleting stored games."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Collection

import sqlalchemy as sa

from .. import __version__
from ..errors import GameExists, GameNotFound, GamedbError, StoredCodeRefused, UnknownFamily
from ..safe_text import shown
from ..games import stored_family
from ..games.base import Game
from .damage import DamagedGame, checked_game_row, damaged
from .schema import ENUMERATING, SOLVED, game as game_table, metadata, player as player_table

#: the status a damaged game is listed with
DAMAGED = "damaged"


@dataclass
class GameRecord:
    """One row of the ``game`` table."""

    id: int
    name: str
    family: str
    parameters: dict
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
    info: dict | None
    progress: dict | None
    #: what is wrong with a damaged row (then only ``id``, ``name`` and ``family`` mean anything;
    #: only :func:`all_games` and ``find(..., damaged=True)`` hand out such records)
    problem: str | None = None

    @property
    def solved(self) -> bool:
        return self.status == SOLVED

    def rules(self, game_classes: Collection[str] = ()) -> Game:
        """The game's rules, rebuilt from the stored parameters.

        Only a built-in family or an installed plugin loads on the file's word;
        a ``module:Class`` family loads only if named in ``game_classes`` (the
        user's ``--game``), see :func:`gamedb.games.stored_family`.
        """
        if self.problem is not None:
            raise DamagedGame(self.problem)
        try:
            cls = stored_family(self.family, game_classes)
        except (StoredCodeRefused, UnknownFamily) as exc:
            raise type(exc)(f"game {shown(self.name)}: {exc}") from None
        try:
            return cls.from_parameters(self.parameters)
        except Exception as exc:  # the family's own check of parameters that came from a file, whatever it raises
            raise damaged(self.name, f"its parameters do not make a {shown(self.family)} game: {exc}") from None

    def require_solved(self) -> None:
        if not self.solved:
            raise GamedbError(
                f"game {self.name!r} is not fully solved (status: {self.status}); "
                "run the same `gamedb solve` command again to finish it"
            )


#: the game rows as stored (no type conversion by SQLAlchemy: a damaged JSON column must reach
#: :func:`~gamedb.store.damage.checked_game_row`, not fail while the row is fetched)
_GAME_ROWS = "SELECT " + ", ".join(c.name for c in game_table.columns) + " FROM game"
_GAME_BY_NAME = sa.text(_GAME_ROWS + " WHERE name = :n")
_ALL_GAMES = sa.text(_GAME_ROWS + " ORDER BY name")


def record_from_row(row) -> GameRecord:
    """A game row as read by :data:`_GAME_ROWS` (or a dict of it), checked; raises :class:`DamagedGame`."""
    data = dict(row._mapping) if hasattr(row, "_mapping") else dict(row)
    return GameRecord(**checked_game_row(data))


def _record_or_damaged(row) -> GameRecord:
    """The record of a row, or for a damaged row a record that says what is wrong (for listing)."""
    try:
        return record_from_row(row)
    except DamagedGame as exc:
        data = dict(row._mapping)
        name, family = data.get("name"), data.get("family")
        return GameRecord(
            id=data.get("id"), name=name if isinstance(name, str) else str(name),
            family=family if isinstance(family, str) else str(family), parameters={}, rules_version=0,
            impartial=False, status=DAMAGED, start_code=0, start_position="", positions=None, moves=None,
            created_at="", solved_at=None, enumerate_seconds=None, solve_seconds=None, gamedb_version="",
            info=None, progress=None, problem=str(exc),
        )


def find(conn, name: str, *, damaged: bool = False) -> GameRecord | None:
    """The game of that name, or None; a damaged row raises :class:`DamagedGame` unless ``damaged``."""
    row = conn.execute(_GAME_BY_NAME, {"n": name}).first()
    if row is None:
        return None
    return _record_or_damaged(row) if damaged else record_from_row(row)


def get(conn, name: str) -> GameRecord:
    record = find(conn, name)
    if record is None:
        names = [r.name for r in all_games(conn)]
        hint = f" (stored: {', '.join(names)})" if names else " (the database holds no games yet)"
        raise GameNotFound(f"no game named {name!r} in this database{hint}")
    return record


def all_games(conn) -> list[GameRecord]:
    """Every stored game by name; a damaged one as a record with its ``problem`` (status ``damaged``)."""
    return [_record_or_damaged(row) for row in conn.execute(_ALL_GAMES)]


def family_key(game: Game) -> str:
    """What the ``family`` column stores: the family's name when that name finds
    this class again (built-in or installed plugin), else ``module:Class``."""
    from ..errors import UnknownFamily
    from ..games import family

    try:
        if family(game.family) is type(game):
            return game.family
    except UnknownFamily:
        pass
    return f"{type(game).__module__}:{type(game).__qualname__}"


def same_game(record: GameRecord, game: Game) -> bool:
    return (
        record.family == family_key(game)
        and record.rules_version == game.rules_version
        and json.dumps(record.parameters, sort_keys=True) == json.dumps(game.parameters(), sort_keys=True)
    )


def create(conn, name: str, game: Game) -> GameRecord:
    if find(conn, name) is not None:
        raise GameExists(f"a game named {name!r} already exists")
    start = game.start()
    conn.execute(
        game_table.insert().values(
            name=name,
            family=family_key(game),
            parameters=game.parameters(),
            rules_version=game.rules_version,
            impartial=game.impartial,
            status=ENUMERATING,
            start_code=game.encode(start),
            start_position=game.format(start),
            created_at=now(),
            gamedb_version=__version__,
        )
    )
    record = get(conn, name)
    conn.execute(player_table.insert(), [{"game_id": record.id, "idx": i, "name": n} for i, n in enumerate(game.players)])
    return record


def delete(conn, record: GameRecord) -> None:
    """Delete the game's rows from every table that has them (dependent tables first), then the game."""
    for table in reversed(metadata.sorted_tables):
        if table is not game_table and "game_id" in table.c:
            conn.execute(table.delete().where(table.c.game_id == record.id))
    conn.execute(game_table.delete().where(game_table.c.id == record.id))


def update(conn, record: GameRecord, **values) -> None:
    conn.execute(game_table.update().where(game_table.c.id == record.id).values(**values))


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


# --- a solve's resume marker (game.progress), committed with each level's work -------------

_SAVE_PROGRESS = sa.text("UPDATE game SET progress = :p WHERE id = :g")


def load_progress(conn, game_id: int) -> dict:
    """Where an unfinished solve of the game stopped (the engines' own keys), or {}."""
    raw = conn.execute(sa.text("SELECT progress FROM game WHERE id = :g"), {"g": game_id}).scalar()
    if raw is None:
        return {}
    return raw if isinstance(raw, dict) else json.loads(raw)


def save_progress(conn, game_id: int, progress: dict) -> None:
    """Record, inside the caller's transaction, how far the solve has come."""
    conn.execute(_SAVE_PROGRESS, {"p": json.dumps(progress), "g": game_id})

