"""One exception family for everything a user can get wrong, each a one-line message for the CLI: :class:`InputError`
(malformed input) exits 2, every other :class:`GamedbError` 1.

A message that names a parameter names it with :func:`param` (or :func:`said_as`): a Python caller reads the name it
passed (``memory_limit=``, ``force=True``), the command line the flag (``--memory-limit``, ``--force``). The error
keeps both: ``str(error)`` is the Python text, :func:`command_line_text` the command line's."""

from __future__ import annotations

import re

_NO_VALUE = object()
_SAID = re.compile("\ue000([^\ue001]*)\ue001([^\ue002]*)\ue002")  # (private-use characters: never in gamedb's own words)


def said_as(python: str, command_line: str) -> str:
    """Words of a message that read ``python`` to a Python caller and ``command_line`` on the command line."""
    return f"\ue000{python}\ue001{command_line}\ue002"


def param(name: str, value: object = _NO_VALUE, *, quote: bool = False) -> str:
    """Parameter ``name`` (as Python spells it) in a message, with ``value`` if given: ``memory_limit=`` / ``--memory-limit``,
    ``strategy='auto'`` / ``--strategy auto`` (``quote``: ``--strategy 'auto'``), ``force=True`` / ``--force``,
    ``symmetry=False`` / ``--no-symmetry``."""
    flag = "--" + name.replace("_", "-")
    if value is _NO_VALUE:
        return said_as(f"{name}=", flag)
    if isinstance(value, bool):
        return said_as(f"{name}={value}", flag if value else f"--no-{flag[2:]}")
    return said_as(f"{name}={value!r}", f"{flag} {value!r}" if quote else f"{flag} {value}")


def python_text(text: str) -> str:
    """``text`` as a Python caller reads it (:func:`said_as`)."""
    return _SAID.sub(r"\1", text)


def marked_text(exc: BaseException) -> str:
    """The message of ``exc`` with its :func:`param` marks, to build another error's message from (``str(exc)`` would keep
    only the Python words)."""
    return exc.__dict__.get("_marked", str(exc)) if isinstance(exc, GamedbError) else str(exc)


def command_line_text(exc: BaseException) -> str:
    """The message of ``exc`` as the command line shows it: its parameters named by their flags."""
    return command_line_words(marked_text(exc))


def command_line_words(text: str) -> str:
    """``text`` (with :func:`said_as` marks) as the command line reads it."""
    return _SAID.sub(r"\2", text)


#: what a position past a solved game's bounds advises when no other stored game holds it
LARGER_MAX = f"solve again with a larger {param('max')}"


class GamedbError(Exception):
    """Base class of every error gamedb raises on purpose."""

    exit_code = 1

    def __init__(self, *args: object) -> None:
        if args and isinstance(args[0], str) and "\ue000" in args[0]:
            self._marked = args[0]  # (in __dict__: kept by pickle, as a cluster worker's error comes back)
            args = (python_text(args[0]), *args[1:])
        super().__init__(*args)


class InputError(GamedbError, ValueError):
    """Malformed input from the user (exit code 2)."""

    exit_code = 2


class GraphError(InputError):
    """A game description (graph, grid, file) breaks the format or the rules."""


class PositionError(InputError):
    """Position text that does not parse, or is not a legal position."""


class _NotFound(GamedbError, KeyError):
    def __str__(self) -> str:  # KeyError quotes its argument; we want the message
        return str(self.args[0]) if self.args else ""


class UnknownFamily(_NotFound):
    """No game family of that name is registered."""


class FamilyLoadError(GamedbError):
    """A game family's own code failed while it was loaded (its module raised, or a plugin broke)."""


class GameNotFound(_NotFound):
    """No game of that name is stored in the database."""


class PositionNotFound(_NotFound):
    """The position parses, but is not among the stored (reachable) positions."""


class BeyondSolvedRange(PositionNotFound):
    """The position is past the bounds the game was solved with; ``holders`` names other games that hold it."""

    def __init__(self, message: str, holders: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.holders = holders


class DatabaseClosed(GamedbError):
    """A :class:`~gamedb.api.Database` used after :meth:`~gamedb.api.Database.close` (or after its ``with`` block)."""


class DatabaseError(GamedbError):
    """The file is not a usable gamedb database (wrong format, version, SQLite too old)."""


class NoDatabase(DatabaseError):
    """No database at the path given, and it was not to be created (``create=False``)."""


class GameExists(GamedbError):
    """A game of that name is already stored."""


class VerifyError(GamedbError):
    """A stored value disagrees with the rules."""


class StoredCodeRefused(GamedbError):
    """A stored game names Python code (``module:Class``) that the user did not choose on the command line."""
