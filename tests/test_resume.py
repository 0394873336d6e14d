"""A solve killed at any moment (SIGKILL) resumes and ends with the same tables.

The solver runs in a child process that kills itself with SIGKILL at a
chosen point -- deterministically, not after some wall-clock time: on the
k-th progress report of a phase (just after a committed page or level), or
before the N-th SQL statement matching a pattern, or a few statements after
it (inside a transaction: after a page's positions but before its moves,
after a level's first update but before its commit, ...). One database is
killed at eleven points in turn, through enumeration and every propagation
phase (win/lose levels, tie levels, draws), each time resumed by the same
solve call; after every kill the file must be consistent, `query` must
refuse it and `list` must show it unfinished, and in the end every row must
equal those of an uninterrupted solve.
"""

from __future__ import annotations

import json
import random
import signal
import sqlite3
import subprocess
import sys

import pytest
from killed_cli import KILL_HOOKS
from resume_graph import BATCH, solve_reference, write_game_file

from gamedb.games import make_game
from gamedb.solvers.solve import solve
from gamedb.store.database import open_engine

SOLVER = KILL_HOOKS + """
import json, sys
from gamedb.games import make_game
from gamedb.solvers.solve import solve
from gamedb.store.database import open_engine

db, game_file, batch, spec = sys.argv[1], sys.argv[2], int(sys.argv[3]), json.loads(sys.argv[4])
engine = open_engine(db, create=True)

progress = None
if "phase" in spec:  # on a progress report (made just after a commit)
    calls = [0]
    def progress(phase, done, total):
        if phase == spec["phase"]:
            calls[0] += 1
            if calls[0] == spec.get("call") or done == spec.get("done"):
                die()
elif "sql" in spec:
    kill_at = kill_at_statement(engine, spec["sql"], spec["n"], spec.get("offset", 0))
solve(engine, make_game("graph", file=game_file), "g", batch=batch, strategy="sql", progress=progress)
"""

#: (what, kill spec, expected status and game.progress after the kill), in the order a solve meets them
KILLS = [
    ("enumeration: after the 3rd page committed", {"phase": "enumerate", "call": 3}, ("enumerating", None)),
    ("enumeration: inside the 2nd page, its positions written but not its moves", {"sql": ["INSERT INTO move"], "n": 2}, ("enumerating", None)),
    ("enumeration: inside the 2nd page, its moves written but its children not queued", {"sql": ["INSERT INTO solve_queue"], "n": 3}, ("enumerating", None)),
    ("enumeration finished, the game row not yet 'solving'", {"sql": ["UPDATE game SET", "status"], "n": 1}, ("enumerating", None)),
    ("propagation: counters started, not committed", {"sql": ["INSERT INTO solve_counter"], "n": 1, "offset": 1}, ("solving", None)),
    (
        "win/lose level 3: wins decided, counters not yet lowered",
        {"sql": ["UPDATE solve_counter SET pending"], "n": 4},
        ("solving", {"phase": "winlose", "level": 3}),
    ),
    ("win/lose: after level 10 committed", {"phase": "win/lose levels", "done": 10}, ("solving", {"phase": "winlose", "level": 10})),
    ("tie level 2: ties decided, the level not committed", {"sql": ["SET result = 3"], "n": 3, "offset": 1}, ("solving", {"phase": "tie", "level": 2})),
    ("tie levels: after level 6 committed", {"phase": "tie levels", "done": 6}, ("solving", {"phase": "tie", "level": 6})),
    ("draws: results and best moves written, the phase not committed", {"sql": ["SET result = 4"], "n": 1, "offset": 1}, ("solving", {"phase": "draw"})),
    ("propagation done, the game row not yet 'solved'", {"sql": ["UPDATE game SET", "status"], "n": 1}, ("solving", {"phase": "done"})),
]


GAME_ROW = "name, family, parameters, rules_version, impartial, status, start_code, start_position, positions, moves, info, progress"


def dump(path):
    with sqlite3.connect(path) as con:
        positions = con.execute("SELECT * FROM position ORDER BY game_id, code").fetchall()
        moves = con.execute("SELECT * FROM move ORDER BY game_id, parent, ord").fetchall()
        work = con.execute("SELECT (SELECT COUNT(*) FROM solve_queue) + (SELECT COUNT(*) FROM solve_counter)").fetchone()
        game = con.execute(f"SELECT {GAME_ROW} FROM game").fetchall()
    con.close()
    return positions, moves, work, game


@pytest.fixture(scope="module")
def game_file(tmp_path_factory):
    return write_game_file(tmp_path_factory.mktemp("graph"))


@pytest.fixture(scope="module")
def reference(tmp_path_factory, game_file):
    """An uninterrupted solve, with the same engine and page size."""
    return solve_reference(tmp_path_factory.mktemp("reference"), game_file)


def test_reference_game_has_every_phase(reference):
    with sqlite3.connect(reference) as con:
        results = dict(con.execute("SELECT v.result, COUNT(*) FROM positions v GROUP BY v.result").fetchall())  # the words
        (progress,) = con.execute("SELECT progress FROM game").fetchone()
    con.close()
    assert set(results) == {"win", "lose", "tie", "draw"}, results
    levels = json.loads(progress)
    # the kill points above lie inside these
    assert levels["winlose_levels"] > 11 and levels["tie_levels"] > 7, levels
    assert sum(results.values()) > 10 * BATCH


