"""A solve killed at any moment (SIGKILL) resumes and ends with the same tables."""

import json
import random
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from gamedb import Database, make_game
from oracles.cat_mouse import random_graph

SOLVER = """
import sys
from gamedb.games import make_game
from gamedb.solve import solve
from gamedb.store.database import open_engine
db, graph, batch = sys.argv[1], sys.argv[2], int(sys.argv[3])
solve(open_engine(db, create=True), make_game("cat-mouse", graph=graph), "cm", batch=batch, method="sql")
"""


def dump(path):
    with sqlite3.connect(path) as con:
        positions = con.execute("SELECT * FROM position ORDER BY game_id, code").fetchall()
        moves = con.execute("SELECT * FROM move ORDER BY game_id, parent, ord").fetchall()
        work = con.execute("SELECT (SELECT COUNT(*) FROM solve_queue) + (SELECT COUNT(*) FROM solve_counter)").fetchone()
        game = con.execute("SELECT name, status, positions, moves, start_code FROM game").fetchall()
    return positions, moves, work, game


@pytest.fixture(scope="module")
def graph_file(tmp_path_factory):
    rng = random.Random(6)
    graph = random_graph(rng, 150, 0.05)
    path = tmp_path_factory.mktemp("graph") / "graph.json"
    path.write_text(json.dumps(graph))
    return path


def test_killed_solves_resume_to_identical_tables(tmp_path, graph_file):
    reference = tmp_path / "reference.sqlite"
    Database(reference, create=True).solve(make_game("cat-mouse", graph=str(graph_file)), "cm")

    # kill solver processes after random short stretches of work until one finishes
    target = tmp_path / "killed.sqlite"
    rng = random.Random(1)
    kills, statuses = 0, set()
    startup = _startup_seconds(reference, graph_file)
    for attempt in range(40):
        if kills >= 6 and "solving" in statuses:
            break
        proc = subprocess.Popen([sys.executable, "-c", SOLVER, str(target), str(graph_file), "50"])
        time.sleep(startup + rng.uniform(0.1, 0.8))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            kills += 1
        proc.wait()
        if target.exists():
            with sqlite3.connect(target) as con:
                try:
                    row = con.execute("SELECT status FROM game").fetchone()
                except sqlite3.OperationalError:  # killed while the schema was being created
                    row = None
            statuses.add(row[0] if row else None)
            # an interrupted database is never mistaken for a solved one
            if row and row[0] != "solved":
                run = subprocess.run(
                    [sys.executable, "-m", "gamedb", "--db", str(target), "query", "cm"], capture_output=True, text=True
                )
                assert run.returncode == 1 and "not fully solved" in run.stderr
    assert kills >= 3, "the kills all came too late; the game solves too fast for this test"
    assert {"enumerating", "solving"} <= statuses, statuses  # killed in both phases
    subprocess.run([sys.executable, "-c", SOLVER, str(target), str(graph_file), "50"], check=True)
    assert dump(target) == dump(reference)
    assert Database(target).verify("cm").positions > 0


def _startup_seconds(solved_db, graph_file):
    """How long the solver process takes to start and find the game already solved."""
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", SOLVER, str(solved_db), str(graph_file), "50"], check=True)
    return time.perf_counter() - t0
