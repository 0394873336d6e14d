"""A database file never chooses code: a stored ``module:Class`` family loads only on the user's ``--game``.

The crafted file holds a solved game whose ``family`` column names
``evilmod:Evil``, and ``evilmod.py`` lies beside it in the working directory
(which ``python -m`` puts on the import path). Importing it would leave a
trace file. Every command runs as a user types it.
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

from gamedb import Database, make_game

EVIL = """\
from pathlib import Path
Path(__file__).with_name("TRACE").write_text("evilmod ran")
from gamedb.games.heaps.nim import Nim as Evil
"""

#: (command, exit code, what it must say); exit 1 = one `Error:` line naming the game and what to pass;
#: ``query`` without the class answers from the stored rows (as for a missing plugin), its note saying what to pass
COMMANDS = [
    (["list"], 0, "evilmod:Evil"),
    (["query", "heaps"], 0, "pass --game evilmod:Evil"),
    (["query", "heaps", "3", "--json"], 0, "pass --game evilmod:Evil"),
    (["query", "heaps", "--format", "csv"], 0, "next"),
    (["query", "heaps", "-"], 0, '"rules_missing"'),
    (["query", "heaps", "3 4"], 1, "pass --game evilmod:Evil"),  # a sum: not stored, needs the rules
    (["stats", "heaps"], 0, "positions"),
    (["verify", "heaps"], 1, "pass --game evilmod:Evil"),
    (["export", "heaps", "-f", "jsonl"], 1, "pass --game evilmod:Evil"),
    (["play", "heaps"], 1, "pass --game evilmod:Evil"),
    (["query", "heaps", "--game", "gamedb.games.heaps.nim:Nim"], 0, "pass --game evilmod:Evil"),  # another class is not the one named
    (["verify", "heaps", "--game", "gamedb.games.heaps.nim:Nim"], 1, "pass --game evilmod:Evil"),
    (["copy", "{db}", "{copy}"], 0, "Copied 1 game ("),
    (["compact", "heaps"], 0, "Compacted heaps"),
]


@pytest.fixture(scope="module")
def crafted(tmp_path_factory) -> Path:
    """A solved Nim whose family column an attacker rewrote to ``evilmod:Evil``, and the module beside it."""
    folder = tmp_path_factory.mktemp("crafted")
    with Database(folder / "shared.sqlite", create=True) as db:
        db.solve(make_game("nim", max=4), "heaps")
    with sqlite3.connect(folder / "shared.sqlite") as con:
        con.execute("UPDATE game SET family = 'evilmod:Evil' WHERE name = 'heaps'")
    con.close()
    (folder / "shared.sqlite.lock").unlink(missing_ok=True)
    (folder / "evilmod.py").write_text(EVIL)
    return folder


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("GAMEDB_DB", "PYTHONPATH")}


def _gamedb(folder: Path, *args: str, stdin: str = "quit\n") -> subprocess.CompletedProcess:
    """``python -m gamedb``, as the console script runs."""
    return subprocess.run(
        [sys.executable, "-m", "gamedb", "--db", "shared.sqlite", *args],
        cwd=folder, input=stdin, capture_output=True, text=True, env=_env(), timeout=120,
    )


def _digest(path: Path) -> bytes:
    return path.read_bytes()


@pytest.mark.parametrize("args,code,says", COMMANDS, ids=[" ".join(c[0][:2]) + ("" if len(c[0]) < 3 else "+") for c in COMMANDS])
def test_a_file_never_runs_code(crafted, tmp_path, args, code, says):
    folder = tmp_path / "share"
    shutil.copytree(crafted, folder)
    before = _digest(folder / "shared.sqlite")
    args = [a.replace("{db}", "shared.sqlite").replace("{copy}", "copy.sqlite") for a in args]
    run = _gamedb(folder, *args, stdin="3\n0\n" if args[-1] == "-" else "quit\n")
    assert not (folder / "TRACE").exists(), "the module named by the file was imported"
    assert "Traceback" not in run.stdout + run.stderr
    assert run.returncode == code, run.stderr
    if code == 1:
        lines = [line for line in run.stderr.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("Error: ") and "'heaps'" in lines[0] and says in lines[0], lines
    else:
        assert says in run.stdout + run.stderr, run.stdout + run.stderr
    if args[0] != "compact":  # compact rewrites the file by design (and needs no rules)
        assert _digest(folder / "shared.sqlite") == before, "the command changed the file"
    else:
        assert "heaps" in _gamedb(folder, "list").stdout


def test_the_users_own_game_option_loads_the_class(crafted, tmp_path):
    """The person running gamedb may choose the code: the same --game, on the command line, loads it."""
    folder = tmp_path / "share"
    shutil.copytree(crafted, folder)
    before = _digest(folder / "shared.sqlite")
    run = _gamedb(folder, "query", "heaps", "3 4", "--game", "evilmod:Evil")
    assert run.returncode == 0, run.stderr
    assert "value      win" in run.stdout  # 3 XOR 4 != 0: the mover wins (Bouton)
    assert (folder / "TRACE").exists()
    assert _digest(folder / "shared.sqlite") == before


def test_a_python_caller_is_told_game_classes_not_the_flag(crafted, tmp_path):
    """The advice names what the caller can pass: ``game_classes=`` to a Python caller, who has no ``--game`` (the
    command line's words stay --game: test_a_file_never_runs_code); a sum still needs the rules, the stored rows answer."""
    from gamedb.errors import PositionNotFound, StoredCodeRefused, command_line_text

    folder = tmp_path / "share"
    shutil.copytree(crafted, folder)
    with Database(folder / "shared.sqlite", readonly=True) as db:
        for call, error in ((lambda: db.verify("heaps"), StoredCodeRefused), (lambda: db.rules("heaps"), StoredCodeRefused),
                            (lambda: db.probe("heaps", "3 4"), PositionNotFound)):  # (a sum: not stored, it needs the rules)
            with pytest.raises(error) as refused:
                call()
            assert "pass game_classes=['evilmod:Evil'] to Database" in str(refused.value) and "--game" not in str(refused.value)
            assert "pass --game evilmod:Evil" in command_line_text(refused.value) and "game_classes" not in command_line_text(refused.value)
        answer = db.probe("heaps", "3")  # answered from the stored rows, the note saying why: in the caller's words too
        assert "pass game_classes=['evilmod:Evil'] to Database" in answer.rules_missing and "--game" not in answer.rules_missing
        assert "pass --game evilmod:Evil" in answer.to_dict()["rules_missing"]  # the object `gamedb query --json` prints
    with Database(folder / "shared.sqlite", readonly=True, game_classes=["gamedb.games.heaps.nim:Nim"]) as db:
        with pytest.raises(StoredCodeRefused) as refused:
            db.verify("heaps")
        assert "(game_classes=['gamedb.games.heaps.nim:Nim'] names another class)" in str(refused.value)
        assert "(--game gamedb.games.heaps.nim:Nim names another class)" in command_line_text(refused.value)
    assert not (folder / "TRACE").exists()


def test_a_stored_family_that_is_not_installed(crafted, tmp_path):
    folder = tmp_path / "share"
    shutil.copytree(crafted, folder)
    with sqlite3.connect(folder / "shared.sqlite") as con:
        con.execute("UPDATE game SET family = 'evilmod' WHERE name = 'heaps'")
    con.close()
    run = _gamedb(folder, "query", "heaps")  # answered from the stored rows, as for a plugin not installed
    assert run.returncode == 0 and not (folder / "TRACE").exists()
    assert run.stderr.startswith("Note: the rules of 'evilmod' are not available here (its family 'evilmod' is neither built in")
    run = _gamedb(folder, "verify", "heaps")
    assert run.returncode == 1 and not (folder / "TRACE").exists()
    assert run.stderr.startswith("Error: game 'heaps': its family 'evilmod' is neither built in nor an installed plugin")


def test_without_the_class_query_answers_the_stored_values(crafted, tmp_path):
    """What the stored rows say, read without importing the class: the same values as the untouched game."""
    folder = tmp_path / "share"
    shutil.copytree(crafted, folder)
    with Database(folder / "honest.sqlite", create=True) as db:
        db.solve(make_game("nim", max=4), "heaps")
    for position in ("4", "3", "0"):
        crafted_json = json.loads(_gamedb(folder, "query", "heaps", position, "--json").stdout)
        honest = json.loads(subprocess.run(
            [sys.executable, "-m", "gamedb", "--db", "honest.sqlite", "query", "heaps", position, "--json"],
            cwd=folder, capture_output=True, text=True, timeout=120, env=_env(),
        ).stdout)
        assert "pass --game evilmod:Evil" in crafted_json.pop("rules_missing")
        for key in ("position", "result", "remoteness", "best_move", "degree", "grundy"):
            assert crafted_json.get(key) == honest.get(key), (position, key)
        assert crafted_json["moves"] == [] and crafted_json.get("moves_complete", True) is (honest["degree"] == 0)  # heaps keep no move rows
    assert not (folder / "TRACE").exists()


def test_the_query_command_loads_rules_through_the_one_loader(monkeypatch, tmp_path):
    """The console script's query rebuilds a stored game with gamedb.games.stored_family, like every other reader."""
    import gamedb.games

    from test_query_process import script

    with Database(tmp_path / "g.sqlite", create=True) as db:
        db.solve(make_game("nim", max=4), "heaps")
    asked = []
    real = gamedb.games.stored_family
    monkeypatch.setattr(gamedb.games, "stored_family", lambda name, allowed=(): asked.append((name, tuple(allowed))) or real(name, allowed))
    found = script("--db", tmp_path / "g.sqlite", "query", "heaps", "3")
    assert found[0] == 0 and "win" in found[1]
    assert asked == [("nim", ())]


def test_serve_never_imports_the_class(crafted, tmp_path, monkeypatch):
    """gamedb serve's API: the games listed, the game's page and the position answered from the stored rows, each
    saying why the rules are not used; the class is never imported."""
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from gamedb.web.app import create_app

    folder = tmp_path / "share"
    shutil.copytree(crafted, folder)
    monkeypatch.chdir(folder)
    monkeypatch.syspath_prepend(str(folder))
    client = TestClient(create_app(str(folder / "shared.sqlite")))
    assert [g["name"] for g in client.get("/api/games").json()] == ["heaps"]
    rules = client.get("/api/games/heaps")
    assert rules.status_code == 200 and "pass --game evilmod:Evil" in rules.json()["rules_missing"]
    assert rules.json()["position_syntax"] is None
    answer = client.get("/api/games/heaps/positions", params={"position": "3"})
    assert answer.status_code == 200 and answer.json()["result"] == "win" and "rules_missing" in answer.json()
    assert not (folder / "TRACE").exists()


def test_the_working_directory_leaves_the_import_path(tmp_path, monkeypatch):
    """--game finds a module where the user stands, and the directory is off the path again afterwards:
    a later import (say of an optional dependency that is not installed) never finds a file lying there."""
    from gamedb.games import load_class

    (tmp_path / "here_game.py").write_text("from gamedb.games.heaps.nim import Nim as Here\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    assert load_class("here_game:Here").family == "nim"
    assert str(tmp_path) not in sys.path