def _run_solver(db, game_file, spec):
    return subprocess.run([sys.executable, "-c", SOLVER, str(db), str(game_file), str(BATCH), json.dumps(spec)], capture_output=True, text=True, timeout=120)


def _state(db):
    with sqlite3.connect(db) as con:
        status, progress = con.execute("SELECT status, progress FROM game").fetchone()
        unbalanced = con.execute(  # a page is written whole or not at all
            "SELECT COUNT(*) FROM position p WHERE p.degree <> (SELECT COUNT(*) FROM move m WHERE m.game_id = p.game_id AND m.parent = p.code)"
        ).fetchone()[0]
        decided = con.execute("SELECT code, result, remoteness, best_move FROM position WHERE result IS NOT NULL").fetchall()
        count = con.execute("SELECT COUNT(*) FROM position").fetchone()[0]
    con.close()
    return status, json.loads(progress) if progress else None, unbalanced, decided, count


def test_killed_solves_resume_to_identical_tables(tmp_path, game_file, reference, cli):
    with sqlite3.connect(reference) as con:
        final = {row[0]: row[1:] for row in con.execute("SELECT code, result, remoteness, best_move FROM position")}
        primitive = {row[0] for row in con.execute("SELECT code FROM position WHERE degree = 0")}
    con.close()
    target = tmp_path / "killed.sqlite"
    counts = []
    for what, spec, (status, progress) in KILLS:
        run = _run_solver(target, game_file, spec)
        assert run.returncode == -signal.SIGKILL, f"{what}: not killed (exit {run.returncode}): {run.stderr[-2000:]}"
        got_status, got_progress, unbalanced, decided, count = _state(target)
        assert got_status == status, what
        if progress is None:
            assert got_progress is None, (what, got_progress)
        else:  # the committed level, whatever the kill rolled back
            assert {key: got_progress.get(key) for key in progress} == progress, (what, got_progress)
        assert unbalanced == 0, f"{what}: a position without all its moves"
        # whatever is decided is decided right (enumeration writes the primitive positions decided)
        wrong = [(code, value) for code, *value in decided if final[code] != tuple(value)]
        assert not wrong, (what, wrong[:5])
        if status == "enumerating":
            assert {code for code, *_ in decided} <= primitive, what
        counts.append(count)
        # an unfinished game is never answered from, and is listed as unfinished
        query = cli("query", "g", db=target)
        assert query.exit_code == 1 and "not fully solved" in query.stderr, (what, query.stderr)
        assert "Traceback" not in query.stderr
        listed = cli("list", db=target)
        assert listed.exit_code == 0 and f"UNFINISHED ({status})" in listed.stdout, (what, listed.stdout)
        assert json.loads(cli("list", "--json", db=target).stdout)[0]["status"] == status
    # enumeration was interrupted early, then went on from where it stopped
    assert 0 < counts[0] < counts[1] < counts[3] == len(final)

    run = _run_solver(target, game_file, {})  # the same solve, left to finish
    assert run.returncode == 0, run.stderr
    assert dump(target) == dump(reference)
    assert cli("verify", "g", "-q", db=target).exit_code == 0
    assert cli("query", "g", db=target).exit_code == 0
    assert "UNFINISHED" not in cli("list", db=target).stdout


def test_killed_vector_enumeration_resumes_to_identical_tables(tmp_path):
    """Cat and mouse (vector rules, move lists) killed inside and between enumeration pages.

    Its enumeration skips children it knows it queued (a bitmap kept by the
    process, empty again after a resume); the resumed solves must still find
    every position and end with the tables of an uninterrupted solve.
    """
    from oracles.cat_mouse import random_graph

    graph_file = tmp_path / "graph.json"
    graph_file.write_text(json.dumps(random_graph(random.Random(3), 9, 0.3)))
    solver = SOLVER.replace('make_game("graph", file=game_file)', 'make_game("cat-mouse", graph=game_file)').replace('"g", batch', '"cm", batch')
    reference = tmp_path / "reference.sqlite"
    engine = open_engine(reference, create=True)
    solve(engine, make_game("cat-mouse", graph=str(graph_file)), "cm", batch=BATCH, strategy="sql")
    engine.dispose()
    target = tmp_path / "killed.sqlite"
    kills = [
        {"phase": "enumerate", "call": 2},
        {"sql": ["INSERT INTO solve_queue"], "n": 3},  # a page's positions written, its children not queued
        {"phase": "enumerate", "call": 3},
        {"sql": ["INSERT INTO solve_queue"], "n": 4, "offset": 1},  # a page's children queued, not committed
    ]
    for spec in kills:
        run = subprocess.run(
            [sys.executable, "-c", solver, str(target), str(graph_file), str(BATCH), json.dumps(spec)], capture_output=True, text=True, timeout=120
        )
        assert run.returncode == -signal.SIGKILL, (spec, run.stderr[-2000:])
    run = subprocess.run([sys.executable, "-c", solver, str(target), str(graph_file), str(BATCH), "{}"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert dump(target) == dump(reference)
    with sqlite3.connect(reference) as con:
        assert con.execute("SELECT COUNT(*) FROM position").fetchone()[0] > 5 * BATCH
    con.close()
