"""gamedb: strongly solve finite two-player games and keep every answer in SQL.

Python API::

    from gamedb import Database, make_game

    db = Database("gamedb.sqlite", create=True)
    db.solve(make_game("tictactoe"))
    answer = db.probe("tictactoe", "X...O....")
    print(answer.result, answer.remoteness, answer.best_move)

Everything public is importable from here: :class:`Database`,
:func:`make_game`, :class:`Game` (the protocol a family implements),
:class:`Answer` (what a query returns) and the errors, each imported on
first use (:func:`__getattr__`).
"""

from __future__ import annotations

from typing import Any

from .version import __version__

_ERRORS = ("GamedbError", "InputError", "GraphError", "PositionError", "UnknownFamily", "FamilyLoadError", "GameNotFound",
           "PositionNotFound", "DatabaseError", "DatabaseClosed", "GameExists", "VerifyError")
_PUBLIC = ("Database", "make_game", "Game", "Answer", "MoveValue", *_ERRORS)


def __getattr__(name: str) -> Any:
    """A public name, imported on first use."""
    if name == "Database":
        from .api import Database

        return Database
    if name == "make_game":
        from .games import make_game

        return make_game
    if name == "Game":
        from .games.base import Game

        return Game
    if name in ("Answer", "MoveValue"):
        from . import answers

        return getattr(answers, name)
    if name in _ERRORS:
        from . import errors

        return getattr(errors, name)
    raise AttributeError(f"module 'gamedb' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_PUBLIC])


__all__ = [*_PUBLIC, "__version__"]
