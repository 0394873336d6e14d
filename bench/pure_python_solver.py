"""The pure-Python solver the big graph's gamedb solve is compared with (section 1 of bench/run.py).

The seeds' queue algorithm for cat and mouse (LeetCode 913) with degree
counters, plain lists and a deque: no numpy, no database. Its values are
checked against gamedb's stored ones on a sample of positions.
"""

from __future__ import annotations

import json
import random
import sqlite3
import time
from collections import deque
from pathlib import Path

from report import peak_mb

from gamedb.values import RESULT_WORDS

MOUSE_TURN, CAT_TURN = 0, 1
DRAW, MOUSE_WIN, CAT_WIN = 0, 1, 2


def pure_python_solve(graph: list[list[int]]):
    """The seeds' queue algorithm (LeetCode 913, seed 000), with remoteness.

    ``results[mouse][cat][turn]`` is DRAW / MOUSE_WIN / CAT_WIN and
    ``degrees`` counts each state's moves not yet known to lose. The queue
    starts with the game-over states; popping a state walks its predecessors:
    a predecessor whose mover wins here is won at once, any other one loses a
    degree and is lost at zero. Each decided state gets remoteness = the
    popped state's + 1 (the queue pops in nondecreasing remoteness, so a win
    takes its shortest win and a loss its longest). Undecided states are draws.
    """
    n = len(graph)
    degrees = [[[0, 0] for _ in range(n)] for _ in range(n)]
    results = [[[DRAW, DRAW] for _ in range(n)] for _ in range(n)]
    remoteness = [[[None, None] for _ in range(n)] for _ in range(n)]
    for mouse in range(n):
        for cat in range(1, n):
            degrees[mouse][cat][MOUSE_TURN] = len(graph[mouse])
            degrees[mouse][cat][CAT_TURN] = len(graph[cat])
    for node in graph[0]:  # the cat may not enter the hole
        for mouse in range(n):
            degrees[mouse][node][CAT_TURN] -= 1
    queue = deque()
    for cat in range(1, n):
        for turn in (MOUSE_TURN, CAT_TURN):
            results[0][cat][turn] = MOUSE_WIN
            remoteness[0][cat][turn] = 0
            queue.append((0, cat, turn))
    for node in range(1, n):
        for turn in (MOUSE_TURN, CAT_TURN):
            results[node][node][turn] = CAT_WIN
            remoteness[node][node][turn] = 0
            queue.append((node, node, turn))
    while queue:
        mouse, cat, turn = queue.popleft()
        result = results[mouse][cat][turn]
        after = remoteness[mouse][cat][turn] + 1
        if turn == MOUSE_TURN:  # the cat moved here
            previous = [(mouse, c, CAT_TURN) for c in graph[cat] if c != 0]
        else:  # the mouse moved here
            previous = [(m, cat, MOUSE_TURN) for m in graph[mouse]]
        for pm, pc, pt in previous:
            if results[pm][pc][pt] != DRAW:
                continue
            if (result == MOUSE_WIN and pt == MOUSE_TURN) or (result == CAT_WIN and pt == CAT_TURN):
                results[pm][pc][pt] = result
                remoteness[pm][pc][pt] = after
                queue.append((pm, pc, pt))
            else:
                degrees[pm][pc][pt] -= 1
                if degrees[pm][pc][pt] == 0:
                    results[pm][pc][pt] = CAT_WIN if pt == MOUSE_TURN else MOUSE_WIN
                    remoteness[pm][pc][pt] = after
                    queue.append((pm, pc, pt))
    return results, remoteness


def pure_python_solve_flat(graph: list[list[int]]):
    """The same algorithm on flat lists indexed by ``(mouse * n + cat) * 2 + turn``: a tighter variant."""
    n = len(graph)
    size = 2 * n * n
    results = [DRAW] * size
    remoteness = [None] * size
    degrees = [0] * size
    cat_moves = [[c for c in nbrs if c != 0] for nbrs in graph]
    queue = deque()
    for mouse in range(n):
        for cat in range(1, n):
            s = (mouse * n + cat) * 2
            if mouse == 0 or mouse == cat:
                winner = MOUSE_WIN if mouse == 0 else CAT_WIN
                results[s] = results[s + 1] = winner
                remoteness[s] = remoteness[s + 1] = 0
                queue.append(s)
                queue.append(s + 1)
            else:
                degrees[s] = len(graph[mouse])
                degrees[s + 1] = len(cat_moves[cat])
    while queue:
        s = queue.popleft()
        result, after = results[s], remoteness[s] + 1
        rest, turn = divmod(s, 2)
        mouse, cat = divmod(rest, n)
        if turn == MOUSE_TURN:
            previous = [(mouse * n + c) * 2 + CAT_TURN for c in cat_moves[cat]]
            mover_wins = result == CAT_WIN
        else:
            previous = [(m * n + cat) * 2 for m in graph[mouse]]
            mover_wins = result == MOUSE_WIN
        for p in previous:
            if results[p] != DRAW:
                continue
            if mover_wins:
                results[p] = result
                remoteness[p] = after
                queue.append(p)
            else:
                degrees[p] -= 1
                if degrees[p] == 0:
                    results[p] = CAT_WIN if p % 2 == MOUSE_TURN else MOUSE_WIN
                    remoteness[p] = after
                    queue.append(p)
    return results, remoteness


def job_pure(args) -> dict:
    graph = json.loads(Path(args.graph).read_text())
    solver = pure_python_solve_flat if args.flat else pure_python_solve
    t0 = time.perf_counter()
    results, remoteness = solver(graph)
    seconds = time.perf_counter() - t0
    out = {"seconds": seconds, "peak_mb": peak_mb()}
    if args.db:  # check the values against gamedb's on a sample of stored positions
        out["checked"], out["disagree"] = _compare(args.db, args.name, graph, results, remoteness, flat=args.flat)
    return out


def _compare(db_path, name, graph, results, remoteness, *, flat: bool, sample: int = 10_000):
    n = len(graph)
    with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as con:
        gid = con.execute("SELECT id FROM game WHERE name = ?", (name,)).fetchone()[0]
        rows = con.execute("SELECT code, result, remoteness FROM position WHERE game_id = ?", (gid,)).fetchall()
    stored = random.Random(1).sample(rows, min(sample, len(rows)))
    disagree = 0
    for code, result, rem in stored:
        result = RESULT_WORDS[result]  # a code since revision 0007 (a word before)
        rest, turn = divmod(code, 2)
        mouse, cat = divmod(rest, n)
        if flat:
            value, r = results[code], remoteness[code]
        else:
            value, r = results[mouse][cat][turn], remoteness[mouse][cat][turn]
        mover_won = (value == MOUSE_WIN and turn == MOUSE_TURN) or (value == CAT_WIN and turn == CAT_TURN)
        mine = "draw" if value == DRAW else ("win" if mover_won else "lose")
        if (mine, r) != (result, rem):
            disagree += 1
    return len(stored), disagree
