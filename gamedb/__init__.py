"""gamedb: strongly solve finite two-player games and keep every answer in SQL.

Python API::

    from gamedb import Database, make_game

    db = Database("gamedb.sqlite", create=True)
    db.solve(make_game("tictactoe"))
    answer = db.probe("tictactoe", "X...O....")
    print(answer.result, answer.remoteness, answer.best_move)

Everything public is importable from here: :class:`Database`,
:func:`make_game`, :class:`Game` (the protocol a family implements),
:class:`Answer` (what a query returns) and the errors. They are imported on
first use, so that ``gamedb --help`` does not import SQLAlchemy.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

#: public name -> module that defines it (imported lazily)
_PUBLIC = {
    "Database": "gamedb.api",
    "make_game": "gamedb.games",
    "Game": "gamedb.games.base",
    "Answer": "gamedb.answers",
    "MoveValue": "gamedb.answers",
    **{
        error: "gamedb.errors"
        for error in (
            "GamedbError",
            "InputError",
            "GraphError",
            "PositionError",
            "UnknownFamily",
            "FamilyLoadError",
            "GameNotFound",
            "PositionNotFound",
            "DatabaseError",
            "GameExists",
            "VerifyError",
        )
    },
}


def __getattr__(name: str) -> Any:
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'gamedb' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return sorted([*globals(), *_PUBLIC])


__all__ = [*_PUBLIC, "__version__"]
