"""The in-memory solver: enumerate, solve on arrays with the SQL solver's rules and tie-breaks, write the same rows into any sink."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..games.base import Game, TokenMoves
from ..games.vector import DRAW, LOSE, TIE, UNDECIDED, WIN, ranks_within
from ..progress import Progress
from ..store.rows import as_written, columns_except, stores_texts
from ..store.sink import Column, LabelColumn, Sink, now, null_where_negative, rows_in, scattered
from ..store.status import SOLVED
from .array_levels import Levels, reverse_moves
from .capabilities import move_lists
from .graph_arrays import GameGraph, enumerate_graph
from .protocol import Solved

#: positions written per batch
WRITE_CHUNK = 50_000
#: the position columns the rows fill, in their order (partisan games only: no grundy values)
POSITION_COLUMNS = columns_except("grundy")
#: the move columns the rows fill, in their order
MOVE_COLUMNS = ("parent", "ord", "child", "label")


@dataclass
class Solution:
    result: np.ndarray  # int8 [N], WIN/LOSE/TIE/DRAW
    remoteness: np.ndarray  # int32 [N], -1 for draws
    best: np.ndarray  # int32 [N], order of the best move, -1 for none
    progress: dict[str, Any]  # what the SQL solver leaves in game.progress


def solve(sink: Sink, game: Game, *, memory_limit: int, progress: Progress | None = None) -> Solved:
    """Enumerate, solve and write ``game`` into ``sink``, and mark it solved, all in one commit."""
    t0 = time.perf_counter()
    graph = enumerate_graph(game, memory_limit=memory_limit, progress=progress)
    t1 = time.perf_counter()
    solution = retrograde(graph, progress=progress)
    game_id = begin_fresh(sink)
    write(sink, game_id, graph, solution, tokens=move_lists(game), progress=progress)
    return finish_solved(sink, graph.positions, graph.moves, t0, t1, solution.progress)


def begin_fresh(sink: Sink) -> int:
    """The game's id in ``sink``, with no rows left of a solve begun in SQL and killed early."""
    begun = sink.begin()
    if begun.resumed:
        sink.clear(("position", "move", "token_board", "token_move"))
    return begun.id


def finish_solved(sink: Sink, positions: int, moves: int, t0: float, t1: float, progress: dict[str, Any]) -> Solved:
    """Mark the game solved in ``sink`` (enumerated from ``t0`` to ``t1``, solved and written since), in the one commit."""
    sink.finish(
        status=SOLVED,
        positions=positions,
        moves=moves,
        enumerate_seconds=round(t1 - t0, 3),
        solve_seconds=round(time.perf_counter() - t1, 3),
        solved_at=now(),
        progress=progress,
    )
    return Solved(positions, moves)


# --- 2. retrograde analysis --------------------------------------------------------------


def retrograde(graph: GameGraph, *, progress: Progress | None = None) -> Solution:
    """Result, remoteness and best move of every position, level by level like the SQL solver."""
    n = graph.positions
    degree = graph.degree
    parent_of_move = np.repeat(np.arange(n, dtype=graph.child.dtype), degree)
    order_of_move = ranks_within(degree).astype(np.int32)
    # reverse CSR: the moves into each position, grouped by child
    result = graph.primitive.copy()
    remoteness = np.where(result != UNDECIDED, 0, -1).astype(np.int32)
    best = np.full(n, -1, dtype=np.int32)
    levels = Levels(result, remoteness, best, degree.astype(np.int32), reverse_moves(graph.child, parent_of_move, order_of_move, n))

    winlose_levels = _level_by_level(levels.win_lose, np.flatnonzero((result == WIN) | (result == LOSE)), "win/lose levels", progress)
    t = _level_by_level(levels.ties, np.flatnonzero(result == TIE), "tie levels", progress)
    del levels  # the reverse moves

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


def _level_by_level(step: Callable[[np.ndarray, int], np.ndarray], frontier: np.ndarray, phase: str, progress: Progress | None) -> int:
    """Run ``step`` (level k's frontier -> level k+1's) from ``frontier`` until a level decides nothing; the number of levels."""
    k = 0
    while True:
        frontier = step(frontier, k)
        k += 1
        if progress:
            progress(phase, k, None)
        if not len(frontier):
            return k


# --- 3. the rows ----------------------------------------------------------------------------------


def write(sink: Sink, game_id: int, graph: GameGraph, solution: Solution, *, tokens: TokenMoves | None = None, progress: Progress | None = None) -> None:
    """Append every position and move row (a two-token game: its move lists) to ``sink`` in primary-key order, a chunk at a time."""
    order = np.argsort(graph.codes, kind="stable")
    loads = [("position", graph.positions, position_columns(graph, solution, order))]
    if tokens is None:
        loads.append(("move", graph.moves, move_columns(graph, order)))
    else:
        board, moves = token_rows(game_id, tokens)
        sink.rows("token_board", board)
        sink.rows("token_move", moves)
    total = sum(count for _, count, _ in loads)
    written = 0
    if progress:
        progress("write", 0, total)
    for table, count, chunks in loads:
        with sink.loading(table, count):
            for columns in chunks:
                sink.columns(table, columns)
                written += rows_in(columns)
                if progress:
                    progress("write", written, total)


