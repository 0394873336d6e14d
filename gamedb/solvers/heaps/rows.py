"""What a solved heap game stores, as values: its rule rows, its position rows, its info and progress.

Kept free of SQLAlchemy: the heap solver (:mod:`gamedb.solvers.heaps.solver`)
writes these values through SQLAlchemy, in resumable batches, and a small
heap game solved straight into a new file (:mod:`gamedb.solvers.new_file`)
through ``sqlite3``; both store the same rows because both take them from here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...games.heaps import HeapGame
from ...store.rows import POSITION_COLUMNS
from .periodicity import Periodicity, find_period
from .values import HeapValues

#: heaps written (and committed) per batch; a game of at most this many heaps is written in one
WRITE_BATCH = 100_000


def rule_rows(game_id: int, game: HeapGame) -> list[dict[str, Any]]:
    """The game's ``heap_rule`` rows: its move rules in order."""
    return [{"game_id": game_id, "parts": r.parts, "take": r.take, "idx": i, "unequal": int(r.unequal)} for i, r in enumerate(game.rules)]


def counts(game: HeapGame) -> tuple[int, int]:
    """(positions, moves) the game stores: one position per heap 0..N, each heap's options as its moves."""
    return game.max_heap + 1, sum(game.heap_degrees())


def position_columns(game: HeapGame, values: HeapValues, low: int, high: int) -> dict[str, list[Any]]:
    """The position rows of heaps low..high-1, column by column (list operations, no tuple per row)."""
    grundy = values.grundy[low:high]
    columns = (
        list(range(low, high)),
        game.heap_texts(low, high),
        [0] * (high - low),
        ["win" if g else "lose" for g in grundy],
        list(values.remoteness[low:high]),
        values.degree[low:high],
        game.best_labels(values.best, low, high),
        grundy,
    )
    return dict(zip(POSITION_COLUMNS, columns, strict=True))


def analyse_values(game: HeapGame, values: Sequence[int]) -> Periodicity | None:
    """The period of the values g(0..N), when the octal periodicity theorem applies to the rules."""
    return find_period(values, game.max_take) if game.theorem_applies else None


def final_info(game: HeapGame, values: HeapValues) -> tuple[dict[str, Any], Periodicity | None]:
    """What the last batch adds to the game's info (the period of the values, how far remoteness
    was searched), and the period itself."""
    periodicity = analyse_values(game, values.grundy)
    info = {"periodicity": periodicity.to_dict() if periodicity else None, "remoteness_searched_to": values.searched_to}
    return info, periodicity


def done_progress(game: HeapGame) -> dict[str, Any]:
    """The resume marker of a heap game whose every row is written."""
    return {"phase": "done", "heaps": game.max_heap + 1}
