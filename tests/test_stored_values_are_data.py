"""A shared file's values are data: a stored parameter never names a file to open, a damaged stored
value of any type is one line naming the game, a game name that is not UTF-8 spoils only its own
game, and text from the file reaches a CSV with its control characters escaped.

(tests/test_crafted_files.py runs a table of crafts through every command; here what a table of
crafts cannot hold: a FIFO, serve under many requests, a name the commands cannot type, and a sweep
over the types of every stored field.)
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gamedb.cli.app import app

from conftest import SEED_GRAPH_1

GAMEDB = str(Path(sys.executable).with_name("gamedb"))  # the installed console script, as a user runs it
GRID = ["M.C", "..F"]


def invoke(*args: object, input: str = "quit\n"):
    return CliRunner().invoke(app, [str(a) for a in args], input=input)


def one_error_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), lines
    return lines[0]


def sql(db: Path, *statements: str, params: tuple[object, ...] = ()) -> None:
    con = sqlite3.connect(db)
    with con:
        for statement in statements:
            assert con.execute(statement, params).rowcount >= 1, statement
    con.close()


@pytest.fixture(scope="module")
def solved(tmp_path_factory) -> Path:
    """cat-mouse, cat-mouse-grid, nim, kayles (a proven period) and tictactoe, solved."""
    path = tmp_path_factory.mktemp("data") / "solved.sqlite"
    for args in (
        ["cat-mouse", "--graph", json.dumps(SEED_GRAPH_1), "--name", "cm"],
        ["cat-mouse-grid", "--grid", json.dumps(GRID), "--name", "grid"],
        ["nim", "--max", "6"],
        ["octal", "--code", "0.77", "--max", "200", "--name", "kayles"],
        ["tictactoe"],
    ):
        result = invoke("--db", path, "solve", *args, "-q")
        assert result.exit_code == 0, result.stderr
    return path


@pytest.fixture
def db(solved, tmp_path) -> Path:
    path = tmp_path / "shared.sqlite"
    shutil.copy(solved, path)
    return path


# --- 1. a stored parameter that names a path is refused, never opened -----------------------


def test_the_command_line_reads_a_file_and_stores_its_content(tmp_path):
    graph = tmp_path / "graph.json"
    graph.write_text(json.dumps(SEED_GRAPH_1))
    db = tmp_path / "g.sqlite"
    assert invoke("--db", db, "solve", "cat-mouse", "--graph", graph, "-q").exit_code == 0
    graph.unlink()  # the stored game is the graph itself: the file is not needed again
    with sqlite3.connect(db) as con:
        (stored,) = con.execute("SELECT parameters FROM game").fetchone()
    con.close()
    assert json.loads(stored) == {"graph": SEED_GRAPH_1}
    assert invoke("--db", db, "verify", "cat-mouse", "-q").exit_code == 0


@pytest.mark.parametrize("game, parameter", [("cm", "graph"), ("grid", "grid")])
def test_a_fifo_named_by_stored_parameters_blocks_nothing(db, tmp_path, game, parameter):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    sql(db, f"UPDATE game SET parameters = json_set(parameters, '$.{parameter}', ?) WHERE name = ?", params=(str(fifo), game))
    pristine = db.read_bytes()
    for command in (["query", game], ["query", game, "-"], ["play", game], ["export", game], ["verify", game]):
        # stdin left open: a command that opened /dev/stdin or the FIFO would wait for ever (the timeout fails the test)
        stdin = "mouse=1,cat=2,turn=mouse\n" if command[-1] == "-" else ""  # (with no position, `query -` has nothing to do)
        run = subprocess.run([GAMEDB, "--db", str(db), *command], input=stdin, capture_output=True, text=True, timeout=60)
        line = one_error_line(run.stderr)
        assert run.returncode == 1, (command, run.stderr)
        assert f"game '{game}' is damaged in this file" in line and f"parameter '{parameter}' is the text" in line, line
        assert "opens no file" in line
    from starlette.testclient import TestClient

    from gamedb.web.app import create_app

    client = TestClient(create_app(str(db)))
    for _ in range(50):  # a FIFO here used up serve's threads after 45 requests
        response = client.get(f"/api/games/{game}/positions")
        assert response.status_code == 409 and f"parameter '{parameter}' is the text" in response.json()["error"]
    assert client.get("/api/games/nim/positions").status_code == 200
    assert db.read_bytes() == pristine


def test_a_stored_path_to_a_json_file_never_shows_its_content(db, tmp_path):
    secret = tmp_path / "secret.json"
    secret.write_text('[["TOPSECRET-KEY"], [0]]')
    sql(db, "UPDATE game SET parameters = json_object('graph', ?) WHERE name = 'cm'", params=(str(secret),))
    for command in (["query", "cm"], ["stats", "cm"], ["verify", "cm", "-q"], ["export", "cm"], ["play", "cm"]):
        result = invoke("--db", db, *command)
        assert "TOPSECRET" not in result.stdout + result.stderr, command
    line = one_error_line(invoke("--db", db, "query", "cm").stderr)
    assert "parameter 'graph'" in line and "game 'cm'" in line

    from starlette.testclient import TestClient

    from gamedb.web.app import create_app

    client = TestClient(create_app(str(db)))
    for _ in range(60):  # a FIFO here used up serve's threads after 45 requests; a file is never opened at all
        for url in ("/api/games/cm", "/api/games/cm/positions"):
            response = client.get(url)
            assert response.status_code == 409 and "TOPSECRET" not in response.text
            assert list(response.json()) == ["error"] and "\n" not in response.json()["error"]
    assert client.get("/api/games/nim/positions").status_code == 200


def test_the_python_api_refuses_a_path_in_stored_parameters(tmp_path):
    from gamedb.games import game_from_parameters
    from gamedb.games.json_option import StoredPathRefused

    (tmp_path / "g.json").write_text(json.dumps(SEED_GRAPH_1))
    with pytest.raises(StoredPathRefused, match="parameter 'graph'"):
        game_from_parameters("cat-mouse", {"graph": str(tmp_path / "g.json")})
    assert game_from_parameters("cat-mouse", {"graph": SEED_GRAPH_1}).parameters() == {"graph": SEED_GRAPH_1}
    from gamedb import make_game

    assert make_game("cat-mouse", graph=str(tmp_path / "g.json")).parameters() == {"graph": SEED_GRAPH_1}  # the user's word


# --- 2. damaged stored values, of every type, in every stored field -------------------------

#: what a hand edit or a damaged disk puts where a value was: wrong type, negative, huge, null, nested
MUTATIONS = ["lots", -1, 9_000_000_000_000_000_000, None, [[1]], {"a": 1}, "DELETE"]
#: reading commands as a user types them; "gamedb query" runs the console script's entry point
COMMANDS = [["query"], ["query", "-"], ["stats"], ["verify", "-q"], ["export", "-f", "csv"], ["play"]]


def _fields(data: dict, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = []
    for key, value in data.items():
        found.append((*prefix, key))
        if isinstance(value, dict):
            found += _fields(value, (*prefix, key))
    return found


def _stored_fields(db: Path) -> list[tuple[str, str, tuple[str, ...]]]:
    """(game, column, path) of every stored field of parameters, info and progress, nested ones too."""
    out = []
    with sqlite3.connect(db) as con:
        for name, *columns in con.execute("SELECT name, parameters, info, progress FROM game WHERE name != 'tictactoe'"):
            for column, raw in zip(("parameters", "info", "progress"), columns, strict=True):
                if raw is not None:
                    out += [(name, column, path) for path in _fields(json.loads(raw))]
    con.close()
    return out


@pytest.mark.slow  # some 1,000 commands: about a minute
def test_every_stored_field_of_every_type_is_one_line_or_an_answer(solved, tmp_path):
    from test_crafted_files import _console

    fields = _stored_fields(solved)
    assert len(fields) >= 20 and ("kayles", "info", ("periodicity", "period")) in fields
    starts = {}
    with sqlite3.connect(solved) as con:
        starts = dict(con.execute("SELECT name, start_position FROM game"))
    con.close()
    failures = []
    db = tmp_path / "fuzzed.sqlite"
    for game, column, path in fields:
        for value in MUTATIONS:
            shutil.copy(solved, db)
            where = "$." + ".".join(path)
            if value == "DELETE":
                sql(db, f"UPDATE game SET {column} = json_remove({column}, ?) WHERE name = ?", params=(where, game))
            else:
                sql(db, f"UPDATE game SET {column} = json_set({column}, ?, json(?)) WHERE name = ?", params=(where, json.dumps(value), game))
            for command in COMMANDS:
                args = ["--db", str(db), command[0], game, *command[1:]]
                stdin = f"{starts[game]}\n" if "-" in command else "quit\n"
                what = f"{game} {column}{where[1:]}={json.dumps(value)} {' '.join(command)}"
                # a query as the console script runs it
                for run in [_console(args, stdin) if command[0] == "query" else invoke(*args, input=stdin)]:
                    exception = getattr(run, "exception", None)
                    if exception is not None and not isinstance(exception, SystemExit):
                        failures.append(f"{what}: {type(exception).__name__}: {exception}")
                    elif run.exit_code not in (0, 1):
                        failures.append(f"{what}: exit {run.exit_code}: {run.stderr[-200:]}")
                    elif run.exit_code == 1:
                        lines = [line for line in run.stderr.splitlines() if line.strip()]
                        if len(lines) != 1 or not lines[0].startswith("Error: ") or game not in lines[0]:
                            failures.append(f"{what}: {lines[:3]}")
    assert not failures, "\n".join(failures[:20])


@pytest.mark.parametrize(
    "craft, words",
    [
        ("DELETE FROM position WHERE game_id = (SELECT id FROM game WHERE name = 'kayles') AND code = 5", "heap 5 is missing"),
        ("UPDATE game SET info = json_set(info, '$.remoteness_searched_to', 'lots') WHERE name = 'kayles'",
         "info.remoteness_searched_to is not a whole number"),
        ("UPDATE game SET info = json_set(info, '$.periodicity.period', 9000000000000000000) WHERE name = 'kayles'",
         "which heaps 0..200 cannot prove"),
        ("UPDATE game SET info = json_set(info, '$.periodicity.checked_to', 9000000000000000000) WHERE name = 'kayles'",
         "beyond the stored heaps 0..200"),
    ],
)
def test_the_damaged_heap_values_of_the_issue(db, craft, words):
    """issue 20's three tracebacks, as typed there: query, query -, play, serve."""
    sql(db, craft)
    pristine = db.read_bytes()
    for args, stdin in ((["query", "kayles"], ""), (["query", "kayles", "1000000000007 5"], ""), (["query", "kayles", "-"], "1000000000007 5\n"),
                        (["play", "kayles"], "quit\n")):
        run = subprocess.run([GAMEDB, "--db", str(db), *args], input=stdin, capture_output=True, text=True, timeout=60)
        assert run.returncode == 1, (args, run.stdout, run.stderr)
        line = one_error_line(run.stderr)
        assert "game 'kayles' is damaged in this file" in line and words in line, line
    from starlette.testclient import TestClient

    from gamedb.web.app import create_app

    response = TestClient(create_app(str(db))).get("/api/games/kayles/positions", params={"position": "1000000000007 5"})
    assert response.status_code == 409 and words in response.json()["error"]
    assert db.read_bytes() == pristine


