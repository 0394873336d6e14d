"""What a new game's rows hold: the ``game`` row and its ``player`` rows, as values.

Kept free of SQLAlchemy: the catalog (:mod:`gamedb.store.catalog`) inserts
these values through SQLAlchemy, and a small solve straight into a new file
(:mod:`gamedb.store.new_sqlite_file`) through the standard library's
``sqlite3``; both store the same rows because both take them from here.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from .. import __version__
from ..errors import InputError
from ..games.base import Game
from .status import ENUMERATING

#: the ``game`` table's JSON columns (SQLAlchemy's JSON type writes them with ``json.dumps``)
JSON_COLUMNS = ("parameters", "info", "progress")


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


def now() -> str:
    """The time a game row records (``created_at``, ``solved_at``): UTC, to the second."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def check_name(name: str) -> None:
    """Refuse a name no one could type back: empty, or spaces only."""
    if not isinstance(name, str) or not name.strip():
        raise InputError(f"a game's name (--name) must not be empty or blank, got {name!r}")


def new_game_row(name: str, game: Game) -> dict[str, Any]:
    """The ``game`` row of a game about to be solved (status ``enumerating``), by column."""
    start = game.start()
    return {
        "name": name,
        "family": family_key(game),
        "parameters": game.parameters(),
        "rules_version": game.rules_version,
        "impartial": game.impartial,
        "status": ENUMERATING,
        "start_code": game.encode(start),
        "start_position": game.format(start),
        "created_at": now(),
        "gamedb_version": __version__,
    }


def player_rows(game_id: int, game: Game) -> list[dict[str, Any]]:
    """The game's ``player`` rows: its players' names by index."""
    return [{"game_id": game_id, "idx": i, "name": n} for i, n in enumerate(game.players)]
