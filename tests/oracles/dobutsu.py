"""Independent oracle for Dōbutsu shōgi (``gamedb solve dobutsu``), written from the rules for the tests.

It imports nothing from ``gamedb``: positions are (squares, hands, turn)
with squares a dict {(row, column): letter} (upper case the first player's,
rows 0-3 from the first player's far side), hands two sorted strings of
upper-case letters. The end of the game is modelled as docs/dobutsu.md says:
the player to move wins if it can capture the other lion or its own lion
stands on its far rank, and loses if the other lion stands on its own back
rank. Values by a queue of decided positions with a counter of undecided
moves per position (win = 1 + least remoteness of a losing child, lose = 1 +
greatest of the children, the rest draws), in a plain dict.
"""

from __future__ import annotations

from collections import deque

WIN, LOSE, DRAW = "win", "lose", "draw"
ORTHOGONAL = [(-1, 0), (1, 0), (0, -1), (0, 1)]
DIAGONAL = [(-1, -1), (-1, 1), (1, -1), (1, 1)]
#: each kind's steps for the first player, whose forward is row - 1
STEPS = {"L": ORTHOGONAL + DIAGONAL, "G": ORTHOGONAL, "E": DIAGONAL, "C": [(-1, 0)], "H": ORTHOGONAL + [(-1, -1), (-1, 1)]}


def parse(text: str):
    rows, hands, turn = text.split()
    squares = {(r, c): ch for r, row in enumerate(rows.split("/")) for c, ch in enumerate(row) if ch != "."}
    hands = "" if hands == "-" else hands
    return squares, ("".join(sorted(h for h in hands if h.isupper())), "".join(sorted(h.upper() for h in hands if h.islower()))), 0 if turn == "first" else 1


def text(position) -> str:
    squares, hands, turn = position
    rows = "/".join("".join(squares.get((r, c), ".") for c in range(3)) for r in range(4))
    order = {"G": 0, "E": 1, "C": 2}
    hand = "".join(sorted(hands[0], key=order.get)) + "".join(sorted(hands[1], key=order.get)).lower()
    return f"{rows} {hand or '-'} {('first', 'second')[turn]}"


def _mine(letter: str, turn: int) -> bool:
    return letter.isupper() == (turn == 0)


def _targets(squares, turn):
    """(from, to) of every step of the player ``turn``'s pieces onto a square not its own."""
    forward = 1 if turn == 0 else -1
    for (r, c), letter in squares.items():
        if not _mine(letter, turn):
            continue
        for dr, dc in STEPS[letter.upper()]:
            to = (r + dr * forward, c + dc)
            if 0 <= to[0] < 4 and 0 <= to[1] < 3 and not (to in squares and _mine(squares[to], turn)):
                yield (r, c), to


def primitive(position):
    squares, _, turn = position
    lion, their = ("L", "l") if turn == 0 else ("l", "L")
    far = 0 if turn == 0 else 3
    if any(squares.get(to) == their for _, to in _targets(squares, turn)):
        return WIN
    if any(sq[0] == far for sq, letter in squares.items() if letter == lion):
        return WIN
    if any(sq[0] == 3 - far for sq, letter in squares.items() if letter == their):
        return LOSE
    return None


def children(position):
    """Every position one move away (order does not matter here)."""
    squares, hands, turn = position
    if primitive(position) is not None:
        return []
    out = []
    far = 0 if turn == 0 else 3
    for frm, to in _targets(squares, turn):
        after = dict(squares)
        letter = after.pop(frm)
        hand = hands[turn]
        if to in after:
            captured = after[to].upper()
            hand = "".join(sorted(hand + ("C" if captured == "H" else captured)))
        if letter.upper() == "C" and to[0] == far:
            letter = "H" if turn == 0 else "h"
        after[to] = letter
        new_hands = (hand, hands[1]) if turn == 0 else (hands[0], hand)
        out.append((after, new_hands, 1 - turn))
    for piece in set(hands[turn]):
        hand = hands[turn].replace(piece, "", 1)
        new_hands = (hand, hands[1]) if turn == 0 else (hands[0], hand)
        for r in range(4):
            for c in range(3):
                if (r, c) not in squares:
                    out.append(({**squares, (r, c): piece if turn == 0 else piece.lower()}, new_hands, 1 - turn))
    return out


def solve(start_text: str) -> dict[str, tuple[str, int | None]]:
    """text -> (result, remoteness) of every position reachable from ``start_text``."""
    kids: dict[str, list[str]] = {}
    todo = [start_text]
    while todo:
        name = todo.pop()
        if name in kids:
            continue
        kids[name] = [text(child) for child in children(parse(name))]
        todo.extend(k for k in kids[name] if k not in kids)
    parents: dict[str, list[str]] = {name: [] for name in kids}
    for name, names in kids.items():
        for k in names:
            parents[k].append(name)
    value: dict[str, tuple[str, int | None]] = {}
    queue = deque()
    for name in kids:
        prim = primitive(parse(name))
        if prim is not None:
            value[name] = (prim, 0)
            queue.append(name)
    left = {name: len(set(names)) for name, names in kids.items()}
    while queue:
        name = queue.popleft()
        result, rem = value[name]
        for p in set(parents[name]):
            if p in value:
                continue
            if result == LOSE:
                value[p] = (WIN, rem + 1)
                queue.append(p)
            else:
                left[p] -= 1
                if left[p] == 0:
                    value[p] = (LOSE, rem + 1)
                    queue.append(p)
    return {name: value.get(name, (DRAW, None)) for name in kids}
