"""One exception family for everything a user can get wrong, each a one-line message for the CLI: :class:`InputError`
(malformed input) exits 2, every other :class:`GamedbError` 1."""

#: what a position past a solved game's bounds advises when no other stored game holds it
LARGER_MAX = "solve again with a larger --max"


class GamedbError(Exception):
    """Base class of every error gamedb raises on purpose."""

    exit_code = 1


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
