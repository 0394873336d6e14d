"""The CLI as a user types it: solve, query, list, stats, verify, games, and the mistakes users make."""

import json
import re
import sqlite3
from pathlib import Path

import pytest

from conftest import SEED_GRAPH_1, SEED_GRAPH_2


def test_solve_and_query_cat_mouse_inline_graph(cli):
    run = cli("solve", "cat-mouse", "--graph", json.dumps(SEED_GRAPH_2), "--quiet")
    assert run.exit_code == 0, run.stderr
    assert re.match(r"Solved cat-mouse: 2 positions, 1 move in [\d.]+ s\. ", run.stdout), run.stdout  # (was '1 moves')
    over = {"players": ["a", "b"], "start": "s", "positions": {"s": {"player": "a", "value": "lose"}}}
    nothing = cli("solve", "graph", "--file", json.dumps(over), "--name", "over")
    assert re.match(r"Solved over: 1 position, 0 moves in [\d.]+ s\. ", nothing.stdout), nothing.stdout
    q = cli("query", "cat-mouse", "--json")
    assert q.exit_code == 0
    data = json.loads(q.stdout)
    assert data["position"] == "mouse=1,cat=2,turn=mouse"
    assert (data["player"], data["result"], data["winner"], data["remoteness"]) == ("mouse", "win", "mouse", 1)
    assert data["best_move"] == "0"
    assert data["degree"] == 1
    assert data["moves"] == [
        {"move": "0", "position": "mouse=0,cat=2,turn=cat", "result": "lose", "remoteness": 0, "move_value": "win", "delta_remoteness": 0}
    ]


def test_graph_from_file_and_draw(cli, tmp_path):
    graph = tmp_path / "g.json"
    graph.write_text(json.dumps(SEED_GRAPH_1))
    assert cli("solve", "cat-mouse", "--graph", str(graph), "--name", "seed1", "-q").exit_code == 0
    data = json.loads(cli("query", "seed1", "mouse=1,cat=2,turn=mouse", "--json").stdout)
    assert data["result"] == "draw" and data["winner"] is None and data["remoteness"] is None
    # a draw's best move leads to a drawing child
    best = [m for m in data["moves"] if m["move"] == data["best_move"]]
    assert best and best[0]["result"] == "draw"


def test_moves_sorted_best_first(cli):
    cli("solve", "tictactoe", "-q")
    data = json.loads(cli("query", "tictactoe", "XX.OO....", "--json").stdout)
    assert data["player"] == "X" and data["result"] == "win" and data["remoteness"] == 1
    assert data["best_move"] == "3"
    assert data["moves"][0] == {
        "move": "3", "position": "XXXOO....", "result": "lose", "remoteness": 0, "move_value": "win", "delta_remoteness": 0
    }
    # after the winning move, remaining moves are ordered from the mover's point of view
    order = {"lose": 0, "tie": 1, "draw": 2, "win": 3}
    ranks = [order[m["result"]] for m in data["moves"]]
    assert ranks == sorted(ranks)


def test_query_text_output_shows_board(cli):
    cli("solve", "tictactoe", "-q")
    run = cli("query", "tictactoe", "X...O....")
    assert run.exit_code == 0
    assert "X . ." in run.stdout and "tie in 7" in run.stdout


@pytest.mark.parametrize("given", [("",), ("   ",), ("--position", ""), ("--", "")])
def test_an_empty_position_answers_the_start(cli, given):
    # as the web page and `gamedb query NAME` take it (was "bad tic-tac-toe position ''", exit 2)
    cli("solve", "tictactoe", "-q")
    cli("solve", "nim", "--max", "5", "-q")
    for name in ("tictactoe", "nim"):  # (nim's own message for '' asks for 0, the heaps all taken: not what is asked here)
        for fmt in ((), ("--json",)):
            start, empty = cli("query", name, *fmt), cli("query", name, *fmt, *given)
            assert (empty.exit_code, empty.stdout, empty.stderr) == (0, start.stdout, start.stderr) and start.stdout
    assert "omitted or empty means the start position" in " ".join(cli("query", "--help").stdout.split())


