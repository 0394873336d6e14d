"""Tic-tac-toe: published counts and values, checked through the CLI and the API."""

import json

import pytest

from gamedb import make_game

ENGINES = pytest.mark.parametrize("engine", ["sql", "memory"])

# Reachable positions of tic-tac-toe and their values for the player to move
# (well-known counts: 5,478 legal positions reachable from the empty board).
EXPECTED = {"win": 2836, "lose": 1574, "tie": 1068, "draw": 0}


def test_counts_through_cli(cli):
    solved = cli("solve", "tictactoe", "--quiet")
    assert solved.exit_code == 0, solved.stderr
    stats = cli("stats", "tictactoe", "--json")
    assert stats.exit_code == 0
    data = json.loads(stats.stdout)
    assert (data["reachable"], data["positions"], data["symmetries"]) == (5478, 765, 8)
    solved = cli("solve", "tictactoe", "--quiet", "--no-symmetry", "--name", "every")
    assert solved.exit_code == 0, solved.stderr
    data = json.loads(cli("stats", "every", "--json").stdout)
    assert (data["reachable"], data["positions"], data["symmetries"]) == (5478, 5478, 1)
    assert data["results"] == EXPECTED
    assert data["start"] == {"position": ".........", "result": "tie", "remoteness": 9}


def test_empty_board_every_first_move_ties(fresh_db):
    db = fresh_db()
    db.solve(make_game("tictactoe"))
    answer = db.probe("tictactoe")
    assert (answer.result, answer.remoteness, answer.winner) == ("tie", 9, None)
    assert [m.move for m in answer.moves] == [str(i) for i in range(1, 10)]
    assert all(m.result == "tie" and m.remoteness == 8 for m in answer.moves)
    assert answer.best_move == "1"  # ties broken by lowest move order


def _negamax(board, memo):
    """Independent oracle: plain recursive search on 9-character strings."""
    if board in memo:
        return memo[board]
    lines = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
    mover = "X" if board.count("X") == board.count("O") else "O"
    other = "O" if mover == "X" else "X"
    if any(all(board[i] == other for i in line) for line in lines):
        memo[board] = ("lose", 0)
        return memo[board]
    if "." not in board:
        memo[board] = ("tie", 0)
        return memo[board]
    children = [_negamax(board[:i] + mover + board[i + 1 :], memo) for i in range(9) if board[i] == "."]
    loses = [r for v, r in children if v == "lose"]
    if loses:
        memo[board] = ("win", 1 + min(loses))
    elif all(v == "win" for v, _ in children):
        memo[board] = ("lose", 1 + max(r for _, r in children))
    else:
        memo[board] = ("tie", 1 + min(r for v, r in children if v == "tie"))
    return memo[board]


def _best_move(board, memo):
    """The oracle's best move (cell 1-9): DESIGN.md's rule, ties broken by the lowest cell."""
    value, _ = _negamax(board, memo)
    mover = "X" if board.count("X") == board.count("O") else "O"
    options = []
    for i in range(9):
        if board[i] == ".":
            child = board[:i] + mover + board[i + 1 :]
            options.append((i + 1, *_negamax(child, memo)))
    if not options or _negamax(board, memo)[1] == 0:
        return None
    if value == "win":  # a losing child, least remoteness
        return min((r, i) for i, v, r in options if v == "lose")[1]
    if value == "tie":  # a tie child, least remoteness
        return min((r, i) for i, v, r in options if v == "tie")[1]
    return min((-r, i) for i, v, r in options)[1]  # lose: the child of greatest remoteness


@ENGINES
def test_every_position_matches_negamax(fresh_db, engine):
    db = fresh_db()
    db.solve(make_game("tictactoe"), strategy=engine)
    memo = {}
    rows = list(db.positions("tictactoe"))
    assert len(rows) == 5478
    for row in rows:
        assert (row["result"], row["remoteness"]) == _negamax(row["text"], memo), row["text"]
        expected = _best_move(row["text"], memo)
        assert row["best_move"] == (None if expected is None else str(expected)), row["text"]


@ENGINES
def test_solving_twice_gives_identical_tables(fresh_db, engine):
    a, b = fresh_db(), fresh_db()
    a.solve(make_game("tictactoe"), strategy=engine)
    b.solve(make_game("tictactoe"), strategy=engine)
    assert list(a.positions("tictactoe")) == list(b.positions("tictactoe"))


def test_written_out_rules_agree_with_the_plain_definitions_on_every_board():
    """encode and the line test are written out for speed; check them on all 3^9 boards against plain loops."""
    import itertools

    from gamedb.games.tictactoe import LINES, _has_line

    game = make_game("tictactoe")
    for board in itertools.product(range(3), repeat=9):
        assert game.encode(board) == sum(cell * 3**i for i, cell in enumerate(board))
        for mark in (1, 2):
            assert _has_line(board, mark) == any(all(board[i] == mark for i in line) for line in LINES), (board, mark)
