"""A read command on a SQLite file imports no SQLAlchemy, and a command builds only itself (issue 21, item 1); a query
imports no numpy (checking a stored cat-mouse graph did: 0.05 s of a 0.14 s `gamedb query cat-mouse`).

The full command line (Typer) is run as a user types it, in a subprocess,
and the modules it imported are listed from ``sys.modules`` at exit. The
control: ``solve`` into an existing file and ``db upgrade`` do import
SQLAlchemy, so the check can see it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gamedb import Database, make_game

#: runs the full command line, then prints the gamedb families and the SQLAlchemy modules it imported (on stderr)
PROBE = (
    "import atexit, sys\n"
    "atexit.register(lambda: print('IMPORTED', sorted(m for m in sys.modules "
    "if m.split('.')[0] in ('sqlalchemy', 'numpy') or m.startswith('gamedb.games.') or m.startswith('gamedb.cli.')), file=sys.stderr))\n"
    "from gamedb.cli.app import main\n"
    "main()\n"
)


#: LeetCode 913's first example
SIX_NODES = [[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]


@pytest.fixture(scope="module")
def solved(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("reads") / "games.sqlite"
    with Database(path, create=True) as db:
        db.solve(make_game("tictactoe"))
        db.solve(make_game("nim", max=7))
        db.solve(make_game("cat-mouse", graph=SIX_NODES))
    return path


def _imported(*args: str, input: str | None = None) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    env = {k: v for k, v in os.environ.items() if k != "GAMEDB_DB"}
    run = subprocess.run([sys.executable, "-c", PROBE, *args], input=input, capture_output=True, text=True, env=env, timeout=300)
    line = next(line for line in run.stderr.splitlines() if line.startswith("IMPORTED"))
    return run, set(eval(line.removeprefix("IMPORTED ")))  # a list of module names, printed by PROBE


@pytest.mark.parametrize(
    "args",
    [
        ["list"],
        ["list", "--json"],
        ["stats", "tictactoe"],
        ["query", "tictactoe", "X...O...."],
        ["query", "nim", "3 5"],
        ["query", "tictactoe", "-"],
        ["export", "nim", "--format", "jsonl"],
        ["games"],  # which checks --db (a path here), and opens no database
    ],
)
def test_a_read_imports_no_sqlalchemy(solved, args):
    run, modules = _imported("--db", str(solved), *args, input="X...O....\n.........\n")
    assert run.returncode == 0, run.stderr
    assert run.stdout
    assert not {m for m in modules if m.startswith("sqlalchemy")}, args


@pytest.mark.parametrize("args", [["query", "cat-mouse"], ["query", "cat-mouse", "mouse=3,cat=2,turn=cat"], ["query", "tictactoe"], ["query", "nim", "3 5"]])
def test_a_query_imports_no_numpy(solved, args):
    """Answering builds the game's rules from its stored parameters (a cat-mouse graph checked again) without numpy."""
    run, modules = _imported("--db", str(solved), *args)
    assert run.returncode == 0, run.stderr
    assert "mouse" in run.stdout or "X" in run.stdout or "3 5" in run.stdout
    assert "numpy" not in modules, args


def test_a_solve_imports_numpy(solved):
    """The control: the check sees numpy where it is used (the array solvers)."""
    run, modules = _imported("--db", str(solved), "solve", "cat-mouse", "--graph", str(SIX_NODES).replace(" ", ""), "--name", "cm2", "-q")
    assert run.returncode == 0, run.stderr
    assert "numpy" in modules


def test_a_write_imports_sqlalchemy(solved):
    """The control: the check sees SQLAlchemy where it is used."""
    run, modules = _imported("--db", str(solved), "solve", "nim", "--max", "7", "--name", "nim-again", "-q")
    assert run.returncode == 0, run.stderr
    assert "sqlalchemy" in modules


def test_a_command_builds_only_itself(solved):
    """`gamedb solve nim` imports no other family and not the play or serve commands; help lists them all."""
    _, modules = _imported("--db", str(solved), "query", "tictactoe")
    assert "gamedb.cli.info" in modules
    assert not {"gamedb.cli.solve", "gamedb.cli.play", "gamedb.cli.serve", "gamedb.cli.data"} & modules
    run, modules = _imported("--db", str(solved), "solve", "nim", "--max", "5", "--name", "nim5", "-q")
    assert run.returncode == 0, run.stderr
    assert "gamedb.games.heaps" in modules or "gamedb.games.nim" in modules
    assert "gamedb.games.connect4" not in modules and "gamedb.games.tictactoe" not in modules
    run, modules = _imported("solve", "--help")
    assert "connect4" in run.stdout and "gamedb.games.connect4" in modules
