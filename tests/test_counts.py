"""A count of one reads in the singular: "1 position", "1 move", "1 game" (it said "1 positions, 1 moves", "1 game(s)")."""

import doctest
import json

import gamedb.plural
from gamedb.plural import counted

ONE_POSITION = json.dumps({"players": ["a", "b"], "start": "s", "positions": {"s": {"player": "a", "value": "lose"}}})
TWO_POSITIONS = json.dumps({"players": ["a", "b"], "start": "s",
                            "positions": {"s": {"player": "a", "moves": ["t"]}, "t": {"player": "b", "value": "lose"}}})


def test_counted():
    assert [counted(n, "move") for n in (0, 1, 2, 1234)] == ["0 moves", "1 move", "2 moves", "1,234 moves"]
    assert counted(1, "more position") == "1 more position" and counted(3, "child", "children") == "3 children"
    assert doctest.testmod(gamedb.plural).failed == 0


def test_the_command_line_counts_one_in_the_singular(cli, tmp_path):
    solved = cli("solve", "graph", "--file", ONE_POSITION, "-q")
    assert solved.exit_code == 0 and solved.stdout.startswith("Solved graph: 1 position, 0 moves in "), solved.stdout
    again = cli("solve", "graph", "--file", ONE_POSITION, "-q")
    assert again.stdout.startswith("graph is already solved in ") and again.stdout.endswith(" (1 position); --force solves it again.\n")
    assert cli("verify", "graph").stdout == "OK: 1 position of graph agrees with the rules.\n"
    exported = cli("export", "graph", "-o", str(tmp_path / "g.csv"))
    assert exported.stdout == f"Wrote 1 position of graph to {tmp_path / 'g.csv'}.\n", exported.stdout
    copied = cli("copy", str(cli.db_path), str(tmp_path / "copy.sqlite"))
    assert copied.stdout == "Copied 1 game (graph): 1 position, 0 moves.\n", copied.stdout
    two = cli("solve", "graph", "--file", TWO_POSITIONS, "--name", "g2", "-q")
    assert two.stdout.startswith("Solved g2: 2 positions, 1 move in "), two.stdout
    assert cli("compact", "g2").stdout.startswith("Compacted g2: dropped 1 move; file ")
    stream = cli("query", "g2", "-", input="zz\n")
    assert stream.exit_code == 1 and stream.stderr == "Error: 1 of 1 position could not be answered\n", stream.stderr


def test_library_messages_count_one_in_the_singular():
    import pytest

    from gamedb import make_game
    from gamedb.errors import GraphError

    with pytest.raises(GraphError, match=r"grid row 1 has 1 cell but row 0 has 3: "):
        make_game("cat-mouse-grid", grid=["M.C", "F"])
