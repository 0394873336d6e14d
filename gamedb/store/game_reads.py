"""The stored games read through a :class:`~gamedb.store.rows.Reader` (any backend, no SQLAlchemy)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import GameNotFound
from .record import GameRecord, record_from_mapping, record_or_damaged

if TYPE_CHECKING:
    from .rows import Reader


def find(reader: Reader, name: str, *, damaged: bool = False) -> GameRecord | None:
    """The game of that name, or None; a damaged row raises, unless ``damaged`` (then a record with its ``problem``)."""
    row = reader.game_row(name)
    if row is None:
        return None
    return record_or_damaged(row) if damaged else record_from_mapping(row)


def get(reader: Reader, name: str) -> GameRecord:
    """The game of that name; raises :class:`~gamedb.errors.GameNotFound` (naming the stored games)."""
    record = find(reader, name)
    if record is None:
        raise not_found(reader, name)
    return record


def all_games(reader: Reader) -> list[GameRecord]:
    """Every stored game by name; a damaged one as a record with its ``problem`` (status ``damaged``)."""
    return [record_or_damaged(row) for row in reader.game_rows()]


def stored_name(reader: Reader, name: str) -> str:
    """``name`` if a game has it; else the one stored game of the family ``name``; else :class:`~gamedb.errors.GameNotFound`."""
    if reader.fetch("SELECT 1 FROM game WHERE name = ?", (name,)):
        return name
    found = reader.names_of_family(name)
    if len(found) == 1:
        return found[0]
    raise not_found(reader, name)


def not_found(reader: Reader, name: str) -> GameNotFound:
    """The error for a game ``name`` that is not stored, naming the stored games (those of family ``name`` first)."""
    return GameNotFound(not_found_message(name, reader.names_of_family(name), [r.name for r in all_games(reader)]))


def not_found_message(name: str, of_family: list[str], stored: list[str]) -> str:
    """Why ``name`` finds no game: the games of the family ``name`` when there are some, else every stored game."""
    if len(of_family) > 1:
        return f"no game named {name!r} in this database; {len(of_family)} {name} games are stored: {', '.join(of_family)} (name one)"
    hint = f" (stored: {', '.join(stored)})" if stored else " (the database holds no games yet)"
    return f"no game named {name!r} in this database{hint}"
