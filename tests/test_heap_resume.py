"""A heap-game solve killed at any moment (SIGKILL) resumes and ends with the same tables.

The pattern of tests/test_resume.py for the heap engine: a child process
solves Kayles in batches of 100 heaps and kills itself at a chosen point --
after a committed batch, inside a batch's transaction, or after the last
batch but before the game row says ``solved``; the same solve call resumes
it, and in the end every row (and the game's info) equals those of an
uninterrupted solve.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys

from killed_cli import KILL_HOOKS

from gamedb.games import make_game
from gamedb.solvers.solve import solve
from gamedb.store.database import open_engine

GAME = {"code": "0.77", "max": 450}

SOLVER = KILL_HOOKS + """
import json, sys
from gamedb.solvers.heaps import solver as heap_solver
from gamedb.games import make_game
from gamedb.solvers.solve import solve
from gamedb.store.database import open_engine

db, spec = sys.argv[1], json.loads(sys.argv[2])
heap_solver.WRITE_BATCH = 100
engine = open_engine(db, create=True)

progress = None
if "done" in spec:  # on the progress report just after a committed batch
    def progress(phase, done, total):
        if phase == "heaps" and done == spec["done"]:
            die()
elif "sql" in spec:  # before the n-th statement matching
    kill_at_statement(engine, spec["sql"], spec["n"])
solve(engine, make_game("octal", **json.loads(sys.argv[3])), "k", progress=progress)
"""

KILLS = [
    ("the rules written, no heap yet", {"sql": ["INSERT INTO position"], "n": 1}, {"phase": "rows", "written": 0}),
    ("after the 2nd batch committed", {"done": 200}, {"phase": "rows", "written": 200}),
    ("inside the 4th batch (the 2nd of the resumed solve)", {"sql": ["INSERT INTO position"], "n": 2}, {"phase": "rows", "written": 300}),
    ("all written, the game row not yet 'solved'", {"sql": ["UPDATE game SET", "status"], "n": 1}, {"phase": "done", "heaps": 451}),
]


def dump(path):
    with sqlite3.connect(path) as con:
        positions = con.execute("SELECT * FROM position ORDER BY game_id, code").fetchall()
        rules = con.execute("SELECT * FROM heap_rule ORDER BY game_id, idx").fetchall()
        game = con.execute("SELECT name, status, positions, moves, info, progress FROM game").fetchall()
    con.close()
    return positions, rules, game


def test_killed_heap_solves_resume_to_identical_tables(tmp_path):
    reference = tmp_path / "reference.sqlite"
    engine = open_engine(reference, create=True)
    solve(engine, make_game("octal", **GAME), "k")
    engine.dispose()
    expected = dump(reference)
    searched_to = json.loads(expected[2][0][4])["remoteness_searched_to"]

    path = tmp_path / "killed.sqlite"
    for what, spec, progress in KILLS:
        run = subprocess.run([sys.executable, "-c", SOLVER, str(path), json.dumps(spec), json.dumps(GAME)], capture_output=True, text=True)
        assert run.returncode == -9, (what, run.stderr)
        _, _, game = dump(path)
        ((_, status, *_, stored),) = game
        stored = json.loads(stored)
        assert status == "solving", what
        assert stored.pop("searched_to", searched_to) == searched_to, what  # the resumed solve searches as far
        assert stored == progress, what
    engine = open_engine(path)
    report = solve(engine, make_game("octal", **GAME), "k")
    engine.dispose()
    assert report.resumed
    assert dump(path) == expected
