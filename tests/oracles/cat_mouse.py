"""Independent oracle for the cat-and-mouse game (LeetCode 913).

Written from scratch for the tests; it imports nothing from ``gamedb``.

Rules
-----
``graph[a]`` lists the neighbours of node ``a`` in an undirected graph. The
mouse starts on node 1 and moves first, the cat starts on node 2, the hole is
node 0. The player to move must move along an edge; the cat may never move
into node 0. Cat and mouse on the same node: the cat has won. Mouse on node
0: the mouse has won. Repetition is a draw, i.e. every position from which
neither side can force a win is a draw.

States and values
-----------------
A state is ``(mouse, cat, turn)`` with ``turn`` 0 = mouse to move and
1 = cat to move. The solvers value every state with ``mouse`` in
``0..n-1``, ``cat`` in ``1..n-1`` (the cat can never stand on the hole) and
both turns, reachable or not.

Values follow the Gamesman conventions: the result is for the player to move
(``'win'``, ``'lose'`` or ``'draw'``; this game has no ties) and remoteness is
the number of plies to the end under best play:

* primitive (game over) states have remoteness 0. ``mouse == 0`` is checked
  first, so ``(0, c, MOUSE)`` is ``'win'`` and ``(0, c, CAT)`` is ``'lose'``;
  otherwise ``mouse == cat`` makes ``(m, m, CAT)`` ``'win'`` and
  ``(m, m, MOUSE)`` ``'lose'``. Primitive states have no moves.
* win  = 1 + min remoteness over the children that are ``'lose'``;
* lose = 1 + max remoteness over the children (all ``'win'``);
* draw has remoteness ``None``.

Stuck positions: the only way a non-primitive state can have no legal move
is the cat standing on a node whose sole neighbour is the hole (e.g. node 1
in LeetCode's example 2, ``[[1,3],[0],[3],[0,2]]``, which the cat can never
reach). LeetCode promises such positions never arise in play, so their value
is a convention: both solvers here score them as a loss for the stuck player
with remoteness 0, like a primitive. :func:`random_graph` never produces
them, and :func:`stuck_states` lists them so tests can skip them.
"""

from __future__ import annotations

import random
import sys
from collections import deque

MOUSE, CAT = 0, 1
HOLE, MOUSE_START, CAT_START = 0, 1, 2

WIN, LOSE, DRAW = "win", "lose", "draw"

State = tuple[int, int, int]
Value = tuple[str, "int | None"]

# LeetCode 913's encoding of the answer at the start position.
LC_DRAW, LC_MOUSE, LC_CAT = 0, 1, 2


# --------------------------------------------------------------------------
# rules
# --------------------------------------------------------------------------


def all_states(graph: list[list[int]]) -> list[State]:
    """Every state the solvers value, in a fixed order."""
    n = len(graph)
    return [(m, c, t) for m in range(n) for c in range(1, n) for t in (MOUSE, CAT)]


def primitive(state: State) -> str | None:
    """The value of a game-over state for the player to move, else None."""
    mouse, cat, turn = state
    if mouse == HOLE:  # the mouse has escaped
        return WIN if turn == MOUSE else LOSE
    if mouse == cat:  # the cat has caught the mouse
        return WIN if turn == CAT else LOSE
    return None


def children(graph: list[list[int]], state: State) -> list[State]:
    """The states after each legal move (none from a primitive state)."""
    if primitive(state) is not None:
        return []
    mouse, cat, turn = state
    if turn == MOUSE:
        return [(m2, cat, CAT) for m2 in graph[mouse]]
    return [(mouse, c2, MOUSE) for c2 in graph[cat] if c2 != HOLE]


def stuck_states(graph: list[list[int]]) -> list[State]:
    """Non-primitive states without a legal move (see the module docstring)."""
    return [s for s in all_states(graph) if primitive(s) is None and not children(graph, s)]


def reachable_states(graph: list[list[int]]) -> set[State]:
    """States reachable from the start ``(1, 2, MOUSE)`` by legal moves."""
    start = (MOUSE_START, CAT_START, MOUSE)
    seen = {start}
    todo = deque([start])
    while todo:
        for child in children(graph, todo.popleft()):
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return seen


# --------------------------------------------------------------------------
# solver 1: FIFO queue retrograde analysis with move counters (the seeds' way)
# --------------------------------------------------------------------------


