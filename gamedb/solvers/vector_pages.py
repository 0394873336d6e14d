"""The pages verify's fast pass reads (:mod:`.vector_verify`): their columns as the drivers give them, checked by type and
range; anything not as gamedb writes it makes the pass stand aside (:class:`Disagrees`) for the exact one."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..games.vector import RESULT_CODES, UNDECIDED
from ..store.rows import POSITION_COLUMNS

#: a page's column: the driver's values, or DuckDB's typed array (masked where NULL)
Column = list[Any] | np.ndarray


class Disagrees(Exception):
    """Something is not as the rules say: leave it to the exact pass."""


def by_code(columns: dict[str, np.ndarray]) -> dict[str, Column]:
    """A DuckDB page's columns (fetchnumpy's arrays) in code order: as they come when the file was written in code order."""
    code = np.ma.getdata(columns["code"])
    order = slice(None) if bool((np.diff(code) > 0).all()) else np.argsort(code, kind="stable")
    return {name: values[order] for name, values in columns.items()}


def row_numbers(cursor: Any, game_id: int) -> int:
    """One more than the greatest row number of the game's position rows in a DuckDB file (0: none)."""
    cursor.execute("SELECT max(rowid) FROM position WHERE game_id = ?", (game_id,))
    last = cursor.fetchone()[0]
    return 0 if last is None else int(last) + 1


def page_columns(rows: list[tuple[Any, ...]]) -> dict[str, Column]:
    """A page of driver tuples (:data:`~gamedb.store.rows.POSITION_COLUMNS` order) as columns."""
    return {name: list(values) for name, values in zip(POSITION_COLUMNS, zip(*rows, strict=True), strict=True)} if rows else {"code": []}


def result_codes(results: Column) -> np.ndarray:
    """The result codes of a page (UNDECIDED for anything but the four): DuckDB's stored codes, else the words."""
    if isinstance(results, np.ndarray) and results.dtype.kind in "iu":  # (the codes are the stored ones: RESULT_CODES)
        data = np.ma.getdata(results).astype(np.int64)
        known = ~np.ma.getmaskarray(results) & (data >= min(RESULT_CODES.values())) & (data <= max(RESULT_CODES.values()))
        return np.where(known, data, UNDECIDED).astype(np.int8)
    code_of = RESULT_CODES.get  # only the four result strings are known; anything else is UNDECIDED
    return np.array([code_of(r, UNDECIDED) for r in objects(results)], dtype=np.int8)


def ints(values: Column, low: int, high: int) -> np.ndarray:
    """``values`` as an int64 array when every one is an integer in [low, high] (an array: of an integer type, no NULL)."""
    if isinstance(values, np.ndarray):
        require(values.dtype.kind in "iu" and not np.ma.is_masked(values))
        array = np.ma.getdata(values)
        require(not len(array) or (int(array.min()) >= low and int(array.max()) <= high))
        return array.astype(np.int64)
    require(set(map(type, values)) <= {int})
    require(not values or (min(values) >= low and max(values) <= high))
    return np.array(values, dtype=np.int64)


def nulls(values: Column) -> np.ndarray:
    """Where ``values`` are NULL (an array's NULLs come masked)."""
    return np.ma.getmaskarray(values) if isinstance(values, np.ndarray) else np.array([v is None for v in values], dtype=bool)


def objects(values: Column) -> list[Any]:
    """``values`` as a list, None for NULL."""
    return values.tolist() if isinstance(values, np.ndarray) else values


def require(ok: bool) -> None:
    if not ok:
        raise Disagrees
