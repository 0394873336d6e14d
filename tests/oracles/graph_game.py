"""Independent oracle for games given as graph files (``gamedb solve graph``).

Written from scratch for the tests; it imports nothing from ``gamedb``. It
reads the raw file data (shorthand moves, default players and labels) by
itself and solves by brute force: synchronous sweeps of the one-step
equations until nothing changes, first for win/lose, then for ties;
whatever is left is a draw.

Values (for the player to move), as written in the design: win = 1 + min
remoteness over losing children; lose = 1 + max over the children (all
winning); tie = 1 + min over tie children (when no move wins); draw has no
remoteness. Best move: the first move in file order to a child with the
wanted value and remoteness (lose child with least remoteness for a win,
child with greatest remoteness for a loss, tie child with least remoteness
for a tie, any draw child for a draw); none at the end of the game.
"""

from __future__ import annotations

WIN, LOSE, TIE, DRAW = "win", "lose", "tie", "draw"


def read_moves(entry: dict) -> list[tuple[str, str]]:
    """(label, target) of every move of one position, in file order."""
    moves = []
    for move in entry.get("moves", []):
        if isinstance(move, str):
            moves.append((move, move))
        else:
            moves.append((move.get("label", move["to"]), move["to"]))
    return moves


def reachable(data: dict) -> set[str]:
    seen, todo = {data["start"]}, [data["start"]]
    while todo:
        for _, target in read_moves(data["positions"][todo.pop()]):
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def solve(data: dict) -> dict[str, dict]:
    """name -> {player, result, remoteness, degree, best_move} for every reachable position."""
    players = data.get("players", ["first", "second"])
    names = sorted(reachable(data))
    entries = {name: data["positions"][name] for name in names}
    moves = {name: read_moves(entries[name]) for name in names}
    value: dict[str, tuple[str, int] | None] = {
        name: (entries[name]["value"], 0) if "value" in entries[name] else None for name in names
    }

    # win/lose sweeps: primitive ties count as neither
    changed = True
    while changed:
        new = dict(value)
        for name in names:
            if value[name] is not None:
                continue
            kids = [value[t] for _, t in moves[name]]
            lose = [v[1] for v in kids if v is not None and v[0] == LOSE]
            if lose:
                new[name] = (WIN, 1 + min(lose))
            elif all(v is not None and v[0] == WIN for v in kids):
                new[name] = (LOSE, 1 + max(v[1] for v in kids))
        changed = new != value
        value = new

    # tie sweeps
    changed = True
    while changed:
        new = dict(value)
        for name in names:
            if value[name] is not None:
                continue
            ties = [value[t][1] for _, t in moves[name] if value[t] is not None and value[t][0] == TIE]
            if ties:
                new[name] = (TIE, 1 + min(ties))
        changed = new != value
        value = new

    result = {}
    for name in names:
        res, rem = value[name] if value[name] is not None else (DRAW, None)
        result[name] = {
            "player": players.index(entries[name]["player"]),
            "result": res,
            "remoteness": rem,
            "degree": len(moves[name]),
            "best_move": _best(res, rem, moves[name], value),
        }
    return result


def _best(res, rem, moves, value):
    for label, target in moves:
        child = value[target] or (DRAW, None)
        if res == WIN and child == (LOSE, rem - 1):
            return label
        if res == LOSE and child == (WIN, rem - 1):
            return label
        if res == TIE and child == (TIE, rem - 1):
            return label
        if res == DRAW and child[0] == DRAW:
            return label
    return None
