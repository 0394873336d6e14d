"""Solving heap games: values computed in memory (:mod:`.values`), written into a sink a committed batch at a time
(a killed solve computes them again and resumes writing); the last batch stores the period and ``remoteness_searched_to``."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from ...games.heaps import HeapGame
from ...progress import Progress
from ...store.rows import POSITION_COLUMNS
from ...store.sink import Sink, now
from ...store.status import ENUMERATING, SOLVED, SOLVING
from ...values import LOSE, RESULT_CODES, WIN
from ..protocol import Solved
from .periodicity import Periodicity, find_period
from .values import HeapValues, compute

#: heaps written (and committed) per batch; a game of at most this many heaps is written in one
WRITE_BATCH = 100_000


def solve(sink: Sink, game: HeapGame, *, progress: Progress | None = None) -> Solved:
    """Solve ``game`` into ``sink``, resuming where an unfinished solve stored there stopped; mark it solved."""
    t0 = time.perf_counter()
    begun = sink.begin()
    positions, moves = game.max_heap + 1, sum(game.heap_degrees())
    state = begun.progress
    if begun.status == ENUMERATING:
        sink.clear(("heap_rule", "position"))
        rules = [{"game_id": begun.id, "parts": r.parts, "take": r.take, "idx": i, "unequal": int(r.unequal)} for i, r in enumerate(game.rules)]
        sink.rows("heap_rule", rules)
        state = {"phase": "rows", "written": 0}
        sink.update(status=SOLVING, positions=positions, moves=moves, enumerate_seconds=round(time.perf_counter() - t0, 3), progress=state)
        sink.commit()
    t1 = time.perf_counter()
    if state.get("phase") != "done":
        _write_positions(sink, game, state, progress)
    sink.finish(status=SOLVED, solved_at=now(), solve_seconds=round(time.perf_counter() - t1, 3))
    return Solved(positions, moves)


def _write_positions(sink: Sink, game: HeapGame, state: dict[str, Any], progress: Progress | None) -> None:
    """Compute every heap's values and append the position rows from where ``state`` says, a committed batch at a time."""
    if state.get("phase") != "rows":  # a solve begun by another version: its rows are written again
        sink.clear(("position",))
        sink.commit()
        state = {"phase": "rows", "written": 0}
    values = compute(game, searched_to=state.get("searched_to"))
    top = game.max_heap
    written = state["written"]
    while written <= top:
        end = min(written + WRITE_BATCH, top + 1)
        if top + 1 - end < WRITE_BATCH // 10:  # a small rest joins this batch (--max 100000: one batch, not two)
            end = top + 1
        with sink.loading("position", end - written):
            sink.columns("position", position_columns(game, values, written, end))
        if end > top:
            period = analyse_values(game, values.grundy)
            info = {"periodicity": period.to_dict() if period else None, "remoteness_searched_to": values.searched_to}
            sink.update(info=info, progress={"phase": "done", "heaps": top + 1})
        else:
            sink.update(progress={"phase": "rows", "written": end, "searched_to": values.searched_to})
        sink.commit()
        written = end
        if progress:
            progress("heaps", written, top + 1)


_WIN, _LOSE = RESULT_CODES[WIN], RESULT_CODES[LOSE]


def position_columns(game: HeapGame, values: HeapValues, low: int, high: int) -> dict[str, list[Any]]:
    """The position rows of heaps low..high-1, column by column (list operations, no tuple per row)."""
    grundy = values.grundy[low:high]
    results = [_WIN if g else _LOSE for g in grundy]
    columns = (list(range(low, high)), game.heap_texts(low, high), [0] * (high - low), results, list(values.remoteness[low:high]),
               values.degree[low:high], game.best_labels(values.best, low, high), grundy)
    return dict(zip(POSITION_COLUMNS, columns, strict=True))


def analyse_values(game: HeapGame, values: Sequence[int]) -> Periodicity | None:
    """The period of the values g(0..N), when the octal periodicity theorem applies to the rules."""
    return find_period(values, game.max_take) if game.theorem_applies else None
