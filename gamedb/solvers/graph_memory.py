"""The in-memory engine: enumerate and solve on numpy arrays, then write the tables once.

For a game that fits in memory this is much faster than the SQL engine
(:mod:`gamedb.solvers.graph_sql`), and it writes exactly the same ``position`` and
``move`` rows (a test compares them row by row):

1. Enumerate breadth first from the start. A family with a fast path
   (:class:`~gamedb.games.vector.VectorRules`) expands a whole depth with a
   few array operations; any other family is expanded one position at a
   time with :meth:`Game.expand <gamedb.games.base.Game.expand>`. Positions
   get indices in discovery order; moves are kept as a CSR table (the moves
   of position ``i`` are ``offset[i]:offset[i+1]``, in the family's order).
2. Retrograde analysis level by level with the SQL engine's exact rules and
   tie-breaks (see :mod:`gamedb.solvers.graph_sql`): each level gathers the parents of
   the frontier through a reverse CSR table; win = first move (lowest order)
   to a ``lose`` child of the level, lose when the counter of moves to ``win``
   children reaches zero (best move: first move into the level), then ties,
   then draws (best move: first move to a drawing child).
3. Write the position rows (ordered by code) and the move rows in one
   transaction: a killed solve leaves no rows and simply starts again.

Memory is checked while enumerating against a budget; a game that outgrows
it raises :class:`TooLarge` before anything is written, and the caller
falls back to the SQL engine, whose memory stays bounded.
"""

from __future__ import annotations

import time
from array import array
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import sqlalchemy as sa

from . import token_moves
from ..errors import GamedbError
from ..games.base import Game, TokenMoves
from ..games.vector import DRAW, LOSE, RESULT_CODES, RESULT_NAMES, TIE, UNDECIDED, WIN, VectorRules, check_moves, ranks_within, stuck_error
from ..store.bulk import copy_rows, indexes_built_after
from ..store.schema import move, position
from ..store.tuning import default_memory_limit

Progress = Callable[[str, int, "int | None"], None]

#: bytes of memory per position and per move while solving (measured on
#: cat-mouse and Connect-Four with some margin); text is counted apart
BYTES_PER_POSITION = 120
BYTES_PER_MOVE = 48
#: extra bytes per position of the one-position-at-a-time enumeration (dict, ints, text object)
BYTES_PER_PYTHON_POSITION = 200

#: rows per executemany while writing
WRITE_CHUNK = 50_000
#: positions expanded at once by a family's vector rules
EXPAND_CHUNK = 16_384


class TooLarge(GamedbError):
    """The game does not fit the memory budget of the in-memory engine."""


@dataclass
class GameGraph:
    """Every reachable position of a game and its moves, as arrays (index = discovery order)."""

    codes: np.ndarray  # int64 [N]
    player: np.ndarray  # int8 [N]
    primitive: np.ndarray  # int8 [N], UNDECIDED or WIN/LOSE/TIE
    offset: np.ndarray  # int64 [N+1], moves of i: offset[i]:offset[i+1]
    child: np.ndarray  # int32/int64 [M], index of the child of every move
    vector: VectorRules | None = None
    texts: list[str] | None = None  # per position, when there is no vector path
    label_ids: np.ndarray | None = None  # int32 [M], index into label_names
    label_names: list[str] = field(default_factory=list)

    @property
    def positions(self) -> int:
        return len(self.codes)

    @property
    def moves(self) -> int:
        return len(self.child)

    @property
    def degree(self) -> np.ndarray:
        return np.diff(self.offset)


@dataclass
class Solution:
    result: np.ndarray  # int8 [N], WIN/LOSE/TIE/DRAW
    remoteness: np.ndarray  # int32 [N], -1 for draws
    best: np.ndarray  # int32 [N], order of the best move, -1 for none
    progress: dict  # what the SQL engine leaves in game.progress


def estimate_bytes(positions: int, moves: int, text_bytes: int = 0) -> int:
    """Memory the in-memory engine needs for a game of this size."""
    return positions * BYTES_PER_POSITION + moves * BYTES_PER_MOVE + text_bytes


def estimate_game_bytes(game: Game, positions: int, moves: int) -> int:
    """Memory the in-memory engine needs for ``game`` with this many positions and moves,
    counted as the enumeration counts it (the position texts, unknown before, aside)."""
    need = estimate_bytes(positions, moves)
    if game.vector() is None:
        need += positions * BYTES_PER_PYTHON_POSITION
    return need


# --- 1. enumeration ------------------------------------------------------------------------