def solve_queue(graph: list[list[int]]) -> dict[State, Value]:
    """Retrograde analysis with a FIFO queue and per-state move counters.

    The queue starts with every state of remoteness 0 (primitives and stuck
    states). Popping a decided state walks its parents (predecessors):

    * the child is ``'lose'`` -> an undecided parent is ``'win'`` at once;
    * the child is ``'win'`` -> the parent's counter of undecided moves drops;
      at zero every move leads to a win for the opponent -> ``'lose'``.

    Every state is enqueued with remoteness = (remoteness of the state being
    popped) + 1, so the queue always holds remoteness r followed by r + 1 and
    states are popped in nondecreasing remoteness (the BFS invariant). Hence
    the first losing child to reach a parent has the least remoteness among
    its losing children (win = 1 + min), and the child that brings a
    counter to zero is popped last among its children, so it has the greatest
    remoteness (lose = 1 + max). Whatever is never decided is a draw.
    """
    n = len(graph)
    value: dict[State, Value] = {}
    counter: dict[State, int] = {}
    queue: deque[State] = deque()

    for mouse in range(n):
        for cat in range(1, n):
            for turn in (MOUSE, CAT):
                s = (mouse, cat, turn)
                prim = primitive(s)
                if prim is None:
                    # number of legal moves, counted from the rules directly
                    if turn == MOUSE:
                        degree = len(graph[mouse])
                    else:
                        degree = sum(1 for c2 in graph[cat] if c2 != HOLE)
                    if degree == 0:  # stuck: a loss for the player to move
                        prim = LOSE
                    counter[s] = degree
                if prim is not None:
                    value[s] = (prim, 0)
                    queue.append(s)

    while queue:
        s = queue.popleft()
        result, remoteness = value[s]
        for parent in _parents(graph, s):
            if parent in value:
                continue
            if result == LOSE:
                value[parent] = (WIN, remoteness + 1)
                queue.append(parent)
            else:
                counter[parent] -= 1
                if counter[parent] == 0:
                    value[parent] = (LOSE, remoteness + 1)
                    queue.append(parent)

    for s in all_states(graph):
        value.setdefault(s, (DRAW, None))
    return value


def _parents(graph: list[list[int]], state: State) -> list[State]:
    """Non-primitive states with a legal move to ``state``.

    One entry per move, so a parent with two moves to ``state`` would appear
    twice; on a simple graph (no duplicate neighbours) that cannot happen.
    """
    mouse, cat, turn = state
    result = []
    if turn == CAT:
        # the mouse just moved here from a neighbour of its node
        for m0 in graph[mouse]:
            if m0 != HOLE and m0 != cat:  # the parent was not game over
                result.append((m0, cat, MOUSE))
    else:
        # the cat just moved here (so it did not come from, or into, the hole)
        if cat == HOLE:
            return result
        for c0 in graph[cat]:
            if c0 != HOLE and mouse != HOLE and mouse != c0:
                result.append((mouse, c0, CAT))
    return result


# --------------------------------------------------------------------------
# solver 2: synchronous Bellman (value) iteration over full sweeps
# --------------------------------------------------------------------------


def solve_value_iteration(graph: list[list[int]]) -> dict[State, Value]:
    """Repeated full sweeps of the one-step equations until a fixpoint.

    Structurally unlike :func:`solve_queue`: no queue, no counters, no
    predecessor generation. Every sweep recomputes every non-primitive state
    from its children's values of the previous sweep (Jacobi style), starting
    from "everything undecided" (``draw``). After sweep k exactly the states of
    remoteness <= k are decided, with their final values; the iteration stops
    when a sweep changes nothing, and what is still undecided is a draw.
    """
    states = all_states(graph)
    moves = {s: children(graph, s) for s in states}
    value: dict[State, Value] = {}
    for s in states:
        prim = primitive(s)
        if prim is None and not moves[s]:
            prim = LOSE  # stuck, see the module docstring
        value[s] = (prim, 0) if prim is not None else (DRAW, None)

    while True:
        new = dict(value)
        for s in states:
            if primitive(s) is not None or not moves[s]:
                continue
            kids = [value[c] for c in moves[s]]
            lose_rem = [r for res, r in kids if res == LOSE]
            if lose_rem:
                new[s] = (WIN, 1 + min(lose_rem))
            elif all(res == WIN for res, _ in kids):
                new[s] = (LOSE, 1 + max(r for _, r in kids))
            else:
                new[s] = (DRAW, None)
        if new == value:
            return value
        value = new