def position_columns(graph: GameGraph, solution: Solution, order: np.ndarray) -> Iterator[dict[str, Column]]:
    """The position rows in code order (``order``: the positions by code), a chunk at a time."""
    codes, offset = graph.codes, graph.offset
    texts_stored = stores_texts(graph.positions) or graph.vector is None  # (a graph without array rules keeps its texts)
    for a in range(0, graph.positions, WRITE_CHUNK):
        idx = order[a : a + WRITE_CHUNK]
        pcodes = codes[idx]
        texts: list[str] | None = None
        if texts_stored and graph.vector is not None:
            texts = graph.vector.texts(pcodes)
        elif texts_stored:
            assert graph.texts is not None  # a graph without array rules keeps its texts
            texts = [graph.texts[i] for i in idx.tolist()]
        best = solution.best[idx]
        has_best = np.flatnonzero(best >= 0)
        best_col = scattered(len(idx), has_best, _labels(graph, idx[has_best], offset[idx[has_best]] + best[has_best]))
        remoteness = solution.remoteness[idx]
        values = (pcodes, texts, graph.player[idx], solution.result[idx], null_where_negative(remoteness), offset[idx + 1] - offset[idx], best_col)
        yield as_written(dict(zip(POSITION_COLUMNS, values, strict=True)), texts_stored)


def move_columns(graph: GameGraph, order: np.ndarray) -> Iterator[dict[str, Column]]:
    """The move rows of the same chunks of positions, in (parent code, order) order."""
    codes, offset = graph.codes, graph.offset
    for a in range(0, graph.positions, WRITE_CHUNK):
        idx = order[a : a + WRITE_CHUNK]
        starts, lengths = offset[idx], offset[idx + 1] - offset[idx]
        within = ranks_within(lengths)
        moves = np.repeat(starts, lengths) + within
        parent_idx = np.repeat(idx, lengths)
        yield dict(zip(MOVE_COLUMNS, (codes[parent_idx], within, codes[graph.child[moves]], _labels(graph, parent_idx, moves)), strict=True))


def _labels(graph: GameGraph, parents: np.ndarray, moves: np.ndarray) -> list[str] | LabelColumn:
    """Labels of the moves ``moves`` (indices into the move table) of positions ``parents``: a graph without array rules
    keeps them as ids into its list of labels."""
    if graph.vector is not None:
        return graph.vector.labels(graph.codes[parents], graph.codes[graph.child[moves]])
    assert graph.label_ids is not None  # a graph without array rules keeps its labels
    return LabelColumn(graph.label_ids[moves].astype(np.int32), graph.label_names)


def token_labels(tokens: TokenMoves) -> Callable[[np.ndarray, np.ndarray], LabelColumn]:
    """``labels(codes, orders)``: the label of move ``orders[i]`` of position ``codes[i]``, read from the game's move
    lists: indices into the list of their distinct labels (no Python object per position; a store that looks the ids up
    in the list does so for every batch of rows: cat-mouse's 7,999 moves to 1,000 nodes, 0.04 s less of DuckDB's CPU
    for 2·10^6 best moves than one label a move)."""
    nodes = tokens.nodes
    player, node, _, _, label = zip(*sorted(tokens.rows), strict=True) if tokens.rows else ((),) * 5  # (by column: 4.6 -> 1.5 ms for 8,000 moves)
    offset = np.searchsorted(np.array(player, dtype=np.int64) * nodes + np.array(node, dtype=np.int64), np.arange(2 * nodes + 1))
    names = list(dict.fromkeys(label))  # (in the order first met)
    index = {name: i for i, name in enumerate(names)}
    name_of_move = np.array([index[name] for name in label], dtype=np.int32)

    def labels(codes: np.ndarray, orders: np.ndarray) -> LabelColumn:
        player, pair = codes & 1, codes >> 1
        node = np.where(player == 0, pair // nodes, pair % nodes)  # the token of the player to move
        return LabelColumn(name_of_move[offset[player * nodes + node] + orders], names)

    return labels


def token_rows(game_id: int, tokens: TokenMoves) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A two-token game's move lists as rows: its ``token_board`` row and its ``token_move`` rows."""
    board = [{"game_id": game_id, "nodes": tokens.nodes}]
    moves = [{"game_id": game_id, "player": p, "node": a, "ord": o, "target": b, "label": label} for p, a, o, b, label in tokens.rows]
    return board, moves