def enumerate_graph(game: Game, *, memory_limit: int, progress: Progress | None = None) -> GameGraph:
    """Every position reachable from the start, with its moves; :class:`TooLarge` over budget."""
    vector = game.vector()
    if vector is not None:
        return _enumerate_vector(game, vector, memory_limit, progress)
    return _enumerate_python(game, memory_limit, progress)


def _enumerate_vector(game: Game, vector: VectorRules, memory_limit: int, progress) -> GameGraph:
    frontier = np.unique(np.array([game.encode(state) for state in game.starts()], dtype=np.int64))
    seen = np.zeros(vector.code_limit, dtype=bool)
    seen[frontier] = True
    parts = []  # (codes, expansion) per depth
    n_pos = n_mov = 0
    while len(frontier):
        found = []
        for a in range(0, len(frontier), EXPAND_CHUNK):  # a few thousand positions at a time: the budget holds
            page = frontier[a : a + EXPAND_CHUNK]
            exp = vector.expand(page)
            check_moves(game, page, exp.primitive, exp.degree)
            parts.append((page, exp))
            n_pos += len(page)
            n_mov += len(exp.children)
            if estimate_bytes(n_pos, n_mov) > memory_limit:
                raise TooLarge(f"more than {n_pos:,} positions and {n_mov:,} moves do not fit in {memory_limit:,} bytes")
            fresh = exp.children[~seen[exp.children]]  # most children are known: drop them before the sort
            fresh = np.unique(fresh)
            seen[fresh] = True
            found.append(fresh)
            if progress:
                progress("enumerate", n_pos, None)
        frontier = np.sort(np.concatenate(found))
    del seen
    codes = np.concatenate([c for c, _ in parts])
    index = np.zeros(vector.code_limit, dtype=np.int32 if len(codes) < 2**31 else np.int64)
    index[codes] = np.arange(len(codes), dtype=index.dtype)
    child = index[np.concatenate([e.children for _, e in parts])]
    del index
    degree = np.concatenate([e.degree for _, e in parts])
    return GameGraph(
        codes=codes,
        player=np.concatenate([e.player for _, e in parts]),
        primitive=np.concatenate([e.primitive for _, e in parts]),
        offset=np.concatenate(([0], np.cumsum(degree))).astype(np.int64),
        child=child,
        vector=vector,
    )


def _enumerate_python(game: Game, memory_limit: int, progress) -> GameGraph:
    codes = list(dict.fromkeys(game.encode(state) for state in game.starts()))
    index = {code: i for i, code in enumerate(codes)}
    players = bytearray()
    prims = bytearray()
    degree = array("q")
    texts: list[str] = []
    text_bytes = 0
    child = array("q")
    label_ids = array("i")
    label_of: dict[str, int] = {}
    label_names: list[str] = []
    prim_codes = RESULT_CODES
    expand = game.expand
    i = 0
    while i < len(codes):
        code = codes[i]
        player, text, prim, moves = expand(code)
        if prim is None and not moves:
            raise stuck_error(game, text)
        players.append(player)
        prims.append(prim_codes[prim] if prim is not None else UNDECIDED)
        degree.append(len(moves))
        texts.append(text)
        text_bytes += len(text)
        for label, c in moves:
            lid = label_of.get(label)
            if lid is None:
                lid = label_of[label] = len(label_names)
                label_names.append(label)
            label_ids.append(lid)
            j = index.get(c)
            if j is None:
                j = index[c] = len(codes)
                codes.append(c)
            child.append(j)
        i += 1
        if not i & 0xFFFF or i == len(codes):
            need = estimate_bytes(len(codes), len(child), text_bytes) + len(codes) * BYTES_PER_PYTHON_POSITION
            if need > memory_limit:
                raise TooLarge(f"more than {len(codes):,} positions and {len(child):,} moves do not fit in {memory_limit:,} bytes")
            if progress:
                progress("enumerate", i, None)
    del index
    if progress:
        progress("enumerate", len(codes), None)
    n = len(codes)
    return GameGraph(
        codes=np.array(codes, dtype=np.int64),
        player=np.frombuffer(players, dtype=np.int8).copy(),
        primitive=np.frombuffer(prims, dtype=np.int8).copy(),
        offset=np.concatenate(([0], np.cumsum(np.frombuffer(degree, dtype=np.int64)))).astype(np.int64),
        child=np.frombuffer(child, dtype=np.int64).astype(np.int32 if n < 2**31 else np.int64),
        texts=texts,
        label_ids=np.frombuffer(label_ids, dtype=np.int32).copy(),
        label_names=label_names,
    )


# --- 2. retrograde analysis --------------------------------------------------------------