# --------------------------------------------------------------------------
# LeetCode's answer and the seed's flawed top-down search
# --------------------------------------------------------------------------


def leetcode_answer(values: dict[State, Value]) -> int:
    """0 draw / 1 mouse wins / 2 cat wins, at the start (1, 2, mouse to move)."""
    result, _ = values[(MOUSE_START, CAT_START, MOUSE)]
    return {DRAW: LC_DRAW, WIN: LC_MOUSE, LOSE: LC_CAT}[result]


def topdown_2n(graph: list[list[int]]) -> int:
    """The seed's memoised depth-first search that calls a draw after 2n plies.

    A faithful Python port of ``MouseCatGame`` in seed 002: ``dp[mouse][cat]
    [steps]`` memoises results by ply count, the mouse moves on even plies,
    and any line still undecided at ``steps >= 2n`` is declared a draw. The
    cut-off is the flaw: a forced win may need more than 2n plies. Returns
    LeetCode's 0/1/2.
    """
    n = len(graph)
    cat_win, draw, mouse_win = LC_CAT, LC_DRAW, LC_MOUSE
    dp: dict[tuple[int, int, int], int] = {}

    def get_res(mouse: int, cat: int, steps: int) -> int:
        if steps >= 2 * n:
            return draw
        key = (mouse, cat, steps)
        if key not in dp:
            if mouse == 0:
                dp[key] = mouse_win
            elif mouse == cat:
                dp[key] = cat_win
            else:
                dp[key] = get_next_res(mouse, cat, steps)
        return dp[key]

    def get_next_res(mouse: int, cat: int, steps: int) -> int:
        mouse_moves = steps % 2 == 0
        here = mouse if mouse_moves else cat
        # the mover loses unless some move does better
        default = cat_win if mouse_moves else mouse_win
        res = default
        for nxt in graph[here]:
            if not mouse_moves and nxt == 0:
                continue  # the cat may not enter the hole
            m2, c2 = (nxt, cat) if mouse_moves else (mouse, nxt)
            next_res = get_res(m2, c2, steps + 1)
            if next_res != default:
                res = next_res
                if res != draw:  # a win for the mover: stop looking
                    break
        return res

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 8 * n + 1000))
    try:
        return get_res(MOUSE_START, CAT_START, 0)
    finally:
        sys.setrecursionlimit(limit)


# --------------------------------------------------------------------------
# random graphs
# --------------------------------------------------------------------------


def random_graph(rng: random.Random, n: int, p: float) -> list[list[int]]:
    """A random simple undirected graph on ``n >= 3`` nodes, LeetCode-valid.

    Guarantees:

    * symmetric (``b in g[a]`` iff ``a in g[b]``), no self loops, no
      duplicate neighbours, each neighbour list sorted ascending;
    * connected: a uniformly random recursive tree spans nodes ``1..n-1`` and
      node 0 is joined to at least one random node of ``1..n-1``;
    * hence every node has a neighbour, and every node ``1..n-1`` has a
      neighbour other than 0, so neither player is ever stuck (no state of
      :func:`stuck_states`); ``1 <= len(g[i]) < n`` as LeetCode requires;
    * on top of that every other pair becomes an edge independently with
      probability ``p``.
    """
    if n < 3:
        raise ValueError("LeetCode 913 needs at least 3 nodes")
    edges: set[tuple[int, int]] = set()

    def add(a: int, b: int) -> None:
        edges.add((min(a, b), max(a, b)))

    others = list(range(1, n))
    rng.shuffle(others)
    for i in range(1, len(others)):  # random recursive tree on 1..n-1
        add(others[i], others[rng.randrange(i)])
    add(0, rng.randrange(1, n))
    for a in range(n):
        for b in range(a + 1, n):
            if rng.random() < p:
                add(a, b)

    graph: list[list[int]] = [[] for _ in range(n)]
    for a, b in sorted(edges):
        graph[a].append(b)
        graph[b].append(a)
    return [sorted(nbrs) for nbrs in graph]
