"""The example plugin package: installed as a package, its family solves, queries, verifies and exports."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PLUGIN = ROOT / "examples" / "plugin"


@pytest.fixture(scope="module")
def plugin_path(tmp_path_factory):
    target = tmp_path_factory.mktemp("site")
    # built from a copy: pip builds a local folder in place, and its build/ and *.egg-info left in examples/plugin
    # would register the plugin's entry point for every later test that puts that folder on the path
    source = tmp_path_factory.mktemp("plugin-source") / "plugin"
    shutil.copytree(PLUGIN, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    run = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", "--target", str(target), str(source)],
        capture_output=True, text=True, timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    return target


def _gamedb(plugin_path, db, *args):
    env = dict(os.environ, PYTHONPATH=str(plugin_path))
    env.pop("GAMEDB_DB", None)
    return subprocess.run([sys.executable, "-m", "gamedb", "--db", str(db), *args], capture_output=True, text=True, env=env, timeout=300)


def _takeaway_oracle(matches, max_take):
    """Independent: the player to move loses exactly when matches % (max_take + 1) == 0."""
    return "lose" if matches % (max_take + 1) == 0 else "win"


def test_installed_plugin_family(plugin_path, tmp_path):
    db = tmp_path / "p.sqlite"
    games = json.loads(_gamedb(plugin_path, db, "games", "--json").stdout)
    assert "takeaway" in {g["family"] for g in games}
    solved = _gamedb(plugin_path, db, "solve", "takeaway", "--matches", "21", "--max-take", "3", "-q")
    assert solved.returncode == 0, solved.stderr
    for text in ("matches=20,turn=bob", "matches=18,turn=bob", "matches=16,turn=alice"):
        data = json.loads(_gamedb(plugin_path, db, "query", "takeaway", text, "--json").stdout)
        assert data["result"] == _takeaway_oracle(int(text.split(",")[0].split("=")[1]), 3)
    start = json.loads(_gamedb(plugin_path, db, "query", "takeaway", "--json").stdout)
    assert (start["player"], start["result"], start["winner"], start["best_move"]) == ("alice", "win", "alice", "1")
    assert _gamedb(plugin_path, db, "verify", "takeaway", "-q").returncode == 0
    exported = _gamedb(plugin_path, db, "export", "takeaway", "-f", "jsonl").stdout.splitlines()
    assert len(exported) == 22 * 2 - 2  # every (matches, turn) but (21, bob) and (20, alice)
    for line in exported:
        row = json.loads(line)
        n = int(row["position"].split(",")[0].split("=")[1])
        assert row["result"] == _takeaway_oracle(n, 3)


def test_game_class_by_module_path(plugin_path, tmp_path):
    db = tmp_path / "q.sqlite"
    solved = _gamedb(plugin_path, db, "solve", "--game", "gamedb_takeaway:TakeAway", "--set", "matches=10", "--set", "max_take=2", "--name", "tk", "-q")
    assert solved.returncode == 0, solved.stderr
    data = json.loads(_gamedb(plugin_path, db, "query", "tk", "--json").stdout)
    assert data["result"] == _takeaway_oracle(10, 2)
    listed = json.loads(_gamedb(plugin_path, db, "list", "--json").stdout)
    assert listed[0]["family"] == "takeaway"  # found again through the installed entry point
    bad = _gamedb(plugin_path, db, "solve", "--game", "gamedb_takeaway:TakeAway", "--set", "colour=red", "-q")
    assert bad.returncode == 2 and "no option 'colour'" in bad.stderr
    missing = _gamedb(plugin_path, db, "solve", "--game", "no_such_module:Game", "-q")
    assert missing.returncode == 2 and "cannot import" in missing.stderr  # a --game value that names nothing: a bad option


def test_game_module_in_the_working_directory(tmp_path):
    """`gamedb solve --game mygame:Class` finds mygame.py (or a package) where the user stands, as `python -m` would."""
    import shutil

    shutil.copytree(PLUGIN / "gamedb_takeaway", tmp_path / "mytake")
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    env.pop("GAMEDB_DB", None)

    def gamedb(*args):
        return subprocess.run(
            [sys.executable, "-c", "from gamedb.cli.app import main; main()", *args], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=300
        )

    solved = gamedb("solve", "--game", "mytake:TakeAway", "--set", "matches=9", "--name", "here", "-q")
    assert solved.returncode == 0, solved.stderr
    # the file names mytake:TakeAway; the class loads again only when the user names it too
    # without it, query answers from the stored rows and says what to pass; verify needs the rules
    rows_only = json.loads(gamedb("query", "here", "--json").stdout)
    assert rows_only["result"] == _takeaway_oracle(9, 3) and "pass --game mytake:TakeAway" in rows_only["rules_missing"]
    refused = gamedb("verify", "here")
    assert refused.returncode == 1 and refused.stderr.strip().endswith("pass --game mytake:TakeAway"), refused.stderr
    data = json.loads(gamedb("query", "here", "--json", "--game", "mytake:TakeAway").stdout)
    assert data["result"] == _takeaway_oracle(9, 3)


@pytest.mark.parametrize(
    "source,code,message",
    [
        ("x = 1 / 0\n", 1, "importing 'mygame' for game 'mygame:Game' failed: ZeroDivisionError: division by zero ("),
        ("def f(:\n", 1, "importing 'mygame' for game 'mygame:Game' failed: SyntaxError: "),
        ("import no_such_dependency_here\n", 1, "ModuleNotFoundError: No module named 'no_such_dependency_here' ("),
        ("Game = 3\n", 2, "'mygame:Game' is not a gamedb.games.base.Game subclass"),
        ("", 2, "module 'mygame' has no 'Game'"),
    ],
    ids=["raises", "syntax-error", "missing-dependency", "not-a-class", "no-such-class"],
)
def test_broken_game_module_is_one_line(tmp_path, source, code, message):
    """A module that fails while it loads is the module's fault (exit 1) and says where; a name that finds no game class is a bad option (exit 2)."""
    (tmp_path / "mygame.py").write_text(source)
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    env.pop("GAMEDB_DB", None)
    run = subprocess.run(
        [sys.executable, "-m", "gamedb", "--db", "x.sqlite", "solve", "--game", "mygame:Game", "-q"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert run.returncode == code, run.stderr
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0], lines
    if code == 1 and "SyntaxError" not in message:
        assert "mygame.py:1)" in lines[0]
    assert not (tmp_path / "x.sqlite").exists()


def test_shared_file_answers_without_the_plugin(plugin_path, tmp_path):
    """A file solved with a plugin, read where the plugin is not installed: answered from the stored rows."""
    db = tmp_path / "shared.sqlite"
    assert _gamedb(plugin_path, db, "solve", "takeaway", "--matches", "9", "--max-take", "3", "--name", "tk", "-q").returncode == 0
    with_rules = {}
    for text in ("matches=9,turn=alice", "matches=6,turn=bob", "matches=0,turn=bob"):
        with_rules[text] = json.loads(_gamedb(plugin_path, db, "query", "tk", text, "--json").stdout)
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    env.pop("GAMEDB_DB", None)

    def without(*args):  # the plugin is not on the path: as after `pip uninstall gamedb-takeaway`
        return subprocess.run([sys.executable, "-m", "gamedb", "--db", str(db), *args], capture_output=True, text=True, env=env, timeout=300)

    for text, expected in with_rules.items():
        run = without("query", "tk", text, "--json")
        assert run.returncode == 0, run.stderr
        data = json.loads(run.stdout)
        assert "takeaway" in data.pop("rules_missing")
        # value, remoteness, best move, players; the moves where the file keeps move rows (the tier solver keeps none)
        moves, complete = data.pop("moves"), data.pop("moves_complete", True)
        assert moves == (expected["moves"] if complete else [])
        assert data == {k: v for k, v in expected.items() if k != "moves"}
        n = int(text.split(",")[0].split("=")[1])
        assert data["result"] == _takeaway_oracle(n, 3)
    start = without("query", "tk")  # the start, in plain text: the same lines but the board picture, and a note on stderr
    with_board = _gamedb(plugin_path, db, "query", "tk").stdout.splitlines()
    head = [line for line in with_board if not line.startswith(" " * 11)]
    head = head[: next((i for i, line in enumerate(head) if line.startswith("moves (")), len(head))]
    assert start.returncode == 0 and start.stdout.splitlines()[: len(head)] == head
    assert start.stderr.startswith("Note: the rules of 'takeaway' are not available here") and "Needs the rules" in start.stderr
    # reading another spelling of a position needs the rules: said in one line, exit 1
    respelled = without("query", "tk", "turn=alice,matches=9")
    assert respelled.returncode == 1 and "must be written exactly as stored" in respelled.stderr
    # verify needs the rules
    assert without("verify", "tk").returncode == 1
    # a compacted file keeps no move rows: the answer says its move list is incomplete
    assert without("compact", "tk").returncode == 0
    data = json.loads(without("query", "tk", "--json").stdout)
    assert data["moves"] == [] and data["moves_complete"] is False and data["best_move"] == "1"
    assert "no moves" in data["rules_missing"]


RAISING = '''from gamedb_takeaway import TakeAway


class InitRaises(TakeAway):
    def __init__(self, **options):
        raise RuntimeError("boom in init")


class MovesRaise(TakeAway):
    def moves(self, state):
        raise ValueError("boom in moves")

    def array_rules(self):
        return None


class ParseRaises(TakeAway):
    def parse(self, text):
        raise KeyError("boom in parse")
'''


@pytest.mark.parametrize(
    "args,line",
    [
        (["solve", "--game", "mygame:InitRaises", "-q"], ("RuntimeError: boom in init (", "mygame.py:6)")),
        (["solve", "--game", "mygame:MovesRaise", "-q"], ("ValueError: boom in moves (", "mygame.py:11)")),
        (["query", "pr", "matches=3,turn=bob", "--game", "mygame:ParseRaises"], ("KeyError: 'boom in parse' (", "mygame.py:19)")),
    ],
    ids=["init", "moves", "parse"],
)
def test_a_game_class_that_raises_is_one_line(plugin_path, tmp_path, args, line):
    """A game class whose own code raises (in __init__, moves, parse) is the class's fault: one line naming where, exit 1.
    Before, a traceback of several screens (Rich's boxes) ended in the exception."""
    (tmp_path / "mygame.py").write_text(RAISING)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(plugin_path), os.environ.get("PYTHONPATH")])))
    env.pop("GAMEDB_DB", None)

    def gamedb(*args):
        return subprocess.run([sys.executable, "-m", "gamedb", "--db", "x.sqlite", *args], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=300)

    assert gamedb("solve", "--game", "mygame:ParseRaises", "--set", "matches=5", "--name", "pr", "-q").returncode == 0
    run = gamedb(*args)
    lines = [text for text in run.stderr.splitlines() if text.strip()]
    assert run.returncode == 1, run.stderr
    assert len(lines) == 1 and lines[0].startswith("Error: the game's own code failed: " + line[0]), lines
    assert lines[0].endswith(os.sep + line[1]), lines
    assert "Traceback" not in run.stderr


def test_a_game_option_naming_another_class_is_said(tmp_path):
    """A --game that names another class than the stored game's (a typo) is not used: the line said only
    "pass --game mytake:TakeAway", as if none had been given; now it says the one given names another class."""
    shutil.copytree(PLUGIN / "gamedb_takeaway", tmp_path / "mytake")
    env = dict(os.environ)
    env.pop("GAMEDB_DB", None)

    def gamedb(*args):
        return subprocess.run([sys.executable, "-m", "gamedb", "--db", "x.sqlite", *args], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=300)

    assert gamedb("solve", "--game", "mytake:TakeAway", "--set", "matches=5", "--name", "tk", "-q").returncode == 0
    typo = gamedb("verify", "tk", "--game", "mytake:Takeaway")
    assert typo.returncode == 1 and "(--game mytake:Takeaway names another class)" in typo.stderr, typo.stderr
    assert typo.stderr.strip().endswith("pass --game mytake:TakeAway")
    note = gamedb("query", "tk", "--game", "mytake:Takeaway")
    assert note.returncode == 0 and "(--game mytake:Takeaway names another class)" in note.stderr, note.stderr
