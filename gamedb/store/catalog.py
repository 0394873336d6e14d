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
from ..games import game_from_parameters
from ..games.base import Game
from .schema import ENUMERATING, SOLVED, game as game_table, metadata, player as player_table


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

    @property
    def solved(self) -> bool:
        return self.status == SOLVED

    def rules(self, game_classes: Collection[str] = ()) -> Game:
        """The game's rules, rebuilt from the stored parameters.

        Only a built-in family or an installed plugin loads on the file's word;
        a ``module:Class`` family loads only if named in ``game_classes`` (the
        user's ``--game``), see :func:`gamedb.games.stored_family`.
        """
        try:
            return game_from_parameters(self.family, self.parameters, game_classes)
        except (StoredCodeRefused, UnknownFamily) as exc:
            raise type(exc)(f"game {shown(self.name)}: {exc}") from None

    def require_solved(self) -> None:
        if not self.solved:
            raise GamedbError(
                f"game {self.name!r} is not fully solved (status: {self.status}); "
                "run the same `gamedb solve` command again to finish it"
            )


def record_from_row(row) -> GameRecord:
    """A game row (JSON columns parsed or still text) as a :class:`GameRecord`."""
    data = dict(row._mapping)
    for key in ("parameters", "info", "progress"):
        if isinstance(data.get(key), str):
            data[key] = json.loads(data[key])
    return GameRecord(**data)


def find(conn, name: str) -> GameRecord | None:
    row = conn.execute(sa.select(game_table).where(game_table.c.name == name)).first()
    return record_from_row(row) if row else None


def get(conn, name: str) -> GameRecord:
    record = find(conn, name)
    if record is None:
        names = [r.name for r in all_games(conn)]
        hint = f" (stored: {', '.join(names)})" if names else " (the database holds no games yet)"
        raise GameNotFound(f"no game named {name!r} in this database{hint}")
    return record


def all_games(conn) -> list[GameRecord]:
    return [record_from_row(row) for row in conn.execute(sa.select(game_table).order_by(game_table.c.name))]


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

