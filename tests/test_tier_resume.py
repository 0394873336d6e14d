"""A tier solve killed at any moment (SIGKILL) resumes and ends with the same tables.

The solver runs in a child process that kills itself on a chosen progress
report (after a tier is solved and committed, after a range of rows is
written and committed) or before the n-th SQL statement matching a pattern
(inside a range's transaction, before the indexes are built). One database
is killed at every point in turn and resumed by the same solve call; after
every kill ``query`` refuses the game and the tiers already solved are not
solved again; in the end every row equals an uninterrupted solve's. A solve
whose work folder is lost starts again from the beginning.
"""

from __future__ import annotations

import json
import shutil
import signal
import sqlite3
import subprocess
import sys

import pytest
from killed_cli import KILL_HOOKS

from gamedb.games import make_game
from gamedb.solvers.solve import solve
from gamedb.store.database import open_engine

OPTIONS = {"width": 4, "height": 4}

SOLVER = KILL_HOOKS + """
import json, sys
import gamedb.solvers.tier_store as tier_store
from gamedb.games import make_game
from gamedb.solvers.solve import solve
from gamedb.store.database import open_engine

db, spec, options = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
tier_store.WRITE_CHUNK = 20_000  # some ten committed ranges of rows
engine = open_engine(db, create=True)
phases = []

def progress(phase, done, total):
    phases.append(phase)
    if phase == spec.get("phase"):
        if phases.count(phase) == spec["call"]:
            die()

if "sql" in spec:
    kill_at_statement(engine, spec["sql"], spec["n"])
solve(engine, make_game("connect4", **options), "g", strategy="tiers", progress=progress, symmetry=spec.get("symmetry", False))
print(json.dumps(sorted(set(phases))))
"""

#: (what, kill spec, the progress keys expected after the kill)
KILLS = [
    ("while enumerating the tiers", {"phase": "enumerate tiers", "call": 2}, None),  # no game row yet
    ("after the 3rd tier solved (tier 14)", {"phase": "solve tiers", "call": 3}, {"solved_from": 14}),
    ("after 3 more tiers solved (tier 11)", {"phase": "solve tiers", "call": 3}, {"solved_from": 11}),
    ("after every tier solved, inside the first range of rows", {"sql": ["INSERT INTO position"], "n": 1}, {"solved_from": 0}),
    ("after 2 ranges of rows committed", {"phase": "write", "call": 2}, {"solved_from": 0}),
    ("inside the 3rd range", {"sql": ["INSERT INTO position"], "n": 1}, {"solved_from": 0}),
    ("before the indexes are built", {"sql": ["CREATE", "INDEX"], "n": 1}, {"solved_from": 0}),
]


def _run(db, spec, symmetry=False):
    spec = {**spec, "symmetry": symmetry}
    return subprocess.run([sys.executable, "-c", SOLVER, str(db), json.dumps(spec), json.dumps(OPTIONS)], capture_output=True, text=True, timeout=300)


def _rows(path):
    with sqlite3.connect(path) as con:
        rows = con.execute("SELECT code, text, player, result, remoteness, degree, best_move, grundy FROM position ORDER BY code").fetchall()
        status, progress = con.execute("SELECT status, progress FROM game").fetchone() or (None, None)
    con.close()
    return rows, status, json.loads(progress) if progress else None


@pytest.fixture(scope="module")
def every_row(tmp_path_factory):
    path = tmp_path_factory.mktemp("reference") / "reference.sqlite"
    engine = open_engine(path, create=True)
    solve(engine, make_game("connect4", **OPTIONS), "g", strategy="memory")
    engine.dispose()
    return _rows(path)[0]


@pytest.fixture(params=[False, True], ids=["every-position", "symmetry"])
def symmetry(request):
    return request.param


@pytest.fixture
def reference(every_row, symmetry):
    """The rows of an uninterrupted solve; with symmetry, exactly its rows of the canonical positions."""
    game = make_game("connect4", **OPTIONS)
    return [row for row in every_row if game.canonical(row[0]) == row[0]] if symmetry else every_row


def test_killed_tier_solves_resume_to_identical_rows(tmp_path, reference, symmetry, cli):
    target = tmp_path / "killed.sqlite"
    written = []
    for what, spec, progress in KILLS:
        run = _run(target, spec, symmetry)
        assert run.returncode == -signal.SIGKILL, f"{what}: not killed (exit {run.returncode}): {run.stderr[-2000:]}"
        rows, status, got = _rows(target)
        assert status != "solved", what
        query = cli("query", "g", db=target)
        if progress is None:  # killed before the game row was made: nothing stored
            assert status is None and not rows, what
            assert query.exit_code == 1 and "no game named 'g'" in query.stderr, (what, query.stderr)
        else:
            assert {key: got.get(key) for key in progress} == progress, (what, got)
            assert query.exit_code == 1 and "not fully solved" in query.stderr, (what, query.stderr)
        assert set(rows) <= set(reference), what  # what is written is written right
        written.append(len(rows))
    # committed ranges stay, a range killed inside its transaction leaves nothing
    assert 0 < written[4] == written[5] < written[-1] == len(reference)
    run = _run(target, {}, symmetry)
    assert run.returncode == 0, run.stderr[-2000:]
    assert json.loads(run.stdout) == []  # every row was written: only the indexes and the game row were left
    rows, status, _ = _rows(target)
    assert status == "solved" and rows == reference
    assert not list(tmp_path.glob("killed.sqlite.tiers-*"))  # the work folder is gone
    with sqlite3.connect(target) as con:
        indexes = {name for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'position'")}
    con.close()
    assert {"ix_position_text", "ix_position_remoteness"} <= indexes


def test_a_lost_work_folder_starts_the_solve_again(tmp_path, reference, symmetry):
    target = tmp_path / "lost.sqlite"
    run = _run(target, {"phase": "write", "call": 2}, symmetry)
    assert run.returncode == -signal.SIGKILL
    assert _rows(target)[0]
    for folder in tmp_path.glob("lost.sqlite.tiers-*"):
        shutil.rmtree(folder)
    run = _run(target, {}, symmetry)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "enumerate tiers" in json.loads(run.stdout)
    rows, status, _ = _rows(target)
    assert status == "solved" and rows == reference
