"""The ``retrograde`` strategy: a loopy game solved by levels with degree counters on flat arrays, in a memory budget.

The reachable positions are enumerated breadth first (:mod:`.retrograde_rules`), each a slot of the value arrays
(int8 result, int16 remoteness, a counter of distinct children not yet won: at most :data:`BYTES_PER_POSITION`
bytes per position, checked against the game's estimate before anything is done). Levels then follow the Gamesman
rules and tie-breaks of the other engines (:mod:`.array_levels`): from level ``k``, a parent with a child that
loses wins at ``k + 1``, one whose counter reaches zero loses at ``k + 1``; ties spread after; the rest draw. The
moves into a level come from the family's un-moves (``VectorRules.parents``), else a reverse index when it fits
the budget, else re-expansion. Rules that give primitive values alone (``VectorRules.primitive``) let the counters
leave out the moves into positions won at once, whose parents level 0 then does not visit (see :meth:`State.record`).
A last pass in code order finds each best move (the first, in move order, to a child that decides it) and writes the
rows into a sink.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import param
from ..games.base import Game
from ..games.vector import DRAW, LOSE, TIE, UNDECIDED, WIN, Expansion, MovesInOrder, VectorRules, has_in_order, has_parents, has_primitive, ranks_within
from ..progress import Progress
from ..store.rows import as_written, stores_texts
from ..store.sink import LabelColumn, Sink, null_where_negative, scattered
from . import capabilities
from .graph_solution import MOVE_COLUMNS, POSITION_COLUMNS, begin_fresh, finish_solved, token_labels, token_rows
from .protocol import Solved, TooLarge
from .retrograde_rules import (
    BLOCK,
    DENSE_CODES_PER_POSITION,
    Classes,
    OneByOne,
    ReverseIndex,
    Slots,
    by_expanding,
    by_unmoves,
    distinct_degree,
    first_of_runs,
    reachable,
)

if TYPE_CHECKING:
    import sqlalchemy as sa

    from ..store.record import GameRecord

#: memory per reachable position while solving, at most (measured: bench/loopy_vs_plain.py)
BYTES_PER_POSITION = 24
#: what a family without vector rules adds per position and per move: its expansions, kept (:class:`OneByOne`;
#: measured 880 bytes per position on a 12x12 cat-mouse-grid with jumps of 2)
BYTES_PER_PYTHON_POSITION, BYTES_PER_PYTHON_MOVE = 200, 100
#: positions expanded at once when their children are looked up (fewer, larger sorted lookups), at most, and
#: the memory budget's bytes for each (an expansion of Dōbutsu takes ~5 KB a position)
BIG_BLOCK, BYTES_PER_EXPANDED = 1 << 17, 1 << 13
#: positions written at once when codes are dense (no search to batch: fewer calls; cat-mouse's 2·10^6 rows in 2^15s
#: rather than 2^14s, 2 % less CPU for the whole process)
DENSE_WRITE_BLOCK = 1 << 15
#: children whose primitive values are worked out at once (in cache; a block's at once took twice the system time)
PRIMITIVE_CHUNK = 1 << 15
#: the child's result that decides a parent of each result
DECIDED_BY = np.zeros(max(WIN, LOSE, TIE, DRAW) + 1, dtype=np.int8)
DECIDED_BY[[WIN, LOSE, TIE, DRAW]] = [LOSE, WIN, TIE, DRAW]


@dataclass
class State:
    """The values being decided, by slot."""

    result: np.ndarray  # int8: UNDECIDED, WIN, LOSE, TIE (DRAW once the levels are done)
    remoteness: np.ndarray  # int16 (int32 past 32,766 levels), -1: not decided
    counter: np.ndarray  # uint8/16/32: distinct children not yet known to win
    moves: int = 0  # moves seen so far
    #: whether the counters leave out the moves into positions their mover wins at once (:meth:`record`): level 0 then
    #: visits none of those positions' parents, and ``lost_at_once`` positions (all of whose moves go there) lose at level 1
    wins_counted: bool = False
    lost_at_once: int = 0
    #: int32 by slot while the levels run, dense codes only (a few bytes a code: within the budget): which of a step's
    #: moves into a slot took one off its counter (:func:`count_down`; None: they are sorted)
    marks: np.ndarray | None = None

    @classmethod
    def empty(cls, size: int) -> State:
        return cls(np.zeros(size, dtype=np.int8), np.full(size, -1, dtype=np.int16), np.zeros(size, dtype=np.uint8))

    def record(self, slots: np.ndarray, exp: Expansion, find: Callable[[np.ndarray], np.ndarray], index: ReverseIndex | None,
               primitive: Callable[[np.ndarray], np.ndarray] | None = None, *, distinct: bool = False) -> None:
        """Primitive values and counters of ``slots`` expanded as ``exp`` (moves into ``index``; ``find``: slots of codes).
        With ``primitive`` (the rules' :meth:`~gamedb.games.vector.VectorRules.primitive`) a counter leaves out the moves
        into positions won at once by their mover, which level 0 would take off it by visiting their parents through
        un-moves: Dōbutsu's reduced game GC, 1.6·10^6 of its 3.0·10^6 positions won at once, 6.3 s of un-moves against
        2.5 s for the primitive values of every move's child (the whole ``gamedb solve``: 26.8 -> 21.6 s, CPU 0.79x)."""
        self.result[slots] = exp.primitive
        self.remoteness[slots[exp.primitive != UNDECIDED]] = 0
        (parent, child), degree = distinct_degree(exp, moves=index is not None or primitive is not None, distinct=distinct)
        if primitive is not None:
            self.wins_counted = True
            won = np.zeros(len(child), dtype=bool)  # (a block of positions all over at once has no child)
            for a in range(0, len(child), PRIMITIVE_CHUNK):
                won[a : a + PRIMITIVE_CHUNK] = primitive(child[a : a + PRIMITIVE_CHUNK]) == WIN
            degree = degree - np.bincount(parent[won], minlength=len(degree))
            lost = slots[(exp.primitive == UNDECIDED) & (degree == 0)]  # every move lets the other side win at once
            self.result[lost] = LOSE
            self.remoteness[lost] = 1
            self.lost_at_once += len(lost)
        most = int(degree.max()) if len(degree) else 0
        if most > np.iinfo(self.counter.dtype).max:
            self.counter = self.counter.astype(np.uint16 if most < 1 << 16 else np.uint32)
        self.counter[slots] = degree
        self.moves += len(exp.children)
        if index is not None:
            index.add(find(child), slots[parent])


def least_bytes(vector: bool, positions: int, moves: int) -> int:
    """The memory the solver needs at least, with or without the family's vector rules."""
    return positions * BYTES_PER_POSITION + (0 if vector else positions * BYTES_PER_PYTHON_POSITION + moves * BYTES_PER_PYTHON_MOVE)


def need_bytes(rules: VectorRules | None, positions: int, moves: int, memory_limit: int | None = None) -> tuple[int, str]:
    """(bytes, source of the moves into a level): the fastest that fits ``memory_limit`` (None: the fastest; 0: the least)."""
    need = least_bytes(rules is not None, positions, moves)
    if rules is not None and has_parents(rules):
        return need, "un-moves"
    index = need + moves * ReverseIndex.BYTES_PER_MOVE + positions * 8
    return (index, "reverse index") if memory_limit is None or index <= memory_limit else (need, "re-expansion")


def memory_need(game: Game, name: str) -> tuple[int, str, str] | None:
    """The strategy's memory hook (:data:`gamedb.solvers.choice.STRATEGIES`): (bytes, what needs them, advice)."""
    from ..sizes import human_size

    estimate = capabilities.stored_estimate(game)
    if estimate is None:
        return None
    need = least_bytes(capabilities.declares_vector_rules(game), estimate.positions, estimate.moves)  # the rules are not built for it
    words = f"{name} needs up to {estimate.positions:,} positions (~{human_size(need)} of memory in the retrograde solver)"
    return need, words, f"use {param('strategy', 'sql')} (or auto), or a larger {param('memory_limit')}"


def solve(sink: Sink, game: Game, *, memory_limit: int, progress: Progress | None = None, symmetry: int = 1) -> Solved:
    """Solve ``game`` into ``sink``, in one commit; :class:`TooLarge`, nothing written, beyond ``memory_limit`` bytes;
    ``symmetry`` > 1: one row per class of positions (:class:`Classes`), noted in the game row."""
    t0 = time.perf_counter()
    estimate = capabilities.stored_estimate(game) if symmetry > 1 else game.estimate()
    vector = capabilities.vector_rules(game)
    if estimate is not None:
        need = least_bytes(vector is not None, estimate.positions, estimate.moves)
        if need > memory_limit:
            raise TooLarge(f"{estimate.positions:,} positions need {need:,} bytes in the retrograde solver, over the limit of {memory_limit:,}")
    played: VectorRules = vector if vector is not None else OneByOne(game)  # the moves as played, for their labels
    symmetric = vector is not None and symmetry > 1
    rules, canonical = played, _same
    if symmetric:  # one row per class: children and parents as their representatives
        classes = Classes(played)
        rules, canonical = classes, classes.canonical_of
    expected = estimate.positions if estimate else 0
    per_position = least_bytes(vector is not None, 1, 0)
    dense = 0 < rules.code_limit <= DENSE_CODES_PER_POSITION * min(expected, memory_limit // per_position)
    _, source = need_bytes(vector, expected, estimate.moves if estimate else 0, memory_limit)
    index = ReverseIndex() if source == "reverse index" else None
    state = State.empty(rules.code_limit if dense else 0)
    if dense:
        state.marks = np.empty(rules.code_limit, dtype=np.int32 if rules.code_limit < 1 << 31 else np.int64)  # (pages touched by the levels)
    visit = partial(state.record, find=lambda codes: codes, index=index, distinct=rules.distinct_moves) if dense else None  # codes are slots
    slots = reachable(game, rules, canonical, memory_limit // per_position, visit, progress)
    t1 = time.perf_counter()
    # the rows known now written (past the last TooLarge): a new file's thread writes them while the levels run
    game_id = begin_fresh(sink)
    if symmetric:
        start = int(canonical(np.array([game.encode(game.start())], dtype=np.int64))[0])
        sink.update(start_code=start, info={"symmetry": {"group": symmetry, "reachable": None}})  # (the class sizes are not counted)
    tokens = capabilities.move_lists(game)
    if tokens is not None:
        for table, rows in zip(("token_board", "token_move"), token_rows(game_id, tokens), strict=True):
            sink.rows(table, rows)
    if not dense:
        state = State.empty(slots.size)
        primitive = rules.primitive if has_primitive(played) else None
        for block, code in slots.blocks(expanded_block(memory_limit)):
            state.record(block, rules.expand(code), lambda codes: slots.find(codes)[0], index, primitive, distinct=rules.distinct_moves)
            if progress:
                progress("count children", int(block[-1]) + 1, slots.size)
    if source == "un-moves":
        edges: Callable[..., Any] = partial(by_unmoves, rules, slots, state, progress=progress)
    elif index is not None:
        index.build(slots.size)
        edges = partial(index.edges, rules, slots, state, progress=progress)
    else:
        edges = partial(by_expanding, rules, slots, state, progress=progress)
    winlose = levels(state, edges, (WIN, LOSE), "win/lose levels", progress)
    ties = levels(state, edges, (TIE,), "tie levels", progress)
    del index, edges
    state.marks = None
    state.result[state.result == UNDECIDED] = DRAW
    by_order = token_labels(tokens) if tokens is not None else None
    labels = partial(_labels, played) if by_order is None else _by_order(by_order)
    write(sink, played, canonical, labels, slots, state, state.moves, move_rows=tokens is None and not symmetric, block=expanded_block(memory_limit),
          progress=progress, by_order=by_order if has_in_order(played) else None)
    return finish_solved(sink, slots.positions, state.moves, t0, t1, {"phase": "done", "winlose_levels": winlose, "tie_levels": ties})


#: the canonical code of every position without symmetry: its own
_same: Callable[[np.ndarray], np.ndarray] = lambda codes: codes  # noqa: E731


def levels(state: State, edges: Callable[..., Any], values: tuple[int, ...], phase: str, progress: Progress | None) -> int:
    """Decide levels from the positions of ``values`` until one decides nothing; the number of levels."""
    k = 0
    wanted = np.zeros(len(DECIDED_BY), dtype=bool)  # by result
    wanted[list(values)] = True
    while True:
        if k + 1 > np.iinfo(state.remoteness.dtype).max:
            state.remoteness = state.remoteness.astype(np.int32)
        decided, looked = 0, wanted
        if k == 0 and state.wins_counted and wanted[WIN]:  # (in the counters already: see State.record)
            decided, looked = state.lost_at_once, wanted & (np.arange(len(wanted)) != WIN)
        for child, parent in edges(partial(_among, looked, state), k):
            open_ = state.result[parent] == UNDECIDED
            decided += step(state, child[open_], parent[open_], k + 1)
        k += 1
        if progress:
            progress(phase, k, None)
        if not decided:
            return k


def _among(results: np.ndarray, state: State, slots: np.ndarray) -> np.ndarray:
    """Which of ``slots`` have one of ``results`` (a mask by result)."""
    among: np.ndarray = results[state.result[slots]]
    return among


def step(state: State, child: np.ndarray, parent: np.ndarray, level: int) -> int:
    """Decide the undecided ``parent`` of each move into ``child`` that decides it at ``level``; how many were."""
    result, remoteness = state.result, state.remoteness
    below = result[child]
    spread = (below == LOSE) | (below == TIE)  # a move to a loss wins; to a tie, in the tie levels, ties
    won = parent[spread]
    result[won] = np.where(below[spread] == LOSE, WIN, TIE)
    remoteness[won] = level
    beaten = parent[below == WIN]
    hit = count_down(state, beaten[result[beaten] == UNDECIDED])
    lost = hit[state.counter[hit] == 0]
    result[lost] = LOSE
    remoteness[lost] = level
    return len(won) + len(lost)


def count_down(state: State, slots: np.ndarray) -> np.ndarray:
    """One off the counter of each of ``slots`` for every time it is there; the distinct slots. With marks a round takes
    one off each distinct slot and keeps the repeats (those whose index the slot's mark does not hold): a step's moves
    rarely share a parent, so this is 1-3 passes, where sorting them took 0.11 s of bench/loopy_vs_plain.py's 0.12 s of levels."""
    marks = state.marks
    if marks is None:  # sparse codes (Dōbutsu: 23.2 of its 24 bytes a position used already)
        ordered = np.sort(slots)
        first = first_of_runs(ordered)
        found: np.ndarray = ordered[first]
        state.counter[found] -= np.diff(np.append(first, len(ordered))).astype(state.counter.dtype)
        return found
    distinct: np.ndarray | None = None
    while len(slots):
        state.counter[slots] -= 1  # (a fancy index takes one off each distinct slot, whatever its repeats)
        order = np.arange(len(slots), dtype=marks.dtype)
        marks[slots] = order  # the last of a slot's repeats holds its mark
        last = marks[slots] == order
        if distinct is None:
            distinct = slots[last]
        slots = slots[~last]
    return distinct if distinct is not None else slots


def expanded_block(memory_limit: int) -> int:
    """Positions expanded at once in the passes that look up children, within ``memory_limit``."""
    return int(min(BIG_BLOCK, max(BLOCK, memory_limit // BYTES_PER_EXPANDED)))


#: ``by_order(codes, orders)``: the label of move ``orders[i]`` (0 first) of each position ``codes[i]``
ByOrder = Callable[[np.ndarray, np.ndarray], LabelColumn]
#: ``labels(code, exp, parent, moves)``: the labels of ``moves`` (indices into ``exp.children``, whose parents are ``code[parent]``)
Labels = Callable[[np.ndarray, Expansion, np.ndarray, np.ndarray], "list[str] | LabelColumn"]


def write(sink: Sink, rules: VectorRules, canonical: Callable[[np.ndarray], np.ndarray], labels_of: Labels, slots: Slots, state: State, moves: int, *,
          move_rows: bool, block: int, progress: Progress | None, by_order: ByOrder | None = None) -> None:
    """Every position row (and move row) in code order, with its best move, a block at a time (``rules``: the moves as
    played; ``canonical``: a child's slot code). With ``by_order`` (labels by move order; no move rows) the rules'
    :meth:`~gamedb.games.vector.VectorRules.in_order` gives the children one move order at a time (:func:`first_in_order`)."""
    texts_stored = stores_texts(slots.positions)
    key_of = partial(_key_of, state, slots, canonical)
    written = 0
    with sink.loading("position", slots.positions), sink.loading("move", moves) if move_rows else nullcontext():
        for slot, code in slots.blocks(block if slots.reach is None else DENSE_WRITE_BLOCK):
            result, remoteness = state.result[slot], state.remoteness[slot]
            # a move decides its parent when the child has the result that decides it one level lower (any draw: a draw)
            below = np.where(result == DRAW, -1, remoteness - 1).astype(remoteness.dtype)
            if by_order is not None:
                ordered = rules.in_order(code)
                player, degree = ordered.player, ordered.degree
                at, order = first_in_order(ordered, value_keys(DECIDED_BY[result], below), key_of)
                best = scattered(len(code), at, by_order(code[at], order))
            else:
                exp = rules.expand(code)
                player, degree = exp.player, exp.degree
                parent = np.repeat(np.arange(len(code)), exp.degree)
                child = slots.slot(canonical(exp.children))
                maybe = np.flatnonzero(state.result[child] == DECIDED_BY[result][parent])
                hit = maybe[state.remoteness[child[maybe]] == below[parent[maybe]]]
                first = hit[first_of_runs(parent[hit])]
                best = scattered(len(code), parent[first], labels_of(code, exp, parent, first))
            texts = rules.texts(code) if texts_stored else None
            values = (code, texts, player, result, null_where_negative(remoteness), degree, best)
            sink.columns("position", as_written(dict(zip(POSITION_COLUMNS, values, strict=True)), texts_stored))
            if move_rows:
                labels = labels_of(code, exp, parent, np.arange(len(parent)))
                moved = (code[parent], ranks_within(exp.degree), exp.children, labels)
                sink.columns("move", dict(zip(MOVE_COLUMNS, moved, strict=True)))
            written += len(code)
            if progress:
                progress("write", written, slots.positions)


def first_in_order(ordered: MovesInOrder, wanted: np.ndarray, key_of: Callable[[np.ndarray], np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(position, move order) of the first move of each position with moves to a child whose key (``key_of`` its code)
    is the position's ``wanted`` one: the first moves of every position, then the second moves of those with none yet...
    (cat-mouse's 2·10^6 best moves: the last pass 0.16 -> 0.10 s of CPU, where all 8·10^6 children were made and looked up)."""
    order = np.full(len(wanted), -1, dtype=np.int64)
    left = np.flatnonzero(ordered.degree)
    k = 0
    while len(left):
        found = key_of(ordered.child(k, left)) == wanted[left]
        order[left[found]] = k
        k += 1
        left = left[~found]
        left = left[ordered.degree[left] > k]  # (a position with moves has a child that decides it: none runs out)
    at = np.flatnonzero(order >= 0)
    return at, order[at]


def _key_of(state: State, slots: Slots, canonical: Callable[[np.ndarray], np.ndarray], children: np.ndarray) -> np.ndarray:
    """The :func:`value_keys` of ``children`` (made for them alone: an array of every slot's took 8 ms before the pass)."""
    slot = slots.slot(canonical(children))
    return value_keys(state.result[slot], state.remoteness[slot])


def value_keys(result: np.ndarray, remoteness: np.ndarray) -> np.ndarray:
    """Each result and remoteness as one integer: a child's compared with its parent's wanted one at once in :func:`first_in_order`."""
    if remoteness.dtype == np.int16:
        return (result.astype(np.int32) << 16) | remoteness.view(np.uint16)
    return (result.astype(np.int64) << 32) | (remoteness.astype(np.int64) & 0xFFFFFFFF)


def _labels(rules: VectorRules, code: np.ndarray, exp: Expansion, parent: np.ndarray, moves: np.ndarray) -> list[str]:
    """:data:`Labels` by the rules."""
    if isinstance(rules, OneByOne):
        every = rules.move_labels(code)
        return [every[i] for i in moves.tolist()]
    return rules.labels(code[parent[moves]], exp.children[moves])


def _by_order(labels: Callable[[np.ndarray, np.ndarray], LabelColumn]) -> Labels:
    """:data:`Labels` by a game's move lists (:func:`token_labels`): each move's order within its position's."""

    def of(code: np.ndarray, exp: Expansion, parent: np.ndarray, moves: np.ndarray) -> LabelColumn:
        owner = parent[moves]
        return labels(code[owner], moves - (np.cumsum(exp.degree) - exp.degree)[owner])

    return of


class Retrograde:
    """The ``retrograde`` strategy (see :mod:`gamedb.solvers.protocol`); verifies and answers like ``graph-sql``."""

    def verify(self, conn: sa.Connection, record: GameRecord, game: Game, *, progress: Progress | None = None) -> int:
        from .graph_verify import verify_graph

        return verify_graph(conn, record, game, progress=progress)
