"""A fast first pass of ``verify`` on numpy arrays, for families with vector rules: the stored rows sorted by code, children
found by binary search (sparse codes and one row per symmetry class alike). A tier family's rows too many to hold at once
are spilled to files by tier and checked a tier at a time, with the tiers its moves reach."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import numpy as np
import sqlalchemy as sa

from ..games.tier_rules import TierArrayRules
from ..games.vector import DRAW, UNDECIDED, VectorRules
from ..progress import Progress
from ..sizes import default_memory_limit, human_size
from ..store.disk_full import DiskFull, is_disk_full
from ..store.rows import POSITION_COLUMNS, position_select
from .tier_values import from_children
from .vector_pages import Column, Disagrees, by_code, ints, nulls, objects, page_columns, require, result_codes, row_numbers

#: bytes per stored row held while checking (code, result, remoteness, best move id)
BYTES_PER_ROW = 8 + 1 + 4 + 4
#: codes per stored row up to which children are found by an array indexed by code (when it fits too)
DENSE_CODES_PER_ROW = 2
#: rows read, and positions expanded, at a time
CHUNK = 100_000
#: larger than any remoteness (an int32 array holds them)
_NONE = np.iinfo(np.int32).max

#: pages of plain driver tuples in POSITION_COLUMNS order (unpacked by _read_page)
_ROWS = position_select("game_id = ? AND code > ? ORDER BY code LIMIT ?")
#: a DuckDB page: the rows of a range of row numbers (written in code order), as the readers select them, put in code
#: order here (ORDER BY there took 0.14 s a page of 5x6's file, the page without it 0.013 s)
_ROW_RANGE_WHERE = "game_id = ? AND rowid >= ? AND rowid < ?"
#: the game's move labels: name, id
_LABELS = "SELECT name, id FROM move_label WHERE game_id = ?"
#: the same with the result as its stored code: no Python object per row (the best move, on every back end: its label's id)
_ROW_RANGE_TYPED = f"SELECT {', '.join(POSITION_COLUMNS)} FROM position WHERE {_ROW_RANGE_WHERE}"


def fits(rows: int | None, memory_limit: int | None = None) -> bool:
    """Whether the arrays of this pass for ``rows`` stored positions (None: not known) fit in the memory limit (half the
    memory available: Connect-Four 5x6's 522,196,933 classes take 8.9 GB of a 24 GB machine's 11 GB)."""
    limit = memory_limit if memory_limit is not None else default_memory_limit()
    return rows is not None and rows * BYTES_PER_ROW <= limit


def applies(rows: int | None, vector: VectorRules) -> bool:
    """Whether this pass can take a game of ``rows`` stored positions: all of them in memory at once, or (rules with tiers)
    a tier and those its moves reach at a time, the rows spilled to files by tier first."""
    return rows is not None and (fits(rows) or isinstance(vector, TierArrayRules))


def all_agree(conn: sa.Connection, game_id: int, vector: VectorRules, *, total: int, symmetric: bool = False,
              progress: Progress | None = None, spill_beside: Path | None = None) -> int | None:
    """The number of stored positions when every one agrees with the rules and its children, else None; ``symmetric``:
    one row per class, children looked up by their canonical code (``vector.canonical``). A game whose rows do not
    :func:`fit` in memory is checked a tier at a time (rules with tiers), its rows spilled to a temporary folder beside
    the file ``spill_beside`` (None: in the temporary folder); else it is left to the exact pass (None)."""
    # A complete check with remoteness, loopy games too: a stored win needs a child stored lost one level down, a stored
    # loss needs every child stored won, so by induction on remoteness every stored value is the game's; the rest are draws.
    canonical = vector.canonical if symmetric else None
    if symmetric and canonical is None:
        return None
    try:
        if fits(total):
            table = _Table(total)
            _read(conn, game_id, vector, total, progress, table)
            table.index_dense(vector.code_limit, default_memory_limit() - total * BYTES_PER_ROW)
            _check_values(table, table.values, vector, canonical, progress, (0, total))
            return table.count
        if not isinstance(vector, TierArrayRules):
            return None
        return _agree_by_tiers(conn, game_id, vector, total, canonical, progress, spill_beside)
    except Disagrees:
        return None


def _agree_by_tiers(
    conn: sa.Connection, game_id: int, vector: TierArrayRules, total: int, canonical: Callable[[np.ndarray], np.ndarray] | None,
    progress: Progress | None, beside: Path | None,
) -> int:
    """:func:`all_agree` for rows too many to hold: spilled by tier to a temporary folder beside the file ``beside``, then
    checked a tier at a time; the rows checked."""
    place, prefix = (None, "gamedb-verify-") if beside is None else (beside.parent, f".{beside.name}.verify-")
    with tempfile.TemporaryDirectory(prefix=prefix, dir=place) as folder:
        spill = _Spill(Path(folder), vector)
        try:
            _read(conn, game_id, vector, total, progress, spill)
        except OSError as exc:
            if not is_disk_full(exc, Path(folder), total * BYTES_PER_ROW):
                raise
            raise DiskFull(
                f"no space left on device while verify spilled the rows to {folder} to check them a tier at a time (it needs "
                f"about {human_size(total * BYTES_PER_ROW)} there; the folder was removed): free space on that disk and run it again"
            ) from None
        finally:
            spill.close()
        return _check_by_tiers(spill, vector, canonical, progress)


class _Table:
    """What is stored, in code order: code, result, remoteness (-1: none), best move label id (-1: none)."""

    def __init__(self, rows: int):
        self.code = np.zeros(rows, dtype=np.int64)
        self.result = np.zeros(rows, dtype=np.int8)
        self.remoteness = np.full(rows, -1, dtype=np.int32)
        self.best = np.full(rows, -1, dtype=np.int32)
        self.label_ids: dict[str, int] = {}
        self.count = 0
        self.row_of: np.ndarray | None = None

    def index_dense(self, code_limit: int, spare: int) -> None:
        """Find rows through an array indexed by code (4 bytes a code) when the codes are dense and it fits in ``spare``
        bytes: no binary search."""
        if code_limit <= DENSE_CODES_PER_ROW * self.count and code_limit * 4 <= spare:
            self.row_of = np.full(code_limit, -1, dtype=np.int32)
            self.row_of[self.code[: self.count]] = np.arange(self.count, dtype=np.int32)

    @classmethod
    def of(cls, code: np.ndarray, result: np.ndarray, remoteness: np.ndarray, best: np.ndarray) -> _Table:
        """A table of these columns (code order), as they are."""
        table = cls(0)
        table.code, table.result, table.remoteness, table.best, table.count = code, result, remoteness, best, len(code)
        return table

    @property
    def last(self) -> int | None:
        return int(self.code[self.count - 1]) if self.count else None

    def add(self, code: np.ndarray, result: np.ndarray, remoteness: np.ndarray, best: np.ndarray) -> None:
        """File a page's values after those filed."""
        at = slice(self.count, self.count + len(code))
        require(at.stop <= len(self.code))
        self.code[at], self.result[at], self.remoteness[at], self.best[at] = code, result, remoteness, best
        self.count += len(code)

    def values(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The stored result and remoteness of every code in ``codes`` (all stored, else the exact pass judges)."""
        found = self.find(codes)
        return self.result[found], self.remoteness[found]

    def find(self, codes: np.ndarray) -> np.ndarray:
        """The row of every code in ``codes``; not all stored: the exact pass judges."""
        if self.row_of is not None:
            require(not len(codes) or (int(codes.min()) >= 0 and int(codes.max()) < len(self.row_of)))
            rows: np.ndarray = self.row_of[codes]
            require(bool((rows >= 0).all()))
            return rows
        require(self.count > 0 or not len(codes))
        at = np.minimum(np.searchsorted(self.code[: self.count], codes), self.count - 1)
        require(bool((self.code[at] == codes).all()))
        found: np.ndarray = at
        return found


def _read(conn: sa.Connection, game_id: int, vector: VectorRules, total: int, progress: Progress | None, table: _Table | _Spill) -> None:
    """Every stored row read, page by page, checked by itself and filed into ``table``."""
    # plain tuples from the driver's cursor (no result-row objects for millions of rows); DuckDB's typed columns as arrays
    duck = conn.dialect.name == "duckdb"
    sql = _ROWS if conn.dialect.paramstyle == "qmark" else _ROWS.replace("?", "%s")
    driver = conn.connection.driver_connection
    assert driver is not None  # an open connection
    with closing(driver.cursor()) as cursor:
        cursor.execute(_LABELS if duck or conn.dialect.paramstyle == "qmark" else _LABELS.replace("?", "%s"), (game_id,))
        table.label_ids = {name: i for name, i in cursor.fetchall() if type(name) is str and type(i) is int}
        if duck:  # pages by row number: each a range of the table, where one by code and LIMIT scans the rest of it
            for first in range(0, row_numbers(cursor, game_id), CHUNK):
                cursor.execute(_ROW_RANGE_TYPED, (game_id, first, first + CHUNK))
                columns = by_code(cursor.fetchnumpy())
                if len(columns["code"]):  # (the order by code across pages is checked: a file written otherwise is the exact pass's)
                    _read_page(table, vector, columns)
                    if progress:
                        progress("read", table.count, total)
            require(table.count == total)
            return
        after = -1
        while True:
            cursor.execute(sql, (game_id, after, CHUNK))
            columns = page_columns(cursor.fetchall())
            if not len(columns["code"]):
                require(table.count == total)
                return
            _read_page(table, vector, columns)
            after = int(columns["code"][-1])
            if progress:
                progress("read", table.count, total)


def _read_page(table: _Table | _Spill, vector: VectorRules, column: dict[str, Column]) -> None:
    """Check one page of stored columns by themselves and file their values by code."""
    codes, texts, players = column["code"], objects(column["text"]), column["player"]
    rems, degrees, grundies = column["remoteness"], column["degree"], column["grundy"]
    code = ints(codes, 0, vector.code_limit - 1)
    last = table.last
    require(bool((np.diff(code) > 0).all()) and (last is None or not len(code) or code[0] > last))
    exp = vector.expand(code)
    # (a large game is stored without texts; a text made of moves, the least sequence, is the exact pass's to check)
    require(texts.count(None) == len(texts) or (not (isinstance(vector, TierArrayRules) and vector.path_texts) and vector.texts(code) == texts))
    require(np.array_equal(ints(players, 0, 1), exp.player))
    require(np.array_equal(ints(degrees, 0, _NONE), exp.degree))
    require(bool(nulls(grundies).all()))  # a partisan game
    result = result_codes(column["result"])
    require(bool((result != UNDECIDED).all()))
    missing = nulls(rems)
    require(np.array_equal(missing, result == DRAW))  # a draw has no remoteness, anything else has one
    rem = np.full(len(code), -1, dtype=np.int32)
    rem[~missing] = ints(np.ma.getdata(rems)[~missing] if isinstance(rems, np.ndarray) else [r for r in rems if r is not None], 0, _NONE - 1)
    table.add(code, result, rem, _best_ids(table, column["best_move"]))


#: a tier's spilled columns: (name, type)
_SPILLED = (("code", np.int64), ("result", np.int8), ("remoteness", np.int32), ("best", np.int32))


class _Spill:
    """The stored values filed by tier into files of a folder (each tier's in code order), for a game too large to hold."""

    def __init__(self, folder: Path, vector: TierArrayRules) -> None:
        self.folder, self.vector = folder, vector
        self.label_ids: dict[str, int] = {}
        self.last: int | None = None
        self.sizes: dict[int, int] = {}  # rows by tier
        self._files: dict[tuple[int, str], Any] = {}

    def add(self, code: np.ndarray, result: np.ndarray, remoteness: np.ndarray, best: np.ndarray) -> None:
        if not len(code):
            return
        tiers = self.vector.tiers(code)
        order = np.argsort(tiers, kind="stable")  # (each tier's rows together, in code order: one gather a column)
        grouped = [np.ascontiguousarray(column[order], dtype=kind) for (_, kind), column in zip(_SPILLED, (code, result, remoteness, best), strict=True)]
        found, starts = np.unique(tiers[order], return_index=True)
        for t, a, b in zip(found.tolist(), starts.tolist(), [*starts[1:].tolist(), len(code)], strict=True):
            for (name, _), column in zip(_SPILLED, grouped, strict=True):
                key = (t, name)
                if key not in self._files:
                    self._files[key] = open(self.folder / f"{t}.{name}", "ab")  # noqa: SIM115  (closed by close())
                self._files[key].write(column[a:b].tobytes())
            self.sizes[t] = self.sizes.get(t, 0) + b - a
        self.last = int(code[-1])

    @property
    def count(self) -> int:
        return sum(self.sizes.values())

    def close(self) -> None:
        for f in self._files.values():
            f.close()
        self._files = {}

    def load(self, t: int) -> _Table:
        """Tier ``t``'s values, read back (the best moves by the ids of the labels read)."""
        table = _Table.of(*(np.fromfile(self.folder / f"{t}.{name}", dtype=kind) for name, kind in _SPILLED))
        table.label_ids = self.label_ids
        return table


def _check_by_tiers(spill: _Spill, vector: TierArrayRules, canonical: Callable[[np.ndarray], np.ndarray] | None, progress: Progress | None) -> int:
    """Check the spilled rows a tier at a time, the last first, the tiers its moves reach held beside it; the rows checked."""
    reached, done = _Reached(spill, vector), 0
    for t in sorted(spill.sizes, reverse=True):
        table = reached.own(t)
        _check_values(table, reached.values, vector, canonical, progress, (done, spill.count))
        done += table.count
    return done


class _Reached:
    """The spilled tiers held in memory: the one being checked and those its moves reach, loaded as they are reached; the
    highest dropped first when the memory limit would be passed (a tier and those it reaches must fit, else the exact
    pass judges)."""

    def __init__(self, spill: _Spill, vector: TierArrayRules) -> None:
        self.spill, self.vector, self.limit = spill, vector, default_memory_limit()
        self.held: dict[int, _Table] = {}
        self.checking: int | None = None

    def own(self, t: int) -> _Table:
        self.checking = t
        return self._load(t)

    def _load(self, t: int) -> _Table:
        if t not in self.held:
            sizes = self.spill.sizes
            while self.held and (sizes[t] + sum(sizes[u] for u in self.held)) * BYTES_PER_ROW > self.limit:
                droppable = [u for u in self.held if u != self.checking]
                require(bool(droppable))
                del self.held[max(droppable)]
            require(sizes[t] * BYTES_PER_ROW <= self.limit)
            self.held[t] = self.spill.load(t)
        return self.held[t]

    def values(self, children: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        result, remoteness = np.zeros(len(children), dtype=np.int8), np.zeros(len(children), dtype=np.int32)
        tiers = self.vector.tiers(children)
        for u in np.unique(tiers).tolist():
            require(u in self.spill.sizes)  # (a tier no row is in: a child not stored)
            mine = tiers == u
            result[mine], remoteness[mine] = self._load(u).values(children[mine])
        return result, remoteness


def _best_ids(table: _Table | _Spill, bests: Column) -> np.ndarray:
    """The best move of each row of a page, a label id stored (-1: none), each one of ``table.label_ids``."""
    if isinstance(bests, np.ndarray) and bests.dtype.kind in "iu":  # (DuckDB's typed column)
        stored, ids = ~np.ma.getmaskarray(bests), np.ma.getdata(bests).astype(np.int64)
    else:
        found = objects(bests)
        require(set(map(type, found)) <= {int, type(None)})
        stored = np.array([b is not None for b in found], dtype=bool)
        ids = np.array([-1 if b is None else b for b in found], dtype=np.int64)
    known = np.fromiter(table.label_ids.values(), dtype=np.int64, count=len(table.label_ids))
    require(bool(np.isin(ids[stored], known).all()))  # (an id none of the game's labels has)
    return np.where(stored, ids, -1).astype(np.int32)


def _check_values(
    table: _Table, values: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]], vector: VectorRules,
    canonical: Callable[[np.ndarray], np.ndarray] | None, progress: Progress | None, done: tuple[int, int],
) -> None:
    """Check every row of ``table`` against its children's stored values (``values``: their result and remoteness by
    code); ``done``: rows checked before it and in all, for the progress."""
    for a in range(0, table.count, CHUNK):
        rows = slice(a, min(a + CHUNK, table.count))
        code = table.code[rows]
        require(canonical is None or np.array_equal(canonical(code), code))  # a class is stored by its least code
        exp = vector.expand(code)
        primitive, degree, children = exp.primitive, exp.degree, exp.children  # the moves as played: their labels
        child_result, child_remoteness = values(children if canonical is None else canonical(children))  # every child (its class) is stored
        require(not bool(((primitive == UNDECIDED) & (degree == 0)).any()))
        try:  # the solvers' rules and tie-breaks, as the tier solver applies them
            derived = from_children(primitive, degree, child_result, child_remoteness)
        except ValueError:  # a position of a million moves: the exact pass judges it
            raise Disagrees from None
        final = primitive != UNDECIDED
        require(np.array_equal(np.where(final, primitive, derived.result), table.result[rows]))
        require(np.array_equal(np.where(final, 0, derived.remoteness), table.remoteness[rows]))
        owners = np.flatnonzero(~final & (derived.best >= 0))  # a primitive position has no best move
        moves = (np.cumsum(degree) - degree)[owners] + derived.best[owners]
        best = np.full(len(code), -1, dtype=np.int32)
        best[owners] = _label_ids(table, vector, code[owners], children[moves])
        require(np.array_equal(best, table.best[rows]))
        if progress:
            progress("check", done[0] + rows.stop, done[1])


def _label_ids(table: _Table | _Spill, vector: VectorRules, parents: np.ndarray, children: np.ndarray) -> np.ndarray:
    """The id in ``table.label_ids`` of each move's label (-2: no row's), by the rules' label ids where they have a table of
    labels (Connect-Four's), else label by label."""
    if isinstance(vector, TierArrayRules) and vector.label_table:
        ids: np.ndarray = np.array([table.label_ids.get(label, -2) for label in vector.label_table], dtype=np.int32)[vector.label_ids(parents, children)]
        return ids
    return np.array([table.label_ids.get(label, -2) for label in vector.labels(parents, children)], dtype=np.int32)


