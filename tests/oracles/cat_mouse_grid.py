"""Independent oracles for cat and mouse on a grid (LeetCode 1728).

Written from scratch for the tests; it imports nothing from ``gamedb``.

Rules (LeetCode 1728): ``grid`` is a list of row strings, ``#`` wall, ``.``
floor, one each of ``C`` (cat), ``M`` (mouse), ``F`` (food). The mouse moves
first; in a turn the player to move stays put or jumps 1..jump cells in one of
the four directions, stopping before a wall or the edge (nothing else blocks
a jump). The cat wins on the mouse's cell or on the food; the mouse wins on
the food. If the mouse has not reached the food within the turn limit, the
cat wins.

A state is ``((mouse_row, mouse_col), (cat_row, cat_col), turn)``, turn 0 =
mouse to move, 1 = cat to move.

Two oracles, built differently from gamedb's SQL retrograde engine:

* :func:`leetcode_topdown` is the literal LeetCode definition: a memoised
  depth-first search over (state, turns played) that gives the cat the win
  once ``limit`` turns have been played without the mouse on the food. It
  answers the limited game directly (true/false), with no remoteness.
* :func:`horizon_values` is value iteration over the horizon: for k = 0, 1,
  2, ... the sets of states from which the mouse (resp. the cat) can force its
  goal within k plies. The first k at which a state enters a set is its
  remoteness; states in neither set once the sets stop growing are draws.
"""

from __future__ import annotations

import random
import sys
from functools import cache

MOUSE_TURN, CAT_TURN = 0, 1
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def _find(grid, char):
    return next((r, row.index(char)) for r, row in enumerate(grid) if char in row)


def _reach(grid, cell, jump):
    """Cells a player on ``cell`` can move to (itself included)."""
    rows, cols = len(grid), len(grid[0])
    out = {cell}
    for dr, dc in STEPS:
        r, c = cell
        for _ in range(jump):
            r, c = r + dr, c + dc
            if r < 0 or c < 0 or r >= rows or c >= cols or grid[r][c] == "#":
                break
            out.add((r, c))
    return out


def _ended(state, food):
    """'mouse' or 'cat' if the game is over, else None."""
    mouse, cat, _ = state
    if cat in (mouse, food):
        return "cat"
    if mouse == food:
        return "mouse"
    return None


def leetcode_topdown(grid, cat_jump, mouse_jump, limit=1000, start=None) -> bool:
    """LeetCode 1728's answer: can the mouse force the food within ``limit`` turns (plies)?

    ``start`` (a state) plays from there instead of from the grid's M and C.
    """
    food = _find(grid, "F")
    reach = {}

    def moves(cell, jump):
        key = (cell, jump)
        if key not in reach:
            reach[key] = sorted(_reach(grid, cell, jump))
        return reach[key]

    @cache
    def mouse_wins(mouse, cat, turn, turns):
        winner = _ended((mouse, cat, turn), food)
        if winner is not None:
            return winner == "mouse"
        if turns == limit:
            return False
        if turn == MOUSE_TURN:
            return any(mouse_wins(m, cat, CAT_TURN, turns + 1) for m in moves(mouse, mouse_jump))
        return all(mouse_wins(mouse, c, MOUSE_TURN, turns + 1) for c in moves(cat, cat_jump))

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 4 * limit + 1000))
    try:
        mouse, cat, turn = start or (_find(grid, "M"), _find(grid, "C"), MOUSE_TURN)
        return mouse_wins(mouse, cat, turn, 0)
    finally:
        sys.setrecursionlimit(old)
        mouse_wins.cache_clear()


def reachable_states(grid, cat_jump, mouse_jump):
    food = _find(grid, "F")
    start = (_find(grid, "M"), _find(grid, "C"), MOUSE_TURN)
    seen, todo = {start}, [start]
    while todo:
        state = todo.pop()
        for child in _children(grid, state, food, cat_jump, mouse_jump):
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return seen


def _children(grid, state, food, cat_jump, mouse_jump):
    if _ended(state, food) is not None:
        return []
    mouse, cat, turn = state
    if turn == MOUSE_TURN:
        return [(m, cat, CAT_TURN) for m in _reach(grid, mouse, mouse_jump)]
    return [(mouse, c, MOUSE_TURN) for c in _reach(grid, cat, cat_jump)]


def horizon_values(grid, cat_jump, mouse_jump):
    """state -> (result for the player to move, remoteness), every reachable state."""
    food = _find(grid, "F")
    states = reachable_states(grid, cat_jump, mouse_jump)
    children = {s: _children(grid, s, food, cat_jump, mouse_jump) for s in states}
    # first[who][s] = least k such that `who` can force its goal from s within k plies
    first = {"mouse": {}, "cat": {}}
    for s in states:
        winner = _ended(s, food)
        if winner is not None:
            first[winner][s] = 0
    k = 0
    while True:
        k += 1
        grew = False
        for who, mover in (("mouse", MOUSE_TURN), ("cat", CAT_TURN)):
            won = first[who]
            new = []
            for s in states:
                if s in won or _ended(s, food) is not None:
                    continue
                kids = children[s]
                inside = [c in won and won[c] <= k - 1 for c in kids]
                if (any(inside) if s[2] == mover else all(inside)):
                    new.append(s)
            for s in new:
                won[s] = k
            grew = grew or bool(new)
        if not grew:
            break
    values = {}
    for s in states:
        player = "mouse" if s[2] == MOUSE_TURN else "cat"
        other = "cat" if player == "mouse" else "mouse"
        if s in first[player]:
            values[s] = ("win", first[player][s])
        elif s in first[other]:
            values[s] = ("lose", first[other][s])
        else:
            values[s] = ("draw", None)
    return values


def random_grid(rng: random.Random, rows: int, cols: int, wall_rate: float):
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    mouse, cat, food = rng.sample(cells, 3)
    grid = [["#" if rng.random() < wall_rate else "." for _ in range(cols)] for _ in range(rows)]
    for (r, c), char in ((mouse, "M"), (cat, "C"), (food, "F")):
        grid[r][c] = char
    return ["".join(row) for row in grid]


def ring_grid(rng: random.Random, rows: int, cols: int, food_walled_in: bool):
    """A one-cell-wide ring round a block of walls, where a chase can go on for ever.

    The food is on the ring, or (``food_walled_in``, needs rows, cols >= 5)
    in the middle of the block where nobody can reach it.
    """
    ring = [(r, c) for r in range(rows) for c in range(cols) if r in (0, rows - 1) or c in (0, cols - 1)]
    grid = [["." if (r, c) in ring else "#" for c in range(cols)] for r in range(rows)]
    mouse, cat = rng.sample(ring, 2)
    food = (rows // 2, cols // 2) if food_walled_in else rng.choice([x for x in ring if x not in (mouse, cat)])
    for (r, c), char in ((mouse, "M"), (cat, "C"), (food, "F")):
        grid[r][c] = char
    return ["".join(row) for row in grid]
