"""The one interface solvers and copies write through (a :class:`Sink` per store), and what every sink begins with.

Large tables arrive column by column (numpy arrays or sequences), so a columnar store takes them as they are and a row
store makes its rows from them; the writer builds no Python object per row.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, Union

from ..errors import InputError, param
from ..version import __version__
from .rows import TEXT_LEFT_OUT_FROM
from .status import ENUMERATING

if TYPE_CHECKING:
    import numpy as np

    from ..games.base import Game

#: one column of rows: a numpy array (a masked array where NULLs are masked), a :class:`LabelColumn` or a sequence of values
Column = Union["np.ndarray", "LabelColumn", Sequence[Any]]

#: the ``game`` table's JSON columns (SQLAlchemy's JSON type writes them with ``json.dumps``)
JSON_COLUMNS = ("parameters", "info", "progress")
#: loads smaller than this keep a table's secondary indexes up to date as they go (a new file's solve is never larger)
DEFER_INDEXES_FROM = 50_000
#: a load over several commits of this many rows into an empty SQLite table leaves its secondary indexes out
#: (a tier game needs none: ``query`` and ``verify`` find positions by code; docs/performance.md)
LEAVE_INDEXES_FROM = TEXT_LEFT_OUT_FROM
#: rows per INSERT statement of :func:`column_inserts` (bound values stay under SQLite's oldest limit, 999)
ROWS_PER_INSERT = 100


class Begun(NamedTuple):
    """The game row a sink writes into, as :meth:`Sink.begin` found or made it."""

    id: int
    status: str
    #: where an unfinished solve of it stopped (``game.progress``), {} for a new game
    progress: dict[str, Any]
    #: True when the row was stored before (a solve resumed): rows of it may be there
    resumed: bool


class Sink(Protocol):
    """Where a writer's rows go; tables and columns are named as in :mod:`gamedb.store.schema`."""

    def begin(self) -> Begun:
        """The game row to write into: created (with its player rows) or, resuming, the stored one."""
        ...

    def clear(self, tables: Sequence[str]) -> None:
        """Delete the game's rows from ``tables`` (a resumed solve writing them afresh)."""
        ...

    def rows(self, table: str, rows: list[dict[str, Any]]) -> None:
        """Append rows given as dicts with the same keys (``game_id`` among them): small tables."""
        ...

    def columns(self, table: str, columns: Mapping[str, Column]) -> None:
        """Append a batch of rows given column by column (equal lengths); each row gets the game's id."""
        ...

    @property
    def writes_outside_gil(self) -> bool:
        """Whether :meth:`columns` runs outside Python's lock (DuckDB), so that a thread can ready the next batch meanwhile."""
        ...

    def loading(self, table: str, rows: int, notes: dict[str, Any] | None = None) -> AbstractContextManager[None]:
        """Around the appends of ``rows`` rows to ``table``: a store may set its indexes aside and build them after."""
        ...

    def update(self, **values: Any) -> None:
        """Set columns of the game row (status, counts, times, ``info``, ``progress``)."""
        ...

    def commit(self) -> None:
        """Make what was written so far survive a killed writer (a store written whole at :meth:`finish` may wait)."""
        ...

    def finish(self, **values: Any) -> None:
        """The game row's last :meth:`update`, then everything committed and in place."""
        ...

    def abort(self) -> None:
        """Drop what was written since the last :meth:`commit`."""
        ...


class LabelColumn:
    """A column of labels given as indices into ``names`` (-1: NULL): a columnar store takes the indices and the names
    (DuckDB scans no Python string, so its thread barely needs Python's lock), a row store the strings (:meth:`tolist`)."""

    __slots__ = ("ids", "names")

    def __init__(self, ids: np.ndarray, names: Sequence[str]) -> None:
        self.ids, self.names = ids, names

    def __len__(self) -> int:
        return len(self.ids)

    def __getitem__(self, part: slice | np.ndarray) -> LabelColumn:
        return LabelColumn(self.ids[part], self.names)

    def __iter__(self) -> Iterator[str | None]:
        return iter(self.tolist())

    def tolist(self) -> list[str | None]:
        named = [*self.names, None]  # (-1: the last)
        return [named[i] for i in self.ids.tolist()]

    @classmethod
    def joined(cls, parts: Sequence[LabelColumn]) -> LabelColumn:
        """``parts`` end to end (their names shared, or put end to end too)."""
        import numpy as np

        if all(p.names is parts[0].names for p in parts):
            return cls(np.concatenate([p.ids for p in parts]), parts[0].names)
        offsets = np.cumsum([0, *(len(p.names) for p in parts[:-1])])
        return cls(np.concatenate([np.where(p.ids < 0, -1, p.ids + k) for p, k in zip(parts, offsets.tolist(), strict=True)]),
                   [name for p in parts for name in p.names])


