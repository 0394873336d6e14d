"""Where the code of the game classes loaded from outside gamedb lives, to tell their failures from gamedb's own.

A class from ``--game module:Class`` or an installed plugin that raises (in ``__init__``, ``moves``, ``parse``, ...)
is the class's fault: the command line says so in one line naming the file and line, as it does for a module that
fails while it loads, instead of a traceback.
"""

from __future__ import annotations

import os
import sys
import traceback

#: the files (a module) and folders (a package) of the loaded game classes and of their bases from outside gamedb
_CODE: set[str] = set()
_GAMEDB = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def note_game_code(cls: type) -> None:
    """Remember where ``cls`` (a game class not built into gamedb) and its bases are written."""
    for klass in cls.__mro__:
        top = sys.modules.get(klass.__module__.split(".")[0])
        file = getattr(top, "__file__", None)
        if not file:
            continue
        where = os.path.dirname(os.path.abspath(file)) if getattr(top, "__path__", None) is not None else os.path.abspath(file)
        if where != _GAMEDB and not where.startswith(_GAMEDB + os.sep) and klass.__module__ != "builtins":
            _CODE.add(where)


def failure_in_game_code(exc: BaseException) -> str | None:
    """``Type: message (file:line)`` when ``exc`` was raised in (or passed through) a loaded game class's code; else None."""
    if not _CODE or not isinstance(exc, Exception):
        return None
    frames = [
        frame for frame in traceback.extract_tb(exc.__traceback__)
        if any(frame.filename == where or frame.filename.startswith(where + os.sep) for where in _CODE)
    ]
    if not frames:
        return None
    return f"{type(exc).__name__}: {exc} ({frames[-1].filename}:{frames[-1].lineno})"
