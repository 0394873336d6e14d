"""The cat-and-mouse graph check: the same verdicts as the rule read literally, in linear time, size first.

A 100,000-node star graph (one node joined to all others) spent a minute in
the check, each edge looking its reverse up in a list, before the game was
refused on size; stored in a shared file it made every `query` take as long.
Speed is measured in ``bench/``; here: correctness against a literal oracle,
and the big cases through the CLI (they finish in well under a second each).
"""

from __future__ import annotations

import json
import random
import sqlite3

import pytest

from gamedb.errors import GraphError
from gamedb.games.two_tokens.cat_mouse import MAX_NODES, validate_graph


def literal_symmetry_error(graph) -> str | None:
    """Oracle: the first entry graph[a][j] = b (in list order) whose edge is not listed at b, as the rule says it."""
    for a, nbrs in enumerate(graph):
        for j, b in enumerate(nbrs):
            if a not in graph[b]:
                return f"graph[{a}][{j}] = {b}: edge {a}-{b} is listed one way only ({a} missing from graph[{b}])"
    return None


def star(n: int, centre: int = 3) -> list[list[int]]:
    graph = [[centre] for _ in range(n)]
    graph[centre] = [b for b in range(n) if b != centre]
    return graph


def _random_graph(rng: random.Random, n: int) -> list[list[int]]:
    edges = {(a, b) for a in range(n) for b in range(a + 1, n) if rng.random() < 0.4}
    graph = [[] for _ in range(n)]
    for a, b in sorted(edges):
        graph[a].append(b)
        graph[b].append(a)
    for nbrs in graph:
        rng.shuffle(nbrs)
    for _ in range(rng.choice([0, 0, 1, 2, 3])):  # drop the reverse of a few edges
        a = rng.randrange(n)
        if len(graph[a]) > 1:
            graph[a].pop(rng.randrange(len(graph[a])))
    return graph


def test_symmetry_verdicts_match_the_literal_rule():
    rng = random.Random(913)
    checked = one_way = 0
    for _ in range(800):
        graph = _random_graph(rng, rng.randint(3, 9))
        if any(not nbrs for nbrs in graph) or any(all(b == 0 for b in graph[a]) for a in range(1, len(graph))):
            continue  # other checks speak first; the symmetry verdict is what is compared here
        expected = literal_symmetry_error(graph)
        try:
            validate_graph(graph)
            got = None
        except GraphError as exc:
            got = str(exc)
        if expected is None:
            assert got is None or "the cat can reach" in got, got
        else:
            assert got == expected
            one_way += 1
        checked += 1
    assert checked > 300 and one_way > 80


def test_the_largest_star_is_accepted_and_a_missing_reverse_edge_named():
    graph = star(MAX_NODES)
    assert validate_graph(graph) == graph
    leaf = MAX_NODES - 1
    graph[leaf] = [3, 1]  # 1 does not list `leaf`
    graph[1] = [3]
    with pytest.raises(GraphError, match=rf"^graph\[{leaf}\]\[1\] = 1: edge {leaf}-1 is listed one way only \({leaf} missing from graph\[1\]\)$"):
        validate_graph(graph)


def test_a_graph_too_large_is_refused_before_its_edges_are_looked_at(cli, db_path, tmp_path):
    path = tmp_path / "star.json"
    path.write_text(json.dumps(star(100_000)))  # 1.2 MB
    run = cli("solve", "cat-mouse", "--graph", str(path), "-q")
    assert run.exit_code == 2
    assert run.stderr.strip() == "Error: graph has 100,000 nodes, more than 65,536: its game would have up to 20,000,000,000 positions"
    assert not db_path.exists()
    broken = star(100_000)
    broken[5] = ["not even a node"]  # refused on size all the same: the entries are not read
    path.write_text(json.dumps(broken))
    assert "more than 65,536" in cli("solve", "cat-mouse", "--graph", str(path), "-q").stderr


def test_a_shared_file_with_a_huge_stored_graph_answers_promptly(cli, db_path):
    """A file whose stored cat-mouse graph is the largest star: each query checks the graph (linear) and answers."""
    assert cli("solve", "cat-mouse", "--graph", json.dumps([[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]), "--name", "cm", "-q").exit_code == 0
    with sqlite3.connect(db_path) as con:
        con.execute("UPDATE game SET parameters = ? WHERE name = 'cm'", (json.dumps({"graph": star(MAX_NODES)}),))
    con.close()
    before = db_path.read_bytes()
    run = cli("query", "cm")
    # the start of the star game is not among the stored positions: one line, exit 1
    assert run.exit_code == 1 and run.stderr.startswith("Error: position 'mouse=1,cat=2,turn=mouse' is not reachable"), run.stderr
    assert db_path.read_bytes() == before
