"""The fast paths of issue 12 give exactly what the full command line gives.

- `gamedb query NAME -` answers a batch at a time; each line's answer must be
  the one-position `gamedb query NAME POSITION --json` object, and bad lines
  (malformed, not in the game, over-long) an error object in their place.
- `gamedb solve FAMILY ...` into a file that does not exist yet (written without
  SQLAlchemy, gamedb.solvers.new_file) must solve, report and fail exactly as
  into an existing file.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from gamedb import Database, make_game
from gamedb.answer_output import MAX_LINE
from gamedb.errors import GamedbError, command_line_text

from oracles.impartial import remoteness_by_search, subtraction_children

SCRIPT = "from gamedb.cli.app import main; main()"  # the console script

GAMES = {
    "tictactoe": ("tictactoe", {}),
    "connect4": ("connect4", {"width": 4, "height": 3, "connect": 3}),
    "nim": ("nim", {"max": 7}),
}


def _gamedb(code: str, *args: str, input: str | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("GAMEDB_DB", None)
    return subprocess.run([sys.executable, "-c", code, *args], input=input, capture_output=True, text=True, env=env, cwd=cwd, timeout=300)


@pytest.fixture(scope="module")
def solved(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("fast") / "games.sqlite"
    with Database(path, create=True) as db:
        for name, (fam, options) in GAMES.items():
            db.solve(make_game(fam, **options), name)
    return path


def _stored_texts(path: Path, name: str) -> list[str]:
    with sqlite3.connect(path) as conn:
        return [t for (t,) in conn.execute("SELECT position FROM positions WHERE game = ? ORDER BY code", (name,))]


# --- many positions: the batch path gives the one-position answers ---------------------------------

@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_line_is_the_one_position_answer(solved, name):
    texts = _stored_texts(solved, name)
    sample = random.Random(5).sample(texts, min(60, len(texts)))
    if name == "nim":  # sums, some of whose remoteness the search leaves open, and the same sums again
        sample += ["3 5 7", "7 7 6", "8 7 8", "5 6 7 7", "1 2 3", "7 6 5", "6 6 7 7", "3 5 7"]
    else:
        sample += sample[:5]  # repeats
    run = _gamedb(SCRIPT, "--db", str(solved), "query", name, "-", input="".join(t + "\n" for t in sample))
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(lines) == len(sample), run.stderr
    with Database(solved, readonly=True) as db:
        for text, line in zip(sample, lines, strict=True):
            try:
                expected = db.query_json(name, text)
            except GamedbError as exc:
                expected = {"position": text, "error": command_line_text(exc)}  # (the command line names --max, Python max=)
            assert line == expected, text
    for text, line in list(zip(sample, lines, strict=True))[-3:]:  # the command a user types, for a few of them
        one = _gamedb(SCRIPT, "--db", str(solved), "query", name, "--json", "--", text)
        assert one.returncode == 0 and json.loads(one.stdout) == line


def test_nim_lines_agree_with_a_brute_force_search(solved):
    """Value and remoteness of every sum of up to three heaps, answered in one stream, against plain minimax."""
    positions = sorted({tuple(sorted(p)) for p in _heaps(7, 3)})
    texts = [" ".join(map(str, p)) or "0" for p in positions]
    run = _gamedb(SCRIPT, "--db", str(solved), "query", "nim", "-", input="".join(t + "\n" for t in texts))
    assert run.returncode == 0, run.stderr
    children = subtraction_children(range(1, 8))
    known = 0
    for position, line in zip(positions, run.stdout.splitlines(), strict=True):
        answer = json.loads(line)
        wins, remoteness = remoteness_by_search(children, position)
        assert answer["result"] == ("win" if wins else "lose"), position
        if answer["remoteness"] is not None:  # null only where the README says it is not determined
            assert answer["remoteness"] == remoteness, position
            known += 1
        else:
            assert len([h for h in position if h]) >= 2
    assert known > len(positions) * 0.9


def _heaps(top: int, count: int):
    if count == 0:
        yield ()
        return
    for rest in _heaps(top, count - 1):
        for h in range(top + 1):
            yield (*rest, h)


def test_bad_lines_give_one_error_line_each(solved):
    long_line = "X" * (MAX_LINE + 1)
    lines = ["X...O....", "", "XXXX", "   ", "XXXXXXXXX", long_line, "Q" * MAX_LINE, "XX.OO...."]
    for code in (SCRIPT, "import runpy; runpy.run_module('gamedb', run_name='__main__')"):  # gamedb, python -m gamedb
        run = _gamedb(code, "--db", str(solved), "query", "tictactoe", "-", input="\n".join(lines) + "\n")
        assert run.returncode == 1 and "Traceback" not in run.stderr
        assert run.stderr == "Error: 4 of 6 positions could not be answered\n"  # blank lines are skipped
        out = [json.loads(line) for line in run.stdout.splitlines()]
        assert [d["position"] for d in out] == ["X...O....", "XXXX", "XXXXXXXXX", "X" * 40 + "...", "Q" * MAX_LINE, "XX.OO...."]
        assert out[1]["error"].startswith("bad tic-tac-toe position 'XXXX'")
        assert "as many marks as O" in out[2]["error"]
        assert out[3] == {"position": "X" * 40 + "...", "error": f"a line of {MAX_LINE + 1:,} characters is not a position (at most {MAX_LINE:,})"}
        assert set(out[4]) == {"position", "error"}
        assert out[5]["best_move"] == "3"
    csv_run = _gamedb(SCRIPT, "--db", str(solved), "query", "tictactoe", "-", "-f", "csv", input=f"{long_line}\nX...O....\n")
    assert csv_run.stdout.splitlines()[1].startswith("X" * 40 + "...,,,")


def test_positions_not_in_the_game(solved):
    run = _gamedb(SCRIPT, "--db", str(solved), "query", "nim", "-", input="3 5\n99\n-1\n7 7\n")
    out = [json.loads(line) for line in run.stdout.splitlines()]
    assert run.returncode == 1 and run.stderr == "Error: 2 of 4 positions could not be answered\n"
    assert "larger than --max 7" in out[1]["error"] and "is not a heap size" in out[2]["error"]
    assert out[0]["position"] == "3 5" and out[3]["position"] == "7 7"
    # a board that no play reaches (the connect4 file is 4x3, connect 3: column 5 does not exist)
    c4 = _gamedb(SCRIPT, "--db", str(solved), "query", "connect4", "-", input="5\n1\n")
    first, second = (json.loads(line) for line in c4.stdout.splitlines())
    assert "there is no column 5" in first["error"] and second["position"] == "1"


def test_a_sum_of_hundreds_of_heaps_is_answered(solved):
    """A long line of many heaps gives its value (its remoteness not determined) rather than a traceback."""
    for text in (" ".join(["7"] * 300), " ".join(["1"] * 1500)):
        run = _gamedb(SCRIPT, "--db", str(solved), "query", "nim", "-", input=text + "\n")
        assert run.returncode == 0, run.stderr[-500:]
        answer = json.loads(run.stdout)
        assert answer["result"] == "lose" and answer["remoteness"] is None  # an even number of equal heaps
    with Database(solved, readonly=True) as db:  # alone, the same
        assert db.query_json("nim", " ".join(["7"] * 300))["remoteness"] is None


# --- how a solve command line is read; a new file and an existing one ---------------------------

def _read(monkeypatch, argv):
    """(exit code, stderr, what the solve was asked: db, game options, name, force, quiet, strategy, memory limit) of ``argv``."""
    from typer.testing import CliRunner

    import gamedb.cli.solve
    from gamedb.cli.app import app

    asked = []
    monkeypatch.setattr(gamedb.cli.solve, "run_solve", lambda db, game, *rest: asked.append((db, game.parameters(), *rest)))
    result = CliRunner().invoke(app, argv)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stderr, asked[0] if asked else None


def test_plain_solve_command_lines_are_read(monkeypatch):
    default = os.environ.get("GAMEDB_DB") or "gamedb.sqlite"
    assert _read(monkeypatch, ["--db", "x", "solve", "nim", "--max", "13", "-q"])[2] == ("x", {"max": 13}, None, False, True, "auto", None, None, None)
    assert _read(monkeypatch, ["solve", "--name", "n", "--force", "nim", "--max=5", "--strategy", "sql"])[2] == (
        default, {"max": 5}, "n", True, False, "sql", None, None, None
    )
    assert _read(monkeypatch, ["--db=y", "solve", "connect4", "--width", "5"])[2][:2] == ("y", {"width": 5, "height": 4, "connect": 4})
    assert _read(monkeypatch, ["--db", "x", "solve", "subtraction", "--set", "1,2,5", "--memory-limit", "1G"])[2][-3:] == ("1G", None, None)
    assert _read(monkeypatch, ["solve", "tictactoe", "--no-symmetry"])[2][-1] is False
    assert _read(monkeypatch, ["solve", "connect4", "--symmetry"])[2][-1] is True


@pytest.mark.parametrize(
    "argv,code,solves",
    [
        (["solve", "nim", "--help"], 0, False),
        (["solve", "-h"], 0, False),
        (["solve"], 0, False),
        (["solve", "--game", "m:C"], 2, False),
        (["solve", "--set", "max=3", "nim"], 2, False),
        (["solve", "nim", "--max", "x"], 2, False),
        (["solve", "nim", "--max", "+5"], 0, True),
        (["solve", "nim", "--max", "5", "--max", "6"], 0, True),
        (["solve", "nim", "--bogus", "1"], 2, False),
        (["solve", "subtraction", "--max", "5"], 2, False),  # --set is required
        (["solve", "nim", "--strategy", "bogus"], 2, False),
        (["solve", "--name", "a", "nim", "--name", "b"], 2, False),
        (["solve", "takeaway"], 2, False),  # not built in (a plugin's, perhaps)
        (["--version", "solve", "nim"], 0, False),
        (["solve", "nim", "--name", "-x"], 0, True),
    ],
)
def test_other_solve_command_lines(monkeypatch, argv, code, solves):
    """Help, --game, a bad or repeated option, a clash: read by the one command line, a mistake said in one line."""
    found, stderr, asked = _read(monkeypatch, argv)
    assert (found, asked is not None) == (code, solves), stderr
    if code:
        assert len(stderr.splitlines()) == 1 and stderr.startswith("Error: "), stderr


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "nim", "--max", "13"],
        ["solve", "--name", "foo2", "--quiet", "nim", "--max", "5"],
        ["solve", "tictactoe", "-q", "--strategy", "memory"],
        ["solve", "octal", "--code", "0.9", "--max", "5"],  # refused by the family: exit 2, one line
        ["solve", "connect4", "--width", "0"],
        ["solve", "nim", "--max", "5", "--memory-limit", "lots"],
    ],
)
def test_a_new_file_and_an_existing_one_print_and_store_the_same(tmp_path, args):
    runs, tables = [], []
    for folder in ("new", "existing"):
        (tmp_path / folder).mkdir()
        db = tmp_path / folder / "games.sqlite"
        if folder == "existing":
            Database(db, create=True).close()
        first = _gamedb(SCRIPT, "--db", db.name, *args, cwd=db.parent)  # a relative path: the messages name it alike
        again = _gamedb(SCRIPT, "--db", db.name, *args, cwd=db.parent)  # already solved, or the same refusal
        runs.append([(r.returncode, _no_seconds(r.stdout), r.stderr) for r in (first, again)])
        tables.append(_positions(db) if db.exists() else None)
    assert runs[0] == runs[1]
    assert tables[0] == tables[1] or (tables[0] is None and tables[1] == [])
    assert "Traceback" not in "".join(err for _, _, err in runs[0])


def _no_seconds(text: str) -> str:
    import re

    return re.sub(r" in [0-9.]+ s\.", " in N s.", text)


def _positions(db: Path):
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT g.name, p.* FROM position p JOIN game g ON g.id = p.game_id ORDER BY g.name, p.code").fetchall()
