"""Other processes during a solve: readers see finished games, a second solve of the same game is refused."""

import json
import random
import subprocess
import sys
import time

from gamedb import Database, make_game

from oracles.cat_mouse import random_graph


def gamedb(db, *args):
    return subprocess.run([sys.executable, "-m", "gamedb", "--db", str(db), *args], capture_output=True, text=True, timeout=300)


def test_readers_and_writers_during_a_solve(tmp_path):
    db = tmp_path / "busy.sqlite"
    Database(db, create=True).solve(make_game("tictactoe"))
    graph = tmp_path / "graph.json"
    graph.write_text(json.dumps(random_graph(random.Random(3), 200, 0.04)))

    solver = subprocess.Popen(
        [sys.executable, "-m", "gamedb", "--db", str(db), "solve", "cat-mouse", "--graph", str(graph), "-q", "--strategy", "sql"],  # SQL: long enough to watch
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        # wait until the solve has registered its game
        deadline = time.time() + 60
        while time.time() < deadline:
            listed = gamedb(db, "list", "--json")
            if listed.returncode == 0 and any(g["name"] == "cat-mouse" for g in json.loads(listed.stdout)):
                break
            time.sleep(0.05)
        seen_unfinished = False
        second_refused = False
        finished_reads = 0
        while solver.poll() is None:
            second = gamedb(db, "solve", "cat-mouse", "--graph", str(graph), "-q")
            if second.returncode == 1 and "being solved by another process" in second.stderr:
                second_refused = True
            query = gamedb(db, "query", "cat-mouse")
            if query.returncode == 1 and "not fully solved" in query.stderr:
                seen_unfinished = True
            done = gamedb(db, "query", "tictactoe", "--json")
            assert done.returncode == 0, done.stderr
            assert json.loads(done.stdout)["result"] == "tie"
            finished_reads += 1
            if second_refused and seen_unfinished:
                break
        # a different game solves into the same file meanwhile (it runs or waits, never corrupts)
        other = gamedb(db, "solve", "tictactoe", "--name", "ttt2", "-q")
        assert other.returncode == 0, other.stderr
    finally:
        out, err = solver.communicate(timeout=300)
    assert solver.returncode == 0, err
    assert second_refused and seen_unfinished and finished_reads > 0
    assert gamedb(db, "verify", "cat-mouse", "-q").returncode == 0
    assert gamedb(db, "verify", "ttt2", "-q").returncode == 0
    listed = {g["name"]: g["status"] for g in json.loads(gamedb(db, "list", "--json").stdout)}
    assert listed == {"cat-mouse": "solved", "tictactoe": "solved", "ttt2": "solved"}
