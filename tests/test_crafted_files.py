"""Every command on every crafted file: no code from the file runs, no traceback, one line, the file unchanged.

A shared database is data from someone else. Each craft below edits one
game of a solved file with plain sqlite3 (what a damaged disk or a hand edit
does), with ``evilmod.py`` -- which would leave a trace file if imported --
in the working directory, which is on the import path. Then every command
runs on the crafted game as a user types it: it either answers (where the
damage does not matter to it) or exits 1 with one ``Error:`` line naming
the game; never a traceback, never the module's code; a reading command
leaves the file as it was, and the file's other games still answer.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import shutil
import sqlite3
import sys
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gamedb.cli.app import app, main

from conftest import SEED_GRAPH_1

EVIL = """\
from pathlib import Path
Path(__file__).with_name("TRACE").write_text("evilmod ran")
from gamedb.games.heaps.nim import Nim as Evil
"""

#: a file a crafted game's parameters name: its content must never be shown
SECRET = '[["TOPSECRET ssh-rsa AAAA"], [0]]'

#: the games of the file: name -> solve arguments
GAMES = {
    "ttt": ["tictactoe", "--strategy", "sql"],  # move rows, which the child-deleted craft removes
    "cm": ["cat-mouse", "--graph", json.dumps(SEED_GRAPH_1)],
    "nim": ["nim", "--max", "6"],
    "kayles": ["octal", "--code", "0.77", "--max", "40"],
}

START = "(SELECT start_code FROM game WHERE name = '{game}')"
START_ROW = f"game_id = (SELECT id FROM game WHERE name = '{{game}}') AND code = {START}"


@dataclass(frozen=True)
class Craft:
    id: str
    game: str
    sql: tuple[str, ...]
    #: commands that must refuse (exit 1); the others may answer or refuse
    refused_by: frozenset[str]


#: every command that uses the game row
GAME_ROW = frozenset({"query", "query -", "query csv", "gamedb query", "gamedb query -", "stats", "verify", "export", "play", "compact"})
#: the commands that need the rules
RULES = frozenset({"query", "query -", "query csv", "gamedb query", "gamedb query -", "verify", "export", "play"})
#: the commands that read the start's stored values
VALUES = RULES


def craft(id: str, game: str, *sql: str, refused_by: frozenset[str]) -> pytest.param:
    return pytest.param(Craft(id, game, tuple(s.replace("{game}", game) for s in sql), refused_by), id=id)


def update_game(column_value: str) -> str:
    return f"UPDATE game SET {column_value} WHERE name = '{{game}}'"


def update_start(column_value: str) -> str:
    return f"UPDATE position SET {column_value} WHERE {START_ROW}"


#: a family that cannot be loaded: query answers from the stored rows (a note says what needs the rules), the rest refuse
NO_RULES = frozenset({"verify", "export", "play"})

CRAFTS = [
    craft("family-names-code", "ttt", update_game("family = 'evilmod:Evil'"), refused_by=NO_RULES),
    craft("family-unknown", "ttt", update_game("family = 'evilmod'"), refused_by=NO_RULES),
    craft("progress-not-json", "ttt", update_game("progress = 'zz'"), refused_by=GAME_ROW),
    craft("info-not-json", "kayles", update_game("info = '{\"periodicity\": '"), refused_by=GAME_ROW),
    craft("parameters-not-json", "cm", update_game("parameters = '{\"graph\": [[1'"), refused_by=GAME_ROW),
    craft("parameters-a-list", "cm", update_game("parameters = '[1, 2]'"), refused_by=GAME_ROW),
    craft("parameters-bad-graph", "cm", update_game("parameters = '{\"graph\": [[1], [0]]}'"), refused_by=RULES),
    craft("parameters-no-graph", "cm", update_game("parameters = '{\"grid\": 3}'"), refused_by=RULES),
    craft("positions-lots", "ttt", update_game("positions = 'lots'"), refused_by=GAME_ROW),
    craft("status-unknown", "nim", update_game("status = 'done'"), refused_by=GAME_ROW),
    craft("impartial-maybe", "nim", update_game("impartial = 'maybe'"), refused_by=GAME_ROW),
    craft("period-zero", "kayles", update_game("info = json_set(info, '$.periodicity.period', 0)"), refused_by=GAME_ROW),
    craft("periodicity-unknown-key", "kayles", update_game("info = json_set(info, '$.periodicity.colour', 'red')"), refused_by=GAME_ROW),
    craft("player-five", "ttt", update_start("player = 5"), refused_by=VALUES),
    craft("result-unknown", "ttt", update_start("result = 'maybe'"), refused_by=VALUES),
    craft("remoteness-null", "ttt", update_start("remoteness = NULL"), refused_by=VALUES),
    craft("remoteness-text", "ttt", update_start("remoteness = 'far'"), refused_by=VALUES),
    craft("grundy-text", "nim", update_start("grundy = 'big'"), refused_by=VALUES),
    craft("degree-negative", "cm", update_start("degree = -3"), refused_by=VALUES),
    # parameters from a file are data: a path in them is never opened (SECRET's file lies beside the crafted one)
    craft("parameters-a-path", "cm", update_game("parameters = json_object('graph', 'secret.json')"), refused_by=RULES),
    craft("parameters-stdin", "cm", update_game("parameters = json_object('graph', '/dev/stdin')"), refused_by=RULES),
    craft("parameters-inline-text", "cm", update_game("parameters = json_object('graph', '[[1], [0]]')"), refused_by=RULES),
    # the heap solver's stored values and notes, against what it reads
    craft(
        "heap-row-deleted", "kayles",
        "DELETE FROM position WHERE game_id = (SELECT id FROM game WHERE name = 'kayles') AND code = 5",
        refused_by=RULES | {"stats"},
    ),
    craft("searched-to-text", "nim", update_game("info = json_set(info, '$.remoteness_searched_to', 'lots')"), refused_by=GAME_ROW),
    craft("searched-to-null", "nim", update_game("info = json_set(info, '$.remoteness_searched_to', json('null'))"), refused_by=GAME_ROW),
    craft(
        "period-huge", "kayles",
        update_game("info = json_set(info, '$.periodicity', json('{\"proven\": true, \"checked_to\": 40, \"max_take\": 2, "
                    "\"period\": 9000000000000000000, \"preperiod\": 0}'))"),
        refused_by=RULES - {"export"},
    ),
    craft("checked-to-huge", "kayles", update_game("info = json_set(info, '$.periodicity.checked_to', 9000000000000000000)"),
          refused_by=RULES - {"export"}),
    craft("max-take-wrong", "kayles", update_game("info = json_set(info, '$.periodicity.max_take', 7)"), refused_by=RULES - {"export"}),
    craft("heap-max-removed", "nim", update_game("parameters = json_remove(parameters, '$.max')"), refused_by=RULES - {"export"}),
    craft(
        "child-deleted", "ttt",
        "DELETE FROM move WHERE game_id = (SELECT id FROM game WHERE name = 'ttt') AND child = "
        "(SELECT code FROM position WHERE text = 'X........' AND game_id = (SELECT id FROM game WHERE name = 'ttt'))",
        "DELETE FROM position WHERE text = 'X........' AND game_id = (SELECT id FROM game WHERE name = 'ttt')",
        refused_by=frozenset({"query", "query -", "query csv", "gamedb query", "gamedb query -", "verify", "play"}),
    ),
]

#: "gamedb query ..." runs the console script's entry point (gamedb.cli.app.main, reading sys.argv); the others
#: run the command line in Typer's test runner
COMMANDS = ["list", "query", "query -", "query csv", "gamedb query", "gamedb query -", "stats", "verify", "export", "play", "copy", "compact"]
#: commands that write the file they are given (by design)
WRITERS = {"compact"}


@dataclass
class Run:
    exit_code: int
    stdout: str
    stderr: str
    exception: BaseException | None = None
    #: how it ran: "script" (the console script's entry point) or "runner" (Typer's test runner)
    path: str = "runner"


def _invoke(args: list[str], stdin: str = "quit\n") -> Run:
    result = CliRunner().invoke(app, [str(a) for a in args], input=stdin)
    return Run(result.exit_code, result.stdout, result.stderr, result.exception)


def _console(args: list[str], stdin: str) -> Run:
    """What the ``gamedb`` console script does with ``args``: :func:`gamedb.cli.app.main` on ``sys.argv``."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin, sys.argv
    sys.stdin, sys.argv = io.StringIO(stdin), ["gamedb", *map(str, args)]
    try:
        with redirect_stdout(out), redirect_stderr(err):
            try:
                main()
                code = 0
            except SystemExit as exc:
                code = int(exc.code or 0)
    finally:
        sys.stdin, sys.argv = saved
    return Run(code, out.getvalue(), err.getvalue(), path="script")


