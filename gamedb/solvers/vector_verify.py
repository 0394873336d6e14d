"""A fast first pass of ``verify`` on numpy arrays, for families with vector rules."""

from __future__ import annotations

from contextlib import closing
from typing import Any

import numpy as np
import sqlalchemy as sa

from ..games.vector import DRAW, LOSE, RESULT_CODES, TIE, UNDECIDED, WIN, VectorRules
from ..progress import Progress
from ..store.rows import POSITION_COLUMNS, position_select
from ..store.tuning import default_memory_limit

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
    _require(vector.texts(code) == texts)
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
        degree = exp.degree
        _require(not bool(((exp.primitive == UNDECIDED) & (degree == 0)).any()))
        children = exp.children
        _require(bool((table.result[children] != 0).all()))  # every child is stored
        cres = table.result[children]
        crem = table.remoteness[children]
        result, remoteness = _values(exp.primitive, degree, cres, crem)
        _require(np.array_equal(result, table.result[code]) and np.array_equal(remoteness, table.remoteness[code]))
        _require(np.array_equal(_best_labels(vector, table, code, children, degree, result, remoteness, cres, crem), table.best[code]))
        if progress:
            progress("check", a + len(code), len(stored))


def _values(primitive: np.ndarray, degree: np.ndarray, cres: np.ndarray, crem: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Result and remoteness (-1: none) of each position from its children's, as ``value_from_children``."""
    result = primitive.copy()
    remoteness = np.where(primitive != UNDECIDED, 0, -1).astype(np.int32)
    inner = np.flatnonzero(primitive == UNDECIDED)  # each has at least one move (checked)
    if not len(inner):
        return result, remoteness
    moving = np.flatnonzero(degree > 0)  # reduceat needs segments that are not empty
    starts = (np.cumsum(degree) - degree)[moving]

    def per_position(ufunc: np.ufunc, values: np.ndarray) -> np.ndarray:
        out = np.zeros(len(degree), dtype=values.dtype)
        out[moving] = ufunc.reduceat(values, starts)
        return out[inner]

    min_lose = per_position(np.minimum, np.where(cres == LOSE, crem, _NONE))
    all_win = per_position(np.minimum, (cres == WIN).astype(np.int8)).astype(bool)
    max_rem = per_position(np.maximum, crem)
    min_tie = per_position(np.minimum, np.where(cres == TIE, crem, _NONE))
    win, tie = min_lose < _NONE, min_tie < _NONE
    lose = ~win & all_win
    tie &= ~win & ~lose
    res = np.full(len(inner), DRAW, dtype=np.int8)
    rem = np.full(len(inner), -1, dtype=np.int32)
    res[win], rem[win] = WIN, min_lose[win] + 1
    res[lose], rem[lose] = LOSE, max_rem[lose] + 1
    res[tie], rem[tie] = TIE, min_tie[tie] + 1
    result[inner], remoteness[inner] = res, rem
    return result, remoteness


def _best_labels(
    vector: VectorRules,
    table: _Table,
    code: np.ndarray,
    children: np.ndarray,
    degree: np.ndarray,
    result: np.ndarray,
    remoteness: np.ndarray,
    cres: np.ndarray,
    crem: np.ndarray,
) -> np.ndarray:
    """Label id of each position's best move (-1: none): its first move to a child of the wanted value."""
    parent = np.repeat(np.arange(len(code)), degree)
    wanted = np.array([0, LOSE, WIN, TIE, DRAW], dtype=np.int8)[result]  # by the position's result
    ok = (cres == wanted[parent]) & ((result[parent] == DRAW) | (crem == remoteness[parent] - 1))
    moves = np.flatnonzero(ok)
    owners, first = np.unique(parent[moves], return_index=True)
    best = np.full(len(code), -1, dtype=np.int32)
    ids = table.label_ids
    labels = vector.labels(code[owners], children[moves[first]])
    best[owners] = [ids.get(label, -2) for label in labels]  # -2: a label no row stores, never equal
    return best


def _ints(values: list[Any], low: int, high: int) -> np.ndarray:
    """``values`` as an int64 array when every one is an integer in [low, high]."""
    _require(set(map(type, values)) <= {int})
    _require(not values or (min(values) >= low and max(values) <= high))
    return np.array(values, dtype=np.int64)


def _require(ok: bool) -> None:
    if not ok:
        raise _Disagrees