def retrograde(graph: GameGraph, *, progress: Progress | None = None) -> Solution:
    """Result, remoteness and best move of every position, level by level like the SQL engine."""
    n = graph.positions
    degree = graph.degree
    parent_of_move = np.repeat(np.arange(n, dtype=graph.child.dtype), degree)
    order_of_move = ranks_within(degree).astype(np.int32)
    # reverse CSR: the moves into each position, grouped by child
    by_child = np.argsort(graph.child, kind="stable")
    rev_parent = parent_of_move[by_child]
    rev_order = order_of_move[by_child]
    del by_child
    rev_offset = np.concatenate(([0], np.cumsum(np.bincount(graph.child, minlength=n)))).astype(np.int64)
    rev = (rev_offset, rev_parent, rev_order)

    result = graph.primitive.copy()
    remoteness = np.where(result != UNDECIDED, 0, -1).astype(np.int32)
    best = np.full(n, -1, dtype=np.int32)
    counter = degree.astype(np.int32)

    def undecided_parents(children):
        """(parent, move order) of every move into ``children`` from a position not decided yet."""
        parents, orders = _parents(rev, children)
        keep = result[parents] == UNDECIDED
        return parents[keep], orders[keep]

    def decide(parents, orders, value, level):
        """Decide each of ``parents`` as ``value`` at ``level``, its best move its lowest-ordered one given."""
        decided, first = _first_move(parents, orders)
        result[decided] = value
        remoteness[decided] = level
        best[decided] = first
        return decided

    # win/lose levels
    frontier = np.flatnonzero((result == WIN) | (result == LOSE))
    k = 0
    while True:
        wins = decide(*undecided_parents(frontier[result[frontier] == LOSE]), WIN, k + 1)
        parents, orders = undecided_parents(frontier[result[frontier] == WIN])
        hit, times = np.unique(parents, return_counts=True)
        counter[hit] -= times.astype(np.int32)
        done = counter[parents] == 0
        loses = decide(parents[done], orders[done], LOSE, k + 1)

        k += 1
        frontier = np.concatenate((wins, loses))
        if progress:
            progress("win/lose levels", k, None)
        if not len(frontier):
            break
    winlose_levels = k

    # tie levels
    frontier = np.flatnonzero(result == TIE)
    t = 0
    while True:
        ties = decide(*undecided_parents(frontier), TIE, t + 1)
        t += 1
        frontier = ties
        if progress:
            progress("tie levels", t, None)
        if not len(frontier):
            break
    del rev, rev_parent, rev_order, rev_offset

    # draws: best move is the first move to a drawing child
    result[result == UNDECIDED] = DRAW
    drawing = (result[parent_of_move] == DRAW) & (result[graph.child] == DRAW)
    moves_idx = np.flatnonzero(drawing)
    draw_parents, first = np.unique(parent_of_move[moves_idx], return_index=True)
    best[draw_parents] = order_of_move[moves_idx[first]]

    return Solution(
        result=result,
        remoteness=remoteness,
        best=best,
        progress={"phase": "done", "winlose_levels": winlose_levels, "tie_levels": t},
    )


def _parents(rev, children: np.ndarray):
    """(parent, move order) of every move into ``children``."""
    rev_offset, rev_parent, rev_order = rev
    starts = rev_offset[children]
    lengths = rev_offset[children + 1] - starts
    idx = np.repeat(starts, lengths) + ranks_within(lengths)
    return rev_parent[idx], rev_order[idx]


def _first_move(parents: np.ndarray, orders: np.ndarray):
    """The distinct parents and, for each, its lowest move order."""
    if not len(parents):
        return parents, orders
    key = parents.astype(np.int64) << 32 | orders.astype(np.int64)
    key = np.unique(key)
    p = key >> 32
    first = np.concatenate(([True], p[1:] != p[:-1]))
    return p[first], (key[first] & 0xFFFFFFFF).astype(np.int32)


# --- 3. writing the tables ----------------------------------------------------------------------


def write(conn, game_id: int, graph: GameGraph, solution: Solution, *, tokens: TokenMoves | None = None, progress: Progress | None = None) -> None:
    """Insert every position and move row of ``game_id`` (inside the caller's transaction).

    Rows go in primary-key order, a chunk at a time, straight to the driver.
    A two-token game (``tokens``, :mod:`gamedb.solvers.token_moves`) keeps its move
    lists instead of the move rows.
    """
    total = graph.positions + (graph.moves if tokens is None else 0)  # rows to write
    order = np.argsort(graph.codes, kind="stable")  # rows go in primary-key order
    if progress:
        progress("write", 0, total)
    with indexes_built_after(conn, position, graph.positions):
        _write_positions(conn, game_id, graph, solution, order, total=total, progress=progress)
    if tokens is not None:  # a two-token game keeps its move lists, not a row per move
        token_moves.store(conn, game_id, tokens)
        if progress:
            progress("write", total, total)
    else:
        with indexes_built_after(conn, move, graph.moves):
            _write_moves(conn, game_id, graph, order, total=total, progress=progress)