def _run(command: str, game: str, db: Path, other: Path) -> Run:
    stdin = "quit\n"
    if command == "list":
        args = ["--db", db, "list"]
    elif command == "copy":
        args = ["copy", db, other]
    elif command in ("verify", "export"):
        args = ["--db", db, command, game, *(["-q"] if command == "verify" else ["-f", "jsonl"])]
    elif command.endswith("query -"):  # the start position's text, and another line, on stdin
        args, stdin = ["--db", db, "query", game, "-"], "\n".join(_start_and_next(db, game)) + "\n"
    elif command == "query csv":
        args = ["--db", db, "query", game, "--format", "csv"]
    else:
        args = ["--db", db, command.removeprefix("gamedb "), game]
    return _console(args, stdin) if command.startswith("gamedb ") else _invoke(args, stdin)


def _start_and_next(db: Path, game: str) -> list[str]:
    """The stored text of the start position and of another position (read raw: the file may be damaged)."""
    with sqlite3.connect(db) as con:
        rows = con.execute(
            "SELECT p.text FROM position p JOIN game g ON g.id = p.game_id WHERE g.name = ? ORDER BY p.code = g.start_code DESC, p.code LIMIT 2",
            (game,),
        ).fetchall()
    con.close()
    return [text for (text,) in rows]


