"""Cat and mouse (LeetCode 913): gamedb against an independent in-memory queue solver.

The oracle (tests/oracles/cat_mouse.py) is the seeds' queue algorithm with
degree counters, written separately from gamedb, extended with remoteness.
"""

import json
import random
from pathlib import Path

import pytest

from gamedb import make_game

from conftest import SEED_GRAPH_1, SEED_GRAPH_2
from oracles.cat_mouse import leetcode_answer, random_graph, reachable_states, solve_queue, topdown_2n

DATA = Path(__file__).parent / "data"
TURN = {0: "mouse", 1: "cat"}


def _text(state):
    mouse, cat, turn = state
    return f"mouse={mouse},cat={cat},turn={TURN[turn]}"


def _gamedb_leetcode(answer):
    """LeetCode's 0/1/2 from gamedb's answer at the start (mouse to move)."""
    return {None: 0, "mouse": 1, "cat": 2}[answer.winner]


ENGINES = pytest.mark.parametrize("engine", ["sql", "memory", "retrograde"])


def _compare(db, graph, name="g", engine="auto"):
    db.solve(make_game("cat-mouse", graph=graph), name, strategy=engine)
    expected = solve_queue(graph)
    reachable = reachable_states(graph)
    stored = {row["text"]: (row["result"], row["remoteness"]) for row in db.positions(name)}
    assert len(stored) == len(reachable)
    for state in reachable:
        assert stored[_text(state)] == expected[state], (graph, state)
    return expected


@ENGINES
@pytest.mark.parametrize("graph,answer", [(SEED_GRAPH_1, 0), (SEED_GRAPH_2, 1), ([[2, 3], [3, 4], [0, 4], [0, 1], [1, 2]], 1)])
def test_seed_examples(fresh_db, graph, answer, engine):
    db = fresh_db()
    _compare(db, graph, engine=engine)
    assert _gamedb_leetcode(db.probe("g")) == answer


@ENGINES
def test_300_random_graphs_match_queue_solver(fresh_db, engine):
    rng = random.Random(913)
    outcomes = {0: 0, 1: 0, 2: 0}
    for _ in range(300):
        n = rng.randint(3, 30)
        graph = random_graph(rng, n, rng.choice([0.08, 0.15, 0.3, 0.5]))
        db = fresh_db()
        expected = _compare(db, graph, engine=engine)
        answer = _gamedb_leetcode(db.probe("g"))
        assert answer == leetcode_answer(expected)
        outcomes[answer] += 1
        db.close()
    # the sample exercises all three outcomes
    assert all(count > 10 for count in outcomes.values()), outcomes


@ENGINES
def test_graphs_where_draw_after_2n_moves_is_wrong(fresh_db, engine):
    """On these graphs the classic top-down search (draw once 2n moves are played) answers wrongly."""
    cases = json.loads((DATA / "cat_mouse_2n_counterexamples.json").read_text())
    assert len(cases) >= 3
    for case in cases:
        graph = case["graph"]
        db = fresh_db()
        expected = _compare(db, graph, engine=engine)
        answer = db.probe("g")
        assert _gamedb_leetcode(answer) == leetcode_answer(expected) == case["queue_answer"]
        assert topdown_2n(graph) != case["queue_answer"]
        # the true game lasts at least the 2n plies after which the top-down search calls a draw
        assert answer.remoteness is not None and answer.remoteness >= 2 * len(graph)
        db.close()


def test_the_two_token_code_in_sql_is_the_python_code():
    """code_sql and tokens_sql (what the SQL engine and move lists use) compute what code_of does."""
    import sqlite3

    import numpy as np

    from gamedb.games.two_tokens import code_of, code_sql, tokens_sql

    con = sqlite3.connect(":memory:")
    for n in (1, 2, 5, 13):
        cases = [(a, b, turn) for a in range(n) for b in range(n) for turn in (0, 1)]
        for a, b, turn in cases:
            code = code_of(a, b, turn, n)
            assert code == (a * n + b) * 2 + turn  # the layout the module docstrings describe
            assert con.execute(f"SELECT {code_sql(':a', ':b', turn, ':n')}", {"a": a, "b": b, "n": n}).fetchone() == (code,)
            assert con.execute(f"SELECT {', '.join(tokens_sql(':c', ':n'))}", {"c": code, "n": n}).fetchone() == (a, b)
        a, b, turn = (np.array(column) for column in zip(*cases, strict=True))
        assert code_of(a, b, turn, n).tolist() == [code_of(*case, n) for case in cases]
