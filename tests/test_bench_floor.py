"""bench/tiers.py's floor of SQLite: a solved file's position rows inserted again, as its own table stores them.

Its copy of the table's types had fallen behind the schema: the label ids of ``best_move`` (revision 0008) were kept as
text, and ``text NOT NULL`` refused the rows of every board the benchmark solves (a game of a million positions or more
is stored without texts). Here on tic-tac-toe's 765 rows, with and without their texts; nothing is timed.
"""

from __future__ import annotations

import sqlite3
import sys
from contextlib import closing
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from tiers import job_floor_rows  # noqa: E402


def _rows(path: Path) -> list[tuple]:
    with closing(sqlite3.connect(path)) as conn:
        return conn.execute("SELECT code, text, result, remoteness, degree, best_move, typeof(best_move) FROM position ORDER BY code").fetchall()


def test_the_floor_stores_the_solved_rows_alike(cli, tmp_path):
    assert cli("solve", "tictactoe", "-q").exit_code == 0
    for texts in (True, False):
        solved = tmp_path / f"solved-{texts}.sqlite"
        with closing(sqlite3.connect(cli.db_path)) as source, closing(sqlite3.connect(solved)) as copy:
            source.backup(copy)
        if not texts:  # as the tier solver stores Connect-Four 5x4 and larger
            with closing(sqlite3.connect(solved)) as conn, conn:
                conn.execute("UPDATE position SET text = NULL")
        floor = tmp_path / f"floor-{texts}.sqlite"
        assert job_floor_rows(SimpleNamespace(graph=str(solved), db=str(floor)))["rows"] == 765
        assert _rows(floor) == _rows(solved)
        assert {kind for *_, kind in _rows(floor)} == {"integer", "null"}  # label ids, not their digits as text
