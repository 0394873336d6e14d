"""A fast first pass of ``verify`` on numpy arrays, for families with vector rules."""

from __future__ import annotations

from contextlib import closing
from typing import Any

import numpy as np
import sqlalchemy as sa

from ..games.vector import DRAW, RESULT_CODES, UNDECIDED, VectorRules
from ..progress import Progress
from ..sizes import default_memory_limit
from ..store.rows import POSITION_COLUMNS, position_select
from .tier_values import from_children

#: bytes per code of the family's range held while checking (result, remoteness, best move id)
BYTES_PER_CODE = 1 + 4 + 4
#: rows read, and positions expanded, at a time
CHUNK = 100_000
#: larger than any remoteness (an int32 array holds them)
_NONE = np.iinfo(np.int32).max

#: pages of plain driver tuples in POSITION_COLUMNS order (unpacked by _read_page)
_ROWS = position_select("game_id = ? AND code > ? ORDER BY code LIMIT ?")


class _Disagrees(Exception):
    """Something is not as the rules say: leave it to the exact pass."""


def fits(vector: VectorRules, memory_limit: int | None = None) -> bool:
    """Whether the arrays of this pass fit in half the memory limit."""
    limit = memory_limit if memory_limit is not None else default_memory_limit()
    return vector.code_limit * BYTES_PER_CODE <= limit // 2


def all_agree(conn: sa.Connection, game_id: int, vector: VectorRules, *, total: int | None = None, progress: Progress | None = None) -> int | None:
    """The number of stored positions when every one agrees with the rules and its children, else None."""
    try:
        table = _read(conn, game_id, vector, total, progress)
        _check_values(table, vector, progress)
    except _Disagrees:
        return None
    return table.count


class _Table:
    """What is stored, indexed by code: result (0: no row), remoteness (-1: none), best move label id (-1: none)."""

    def __init__(self, code_limit: int):
        self.result = np.zeros(code_limit, dtype=np.int8)
        self.remoteness = np.full(code_limit, -1, dtype=np.int32)
        self.best = np.full(code_limit, -1, dtype=np.int32)
        self.label_ids: dict[str, int] = {}
        self.count = 0


def _read(conn: sa.Connection, game_id: int, vector: VectorRules, total: int | None, progress: Progress | None) -> _Table:
    table = _Table(vector.code_limit)
    # plain tuples from the driver's cursor: no result-row objects for millions of rows
    sql = _ROWS if conn.dialect.paramstyle == "qmark" or conn.dialect.name == "duckdb" else _ROWS.replace("?", "%s")
    driver = conn.connection.driver_connection
    assert driver is not None  # an open connection
    with closing(driver.cursor()) as cursor:
        after = -1
        while True:
            cursor.execute(sql, (game_id, after, CHUNK))
            rows = cursor.fetchall()
            if not rows:
                return table
            after = rows[-1][0]
            _read_page(table, vector, rows)
            if progress:
                progress("read", table.count, total)


def _read_page(table: _Table, vector: VectorRules, rows: list[tuple[Any, ...]]) -> None:
    """Check one page of stored rows by themselves and file their values by code."""
    column = {name: list(values) for name, values in zip(POSITION_COLUMNS, zip(*rows, strict=True), strict=True)}
    codes, texts, players, results = column["code"], column["text"], column["player"], column["result"]
    rems, degrees, bests, grundies = column["remoteness"], column["degree"], column["best_move"], column["grundy"]
    code = _ints(codes, 0, vector.code_limit - 1)
    exp = vector.expand(code)
    _require(texts.count(None) == len(texts) or vector.texts(code) == texts)  # (a large game is stored without texts)
    _require(np.array_equal(_ints(players, 0, 1), exp.player))
    _require(np.array_equal(_ints(degrees, 0, _NONE), exp.degree))
    _require(grundies.count(None) == len(grundies))  # a partisan game
    code_of = RESULT_CODES.get  # only the four result strings are known; anything else is UNDECIDED
    result = np.array([code_of(r, UNDECIDED) for r in results], dtype=np.int8)
    _require(bool((result != UNDECIDED).all()))
    missing = np.array([r is None for r in rems], dtype=bool)
    _require(np.array_equal(missing, result == DRAW))  # a draw has no remoteness, anything else has one
    rem = np.full(len(rows), -1, dtype=np.int32)
    rem[~missing] = _ints([r for r in rems if r is not None], 0, _NONE - 1)
    ids = table.label_ids
    _require(set(map(type, bests)) <= {str, type(None)})
    best = np.array([-1 if b is None else ids.setdefault(b, len(ids)) for b in bests], dtype=np.int32)
    table.result[code] = result
    table.remoteness[code] = rem
    table.best[code] = best
    table.count += len(rows)


def _check_values(table: _Table, vector: VectorRules, progress: Progress | None) -> None:
    stored = np.flatnonzero(table.result)
    for a in range(0, len(stored), CHUNK):
        code = stored[a : a + CHUNK]
        exp = vector.expand(code)
        primitive, degree, children = exp.primitive, exp.degree, exp.children
        _require(not bool(((primitive == UNDECIDED) & (degree == 0)).any()))
        _require(bool((table.result[children] != 0).all()))  # every child is stored
        try:  # the solvers' rules and tie-breaks, as the tier solver applies them
            derived = from_children(primitive, degree, table.result[children], table.remoteness[children])
        except ValueError:  # a position of a million moves: the exact pass judges it
            raise _Disagrees from None
        final = primitive != UNDECIDED
        _require(np.array_equal(np.where(final, primitive, derived.result), table.result[code]))
        _require(np.array_equal(np.where(final, 0, derived.remoteness), table.remoteness[code]))
        owners = np.flatnonzero(~final & (derived.best >= 0))  # a primitive position has no best move
        moves = (np.cumsum(degree) - degree)[owners] + derived.best[owners]
        best = np.full(len(code), -1, dtype=np.int32)
        best[owners] = [table.label_ids.get(label, -2) for label in vector.labels(code[owners], children[moves])]  # -2: no row's
        _require(np.array_equal(best, table.best[code]))
        if progress:
            progress("check", a + len(code), len(stored))


def _ints(values: list[Any], low: int, high: int) -> np.ndarray:
    """``values`` as an int64 array when every one is an integer in [low, high]."""
    _require(set(map(type, values)) <= {int})
    _require(not values or (min(values) >= low and max(values) <= high))
    return np.array(values, dtype=np.int64)


def _require(ok: bool) -> None:
    if not ok:
        raise _Disagrees
