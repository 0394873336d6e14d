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
import json
import re
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import SEED_GRAPH_1
from gamedb.cli.app import app

EVIL = """\
from pathlib import Path
Path(__file__).with_name("TRACE").write_text("evilmod ran")
from gamedb.games.heaps.nim import Nim as Evil
"""

#: the games of the file: name -> solve arguments
GAMES = {
    "ttt": ["tictactoe", "--engine", "sql"],  # move rows, which the child-deleted craft removes
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


GAME_ROW = frozenset({"query", "stats", "verify", "export", "play", "compact"})  # every command that uses the game row
RULES = frozenset({"query", "verify", "export", "play"})  # the commands that need the rules
VALUES = frozenset({"query", "verify", "export", "play"})  # the commands that read the start's stored values


def craft(id: str, game: str, *sql: str, refused_by: frozenset[str]) -> pytest.param:
    return pytest.param(Craft(id, game, tuple(s.replace("{game}", game) for s in sql), refused_by), id=id)


def update_game(column_value: str) -> str:
    return f"UPDATE game SET {column_value} WHERE name = '{{game}}'"


def update_start(column_value: str) -> str:
    return f"UPDATE position SET {column_value} WHERE {START_ROW}"


CRAFTS = [
    craft("family-names-code", "ttt", update_game("family = 'evilmod:Evil'"), refused_by=RULES),
    craft("family-unknown", "ttt", update_game("family = 'evilmod'"), refused_by=RULES),
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
    craft(
        "child-deleted", "ttt",
        "DELETE FROM move WHERE game_id = (SELECT id FROM game WHERE name = 'ttt') AND child = "
        "(SELECT code FROM position WHERE text = 'X........' AND game_id = (SELECT id FROM game WHERE name = 'ttt'))",
        "DELETE FROM position WHERE text = 'X........' AND game_id = (SELECT id FROM game WHERE name = 'ttt')",
        refused_by=frozenset({"query", "verify", "play"}),
    ),
]

COMMANDS = ["list", "query", "stats", "verify", "export", "play", "copy", "compact"]
#: commands that write the file they are given (by design)
WRITERS = {"compact"}


def _invoke(args: list[str], stdin: str = "quit\n"):
    return CliRunner().invoke(app, [str(a) for a in args], input=stdin)


def _arguments(command: str, game: str, db: Path, other: Path) -> list[str]:
    if command == "list":
        return ["--db", db, "list"]
    if command == "copy":
        return ["copy", db, other]
    if command in ("verify", "export"):
        return ["--db", db, command, game, *(["-q"] if command == "verify" else ["-f", "jsonl"])]
    return ["--db", db, command, game]


@pytest.fixture(scope="module")
def solved(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("crafted-template") / "shared.sqlite"
    for name, args in GAMES.items():
        result = _invoke(["--db", path, "solve", *args, "--name", name, "-q"])
        assert result.exit_code == 0, result.stderr
    return path


@pytest.fixture(scope="module")
def answers(solved) -> dict[str, str]:
    """The start of every game as the untouched file answers it."""
    return {name: _invoke(["--db", solved, "query", name, "--json"]).stdout for name in GAMES}


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("c", CRAFTS)
def test_every_command_on_a_crafted_file(c: Craft, solved, answers, tmp_path, monkeypatch):
    folder = tmp_path / "share"
    folder.mkdir()
    (folder / "evilmod.py").write_text(EVIL)
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
        db = folder / f"{command}.sqlite"
        shutil.copy(crafted, db)
        result = _invoke(_arguments(command, c.game, db, folder / f"{command}-copy.sqlite"))
        what = f"{c.id}: gamedb {command}"
        assert not (folder / "TRACE").exists(), f"{what} ran the code the file names"
        unexpected = result.exception if not isinstance(result.exception, (SystemExit, type(None))) else None
        assert unexpected is None, f"{what} raised {type(unexpected).__name__}: {unexpected}"
        assert "Traceback" not in result.stdout + result.stderr, what
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
    # the other games of the file still answer as before
    for name in GAMES:
        if name != c.game:
            again = _invoke(["--db", crafted, "query", name, "--json"])
            assert again.exit_code == 0 and again.stdout == answers[name], (c.id, name, again.stderr)


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
