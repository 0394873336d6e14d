"""Game families: the registry of built-in families.

Each family lives in its own module and is imported only when needed, so
``gamedb --help`` stays fast.
"""

from __future__ import annotations

import importlib
from typing import Any

from ..errors import UnknownFamily
from .base import Game, Param

#: family name -> "module:Class" (imported lazily)
BUILTIN: dict[str, str] = {
    "cat-mouse": "gamedb.games.cat_mouse:CatMouse",
    "tictactoe": "gamedb.games.tictactoe:TicTacToe",
}


def family_names() -> list[str]:
    return list(BUILTIN)


def load_class(spec: str) -> type[Game]:
    module_name, _, attr = spec.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, attr)


def family(name: str) -> type[Game]:
    """The class of a family, by its command-line name."""
    spec = BUILTIN.get(name)
    if spec is None:
        known = ", ".join(family_names())
        raise UnknownFamily(f"unknown game family {name!r} (known: {known})")
    return load_class(spec)


def make_game(name: str, **options: Any) -> Game:
    """Build a game of family ``name`` from command-line style options."""
    return family(name).from_options(**options)


def game_from_parameters(name: str, parameters: dict) -> Game:
    """Rebuild a stored game from its family and stored parameters."""
    return family(name).from_parameters(parameters)


__all__ = ["Game", "Param", "family", "family_names", "make_game", "game_from_parameters"]
