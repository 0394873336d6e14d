"""The ids a writer gives a game's move labels: ``position.best_move`` holds the id of a ``move_label`` row (revision 0008).

Every sink numbers labels the same way, here: the labels stored before keep their ids, and each new one gets the next
id when first met (a :class:`~.sink.LabelColumn`'s names all at once, in their order), so a solve run twice gives the
same ids. A copy of stored rows hands ids, and says so (:class:`~.sql_sink.SqlSink`'s ``ids_given``): they go as they are.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from .sink import Column, LabelColumn, null_where_negative, values_of

if TYPE_CHECKING:
    import numpy as np

#: the label tables whose ids are mapped (kept: a solver gives the same one with every batch)
_MAPPED = 4


class LabelList(NamedTuple):
    """The label names a part file's best moves index (:mod:`.part_files`), as the sink would have numbered them given the
    rows: a label table (``firsts`` None: all numbered at once, in its order, as a :class:`~.sink.LabelColumn`'s), or the
    labels its rows meet, each with the code of the first row that meets it (as labels given as text: numbered as met)."""

    names: Sequence[str]
    firsts: Sequence[int] | None = None


class MoveLabels:
    """A game's labels and their ids: those stored (``stored``: name -> id), then those met since, not yet written."""

    def __init__(self, stored: Mapping[str, int] | None = None) -> None:
        self._ids: dict[str, int] = dict(stored or {})
        self._next = max(self._ids.values(), default=-1) + 1
        self._new: list[tuple[int, str]] = []
        self._mapped: list[tuple[Sequence[str], np.ndarray]] = []  # (names, their ids and -1 after them)

    def id_of(self, name: str) -> int:
        """The id of ``name``, given it now if it has none."""
        found = self._ids.get(name)
        if found is None:
            found = self._ids[name] = self._next
            self._next += 1
            self._new.append((found, name))
        return found

    def mapping(self, names: Sequence[str]) -> np.ndarray:
        """The id of each of ``names``, then -1 (indexed by a :class:`~.sink.LabelColumn`'s ids, -1 gives -1): worked out
        once for a table of names the solver gives again (cat and mouse's 7,999 labels with each batch of 16,384 rows)."""
        import numpy as np

        for k, (known, ids) in enumerate(self._mapped):
            if known is names and len(ids) == len(names) + 1:
                return ids
            if known is names:  # (a list the solver added names to)
                del self._mapped[k]
                break
        ids = np.array([*map(self.id_of, names), -1], dtype=np.int32)
        self._mapped = [(names, ids), *self._mapped[: _MAPPED - 1]]
        return ids

    def ids(self, column: Column) -> Column:
        """``column`` of best moves as label ids (NULL kept): a :class:`~.sink.LabelColumn` or labels (None: none) as their
        ids; an integer array is ids already. A writer handed stored ids (a copy) says so and passes them by."""
        import numpy as np

        if isinstance(column, LabelColumn):
            return null_where_negative(self.mapping(column.names)[column.ids])
        if isinstance(column, np.ndarray) and column.dtype.kind in "iu":
            return column
        return [None if v is None else self.id_of(v) for v in values_of(column)]

    def in_parts(self, lists: Sequence[LabelList], codes: tuple[int, int]) -> list[list[int]]:
        """The ids of each of ``lists``' names (-1: a name its part's rows of ``codes`` do not meet) for loading the code
        range ``codes`` (low, high excluded) of parts, ranges loaded in code order: the labels met in it numbered as a
        sink handed its rows in code order numbers them (a table's whole; each label the range's rows meet first, in the
        order of the codes that first meet them), whatever the parts' cut (a code range or a tier's slice)."""
        for names, firsts in lists:
            if firsts is None:
                self.mapping(names)
        high = codes[1]
        met = sorted({(first, name) for names, firsts in lists if firsts is not None
                      for name, first in zip(names, firsts, strict=True) if first < high and name not in self._ids})
        for _, name in met:
            self.id_of(name)
        return [self.mapping(names)[:-1].tolist() if firsts is None else [self._ids.get(name, -1) for name in names] for names, firsts in lists]

    def unwritten(self) -> dict[str, list[Any]] | None:
        """The ``move_label`` columns (``id``, ``name``; the caller adds the game's id) of the labels met since the last
        call, written by the caller now; None if there are none."""
        if not self._new:
            return None
        ids, names = zip(*self._new, strict=True)
        self._new = []
        return {"id": list(ids), "name": list(names)}


def with_label_ids(labels: MoveLabels, table: str, columns: Mapping[str, Column]) -> Mapping[str, Column]:
    """``columns`` of ``table`` with the best moves as ids of ``labels`` (only ``position`` has best moves)."""
    if table != "position" or "best_move" not in columns:
        return columns
    return {**columns, "best_move": labels.ids(columns["best_move"])}


def stored_labels(rows: Sequence[tuple[Any, Any]]) -> dict[str, int]:
    """``(id, name)`` rows read from ``move_label`` as name -> id."""
    return {str(name): int(i) for i, name in rows}