def _write_positions(conn, game_id: int, graph: GameGraph, solution: Solution, order: np.ndarray, *, total: int, progress: Progress | None) -> None:
    columns = ("code", "text", "player", "result", "remoteness", "degree", "best_move")
    codes, offset = graph.codes, graph.offset
    names = np.array(RESULT_NAMES, dtype=object)
    n = graph.positions
    for a in range(0, n, WRITE_CHUNK):
        idx = order[a : a + WRITE_CHUNK]
        pcodes = codes[idx]
        texts = graph.vector.texts(pcodes) if graph.vector is not None else [graph.texts[i] for i in idx.tolist()]
        # columns that may be NULL are built as object arrays: None where there is no value
        best = solution.best[idx]
        has_best = best >= 0
        best_col = np.full(len(idx), None, dtype=object)
        best_col[has_best] = _labels(graph, idx[has_best], offset[idx[has_best]] + best[has_best])
        remoteness = solution.remoteness[idx]
        rem_col = remoteness.astype(object)
        rem_col[remoteness < 0] = None
        rows = zip(
            pcodes.tolist(),
            texts,
            graph.player[idx].tolist(),
            names[solution.result[idx]].tolist(),
            rem_col.tolist(),
            (offset[idx + 1] - offset[idx]).tolist(),
            best_col.tolist(),
        )
        copy_rows(conn, position, columns, rows, game_id=game_id)
        if progress:
            progress("write", a + len(idx), total)


def _write_moves(conn, game_id: int, graph: GameGraph, order: np.ndarray, *, total: int, progress: Progress | None) -> None:
    columns = ("parent", "ord", "child", "label")
    codes, offset = graph.codes, graph.offset
    n = graph.positions
    written = n
    for a in range(0, n, WRITE_CHUNK):  # the moves of the same chunks of positions, in (parent code, order) order
        idx = order[a : a + WRITE_CHUNK]
        starts, lengths = offset[idx], offset[idx + 1] - offset[idx]
        within = ranks_within(lengths)
        moves = np.repeat(starts, lengths) + within
        parent_idx = np.repeat(idx, lengths)
        rows = zip(codes[parent_idx].tolist(), within.tolist(), codes[graph.child[moves]].tolist(), _labels(graph, parent_idx, moves))
        copy_rows(conn, move, columns, rows, game_id=game_id)
        written += len(moves)
        if progress:
            progress("write", written, total)


def _labels(graph: GameGraph, parents: np.ndarray, moves: np.ndarray) -> list[str]:
    """Labels of the moves ``moves`` (indices into the move table) of positions ``parents``."""
    if graph.vector is not None:
        return graph.vector.labels(graph.codes[parents], graph.codes[graph.child[moves]])
    names = graph.label_names
    return [names[i] for i in graph.label_ids[moves].tolist()]


def solve_in_memory(
    engine: sa.Engine,
    record,
    game: Game,
    *,
    memory_limit: int | None = None,
    progress: Progress | None = None,
    prepare: Callable | None = None,
) -> tuple[int, int]:
    """Enumerate, solve and write the game of ``record`` in memory; return (positions, moves).

    The rows and the finished game row are committed together, so a killed
    solve leaves the game as it was (no rows). Raises :class:`TooLarge`,
    with nothing written, when the game outgrows ``memory_limit``.

    ``prepare(conn)``, when given, runs first inside the writing transaction
    and returns the game row to fill (``record`` may then be None): the
    caller creates the row there, so a solve that fails before it writes
    leaves no trace in the database.
    """
    from ..store import catalog
    from ..store.schema import SOLVED

    t0 = time.perf_counter()
    limit = memory_limit if memory_limit is not None else default_memory_limit()
    graph = enumerate_graph(game, memory_limit=limit, progress=progress)
    t1 = time.perf_counter()
    solution = retrograde(graph, progress=progress)
    with engine.begin() as conn:
        if prepare is not None:
            record = prepare(conn)
        write(conn, record.id, graph, solution, tokens=token_moves.of(game), progress=progress)
        t2 = time.perf_counter()
        catalog.update(
            conn,
            record,
            status=SOLVED,
            positions=graph.positions,
            moves=graph.moves,
            enumerate_seconds=round(t1 - t0, 3),
            solve_seconds=round(t2 - t1, 3),
            solved_at=catalog.now(),
            progress=solution.progress,
        )
    return graph.positions, graph.moves
