"""Self-checks of the cat-and-mouse oracle (tests/oracles/cat_mouse.py).

The oracle is what gamedb's cat-mouse solver is checked against, so it is
checked here on its own: LeetCode's examples, two structurally different
solvers agreeing on every state of 300 random graphs, the one-step equations
holding everywhere, and the stored graphs on which the seed's "draw after
2n plies" search is wrong.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from oracles.cat_mouse import (
    CAT,
    CAT_START,
    DRAW,
    LC_CAT,
    LC_DRAW,
    LC_MOUSE,
    LOSE,
    MOUSE,
    MOUSE_START,
    WIN,
    all_states,
    children,
    leetcode_answer,
    primitive,
    random_graph,
    reachable_states,
    solve_queue,
    solve_value_iteration,
    stuck_states,
    topdown_2n,
)

START = (MOUSE_START, CAT_START, MOUSE)
COUNTEREXAMPLES = Path(__file__).parent / "data" / "cat_mouse_2n_counterexamples.json"

EXAMPLES = [
    # (graph, LeetCode answer)
    ([[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]], LC_DRAW),  # seed example 1
    ([[1, 3], [0], [3], [0, 2]], LC_MOUSE),  # seed example 2
    ([[2, 3], [3, 4], [0, 4], [0, 1], [1, 2]], LC_MOUSE),
]


def random_graphs(count: int, min_n: int, max_n: int, seed: int):
    """Deterministic random graphs of varied size and density."""
    rng = random.Random(seed)
    for _ in range(count):
        n = rng.randint(min_n, max_n)
        p = rng.choice([0.0, 0.05, 0.1, 0.2, 0.35, 0.6])
        yield random_graph(rng, n, p)


def load_counterexamples() -> list[dict]:
    return json.loads(COUNTEREXAMPLES.read_text())


# --- examples -------------------------------------------------------------


@pytest.mark.parametrize("graph,expected", EXAMPLES)
def test_leetcode_examples(graph, expected):
    assert leetcode_answer(solve_queue(graph)) == expected
    assert leetcode_answer(solve_value_iteration(graph)) == expected
    assert topdown_2n(graph) == expected  # the 2n search is right on these


def test_primitive_values():
    values = solve_queue([[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]])
    assert values[(0, 3, MOUSE)] == (WIN, 0)  # mouse to move has escaped
    assert values[(0, 3, CAT)] == (LOSE, 0)
    assert values[(4, 4, CAT)] == (WIN, 0)  # cat to move has caught it
    assert values[(4, 4, MOUSE)] == (LOSE, 0)


def test_example_2_start_line():
    # mouse 1 -> 0 at once: win in one ply
    values = solve_queue([[1, 3], [0], [3], [0, 2]])
    assert values[START] == (WIN, 1)


def test_stuck_cat_is_a_loss():
    # node 1 touches only the hole: a cat there (never reachable) cannot move
    graph = [[1, 3], [0], [3], [0, 2]]
    assert stuck_states(graph) == [(2, 1, CAT), (3, 1, CAT)]
    assert not set(stuck_states(graph)) & reachable_states(graph)
    values = solve_queue(graph)
    assert values == solve_value_iteration(graph)
    assert values[(3, 1, CAT)] == (LOSE, 0)


# --- the two solvers agree ---------------------------------------------------


def test_queue_equals_value_iteration_on_random_graphs():
    for i, graph in enumerate(random_graphs(300, 3, 30, seed=913)):
        q = solve_queue(graph)
        v = solve_value_iteration(graph)
        assert set(q) == set(all_states(graph)), i
        bad = [s for s in q if q[s] != v[s]]
        assert not bad, (i, graph, bad[:5])


def test_values_satisfy_the_one_step_equations():
    """Each value follows from its children's values (Gamesman rules)."""
    for graph in random_graphs(60, 3, 16, seed=7):
        values = solve_queue(graph)
        for s, (result, remoteness) in values.items():
            if primitive(s) is not None:
                assert (result, remoteness) == (primitive(s), 0)
                continue
            kids = [values[c] for c in children(graph, s)]
            assert kids, "random graphs never leave a player stuck"
            loses = [r for res, r in kids if res == LOSE]
            if loses:
                assert (result, remoteness) == (WIN, 1 + min(loses))
            elif all(res == WIN for res, _ in kids):
                assert (result, remoteness) == (LOSE, 1 + max(r for _, r in kids))
            else:
                assert (result, remoteness) == (DRAW, None)


# --- helpers ---------------------------------------------------------------


def test_random_graph_guarantees():
    rng = random.Random(0)
    for _ in range(200):
        n = rng.randint(3, 30)
        g = random_graph(rng, n, rng.random() * 0.5)
        assert len(g) == n
        for a, nbrs in enumerate(g):
            assert nbrs == sorted(set(nbrs)) and a not in nbrs
            assert 1 <= len(nbrs) < n
            assert all(a in g[b] for b in nbrs)
            if a != 0:
                assert any(b != 0 for b in nbrs)
        # connected
        seen, todo = {0}, [0]
        while todo:
            for b in g[todo.pop()]:
                if b not in seen:
                    seen.add(b)
                    todo.append(b)
        assert len(seen) == n
        assert stuck_states(g) == []


def test_reachable_states():
    graph = [[1, 3], [0], [3], [0, 2]]
    # mouse goes 1 -> 0 and the game is over
    assert reachable_states(graph) == {START, (0, 2, CAT)}
    graph = [[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]
    reach = reachable_states(graph)
    assert START in reach
    for s in reach:
        if s != START:
            assert any(s in children(graph, p) for p in reach)
        if primitive(s) is not None:
            assert children(graph, s) == []
        assert s[1] != 0


def test_topdown_2n_is_exactly_a_2n_horizon():
    """topdown_2n is right unless the start is a forced win needing >= 2n plies."""
    for graph in random_graphs(150, 3, 10, seed=2):
        values = solve_queue(graph)
        result, remoteness = values[START]
        if remoteness is not None and remoteness >= 2 * len(graph):
            assert topdown_2n(graph) == LC_DRAW
        else:
            assert topdown_2n(graph) == leetcode_answer(values)


# --- counterexamples to the 2n bound --------------------------------------------


def test_counterexample_file_has_at_least_three_graphs():
    records = load_counterexamples()
    assert len(records) >= 3
    assert len({json.dumps(r["graph"]) for r in records}) == len(records)
    assert len({r["n"] for r in records}) >= 2


@pytest.mark.parametrize("record", load_counterexamples(), ids=lambda r: f"n{r['n']}-{r['queue_answer']}")
def test_topdown_2n_is_wrong_on_counterexamples(record):
    graph = record["graph"]
    n = len(graph)
    assert record["n"] == n
    assert all(graph) and not set(stuck_states(graph)) & reachable_states(graph)
    values = solve_queue(graph)
    assert values == solve_value_iteration(graph)
    answer = leetcode_answer(values)
    assert answer in (LC_MOUSE, LC_CAT)
    assert answer == record["queue_answer"]
    assert values[START][1] == record["start_remoteness"] >= 2 * n
    top = topdown_2n(graph)
    assert top == record["topdown_2n_answer"] == LC_DRAW
    assert top != answer
