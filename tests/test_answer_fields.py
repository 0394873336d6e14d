"""The fields of a query's answer: both sides of every move (GamesmanUni style) and
impartial positions as N-/P-positions, checked against the children's own stored values."""

import json

import pytest

OPPOSITE = {"win": "lose", "lose": "win", "tie": "tie", "draw": "draw"}


def _check_both_sides(cli, name, position):
    data = json.loads(cli("query", name, position, "--json").stdout)
    for move in data["moves"]:
        child = json.loads(cli("query", name, move["position"], "--json").stdout)
        # the child's own answer is the move's position value, for the player to move there
        assert (move["result"], move["remoteness"]) == (child["result"], child["remoteness"])
        assert move["move_value"] == OPPOSITE[child["result"]]
    # delta_remoteness: plies given away against the best move of the same value
    for value in ("win", "lose", "tie"):
        same = [m for m in data["moves"] if m["move_value"] == value]
        if not same:
            continue
        rems = [m["remoteness"] for m in same]
        best = max(rems) if value == "lose" else min(rems)
        assert [m["delta_remoteness"] for m in same] == [abs(r - best) for r in rems]
    return data


def test_every_move_has_both_sides_tictactoe(cli):
    assert cli("solve", "tictactoe", "-q").exit_code == 0
    for position in (".........", "X...O....", "XX.OO....", "XO.......", "XOX.O...."):
        data = _check_both_sides(cli, "tictactoe", position)
        assert data["player"] in ("X", "O") and "outcome" not in data and "grundy" not in data
    data = json.loads(cli("query", "tictactoe", "X...O....", "--json").stdout)
    assert {m["delta_remoteness"] for m in data["moves"] if m["move_value"] == "lose"} != {0}


def test_plain_output_says_whose_view(cli):
    cli("solve", "tictactoe", "-q")
    out = cli("query", "tictactoe", "X...O....").stdout
    assert "moves (best first; value for X, plies to the end):" in out
    nim = cli("solve", "nim", "--max", "7", "-q")
    assert nim.exit_code == 0
    out = cli("query", "nim", "3 5").stdout
    assert "outcome    N-position (the player to move wins)" in out
    assert "value for the player to move" in out and "to move    first" not in out


@pytest.mark.parametrize(
    "family,options,position,grundy",
    [
        ("nim", ["--max", "7"], "3 5 7", 1),  # Nim: the XOR of the heaps
        ("nim", ["--max", "7"], "1 2 3", 0),
        ("octal", ["--code", "0.77", "--max", "12"], "3", 3),  # Kayles: 0 1 2 3 1 4 3 2 1 4 2 6 (Winning Ways)
        ("octal", ["--code", "0.77", "--max", "12"], "4 7", 1 ^ 2),
        ("grundy", ["--max", "10"], "7", 0),  # Grundy's game: 0 0 0 1 0 2 1 0 2 1 0 (OEIS A002188)
        ("flip", ["--max", "8"], "++--+++", 1 ^ 1),  # runs of 2 and 3 (octal 0.07: 0 0 1 1 0 2 0 3 1)
    ],
)
def test_impartial_positions_are_n_or_p(cli, family, options, position, grundy):
    assert cli("solve", family, *options, "--name", "g", "-q").exit_code == 0
    data = json.loads(cli("query", "g", position, "--json").stdout)
    assert data["grundy"] == grundy
    assert data["outcome"] == ("N-position" if grundy else "P-position")
    assert data["player"] == "next" and data["winner"] == ("next" if grundy else "previous")
    assert data["result"] == ("win" if grundy else "lose")
    for move in data["moves"]:
        assert move["move_value"] == ("win" if move["grundy"] == 0 else "lose")
