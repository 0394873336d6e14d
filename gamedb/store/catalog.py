"""The ``game`` table: creating, finding, listing and deleting stored games.

(:func:`family_key` and :func:`now` are :mod:`gamedb.store.sink`'s, imported here for their callers.)
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa

from ..errors import GameExists, GameNotFound
from ..games.base import Game
from .record import GameRecord, record_from_mapping, record_or_damaged
from .schema import game as game_table
from .schema import metadata
from .schema import player as player_table
from .sink import family_key as family_key  # re-exported: callers use catalog.family_key, catalog.now
from .sink import new_game_row, player_rows
from .sink import now as now

#: the game rows as stored (no type conversion by SQLAlchemy: a damaged JSON column must reach
#: :func:`~gamedb.store.damage.checked_game_row`, not fail while the row is fetched)
_GAME_ROWS = "SELECT " + ", ".join(c.name for c in game_table.columns) + " FROM game"
_GAME_BY_NAME = sa.text(_GAME_ROWS + " WHERE name = :n")
_ALL_GAMES = sa.text(_GAME_ROWS + " ORDER BY name")


def record_from_row(row: sa.Row[Any]) -> GameRecord:
    """A game row as read by :data:`_GAME_ROWS`, checked; raises :class:`~gamedb.store.damage.DamagedGame`."""
    return record_from_mapping(row._mapping)


def find(conn: sa.Connection, name: str, *, damaged: bool = False) -> GameRecord | None:
    """The game of that name, or None; a damaged row raises :class:`~gamedb.store.damage.DamagedGame`
    unless ``damaged`` (then it is a record with its ``problem``)."""
    row = conn.execute(_GAME_BY_NAME, {"n": name}).first()
    if row is None:
        return None
    return record_or_damaged(row._mapping) if damaged else record_from_row(row)


def get(conn: sa.Connection, name: str) -> GameRecord:
    record = find(conn, name)
    if record is None:
        raise not_found(conn, name)
    return record


def not_found(conn: sa.Connection, name: str) -> GameNotFound:
    """The error for a game ``name`` that is not stored, naming the stored games (those of family ``name`` first)."""
    return GameNotFound(not_found_message(name, family_games(conn, name), [r.name for r in all_games(conn)]))


def not_found_message(name: str, of_family: list[str], stored: list[str]) -> str:
    """Why ``name`` finds no game: the games of the family ``name`` when there are some, else every stored game."""
    if len(of_family) > 1:
        return f"no game named {name!r} in this database; {len(of_family)} {name} games are stored: {', '.join(of_family)} (name one)"
    hint = f" (stored: {', '.join(stored)})" if stored else " (the database holds no games yet)"
    return f"no game named {name!r} in this database{hint}"


def family_games(conn: sa.Connection, family: str) -> list[str]:
    """The names of the stored games of ``family``, by name."""
    return list(conn.execute(sa.text("SELECT name FROM game WHERE family = :f ORDER BY name"), {"f": family}).scalars())


def stored_name(conn: sa.Connection, name: str) -> str:
    """``name`` when a game has that name; else the one stored game of the family ``name`` (``connect4`` finds
    ``connect4-4x4``); else :class:`~gamedb.errors.GameNotFound`, naming the games of that family if several."""
    if conn.execute(sa.text("SELECT 1 FROM game WHERE name = :n"), {"n": name}).first() is not None:
        return name
    found = family_games(conn, name)
    if len(found) == 1:
        return found[0]
    raise not_found(conn, name)


def all_games(conn: sa.Connection) -> list[GameRecord]:
    """Every stored game by name; a damaged one as a record with its ``problem`` (status ``damaged``)."""
    with _undecodable_text_kept(conn):
        return [record_or_damaged(row._mapping) for row in conn.execute(_ALL_GAMES)]


#: SQLite text that is not UTF-8, read as a str whose bad bytes are lone surrogates (checked_game_row says so)
_SURROGATE_ESCAPE = functools.partial(bytes.decode, encoding="utf-8", errors="surrogateescape")


@contextmanager
def _undecodable_text_kept(conn: sa.Connection) -> Iterator[None]:
    """Within: a SQLite text value that is not UTF-8 (a crafted game name) reads as text with its bad
    bytes kept, not as an error that would fail the whole listing. Only around reads of the small
    ``game`` table: a Python decoder on every text value would double the cost of reading positions."""
    if conn.dialect.name != "sqlite":  # a PostgreSQL text column holds only valid text
        yield
        return
    raw = conn.connection.driver_connection
    saved = raw.text_factory  # type: ignore[union-attr]
    raw.text_factory = _SURROGATE_ESCAPE  # type: ignore[union-attr]
    try:
        yield
    finally:
        raw.text_factory = saved  # type: ignore[union-attr]


def game_key(game: Game) -> str:
    """What tells two games apart, as text: the stored family, its rules' version and the game's parameters
    (the digest of a default name that is taken, the tier solver's work folder)."""
    return json.dumps([family_key(game), game.rules_version, game.parameters()], sort_keys=True)


def same_game(record: GameRecord, game: Game) -> bool:
    return (
        record.family == family_key(game)
        and record.rules_version == game.rules_version
        and json.dumps(record.parameters, sort_keys=True) == json.dumps(game.parameters(), sort_keys=True)
    )


def create(conn: sa.Connection, name: str, game: Game, strategy: str) -> GameRecord:
    if find(conn, name) is not None:
        raise GameExists(f"a game named {name!r} already exists")
    conn.execute(game_table.insert().values(**new_game_row(name, game, strategy)))
    record = get(conn, name)
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