# --- 3. a game name that is not UTF-8 ----------------------------------------------------------


def test_a_name_that_is_not_utf8_spoils_only_its_game(db, tmp_path):
    sql(db, "UPDATE game SET name = CAST(x'fffe41' AS TEXT) WHERE name = 'nim'")
    pristine = db.read_bytes()
    listed = invoke("--db", db, "list")
    assert listed.exit_code == 0
    assert all(name in listed.stdout for name in ("cm", "grid", "kayles", "tictactoe"))
    assert "\\xff\\xfeA" in listed.stdout and "DAMAGED" in listed.stdout
    as_json = {game["name"]: game for game in json.loads(invoke("--db", db, "list", "--json").stdout)}
    assert as_json["\\xff\\xfeA"]["status"] == "damaged" and "not valid UTF-8" in as_json["\\xff\\xfeA"]["problem"]
    unknown = invoke("--db", db, "query", "zzz")
    assert unknown.exit_code == 1 and "stored: " in one_error_line(unknown.stderr) and "\\xff\\xfeA" in unknown.stderr
    typed = subprocess.run([GAMEDB, "--db", str(db), "query", "\\xff\\xfeA"], capture_output=True, text=True, timeout=60)
    assert typed.returncode == 1 and one_error_line(typed.stderr).startswith("Error: no game named")
    assert invoke("--db", db, "query", "kayles").exit_code == 0
    copied = invoke("copy", db, tmp_path / "copy.sqlite", "-q")
    assert copied.exit_code == 0, copied.stderr
    assert "Skipped: game '\\xff\\xfeA' is damaged in this file: its name is not valid UTF-8." in copied.stderr
    assert sorted(g["name"] for g in json.loads(invoke("--db", tmp_path / "copy.sqlite", "list", "--json").stdout)) == [
        "cm", "grid", "kayles", "tictactoe"
    ]
    from starlette.testclient import TestClient

    from gamedb.web.app import create_app

    games = TestClient(create_app(str(db))).get("/api/games")
    assert games.status_code == 200 and len(games.json()) == 5
    assert db.read_bytes() == pristine