def test_list_and_games(cli):
    cli("solve", "tictactoe", "-q")
    listed = json.loads(cli("list", "--json").stdout)
    assert [(g["name"], g["status"], g["positions"]) for g in listed] == [("tictactoe", "solved", 765)]  # stored: one per class of 8 symmetries
    games = json.loads(cli("games", "--json").stdout)
    names = {g["family"] for g in games}
    assert {"cat-mouse", "tictactoe"} <= names
    cat = next(g for g in games if g["family"] == "cat-mouse")
    assert cat["options"][0]["option"] == "--graph"


def test_solving_again_is_a_no_op_and_force_resolves(cli):
    assert cli("solve", "tictactoe", "-q").exit_code == 0
    again = cli("solve", "tictactoe", "-q")
    assert again.exit_code == 0 and "already solved" in again.stdout
    forced = cli("solve", "tictactoe", "-q", "--force")
    assert forced.exit_code == 0 and "Solved tictactoe" in forced.stdout


def test_same_name_different_game_refused(cli):
    # a name given with --name is the user's: another game under it is refused (a default name is not: see test_cli_surface)
    cli("solve", "cat-mouse", "--graph", json.dumps(SEED_GRAPH_1), "--name", "g", "-q")
    run = cli("solve", "cat-mouse", "--graph", json.dumps(SEED_GRAPH_2), "--name", "g", "-q")
    assert run.exit_code == 1
    assert "already stored" in run.stderr and "--name" in run.stderr


