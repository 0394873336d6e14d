"""Search for graphs where the seed's top-down "draw after 2n plies" search is wrong.

A script, not a test. Usage (from the repository root)::

    .venv/bin/python tests/find_2n_counterexamples.py [--seed 1] [--min-n 8]
        [--max-n 12] [--seconds 120] [--out tests/data/cat_mouse_2n_counterexamples.json]

Why 2n is too small: ``topdown_2n`` is an exact depth-limited minimax (its
memo key includes the ply count), and it calls every line that has not ended
by ply 2n a draw (a game ending exactly on ply 2n is cut off too). So it is
wrong exactly when the start position is a forced win for one side whose
remoteness is >= 2n: the loser can then always drag the game past the
horizon. There are 2n(n-1) positions, far more than 2n, so nothing forces a
won game to end within 2n plies; on small graphs the longest forced win is
short, though (an exhaustive run over every LeetCode-valid graph of at most
7 nodes finds start remoteness at most 12 < 14), so counterexamples start at
n = 8.

Plan: pure random sampling finds them only rarely (about 3 in 340,000
graphs of 4..14 nodes), so after a short random phase the script climbs
hills: starting from a random graph it toggles one or two edges at a time
and keeps the change if the start position's remoteness (for the wanted
winner) does not drop, restarting when stuck. It looks for one mouse-win
and one cat-win counterexample for each n, drops every edge it can without
losing the counterexample, checks every hit against ``topdown_2n`` and
writes the one with fewest edges per (n, winner) to JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # tests/, as pytest does

from oracles.cat_mouse import (  # noqa: E402
    CAT_START,
    LC_CAT,
    LC_DRAW,
    LC_MOUSE,
    MOUSE,
    MOUSE_START,
    leetcode_answer,
    random_graph,
    reachable_states,
    solve_queue,
    stuck_states,
    topdown_2n,
)

START = (MOUSE_START, CAT_START, MOUSE)
DEFAULT_OUT = Path(__file__).resolve().parent / "data" / "cat_mouse_2n_counterexamples.json"


def is_valid(graph: list[list[int]]) -> bool:
    """LeetCode-valid: every node has a neighbour and no player is ever stuck."""
    if not all(graph):
        return False
    reach = reachable_states(graph)
    return not any(s in reach for s in stuck_states(graph))


def start_value(graph: list[list[int]]) -> tuple[int, int | None]:
    """(LeetCode answer, start remoteness) from the queue solver."""
    values = solve_queue(graph)
    return leetcode_answer(values), values[START][1]


def score(graph: list[list[int]], winner: int | None) -> int:
    """Start remoteness minus 2n if ``winner`` (or anyone, if None) wins, else -inf-ish."""
    answer, remoteness = start_value(graph)
    if remoteness is None or (winner is not None and answer != winner):
        return -10**6
    return remoteness - 2 * len(graph)


def toggled(graph: list[list[int]], a: int, b: int) -> list[list[int]]:
    """A copy of ``graph`` with edge a-b added or removed."""
    g = [list(nbrs) for nbrs in graph]
    if b in g[a]:
        g[a].remove(b)
        g[b].remove(a)
    else:
        g[a] = sorted(g[a] + [b])
        g[b] = sorted(g[b] + [a])
    return g


def hill_climb(rng: random.Random, n: int, winner: int | None, deadline: float):
    """Local search for a graph on n nodes whose start remoteness is >= 2n."""
    while time.monotonic() < deadline:
        g = random_graph(rng, n, rng.choice([0.0, 0.1, 0.2, 0.3, 0.5]))
        s = score(g, winner)
        stall = 0
        while stall < 300 and time.monotonic() < deadline:
            h = toggled(g, *rng.sample(range(n), 2))
            if rng.random() < 0.3:
                h = toggled(h, *rng.sample(range(n), 2))
            if not is_valid(h):
                continue
            sh = score(h, winner)
            if sh >= s:
                stall = 0 if sh > s else stall + 1
                g, s = h, sh
            else:
                stall += 1
            if s >= 0:
                return g
    return None


def prune(graph: list[list[int]]) -> list[list[int]]:
    """Drop edges one at a time while the graph stays a valid counterexample
    with the same winner, to leave a smaller graph to read."""
    winner = start_value(graph)[0]
    changed = True
    while changed:
        changed = False
        for a in range(len(graph)):
            for b in list(graph[a]):
                if b < a:
                    continue
                h = toggled(graph, a, b)
                if is_valid(h) and score(h, winner) >= 0:
                    graph, changed = h, True
    return graph


def random_phase(rng: random.Random, min_n: int, max_n: int, deadline: float):
    """Plain random sampling; yields counterexample graphs as found."""
    while time.monotonic() < deadline:
        n = rng.randint(min_n, max_n)
        g = random_graph(rng, n, rng.choice([0.0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5]))
        if score(g, None) >= 0:
            yield g


def record(graph: list[list[int]]) -> dict:
    """The JSON object for one verified counterexample."""
    answer, remoteness = start_value(graph)
    top = topdown_2n(graph)
    assert top != answer, "not a counterexample"
    assert is_valid(graph)
    return {
        "graph": graph,
        "n": len(graph),
        "queue_answer": answer,
        "topdown_2n_answer": top,
        "start_remoteness": remoteness,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--min-n", type=int, default=8)
    parser.add_argument("--max-n", type=int, default=12)
    parser.add_argument("--seconds", type=float, default=60.0, help="budget per (n, winner) climb")
    parser.add_argument("--random-seconds", type=float, default=30.0)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)

    found: dict[tuple[int, int], dict] = {}  # (n, winner) -> smallest record so far

    def keep(graph: list[list[int]]) -> None:
        graph = prune(graph)
        rec = record(graph)
        key = (rec["n"], rec["queue_answer"])
        edges = sum(map(len, graph))
        old = found.get(key)
        if old is None or edges < sum(map(len, old["graph"])):
            found[key] = rec
            print(f"n={rec['n']} answer={rec['queue_answer']} 2n-search={rec['topdown_2n_answer']} "
                  f"remoteness={rec['start_remoteness']} graph={graph}", flush=True)

    for g in random_phase(rng, 5, 14, time.monotonic() + args.random_seconds):
        keep(g)
    for n in range(args.min_n, args.max_n + 1):
        for winner in (LC_MOUSE, LC_CAT):
            if (n, winner) in found:
                continue
            g = hill_climb(rng, n, winner, time.monotonic() + args.seconds)
            if g is not None:
                keep(g)

    records = sorted(found.values(), key=lambda r: (r["n"], r["queue_answer"]))
    assert all(r["queue_answer"] != LC_DRAW for r in records)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    # one counterexample per line keeps the file readable and diffable
    lines = ",\n".join(" " + json.dumps(r) for r in records)
    args.out.write_text("[\n" + lines + "\n]\n")
    print(f"wrote {len(records)} counterexamples to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