def solve_games(folder: Path) -> Path:
    """A new file in ``folder`` holding the solved :data:`GAMES` (also used by test_crafted_serve)."""
    path = folder / "shared.sqlite"
    for name, args in GAMES.items():
        result = _invoke(["--db", path, "solve", *args, "--name", name, "-q"])
        assert result.exit_code == 0, result.stderr
    return path


@pytest.fixture(scope="module")
def solved(tmp_path_factory) -> Path:
    return solve_games(tmp_path_factory.mktemp("crafted-template"))


@pytest.fixture(scope="module")
def answers(solved) -> dict[str, str]:
    """The start of every game as the untouched file answers it."""
    return {name: _invoke(["--db", solved, "query", name, "--json"]).stdout for name in GAMES}


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("c", CRAFTS)
def test_every_command_on_a_crafted_file(c: Craft, solved, answers, tmp_path, monkeypatch):
    paths: dict[str, str] = {}
    folder = tmp_path / "share"
    folder.mkdir()
    (folder / "evilmod.py").write_text(EVIL)
    (folder / "secret.json").write_text(SECRET)
    crafted = folder / "crafted.sqlite"
    shutil.copy(solved, crafted)
    with sqlite3.connect(crafted) as con:
        for sql in c.sql:
            assert con.execute(sql).rowcount >= 1, sql
    con.close()
    pristine = _digest(crafted)
    monkeypatch.chdir(folder)  # where evilmod.py lies: on the import path of `python -m`
    monkeypatch.syspath_prepend(str(folder))
    for command in COMMANDS:
        db = folder / f"{command.replace(' ', '_')}.sqlite"
        shutil.copy(crafted, db)
        result = _run(command, c.game, db, folder / f"{command.replace(' ', '_')}-copy.sqlite")
        paths[command] = result.path
        what = f"{c.id}: gamedb {command} (the {result.path} path)"
        assert not (folder / "TRACE").exists(), f"{what} ran the code the file names"
        unexpected = result.exception if not isinstance(result.exception, (SystemExit, type(None))) else None
        assert unexpected is None, f"{what} raised {type(unexpected).__name__}: {unexpected}"
        assert "Traceback" not in result.stdout + result.stderr, what
        assert "TOPSECRET" not in result.stdout + result.stderr, f"{what} showed a file the game's parameters name"
        assert result.exit_code in (0, 1), f"{what}: exit {result.exit_code}: {result.stderr}"
        if command in c.refused_by:
            assert result.exit_code == 1, f"{what} should refuse the crafted game; stdout: {result.stdout[-300:]}"
        if result.exit_code == 1:
            lines = [line for line in result.stderr.splitlines() if line.strip()]
            assert len(lines) == 1 and lines[0].startswith("Error: "), (what, lines)
            assert re.search(rf"\b{c.game}\b", lines[0]), (what, lines[0])  # names the game
        if command == "list":
            listed = result.stdout
            assert all(name in listed for name in GAMES), (what, listed)
        if command not in WRITERS or result.exit_code == 1:
            assert _digest(db) == pristine, f"{what} changed the file"
    _serve(c, crafted, folder)
    assert not (folder / "TRACE").exists(), f"{c.id}: gamedb serve ran the code the file names"
    assert _digest(crafted) == pristine, f"{c.id}: gamedb serve changed the file"
    # the other games of the file still answer as before
    for name in GAMES:
        if name != c.game:
            again = _invoke(["--db", crafted, "query", name, "--json"])
            assert again.exit_code == 0 and again.stdout == answers[name], (c.id, name, again.stderr)
    PATHS[c.id] = paths