def test_env_var_selects_database(cli, tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from gamedb.cli.app import app

    path = tmp_path / "env.sqlite"
    monkeypatch.setenv("GAMEDB_DB", str(path))
    result = CliRunner().invoke(app, ["solve", "tictactoe", "-q"])
    assert result.exit_code == 0 and path.exists()


# --- verify -------------------------------------------------------------------------

def test_verify_passes_then_fails_after_tampering(cli, db_path):
    cli("solve", "tictactoe", "-q")
    ok = cli("verify", "tictactoe", "-q")
    assert ok.exit_code == 0 and "765 positions" in ok.stdout
    with sqlite3.connect(db_path) as con:
        con.execute(
            "UPDATE position SET result = 1 WHERE text = 'XX.OO....' "
            "AND game_id = (SELECT id FROM game WHERE name = 'tictactoe')"
        )
        con.execute("UPDATE position SET result = 2 WHERE text = 'X...O....'")  # (codes: 1 win, 2 lose)
    bad = cli("verify", "tictactoe", "-q")
    assert bad.exit_code == 1
    # positions are checked in code order; X...O.... has the lower code
    assert "X...O...." in bad.stderr and bad.stderr.startswith("Error:")
    assert "Traceback" not in bad.stderr


def test_verify_catches_wrong_remoteness_and_best_move(cli, db_path):
    cli("solve", "cat-mouse", "--graph", json.dumps(SEED_GRAPH_1), "-q")
    assert cli("verify", "cat-mouse", "-q").exit_code == 0
    with sqlite3.connect(db_path) as con:
        text, rem = con.execute(
            "SELECT text, remoteness FROM position WHERE result = 2 AND remoteness > 0 ORDER BY code LIMIT 1"
        ).fetchone()
        con.execute("UPDATE position SET remoteness = remoteness + 2 WHERE text = ?", (text,))
    bad = cli("verify", "cat-mouse", "-q")
    assert bad.exit_code == 1 and text in bad.stderr


# --- plain sqlite3 ------------------------------------------------------------------

def test_lookup_with_only_sqlite3(cli, db_path):
    """What the README shows: look a position up by its text with Python's sqlite3 module."""
    cli("solve", "cat-mouse", "--graph", json.dumps(SEED_GRAPH_1), "-q")
    con = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    row = con.execute(
        "SELECT result, winner, remoteness, best_move FROM positions WHERE game = ? AND position = ?",
        ("cat-mouse", "mouse=1,cat=2,turn=mouse"),
    ).fetchone()
    assert row == ("draw", None, None, "3")
    # the same through the base tables, with the index on (game_id, text)
    plan = " ".join(
        str(r)
        for r in con.execute(
            "EXPLAIN QUERY PLAN SELECT result FROM position WHERE game_id = 1 AND text = 'mouse=3,cat=2,turn=cat'"
        )
    )
    assert "ix_position_text" in plan
    mouse_win = con.execute(
        "SELECT position, result, winner, remoteness, best_move FROM positions WHERE game = 'cat-mouse' "
        "AND position = 'mouse=5,cat=3,turn=mouse'"
    ).fetchone()
    assert mouse_win == ("mouse=5,cat=3,turn=mouse", "win", "mouse", 1, "0")
    moves = con.execute(
        "SELECT move, child, child_result FROM moves WHERE game = 'cat-mouse' AND position = 'mouse=1,cat=2,turn=mouse' ORDER BY ord"
    ).fetchall()
    assert moves == [("3", "mouse=3,cat=2,turn=cat", "draw")]


# --- bad input ----------------------------------------------------------------------

BAD_GRAPHS = [
    ("[[1,2],[0],[0]", "bad JSON"),
    ("{\"a\": 1}", "must be a JSON list"),
    ("[[1],[0]]", "at least 3 nodes"),
    ("[[1,2],[0,7],[0]]", "graph[1][1] = 7 is out of range"),
    ("[[1,2],[1,0],[0]]", "graph[1][0] = 1 is a self-loop"),
    ("[[1,2],[0,0],[0]]", "graph[1][1] = 0 is listed twice"),
    ("[[1,2],[0,2],[0]]", "graph[1][1] = 2: edge 1-2 is listed one way only"),
    ("[[1,2],[0],[0],[]]", "graph[3] is empty"),
    ("[[1,2],[0],[\"x\"]]", "graph[2][0] = 'x' is not a node number"),
    ("[[1,2],[0],[0]]", "the cat can reach node 2 but has no move"),
]


@pytest.mark.parametrize("graph,message", BAD_GRAPHS)
def test_bad_graph_refused_before_writing(cli, db_path, graph, message):
    run = cli("solve", "cat-mouse", "--graph", graph, "-q")
    assert run.exit_code == 2, run.stderr
    assert message in run.stderr
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    assert not db_path.exists()


def test_missing_graph_file(cli, tmp_path):
    run = cli("solve", "cat-mouse", "--graph", str(tmp_path / "nope.json"), "-q")
    assert run.exit_code == 2 and "no such file" in run.stderr


def test_missing_required_option(cli):
    run = cli("solve", "cat-mouse", "-q")
    assert run.exit_code == 2 and "--graph" in run.stderr


def test_unknown_family(cli):
    run = cli("solve", "chess")
    assert run.exit_code == 2 and "chess" in run.stderr


@pytest.mark.parametrize(
    "args,code,message",
    [
        (("query", "nosuch"), 1, "no game named 'nosuch'"),
        (("stats", "nosuch"), 1, "no game named 'nosuch'"),
        (("verify", "nosuch"), 1, "no game named 'nosuch'"),
        (("query", "tictactoe", "XXX"), 2, "bad tic-tac-toe position"),
        (("query", "tictactoe", "XXXXO...."), 2, "X moves first"),
        (("query", "tictactoe", "XXXOOO..."), 2, "both players"),
    ],
)
def test_bad_queries(cli, args, code, message):
    cli("solve", "tictactoe", "-q")
    run = cli(*args)
    assert run.exit_code == code, run.stderr
    assert message in run.stderr and run.stderr.startswith("Error:") and run.stderr.count("\n") == 1


@pytest.mark.parametrize(
    "position,code,message",
    [
        ("mouse=1,cat=0,turn=mouse", 2, "never be in the hole"),
        ("mouse=9,cat=2,turn=mouse", 2, "not in the graph"),
        ("mouse=1;cat=2", 2, "bad cat-mouse position"),
        ("mouse=3,cat=3,turn=cat", 1, "not reachable"),
    ],
)
def test_bad_cat_mouse_positions(cli, position, code, message):
    cli("solve", "cat-mouse", "--graph", json.dumps(SEED_GRAPH_2), "-q")
    run = cli("query", "cat-mouse", position)
    assert run.exit_code == code, run.stderr
    assert message in run.stderr


def test_query_without_database(cli, tmp_path):
    run = cli("query", "tictactoe", db=tmp_path / "missing.sqlite")
    assert run.exit_code == 1 and "no database at" in run.stderr
    assert not (tmp_path / "missing.sqlite").exists()


def test_not_a_database(cli, tmp_path):
    junk = tmp_path / "junk.sqlite"
    junk.write_text("hello, I am not SQLite" * 100)
    run = cli("list", db=junk)
    assert run.exit_code == 1 and run.stderr.startswith("Error:") and "Traceback" not in run.stderr


def test_not_a_gamedb_database(cli, tmp_path):
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as con:
        con.execute("CREATE TABLE t (x)")
    run = cli("list", db=other)
    assert run.exit_code == 1 and "not a gamedb database" in run.stderr


def _all_commands(group, prefix=()):
    for name, command in group.commands.items():
        if hasattr(command, "commands"):
            yield from _all_commands(command, (*prefix, name))
        else:
            yield [*prefix, name]


def test_every_command_has_help_with_example():
    """Walks every command (families included) and fails if one has no help or no Example."""
    import typer
    from typer.testing import CliRunner

    from gamedb.cli.app import app

    runner = CliRunner()
    commands = list(_all_commands(typer.main.get_command(app)))
    assert {"query", "play", "export"} <= {c[-1] for c in commands} and ["solve", "tictactoe"] in commands
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    for command in commands + [["solve"]]:
        result = runner.invoke(app, [*command, "--help"])
        assert result.exit_code == 0, command
        assert "Example:" in result.stdout or "Examples:" in result.stdout, command
        if command[0] != "solve":
            assert f"gamedb {' '.join(command)}" in readme or f"{command[-1]} " in readme, f"{command} missing from README"


@pytest.mark.parametrize("command", [["query", "nim", "3"], ["verify", "nim"], ["export", "nim"]])
def test_a_game_option_for_a_built_in_game_is_said_not_to_be_used(cli, command):
    """`gamedb query nim --game foo:Bar` answered as if --game were not there, without a word: now a note says it is
    not used (the game's family needs no class); the answer is the same."""
    assert cli("solve", "nim", "--max", "5", "-q").exit_code == 0
    plain, given = cli(*command), cli(*command, "--game", "foo:Bar")
    assert given.exit_code == plain.exit_code == 0, given.stderr
    assert given.stdout == plain.stdout and "--game" not in plain.stderr
    assert "Note: --game foo:Bar is not used: nim is a game of the family nim" in given.stderr, given.stderr


def _interrupted(*args, **kwargs):
    raise KeyboardInterrupt


@pytest.mark.parametrize("command, method, said", [
    (["query", "nim", "3"], "answerer", "Interrupted.\n"),
    (["solve", "nim", "--max", "7"], "solve", "Interrupted. Work committed so far is kept; run the same command again to resume.\n"),
])
def test_ctrl_c_says_resume_only_for_a_command_that_writes(cli, monkeypatch, command, method, said):
    """Ctrl+C in `gamedb query` or `play` said "Work committed so far is kept; run the same command again to resume", as a
    solve does: nothing was being written, and there is nothing to resume."""
    from gamedb.api import Database

    assert cli("solve", "nim", "--max", "5", "-q").exit_code == 0
    monkeypatch.setattr(Database, method, _interrupted)
    run = cli(*command)
    assert run.exit_code == 130 and run.stderr == said, run.stderr
