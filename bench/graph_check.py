"""Benchmark: the cat-and-mouse graph check on star graphs (one node joined to all others).

    .venv/bin/python bench/graph_check.py              # stars of 5,000 .. 65,536 nodes
    .venv/bin/python bench/graph_check.py 20000

Prints, per size, the seconds of :func:`gamedb.games.two_tokens.cat_mouse.validate_graph`
and of the rule read literally (each edge looks its reverse up in a list,
as gamedb did before: quadratic on a star, so it is timed up to 20,000
nodes only), and their ratio; then the time to refuse a 100,000-node star.
"""

from __future__ import annotations

import sys
import time

from gamedb.errors import GraphError
from gamedb.games.two_tokens.cat_mouse import MAX_NODES, validate_graph


def star(n: int) -> list[list[int]]:
    graph = [[3] for _ in range(n)]
    graph[3] = [b for b in range(n) if b != 3]
    return graph


def literal(graph) -> None:
    for a, nbrs in enumerate(graph):
        for b in nbrs:
            if a not in graph[b]:
                raise GraphError("one way")


def timed(fn, graph) -> float:
    started = time.perf_counter()
    try:
        fn(graph)
    except GraphError:
        pass
    return time.perf_counter() - started


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [5_000, 20_000, MAX_NODES]
    validate_graph(star(10))  # imports (numpy) out of the timings
    for n in sizes:
        graph = star(n)
        now = timed(validate_graph, graph)
        line = f"star of {n:>7,} nodes: check {now:6.2f} s"
        if n <= 20_000:
            before = timed(literal, graph)
            line += f", literal rule {before:7.2f} s, {before / now:6.1f}x"
        print(line, flush=True)
    print(f"star of 100,000 nodes: refused on size in {timed(validate_graph, star(100_000)):.3f} s")


if __name__ == "__main__":
    main()