# --- 5. control characters of stored text in every output -------------------------------------


def test_control_characters_of_stored_text_are_escaped_in_every_output(db):
    start = "game_id = (SELECT id FROM game WHERE name = 'cm') AND code = (SELECT start_code FROM game WHERE name = 'cm')"
    sql(db, f"UPDATE position SET text = 'evil' || char(27) || ']0;pwned' || char(7) || char(10) || 'x' WHERE {start}")
    sql(db, "UPDATE move_label SET name = char(27) || '[2J' WHERE game_id = (SELECT id FROM game WHERE name = 'cm') "
            f"AND id = (SELECT best_move FROM position WHERE {start})")  # the start's best move's label
    outputs = {
        "export csv": invoke("--db", db, "export", "cm", "--format", "csv").stdout,
        "export jsonl": invoke("--db", db, "export", "cm", "--format", "jsonl").stdout,
        **{f"query {fmt}": invoke("--db", db, "query", "cm", "--format", fmt).stdout for fmt in ("table", "json", "jsonl", "csv")},
    }
    for what, text in outputs.items():
        assert "evil" in text, what
        assert not any(ord(c) < 32 and c != "\n" or ord(c) == 127 for c in text), what
    csv_line = next(line for line in outputs["export csv"].splitlines() if "evil" in line)
    assert csv_line.startswith("evil\\x1b]0;pwned\\x07\\nx,") and ",\\x1b[2J," in csv_line  # one row: the newline escaped too
