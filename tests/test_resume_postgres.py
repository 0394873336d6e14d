"""PostgreSQL: a solve killed (SIGKILL) in enumeration, in the levels or in the draws resumes, and ends right.

The kill points are those of :mod:`test_resume` (on a progress report or
before a chosen statement). At the kill the solver also leaves what a
killed client leaves on a server: a backend of one of its connections still
running a statement (``pg_sleep``) inside a transaction that holds the game
row's lock. The server would notice the lost client only when that statement
ends; the resume must end that backend itself (the lock it holds would stop
the resume at its first write to the game row) and finish with the rows of
an uninterrupted solve. Every run has a timeout: a resume that hangs fails.
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys

import pytest
import sqlalchemy as sa
from killed_cli import KILLED_CLI
from resume_graph import BATCH, solve_reference, write_game_file
from test_resume import SOLVER

from gamedb.games import make_game
from gamedb.solvers.solve import solve
from gamedb.store.database import open_engine

ORPHAN = '''
import threading, time
import psycopg

def leave_a_running_backend():
    """A connection of the solve (named like all of them) locks the game row and runs a long statement."""
    locked = threading.Event()

    def hold():
        with engine.connect() as conn:
            conn.exec_driver_sql("UPDATE game SET progress = progress WHERE name = 'g'")
            locked.set()
            conn.exec_driver_sql("SELECT pg_sleep(600)")

    threading.Thread(target=hold, daemon=True).start()
    locked.wait(30)
    watch = psycopg.connect(engine.url.set(drivername="postgresql").render_as_string(hide_password=False), autocommit=True)
    for _ in range(300):
        if watch.execute("SELECT 1 FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(600)' AND state = 'active'").fetchone():
            break
        time.sleep(0.05)
    watch.close()

_kill = die
def die():
    if "kill_at" in globals():  # the orphan's own statements must not trigger the kill again
        event.remove(engine, "before_cursor_execute", kill_at)
    leave_a_running_backend()
    _kill()
'''

#: (what, kill spec, status after the kill)
KILLS = [
    ("enumeration: after the 3rd page committed", {"phase": "enumerate", "call": 3}, "enumerating"),
    ("win/lose: after level 10 committed", {"phase": "win/lose levels", "done": 10}, "solving"),
    ("draws: results and best moves written, the phase not committed", {"sql": ["SET result = 4"], "n": 1, "offset": 1}, "solving"),
]

COLUMNS = "code, text, player, result, remoteness, degree, best_move, grundy"


@pytest.fixture(scope="module")
def game_file(tmp_path_factory):
    return write_game_file(tmp_path_factory.mktemp("graph"))


@pytest.fixture(scope="module")
def reference(tmp_path_factory, game_file):
    """The rows of an uninterrupted solve (SQLite, the same engine and page size)."""
    path = solve_reference(tmp_path_factory.mktemp("reference"), game_file)
    with sqlite3.connect(path) as con:
        rows = con.execute(f"SELECT {COLUMNS} FROM position ORDER BY code").fetchall(), con.execute(
            "SELECT parent, ord, child, label FROM move ORDER BY parent, ord"
        ).fetchall()
    con.close()
    return rows


def _solver(url, game_file, spec):
    source = SOLVER.replace("\nsolve(engine", ORPHAN + "\nsolve(engine") if spec else SOLVER
    return subprocess.run(
        [sys.executable, "-c", source, url, str(game_file), str(BATCH), json.dumps(spec)], capture_output=True, text=True, timeout=120
    )


def _sleepers(url) -> int:
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    with engine.connect() as conn:
        found = conn.execute(sa.text("SELECT COUNT(*) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(600)'")).scalar()
    engine.dispose()
    return found


@pytest.mark.parametrize("what,spec,status", KILLS, ids=["enumeration", "level", "draw"])
def test_killed_solve_resumes_on_postgresql(pg_url, game_file, reference, what, spec, status):
    # statistics taken while the database held no rows of the game, as after any earlier solve
    first = open_engine(pg_url)
    solve(first, make_game("nim", max=2), "dummy", strategy="sql")
    first.dispose()

    killed = _solver(pg_url, game_file, spec)
    assert killed.returncode == -signal.SIGKILL, f"{what}: not killed (exit {killed.returncode}): {killed.stderr[-2000:]}"
    engine = sa.create_engine(pg_url, poolclass=sa.pool.NullPool)
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT status FROM game WHERE name = 'g'")).scalar() == status, what
    assert _sleepers(pg_url) == 1, "the killed solve's backend should still be running its statement"

    resumed = _solver(pg_url, game_file, {})  # the same solve, left to finish (or time out)
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert _sleepers(pg_url) == 0, "the resume left the killed solve's backend running"
    with engine.connect() as conn:
        g = conn.execute(sa.text("SELECT id FROM game WHERE name = 'g'")).scalar()
        assert conn.execute(sa.text("SELECT status FROM game WHERE id = :g"), {"g": g}).scalar() == "solved"
        positions = [tuple(r) for r in conn.execute(sa.text(f"SELECT {COLUMNS} FROM position WHERE game_id = :g ORDER BY code"), {"g": g})]
        moves = [tuple(r) for r in conn.execute(sa.text("SELECT parent, ord, child, label FROM move WHERE game_id = :g ORDER BY parent, ord"), {"g": g})]
        work = conn.execute(sa.text("SELECT (SELECT COUNT(*) FROM solve_queue) + (SELECT COUNT(*) FROM solve_counter)")).scalar()
    engine.dispose()
    assert (positions, moves) == reference
    assert work == 0


@pytest.mark.parametrize(
    "pattern,n,status",
    [("INSERT INTO position", 3, "enumerating"), ("UPDATE solve_counter", 5, "solving"), ("UPDATE position SET result = 4", 1, "solving")],
    ids=["enumeration", "level", "draw"],
)
def test_the_command_line_resumes_a_killed_solve_on_postgresql(pg_url, game_file, reference, pattern, n, status):
    """`gamedb --db URL solve ...` as a user types it, killed at a statement of each phase, then run again."""
    args = ["--db", pg_url, "solve", "graph", "--file", str(game_file), "--strategy", "sql", "--name", "g", "-q"]
    killed = subprocess.run([sys.executable, "-c", KILLED_CLI, pattern, str(n), *args], capture_output=True, text=True, timeout=120)
    assert killed.returncode == -signal.SIGKILL, f"not killed (exit {killed.returncode}): {killed.stderr[-2000:]}"
    engine = sa.create_engine(pg_url, poolclass=sa.pool.NullPool)
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT status FROM game WHERE name = 'g'")).scalar() == status
    resumed = subprocess.run([sys.executable, "-m", "gamedb", *args], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert resumed.returncode == 0 and "Traceback" not in resumed.stderr, resumed.stderr[-2000:]
    with engine.connect() as conn:
        g = conn.execute(sa.text("SELECT id FROM game WHERE name = 'g'")).scalar()
        positions = [tuple(r) for r in conn.execute(sa.text(f"SELECT {COLUMNS} FROM position WHERE game_id = :g ORDER BY code"), {"g": g})]
        moves = [tuple(r) for r in conn.execute(sa.text("SELECT parent, ord, child, label FROM move WHERE game_id = :g ORDER BY parent, ord"), {"g": g})]
    engine.dispose()
    assert (positions, moves) == reference  # the rows of an uninterrupted solve
    verified = subprocess.run([sys.executable, "-m", "gamedb", "--db", pg_url, "verify", "g", "-q"], capture_output=True, text=True, timeout=120)
    assert verified.returncode == 0, verified.stderr
