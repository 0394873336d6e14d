"""The registry of game families: built-in ones (each module imported only when needed) and plugins."""

import contextlib
import importlib
import os
import sys
from collections.abc import Collection, Iterator
from typing import Any

from ..errors import FamilyLoadError, StoredCodeRefused, UnknownFamily, said_as
from ..safe_text import shown
from .base import Game, Param
from .plugin_code import note_game_code

__all__ = ["Game", "Param", "family", "family_names", "make_game", "game_from_parameters", "stored_family"]

#: family name -> "module:Class"; a new built-in family is its module and one line here (tests/registry.py)
BUILTIN: dict[str, str] = {
    "cat-mouse": "gamedb.games.two_tokens.cat_mouse:CatMouse",
    "tictactoe": "gamedb.games.tictactoe:TicTacToe",
    "connect4": "gamedb.games.connect4:Connect4",
    "graph": "gamedb.games.graph_file:GraphGame",
    "cat-mouse-grid": "gamedb.games.two_tokens.cat_mouse_grid:CatMouseGrid",
    "flip": "gamedb.games.heaps.flip:Flip",
    "octal": "gamedb.games.heaps.octal:Octal",
    "grundy": "gamedb.games.heaps.grundy_game:GrundyGame",
    "nim": "gamedb.games.heaps.nim:Nim",
    "subtraction": "gamedb.games.heaps.subtraction:Subtraction",
    "stone-ix": "gamedb.games.stone_ix:StoneIX",
    "dobutsu": "gamedb.games.dobutsu:Dobutsu",
}

#: entry point group through which installed packages add families
ENTRY_POINT_GROUP = "gamedb.games"


def _plugin_entry_points() -> dict[str, Any]:
    from importlib.metadata import entry_points
    found = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name not in BUILTIN]
    return {ep.name: ep for ep in reversed(found)}  # the first of a name wins


def family_names() -> list[str]:
    """Built-in families, then families of installed plugin packages."""
    return list(BUILTIN) + sorted(_plugin_entry_points())


def load_class(spec: str, *, working_directory: bool = True) -> type[Game]:
    """Import ``package.module:ClassName`` and check that it is a game family (``working_directory``: also there)."""
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise UnknownFamily(f"bad game class {spec!r}: expected package.module:ClassName")
    try:
        with _working_directory_on_path(working_directory):
            module = importlib.import_module(module_name)
    except Exception as exc:
        missing = getattr(exc, "name", None) if isinstance(exc, ModuleNotFoundError) else None
        if missing is not None and (module_name == missing or module_name.startswith(missing + ".")):  # the name finds nothing
            raise UnknownFamily(f"cannot import {module_name!r} for game {spec!r}: {exc}") from None
        # the module's own code failed: one line naming where, not a traceback
        raise FamilyLoadError(f"importing {module_name!r} for game {spec!r} failed: {_where(exc)}") from None
    cls = getattr(module, attr, None)
    if cls is None:
        raise UnknownFamily(f"module {module_name!r} has no {attr!r} (game {spec!r})")
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        raise UnknownFamily(f"{spec!r} is not a gamedb.games.base.Game subclass")
    if missing := sorted(getattr(cls, "__abstractmethods__", ())):  # it could not be instantiated
        raise UnknownFamily(f"{spec!r} does not implement {', '.join(missing)} of the game protocol")
    note_game_code(cls)  # (gamedb's own families are noted as nothing)
    return cls


def _where(exc: Exception) -> str:
    """``Type: message (file:line)`` of an exception raised by a module's own code."""
    import traceback
    if isinstance(exc, SyntaxError):
        return f"{type(exc).__name__}: {exc.msg} ({exc.filename}:{exc.lineno})"
    frames = traceback.extract_tb(exc.__traceback__)
    place = f" ({frames[-1].filename}:{frames[-1].lineno})" if frames else ""
    return f"{type(exc).__name__}: {exc}{place}"


@contextlib.contextmanager
def _working_directory_on_path(wanted: bool) -> Iterator[None]:
    """Let ``--game mygame:MyGame`` find ``mygame.py`` in the working directory, as ``python -m`` would.

    Last on the path (an installed module of that name wins) and only during this import.
    """
    here = os.getcwd()
    add = wanted and here not in sys.path and "" not in sys.path
    if add:
        sys.path.append(here)
    try:
        yield
    finally:
        if add and here in sys.path:
            sys.path.remove(here)


def family(name: str) -> type[Game]:
    """The class of a family: a built-in name, an installed plugin's name, or ``module:Class``."""
    spec = BUILTIN.get(name)
    if spec is not None:
        return load_class(spec, working_directory=False)
    if ":" in name:
        return load_class(name)
    plugin = _plugin_entry_points().get(name)
    if plugin is not None:
        try:
            cls = plugin.load()
        except Exception as exc:  # a broken plugin must not take gamedb down
            raise FamilyLoadError(f"game family {name!r} from package entry point {plugin.value!r} failed to load: {_where(exc)}") from None
        if not (isinstance(cls, type) and issubclass(cls, Game)):
            raise FamilyLoadError(f"entry point {plugin.value!r} of family {name!r} is not a Game subclass")
        note_game_code(cls)
        return cls
    raise UnknownFamily(f"unknown game family {name!r} (known: {', '.join(family_names())})")


def make_game(name: str, **options: Any) -> Game:
    """Build a game of family ``name`` from command-line style options."""
    return family(name).from_options(**options)


def stored_family(name: str, allowed: Collection[str] = ()) -> type[Game]:
    """The class of a stored game's ``family``: a file never chooses code, so a ``module:Class`` must be ``allowed``."""
    if name in BUILTIN or (":" not in name and name in _plugin_entry_points()):
        return family(name)
    if ":" in name:
        if name in allowed:
            return load_class(name)
        # the class trusted is named as the caller names it: Database(game_classes=[...]) in Python, --game on the command line
        given = said_as(f"game_classes={sorted(allowed)!r}", f"--game {', '.join(sorted(allowed))}")
        passed = f" ({given} names another class)" if allowed else ""
        trust = said_as(f"pass game_classes=[{shown(name)}] to Database", f"pass --game {shown(name, quotes=False)}")
        raise StoredCodeRefused(f"its rules are the Python class {shown(name)}{passed}, and a database file cannot make gamedb run code; "
                                f"if you trust that class, {trust}")
    raise UnknownFamily(f"its family {shown(name)} is neither built in nor an installed plugin (known: {', '.join(family_names())})")


def game_from_parameters(name: str, parameters: dict[str, Any], allowed: Collection[str] = ()) -> Game:
    """Rebuild a stored game from its family and stored parameters (data: a text that could name a path is refused)."""
    from .json_option import stored_parameters
    cls = stored_family(name, allowed)
    with stored_parameters():
        return cls.from_parameters(parameters)
