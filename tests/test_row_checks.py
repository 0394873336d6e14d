"""The batch check of stored position rows says exactly what the row by row check says.

`checked_positions` tests each column of a whole batch at once and runs the
row by row `checked_position` only when that test does not pass; a damaged
file must still get the same one line naming the first damaged row, and a
row the row by row check accepts must still be accepted.
"""

from __future__ import annotations

import random

import pytest

from gamedb.store.damage import DamagedGame, checked_position, checked_positions
from gamedb.store.rows import PositionRow

GOOD = [
    PositionRow(0, ".........", 0, "tie", 9, 9, "1", None),
    PositionRow(1, "X........", 1, "tie", 8, 8, "5", None),
    PositionRow(2, "XX.OO....", 0, "win", 1, 5, "3", None),
    PositionRow(3, "XOXXOOOXX", 1, "lose", 0, 0, None, None),
    PositionRow(4, "loop", 0, "draw", None, 2, None, 0),
    PositionRow(5, "heap", 1, "win", 3, 1, "1", 4),
]

#: values a crafted file may hold in each column (some of them acceptable to the row by row check)
ODD = {
    "text": [None, 5, b"X........", ""],
    "player": [2, -1, True, False, 1.0, None, "0"],
    "result": ["WIN", None, "", 1, "draw "],
    "remoteness": [-1, True, 2.5, "3", None, 0],
    "degree": [-1, None, False, 1.5, "2", 0],
    "best_move": [5, b"1", "", None],
    "grundy": [-1, True, 1.5, "0", None, 0],
}


def _row_by_row(impartial: bool, rows: list[PositionRow]) -> str | None:
    try:
        for row in rows:
            checked_position("g", impartial, row._asdict())
    except DamagedGame as exc:
        return str(exc)
    return None


def _batch(impartial: bool, rows: list[PositionRow]) -> str | None:
    try:
        checked_positions("g", impartial, rows)
    except DamagedGame as exc:
        return str(exc)
    return None


@pytest.mark.parametrize("impartial", [False, True])
def test_good_rows_pass(impartial):
    assert _batch(impartial, GOOD) is None
    assert _batch(impartial, []) is None


@pytest.mark.parametrize("impartial", [False, True])
@pytest.mark.parametrize("column", list(ODD))
def test_a_damaged_value_gives_the_same_line(impartial, column):
    rejected = 0
    for value in ODD[column]:
        for index in range(len(GOOD)):
            rows = list(GOOD)
            rows[index] = rows[index]._replace(**{column: value})
            expected = _row_by_row(impartial, rows)
            assert _batch(impartial, rows) == expected, (column, value, index)
            rejected += expected is not None
    assert rejected  # some of the odd values are damage


def test_random_batches_agree():
    rng = random.Random(12)
    for _ in range(500):
        rows = [rng.choice(GOOD) for _ in range(rng.randint(1, 8))]
        for _ in range(rng.randint(0, 2)):
            column = rng.choice(list(ODD))
            index = rng.randrange(len(rows))
            rows[index] = rows[index]._replace(**{column: rng.choice(ODD[column])})
        impartial = rng.random() < 0.5
        assert _batch(impartial, rows) == _row_by_row(impartial, rows), rows