def joined_columns(batches: Sequence[Mapping[str, Column]]) -> Mapping[str, Column]:
    """Column batches end to end (texts as object arrays, masked arrays kept masked, label ids with their labels)."""
    import numpy as np

    if len(batches) == 1:
        return batches[0]
    joined: dict[str, Column] = {}
    for k in batches[0]:
        parts = [b[k] for b in batches]
        labelled = [p for p in parts if isinstance(p, LabelColumn)]
        if len(labelled) == len(parts):
            joined[k] = LabelColumn.joined(labelled)
        else:  # (label ids beside strings: all as strings)
            arrays = [p if isinstance(p, np.ndarray) else np.asarray(values_of(p), dtype=object) for p in parts]
            joined[k] = (np.ma.concatenate if any(np.ma.isMaskedArray(a) for a in arrays) else np.concatenate)(arrays)
    return joined


def null_where_negative(values: np.ndarray) -> np.ma.MaskedArray:
    """``values`` (not copied) with its negative entries NULL: a remoteness column (-1: a draw's, none). Made directly, not
    by ``np.ma.masked_less``, which copies and checks its input: 100 µs a block of 16,384 positions against 5 µs (cat-mouse's
    2·10^6 rows: 12 ms of the solver's thread as the rows are written)."""
    import numpy as np

    return np.ma.MaskedArray(values, mask=values < 0, copy=False)


def scattered(length: int, at: np.ndarray, labels: LabelColumn | Sequence[str]) -> Column:
    """A column of ``length`` NULL labels but ``labels`` at ``at`` (a :class:`LabelColumn` kept one)."""
    import numpy as np

    if isinstance(labels, LabelColumn):
        ids = np.full(length, -1, dtype=np.int32)
        ids[at] = labels.ids
        return LabelColumn(ids, labels.names)
    column = np.full(length, None, dtype=object)
    column[at] = labels
    return column


def rows_in(columns: Mapping[str, Column]) -> int:
    """The rows of a batch given column by column (0 without columns)."""
    return len(next(iter(columns.values()), ()))


def values_of(column: Column) -> list[Any]:
    """A column's values as a list (a masked entry as None), for a store that writes rows."""
    tolist = getattr(column, "tolist", None)
    return tolist() if tolist is not None else list(column)


def column_inserts(
    table: str, columns: Mapping[str, Column], constants: dict[str, int], per: int = ROWS_PER_INSERT
) -> Iterator[tuple[str, list[tuple[Any, ...]]]]:
    """(statement, parameter tuples) inserting ``columns`` (and ``constants``) into ``table``, ``per`` rows a statement."""
    values = [values_of(column) for column in columns.values()]
    n = len(values[0]) if values else 0
    if not n:
        return
    width = len(values)
    names = ", ".join([*constants, *columns])
    row = "(" + ", ".join([*(str(int(v)) for v in constants.values()), *["?"] * width]) + ")"
    flat: list[Any] = [None] * (n * width)
    for k, column in enumerate(values):
        flat[k::width] = column
    step = per * width
    whole = len(flat) - len(flat) % step
    if whole:
        yield f"INSERT INTO {table} ({names}) VALUES " + ", ".join([row] * per), [tuple(flat[i : i + step]) for i in range(0, whole, step)]
    if whole < len(flat):
        yield f"INSERT INTO {table} ({names}) VALUES " + ", ".join([row] * ((len(flat) - whole) // width)), [tuple(flat[whole:])]


# --- what begin() writes: the game row and its player rows, as values ----------------------------


def family_key(game: Game) -> str:
    """What the ``family`` column stores: the family's name when that name finds this class again, else ``module:Class``."""
    from ..errors import UnknownFamily
    from ..games import family

    try:
        if family(game.family) is type(game):
            return game.family
    except UnknownFamily:
        pass
    return f"{type(game).__module__}:{type(game).__qualname__}"


def game_key(game: Game) -> str:
    """What tells two games apart, as text: the stored family, its rules' version and the game's parameters
    (the digest of a default name that is taken, the tier solver's work folder)."""
    import json

    return json.dumps([family_key(game), game.rules_version, game.parameters()], sort_keys=True)


def now() -> str:
    """The time a game row records (``created_at``, ``solved_at``): UTC, to the second."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def check_name(name: str) -> None:
    """Refuse a name no one could type back: empty, or spaces only."""
    if not isinstance(name, str) or not name.strip():
        raise InputError(f"a game's name ({param('name')}) must not be empty or blank, got {name!r}")


def new_game_row(name: str, game: Game, strategy: str) -> dict[str, Any]:
    """The ``game`` row of a game about to be solved (status ``enumerating``) by ``strategy``, by column."""
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
        "strategy": strategy,
    }


def player_rows(game_id: int, game: Game) -> list[dict[str, Any]]:
    """The game's ``player`` rows: its players' names by index."""
    return [{"game_id": game_id, "idx": i, "name": n} for i, n in enumerate(game.players)]