#: craft id -> command -> which path answered it (for the coverage check below)
PATHS: dict[str, dict[str, str]] = {}


def _serve(c: Craft, db: Path, folder: Path) -> None:
    """gamedb serve's API on the crafted file: every game listed; the crafted one answered or a JSON 4xx naming it."""
    from starlette.testclient import TestClient

    from gamedb.web.app import create_app

    client = TestClient(create_app(str(db)), raise_server_exceptions=True)
    games = client.get("/api/games")
    assert games.status_code == 200 and sorted(g["name"] for g in games.json()) == sorted(GAMES), (c.id, games.text)
    for url in (f"/api/games/{c.game}", f"/api/games/{c.game}/positions"):
        response = client.get(url)
        assert response.status_code in (200, 400, 404, 409), (c.id, url, response.status_code, response.text)
        assert "TOPSECRET" not in response.text, (c.id, url, "showed a file the game's parameters name")
        if response.status_code != 200:
            assert re.search(rf"\b{c.game}\b", response.json()["error"]), (c.id, url, response.text)
        elif url.endswith("positions"):
            assert "query" not in c.refused_by, (c.id, url, "answered a game the CLI refuses")


def test_the_console_script_took_part():
    """The console script's entry point met the crafted files itself, and answered or refused each as the checks above expect."""
    if len(PATHS) < len(CRAFTS):
        pytest.skip("runs after the whole crafted-file suite")
    assert PATHS["player-five"]["gamedb query -"] == "script"  # the damaged row met half way
    assert PATHS["grundy-text"]["gamedb query -"] == "script"
    assert PATHS["family-names-code"]["gamedb query"] == "script"  # not a built-in family: answered from the rows
    assert PATHS["progress-not-json"]["gamedb query"] == "script"  # a damaged game row: said what is wrong


def test_the_crafts_cover_what_was_found():
    ids = {p.id for p in CRAFTS}
    for found in ("progress-not-json", "info-not-json", "parameters-not-json", "parameters-a-list", "positions-lots",
                  "period-zero", "periodicity-unknown-key", "player-five", "result-unknown", "remoteness-null",
                  "remoteness-text", "child-deleted", "family-names-code"):
        assert found in ids
    assert len(ids) == len(CRAFTS)


def test_solve_refuses_a_damaged_game_and_force_replaces_it(solved, tmp_path):
    db = tmp_path / "damaged.sqlite"
    shutil.copy(solved, db)
    with sqlite3.connect(db) as con:
        con.execute("UPDATE game SET progress = 'zz' WHERE name = 'nim'")
    con.close()
    again = _invoke(["--db", db, "solve", *GAMES["nim"], "--name", "nim", "-q"])
    assert again.exit_code == 1
    assert again.stderr.strip() == "Error: game 'nim' is damaged in this file: progress is not valid JSON ('zz'); --force replaces it"
    forced = _invoke(["--db", db, "solve", *GAMES["nim"], "--name", "nim", "--force", "-q"])
    assert forced.exit_code == 0, forced.stderr
    assert _invoke(["--db", db, "query", "nim", "--json"]).stdout == _invoke(["--db", solved, "query", "nim", "--json"]).stdout
