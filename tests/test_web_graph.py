"""The cat-and-mouse picture in a real browser: no edge is drawn through a node that is not one of its ends.

The drawn geometry is read back from the page: every edge element is sampled along its length, every pixel
(``getPointAtLength``) and every sample must keep more than the node's radius from every node that
is not one of the edge's two ends, for the LeetCode 913 examples and for random graphs of up to 50 nodes.
"""

from __future__ import annotations

import random

import pytest
import test_web_browser as shared

from conftest import SEED_GRAPH_1

# the browser and its pages as test_web_browser starts them
browser, page, server = shared.browser, shared.page, shared.server
open_url = shared.open_url


LEETCODE_2 = [[1, 3], [0], [3], [0, 2]]  # LeetCode 913 example 2

# the drawing read back: nodes (centre, radius), edges sampled every pixel; the closest pass of each edge
MEASURE = """(board) => {
  const nodes = [...board.querySelectorAll("circle[data-node]")].map((c) => ({
    v: Number(c.dataset.node), x: c.cx.baseVal.value, y: c.cy.baseVal.value, r: c.r.baseVal.value }));
  const edges = [...board.querySelectorAll("[data-edge]")].map((e) => {
    const [a, b] = e.dataset.edge.split("-").map(Number);
    const length = e.getTotalLength();
    let closest = Infinity, node = null;
    for (let s = 0; s <= length; s += 1) {
      const p = e.getPointAtLength(s);
      for (const n of nodes) {
        if (n.v === a || n.v === b) continue;
        const d = Math.hypot(p.x - n.x, p.y - n.y) - n.r;
        if (d < closest) { closest = d; node = n.v; }
      }
    }
    return { a, b, closest, node };
  });
  const box = board.viewBox.baseVal;
  return { nodes, edges, width: box.width, height: box.height };
}"""

# draws a graph with the page's own module, as the board does, into the page
DRAW = """async (graph) => {
  const { catMouseBoard } = await import("/static/graph_board.js");
  const info = { family: "cat-mouse", parameters: { graph } };
  const answer = { position: "mouse=1,cat=2,turn=mouse" };
  const board = catMouseBoard(info, answer, new Map());
  document.getElementById("board").replaceChildren(board);
  return true;
}"""


def edges_of(graph):
    return sorted((a, b) for a, ends in enumerate(graph) for b in ends if a < b)


def check_drawing(drawn, graph):
    n = len(graph)
    assert sorted(node["v"] for node in drawn["nodes"]) == list(range(n))
    assert sorted((e["a"], e["b"]) for e in drawn["edges"]) == edges_of(graph)  # every edge, once, none invented
    through = [e for e in drawn["edges"] if e["closest"] <= 0]
    assert not through, f"edges drawn through a node that is not their end: {through[:5]} in {graph}"
    for i, p in enumerate(drawn["nodes"]):  # nodes apart, and inside the picture
        assert p["r"] <= p["x"] <= drawn["width"] - p["r"] and p["r"] <= p["y"] <= drawn["height"] - p["r"], p
        for q in drawn["nodes"][i + 1:]:
            assert ((p["x"] - q["x"]) ** 2 + (p["y"] - q["y"]) ** 2) ** 0.5 > p["r"] + q["r"], (p, q)


def random_graph(rng, n, density):
    """An undirected graph on n nodes, every node with a neighbour (as LeetCode 913 asks), no self-loops."""
    ends = [set() for _ in range(n)]
    for a in range(n):
        for b in range(a + 1, n):
            if rng.random() < density:
                ends[a].add(b)
                ends[b].add(a)
    for a in range(n):
        if not ends[a]:
            b = rng.choice([v for v in range(n) if v != a])
            ends[a].add(b)
            ends[b].add(a)
    return [sorted(e) for e in ends]


def test_leetcode_example_1_on_the_served_page(page, server):
    # the picture that showed edges 3-4 and 2-5 as lines through the hole
    open_url(page, server.url + "?game=cat-mouse")
    drawn = page.locator("#board svg").evaluate(MEASURE)
    check_drawing(drawn, SEED_GRAPH_1)
    assert page.problems == []


def test_leetcode_examples_and_random_graphs(page, server):
    open_url(page, server.url + "?game=cat-mouse")
    rng = random.Random(913)
    graphs = [SEED_GRAPH_1, LEETCODE_2]
    for n in (3, 5, 8, 12, 20, 30, 40, 50):
        for density in (0.05, 0.15, 0.3):
            graphs.append(random_graph(rng, n, density))
    graphs.append([[b for b in range(50) if b != a and abs(a - b) in (1, 7, 13)] for a in range(50)])  # a regular pattern
    for graph in graphs:
        page.evaluate(DRAW, graph)
        check_drawing(page.locator("#board svg").evaluate(MEASURE), graph)
    assert page.problems == []


@pytest.mark.parametrize("graph", [[[1, 2], [0, 2], [0, 1]], [[1], [0, 2], [1, 3], [2]]])
def test_small_graphs_keep_straight_edges_when_clear(page, server, graph):
    # a triangle and a path: nothing is in the way, so every edge is a straight line
    open_url(page, server.url + "?game=cat-mouse")
    page.evaluate(DRAW, graph)
    paths = page.locator("#board [data-edge]").evaluate_all("els => els.map(e => e.getAttribute('d'))")
    assert len(paths) == len(edges_of(graph)) and all(" L " in d and " Q " not in d for d in paths)
