"""The ``game`` table: creating, finding, listing and deleting stored games."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import sqlalchemy as sa

from ..errors import GameExists, marked_text, param
from ..games.base import Game
from .damage import DamagedGame
from .record import GameRecord
from .rows import reader_of
from .schema import game as game_table
from .schema import metadata
from .schema import player as player_table
from .sink import check_name, game_key, new_game_row, player_rows
from .sink import family_key as family_key  # re-exported: callers use catalog.family_key, catalog.now
from .sink import now as now


def same_game(record: GameRecord, game: Game) -> bool:
    return (
        record.family == family_key(game)
        and record.rules_version == game.rules_version
        and json.dumps(record.parameters, sort_keys=True) == json.dumps(game.parameters(), sort_keys=True)
    )


def stored_for(conn: sa.Connection, name: str, game: Game, *, force: bool) -> GameRecord | None:
    """The game stored as ``name`` that a solve of ``game`` resumes (``force``: replaces), or None; refuses a bad name,
    a different game there, and a damaged one unless ``force``."""
    check_name(name)
    try:
        record = reader_of(conn).find(name, damaged=force)
    except DamagedGame as exc:
        raise DamagedGame(f"{marked_text(exc)}; {param('force', True)} replaces it") from None
    if record is not None and not force and not same_game(record, game):
        raise GameExists(f"a different game named {name!r} is already stored ({record.family}); "
                         f"choose another {param('name')}, or {param('force', True)} to replace it")
    return record


def free_name(conn: sa.Connection, game: Game) -> str:
    """The family's default name, unless a different game holds it: then with a digest of :func:`game_key`
    (``cat-mouse --graph A`` and ``--graph B`` store two games)."""
    name = game.default_name()
    record = reader_of(conn).find(name, damaged=True)
    if record is None or record.problem is not None or same_game(record, game):
        return name  # a damaged game there: the solve says so, and that --force replaces it
    return f"{name}-{hashlib.sha256(game_key(game).encode()).hexdigest()[:8]}"


def create(conn: sa.Connection, name: str, game: Game, strategy: str) -> GameRecord:
    if reader_of(conn).find(name) is not None:
        raise GameExists(f"a game named {name!r} already exists")
    conn.execute(game_table.insert().values(**new_game_row(name, game, strategy)))
    record = reader_of(conn).get(name)
    conn.execute(player_table.insert(), player_rows(record.id, game))
    return record


def delete(conn: sa.Connection, record: GameRecord) -> None:
    """Delete the game's rows from every table that has them (dependent tables first), then the game."""
    for table in reversed(metadata.sorted_tables):
        if table is not game_table and "game_id" in table.c:
            conn.execute(table.delete().where(table.c.game_id == record.id))
    conn.execute(game_table.delete().where(game_table.c.id == record.id))


def update(conn: sa.Connection, record: GameRecord, **values: Any) -> None:
    conn.execute(game_table.update().where(game_table.c.id == record.id).values(**values))


# --- a solve's resume marker (game.progress), committed with each level's work -------------

_SAVE_PROGRESS = sa.text("UPDATE game SET progress = :p WHERE id = :g")


def load_progress(conn: sa.Connection, game_id: int) -> dict[str, Any]:
    """Where an unfinished solve of the game stopped (the solvers' own keys), or {}."""
    raw = conn.execute(sa.text("SELECT progress FROM game WHERE id = :g"), {"g": game_id}).scalar()
    if raw is None:
        return {}
    progress: dict[str, Any] = raw if isinstance(raw, dict) else json.loads(raw)
    return progress


def save_progress(conn: sa.Connection, game_id: int, progress: dict[str, Any]) -> None:
    """Record, inside the caller's transaction, how far the solve has come."""
    conn.execute(_SAVE_PROGRESS, {"p": json.dumps(progress), "g": game_id})

